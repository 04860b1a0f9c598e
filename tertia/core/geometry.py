"""Table geometry: oriented rectangular bases, distances, faces and arcs.

Conventions (shared by every rule set): lengths in inches; origin at the south-west
corner, x east, y north; facing in degrees clockwise from north (0 faces +y, 90 faces +x).
A base is an oriented rectangle centred on (x, y): ``width`` is its frontage, ``depth``
runs front to back.

The hot paths (AI candidate checks, support and range queries) run thousands of times per
battle on a handful of convex polygons, so the primitives here are small pure-Python
functions with bounding-circle early exits; terrain, which needs general polygons, uses
shapely in :mod:`tertia.core.terrain`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache
from typing import Final, final

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPSILON = 1e-6
"""Tolerance for contact: bases closer than this count as touching, not overlapping."""

CONTACT = 0.05
"""Bases whose edges are within this many inches are "in contact"."""


# Compiled code calls into the math module dearly: it looks the function up there, boxes
# each argument and the result. What it calls a battle's thousands of times is reached
# more cheaply here, each giving exactly the math module's result.
_HYPOT: Final = math.hypot
_RADIANS_PER_DEGREE: Final = math.pi / 180.0
_DEGREES_PER_RADIAN: Final = 180.0 / math.pi


def hypot(x: float, y: float) -> float:
    """``hypot(x, y)``: the very function, held in a constant rather than looked up
    in the math module at each call.

    >>> hypot(3.0, 4.0)
    5.0
    """
    return _HYPOT(x, y)


def radians(angle: float) -> float:
    """``math.radians``: the product by the constant the math module multiplies by, so
    the same result without a call.

    >>> radians(180.0) == math.pi
    True
    """
    return angle * _RADIANS_PER_DEGREE


def degrees(angle: float) -> float:
    """``math.degrees``: the product by the math module's own constant, so the same
    result without a call.

    >>> degrees(math.pi)
    180.0
    """
    return angle * _DEGREES_PER_RADIAN


def is_finite(value: float) -> bool:
    """``math.isfinite``, from the two tests compiled code makes without a call.

    >>> is_finite(1.0), is_finite(math.inf), is_finite(math.nan)
    (True, False, False)
    """
    return not (math.isinf(value) or math.isnan(value))


def heading_vector(facing: float) -> Point:
    """Unit vector of a facing in degrees clockwise from north.

    >>> [round(c, 6) for c in heading_vector(90)]
    [1.0, 0.0]
    """
    r = radians(facing)
    return (math.sin(r), math.cos(r))


def bearing(frm: Point, to: Point) -> float:
    """Compass bearing in degrees [0, 360) from one point to another.

    >>> bearing((0, 0), (0, 5)), bearing((0, 0), (-3, 0))
    (0.0, 270.0)
    """
    return degrees(math.atan2(to[0] - frm[0], to[1] - frm[1])) % 360.0


def angle_between(a: float, b: float) -> float:
    """Smallest absolute difference between two facings, in degrees [0, 180].

    >>> angle_between(350, 10), angle_between(90, 270)
    (20.0, 180.0)
    """
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d



@final
class Base:
    """An oriented rectangle on the table: a unit's footprint. A value: equal bases have
    equal position, facing and size, and a base never changes.

    Written out rather than a dataclass: bases are built, compared and hashed thousands
    of times a battle, and a plain class does all three several times faster.

    >>> Base(1, 2, 90, 4, 2) == Base(1.0, 2.0, 90.0, 4.0, 2.0), Base(1, 2, 90, 4, 2).radius > 2
    (True, True)
    """

    __slots__ = ("_corners", "_hash", "depth", "facing", "radius", "width", "x", "y")

    def __init__(self, x: float, y: float, facing: float, width: float, depth: float,
                 radius: float = -1.0) -> None:
        self.x: Final = x
        self.y: Final = y
        self.facing: Final = facing
        self.width: Final = width
        self.depth: Final = depth
        # ``radius`` is passed on by a base of the same size (see :meth:`moved_to`)
        self.radius: Final = 0.5 * hypot(width, depth) if radius < 0.0 else radius
        # Worked out when first asked: most bases (a move weighed, a unit evolved) never are.
        self._corners: Polygon | None = None
        self._hash = -1

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Base):
            return NotImplemented
        return (self.x == other.x and self.y == other.y and self.facing == other.facing
                and self.width == other.width and self.depth == other.depth)

    def __hash__(self) -> int:
        found = self._hash
        if found == -1:  # never a tuple's hash
            found = self._hash = hash((self.x, self.y, self.facing, self.width, self.depth))
        return found

    def __repr__(self) -> str:
        return (f"Base(x={self.x!r}, y={self.y!r}, facing={self.facing!r}, "
                f"width={self.width!r}, depth={self.depth!r})")

    def __reduce__(self) -> tuple[type[Base], tuple[float, float, float, float, float]]:
        return (Base, (self.x, self.y, self.facing, self.width, self.depth))

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    def corners(self) -> Polygon:
        """Corners in order front-left, front-right, rear-right, rear-left.

        >>> [tuple(round(c, 6) for c in p) for p in Base(0, 0, 0, 4, 2).corners()]
        [(-2.0, 1.0), (2.0, 1.0), (2.0, -1.0), (-2.0, -1.0)]
        """
        found = self._corners
        if found is None:
            x, y, width, depth = self.x, self.y, self.width, self.depth
            fx, fy = heading_vector(self.facing)
            rx, ry = fy, -fx  # right-hand vector
            hw, hd = width / 2.0, depth / 2.0
            found = self._corners = (
                (x + fx * hd - rx * hw, y + fy * hd - ry * hw),
                (x + fx * hd + rx * hw, y + fy * hd + ry * hw),
                (x - fx * hd + rx * hw, y - fy * hd + ry * hw),
                (x - fx * hd - rx * hw, y - fy * hd - ry * hw),
            )
        return found

    def moved_to(self, x: float, y: float, facing: float | None = None) -> Base:
        return Base(x, y, self.facing if facing is None else facing, self.width, self.depth,
                    self.radius)

    def front_centre(self) -> Point:
        fx, fy = heading_vector(self.facing)
        return (self.x + fx * self.depth / 2.0, self.y + fy * self.depth / 2.0)

    def to_local(self, p: Point) -> Point:
        """Coordinates of a point relative to this base: (right, forward) from its centre."""
        fx, fy = heading_vector(self.facing)
        dx, dy = p[0] - self.x, p[1] - self.y
        return (dx * fy - dy * fx, dx * fx + dy * fy)


# --- convex polygon primitives --------------------------------------------------------


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from point ``p`` to segment ``ab``.

    >>> point_segment_distance((0, 1), (-1, 0), (1, 0))
    1.0
    """
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    px, py = p[0] - ax, p[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return hypot(px, py)
    t = (px * dx + py * dy) / length2
    if t <= 0.0:
        return hypot(px, py)
    if t >= 1.0:
        return hypot(px - dx, py - dy)
    return abs(px * dy - py * dx) / math.sqrt(length2)


def _separated(a: Polygon, b: Polygon, tolerance: float) -> bool:
    """True when an edge normal of ``a`` separates the two convex polygons."""
    n = len(a)
    for i in range(n):
        x1, y1 = a[i]
        x2, y2 = a[i + 1] if i + 1 < n else a[0]
        nx, ny = y2 - y1, x1 - x2
        length = hypot(nx, ny)
        if length == 0.0:
            continue
        nx /= length
        ny /= length
        amin, amax = _extent(a, nx, ny)
        bmin, bmax = _extent(b, nx, ny)
        if amax <= bmin + tolerance or bmax <= amin + tolerance:
            return True
    return False


def _extent(poly: Polygon, nx: float, ny: float) -> tuple[float, float]:
    """The least and greatest projections of a polygon's vertices on the axis (nx, ny)."""
    lo = hi = poly[0][0] * nx + poly[0][1] * ny
    for px, py in poly:
        d = px * nx + py * ny
        if d < lo:
            lo = d
        elif d > hi:
            hi = d
    return lo, hi


def polygons_overlap(a: Polygon, b: Polygon, tolerance: float = EPSILON) -> bool:
    """True when two convex polygons share interior area (touching edges do not count).

    >>> sq = ((0, 0), (1, 0), (1, 1), (0, 1))
    >>> polygons_overlap(sq, ((1, 0), (2, 0), (2, 1), (1, 1)))
    False
    >>> polygons_overlap(sq, ((0.5, 0), (2, 0), (2, 1), (0.5, 1)))
    True
    """
    return not (_separated(a, b, tolerance) or _separated(b, a, tolerance))


def polygon_contains_point(poly: Polygon, p: Point) -> bool:
    """Point in a convex polygon (either winding), boundary included."""
    sign = 0
    n = len(poly)
    qx, qy = p
    x2, y2 = poly[0]
    for i in range(n):
        x1, y1 = x2, y2
        x2, y2 = poly[i + 1] if i + 1 < n else poly[0]
        cross = (x2 - x1) * (qy - y1) - (y2 - y1) * (qx - x1)
        if abs(cross) < 1e-12:
            continue
        s = 1 if cross > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return False
    return True


def polygon_distance(a: Polygon, b: Polygon) -> float:
    """Edge-to-edge distance between two convex polygons; 0 when they overlap or touch.

    >>> polygon_distance(((0, 0), (1, 0), (1, 1), (0, 1)), ((3, 0), (4, 0), (4, 1), (3, 1)))
    2.0
    """
    if polygons_overlap(a, b, 0.0):
        return 0.0
    return min(_vertices_to_edges(a, b), _vertices_to_edges(b, a))


def _vertices_to_edges(points: Polygon, poly: Polygon) -> float:
    """Closest distance from ``points`` to the edges of ``poly`` they lie outside of."""
    n = len(poly)
    # Orientation of poly: edges with the point on their outer side are the only candidates.
    sign = 1.0 if _twice_signed_area(poly) > 0 else -1.0
    best = math.inf
    for p in points:
        px, py = p
        bx, by = poly[0]
        for i in range(n):
            ax, ay = bx, by
            bx, by = poly[i + 1] if i + 1 < n else poly[0]
            ex, ey = bx - ax, by - ay
            if sign * (ex * (py - ay) - ey * (px - ax)) > 1e-9 * (abs(ex) + abs(ey)):
                continue  # p is clearly on the inner side of this edge's line
            d = point_segment_distance(p, (ax, ay), (bx, by))
            if d < best:
                best = d
    return best


def convex_hull(points: Sequence[Point]) -> Polygon:
    """Convex hull (counter-clockwise) by the monotone chain."""
    pts = sorted(set(points))
    n = len(pts)
    if n <= 2:
        return tuple(pts)
    # The chains hold the points' places in ``pts``: compiled code keeps those as plain
    # integers, where it would make each point anew at every append.
    lower: list[int] = []
    for k in range(n):
        while len(lower) >= 2 and _cross(pts[lower[-2]], pts[lower[-1]], pts[k]) <= 0:
            lower.pop()
        lower.append(k)
    upper: list[int] = []
    for k in range(n - 1, -1, -1):
        while len(upper) >= 2 and _cross(pts[upper[-2]], pts[upper[-1]], pts[k]) <= 0:
            upper.pop()
        upper.append(k)
    return tuple(pts[k] for k in lower[:-1] + upper[:-1])


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def swept_polygon(start: Base, end: Base) -> Polygon:
    """Area a base covers sliding in a straight line without turning from start to end."""
    return convex_hull(start.corners() + end.corners())


# --- base-to-base relations -----------------------------------------------------------


DISTANCES_KEPT = 1 << 13
"""Pairs of bases :func:`base_distance` remembers. In one battle the AI measures the same
few thousand pairs again and again: in Charge yr Pikes! battles on Edgehill 8,192 pairs
keep 91.8% of the measures remembered, all but 0.2% of what remembering every pair does.
A server playing 64 battles at once measures many more (50,000 distinct pairs in five
minutes of 40 players): 8,192 keep 80% of them (every pair, 91%), fill within the first
minute of that load and hold about 2.5 MiB (a pair keeps its two bases alive: some 320
bytes); 65,536 held 20 MiB and took five minutes to fill. A measure not remembered takes
about 20 µs."""


@lru_cache(maxsize=DISTANCES_KEPT)
def base_distance(a: Base, b: Base) -> float:
    """Edge-to-edge distance between two bases (0 when touching or overlapping).

    Remembered: most pieces stand still most of the time, so the same pairs are measured
    again and again over a battle.

    >>> round(base_distance(Base(0, 0, 0, 4, 2), Base(0, 5, 180, 4, 2)), 9)
    3.0
    """
    return polygon_distance(a.corners(), b.corners())


def is_within(a: Base, b: Base, inches: float, tolerance: float = EPSILON) -> bool:
    """"Within N inches": edge-to-edge distance at most N (with a hair of ``tolerance``).
    Bases whose circles lie farther apart are not measured: no edge is nearer."""
    if hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius > inches + tolerance:
        return False
    return base_distance(a, b) <= inches + tolerance


def bases_overlap(a: Base, b: Base) -> bool:
    """True when two bases interpenetrate; bases in contact do not overlap."""
    if hypot(a.x - b.x, a.y - b.y) >= a.radius + b.radius:
        return False
    return polygons_overlap(a.corners(), b.corners())


class Face(StrEnum):
    """The four faces of a base."""

    FRONT = "front"
    RIGHT = "right"
    REAR = "rear"
    LEFT = "left"


def face_towards(base: Base, p: Point) -> Face:
    """Which face of ``base`` a point lies beyond, split by the base's diagonals.

    >>> b = Base(0, 0, 0, 4, 2)
    >>> face_towards(b, (0, 5)), face_towards(b, (5, 0)), face_towards(b, (0, -5))
    (<Face.FRONT: 'front'>, <Face.RIGHT: 'right'>, <Face.REAR: 'rear'>)
    """
    right, forward = base.to_local(p)
    # Normalise by the half-sizes so the diagonals of the rectangle are the dividers.
    u = right / (base.width / 2.0)
    v = forward / (base.depth / 2.0)
    if abs(v) >= abs(u):
        return Face.FRONT if v >= 0 else Face.REAR
    return Face.RIGHT if u > 0 else Face.LEFT



def _front_arc_polygon(base: Base, reach: float, half_angle: float) -> Polygon:
    """The region ahead of the front edge, bounded by lines splayed ``half_angle`` outward
    from each front corner and ``reach`` inches deep."""
    fl, fr, _, _ = base.corners()
    fx, fy = heading_vector(base.facing)
    rx, ry = fy, -fx
    spread = math.tan(radians(half_angle)) * reach
    return (
        fl,
        fr,
        (fr[0] + fx * reach + rx * spread, fr[1] + fy * reach + ry * spread),
        (fl[0] + fx * reach - rx * spread, fl[1] + fy * reach - ry * spread),
    )


def is_in_arc(base: Base, target: Base, half_angle: float = 45.0, reach: float = 200.0) -> bool:
    """True when any part of ``target`` lies in the frontal arc of ``base``: ahead of its
    front edge, within lines splayed ``half_angle`` degrees outward from the front corners.
    "Directly in front" is the special case ``half_angle = 0``.

    >>> gun = Base(0, 0, 0, 3, 2)
    >>> is_in_arc(gun, Base(6, 6, 0, 4, 2)), is_in_arc(gun, Base(6, 6, 0, 4, 2), 0.0)
    (True, False)
    >>> is_in_arc(gun, Base(0, -6, 0, 4, 2))
    False
    """
    arc = _front_arc_polygon(base, reach, half_angle)
    return polygons_overlap(arc, target.corners(), 0.0) or polygon_contains_point(
        arc, target.centre
    )


def is_directly_in_front(base: Base, target: Base, reach: float = 200.0) -> bool:
    """True when part of ``target`` lies in the strip straight ahead of the front edge."""
    return is_in_arc(base, target, 0.0, reach)


def facing_towards(base: Base, p: Point) -> float:
    """The facing that turns ``base`` to look straight at a point."""
    return bearing(base.centre, p)


def bounding_box(points: Sequence[Point]) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) round some points, in one pass: each bound is the first
    point to reach it, as ``min`` and ``max`` give.

    >>> bounding_box([(1.0, 5.0), (-2.0, 3.0), (4.0, 3.5)])
    (-2.0, 3.0, 4.0, 5.0)
    """
    x0, y0 = points[0]
    x1, y1 = x0, y0
    for x, y in points:
        if x < x0:
            x0 = x
        elif x > x1:
            x1 = x
        if y < y0:
            y0 = y
        elif y > y1:
            y1 = y
    return (x0, y0, x1, y1)


def path_length(points: Sequence[Point]) -> float:
    """Length of a polyline."""
    return sum(
        hypot(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(points)
    )



def _counter_clockwise_from_lowest(poly: Polygon) -> Polygon:
    """A convex polygon's vertices counter-clockwise, starting at the lowest (then leftmost)."""
    pts = poly if _twice_signed_area(poly) > 0 else poly[::-1]
    start = 0
    lx, ly = pts[0]
    for i in range(1, len(pts)):
        x, y = pts[i]
        if y < ly or (y == ly and x < lx):
            start, lx, ly = i, x, y
    return pts[start:] + pts[:start] if start else pts


