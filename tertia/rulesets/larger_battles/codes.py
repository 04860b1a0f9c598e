"""larger-battles' own violation codes (see :mod:`tertia.core.violations`)."""

from __future__ import annotations

from tertia.core.violations import Codes


class LargerBattlesCode(Codes, namespace="larger-battles"):
    """Refusals only larger-battles makes: orders and the combat phase's attacks."""

    NO_ORDERS_LEFT = "the side has no orders left this turn"
    ALREADY_ORDERED = "the command or unit already has an order"
    MOVES_NOTHING = "an order to move would move no piece"
    BOMBARDS_NOTHING = "an order to bombard would fire no gun"
    NOT_ORDERED = "the unit has no order to act on"
    FLANK_PRIMARY = "a flank or rear attacker cannot be the primary"
