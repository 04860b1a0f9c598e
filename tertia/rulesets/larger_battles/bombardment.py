"""Artillery Bombardment: guns with no enemy within 3" fire at a unit not engaged in combat,
directly in front, within 24". The roll (5+ hits) is in
:mod:`tertia.rulesets.larger_battles.resolution`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.geometry import is_directly_in_front
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import FightingCode
from tertia.rules.fighting import not_an_enemy
from tertia.rules.measuring import distance, has_enemy_troops_within, iter_enemy_troops_within
from tertia.rules.sight import has_line_of_sight
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.actions import Bombard
from tertia.rulesets.larger_battles.codes import LargerBattlesCode
from tertia.rulesets.larger_battles.orders import is_ordered
from tertia.rulesets.larger_battles.profile import profile

ENGAGED_RANGE = 3.0



def is_engaged(state: GameState, unit: Unit) -> bool:
    """A unit is engaged in combat when an enemy unit is within combat range (3")."""
    return has_enemy_troops_within(state, unit, ENGAGED_RANGE)


def validate_bombard(
    table: Battlefield, state: GameState, action: Bombard, options: Mapping[str, Any]
) -> list[Violation]:
    gun = state.units[action.gun]
    target = state.units[action.target]
    if state.phase != "bombardment":
        return [Violation(CoreCode.WRONG_PHASE, f"guns bombard in the bombardment phase, not {state.phase}",
                          clauses.SEQUENCE)]
    if gun.kind is not UnitKind.ARTILLERY:
        return [Violation(CoreCode.CANNOT_ACT, f"{gun.label} is not artillery", clauses.BOMBARDMENT)]
    if not is_ordered(state, gun, "bombard"):
        return [Violation(LargerBattlesCode.NOT_ORDERED, f"{gun.label} has no bombardment order this turn",
                          clauses.ORDERS)]
    if state.is_marked("bombarded", gun.id):
        return [Violation(CoreCode.ALREADY_ACTED, f"{gun.label} has already fired this turn",
                          clauses.BOMBARDMENT)]
    refused = not_an_enemy(gun, target, clauses.BOMBARDMENT)
    if refused:
        return refused
    near = next(iter_enemy_troops_within(state, gun, ENGAGED_RANGE), None)
    if near is not None:
        return [Violation(FightingCode.ENEMY_TOO_CLOSE,
                          f"{gun.label} cannot bombard: {near.label} is within 3\"", clauses.BOMBARDMENT)]
    if is_engaged(state, target):
        return [Violation(FightingCode.TARGET_ENGAGED, f"{target.label} is engaged in combat",
                          clauses.BOMBARDMENT)]
    if not is_directly_in_front(gun.base, target.base):
        return [Violation(FightingCode.NOT_IN_FRONT,
                          f"{target.label} is not directly in front of {gun.label}",
                          clauses.BOMBARD_FRONT)]
    reach = profile(gun.kind).bombard_range
    d = distance(gun, target)
    if d > reach + 1e-6:
        return [Violation(FightingCode.OUT_OF_RANGE,
                          f"{target.label} is {d:.1f}\" from {gun.label}; artillery range is {reach:g}\"",
                          clauses.BOMBARD_RANGE)]
    if options["bombard_needs_line_of_sight"] and not has_line_of_sight(table, state, gun, target):
        return [Violation(FightingCode.NO_LINE_OF_SIGHT,
                          f"{gun.label} cannot see {target.label}: the line is blocked",
                          clauses.BOMBARDMENT)]
    return []


