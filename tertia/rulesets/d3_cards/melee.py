"""Melee in d3-cards: impetuous Horse +1, Dragoons or Commanded Shot attacking -1, a
target of Infantry -1, a target in woods or fields -1 (and, from Terrain Effects, behind
a hedge, in an entrenchment or a town, or defending a hill); artillery and commanders
engaged in melee are eliminated at once."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.events import UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rules.modifiers import Modifier
from tertia.rulesets.d3 import terrain
from tertia.rulesets.d3.contact import charger_between
from tertia.rulesets.d3.troops import is_clubmen, is_impetuous, is_infantry
from tertia.rulesets.d3_cards import clauses


def melee_cover(options: Mapping[str, Any]) -> tuple[str, ...]:
    """A target in woods or fields; from Terrain Effects, a hedge, an entrenchment or a
    town between; a hill it defends (option ``hill_advantage``)."""
    hill = (terrain.HILL,) if options["hill_advantage"] else ()
    return (terrain.WOODS, terrain.FIELDS, terrain.HEDGE, terrain.ENTRENCHMENT, terrain.TOWN, *hill)


def modifiers(
    table: Battlefield, state: GameState, attacker: Unit, target: Unit, options: Mapping[str, Any]
) -> list[Modifier]:
    mods: list[Modifier] = []
    if is_impetuous(state, attacker, options):
        mods.append(Modifier(1, "impetuous Horse"))
    if is_clubmen(attacker):
        mods.append(Modifier(-2, "D3-2 for Clubmen"))
    elif attacker.kind in (UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT):
        mods.append(Modifier(-1, f"attacker is {attacker.kind.value.replace('_', ' ')}"))
    if is_infantry(target, options):
        mods.append(Modifier(-1, "target is Infantry"))
    cover = terrain.cover(table, attacker, target, melee_cover(options),
                          charger_between(state, attacker, target))
    if cover:
        mods.append(Modifier(-1, f"target in {cover}"))
    return mods


def eliminate_on_contact(tx: Tx, mover: Unit, touched: list[Unit]) -> None:
    """Artillery units and commanders are immediately eliminated if engaged in melee (a
    commander contacted by an enemy unit is removed from play)."""
    if mover.is_commander:
        return
    for piece in touched:
        if not tx.state.units[piece.id].in_play:
            continue
        if piece.kind is UnitKind.ARTILLERY:
            tx.emit(UnitRemoved(unit=piece.id, reason="destroyed",
                                detail=f"engaged by {mover.label} ({clauses.ELIMINATED})"))
        elif piece.is_commander:
            tx.emit(UnitRemoved(unit=piece.id, reason="captured",
                                detail=f"contacted by {mover.label} ({clauses.COMMANDERS})"))
