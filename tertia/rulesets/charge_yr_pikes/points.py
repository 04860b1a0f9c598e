"""Objectives and vital points (Set-up E, section 19 A-C).

"The Commander in chief of each side will choose three OBJECTIVES which he will try to
take, and three VITAL POINTS which he will try to defend ... Objectives must be on or
behind the opponent's set up line, while vital points must be on or behind one's own
set-up line." "One VITAL POINT for each side must be the baggage train if it is located
on the table. Another VITAL POINT must be a road going off the table behind the friendly
army, this represents the army's line of retreat."

Read so (``tables.toml [victory]``):

- **Holding.** A side holds a point when one of its units in good order (troops in play,
  not routed, not falling back; not officers, nor the wagons, which cannot fight for it)
  stands within ``hold_within`` inches of it, measured from the nearest edge of the
  unit's base to the point (0 when the point lies under the base), and no enemy unit in
  good order is as near. A tie holds for neither side: the point is contested.
- **Occupied.** A side has occupied an objective while it holds it.
- **Lost, kept.** A vital point is lost while the enemy holds it (army morale's +1). A
  side "still holds" its vital point (19 C) unless the enemy holds it (``vital_held =
  "unless_taken"``, the default: a point behind one's own lines needs no garrison), or,
  with ``vital_held = "occupied"``, only while it holds it itself.
- **Set-up line.** A side's set-up line is the edge of its deployment area, ``setup_line``
  inches (Set-up D's 12") from the centre line of the table on its own side; "behind" is
  towards its own table edge.
- **Baggage and retreat.** A side with wagons on the table (a ``wagons`` regiment) has one
  vital point for its baggage train, within ``hold_within`` of the wagons; a side without
  has none. The line of retreat is one vital point at its own table edge (within
  ``hold_within``), on a road when the scenario has roads.

The points are part of the game's values (``CypGame.points``, :func:`points_entry`), so
they travel with the state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

import shapely

from tertia.core.geometry import point_polygon_distance
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import TerrainKind
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.charge_yr_pikes.setup import pieces
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

OBJECTIVE = "objective"
VITAL = "vital"
BAGGAGE = "baggage"
RETREAT = "retreat"
EACH = 3
"""19 A: "three OBJECTIVES ... and three VITAL POINTS" a side."""
NOT_HOLDING = ("wagons",)
"""Troops that hold no point: the baggage train cannot fight for one."""
EXTENSION = "extensions.charge-yr-pikes"


class Place(NamedTuple):
    """An objective or vital point of ``side``: ``kind`` "objective" or "vital", ``role``
    "baggage", "retreat" or "other", its name and where it is."""

    side: str
    kind: str
    role: str
    name: str
    x: float
    y: float


def points_entry(table: PikesTable) -> tuple[tuple[Any, ...], ...]:
    """The scenario's points as the game keeps them (``CypGame.points``)."""
    return tuple((p.side, p.kind, p.role, p.name, float(p.x), float(p.y)) for p in table.points)


def places(state: GameState, side: str | None = None, kind: str | None = None) -> tuple[Place, ...]:
    """The game's points, of one side and kind if asked."""
    found = (Place(*p) for p in game_data(state).points)
    return tuple(p for p in found if (side is None or p.side == side) and (kind is None or p.kind == kind))


def reach(unit: Unit, place: Place) -> float:
    """Inches from the nearest edge of ``unit``'s base to ``place`` (0 under the base)."""
    return point_polygon_distance(unit.base.corners(), (place.x, place.y))


def in_good_order(unit: Unit) -> bool:
    """A unit that can hold a point: in play, troops (not an officer, not the wagons), not
    routed and not falling back."""
    own = unit_data(unit)
    return (unit.in_play and not own.is_officer and own.troop not in NOT_HOLDING and not own.routed
            and not own.falling_back)


