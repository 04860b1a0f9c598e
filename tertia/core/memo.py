"""Measurements remembered from one position to the next: a fact about a piece that
holds while no piece within some reach of it moves, arrives or leaves.

The facts are filed by the piece they are about, so a move forgets only those of the
pieces near either of its places (found through the state's :class:`~tertia.core.grid.Grid`),
whatever the size of the armies; a fact that depends on the whole table (an infinite reach)
is kept apart and forgotten at any move.

A memo is shared by the states whose pieces all stand alike, and written to by each; a
move makes a new memo that shares, without copying, the facts of every piece it left
alone. Whichever memo then learns something new of such a piece first takes its own copy
of that piece's facts, so that what one position learns never reaches another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final, final

from tertia.core.geometry import is_finite


@final
class Measured:
    """A remembered measurement: a fact about ``unit`` that holds while no piece within
    ``reach`` of it moves, arrives or leaves."""

    __slots__ = ("reach", "unit", "value")

    def __init__(self, unit: str, reach: float, value: Any) -> None:
        self.unit: Final = unit
        self.reach: Final = reach
        self.value: Final = value


Near = Callable[[float, float, float], Iterable[tuple[str, float, float, float]]]
"""The pieces in play whose bounding circles come within some inches of a point (x, y,
inches): at least every such piece, each as its id, centre and half-diagonal."""


@final
class Memo:
    """Facts by the piece they are about (see the module's docstring)."""

    __slots__ = ("_anywhere", "_facts", "_owned", "_reach")

    def __init__(self, facts: dict[str, dict[Any, Measured]] | None = None, reach: float = 0.0) -> None:
        self._facts: Final[dict[str, dict[Any, Measured]]] = {} if facts is None else facts
        self._owned: set[str] = set()
        """The pieces whose facts this memo alone holds, so may add to in place."""
        self._reach = reach
        """No fact of finite reach filed here reaches further."""
        self._anywhere: Final[dict[Any, Measured]] = {}
        """The facts of infinite reach, by key."""

    def __bool__(self) -> bool:
        """Does it hold any fact?"""
        return bool(self._facts) or bool(self._anywhere)

    def get(self, uid: str, key: Any) -> Measured | None:
        """The fact under ``key`` about piece ``uid``, or None."""
        held = self._facts.get(uid)
        found = None if held is None else held.get(key)
        return self._anywhere.get(key) if found is None else found

    def put(self, key: Any, fact: Measured) -> None:
        """File ``fact`` under ``key``."""
        if not is_finite(fact.reach):
            self._anywhere[key] = fact
            return
        uid = fact.unit
        held = self._facts.get(uid)
        if uid not in self._owned:
            held = self._facts[uid] = {} if held is None else dict(held)
            self._owned.add(uid)
        assert held is not None
        held[key] = fact
        self._reach = max(self._reach, fact.reach)

    def after_move(self, gone: str, places: Iterable[tuple[float, float, float]], near: Near) -> Memo:
        """The memo without what a piece ``gone`` that moved (or arrived, or left) may have
        changed: the facts about it, and those about every piece within their reach of any
        of its ``places`` (each a centre and half-diagonal; a cut on bounding circles, so
        never too little)."""
        if not self:
            return self
        facts = dict(self._facts)
        facts.pop(gone, None)
        for x, y, r in places:
            for uid, ux, uy, ur in near(x, y, self._reach + r):
                held = facts.get(uid)
                if not held:
                    continue
                dx, dy = abs(ux - x), abs(uy - y)
                if not any(_reaches(m, dx, dy, ur, r) for m in held.values()):
                    continue  # nothing of it to forget: its facts stay shared as they are
                kept = {key: m for key, m in held.items() if not _reaches(m, dx, dy, ur, r)}
                if kept:
                    facts[uid] = kept
                else:
                    del facts[uid]
        # what this memo shares with the new one it may no longer add to in place
        self._owned.clear()
        return Memo(facts, self._reach)


def _reaches(fact: Measured, dx: float, dy: float, radius: float, r: float) -> bool:
    """Could a piece of half-diagonal ``r`` whose centre lies (dx, dy) from that of the
    piece ``fact`` is about (half-diagonal ``radius``) have changed it? A cut on bounding
    boxes."""
    return dx <= radius + fact.reach + r and dy <= radius + fact.reach + r
