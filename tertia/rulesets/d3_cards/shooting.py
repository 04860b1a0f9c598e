"""Musketry and artillery in d3-cards.

Muskets: 12", a D3 less one for each ammunition-shortage marker and one for a target in
cover. Guns: a D6 (less two for a target in cover, one for each marker) times 6" is the
range this time; a target within it takes one hit; a gun cannot move or pivot and shoot.
Whenever a unit shoots it rolls a D6, and on 5-6 (less in rain) adds a marker."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.dice import D6
from tertia.core.events import Marked
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation
from tertia.rules.fighting import AttackResolved, Shoot
from tertia.rules.hits import AmmunitionShortage, GunFired, HitsInflicted, piece
from tertia.rules.measuring import distance
from tertia.rules.modifiers import Modifier
from tertia.rulesets.d3 import terrain, weather
from tertia.rulesets.d3.combat import roll_hits
from tertia.rulesets.d3_cards import clauses

MUSKET_RANGE = 12.0
RANGE_STEP = 6.0
LONGEST_GUN_RANGE = 6 * RANGE_STEP
"""A D6 of 6 times 6": no gun reaches further."""
COVER_PIPS = 2


def reach(table: Battlefield, state: GameState, unit: Unit) -> float:
    return LONGEST_GUN_RANGE if unit.kind is UnitKind.ARTILLERY else MUSKET_RANGE


def shooting_cover(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Cover against shooting: buildings (towns) and entrenchments, as Musketry says, and
    woods, as Terrain Effects says (option ``woods_cover_shooting``); Clubmen always."""
    woods = (terrain.WOODS,) if options["woods_cover_shooting"] else ()
    return (*woods, terrain.TOWN, terrain.ENTRENCHMENT, terrain.CLUBMEN)


def musket_modifiers(
    table: Battlefield, shooter: Unit, target: Unit, options: Mapping[str, Any]
) -> list[Modifier]:
    mods: list[Modifier] = []
    if piece(shooter).ammo_markers:
        mods.append(_shortage(piece(shooter).ammo_markers))
    cover = terrain.cover(table, shooter, target, shooting_cover(options))
    if cover:
        mods.append(Modifier(-1, f"target in cover ({cover})"))
    return mods


def gun_modifiers(
    table: Battlefield, gun: Unit, target: Unit, options: Mapping[str, Any]
) -> list[Modifier]:
    mods: list[Modifier] = []
    cover = terrain.cover(table, gun, target, shooting_cover(options))
    if cover:
        mods.append(Modifier(-COVER_PIPS, f"target in cover ({cover})"))
    if piece(gun).ammo_markers:
        mods.append(_shortage(piece(gun).ammo_markers))
    return mods


def _shortage(markers: int) -> Modifier:
    """"Subtract 1 for each ammunition shortage marker": the value counts them ("-2
    ammunition shortage markers"), so the name does not again."""
    return Modifier(-markers, f"ammunition shortage marker{'s' if markers > 1 else ''}")


def problems(table: Battlefield, state: GameState, action: Shoot) -> list[Violation]:
    unit = state.units[action.unit]
    if unit.kind is UnitKind.ARTILLERY and (state.is_marked("moved", unit.id)):
        return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} moved or pivoted this activation and "
                                           f"cannot shoot", clauses.ARTILLERY)]
    return []


def resolve(tx: Tx, action: Shoot, options: Mapping[str, Any]) -> None:
    unit = tx.state.units[action.unit]
    target = tx.state.units[action.target]
    tx.emit(Marked(mark="shot", ident=unit.id))
    if unit.kind is UnitKind.ARTILLERY:
        if not piece(unit).fired:
            tx.emit(GunFired(unit=unit.id))
        _fire_gun(tx, unit, target, gun_modifiers(tx.table, unit, target, options))
    else:
        roll_hits(tx, kind="shooting", attacker=unit, target=target,
                  modifiers=musket_modifiers(tx.table, unit, target, options), verb="shoots at")
    need = weather.shortage_from(tx.state)
    if tx.roll(D6, f"ammunition: {unit.label}") >= need:
        tx.emit(AmmunitionShortage(unit=unit.id))


def _fire_gun(tx: Tx, gun: Unit, target: Unit, mods: list[Modifier]) -> None:
    roll = tx.roll(D6, f"artillery range: {gun.label} at {target.label}")
    pips = max(0, roll + sum(m.value for m in mods))
    span = pips * RANGE_STEP
    d = distance(gun, target)
    hit = d <= span + 1e-6
    net = sum(m.value for m in mods)
    tx.emit(AttackResolved(
        kind="shooting", attacker=gun.id, target=target.id, supports=(),
        attacker_score=1 if hit else 0, defender_score=0,
        modifiers=tuple(str(m) for m in mods), defender_modifiers=(),
        summary=f"{gun.label} fires at {target.label}: D6 {roll}{net:+d} x 6\" = {span:g}\" against "
                f"{d:.1f}\"; {'a hit' if hit else 'short'}",
    ))
    if hit:
        tx.emit(HitsInflicted(unit=target.id, hits=1, cause=f"shooting by {gun.label}"))
