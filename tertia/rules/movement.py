"""Free movement on the table: a move as a path, and the checks every rule set shares.

A move is: an optional pivot on the spot, a straight-line slide through waypoints
without turning, and an optional pivot at the end. The swept area of each slide is the
convex hull of the base at both ends of the segment, so collision and terrain checks
are exact for translation. Pivots are checked at their final orientation, as players do
at the table.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator
from typing import Final, final

from tertia.core.actions import Move
from tertia.core.geometry import (
    EPSILON,
    Base,
    Point,
    Polygon,
    angle_between,
    bearing,
    bounding_box,
    path_length,
    point_segment_distance,
    polygon_distance,
    polygons_overlap,
    swept_polygon,
)
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import Violation
from tertia.rules.codes import MovementCode

TURN_TOLERANCE = 0.5
"""Facing changes smaller than this many degrees are not a turn."""


@final
class MovePlan:
    """A move resolved into bases: where it starts, each corner of its path, where it ends.

    A value, written out rather than a frozen dataclass: every move judged or weighed
    makes one, and a plain class is built many times faster (the areas it sweeps and the
    box about its path are worked out once, when first asked)."""

    __slots__ = ("_box", "_swept", "after_pivot", "end", "points", "start", "unit")

    def __init__(self, unit: Unit, start: Base, after_pivot: Base, points: tuple[Point, ...],
                 end: Base) -> None:
        self.unit: Final = unit
        self.start: Final = start
        self.after_pivot: Final = after_pivot
        self.points: Final = points  # centre path, the start first
        self.end: Final = end
        self._swept: list[Polygon] | None = None
        self._box: tuple[float, float, float, float] | None = None

    def _fields(self) -> tuple[Unit, Base, Base, tuple[Point, ...], Base]:
        return (self.unit, self.start, self.after_pivot, self.points, self.end)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MovePlan):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[MovePlan], tuple[Unit, Base, Base, tuple[Point, ...], Base]]:
        return (MovePlan, self._fields())

    def __repr__(self) -> str:
        return (f"MovePlan(unit={self.unit!r}, start={self.start!r}, after_pivot={self.after_pivot!r}, "
                f"points={self.points!r}, end={self.end!r})")

    @property
    def length(self) -> float:
        return path_length(self.points)

    @property
    def turned(self) -> bool:
        return (
            angle_between(self.start.facing, self.after_pivot.facing) > TURN_TOLERANCE
            or angle_between(self.after_pivot.facing, self.end.facing) > TURN_TOLERANCE
        )

    @property
    def translates(self) -> bool:
        return len(self.points) > 1 and self.length > EPSILON

    def iter_segments(self) -> Iterator[tuple[Base, Base]]:
        facing = self.after_pivot.facing
        s = self.after_pivot
        for p in self.points[1:]:
            e = s.moved_to(p[0], p[1], facing)
            yield s, e
            s = e

    def swept(self) -> list[Polygon]:
        """Every area the base covers: pivots at their final orientation, slides as hulls
        (worked out once a plan)."""
        if self._swept is None:
            areas: list[Polygon] = [self.after_pivot.corners()]
            areas.extend(swept_polygon(a, b) for a, b in self.iter_segments())
            areas.append(self.end.corners())
            self._swept = areas
            return areas
        return list(self._swept)

    def box(self) -> tuple[float, float, float, float]:
        """The box (x0, y0, x1, y1) round the centre's path: widened by the mover's own
        circle, it holds every area the move sweeps, the end included."""
        box = self._box
        if box is None:
            box = self._box = bounding_box(self.points)
        return box

    def may_touch(self, base: Base) -> bool:
        """Could ``base`` share area with anything the move sweeps? False when its
        bounding circle is clear of :meth:`box` widened by the mover's own circle: a cheap
        rejection before the exact tests, with nothing swept worked out."""
        x0, y0, x1, y1 = self.box()
        margin = self.start.radius + base.radius
        return x0 - margin <= base.x <= x1 + margin and y0 - margin <= base.y <= y1 + margin

    def pieces_near(self, state: GameState) -> list[Unit]:
        """The pieces in play (the mover among them) that the move may touch (a superset
        of those :meth:`may_touch` passes), in the order of ``state.iter_units()``."""
        x0, y0, x1, y1 = self.box()
        return state.near(x0, y0, x1, y1, self.start.radius)


def plan_move(unit: Unit, action: Move) -> MovePlan:
    start = unit.base
    facing0 = start.facing if action.face_before is None else action.face_before % 360.0
    after = start.moved_to(start.x, start.y, facing0)
    points: tuple[Point, ...] = ((unit.x, unit.y), *((float(x), float(y)) for x, y in action.waypoints))
    last = points[-1]
    facing1 = facing0 if action.face_after is None else action.face_after % 360.0
    end = start.moved_to(last[0], last[1], facing1)
    return MovePlan(unit, start, after, points, end)



def iter_headings(plan: MovePlan, shortest: float = EPSILON) -> Iterator[float]:
    """The bearing of each leg of the centre's path longer than ``shortest``."""
    for a, b in zip(plan.points, plan.points[1:], strict=False):
        if math.dist(a, b) > shortest:
            yield bearing(a, b)


def widest_heading_off(plan: MovePlan, facing: float, shortest: float = EPSILON) -> float:
    """How far, in degrees, the leg of the path that strays most from ``facing`` strays
    (0 for a move on the spot): a slide "forward" stays within some arc of the front."""
    return max((angle_between(h, facing) for h in iter_headings(plan, shortest)), default=0.0)

