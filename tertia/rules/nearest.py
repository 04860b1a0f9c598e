"""Pieces nearest first, measured edge to edge only as far as they are asked for.

Rules and players often want "the nearest enemy", or "every enemy within N inches,
nearest first", out of a whole army. Measuring between two bases exactly is dear; the
distance between their centres less both bases' half-diagonals is cheap and never more
than the exact one. :class:`NearestFirst` puts the pieces in a heap by that bound once
(a heap, not a sort: a question about the nearest few pieces takes a few of them off it)
and measures a piece exactly only when it could come next, so such a question measures a
few pieces, however large the armies.

The order is exactly that of sorting every piece by (distance, id): a piece is handed out
only once no piece still unmeasured could come before it.

>>> from tertia.core.state import Unit, UnitKind
>>> def foot(uid: str, x: float) -> Unit:
...     return Unit(uid, "red", UnitKind.FOOT, "c", x, 0.0, 0.0, 4.0, 2.0)
>>> me = foot("me", 0.0)
>>> near = NearestFirst(me, [foot("far", 40.0), foot("b", 10.0), foot("a", -10.0)])
>>> [u.id for u in near.within(10.0)], near.gap(0), near.measured
(['a', 'b'], 6.0, 2)
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator
from typing import Final, final

from tertia.core.geometry import base_distance
from tertia.core.state import Unit

SLACK = 1e-9
"""Inches the cheap bound may exceed the exact distance by through rounding: a piece is
handed out only when it is nearer than every unmeasured piece's bound by more."""


@final
class NearestFirst:
    """``pieces`` in order of their edge-to-edge distance from ``unit`` (ties by id),
    each measured exactly only when it is reached. A value for one position: it reads
    the pieces' bases once, when made."""

    __slots__ = ("_count", "_found", "_heap", "_unit", "_unmeasured")

    def __init__(self, unit: Unit, pieces: Iterable[Unit]) -> None:
        x, y, r = unit.x, unit.y, unit.base.radius
        self._unit: Final = unit
        # by bound, then id: no two pieces share an id, so two entries never go on to
        # compare the pieces themselves (and no key function is called for each). The
        # square root, unlike math.hypot, compiles to a plain C call; a bound it puts a
        # rounding or two off only changes which piece is measured first (SLACK).
        unmeasured: list[tuple[float, str, Unit]] = []
        for p in pieces:
            dx, dy = p.x - x, p.y - y
            unmeasured.append((math.sqrt(dx * dx + dy * dy) - r - p.base.radius, p.id, p))
        heapq.heapify(unmeasured)
        self._unmeasured: Final = unmeasured
        self._count: Final = len(unmeasured)
        self._heap: list[tuple[float, str, Unit]] = []
        self._found: list[tuple[float, Unit]] = []

    def __len__(self) -> int:
        return self._count

    def __bool__(self) -> bool:
        return self._count > 0

    @property
    def measured(self) -> int:
        """How many pieces have been measured exactly so far."""
        return self._count - len(self._unmeasured)

    def _reach(self, i: int) -> bool:
        """Work out the ``i``-th nearest piece, if there are that many."""
        found, heap, unmeasured = self._found, self._heap, self._unmeasured
        while len(found) <= i:
            if heap and (not unmeasured or heap[0][0] < unmeasured[0][0] - SLACK):
                gap, _, piece = heapq.heappop(heap)
                found.append((gap, piece))
            elif unmeasured:
                _, uid, piece = heapq.heappop(unmeasured)
                heapq.heappush(heap, (base_distance(self._unit.base, piece.base), uid, piece))
            else:
                return False
        return True

    def __getitem__(self, i: int) -> Unit:
        if i < 0 or not self._reach(i):
            raise IndexError(i)
        return self._found[i][1]

    def gap(self, i: int) -> float:
        """The edge-to-edge distance of the ``i``-th nearest piece."""
        if i < 0 or not self._reach(i):
            raise IndexError(i)
        return self._found[i][0]

    def first(self) -> Unit | None:
        """The nearest piece, or None when there are none."""
        return self._found[0][1] if self._reach(0) else None

    def __iter__(self) -> Iterator[Unit]:
        i = 0
        while self._reach(i):
            yield self._found[i][1]
            i += 1

    def pairs(self) -> Iterator[tuple[Unit, float]]:
        """Each piece with its distance, nearest first."""
        i = 0
        while self._reach(i):
            gap, piece = self._found[i]
            yield piece, gap
            i += 1

    def pairs_within(self, inches: float) -> Iterator[tuple[Unit, float]]:
        """The pieces at most ``inches`` away, each with its distance, nearest first: none
        is measured whose bound already puts it further."""
        i = 0
        while True:
            if i >= len(self._found):
                heap, unmeasured = self._heap, self._unmeasured
                if (not heap or heap[0][0] > inches) and (
                        not unmeasured or unmeasured[0][0] - SLACK > inches):
                    return
            if not self._reach(i):
                return
            gap, piece = self._found[i]
            if gap > inches:
                return
            yield piece, gap
            i += 1

    def within(self, inches: float) -> Iterator[Unit]:
        """The pieces at most ``inches`` away, nearest first."""
        for piece, _ in self.pairs_within(inches):
            yield piece
