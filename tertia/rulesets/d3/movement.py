"""Movement as both D3 texts have it: allowances, pivots, no interpenetration, terrain,
and contact. A move that ends touching an enemy unit is a charge (Horse and Foot only, one
turn of at most 45 degrees at the start, then straight ahead); a unit already in melee
may only withdraw out of contact. What the texts do differently is a :class:`MoveRules`
field; the 12" rule and the command cohesion rule (``d3-commands``) are its own."""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from tertia.core.actions import Move
from tertia.core.events import GameDataChanged, Marked, UnitMoved
from tertia.core.geometry import (
    Base,
    Face,
    angle_between,
    bearing,
    face_towards,
    is_within,
    point_polygon_distance,
)
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import FightingCode, MovementCode
from tertia.rules.hits import piece
from tertia.rules.measuring import pieces_near
from tertia.rules.movement import (
    TURN_TOLERANCE,
    MovePlan,
    iter_collision_violations,
    iter_table_violations,
    iter_terrain_violations,
    plan_move,
    widest_heading_off,
)
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.clauses import ClauseBook
from tertia.rulesets.d3.codes import D3Code
from tertia.rulesets.d3.contact import (
    CHARGES,
    PASSING,
    REACH,
    charger_between,
    charges,
    enemy_contacts,
    passing,
)
from tertia.rulesets.d3.troops import MOVE, can_charge

CHARGE_TURN_LIMIT = 45.0
"""Charges: the one turn at the start may not exceed 45 degrees."""

FORWARD_ARC = 45.0
"""Shooting: a unit may shoot after moving forward, within its 45-degree front arc."""

AFTER_START_PIVOT, ACTIVATION_START = "after-start-pivot", "activation-start"
FORWARD_FROM = (AFTER_START_PIVOT, ACTIVATION_START)
"""What a forward move is judged against: the facing after the pivot at the start (a unit
may wheel, advance, then fire), or the facing the unit had when its activation began."""

MAX_WAYPOINTS = 16
TOWN_ENTRANTS = frozenset({UnitKind.FOOT, UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT})
"""Towns: only Infantry, Dragoons and Commanded Shot."""


@dataclass(frozen=True, slots=True)
class MoveRules:
    """What differs between the texts' movement rules."""

    clauses: ClauseBook
    pivot_cost: float
    """Inches of movement each pivot costs (d3-commands: 3"; d3-cards: none)."""
    pivot_cost_each: bool
    """Whether a pivot at the start and one at the end each cost (else one cost a move)."""
    straight_line: bool
    """d3-cards: all movement must be in a straight line."""
    commanders_move: bool
    """d3-commands: a commander, once placed, cannot move."""
    towns_closed_to_others: bool
    """True: Horse and Artillery may not enter towns (d3-commands); False: they may pass
    through but not end their move in one (d3-cards)."""
    one_unit_per_town: bool
    charge_limit: str
    """``"face"``: one attacker on each face of the target (d3-commands); ``"target"``:
    one attacker on each target (d3-cards)."""
    charge_tolerance: float
    """Degrees a charge's path may stray from straight ahead after its one turn."""
    max_pivots: int
    """Pivots a move may make: 2, at its start and its end (d3-commands); d3-cards' "at the
    start or end" is one by default."""
    forward_from: str
    """:data:`AFTER_START_PIVOT` or :data:`ACTIVATION_START`: the facing a shooter's move
    must stay within 45 degrees of."""


def turns(plan: MovePlan) -> tuple[float, float]:
    """Degrees turned by the pivot at the start and by the pivot at the end."""
    return (angle_between(plan.start.facing, plan.after_pivot.facing),
            angle_between(plan.after_pivot.facing, plan.end.facing))


def pivots(plan: MovePlan) -> int:
    return sum(1 for t in turns(plan) if t > TURN_TOLERANCE)


def is_forward(plan: MovePlan, forward_from: str = AFTER_START_PIVOT) -> bool:
    """Every slide of the move lies within 45 degrees of the way the unit faces: after its
    pivot at the start, or (``forward_from`` :data:`ACTIVATION_START`) before it, as it
    stood when its activation began (a unit moves once an activation)."""
    facing = plan.start.facing if forward_from == ACTIVATION_START else plan.after_pivot.facing
    return widest_heading_off(plan, facing, shortest=1e-9) <= FORWARD_ARC + 1e-6


def allowance(state: GameState, plan: MovePlan, rules: MoveRules) -> tuple[float, str]:
    """How far the move may go and the clause that limits it: the troop type's allowance,
    halved in a storm, less the pivots' cost."""
    unit = plan.unit
    limit = MOVE[unit.kind] * weather.movement_factor(state)
    why = rules.clauses.weather if weather.movement_factor(state) < 1 else rules.clauses.move_allowance
    n = pivots(plan)
    if n and rules.pivot_cost:
        limit -= rules.pivot_cost * (n if rules.pivot_cost_each else 1)
        why = rules.clauses.pivot
    return limit, why