def nearest(state: GameState, side: str, place: Place, within: float) -> float:
    """How near ``side``'s nearest unit in good order stands to ``place``, when that is at
    most ``within`` inches (inf: none is). Only the pieces near the place are read.
    Remembered on the state (players and the victory checks ask it of every point)."""
    key = (_NEAREST, side, place, within)
    found: float | None = state.cache.get(key)
    if found is None:
        found = math.inf
        commander = UnitKind.COMMANDER
        # every piece whose base comes within the inches of the place is among these (the
        # centre's distance less the half-diagonal is never more than the reach)
        for u in state.near(place.x, place.y, place.x, place.y, within):
            if u.side == side and u.kind is not commander and in_good_order(u):
                gap = reach(u, place)
                if gap <= within:
                    found = min(found, gap)
        state.cache[key] = found
    return found


_NEAREST = "cyp_nearest_to_point"


def holder(state: GameState, place: Place, tables: Tables) -> str | None:
    """The side holding ``place``: its unit in good order within ``hold_within`` inches and
    no enemy unit in good order as near; None when neither does (or they tie). A unit
    further than ``hold_within`` decides nothing, so neither side's is looked for there."""
    a, b = state.sides
    within = tables.victory.hold_within + 1e-9
    near_a, near_b = nearest(state, a, place, within), nearest(state, b, place, within)
    if near_a < near_b:
        return a
    if near_b < near_a:
        return b
    return None


def holds(state: GameState, side: str, place: Place, tables: Tables) -> bool:
    return holder(state, place, tables) == side


def objectives_occupied(state: GameState, side: str, tables: Tables) -> int:
    """How many of ``side``'s objectives it holds."""
    return sum(1 for p in places(state, side, OBJECTIVE) if holds(state, side, p, tables))


def vital_points_lost(state: GameState, side: str, tables: Tables) -> int:
    """How many of ``side``'s vital points the enemy holds."""
    enemy = state.opponent(side)
    return sum(1 for p in places(state, side, VITAL) if holds(state, enemy, p, tables))


def vital_points_kept(state: GameState, side: str, tables: Tables) -> int:
    """How many of its vital points ``side`` "still holds" (19 C; ``vital_held``)."""
    mine = places(state, side, VITAL)
    if tables.victory.vital_held == "occupied":
        return sum(1 for p in mine if holds(state, side, p, tables))
    return len(mine) - vital_points_lost(state, side, tables)


# --- the scenario's points ----------------------------------------------------------------


def setup_line(scenario: Scenario, side: str, tables: Tables) -> float:
    """The y of ``side``'s set-up line: ``setup_line`` inches from the centre line on its
    own side."""
    centre = scenario.table.depth / 2.0
    gap = tables.victory.setup_line
    return centre - gap if _edge(scenario, side) == "south" else centre + gap


def is_behind(scenario: Scenario, side: str, y: float, tables: Tables) -> bool:
    """Is ``y`` on or behind ``side``'s set-up line (towards its own edge)?"""
    line = setup_line(scenario, side, tables)
    return y <= line + 1e-9 if _edge(scenario, side) == "south" else y >= line - 1e-9


def _edge(scenario: Scenario, side: str) -> str:
    return scenario.side(side).edge


def scenario_problems(scenario: Scenario, table: PikesTable, tables: Tables) -> list[tuple[str, str]]:
    """Set-up E and section 19 A, B checked on the scenario's ``points``: (field path,
    message) pairs."""
    sides = scenario.side_ids
    problems: list[tuple[str, str]] = []
    for i, p in enumerate(table.points):
        problems.extend(_place_problems(scenario, tables, i, p.side, p.kind, p.role, p.x, p.y))
    if any(p.side not in sides for p in table.points):
        return problems
    units = pieces(scenario, table)
    for side in sides:
        problems.extend(_side_problems(scenario, table, tables, side, units))
    return problems


