"""Movement: allowances, turning, the 3" stop near the enemy, terrain, and contact effects."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from tertia.core.actions import Move
from tertia.core.events import Marked, UnitMoved, UnitRemoved
from tertia.core.geometry import (
    angle_between,
    base_distance,
    bearing,
    is_within,
    point_segment_distance,
)
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import MovementCode
from tertia.rules.hits import piece
from tertia.rules.measuring import iter_enemy_troops_within
from tertia.rules.movement import (
    MovePlan,
    iter_collision_violations,
    iter_headings,
    iter_table_violations,
    iter_terrain_violations,
    min_distance_along,
    plan_move,
    widest_heading_off,
)
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.codes import LargerBattlesCode
from tertia.rulesets.larger_battles.commanders import iter_contacted_commanders, retire_commander
from tertia.rulesets.larger_battles.events import SupplyRaided, supplies_of, supply_markers
from tertia.rulesets.larger_battles.ground import IMPASSABLE
from tertia.rulesets.larger_battles.orders import is_ordered
from tertia.rulesets.larger_battles.profile import profile

ENEMY_ZONE = 3.0
"""Enemy Units: units must cease movement upon moving to within 3" of an enemy unit."""

ZONE_TOLERANCE = 0.05
"""A unit may end this much inside 3" (a hand placing a base at the table)."""

TURNING_LIMIT = 3.0
"""Turning: all movement is limited to 3" when turning."""

HILL_LIMIT = 3.0
"""Hills: all units move 3" when moving up a hill."""

ROAD_BONUS = 3.0
"""Roads: +3" if the entire move is spent on the road, not when charging."""

CONTACT = 0.05

BEND_TOLERANCE = 1.0
"""Turning: a path whose direction changes part-way by more than this many degrees turns."""

FORWARD_ARC = 45.0
"""Option ``slide = forward-arc-only``: how far a slide may stray from the unit's front."""


def bends(plan: MovePlan) -> bool:
    """Does the path change direction part-way (by more than a degree)?"""
    return any(angle_between(h, k) > BEND_TOLERANCE for h, k in itertools.pairwise(iter_headings(plan)))


def is_turning(table: Battlefield, plan: MovePlan) -> bool:
    """Turning: a pivot at the start or end, or a change of direction part-way, except where
    the whole move is on a road (a road is followed, bends and all)."""
    if plan.turned:
        return True
    return bends(plan) and not table.path_on_road(plan.points)


def is_uphill(table: Battlefield, plan: MovePlan) -> bool:
    """Hills: a move goes up a hill when its centre's path reaches ground higher than the
    ground it started on."""
    if not table.has(TerrainKind.HILL) or not plan.translates:
        return False
    return table.climbs(plan.points)


def ends_in_charge(state: GameState, plan: MovePlan) -> bool:
    """A move that ends within combat range of an enemy unit is a charge."""
    return any(
        is_within(plan.end, e.base, ENEMY_ZONE + ZONE_TOLERANCE)
        for e in state.iter_troops(state.opponent(plan.unit.side))
    )


def allowance(
    table: Battlefield, state: GameState, plan: MovePlan, options: Mapping[str, Any]
) -> tuple[float, str]:
    """How far this move may go, and the clause that sets the limit."""
    unit = plan.unit
    limit, why = profile(unit.kind).move, clauses.MOVE_ALLOWANCE
    if (
        plan.translates
        and table.path_on_road(plan.points)
        and not ends_in_charge(state, plan)
    ):
        limit, why = limit + ROAD_BONUS, clauses.ROADS
    if limit > TURNING_LIMIT and is_turning(table, plan):
        limit, why = TURNING_LIMIT, clauses.TURNING
    if limit > HILL_LIMIT and is_uphill(table, plan):
        limit, why = HILL_LIMIT, clauses.HILLS
    return limit, why