def town_features(table: Battlefield) -> tuple[TerrainFeature, ...]:
    return tuple(f for f in table.features if f.kind is TerrainKind.TOWN)


def towns_under(table: Battlefield, base: Base) -> list[int]:
    """Indexes (among the towns) of the towns a base shares ground with."""
    return table.features_overlapping(TerrainKind.TOWN, base.corners())


def towns_at(table: Battlefield, x: float, y: float) -> list[int]:
    """Indexes (among the towns) of the towns a point, a unit's centre, stands in."""
    point = shapely.Point(x, y)
    return [i for i, town in enumerate(town_features(table)) if bool(town.geometry.intersects(point))]


def occupant_of_town(table: Battlefield, state: GameState, index: int, ignore: str) -> Unit | None:
    """A troop unit whose centre stands in the town (Only one unit may occupy a town)."""
    town = town_features(table)[index]
    for u in state.iter_troops():
        if u.id != ignore and bool(town.geometry.intersects(shapely.Point(u.x, u.y))):
            return u
    return None


def validate_move(
    table: Battlefield, state: GameState, action: Move, rules: MoveRules
) -> list[Violation]:
    """Every shared reason the move is illegal (the unit is known to be activated)."""
    c = rules.clauses
    unit = state.units[action.unit]
    if unit.is_commander and not rules.commanders_move:
        return [Violation(MovementCode.STATIONARY, f"{unit.label} cannot move once placed", c.commander)]
    if state.is_marked("moved", unit.id):
        return [Violation(CoreCode.ALREADY_MOVED, f"{unit.label} has already moved this activation",
                          c.move_allowance)]
    for mark in ("shot", "meleed", "rallied", "withdrew"):
        if state.is_marked(mark, unit.id):
            return [Violation(CoreCode.ALREADY_ACTED,
                              f"{unit.label} has already {mark} this activation: a unit moves first",
                              c.activation)]
    if any(not all(map(math.isfinite, p)) for p in action.waypoints) or any(
        f is not None and not math.isfinite(f) for f in (action.face_before, action.face_after)
    ):
        return [Violation(MovementCode.BAD_PATH, "waypoints and facings must be finite numbers",
                          c.move_allowance)]
    if len(action.waypoints) > (1 if rules.straight_line else MAX_WAYPOINTS):
        if rules.straight_line:
            return [Violation(MovementCode.BAD_PATH,
                              f"all movement must be in a straight line: one waypoint, not "
                              f"{len(action.waypoints)}", c.straight_line)]
        return [Violation(MovementCode.BAD_PATH, f"a move may have at most {MAX_WAYPOINTS} waypoints",
                          c.move_allowance)]
    plan = plan_move(unit, action)
    if pivots(plan) > rules.max_pivots:
        return [Violation(MovementCode.BAD_PATH,
                          f"{unit.label} may pivot at the start or at the end of its move, not both",
                          c.pivot)]
    if unit.kind is UnitKind.ARTILLERY:
        found = _artillery_problems(state, unit, plan, c)
        if found:
            return found
    limit, why = allowance(state, plan, rules)
    if plan.length > limit + 1e-6 or limit < -1e-9:
        extra = f" after {pivots(plan)} pivot(s)" if pivots(plan) and rules.pivot_cost else ""
        return [Violation(MovementCode.TOO_FAR,
                          f"{unit.label} would move {plan.length:.2f}\"; it may move {max(limit, 0):g}\""
                          f"{extra}", why)]
    found = list(iter_table_violations(table, plan, c.move_allowance))
    found.extend(iter_collision_violations(state, plan, c.interpenetration))
    found.extend(_terrain_problems(table, state, plan, rules))
    if found:
        return found
    return _contact_problems(state, plan, rules)


def _artillery_problems(
    state: GameState, unit: Unit, plan: MovePlan, c: ClauseBook
) -> list[Violation]:
    if (plan.translates or plan.turned) and weather.guns_bogged(state):
        return [Violation(D3Code.WEATHER,
                          f"{unit.label} is bogged down by the {weather.weather(state).replace('-', ' ')} "
                          f"and cannot move or pivot", c.weather)]
    if plan.translates and piece(unit).fired:
        return [Violation(MovementCode.STATIONARY,
                          f"{unit.label} has fired and must stay where it is", c.artillery)]
    return []