def iter_table_violations(
    table: Battlefield, plan: MovePlan, rule: str
) -> Iterator[Violation]:
    """The base must stay on the table at every corner of its path."""
    for p in plan.points:
        b = plan.end.moved_to(p[0], p[1], plan.after_pivot.facing)
        if not table.inside_table(b.corners()):
            yield Violation(
                MovementCode.OFF_TABLE,
                f"{plan.unit.label} would leave the table at ({p[0]:.1f}, {p[1]:.1f})",
                rule,
            )
            return
    if not table.inside_table(plan.end.corners()):
        yield Violation(MovementCode.OFF_TABLE, f"{plan.unit.label} would end partly off the table", rule)


def iter_collision_violations(
    state: GameState, plan: MovePlan, rule: str, markers: Iterable[tuple[str, Base]] = ()
) -> Iterator[Violation]:
    """No interpenetration: the swept areas may touch but not overlap the base (or a
    separated stand) of any other piece in play, or of a marker the rule set puts on the
    table (``markers``: a name and a base each, such as larger-battles' supply bases)."""
    segments = list(zip(plan.points, plan.points[1:], strict=False)) or [(plan.points[0],) * 2]
    mover = plan.unit.id
    blocker: str | None = None
    for other in plan.pieces_near(state):
        if other.id != mover and any(_sweeps_into(plan, segments, f) for f in other.footprints):
            blocker = other.label
            break
    else:
        for name, base in markers:
            if _sweeps_into(plan, segments, base):
                blocker = name
                break
    if blocker is not None:
        yield Violation(MovementCode.COLLISION,
                        f"{plan.unit.label} would pass through or overlap {blocker}", rule)


def iter_room_violations(
    table: Battlefield, state: GameState, placed: Unit, rule: str, carried: Collection[str] = ()
) -> Iterator[Violation]:
    """A piece that takes up new room where it stands (a formation change, mounting) must
    stay on the table and off every other piece and its separated stands (those in
    ``carried`` apart)."""
    corners = placed.base.corners()
    if not table.inside_table(corners):
        yield Violation(MovementCode.OFF_TABLE, f"{placed.label} would leave the table", rule)
        return
    for other in state.near(placed.x, placed.y, placed.x, placed.y, placed.base.radius):
        if other.id != placed.id and other.id not in carried and \
                other.overlaps(corners):
            yield Violation(MovementCode.COLLISION, f"{placed.label} would overlap {other.label}", rule)
            return


def iter_passing_violations(
    state: GameState, plan: MovePlan, rule: str, carried: Collection[str] = ()
) -> Iterator[Violation]:
    """Friends may be passed through but not ended on; an enemy's base blocks the path
    (Declare Thee Sir's Movement; Charge yr Pikes!' Formations C: "Units can move freely
    through friendly units as long as they do not end their move intermingled"). Pieces
    carried along with the mover (``carried``: its attached generals, say) are left out."""
    mover = plan.unit
    end = plan.end.corners()
    areas = plan.swept()
    for other in plan.pieces_near(state):
        if other.id == mover.id or other.id in carried:
            continue
        for footprint in other.footprints:
            if not plan.may_touch(footprint):
                continue
            corners = footprint.corners()
            if other.side != mover.side and any(polygons_overlap(a, corners) for a in areas):
                yield Violation(MovementCode.COLLISION, f"{mover.label} would run into {other.label}", rule)
                return
            if polygons_overlap(end, corners):
                yield Violation(MovementCode.COLLISION, f"{mover.label} would end on {other.label}", rule)
                return


def _sweeps_into(plan: MovePlan, segments: list[tuple[Point, Point]], base: Base) -> bool:
    """Does the moving base overlap ``base`` anywhere along its path? Cheap rejections
    first: the base's bounding circle is clear of the path's box (:meth:`MovePlan.may_touch`),
    then of the path itself."""
    if not plan.may_touch(base):
        return False
    if min(point_segment_distance(base.centre, a, b) for a, b in segments) >= plan.start.radius + base.radius:
        return False
    corners = base.corners()
    return any(polygons_overlap(area, corners) for area in plan.swept())


def ground_under(table: Battlefield, corners: Polygon, closed: Iterable[str]) -> str | None:
    """The first of the ``closed`` kinds of ground a base shares area with, else
    :attr:`TerrainKind.RIVER` for a river away from its fords and bridges, else None: where
    a piece may not stand, so may not be deployed either."""
    for kind in closed:
        if table.overlaps(kind, corners):
            return kind
    return TerrainKind.RIVER if table.blocks_by_river(corners) else None


def iter_terrain_violations(
    table: Battlefield,
    plan: MovePlan,
    impassable: Iterable[str],
    rule_for: dict[str, str],
    river_rule: str,
) -> Iterator[Violation]:
    """Impassable ground may not be entered; rivers only where a ford or bridge crosses."""
    areas = plan.swept()
    for kind in impassable:
        if table.has(kind) and any(table.overlaps(kind, a) for a in areas):
            yield Violation(
                MovementCode.IMPASSABLE, f"{plan.unit.label} cannot enter {kind}", rule_for[kind]
            )
            return
    if any(table.blocks_by_river(a) for a in areas):
        yield Violation(
            MovementCode.RIVER,
            f"{plan.unit.label} may cross the river only at a ford or bridge",
            river_rule,
        )


def min_distance_along(plan: MovePlan, target: Base, *, include_end: bool = True) -> float:
    """Closest the moving base comes to ``target`` over its slides (and its end pose)."""
    corners = target.corners()
    areas = plan.swept()  # the pivot at the start, each slide, then the end
    best = math.inf
    for area in areas[1:] if include_end else areas[1:-1]:
        best = min(best, polygon_distance(area, corners))
    return best
