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
    NO_BONUS_MOVE = "the unit has no bonus move to make"
    NO_BREAKTHROUGH = "only horse that won a close combat may break through"
    SAME_FOE = "a breakthrough attacks another unit than the one just beaten"
    NOT_CHARGED = "the unit has not been charged this turn"
    CHARGED_AFTER_MOVING = "a unit charged after it moved stands to receive the charge"
    MUST_TEST = "a charged unit must pass a morale test before it moves away, reforms or refaces"
    ALREADY_TESTED = "the unit has already passed its test to move"
    NOT_AWAY = "a unit moving away from a charge must end farther from every charger"
    COUNTERCHARGE_ONLY = "a charged unit may charge only the units that charged it"
    NOT_FLANK = "the charge is not on the unit's flank or rear"
    GALLOPER_APART = "a galloper gun must end touching the unit it is attached to"
    NOT_IN_FRONT_RANK = "the officer is in no unit's front rank"
    IN_FRONT_RANK = "the officer is already in a unit's front rank"
    ROUTED_UNIT = "the unit is routed"
    NOT_JOINABLE = "no officer fights in that unit's front rank"
    NOT_HIS_COMMAND = "the officer does not command that unit"
    NOT_TOUCHING = "the officer does not touch the unit"