def _terrain_problems(
    table: Battlefield, state: GameState, plan: MovePlan, rules: MoveRules
) -> list[Violation]:
    c = rules.clauses
    unit = plan.unit
    impassable = [TerrainKind.MARSH, TerrainKind.LAKE]
    if unit.kind is not UnitKind.COMMANDED_SHOT:
        impassable.append(TerrainKind.WOODS)
    closed = rules.towns_closed_to_others and unit.kind not in TOWN_ENTRANTS
    if closed:
        impassable.append(TerrainKind.TOWN)
    names: dict[str, str] = {TerrainKind.MARSH: c.marsh, TerrainKind.LAKE: c.marsh,
                             TerrainKind.WOODS: c.woods, TerrainKind.TOWN: c.towns}
    found = list(iter_terrain_violations(table, plan, impassable, names, c.rivers))
    if found or not table.has(TerrainKind.TOWN):
        return found
    ends_in = towns_under(table, plan.end)
    if ends_in and unit.kind not in TOWN_ENTRANTS:
        found.append(Violation(MovementCode.CANNOT_END_HERE,
                               f"{unit.label}: only Infantry, Dragoons and Commanded Shot may end "
                               f"a move in a town", c.towns))
    elif ends_in and rules.one_unit_per_town:
        found.extend(_town_occupied_problems(table, state, plan, c))
    return found


def _town_occupied_problems(
    table: Battlefield, state: GameState, plan: MovePlan, c: ClauseBook
) -> list[Violation]:
    """Only one unit may occupy a town, and a unit occupies the town its centre stands in:
    a move may not end with the unit's centre in a town another unit occupies, unless it
    charges into contact with that garrison, which may always be assaulted."""
    unit = plan.unit
    end = plan.end
    for index in towns_at(table, end.x, end.y):
        holder = occupant_of_town(table, state, index, unit.id)
        if holder is None or (holder.side != unit.side and is_within(end, holder.base, REACH)):
            continue
        return [Violation(D3Code.TOWN_OCCUPIED,
                          f"{holder.label} already occupies that town; only one unit may occupy a "
                          f"town", c.towns)]
    return []


def contacted(state: GameState, unit: Unit, base: Base) -> list[Unit]:
    """Enemy troop units a base placed for ``unit`` would touch."""
    enemy = state.opponent(unit.side)
    return [e for e in pieces_near(state, base, REACH)
            if e.side == enemy and not e.is_commander and is_within(base, e.base, REACH)]


def declared_target(end: Base, touching: list[Unit]) -> Unit:
    """The unit a charge that touches several is aimed at: the one nearest the middle of
    the charger's front edge (ties to the first by id); the others are touched in passing."""
    front = end.front_centre()
    return min(touching, key=lambda t: (round(point_polygon_distance(t.base.corners(), front), 6), t.id))


def is_judged(state: GameState, action: Move) -> bool:
    """Whether a cheap test of refusal (``RuleSet.surely_refused``) can read ``action`` as
    it stands: a piece of ``state`` moving through finite waypoints to finite facings
    (``validate`` refuses any other first)."""
    return action.unit in state.units and all(
        math.isfinite(c) for p in action.waypoints for c in p) and all(
        f is None or math.isfinite(f) for f in (action.face_before, action.face_after))


def breaks_charge_turn(state: GameState, action: Move) -> bool:
    """Whether ``action`` (one :func:`is_judged` reads) ends touching an enemy after a turn
    no charge may make: more than 45 degrees at the start, any at the end, or a bend.
    :func:`validate_move` refuses such a move whatever it finds first (its every path
    reports some reason then, the contact rules' at the last). The turns are measured
    first, the touch (the dearer test) only for a move that turns so."""
    unit = state.units[action.unit]
    plan = plan_move(unit, action)
    first, last = turns(plan)
    if len(plan.points) <= 2 and last <= TURN_TOLERANCE and first <= CHARGE_TURN_LIMIT + 1e-6:
        return False
    return bool(contacted(state, unit, plan.end))


def _contact_problems(state: GameState, plan: MovePlan, rules: MoveRules) -> list[Violation]:
    c = rules.clauses
    unit = plan.unit
    touching = contacted(state, unit, plan.end)
    if enemy_contacts(state, unit):
        if plan.turned and not plan.translates:
            return [Violation(FightingCode.ENGAGED,
                              f"{unit.label} is in melee: it may only fight or withdraw, not turn",
                              c.withdraw)]
        if touching:
            return [Violation(FightingCode.ENGAGED,
                              f"{unit.label} is in melee and may only withdraw out of contact; it "
                              f"would still touch {touching[0].label}", c.withdraw)]
        return []
    if not touching:
        return []
    if unit.is_commander or not can_charge(unit):
        return [Violation(D3Code.CANNOT_CHARGE,
                          f"only Horse and Foot may charge; {unit.label} ({unit.kind.value}) may not "
                          f"move into contact with {touching[0].label}", c.charge)]
    target = declared_target(plan.end, touching)
    first, last = turns(plan)
    if len(plan.points) > 2 or last > TURN_TOLERANCE:
        return [Violation(D3Code.CHARGE_TURN,
                          f"a charge turns once, at the start, then moves straight ahead: "
                          f"{unit.label} would change direction or pivot at the end", c.charge_turn)]
    if first > CHARGE_TURN_LIMIT + 1e-6:
        return [Violation(D3Code.CHARGE_TURN,
                          f"{unit.label} would turn {first:.0f} degrees to charge {target.label}; "
                          f"a charge may turn at most {CHARGE_TURN_LIMIT:g} degrees", c.charge_turn)]
    heading = bearing(plan.points[0], plan.points[-1])
    off = angle_between(heading, plan.after_pivot.facing)
    if off > rules.charge_tolerance + 1e-6:
        return [Violation(D3Code.CHARGE_TURN,
                          f"{unit.label} would charge {off:.0f} degrees off straight ahead (at most "
                          f"{rules.charge_tolerance:g})", c.charge_turn)]
    return _charge_limit_problems(state, unit, target, plan.end, rules)


