"""What a stand sees and what covers its target (Terrain 16 A to C, Fire 8, Artillery 9).

"Woods, villages, bridges, walls and field constructions are ground-level obstacles. All
hills are higher than such ground level obstacles." "There is dead space that cannot be
seen or fired at for 8" behind buildings and woods, from the observation of a unit on a
hill. No dead space behind hedges or walls." "Troops behind in towns or field
fortifications are visible but take casualties at half normal rate. Walls and Hedges also
count as cover but troops behind them take casualfies at a -1 to the fire dice."

Read so:

- a line of sight runs from a firing stand's front centre to a target stand's centre;
- woods and towns hide what lies beyond them from level ground, unless either end stands
  in that ground (troops in a wood see out and are seen); a unit on a hill sees over them
  except into the dead ground beyond them, within 8" of them as a ruler measures, unless the target
  too stands on a hill (hills are higher than all); a unit on a hill is seen over them
  from the plain;
- a hill higher than both ends of the line hides what lies beyond its crest;
- a piece whose base the line crosses stands in the way (officers never do; a galloper
  is part of the unit it serves); who may fire over whom is the fire's own rule
  (muskets never; guns from and at hills: :mod:`~tertia.rulesets.charge_yr_pikes.artillery`);
- a target is in a town or works when its centre stands in one, or when the line between
  centres crosses works nearer the target (it lines them); behind a wall or hedge when
  the line crosses one nearer to it than to the firer, or it stands in a hedged field
  the firer is outside; in woods when its centre is in them. Field works are terrain of
  the kind ``works`` or the engine's ``entrenchment``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString

from tertia.core.geometry import Point, is_in_arc, point_polygon_distance
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.rules.sight import bases_across
from tertia.rulesets.charge_yr_pikes.stands import stands_of
from tertia.rulesets.charge_yr_pikes.values import unit_data

HIDING = (TerrainKind.WOODS, TerrainKind.TOWN)
"""Ground-level obstacles that hide what is beyond them (buildings and woods)."""
WORKS = ("works", TerrainKind.ENTRENCHMENT)
"""Field works, by either name."""
WALLS_AND_HEDGES = (TerrainKind.WALL, TerrainKind.HEDGE)


def level(table: Battlefield, unit: Unit) -> int:
    """The hill level a unit stands on (its centre); 0 on the plain."""
    return table.hill_level((unit.x, unit.y))


def on_hill(table: Battlefield, unit: Unit) -> bool:
    return level(table, unit) > 0


def ground_hides(table: Battlefield, a: Point, b: Point, a_level: int, b_level: int,
                 dead_ground: float, *, ends: Sequence[Point] = ()) -> bool:
    """Do woods or towns hide ``b`` from ``a`` (16 A, B)? ``ends``: points whose ground
    does not hide (the stands' own centres)."""
    points = (a, b, *ends)
    for feature in table.features_near(HIDING, a, b):
        shape = feature.geometry
        if any(shape.intersects(shapely.Point(p)) for p in points):
            continue
        line = LineString((a, b))
        if not shape.intersects(line) or shape.touches(line):
            continue
        if b_level > 0:
            continue  # a unit on a hill stands above all ground-level obstacles
        if a_level <= 0:
            return True
        if float(shape.distance(shapely.Point(b))) <= dead_ground + 1e-9:
            return True
    return False


def crest_hides(table: Battlefield, a: Point, b: Point, a_level: int, b_level: int) -> bool:
    """Does a hill higher than both ends stand between them? (The line is made only
    when such a hill lies near: most lines of fire have none.)"""
    top = max(a_level, b_level)
    higher = [f for f in table.features_near((TerrainKind.HILL,), a, b) if f.height > top]
    if not higher:
        return False
    line = LineString((a, b))
    return any(f.geometry.intersects(line) for f in higher)


def in_the_way(state: GameState, a: Point, b: Point, ends: Iterable[str],
               among: Sequence[Unit] | None = None) -> list[Unit]:
    """The pieces whose bases the line ab crosses, but the units at its ``ends``, officers,
    and gallopers serving those units; ``among``: only these pieces are looked at (those
    near all the lines asked about, found once: :func:`_near_lines`)."""
    skip = set(ends)
    x0, x1, y0, y1 = min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1])
    near = [u for u in (state.iter_units() if among is None else among) if u.id not in skip
            and x0 - u.base.radius <= u.x <= x1 + u.base.radius
            and y0 - u.base.radius <= u.y <= y1 + u.base.radius
            and not unit_data(u).is_officer
            and not (unit_data(u).gun == "galloper" and unit_data(u).attached_to in skip)]
    return list(bases_across(near, a, b))


