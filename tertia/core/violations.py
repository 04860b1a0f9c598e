"""Why an action is illegal: stable codes, messages with the numbers, and the rule.

A violation code is a namespaced string, ``"<namespace>.<NAME>"``: ``core`` for what any
rule set refuses (out of turn, an unknown piece), a shared block's name for what it checks
(``movement``, ``fighting``, ``activation``), a rule set's id for its own. Each namespace
declares its codes once, as a :class:`Codes` class whose attributes hold a short meaning;
declaring turns each into its code and registers it, refusing a code declared twice.

>>> class ExampleCode(Codes, namespace="example"):
...     TOO_LATE = "the moment has passed"
>>> ExampleCode.TOO_LATE, CODES[ExampleCode.TOO_LATE]
('example.TOO_LATE', 'the moment has passed')
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

CODES: dict[str, str] = {}
"""Every declared code, with its meaning."""


class Codes:
    """Base of a namespace of violation codes (see the module's docstring)."""

    namespace: str = ""

    def __init_subclass__(cls, namespace: str, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.namespace = namespace
        for name, meaning in list(vars(cls).items()):
            if not name.isupper() or not isinstance(meaning, str):
                continue
            code = f"{namespace}.{name}"
            if code in CODES:
                raise TypeError(f"{cls.__module__}.{cls.__qualname__} declares {code!r} again")
            CODES[code] = meaning
            setattr(cls, name, code)


class CoreCode(Codes, namespace="core"):
    """What any rule set refuses: codes front ends and tests match on, never messages."""

    GAME_OVER = "the battle is over"
    NOT_YOUR_TURN = "the action is taken out of turn"
    WRONG_PHASE = "the action belongs to another phase"
    UNKNOWN_UNIT = "no piece has that id"
    UNKNOWN_COMMAND = "no command (group) has that name"
    NOT_YOUR_UNIT = "the piece belongs to the other side"
    UNIT_REMOVED = "the piece is no longer in play"
    NOTHING_PENDING = "no decision of that kind is awaited"
    PENDING_DECISION = "another decision must be made first"
    UNKNOWN_ACTION = "the rule set has no such action"
    CANNOT_ACT = "the piece may not do that"
    ALREADY_ACTED = "the piece has already done that this turn"
    ALREADY_MOVED = "the piece has already moved this turn"


@dataclass(frozen=True, slots=True)
class Violation:
    """One reason an action is illegal."""

    code: str
    message: str
    rule: str

    def __str__(self) -> str:
        """The reason as a player reads it: the message and the rule it cites (the code is
        for programs, in :meth:`to_dict`)."""
        return f"{self.message} ({self.rule})" if self.rule else self.message

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule}


class IllegalAction(Exception):
    """Raised by ``apply`` for an action that ``validate`` rejects."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        super().__init__("; ".join(str(v) for v in violations))


def not_in_play(state: Any, piece_id: str, what: str = "unit", *, foe_of: str | None = None,
                unseen: Collection[str] = ()) -> str:
    """Why ``piece_id`` is no piece to act with or on, in words a player reads: no such
    piece (its id as it was typed), one no longer in play (by its name), or, ``foe_of``
    given, one of that side's own where an enemy is wanted. A piece off the table for one
    of the ``unseen`` reasons (hidden, not yet placed) reads as no such piece, so the words
    never tell that it is there. ``state`` is a game state (read only for its ``units``)."""
    piece = state.units.get(piece_id)
    if piece is None or piece.removed in unseen:
        return f"there is no {what} {piece_id!r}"
    if foe_of is not None and piece.side == foe_of:
        return f"{piece.label} is no enemy"
    return f"{piece.label} is no longer in play"
