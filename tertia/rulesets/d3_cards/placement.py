"""What d3-cards forbids where a scenario deploys its pieces, beyond the ground: two
units in one town ("Only one unit may occupy a town"), and a gun or the commander already
touching an enemy unit, which the rules would eliminate at once."""

from __future__ import annotations

from tertia.core.state import GameState, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rulesets.d3.contact import in_contact
from tertia.rulesets.d3.movement import towns_at
from tertia.rulesets.d3_cards import clauses


def town_problems(table: Battlefield, state: GameState) -> list[tuple[str, str]]:
    """(unit id, reason) for each unit whose centre stands in a town another occupies."""
    holders: dict[int, str] = {}
    found: list[tuple[str, str]] = []
    for u in state.iter_troops():
        for index in towns_at(table, u.x, u.y):
            if index in holders:
                found.append((u.id, f"deployed in the town {holders[index]!r} occupies: only one "
                                    f"unit may occupy a town ({clauses.TOWNS})"))
            else:
                holders[index] = u.id
    return found


def contact_problems(state: GameState) -> list[tuple[str, str]]:
    """(piece id, reason) for each gun or commander deployed touching an enemy unit."""
    found: list[tuple[str, str]] = []
    for u in state.iter_units():
        if u.kind is not UnitKind.ARTILLERY and not u.is_commander:
            continue
        enemy = next((e for e in state.iter_troops(state.opponent(u.side)) if in_contact(u, e)), None)
        if enemy is None:
            continue
        if u.is_commander:
            found.append((u.id, f"the commander is deployed in contact with the enemy unit {enemy.id!r} "
                                f"and would be removed from play at once ({clauses.COMMANDERS})"))
        else:
            found.append((u.id, f"artillery deployed in contact with the enemy unit {enemy.id!r} would be "
                                f"eliminated at once ({clauses.ELIMINATED})"))
    return found