def _near_lines(state: GameState, points: Sequence[Point]) -> list[Unit]:
    """The pieces whose bases come within the box about ``points``: every line between two
    of them lies in that box, so nothing else can be in its way."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [u for u in state.iter_units()
            if x0 - u.base.radius <= u.x <= x1 + u.base.radius
            and y0 - u.base.radius <= u.y <= y1 + u.base.radius]


@dataclass(frozen=True, slots=True)
class Sighting:
    """A firing stand (by index) that has a target stand in its arc and in sight: the
    distance from its front centre to the nearest part of that stand, and the pieces the
    line crosses (``screens``: who fires over them is the fire's own rule)."""

    stand: int
    target_stand: int
    distance: float
    screens: tuple[Unit, ...]


_Held = tuple[Battlefield, Unit, Unit, list[Unit], list[Sighting]]
"""What a position remembers of a firer's lines (``GameState.remember``): the table, the
firer, the target and the pieces near the lines, as they were, and the lines."""


def sightings(table: Battlefield, state: GameState, firer: Unit, target: Unit, stands: Iterable[int],
              arc: float, dead_ground: float) -> list[Sighting]:
    """Every line from the firer's ``stands`` to a target stand in its arc and not hidden
    by the ground, nearest first for each firing stand. Remembered on the state (which
    never changes): a fire step asks the same lines again and again, and exact odds
    replay the step once for every way its dice can fall."""
    chosen = tuple(stands)
    key = (_SIGHTINGS, firer.id, target.id, chosen, arc, dead_ground)
    kept: tuple[Battlefield, list[Sighting]] | None = state.cache.get(key)
    if kept is not None and kept[0] is table and state.units.get(firer.id) is firer and \
            state.units.get(target.id) is target:
        return list(kept[1])
    ours, theirs = stands_of(firer), stands_of(target)
    pool = _near_lines(state, [c for s in (*ours, *theirs) for c in s.base.corners()])
    # The same lines in a later position where no piece has moved (a fire step's orders
    # are given one by one): the same firer, target and pieces about them, the same answer.
    held: _Held | None = state.recall(key, firer)
    if held is not None and held[0] is table and held[1] is firer and held[2] is target and \
            len(held[3]) == len(pool) and all(a is b for a, b in zip(held[3], pool, strict=True)):
        found = held[4]
    else:
        found = _sightings(table, state, firer, target, chosen, arc, dead_ground, pool)
        state.remember(key, firer, math.inf, (table, firer, target, pool, found))
    state.cache[key] = (table, found)
    return list(found)


_SIGHTINGS = "cyp_sightings"
"""Where a state remembers the lines of fire worked out on it (``GameState.cache``)."""


def _sightings(table: Battlefield, state: GameState, firer: Unit, target: Unit, stands: Iterable[int],
               arc: float, dead_ground: float, pool: list[Unit]) -> list[Sighting]:
    ours, theirs = stands_of(firer), stands_of(target)
    a_level, b_level = level(table, firer), level(table, target)
    out: list[Sighting] = []
    for i in stands:
        stand = ours[i]
        a = stand.base.front_centre()
        for j, aim in enumerate(theirs):
            if not is_in_arc(stand.base, aim.base, arc):
                continue
            b = aim.base.centre
            if ground_hides(table, a, b, a_level, b_level, dead_ground, ends=(stand.base.centre,)):
                continue
            if crest_hides(table, a, b, a_level, b_level):
                continue
            screens = tuple(in_the_way(state, a, b, (firer.id, target.id), pool))
            out.append(Sighting(i, j, point_polygon_distance(aim.base.corners(), a), screens))
    return sorted(out, key=lambda s: (s.stand, s.distance, s.target_stand))


def _features_between(table: Battlefield, kinds: Sequence[str], target: Unit, firer: Unit
                      ) -> list[TerrainFeature]:
    return table.features_near(kinds, (firer.x, firer.y), (target.x, target.y))


def _lines(table: Battlefield, kinds: Sequence[str], target: Unit, firer: Unit) -> bool:
    """Does the line between centres cross ground of ``kinds`` nearer the target?"""
    features = _features_between(table, kinds, target, firer)
    if not features:
        return False
    me, them = shapely.Point(target.x, target.y), shapely.Point(firer.x, firer.y)
    line = LineString(((firer.x, firer.y), (target.x, target.y)))
    for feature in features:
        shape = feature.geometry
        if shape.covers(them):
            continue
        if shape.intersects(line) and float(shape.distance(me)) < float(shape.distance(them)):
            return True
    return False


def in_town_or_works(table: Battlefield, target: Unit, firer: Unit) -> bool:
    """16 C: "Troops behind in towns or field fortifications ... take casualties at half
    normal rate"."""
    centre = (target.x, target.y)
    if any(table.contains_point(k, centre) for k in (TerrainKind.TOWN, *WORKS)):
        return True
    return _lines(table, WORKS, target, firer)


def behind_wall_hedge_or_woods(table: Battlefield, target: Unit, firer: Unit) -> bool:
    """Fire 8 and 16 C: "-1 Target unit behind wall, hedge, or in woods"."""
    centre = (target.x, target.y)
    if table.contains_point(TerrainKind.WOODS, centre):
        return True
    if _lines(table, WALLS_AND_HEDGES, target, firer):
        return True
    fields = [f for f in _features_between(table, (TerrainKind.FIELD,), target, firer) if f.hedged]
    if not fields:
        return False
    me, them = shapely.Point(centre), shapely.Point(firer.x, firer.y)
    return any(f.geometry.covers(me) and not f.geometry.covers(them) for f in fields)
