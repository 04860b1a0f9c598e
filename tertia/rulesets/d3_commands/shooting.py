"""Shooting in d3-commands: muskets 12", guns 24" (36" from a hill); a D3 for Foot,
D3-1 for Dragoons, Commanded Shot and Artillery, one less against cover; Foot and guns
then check their ammunition, and guns that run out are removed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.dice import D6
from tertia.core.events import Marked, UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import Violation
from tertia.rules.codes import FightingCode
from tertia.rules.fighting import Shoot
from tertia.rules.hits import AmmunitionExhausted, GunFired, piece
from tertia.rules.modifiers import Modifier
from tertia.rulesets.d3 import terrain, weather
from tertia.rulesets.d3.combat import roll_hits
from tertia.rulesets.d3_commands import clauses

MUSKET_RANGE = 12.0
GUN_RANGE = 24.0
GUN_RANGE_FROM_HILL = 36.0
REDUCED = frozenset({UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT, UnitKind.ARTILLERY})
"""Roll D3-1 for dragoons, commanded shot and artillery."""
CHECK_AMMUNITION = frozenset({UnitKind.FOOT, UnitKind.ARTILLERY})
"""Whenever infantry or artillery shoot (not dragoons or commanded shot)."""


def reach(table: Battlefield, state: GameState, unit: Unit) -> float:
    if unit.kind is UnitKind.ARTILLERY:
        return GUN_RANGE_FROM_HILL if table.hill_level((unit.x, unit.y)) > 0 else GUN_RANGE
    return MUSKET_RANGE


SHOOTING_COVER = (terrain.WOODS, terrain.TOWN, terrain.ENTRENCHMENT, terrain.CLUBMEN)
"""Woods, towns and entrenchments give cover against shooting; Clubmen always count as
in cover."""


def modifiers(table: Battlefield, shooter: Unit, target: Unit) -> list[Modifier]:
    mods: list[Modifier] = []
    if shooter.kind in REDUCED:
        mods.append(Modifier(-1, f"D3-1 for {shooter.kind.value.replace('_', ' ')}"))
    cover = terrain.cover(table, shooter, target, SHOOTING_COVER)
    if cover:
        mods.append(Modifier(-1, f"target in cover ({cover})"))
    return mods


def problems(table: Battlefield, state: GameState, action: Shoot) -> list[Violation]:
    unit = state.units[action.unit]
    if piece(unit).out_of_ammo:
        return [Violation(FightingCode.OUT_OF_AMMUNITION,
                          f"{unit.label} has run out of ammunition for the rest of the game",
                          clauses.AMMUNITION)]
    return []


def resolve(tx: Tx, action: Shoot, options: Mapping[str, Any]) -> None:
    unit = tx.state.units[action.unit]
    target = tx.state.units[action.target]
    tx.emit(Marked(mark="shot", ident=unit.id))
    if unit.kind is UnitKind.ARTILLERY and not piece(unit).fired:
        tx.emit(GunFired(unit=unit.id))
    roll_hits(tx, kind="shooting", attacker=unit, target=target,
              modifiers=modifiers(tx.table, unit, target), verb="shoots at")
    if unit.kind in CHECK_AMMUNITION:
        need = weather.shortage_from(tx.state)
        roll = tx.roll(D6, f"ammunition: {unit.label}")
        if roll >= need:
            tx.emit(AmmunitionExhausted(unit=unit.id))
            if unit.kind is UnitKind.ARTILLERY:
                # The roll is not quoted here: a die value used in only some branches
                # would split its faces unevenly in the exact odds.
                tx.emit(UnitRemoved(unit=unit.id, reason="no ammunition",
                                    detail=f"out of ammunition on {need}+"))
