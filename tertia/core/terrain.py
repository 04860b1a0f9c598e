"""Terrain on the table: polygons and lines with widths, indexed for fast queries.

Terrain is static for a battle, so a :class:`Battlefield` builds its shapely geometries
once (prepared for repeated predicates) and rule sets ask it questions: what is at this
point, does this footprint touch that kind of ground, does this line of sight cross woods.
Which kinds block, slow or shelter is a rule-set decision, not made here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

import shapely
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon
from shapely.geometry.base import BaseGeometry

from tertia.core.geometry import Point, Polygon, bounding_box, hypot

Box = tuple[float, float, float, float]


def _crossing(a: Point, b: Point, c: Point, d: Point) -> float | None:
    """Where segment ab meets segment cd, as a fraction of the way from a to b; None when
    they do not meet or run parallel."""
    rx, ry = b[0] - a[0], b[1] - a[1]
    sx, sy = d[0] - c[0], d[1] - c[1]
    denom = rx * sy - ry * sx
    if denom == 0.0:
        return None
    qx, qy = c[0] - a[0], c[1] - a[1]
    t = (qx * sy - qy * sx) / denom
    u = (qx * ry - qy * rx) / denom
    return t if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0 else None


def _point_along(points: Sequence[Point], distance: float) -> Point:
    """The point ``distance`` inches along a path from its start (its end if beyond)."""
    walked = 0.0
    for a, b in itertools.pairwise(points):
        length = hypot(b[0] - a[0], b[1] - a[1])
        if length > 0.0 and walked + length >= distance:
            f = (distance - walked) / length
            return (a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f)
        walked += length
    return points[-1]


LINE_MEMO_LIMIT = 20_000
"""Facts between places, of areas and of points (lines of sight, cover, the ground a move
sweeps, the ground under a point: :meth:`Battlefield.recall`) a battlefield remembers
before it forgets them all and starts again."""

_BETWEEN = "between"
"""The memo's key for facts between places, which are forgotten when it fills."""

T = TypeVar("T")


def _geometry_box(geometry: BaseGeometry) -> Box:
    x0, y0, x1, y1 = geometry.bounds
    return (float(x0), float(y0), float(x1), float(y1))


def _boxed(geometry: BaseGeometry) -> list[tuple[Box, BaseGeometry]]:
    """A geometry's parts, each prepared and with its bounding box."""
    out: list[tuple[Box, BaseGeometry]] = []
    for part in shapely.get_parts(geometry):
        shapely.prepare(part)
        out.append((_geometry_box(part), part))
    return out


class TerrainKind(StrEnum):
    """The kinds of ground every rule set may draw on. What each means for movement,
    sight, fire and melee is each rule set's to say, and a rule set names the kinds it
    knows (:attr:`RuleSet.TERRAIN_KINDS <tertia.core.ruleset.RuleSet.TERRAIN_KINDS>`): a
    scenario placing another is refused when played under it. A rule set adds a kind of
    its own (works, a hard obstacle ...) by naming it there: a kind is a name, and these
    are the names the core knows (:func:`terrain_kind`)."""

    WOODS = "woods"
    TOWN = "town"
    FIELD = "field"
    BROKEN = "broken"
    MARSH = "marsh"
    LAKE = "lake"
    HILL = "hill"
    RIVER = "river"
    FORD = "ford"
    BRIDGE = "bridge"
    ROAD = "road"
    HEDGE = "hedge"
    ENTRENCHMENT = "entrenchment"
    WALL = "wall"
    FENCE = "fence"
    STREAM = "stream"
    PLOUGHED = "ploughed"
    ROUGH = "rough"




KIND_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
"""What a kind of terrain may be called: a lower-case name, as a scenario writes it."""


def terrain_kind(name: str) -> str:
    """The kind of ground called ``name``: the core's :class:`TerrainKind` when it is one
    (so ``kind is TerrainKind.WOODS`` holds), else the name a rule set gave its own kind.

    >>> terrain_kind("woods") is TerrainKind.WOODS, terrain_kind("works")
    (True, 'works')
    """
    return TerrainKind(name) if name in _CORE_KINDS else name