def _charge_limit_problems(
    state: GameState, unit: Unit, target: Unit, end: Base, rules: MoveRules
) -> list[Violation]:
    c = rules.clauses
    others = [o for o in enemy_contacts(state, target) if o.id != unit.id]
    if rules.charge_limit == "target":
        # A target that itself charged a unit is that melee's attacker, not its defender.
        attackers = [o for o in others if charger_between(state, target, o) != target.id]
        if attackers:
            return [Violation(D3Code.FACE_TAKEN,
                              f"{attackers[0].label} is already engaged with {target.label}; only "
                              f"one attacking unit may engage a defending unit", c.charge_limit)]
        return []
    face = face_towards(target.base, (end.x, end.y))
    for o in others:
        if face_towards(target.base, (o.x, o.y)) is face:
            return [Violation(D3Code.FACE_TAKEN,
                              f"{o.label} is already on {target.label}'s {face_name(face)}; only one "
                              f"attacking unit may contact each face", c.charge_limit)]
    return []


def face_name(face: Face) -> str:
    return {Face.FRONT: "front", Face.REAR: "rear", Face.LEFT: "left flank",
            Face.RIGHT: "right flank"}[face]


def _record_charge(tx: Tx, unit: Unit, target: Unit | None, passed: list[Unit]) -> None:
    """A unit that moves ends any charge it made or received, and any touch in passing;
    one that charges home is remembered as the charger of its target (the defender, for
    cover in melee), with the units it touched in passing."""
    old = charges(tx.state)
    record = {k: v for k, v in old.items() if unit.id not in (k, v)}
    if target is not None:
        record[unit.id] = target.id
    if record != dict(old):
        tx.emit(GameDataChanged(key=CHARGES, value=record))
    brushed = passing(tx.state)
    pairs = [p for p in brushed if unit.id not in p] + [[unit.id, o.id] for o in passed]
    if pairs != brushed:
        tx.emit(GameDataChanged(key=PASSING, value=pairs))


def resolve_move(tx: Tx, action: Move, rules: MoveRules) -> tuple[Unit, list[Unit]]:
    """Move the unit; returns it as moved and the enemy units (commanders included) it
    now touches that it did not touch before. A move that was not forward (judged as
    ``rules.forward_from`` says) is marked ``sideways``: the unit may not shoot after."""
    state = tx.state
    unit = state.units[action.unit]
    plan = plan_move(unit, action)
    was_engaged = bool(enemy_contacts(state, unit))
    enemy = state.opponent(unit.side)
    before = {
        e.id for e in pieces_near(state, unit.base, REACH)
        if e.side == enemy and is_within(unit.base, e.base, REACH)
    }
    tx.emit(Marked(mark="moved", ident=unit.id))
    if plan.translates and not is_forward(plan, rules.forward_from):
        tx.emit(Marked(mark="sideways", ident=unit.id))
    if plan.turned:
        tx.emit(Marked(mark="pivoted", ident=unit.id))
    reason = "move"
    target: Unit | None = None
    passed: list[Unit] = []
    if was_engaged and plan.translates:
        tx.emit(Marked(mark="withdrew", ident=unit.id))
        reason = "withdraw"
    else:
        touching = contacted(state, unit, plan.end)
        if touching:
            tx.emit(Marked(mark="charged", ident=unit.id))
            reason = "charge"
            target = declared_target(plan.end, touching)
            passed = [t for t in touching if t.id != target.id]
    tx.emit(UnitMoved(unit=unit.id, path=plan.points, facing=plan.end.facing, reason=reason))
    _record_charge(tx, unit, target, passed)
    moved = tx.state.units[unit.id]
    touched = [
        e for e in pieces_near(tx.state, moved.base, REACH)
        if e.side == enemy and e.id not in before and is_within(moved.base, e.base, REACH)
    ]
    return moved, touched