def _twice_signed_area(poly: Polygon) -> float:
    """Twice the signed area of a polygon: positive when its vertices run counter-clockwise."""
    total = 0.0
    x1, y1 = poly[0]
    for i in range(len(poly)):
        x0, y0 = x1, y1
        x1, y1 = poly[i + 1] if i + 1 < len(poly) else poly[0]
        total += x0 * y1 - x1 * y0
    return total


def minkowski_difference(fixed: Polygon, moving: Polygon) -> Polygon:
    """The convex polygon of offsets ``v`` for which ``moving + v`` meets ``fixed``: the
    Minkowski sum of ``fixed`` and the reflected ``moving``, merged edge by edge."""
    p = _counter_clockwise_from_lowest(fixed)
    q = _counter_clockwise_from_lowest(tuple([(-x, -y) for x, y in moving]))
    n, m = len(p), len(q)
    # each polygon's current vertex and the next, walked round (the next of the last is the first)
    px, py = p[0]
    qx, qy = q[0]
    pnx, pny = p[1 % n]
    qnx, qny = q[1 % m]
    out: list[Point] = []
    i = j = 0
    while i < n or j < m:
        out.append((px + qx, py + qy))
        ex, ey = pnx - px, pny - py
        fx, fy = qnx - qx, qny - qy
        cross = ex * fy - ey * fx
        if cross >= 0 and i < n:
            i += 1
            px, py = pnx, pny
            pnx, pny = p[(i + 1) % n]
        if cross <= 0 and j < m:
            j += 1
            qx, qy = qnx, qny
            qnx, qny = q[(j + 1) % m]
    return tuple(out)


