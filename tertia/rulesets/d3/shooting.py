"""Shooting as both D3 texts have it: who may shoot and when, the 45-degree field of
fire and a clear line of sight. Ranges, dice and ammunition differ and live in each
rule set."""

from __future__ import annotations

from tertia.core.geometry import is_in_arc
from tertia.core.state import GameState, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import FightingCode, MovementCode
from tertia.rules.fighting import Shoot, not_an_enemy
from tertia.rules.measuring import distance
from tertia.rules.sight import has_line_of_sight
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.clauses import ClauseBook
from tertia.rulesets.d3.codes import D3Code
from tertia.rulesets.d3.contact import already_fought, enemy_contacts
from tertia.rulesets.d3.troops import has_muskets

FIELD_OF_FIRE = 45.0


def validate_shot(
    table: Battlefield, state: GameState, action: Shoot, clauses: ClauseBook, reach: float
) -> list[Violation]:
    """The shared checks for a shot at ``action.target`` with a longest range of ``reach``
    inches (the unit is known to be activated)."""
    c = clauses
    unit = state.units[action.unit]
    target = state.units[action.target]
    is_gun = unit.kind is UnitKind.ARTILLERY
    if not (is_gun or has_muskets(unit)):
        return [Violation(CoreCode.CANNOT_ACT,
                          f"only Foot, Dragoons, Commanded Shot and artillery shoot; "
                          f"{unit.label} ({unit.kind.value}) cannot", c.shooting)]
    if is_gun and weather.guns_out_of_action(state):
        return [Violation(D3Code.WEATHER, f"{unit.label} is out of action in the storm", c.weather)]
    done = already_fought(state, unit, c.shooting, c.withdraw)
    if done:
        return done
    if state.is_marked("sideways", unit.id):
        return [Violation(MovementCode.MOVED_SIDEWAYS,
                          f"{unit.label} moved sideways or backwards and cannot shoot", c.shooting)]
    engaged = enemy_contacts(state, unit)
    if engaged:
        return [Violation(FightingCode.ENGAGED, f"{unit.label} is in melee with {engaged[0].label}",
                          c.withdraw)]
    refused = not_an_enemy(unit, target, c.shooting)
    if refused:
        return refused
    if not is_in_arc(unit.base, target.base, FIELD_OF_FIRE):
        return [Violation(FightingCode.NOT_IN_FRONT,
                          f"{target.label} is outside the 45-degree field of fire of {unit.label}",
                          c.shooting_procedure)]
    d = distance(unit, target)
    if d > reach + 1e-6:
        return [Violation(FightingCode.OUT_OF_RANGE,
                          f"{target.label} is {d:.1f}\" from {unit.label}; the range is {reach:g}\"",
                          c.shooting_range)]
    if not has_line_of_sight(table, state, unit, target):
        return [Violation(FightingCode.NO_LINE_OF_SIGHT,
                          f"{unit.label} has no clear line of sight to {target.label}",
                          c.shooting_procedure)]
    return []
