"""Melee modifiers in d3-commands: impetuous Horse +1, a target of Infantry -1, a target
in cover -1 (towns, hedges, hills, entrenchments); Dragoons roll D3-1 (the author's
ruling), as do Commanded Shot and Artillery; Clubmen D3-2."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rules.modifiers import Modifier
from tertia.rulesets.d3 import terrain
from tertia.rulesets.d3.contact import charger_between
from tertia.rulesets.d3.troops import is_clubmen, is_impetuous, is_infantry

REDUCED = frozenset({UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT, UnitKind.ARTILLERY})


MELEE_COVER = (terrain.TOWN, terrain.HEDGE, terrain.ENTRENCHMENT, terrain.HILL)
"""Towns give cover; hedges and entrenchments cover defenders in melee; hills cover units
defending them. Woods cover only against shooting."""


def modifiers(
    table: Battlefield, state: GameState, attacker: Unit, target: Unit, options: Mapping[str, Any]
) -> list[Modifier]:
    mods: list[Modifier] = []
    if is_clubmen(attacker):
        mods.append(Modifier(-2, "D3-2 for Clubmen"))
    elif attacker.kind in REDUCED:
        mods.append(Modifier(-1, f"D3-1 for {attacker.kind.value.replace('_', ' ')}"))
    if is_impetuous(state, attacker, options):
        mods.append(Modifier(1, "impetuous Horse"))
    if is_infantry(target, options):
        mods.append(Modifier(-1, "target is Infantry"))
    cover = terrain.cover(table, attacker, target, MELEE_COVER,
                          charger_between(state, attacker, target))
    if cover:
        mods.append(Modifier(-1, f"target in cover ({cover})"))
    return mods
