"""Charge yr Pikes!' own violation codes (see :mod:`tertia.core.violations`)."""

from __future__ import annotations

from tertia.core.violations import Codes


class CypCode(Codes, namespace="charge-yr-pikes"):
    """Refusals only Charge yr Pikes! makes."""

    NOT_MOVING = "the unit may not move on this card"
    ALREADY_MOVED = "the unit has already moved on this card"
    NO_SUCH_MOVE = "the unit's troop type has no such move"
    TOO_FAR = "the move is longer than the unit's allowance"
    LEAVES_TERTIA = "the unit would leave its tertia"
    FORMATION_NOT_ALLOWED = "the unit may not take up that formation"
    SAME_FORMATION = "the unit is already in that formation"
    ALREADY_REFORMED = "the unit has already changed formation on this card"
    NO_CARD = "no card is being played"
