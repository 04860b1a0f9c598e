"""The pieces in play that pass a test of the piece alone (a unit at its hit limit, say),
kept current piece by piece, so that a question asked after every action reads only the
pieces that pass rather than every piece.

A sieve is a value: a piece that changes makes a new sieve only when it comes to pass or
fail the test; the ids stay in play order.

>>> sieve = Sieve.of(lambda u: u > 2, [("a", 1), ("b", 3), ("c", 5)])
>>> sieve.ids
('b', 'c')
>>> sieve.after("a", 4, {"a": 0, "b": 1, "c": 2}).ids
('a', 'b', 'c')
>>> sieve.after("c", None, {"a": 0, "b": 1, "c": 2}).ids
('b',)
>>> fixed = Sieve.of(lambda u: u > 2, [("a", 1), ("b", 3)], fixed=True)
>>> fixed.after("a", 4, {"a": 0, "b": 1}, stays=True).ids
('b',)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, final

Test = Callable[[Any], bool]
"""A test of one piece alone: its answer may change only when the piece does."""


@final
class Sieve:
    """The ids of the pieces in play that pass :attr:`test`, in play order. A ``fixed``
    test reads only what a piece keeps all game (its side, kind, command): a piece that
    changes but stays in play (or out of it) keeps its place in the sieve or out of it,
    untested."""

    __slots__ = ("fixed", "ids", "test")

    def __init__(self, test: Test, ids: tuple[str, ...], fixed: bool = False) -> None:
        self.test: Final = test
        self.ids: Final = ids
        self.fixed: Final = fixed

    @staticmethod
    def of(test: Test, pieces: Iterable[tuple[str, Any]], fixed: bool = False) -> Sieve:
        """The sieve of ``pieces`` in play, each an id and the piece, in play order."""
        return Sieve(test, tuple(uid for uid, unit in pieces if test(unit)), fixed)

    def after(self, uid: str, unit: Any, ranks: Mapping[str, int], stays: bool = False) -> Sieve:
        """The sieve once piece ``uid`` is ``unit`` (None: out of play); ``ranks`` gives
        each piece's place in play order; ``stays``: the piece neither came into play
        nor left it (a fixed test's answer is then its answer before)."""
        if stays and self.fixed:
            return self
        passes = unit is not None and self.test(unit)
        if passes == (uid in self.ids):
            return self
        if passes:
            return Sieve(self.test, tuple(sorted((*self.ids, uid), key=ranks.__getitem__)), self.fixed)
        return Sieve(self.test, tuple(i for i in self.ids if i != uid), self.fixed)