_CORE_KINDS = frozenset(k.value for k in TerrainKind)


@dataclass(frozen=True)
class TerrainFeature:
    """One piece of terrain: an area, or a line buffered to its width."""

    kind: str
    outline: tuple[Point, ...] = ()
    line: tuple[Point, ...] = ()
    width: float = 0.0
    name: str = ""
    hedged: bool = False
    height: int = 1

    _geometry: BaseGeometry = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once: a compiled class has no instance dictionary for a cached property.
        shape = (LineString(self.line).buffer(self.width / 2.0, cap_style="flat") if self.line
                 else ShapelyPolygon(self.outline))
        object.__setattr__(self, "_geometry", shape)

    @property
    def geometry(self) -> BaseGeometry:
        return self._geometry

    @property
    def is_linear(self) -> bool:
        return bool(self.line)


def _holds_point(pieces: Sequence[BaseGeometry], p: Point) -> bool:
    """Does any of ``pieces`` hold the point (boundary included)?"""
    pt = ShapelyPoint(p)
    return any(bool(g.intersects(pt)) for g in pieces)


def _shares_area(pieces: Sequence[BaseGeometry], footprint: Polygon) -> bool:
    """Does the footprint share area with any of ``pieces`` (touching does not count)?"""
    poly = shape_of(footprint)
    return any(bool(g.intersects(poly)) and not bool(g.touches(poly)) for g in pieces)


def shape_of(footprint: Polygon) -> ShapelyPolygon:
    """A footprint as shapely's polygon, built by shapely's array function: the same
    polygon as the class's constructor gives, for a third less work (the rules build one
    for each area a move sweeps near terrain)."""
    shape: ShapelyPolygon = shapely.polygons(footprint)
    return shape


