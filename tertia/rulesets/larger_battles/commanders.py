"""Commanders: encouragement in combat, misfortune, and retiring when contacted."""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import chain

from tertia.core.actions import Move
from tertia.core.dice import D6
from tertia.core.events import Narrated, UnitMoved, UnitRemoved
from tertia.core.geometry import EPSILON, Point
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.measuring import home_edge, pieces_near, within
from tertia.rules.movement import (
    iter_collision_violations,
    iter_table_violations,
    iter_terrain_violations,
    plan_move,
)
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.events import supply_markers
from tertia.rulesets.larger_battles.ground import IMPASSABLE
from tertia.rulesets.larger_battles.profile import profile

COMMAND_REACH = 3.0

DEPLOY_RADIUS = 12.0
"""Deployment: a commander\'s units deploy within 12" of him."""
"""Commanders within 3" of a combat may encourage a unit in it."""

TOUCH = 0.05 + EPSILON
"""Bases this close touch (a commander contacted)."""

RETIRE_DISTANCE = 12.0
"""Commander Attacks: the commander must immediately retire 12"."""

RETIRE_FAN = 45.0
RETIRE_STEP = 5.0
"""A retreat goes straight back, or up to 45 degrees off it in 5-degree steps (still
towards the own edge) when the straight way is blocked."""


def can_be_encouraged(unit: Unit) -> bool:
    """Commanders rally "an infantry or cavalry unit"."""
    return profile(unit.kind).word in ("infantry", "cavalry")


def iter_eligible_commanders(
    state: GameState, side: str, combatants: tuple[Unit, ...]
) -> Iterator[Unit]:
    """Commanders of ``side`` in play, within 3" of the combat, not yet used this turn."""
    if not combatants:
        return
    # only the pieces near the combatants can be within 3" of one (and a hair of tolerance)
    xs = [u.x for u in combatants]
    ys = [u.y for u in combatants]
    reach = COMMAND_REACH + EPSILON + max(u.base.radius for u in combatants)
    for c in state.near(min(xs), min(ys), max(xs), max(ys), reach):
        if c.side != side or c.kind is not UnitKind.COMMANDER or state.is_marked("encouraged", c.id):
            continue
        if any(within(c, u, COMMAND_REACH) for u in combatants):
            yield c


def roll_misfortune(tx: Tx, commander: Unit, why: str) -> None:
    """Commander Misfortune: roll a D6; on a 1 the leader leaves or is carried from the field."""
    roll = tx.roll(D6, f"misfortune: {commander.label} ({why})")
    if roll == 1:
        tx.emit(UnitRemoved(unit=commander.id, reason="misfortune", detail=why))


def own_edge_direction(tx: Tx, side: str) -> float:
    """Facing that points to a side's own table edge (south edge: 180, north edge: 0)."""
    edge = home_edge(tx.state, side)
    return 180.0 if edge == "south" else 0.0


def iter_retreats(tx: Tx, commander: Unit, contacted_by: Unit) -> Iterator[Move]:
    """The straight 12" retreats towards the own edge, in the order tried: straight back,
    then 5, 10 ... 45 degrees off it, the side away from the enemy first."""
    back = own_edge_direction(tx, commander.side)
    offsets = [0.0]
    for k in range(1, int(RETIRE_FAN / RETIRE_STEP) + 1):
        offsets.extend((k * RETIRE_STEP, -k * RETIRE_STEP))

    def end(offset: float) -> Point:
        heading = math.radians(back + offset)
        return (commander.x + RETIRE_DISTANCE * math.sin(heading),
                commander.y + RETIRE_DISTANCE * math.cos(heading))

    def order(offset: float) -> tuple[float, float]:
        x, y = end(offset)
        return (abs(offset), -math.hypot(x - contacted_by.x, y - contacted_by.y))

    for offset in sorted(offsets, key=order):
        yield Move(unit=commander.id, waypoints=(end(offset),))


def is_clear_retreat(tx: Tx, commander: Unit, retreat: Move) -> bool:
    """A way a commander could legally move: on the table, through no piece, no woods,
    marsh or lake, and over a river only at a ford or bridge. The 3" stop near the enemy
    does not apply, nor do allowances (the rule sets the 12")."""
    plan = plan_move(commander, retreat)
    return not any(chain(
        iter_table_violations(tx.table, plan, clauses.COMMANDER_ATTACKS),
        iter_collision_violations(tx.state, plan, clauses.COMMANDER_ATTACKS, supply_markers(tx.state)),
        iter_terrain_violations(tx.table, plan, IMPASSABLE, IMPASSABLE, clauses.COMMANDER_ATTACKS),
    ))


def retire_commander(tx: Tx, commander: Unit, contacted_by: Unit) -> None:
    """Commander Attacks: retire 12" towards the own edge along the first clear way, then
    test for misfortune. With no clear way the commander is lost (captured)."""
    retreat = next((r for r in iter_retreats(tx, commander, contacted_by)
                    if is_clear_retreat(tx, commander, r)), None)
    if retreat is None:
        tx.emit(Narrated(text=f"{commander.label} has no way to retire ({clauses.COMMANDER_ATTACKS})"))
        tx.emit(UnitRemoved(unit=commander.id, reason="captured", detail=f"by {contacted_by.label}"))
        return
    tx.emit(
        UnitMoved(
            unit=commander.id,
            path=((commander.x, commander.y), *retreat.waypoints),
            facing=commander.facing,
            reason=f"retired from {contacted_by.label}",
        )
    )
    roll_misfortune(tx, tx.state.units[commander.id], "contacted by the enemy")


def iter_contacted_commanders(state: GameState, mover: Unit) -> Iterator[Unit]:
    """Enemy commanders whose bases the mover, an enemy unit (not a commander), now
    touches."""
    if mover.is_commander:
        return
    enemy = state.opponent(mover.side)
    for c in pieces_near(state, mover.base, TOUCH + EPSILON):
        if c.side == enemy and c.kind is UnitKind.COMMANDER and within(mover, c, TOUCH):
            yield c