def point_polygon_distance(poly: Polygon, p: Point) -> float:
    """Distance from a point to a convex polygon; 0 inside it."""
    if polygon_contains_point(poly, p):
        return 0.0
    n = len(poly)
    best = math.inf
    b = poly[0]
    for i in range(n):
        a = b
        b = poly[i + 1] if i + 1 < n else poly[0]
        d = point_segment_distance(p, a, b)
        if d < best:
            best = d
    return best


def first_contact(moving: Polygon, fixed: Polygon, direction: Point, clearance: float) -> float:
    """How far ``moving`` can slide along the unit vector ``direction`` before coming within
    ``clearance`` of ``fixed``: 0 if it already is, ``inf`` if it never does.

    Exact: the slide is a ray from the origin against the Minkowski difference rounded by
    ``clearance`` (offset edges and circles at the corners).

    >>> sq = ((0, 0), (2, 0), (2, 2), (0, 2))
    >>> round(first_contact(sq, ((0, 5), (2, 5), (2, 7), (0, 7)), (0.0, 1.0), 1.0), 9)
    2.0
    >>> first_contact(sq, ((5, 5), (7, 5), (7, 7), (5, 7)), (0.0, 1.0), 1.0)
    inf
    """
    m = minkowski_difference(fixed, moving)
    n = len(m)
    ux, uy = direction
    start = point_polygon_distance(m, (0.0, 0.0))
    if start <= clearance:
        # Already within reach: only a slide that opens the gap gets anywhere (the gap
        # along a straight slide is convex, so once opening it keeps opening).
        return math.inf if point_polygon_distance(m, (ux * 1e-3, uy * 1e-3)) > start + 1e-9 else 0.0
    best = math.inf
    bx, by = m[0]
    for i in range(n):
        ax, ay = bx, by
        bx, by = m[i + 1] if i + 1 < n else m[0]
        ex, ey = bx - ax, by - ay
        length = hypot(ex, ey)
        if length > 0.0:
            # Outward normal of a counter-clockwise hull edge.
            nx, ny = ey / length, -ex / length
            ox, oy = ax + nx * clearance, ay + ny * clearance
            denom = ux * ey - uy * ex
            if abs(denom) > 1e-12:
                t = (ox * ey - oy * ex) / denom
                s = (ox * uy - oy * ux) / denom
                if t >= 0.0 and 0.0 <= s <= 1.0 and t < best:
                    best = t
        # The rounded corner at vertex a: |t*u - a| = clearance.
        b = ux * ax + uy * ay
        c = ax * ax + ay * ay - clearance * clearance
        disc = b * b - c
        if disc >= 0.0:
            t = b - math.sqrt(disc)
            if t >= 0.0 and t < best:
                best = t
    return best


CONTACTS_KEPT = 1 << 13
"""Slides :func:`base_first_contact` remembers. A D3 doctrine asks the same slides again
and again: each shortened advance slides the unit the same way past the same pieces, and a
unit standing in a firefight weighs the same charges every activation (in d3-commands
battles on Edgehill three of every five slides had been asked before)."""


@lru_cache(maxsize=CONTACTS_KEPT)
def base_first_contact(moving: Base, fixed: Base, direction: Point, clearance: float) -> float:
    """:func:`first_contact` of two bases: how far ``moving`` can slide along the unit
    vector ``direction`` before coming within ``clearance`` of ``fixed``. Remembered, as
    :func:`base_distance` is: a slide depends on nothing but the two bases."""
    return first_contact(moving.corners(), fixed.corners(), direction, clearance)

