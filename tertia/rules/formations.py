"""Formations: how a unit's stands stand together, and what that makes of its footprint.

Served first by Declare Thee Sir (Game Mechanics I, Formations: "Line: multiple stand
units in side contact"; "Long March (Column): multiple stand units arranged front to
rear"; "Hedgehog (Square): compact defensive formation"; Fire: "determine if in range (to
closest stand edge)"), and written for any rule set that puts a unit on several stands
(Charge yr Pikes!' figures on stands).

A formation is data: how many stands stand abreast in each rank. A unit's position is the
centre of its footprint (:mod:`tertia.core.geometry`), so its stands are laid out rank by
rank from the front, each rank centred; ranges and arcs are then measured from whichever
stand is closest, as the texts ask.

>>> stands = stand_bases(0.0, 0.0, 0.0, COLUMN, 3, 2.0, 1.0)
>>> [(s.x, s.y) for s in stands], footprint(COLUMN, 3, 2.0, 1.0)
([(0.0, 1.0), (0.0, 0.0), (0.0, -1.0)], (2.0, 3.0))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tertia.core.geometry import Base, base_distance, heading_vector, is_in_arc


@dataclass(frozen=True, slots=True)
class Formation:
    """A way of standing: ``files`` stands abreast in each rank (None: every stand in one
    rank); ``all_round``: faces every way, so it has no flank or rear (a hedgehog)."""

    name: str
    files: int | None
    all_round: bool = False

    def abreast(self, stands: int) -> int:
        """How many of ``stands`` stand in the front rank.

        >>> LINE.abreast(3), COLUMN.abreast(3), HEDGEHOG.abreast(3), HEDGEHOG.abreast(1)
        (3, 1, 2, 1)
        """
        return max(1, stands if self.files is None else min(self.files, stands))

    def ranks(self, stands: int) -> int:
        """How many ranks ``stands`` make.

        >>> LINE.ranks(3), COLUMN.ranks(3), HEDGEHOG.ranks(3)
        (1, 3, 2)
        """
        return max(1, math.ceil(stands / self.abreast(stands)))


LINE = Formation("line", None)
"""Declare Thee Sir I.a: stands side by side."""
COLUMN = Formation("column", 1)
"""Declare Thee Sir I.b, Long March: stands one behind another."""
HEDGEHOG = Formation("hedgehog", 2, all_round=True)
"""Declare Thee Sir I.c: a compact block, two stands abreast, facing all round."""

FORMATIONS = {f.name: f for f in (LINE, COLUMN, HEDGEHOG)}
"""The shared formations by name (a rule set may declare more)."""


def footprint(formation: Formation, stands: int, stand_width: float, stand_depth: float
              ) -> tuple[float, float]:
    """The (width, depth) of ``stands`` stands of this size in ``formation``.

    >>> footprint(LINE, 3, 1.5, 1.0), footprint(HEDGEHOG, 3, 1.5, 1.0)
    ((4.5, 1.0), (3.0, 2.0))
    """
    return (formation.abreast(stands) * stand_width, formation.ranks(stands) * stand_depth)


LAYOUTS_KEPT = 256
"""Units' layouts :func:`stand_bases` remembers: a unit is laid out for every range and arc
measured from or to it, while it stands where it is. A battle lays out a few hundred
places (Declare Thee, Sir! on Edgehill: 396 in three battles, 91.3% of the asks
remembered by 128 as by any number); a server playing 64 battles at once, 500 in five
minutes of 40 players, where 256 keep 88.6% of the asks remembered (every one, 89.2%).
Each holds its stands' bases, about 3 KiB: 256 hold under 1 MiB, where 4,096 grew by
0.7 MiB a minute under that load, towards 13 MiB."""


@lru_cache(maxsize=LAYOUTS_KEPT)
def stand_bases(x: float, y: float, facing: float, formation: Formation, stands: int,
                stand_width: float, stand_depth: float) -> tuple[Base, ...]:
    """Each stand's base, front rank first and left to right, for a unit centred on
    (x, y) facing ``facing``; a rank short of stands is centred behind the others.

    >>> [(s.x, s.y) for s in stand_bases(10.0, 10.0, 0.0, HEDGEHOG, 3, 2.0, 1.0)]
    [(9.0, 10.5), (11.0, 10.5), (10.0, 9.5)]
    """
    across = formation.abreast(stands)
    depth = formation.ranks(stands) * stand_depth
    fx, fy = heading_vector(facing)
    rx, ry = fy, -fx
    out: list[Base] = []
    for i in range(stands):
        rank, file = divmod(i, across)
        in_rank = min(across, stands - rank * across)
        right = (file - (in_rank - 1) / 2.0) * stand_width
        forward = depth / 2.0 - stand_depth / 2.0 - rank * stand_depth
        out.append(Base(_tidy(x + rx * right + fx * forward), _tidy(y + ry * right + fy * forward),
                        facing, stand_width, stand_depth))
    return tuple(out)


def reformed_centre(base: Base, new_depth: float) -> tuple[float, float]:
    """Where a unit's centre stands after it changes to a formation ``new_depth`` deep:
    its front edge stays where it was (a formation change neither advances nor gives
    ground).

    >>> reformed_centre(Base(0.0, 0.0, 0.0, 4.5, 1.0), 3.0)
    (0.0, -1.0)
    """
    fx, fy = heading_vector(base.facing)
    front_x, front_y = base.front_centre()
    return (_tidy(front_x - fx * new_depth / 2.0), _tidy(front_y - fy * new_depth / 2.0))


def closest_stand(stands: Sequence[Base], target: Base) -> tuple[int, float]:
    """The stand nearest ``target`` (edge to edge) and its distance: "determine if in range
    (to closest stand edge)". Ties go to the first stand listed.

    >>> line = stand_bases(0.0, 0.0, 0.0, LINE, 3, 2.0, 1.0)
    >>> closest_stand(line, Base(6.0, 0.0, 0.0, 1.0, 1.0))
    (2, 2.5)
    """
    if not stands:
        raise ValueError("a unit with no stands measures from nowhere")
    best = min(range(len(stands)), key=lambda i: (base_distance(stands[i], target), i))
    return best, base_distance(stands[best], target)


def distance_between(ours: Sequence[Base], theirs: Sequence[Base]) -> float:
    """Closest stand edge to closest stand edge between two units on stands.

    >>> a = stand_bases(0.0, 0.0, 0.0, LINE, 2, 2.0, 1.0)
    >>> b = stand_bases(0.0, 4.0, 180.0, COLUMN, 2, 2.0, 1.0)
    >>> distance_between(a, b)
    2.5
    """
    return min(closest_stand(ours, t)[1] for t in theirs)


def stands_in_arc(stands: Sequence[Base], target: Base, half_angle: float = 45.0,
                  reach: float = 200.0) -> tuple[int, ...]:
    """The stands (by index) that have ``target`` within ``half_angle`` degrees either
    side of straight ahead and within ``reach``: those that may fire at it ("a 45 degree
    arc of fire").

    >>> line = stand_bases(0.0, 0.0, 0.0, LINE, 3, 2.0, 1.0)
    >>> stands_in_arc(line, Base(4.0, 3.0, 180.0, 1.0, 1.0))
    (1, 2)
    >>> stands_in_arc(line, Base(5.0, 3.0, 180.0, 1.0, 1.0))
    (2,)
    """
    return tuple(i for i, s in enumerate(stands) if is_in_arc(s, target, half_angle, reach))


def _tidy(value: float) -> float:
    """Rounded so stands laid out from equal places are equal on every machine."""
    return round(value, 9) + 0.0
