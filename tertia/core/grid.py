"""Pieces filed by where their centres stand, so that a question about one part of the
table looks only at the pieces there.

The table is cut into square cells of :data:`CELL` inches; each piece is filed in the cell
its centre lies in. A box widened by some inches, plus the widest piece's half-diagonal,
covers a few cells, and the pieces filed in them are every piece whose bounding circle
could come within those inches of the box: however large the armies, a question near one
unit reads only the pieces near it.

A grid is a value: a piece that moves, arrives or leaves makes a new grid that shares
every cell it did not touch with the old one.

>>> grid = Grid.of([("a", 0.0, 0.0, 2.0), ("b", 30.0, 0.0, 2.0), ("c", 5.0, 5.0, 2.0)])
>>> sorted(grid.ids_near(0.0, 0.0, 0.0, 0.0, 3.0))
['a', 'c']
>>> sorted(grid.moved("b", (30.0, 0.0), (4.0, 0.0), 2.0).ids_near(0.0, 0.0, 0.0, 0.0, 3.0))
['a', 'b', 'c']
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final, final

from tertia.core.geometry import is_finite

CELL: Final = 8.0
"""Inches a side of a cell: about two bases, so a question near one unit reads a few cells."""

Column = dict[int, tuple[str, ...]]
"""The cells of one column of the table, by row: the ids filed in each."""


def cell_of(x: float, y: float) -> tuple[int, int]:
    """The column and row of the cell a centre at (x, y) is filed in."""
    return math.floor(x / CELL), math.floor(y / CELL)


@final
class Grid:
    """The ids of pieces filed by the cell of their centres, column by column then row by
    row (a table's columns and rows number a handful, integers a dict looks up the
    quickest), and the widest half-diagonal of any piece ever filed (never less than any
    filed piece's: a bound, not a size)."""

    __slots__ = ("_columns", "_count", "_widest")

    def __init__(self, columns: dict[int, Column], widest: float) -> None:
        self._columns: Final = columns
        self._count: Final = sum(len(rows) for rows in columns.values())
        """How many cells hold a piece."""
        self._widest: Final = widest

    @staticmethod
    def of(pieces: Iterable[tuple[str, float, float, float]]) -> Grid:
        """A grid of ``pieces``, each an id, its centre's x and y, and its half-diagonal."""
        cells: dict[int, dict[int, list[str]]] = {}
        widest = 0.0
        for uid, x, y, radius in pieces:
            i, j = cell_of(x, y)
            cells.setdefault(i, {}).setdefault(j, []).append(uid)
            widest = max(widest, radius)
        return Grid({i: {j: tuple(ids) for j, ids in rows.items()} for i, rows in cells.items()}, widest)

    def moved(self, uid: str, before: tuple[float, float] | None, after: tuple[float, float] | None,
              radius: float) -> Grid:
        """The grid with piece ``uid`` taken from its centre ``before`` (None: it arrives)
        and filed at ``after`` (None: it leaves), ``radius`` its half-diagonal there."""
        old = None if before is None else cell_of(*before)
        new = None if after is None else cell_of(*after)
        widest = self._widest if after is None else max(self._widest, radius)
        if old == new:
            return self if widest == self._widest else Grid(self._columns, widest)
        columns = dict(self._columns)
        if old is not None:
            rows = columns[old[0]] = dict(columns.get(old[0], {}))
            left = tuple(i for i in rows.get(old[1], ()) if i != uid)
            if left:
                rows[old[1]] = left
            else:
                rows.pop(old[1], None)
                if not rows:
                    del columns[old[0]]
        if new is not None:
            rows = columns[new[0]] = dict(columns.get(new[0], {}))
            rows[new[1]] = (*rows.get(new[1], ()), uid)
        return Grid(columns, widest)

    def ids_near(self, x0: float, y0: float, x1: float, y1: float, inches: float) -> list[str]:
        """The ids filed in the cells that hold every centre of a piece whose bounding
        circle comes within ``inches`` of the box from (x0, y0) to (x1, y1); some may lie
        further (the caller measures)."""
        reach = inches + self._widest
        columns = self._columns
        found: list[str] = []
        if not is_finite(reach + x0 + y0 + x1 + y1):
            for rows in columns.values():
                for ids in rows.values():
                    found.extend(ids)
            return found
        i0, j0 = math.floor((x0 - reach) / CELL), math.floor((y0 - reach) / CELL)
        i1, j1 = math.floor((x1 + reach) / CELL), math.floor((y1 + reach) / CELL)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > self._count:  # a box wider than the pieces: read them all
            for i, rows in columns.items():
                if i0 <= i <= i1:
                    for j, ids in rows.items():
                        if j0 <= j <= j1:
                            found.extend(ids)
            return found
        for i in range(i0, i1 + 1):
            column = columns.get(i)
            if column is not None:
                for j in range(j0, j1 + 1):
                    filed = column.get(j)
                    if filed is not None:
                        found.extend(filed)
        return found