def off_road_allowance(table: Battlefield, plan: MovePlan) -> float:
    """How far this move may go were no road under it: its :func:`allowance` but for the
    road's bonus and the bends a road excuses. A road only ever allows more, so a move no
    longer than this needs no road looked for."""
    limit = profile(plan.unit.kind).move
    if limit > TURNING_LIMIT and (plan.turned or bends(plan)):
        limit = TURNING_LIMIT
    if limit > HILL_LIMIT and is_uphill(table, plan):
        limit = HILL_LIMIT
    return limit


def least_allowance(kind: UnitKind) -> float:
    """The shortest any move of this kind is ever allowed: its allowance, cut by Turning or
    Hills to 3" at most (a road only adds). A move no longer than this needs no closer look."""
    return min(profile(kind).move, TURNING_LIMIT, HILL_LIMIT)


def validate_move(
    table: Battlefield, state: GameState, action: Move, options: Mapping[str, Any]
) -> list[Violation]:
    unit = state.units[action.unit]
    if state.phase != "movement":
        return [Violation(CoreCode.WRONG_PHASE, f"units move only in the movement phase, not {state.phase}",
                          clauses.SEQUENCE)]
    if not is_ordered(state, unit, "move"):
        return [Violation(LargerBattlesCode.NOT_ORDERED,
                          f"{unit.label} has no move order (its own or its command's) this turn",
                          clauses.ORDERS)]
    if state.is_marked("moved", unit.id):
        return [Violation(CoreCode.ALREADY_MOVED, f"{unit.label} has already moved this turn",
                          clauses.MOVE_ALLOWANCE)]
    if any(not all(map(math.isfinite, p)) for p in action.waypoints) or any(
        f is not None and not math.isfinite(f) for f in (action.face_before, action.face_after)
    ):
        return [Violation(MovementCode.BAD_PATH, "waypoints and facings must be finite numbers",
                          clauses.MOVE_ALLOWANCE)]
    if len(action.waypoints) > 16:
        return [Violation(MovementCode.BAD_PATH, "a move may have at most 16 waypoints",
                          clauses.MOVE_ALLOWANCE)]
    plan = plan_move(unit, action)
    if unit.kind is UnitKind.ARTILLERY and piece(unit).fired and plan.translates:
        return [Violation(MovementCode.STATIONARY,
                          f"{unit.label} has fired and must remain stationary; it may only pivot",
                          clauses.ARTILLERY_STATIONARY)]
    if options["slide"] == "forward-arc-only":
        found_slide = _slide_violations(plan)
        if found_slide:
            return found_slide
    length = plan.length
    if length > least_allowance(unit.kind) + 1e-6 and length > off_road_allowance(table, plan) + 1e-6:
        limit, why = allowance(table, state, plan, options)
        if plan.length > limit + 1e-6:
            return [Violation(MovementCode.TOO_FAR,
                              f"{unit.label} would move {plan.length:.2f}\"; the limit is {limit:g}\"",
                              why)]
    found: list[Violation] = []
    found.extend(iter_table_violations(table, plan, clauses.MOVE_ALLOWANCE))
    found.extend(iter_collision_violations(state, plan, clauses.INTERPENETRATION, supply_markers(state)))
    found.extend(iter_terrain_violations(table, plan, IMPASSABLE, IMPASSABLE, clauses.RIVERS))
    if unit.kind is UnitKind.HORSE and table.contains_point(TerrainKind.TOWN, plan.points[-1]):
        found.append(Violation(MovementCode.CANNOT_END_HERE,
                               f"{unit.label}: cavalry may not end a move in a town",
                               clauses.TOWNS))
    found.extend(_enemy_zone_violations(state, plan, options))
    return found


def _slide_violations(plan: MovePlan) -> list[Violation]:
    """Option ``slide = forward-arc-only``: every leg within 45 degrees of the way the unit
    faces while it slides (after any pivot at the start)."""
    off = widest_heading_off(plan, plan.after_pivot.facing)
    if off > FORWARD_ARC + 1e-6:
        return [Violation(
            MovementCode.MOVED_SIDEWAYS,
            f"{plan.unit.label} would slide {off:.0f} degrees off its front (at most "
            f"{FORWARD_ARC:g} with slide = forward-arc-only); pivot first",
            clauses.TURNING)]
    return []


