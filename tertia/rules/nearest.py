"""Pieces nearest first, measured edge to edge only as far as they are asked for.

Rules and players often want "the nearest enemy", or "every enemy within N inches,
nearest first", out of a whole army. Measuring between two bases exactly is dear; the
distance between their centres less both bases' half-diagonals is cheap and never more
than the exact one. :class:`NearestFirst` sorts the pieces by that bound once and
measures a piece exactly only when it could come next, so a question about the nearest
few pieces measures a few, however large the armies.

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

    __slots__ = ("_bounds", "_found", "_heap", "_next", "_unit")

    def __init__(self, unit: Unit, pieces: Iterable[Unit]) -> None:
        x, y, r = unit.x, unit.y, unit.base.radius
        self._unit: Final = unit
        self._bounds: Final = sorted(
            ((math.hypot(p.x - x, p.y - y) - r - p.base.radius, p.id, p) for p in pieces),
            key=_bound_key,
        )
        self._next = 0
        self._heap: list[tuple[float, str, int]] = []
        self._found: list[tuple[float, Unit]] = []

    def __len__(self) -> int:
        return len(self._bounds)

    def __bool__(self) -> bool:
        return bool(self._bounds)

    @property
    def measured(self) -> int:
        """How many pieces have been measured exactly so far."""
        return self._next

    def _reach(self, i: int) -> bool:
        """Work out the ``i``-th nearest piece, if there are that many."""
        found, heap, bounds = self._found, self._heap, self._bounds
        while len(found) <= i:
            n = self._next
            if heap and (n == len(bounds) or heap[0][0] < bounds[n][0] - SLACK):
                gap, _, at = heapq.heappop(heap)
                found.append((gap, bounds[at][2]))
            elif n < len(bounds):
                piece = bounds[n][2]
                heapq.heappush(heap, (base_distance(self._unit.base, piece.base), piece.id, n))
                self._next = n + 1
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
                n, heap = self._next, self._heap
                if (not heap or heap[0][0] > inches) and (
                        n == len(self._bounds) or self._bounds[n][0] - SLACK > inches):
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

    def pieces(self) -> Iterator[Unit]:
        """Every piece, unmeasured, in no particular order."""
        for entry in self._bounds:
            yield entry[2]


def _bound_key(entry: tuple[float, str, Unit]) -> tuple[float, str]:
    return entry[0], entry[1]


SCAN_ALL = 32
"""Up to this many centres a question measures to every one, which costs less than
filing them and walking the rings (an army on a table of the period has some 15 to 20
units)."""

@final
class CentreGrid:
    """Pieces' centres filed in square cells of ``cell`` inches, for "how far is the
    nearest centre from here" asked of many points: each question looks at the cells
    ring by ring outwards from its own, and stops once no centre further out could be
    nearer than the nearest found. The answer is exactly the least of the distances
    (``math.hypot``) to every centre. No more than ``scan_all`` centres are not filed:
    each question measures to every one.

    >>> from tertia.core.state import Unit, UnitKind
    >>> pieces = [Unit(f"u{i}", "blue", UnitKind.FOOT, "c", 10.0 * i, 3.0, 0.0, 4.0, 2.0) for i in range(9)]
    >>> CentreGrid(pieces).nearest(41.0, 3.0), CentreGrid([]).nearest(0.0, 0.0)
    (1.0, inf)
    """

    __slots__ = ("_cell", "_cells", "_centres", "_hi", "_lo")

    def __init__(self, pieces: Iterable[Unit], cell: float = 8.0, scan_all: int = SCAN_ALL) -> None:
        self._cell: Final = cell
        self._centres: Final = [(p.x, p.y) for p in pieces]
        self._cells: dict[tuple[int, int], list[tuple[float, float]]] = {}
        if len(self._centres) > scan_all:
            for x, y in self._centres:
                self._cells.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append((x, y))
        keys = self._cells.keys()
        self._lo: Final = (min((k[0] for k in keys), default=0), min((k[1] for k in keys), default=0))
        self._hi: Final = (max((k[0] for k in keys), default=0), max((k[1] for k in keys), default=0))

    def nearest(self, x: float, y: float) -> float:
        """The distance from (x, y) to the nearest centre filed (inf: none)."""
        if not self._cells:
            best = math.inf
            for px, py in self._centres:
                best = min(best, math.hypot(px - x, py - y))
            return best
        cell = self._cell
        ci, cj = math.floor(x / cell), math.floor(y / cell)
        # the rings needed to reach every cell filed
        last = max(abs(ci - self._lo[0]), abs(ci - self._hi[0]), abs(cj - self._lo[1]), abs(cj - self._hi[1]))
        best = math.inf
        for r in range(last + 1):
            for i in range(ci - r, ci + r + 1):
                step = 1 if abs(i - ci) == r else 2 * r  # the whole column at the ring's sides
                for j in range(cj - r, cj + r + 1, max(step, 1)):
                    for px, py in self._cells.get((i, j), ()):
                        best = min(best, math.hypot(px - x, py - y))
            # every centre in a further ring lies more than r cells away
            if best <= r * cell - GRID_SLACK:
                break
        return best


GRID_SLACK = 1e-6
"""Inches kept in hand against rounding in filing a centre in its cell."""
