"""Commanders: encouragement in combat, misfortune, and retiring when contacted."""

from __future__ import annotations

from collections.abc import Iterator

from tertia.core.dice import D6
from tertia.core.events import Narrated, UnitMoved, UnitRemoved
from tertia.core.geometry import EPSILON, bases_overlap
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.measuring import within
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.ground import IMPASSABLE
from tertia.rulesets.larger_battles.profile import profile

COMMAND_REACH = 3.0
"""Commanders within 3" of a combat may encourage a unit in it."""

RETIRE_DISTANCE = 12.0
"""Commander Attacks: the commander must immediately retire 12"."""


def can_be_encouraged(unit: Unit) -> bool:
    """Commanders rally "an infantry or cavalry unit"."""
    return profile(unit.kind).word in ("infantry", "cavalry")


def iter_eligible_commanders(
    state: GameState, side: str, combatants: tuple[Unit, ...]
) -> Iterator[Unit]:
    """Commanders of ``side`` in play, within 3" of the combat, not yet used this turn."""
    for c in state.iter_units(side):
        if c.kind is not UnitKind.COMMANDER or state.is_marked("encouraged", c.id):
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
    edge = tx.state.extra.get("edges", {}).get(side, "south")
    return 180.0 if edge == "south" else 0.0


def retire_commander(tx: Tx, commander: Unit, contacted_by: Unit) -> None:
    """Commander Attacks: retire 12" towards the own edge to the first clear place, then
    test for misfortune. With no clear place within the table, the commander is taken."""
    toward_south = own_edge_direction(tx, commander.side) == 180.0
    dy = -1.0 if toward_south else 1.0
    table = tx.table
    others = [u.base for u in tx.state.iter_units() if u.id != commander.id]
    base = commander.base
    for back in (RETIRE_DISTANCE, 10.0, 8.0, 6.0, 4.0):
        for side_step in (0.0, 2.0, -2.0, 4.0, -4.0, 6.0, -6.0):
            x, y = commander.x + side_step, commander.y + dy * back
            candidate = base.moved_to(x, y)
            corners = candidate.corners()
            if not table.inside_table(corners):
                continue
            if any(bases_overlap(candidate, o) for o in others):
                continue
            if any(table.overlaps(k, corners) for k in IMPASSABLE) or table.blocks_by_river(
                corners
            ):
                continue
            tx.emit(
                UnitMoved(
                    unit=commander.id,
                    path=((commander.x, commander.y), (x, y)),
                    facing=commander.facing,
                    reason=f"retired from {contacted_by.label}",
                )
            )
            roll_misfortune(tx, tx.state.units[commander.id], "contacted by the enemy")
            return
    tx.emit(Narrated(text=f"{commander.label} has nowhere to retire ({clauses.COMMANDER_ATTACKS})"))
    tx.emit(UnitRemoved(unit=commander.id, reason="captured", detail=f"by {contacted_by.label}"))


def iter_contacted_commanders(state: GameState, mover: Unit) -> Iterator[Unit]:
    """Enemy commanders whose bases the mover now touches."""
    for c in state.iter_units(state.opponent(mover.side)):
        if c.kind is UnitKind.COMMANDER and within(mover, c, 0.05 + EPSILON):
            yield c