@dataclass
class Battlefield:
    """The table: its size and terrain, with per-kind geometry built once."""

    width: float
    depth: float
    features: tuple[TerrainFeature, ...] = ()
    _by_kind: dict[str, BaseGeometry] = field(default_factory=dict, repr=False)
    _memo: dict[object, Any] = field(default_factory=dict, repr=False)
    _pieces: dict[object, list[tuple[Box, BaseGeometry]]] = field(default_factory=dict, repr=False)
    _feature_boxes: list[tuple[TerrainFeature, Box]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        groups: dict[str, list[BaseGeometry]] = {}
        for f in self.features:
            groups.setdefault(f.kind, []).append(f.geometry)
        for kind, geoms in groups.items():
            g = shapely.union_all(geoms)
            shapely.prepare(g)
            self._by_kind[kind] = g
            self._pieces[kind] = _boxed(g)
        self._feature_boxes = [(f, _geometry_box(f.geometry)) for f in self.features]
        crossings = [
            self._by_kind[k] for k in (TerrainKind.FORD, TerrainKind.BRIDGE) if k in self._by_kind
        ]
        if TerrainKind.RIVER in self._by_kind:
            barrier = self._by_kind[TerrainKind.RIVER]
            if crossings:
                barrier = barrier.difference(shapely.union_all(crossings))
            shapely.prepare(barrier)
            self._river_barrier: BaseGeometry | None = barrier
            self._pieces["river_barrier"] = _boxed(barrier)
        else:
            self._river_barrier = None

    def _near(self, key: object, box: Box) -> list[BaseGeometry]:
        """The pieces of some ground whose bounding boxes meet ``box``: a cheap first cut
        before any exact test (most moves are nowhere near most terrain)."""
        x0, y0, x1, y1 = box
        return [
            g for (a0, b0, a1, b1), g in self._pieces.get(key, ())
            if a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1
        ]

    # --- membership ---------------------------------------------------------------------

    def has(self, kind: str) -> bool:
        return kind in self._by_kind

    def may_meet(self, kind: str, points: Sequence[Point]) -> bool:
        """Might a path through ``points`` meet ground of this kind? False only when the
        path's bounding box misses every piece of it: a cheap first cut."""
        return bool(points) and bool(self._near(kind, bounding_box(points)))

    def contains_point(self, kind: str, p: Point) -> bool:
        """Is the point on ground of this kind (boundary included)?"""
        near = self._near(kind, (p[0], p[1], p[0], p[1]))
        if not near:
            return False
        # remembered: pieces that stand still are asked about where they stand again and again
        return self.recall(("contains", kind, (p[0], p[1])), lambda: _holds_point(near, p))


    def features_at(self, p: Point, kind: TerrainKind | None = None) -> tuple[TerrainFeature, ...]:
        """The features under a point (of ``kind`` only, when given), boundary included:
        only those whose bounding boxes hold it are measured."""
        x, y = p
        near = [f for f, (a0, b0, a1, b1) in self._feature_boxes
                if (kind is None or f.kind is kind) and a0 <= x <= a1 and b0 <= y <= b1]
        if not near:
            return ()
        pt = ShapelyPoint(p)
        return tuple(f for f in near if f.geometry.intersects(pt))

    def features_near(self, kinds: Collection[str], a: Point, b: Point) -> list[TerrainFeature]:
        """The features of these kinds, in the order given, whose bounding boxes meet the
        box with corners ``a`` and ``b``: a cheap first cut (nothing else can touch a
        segment from a to b)."""
        x0, x1 = min(a[0], b[0]), max(a[0], b[0])
        y0, y1 = min(a[1], b[1]), max(a[1], b[1])
        return [f for f, (a0, b0, a1, b1) in self._feature_boxes
                if f.kind in kinds and a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1]

    def features_overlapping(self, kind: str, footprint: Polygon) -> list[int]:
        """Indexes, among the features of ``kind`` in the order given, of those a footprint
        shares area with (touching does not count)."""
        x0, y0, x1, y1 = bounding_box(footprint)
        found: list[int] = []
        poly: ShapelyPolygon | None = None
        index = -1
        for f, (a0, b0, a1, b1) in self._feature_boxes:
            if f.kind is not kind:
                continue
            index += 1
            if a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1:
                poly = shape_of(footprint) if poly is None else poly
                if bool(f.geometry.intersects(poly)) and not bool(f.geometry.touches(poly)):
                    found.append(index)
        return found

    def overlaps(self, kind: str, footprint: Polygon) -> bool:
        """Does a footprint share area with ground of this kind (touching does not count)?"""
        return self._overlaps(kind, footprint)

    def _overlaps(self, key: object, footprint: Polygon) -> bool:
        near = self._near(key, bounding_box(footprint))
        if not near:
            return False
        # Remembered (:meth:`recall`): the same areas are asked about again and again, a
        # unit halted at a river's bank trying the same moves at every decision.
        return self.recall(("overlaps", key, tuple(footprint)), lambda: _shares_area(near, footprint))

    def hill_level(self, p: Point) -> int:
        """Height of the highest hill under a point; 0 on the plain."""
        if TerrainKind.HILL not in self._by_kind:
            return 0
        return self.recall(("hill_level", (p[0], p[1])), lambda: max(
            (f.height for f in self.features_at(p, TerrainKind.HILL)), default=0))

    # --- rivers, roads, sight -----------------------------------------------------------

    def blocks_by_river(self, footprint: Polygon) -> bool:
        """Does a footprint (or swept area) enter a river away from a ford or bridge?"""
        return self._river_barrier is not None and self._overlaps("river_barrier", footprint)

    def crosses_river(self, a: Point, b: Point) -> bool:
        """Does the straight line between two points cross a river (fords included)?"""
        g = self._by_kind.get(TerrainKind.RIVER)
        return g is not None and bool(g.intersects(LineString((a, b))))

    def path_on_road(self, points: Sequence[Point], tolerance: float = 0.25) -> bool:
        """Does a whole path keep to a road (within ``tolerance`` of its edges)?"""
        road = self._road_within(tolerance)
        if road is None or len(points) < 2:
            return False
        g, (r0, s0, r1, s1) = road
        x0, y0, x1, y1 = bounding_box(points)
        if x0 < r0 or y0 < s0 or x1 > r1 or y1 > s1:
            return False
        return bool(g.covers(LineString(points)))

    def _road_within(self, tolerance: float) -> tuple[BaseGeometry, Box] | None:
        """The roads grown by ``tolerance`` (prepared), with their box; None without roads."""
        key = ("road", tolerance)
        if key not in self._memo:
            road = self._by_kind.get(TerrainKind.ROAD)
            grown = None if road is None else road.buffer(tolerance)
            if grown is not None:
                shapely.prepare(grown)
            self._memo[key] = None if grown is None else (grown, _geometry_box(grown))
        found: tuple[BaseGeometry, Box] | None = self._memo[key]
        return found

    def _hill_edges(self) -> list[tuple[Point, Point]]:
        """Every edge of every hill's outline (holes included), as pairs of corners."""
        if "hill_edges" not in self._memo:
            edges: list[tuple[Point, Point]] = []
            for f in self.features:
                if f.kind is not TerrainKind.HILL:
                    continue
                for part in shapely.get_parts(f.geometry):
                    for ring in (part.exterior, *part.interiors):
                        corners = [(float(x), float(y)) for x, y in ring.coords]
                        edges.extend(itertools.pairwise(corners))
            self._memo["hill_edges"] = edges
        found: list[tuple[Point, Point]] = self._memo["hill_edges"]
        return found

    def climbs(self, points: Sequence[Point]) -> bool:
        """Does a path reach higher ground anywhere along it than just before? Checked on
        each side of every place the path crosses a hill's edge."""
        if len(points) < 2 or not self._near(TerrainKind.HILL, bounding_box(points)):
            return False
        return self.recall(("climbs", tuple(points)), lambda: self._climbs(points))

    def _climbs(self, points: Sequence[Point]) -> bool:
        edges = self._hill_edges()
        crossings: list[float] = []  # distances along the path
        walked = 0.0
        for a, b in itertools.pairwise(points):
            length = hypot(b[0] - a[0], b[1] - a[1])
            for c, d in edges:
                t = _crossing(a, b, c, d)
                if t is not None:
                    crossings.append(walked + t * length)
            walked += length
        step = 1e-3
        for at in crossings:
            before = _point_along(points, max(at - step, 0.0))
            after = _point_along(points, min(at + step, walked))
            if self.hill_level(after) > self.hill_level(before):
                return True
        return False

    def line_crosses(self, kinds: Iterable[str], a: Point, b: Point) -> bool:
        """Does the segment ab pass through the interior of any of these kinds of ground?
        (Remembered: the same lines of sight are asked about again and again.)"""
        box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        # only ground whose bounding box the segment's meets can share a point with it
        present = tuple(k for k in kinds if k in self._by_kind and self._near(k, box))
        if not present:
            return False
        return self.recall(("line_crosses", present, a, b), lambda: self._crosses(present, a, b))

    def _crosses(self, kinds: tuple[str, ...], a: Point, b: Point) -> bool:
        seg = LineString((a, b))
        return any(bool(self._by_kind[k].intersects(seg)) and not bool(self._by_kind[k].touches(seg))
                   for k in kinds)

    def recall(self, key: tuple[Any, ...], measure: Callable[[], T]) -> T:
        """What ``measure`` finds of the ground between places or over an area (a line of
        sight; a rule set's cover between two centres; whether a footprint enters some
        ground), measured once, since the same questions are asked
        again and again: ``key`` names the question and everything its answer depends on
        besides the terrain. Forgotten, with every such answer, once
        :data:`LINE_MEMO_LIMIT` are held."""
        filed = (_BETWEEN, key)
        if filed in self._memo:
            found: T = self._memo[filed]
            return found
        if len(self._memo) > LINE_MEMO_LIMIT:
            self._memo = {k: v for k, v in self._memo.items()
                          if not (isinstance(k, tuple) and k[0] == _BETWEEN)}
        answer = self._memo[filed] = measure()
        return answer

    def inside_table(self, footprint: Polygon) -> bool:
        return all(
            -1e-9 <= x <= self.width + 1e-9 and -1e-9 <= y <= self.depth + 1e-9
            for x, y in footprint
        )
