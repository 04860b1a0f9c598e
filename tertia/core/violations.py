"""Why an action is illegal: stable codes, messages with the numbers, and the rule."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    """Stable violation codes: front ends and tests match on these, never on messages."""

    GAME_OVER = "GAME_OVER"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    WRONG_PHASE = "WRONG_PHASE"
    UNKNOWN_UNIT = "UNKNOWN_UNIT"
    UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
    NOT_YOUR_UNIT = "NOT_YOUR_UNIT"
    UNIT_REMOVED = "UNIT_REMOVED"
    NO_ORDERS_LEFT = "NO_ORDERS_LEFT"
    ALREADY_ORDERED = "ALREADY_ORDERED"
    NOT_ORDERED = "NOT_ORDERED"
    ALREADY_MOVED = "ALREADY_MOVED"
    ALREADY_ACTED = "ALREADY_ACTED"
    TOO_FAR = "TOO_FAR"
    BAD_PATH = "BAD_PATH"
    OFF_TABLE = "OFF_TABLE"
    COLLISION = "COLLISION"
    IMPASSABLE = "IMPASSABLE"
    RIVER = "RIVER"
    ENEMY_ZONE = "ENEMY_ZONE"
    NOT_AWAY = "NOT_AWAY"
    CANNOT_END_HERE = "CANNOT_END_HERE"
    STATIONARY = "STATIONARY"
    CANNOT_ACT = "CANNOT_ACT"
    OUT_OF_RANGE = "OUT_OF_RANGE"
    NOT_IN_FRONT = "NOT_IN_FRONT"
    NO_LINE_OF_SIGHT = "NO_LINE_OF_SIGHT"
    ENEMY_TOO_CLOSE = "ENEMY_TOO_CLOSE"
    TARGET_ENGAGED = "TARGET_ENGAGED"
    NOT_ENEMY = "NOT_ENEMY"
    BAD_SUPPORT = "BAD_SUPPORT"
    FLANK_PRIMARY = "FLANK_PRIMARY"
    BAD_COMMANDER = "BAD_COMMANDER"
    NOTHING_PENDING = "NOTHING_PENDING"
    PENDING_DECISION = "PENDING_DECISION"
    UNKNOWN_ACTION = "UNKNOWN_ACTION"
    NOT_ACTIVATED = "NOT_ACTIVATED"
    CANNOT_CHARGE = "CANNOT_CHARGE"
    CHARGE_TURN = "CHARGE_TURN"
    FACE_TAKEN = "FACE_TAKEN"
    NOT_IN_CONTACT = "NOT_IN_CONTACT"
    ENGAGED = "ENGAGED"
    MOVED_SIDEWAYS = "MOVED_SIDEWAYS"
    OUT_OF_AMMUNITION = "OUT_OF_AMMUNITION"
    COHESION = "COHESION"
    BAD_CARD_ORDER = "BAD_CARD_ORDER"
    NO_RALLIES_LEFT = "NO_RALLIES_LEFT"
    NOT_JOINED = "NOT_JOINED"
    WEATHER = "WEATHER"
    BAD_DEPLOYMENT = "BAD_DEPLOYMENT"
    TOWN_OCCUPIED = "TOWN_OCCUPIED"


@dataclass(frozen=True, slots=True)
class Violation:
    """One reason an action is illegal."""

    code: Code
    message: str
    rule: str

    def __str__(self) -> str:
        return f"IllegalAction({self.code.value}): {self.message} ({self.rule})"

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code.value, "message": self.message, "rule": self.rule}


class IllegalAction(Exception):
    """Raised by ``apply`` for an action that ``validate`` rejects."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        super().__init__("; ".join(str(v) for v in violations))