def _place_problems(scenario: Scenario, tables: Tables, i: int, side: str, kind: str, role: str,
                    x: float, y: float) -> Iterable[tuple[str, str]]:
    at = f"{EXTENSION}.points[{i}]"
    if side not in scenario.side_ids:
        yield f"{at}.side", f"no side {side!r} in the scenario"
        return
    if not (0.0 <= x <= scenario.table.width and 0.0 <= y <= scenario.table.depth):
        yield f"{at}.x", f"({x:g}, {y:g}) is off the table"
    if kind == OBJECTIVE and role != "other":
        yield f"{at}.role", f"the {role} is a vital point, not an objective (section 19 B)"
    owner = side if kind == VITAL else scenario.side_ids[1 - scenario.side_ids.index(side)]
    if not is_behind(scenario, owner, y, tables):
        line = setup_line(scenario, owner, tables)
        whose = "its own" if owner == side else f"the opponent's ({owner})"
        yield f"{at}.y", (f"{'a vital point' if kind == VITAL else 'an objective'} must be on or behind "
                          f"{whose} set-up line, y {'<=' if _edge(scenario, owner) == 'south' else '>='} "
                          f"{line:g} (section 19 A)")


def _side_problems(scenario: Scenario, table: PikesTable, tables: Tables, side: str,
                   units: dict[str, Unit]) -> Iterable[tuple[str, str]]:
    mine = [(i, p) for i, p in enumerate(table.points) if p.side == side]
    for kind, word in ((OBJECTIVE, "objectives"), (VITAL, "vital points")):
        n = sum(1 for _, p in mine if p.kind == kind)
        if n != EACH:
            yield f"{EXTENSION}.points", f"{side} has {n} {word}: each side chooses three (section 19 A)"
    vital = [(i, p) for i, p in mine if p.kind == VITAL]
    wagons = [u for u in units.values() if u.side == side and unit_data(u).troop == "wagons"]
    baggage = [(i, p) for i, p in vital if p.role == BAGGAGE]
    within = tables.victory.hold_within
    if wagons and len(baggage) != 1:
        yield (f"{EXTENSION}.points", f"{side}'s baggage train is on the table: one of its vital points "
               f"must be it, role \"baggage\" (section 19 B); {len(baggage)} are")
    elif not wagons and baggage:
        yield (f"{EXTENSION}.points[{baggage[0][0]}].role",
               f"{side} has no baggage train (wagons) on the table")
    for i, p in baggage if wagons else ():
        place = Place(p.side, p.kind, p.role, p.name, p.x, p.y)
        if min(reach(u, place) for u in wagons) > within + 1e-9:
            yield (f"{EXTENSION}.points[{i}].x",
                   f"the baggage train's point is not within {within:g}\" of {side}'s wagons")
    retreat = [(i, p) for i, p in vital if p.role == RETREAT]
    if len(retreat) != 1:
        yield (f"{EXTENSION}.points", f"one of {side}'s vital points must be its line of retreat, role "
               f"\"retreat\" (section 19 B); {len(retreat)} are")
    for i, p in retreat:
        yield from _retreat_problems(scenario, tables, side, i, p.x, p.y)


def _retreat_problems(scenario: Scenario, tables: Tables, side: str, i: int, x: float, y: float
                      ) -> Iterable[tuple[str, str]]:
    """"A road going off the table behind the friendly army": at its own edge, on a road
    if the scenario has roads."""
    within = tables.victory.hold_within
    edge_y = 0.0 if _edge(scenario, side) == "south" else scenario.table.depth
    if abs(y - edge_y) > within + 1e-9:
        yield (f"{EXTENSION}.points[{i}].y", f"the line of retreat must leave the table at {side}'s own edge "
               f"(y {edge_y:g}, within {within:g}\")")
    roads = [t.to_feature().geometry for t in scenario.terrain if t.type == TerrainKind.ROAD]
    if roads and min(r.distance(shapely.Point(x, y)) for r in roads) > within + 1e-9:
        yield f"{EXTENSION}.points[{i}].x", f"the line of retreat must be a road: none within {within:g}\""