def _enemy_zone_violations(
    state: GameState, plan: MovePlan, options: Mapping[str, Any]
) -> list[Violation]:
    """Enemy Units: stop on coming within 3"; a unit already within 3" may only turn or move
    directly away."""
    unit = plan.unit
    if not plan.translates:
        return []
    close = list(iter_enemy_troops_within(state, unit, ENEMY_ZONE))
    tolerance = float(options["directly_away_tolerance"])
    if close:
        if len(plan.points) > 2:
            return [Violation(MovementCode.NOT_AWAY,
                              f"{unit.label} is within 3\" of the enemy and may only move straight away",
                              clauses.ENEMY_UNITS)]
        heading = bearing(plan.points[0], plan.points[-1])
        for e in close:
            away = bearing((e.x, e.y), (unit.x, unit.y))
            off = angle_between(heading, away)
            if off > tolerance:
                return [Violation(
                    MovementCode.NOT_AWAY,
                    f"{unit.label} is within 3\" of {e.label} and may only turn or move directly "
                    f"away; this move is {off:.0f} degrees off directly away (at most {tolerance:g})",
                    clauses.ENEMY_UNITS)]
    legs = list(itertools.pairwise(plan.points))
    x0, y0, x1, y1 = plan.box()
    enemy = state.opponent(unit.side)
    for e in state.near(x0, y0, x1, y1, ENEMY_ZONE + unit.base.radius):
        if e.side != enemy or e.kind is UnitKind.COMMANDER or e in close:
            continue
        # Cheap rejections: the enemy's circle stays clear of the zone around the path's
        # box, then around the path itself.
        reach = ENEMY_ZONE + unit.base.radius + e.base.radius
        if e.x < x0 - reach or e.x > x1 + reach or e.y < y0 - reach or e.y > y1 + reach:
            continue
        if all(point_segment_distance((e.x, e.y), a, b) > reach for a, b in legs):
            continue
        closest = min_distance_along(plan, e.base)
        if closest < ENEMY_ZONE - ZONE_TOLERANCE:
            return [Violation(
                MovementCode.ENEMY_ZONE,
                f"{unit.label} would come {closest:.2f}\" from {e.label}; units must cease moving "
                f"on reaching 3\" of an enemy unit",
                clauses.ENEMY_UNITS)]
        for p in plan.points[1:-1]:
            mid = plan.end.moved_to(p[0], p[1], plan.after_pivot.facing)
            if base_distance(mid, e.base) <= ENEMY_ZONE:
                return [Violation(
                    MovementCode.ENEMY_ZONE,
                    f"{unit.label} reaches 3\" of {e.label} at ({p[0]:.1f}, {p[1]:.1f}) and must stop there",
                    clauses.ENEMY_UNITS)]
    return []


def resolve_move(tx: Tx, action: Move, options: Mapping[str, Any]) -> None:
    unit = tx.state.units[action.unit]
    plan = plan_move(unit, action)
    tx.emit(Marked(mark="moved", ident=unit.id))
    tx.emit(UnitMoved(unit=unit.id, path=plan.points, facing=plan.end.facing))
    moved = tx.state.units[unit.id]
    for commander in list(iter_contacted_commanders(tx.state, moved)):
        retire_commander(tx, commander, moved)
    if moved.kind is UnitKind.HORSE:
        for supply in supplies_of(tx.state):
            if (
                supply.in_play
                and supply.side != moved.side
                and base_distance(moved.base, supply.base) <= CONTACT + 1e-6
            ):
                tx.emit(SupplyRaided(supply=supply.id, by=moved.side))
                # the raid names the base; the removal adds nothing to it
                tx.emit(UnitRemoved(unit=moved.id, reason="raided"))
                break
