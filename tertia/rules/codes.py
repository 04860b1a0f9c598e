"""Violation codes of the shared blocks in :mod:`tertia.rules` and :mod:`tertia.activation`
(see :mod:`tertia.core.violations`)."""

from __future__ import annotations

from tertia.core.violations import Codes


class MovementCode(Codes, namespace="movement"):
    """Refusals of a move (:mod:`tertia.rules.movement`)."""

    TOO_FAR = "the path is longer than the allowance"
    BAD_PATH = "the path is malformed"
    OFF_TABLE = "the piece would leave the table"
    COLLISION = "the piece would pass through or overlap another"
    IMPASSABLE = "the path crosses ground the piece may not enter"
    RIVER = "a river may be crossed only where the rules allow"
    ENEMY_ZONE = "the piece would come too close to the enemy"
    NOT_AWAY = "the move must lead away from the enemy"
    CANNOT_END_HERE = "the piece may not end its move there"
    STATIONARY = "the piece may not move now"
    MOVED_SIDEWAYS = "the piece moved sideways or back and may not do this"


class FightingCode(Codes, namespace="fighting"):
    """Refusals of shooting and fighting."""

    OUT_OF_RANGE = "the target is out of range"
    NOT_IN_FRONT = "the target is not in front of the piece"
    NO_LINE_OF_SIGHT = "the target cannot be seen"
    ENEMY_TOO_CLOSE = "an enemy is too close to do this"
    TARGET_ENGAGED = "the target is already engaged"
    NOT_ENEMY = "the target is not an enemy"
    NOT_IN_CONTACT = "the pieces are not in contact"
    ENGAGED = "the piece is engaged and may not do this"
    OUT_OF_AMMUNITION = "the piece has no ammunition"
    BAD_SUPPORT = "a supporting unit may not support this attack"
    BAD_COMMANDER = "the commander may not encourage this attack"


class ActivationCode(Codes, namespace="activation"):
    """Refusals of activation by cards (:mod:`tertia.activation`)."""

    BAD_CARD_ORDER = "the cards are not ordered as held"
    NOT_ACTIVATED = "the piece is not activated now"
