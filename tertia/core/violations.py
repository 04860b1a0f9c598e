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

A refusal that names a side names it as the battle does ("the King's Army"), which the
rules cannot know: a rule's state holds side ids only. So the rules write each side
they name as a mention (:func:`side_named`, :func:`side_whose`, :func:`side_doing`) and
the game, which knows the scenario's names, puts the names in
(:meth:`Violation.named`, done by :meth:`Game.validate <tertia.core.game.Game.validate>`).
Until then a violation reads with each side's id in words ("Royalists"):

>>> v = Violation("core.NOT_YOUR_UNIT", f"it is {side_whose('royalists')} turn", "Sequence")
>>> v.message
"it is Royalists' turn"
>>> v.named({"royalists": "the King's Army (Charles I)"}).message
"it is the King's Army's turn"
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from tertia.core.narration import default_side_name, possessive, side_does, without_aside

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


_OPEN, _APART, _CLOSE = "\x02", "\x1f", "\x03"
_MENTION = re.compile(f"{_OPEN}(name|whose|does){_APART}([^{_APART}{_CLOSE}]*){_APART}([^{_CLOSE}]*){_CLOSE}")


def side_named(side: str) -> str:
    """Side ``side`` named in a refusal, as the battle names it ("Parliament (Earl of
    Essex)")."""
    return f"{_OPEN}name{_APART}{side}{_APART}{_CLOSE}"


def side_whose(side: str) -> str:
    """Side ``side``'s, in a refusal: "Royalists'", "the King's Army's" (a name's closing
    aside left out, since the words go on after it)."""
    return f"{_OPEN}whose{_APART}{side}{_APART}{_CLOSE}"


def side_doing(side: str, verb: str) -> str:
    """Side ``side`` doing ``verb`` in a refusal, the verb agreeing with the name
    ("Royalists deploy", "Parliament deploys"; the name's closing aside left out, since
    the words go on after it)."""
    return f"{_OPEN}does{_APART}{side}{_APART}{verb}{_CLOSE}"


def with_side_names(text: str, names: Mapping[str, str]) -> str:
    """``text`` with each side it mentions (:func:`side_named` ...) given its name in
    ``names`` (a side left out, its id in words).

    >>> names = {"parliament": "Parliament (Earl of Essex)"}
    >>> with_side_names(f"{side_doing('parliament', 'deploy')} first", names)
    'Parliament deploys first'
    >>> with_side_names(f"{side_named('royalist')} and {side_whose('parliament')} foot", names)
    "Royalist and Parliament's foot"
    """
    def worded(found: re.Match[str]) -> str:
        form, side, verb = found.groups()
        name = names.get(side) or default_side_name(side)
        if form == "whose":
            return possessive(name)
        return side_does(without_aside(name), verb) if form == "does" else name
    return _MENTION.sub(worded, text) if _OPEN in text else text


@dataclass(frozen=True, slots=True)
class Violation:
    """One reason an action is illegal. A message that mentions a side (see the module's
    docstring) reads with the side's id in words until :meth:`named` gives it the battle's
    names; ``template`` keeps the message as the rules wrote it, its mentions in place."""

    code: str
    message: str
    rule: str
    template: str = field(default="", repr=False, compare=False)

    def __post_init__(self) -> None:
        # A sealed text (exact odds) is never written with a mention, and is not searched.
        if type(self.message) is str and _OPEN in self.message:
            object.__setattr__(self, "template", self.message)
            object.__setattr__(self, "message", with_side_names(self.message, {}))

    def named(self, names: Mapping[str, str]) -> Violation:
        """This refusal with each side it mentions named as ``names`` (side id to the
        battle's name) names it; itself when it mentions none."""
        if not self.template:
            return self
        return Violation(self.code, with_side_names(self.template, names), self.rule)

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


def no_piece_of(state: Any, piece_id: str, side: str, what: str = "piece", *,
                unseen: Collection[str] = ()) -> str:
    """Why ``piece_id`` is no ``what`` of ``side`` in play (a piece of its own wanted), in
    words a player reads: no such piece (its id as it was typed), else by its name, the
    other side's, no longer in play, or no ``what`` at all. A piece off the table for one
    of the ``unseen`` reasons (hidden from ``side``) reads as no such piece, so the words
    never tell that it is there. ``state`` is a game state (read only for its ``units``).

    >>> from types import SimpleNamespace as Piece
    >>> state = Piece(units={"p-horse": Piece(label="Balfour's Horse", side="parliament", in_play=True,
    ...                                       removed=None)})
    >>> with_side_names(no_piece_of(state, "p-horse", "royalist"), {})
    "Balfour's Horse is Parliament's, not Royalist's"
    >>> with_side_names(no_piece_of(state, "p-foot", "royalist", "officer"), {})
    "no officer 'p-foot' of Royalist in play"
    >>> no_piece_of(state, "p-horse", "parliament", "officer")
    "Balfour's Horse is no officer"
    """
    piece = state.units.get(piece_id)
    if piece is None or piece.removed in unseen:
        return f"no {what} {piece_id!r} of {side_named(side)} in play"
    if piece.side != side:
        return f"{piece.label} is {side_whose(piece.side)}, not {side_whose(side)}"
    if not piece.in_play:
        return f"{piece.label} is no longer in play"
    return f"{piece.label} is no {what}"


def not_own(piece: Any, to_act: str, rule: str) -> Violation:
    """The refusal of an action by ``piece`` when it is not a piece of ``to_act``, the side
    to act: whose it is and whose turn it is, each side as the battle names it. ``piece``
    is a :class:`~tertia.core.state.Unit` (read only for its ``label`` and ``side``)."""
    return Violation(CoreCode.NOT_YOUR_UNIT,
                     f"{piece.label} is {side_whose(piece.side)}: it is {side_whose(to_act)} turn", rule)
