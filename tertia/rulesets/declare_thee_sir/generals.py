"""Generals and the units they are attached to (Movement: "Attached generals move with unit
or are left stationary")."""

from __future__ import annotations

from tertia.core.events import UnitMoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.data import unit_data

ATTACH_REACH = 0.05
"""A general this close to a unit (edge to edge) touches it, and attaches."""


def attached_generals(state: GameState, unit_id: str) -> list[Unit]:
    return [g for g in state.iter_units() if unit_data(g).is_general and g.in_play
            and unit_data(g).attached_to == unit_id]


def carry_generals(tx: Tx, unit: Unit, dx: float, dy: float) -> None:
    """Attached generals "move with unit": each is carried the unit's way."""
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return
    for g in attached_generals(tx.state, unit.id):
        tx.emit(UnitMoved(unit=g.id, path=((g.x, g.y), (g.x + dx, g.y + dy)), facing=g.facing,
                          reason="with its unit"))
