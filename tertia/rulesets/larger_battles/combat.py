"""Combat: shooting and melee combined, as opposed D6 rolls within 3": who may fight
whom, with which supports and commanders, and the modifiers of each side.

The attacker declares a primary unit, a target, supporting units and an encouraging
commander; the defending side may then have one of its commanders encourage the target.
The rolls themselves are in :mod:`tertia.rulesets.larger_battles.resolution`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.actions import Attack, Encourage
from tertia.core.geometry import Face, face_towards, is_in_arc
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import Code, Violation
from tertia.rules.measuring import distance, iter_enemy_troops_within, within
from tertia.rules.modifiers import Modifier
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.commanders import (
    can_be_encouraged,
    iter_eligible_commanders,
)
from tertia.rulesets.larger_battles.profile import profile

COMBAT_RANGE = 3.0
RANGE_TOLERANCE = 1e-6


def can_attack(unit: Unit) -> bool:
    """Infantry, cavalry and dragoons have a range of 3"; guns and commanders do not attack."""
    return profile(unit.kind).combat_range > 0


def attacked_this_turn(state: GameState) -> tuple[str, ...]:
    return state.marked("attack_targets")


def support_problem(
    state: GameState, unit: Unit, target: Unit
) -> str | None:
    if not can_attack(unit):
        return f"{unit.label} cannot take part in combat"
    if state.is_marked("attacked", unit.id) or state.is_marked("supported", unit.id):
        return f"{unit.label} has already fought this turn"
    if not within(unit, target, COMBAT_RANGE + RANGE_TOLERANCE):
        return f"{unit.label} is {distance(unit, target):.1f}\" from {target.label}, beyond 3\""
    if not is_in_arc(unit.base, target.base):
        return f"{unit.label} does not face {target.label}"
    attacked = {*attacked_this_turn(state), target.id}
    for enemy in iter_enemy_troops_within(state, unit, COMBAT_RANGE):
        if enemy.id not in attacked:
            return (f"{unit.label} is within 3\" of {enemy.label}, which is not being attacked "
                    f"this turn")
    return None


def validate_attack(
    table: Battlefield, state: GameState, action: Attack, options: Mapping[str, Any]
) -> list[Violation]:
    if state.phase != "combat":
        return [Violation(Code.WRONG_PHASE, f"attacks are made in the combat phase, not {state.phase}",
                          clauses.SEQUENCE)]
    attacker = state.units[action.attacker]
    target = state.units[action.target]
    if target.side == attacker.side or target.kind is UnitKind.COMMANDER:
        return [Violation(Code.NOT_ENEMY, f"{target.label} is not an enemy unit", clauses.COMBAT)]
    if not can_attack(attacker):
        return [Violation(Code.CANNOT_ACT, f"{attacker.label} ({attacker.kind.value}) cannot attack",
                          clauses.COMBAT_RANGE)]
    if state.is_marked("attacked", attacker.id) or state.is_marked("supported", attacker.id):
        return [Violation(Code.ALREADY_ACTED, f"{attacker.label} has already fought this turn",
                          clauses.COMBAT)]
    d = distance(attacker, target)
    if d > COMBAT_RANGE + RANGE_TOLERANCE:
        return [Violation(Code.OUT_OF_RANGE,
                          f"{target.label} is {d:.1f}\" from {attacker.label}; combat range is 3\"",
                          clauses.COMBAT_RANGE)]
    if not is_in_arc(attacker.base, target.base):
        return [Violation(Code.NOT_IN_FRONT, f"{attacker.label} must face {target.label} to attack it",
                          clauses.COMBAT_FRONT)]
    found: list[Violation] = []
    if face_towards(target.base, attacker.base.centre) is not Face.FRONT:
        for sid in action.supports:
            s = state.units.get(sid)
            if s is not None and face_towards(target.base, s.base.centre) is Face.FRONT:
                found.append(Violation(
                    Code.FLANK_PRIMARY,
                    f"{attacker.label} is on {target.label}'s flank or rear while {s.label} is at its "
                    f"front: the frontal unit must lead, flanking units support and take no hits",
                    clauses.FLANKING))
                break
    if len(set(action.supports)) != len(action.supports) or attacker.id in action.supports:
        found.append(Violation(Code.BAD_SUPPORT, "each supporting unit may be named once",
                               clauses.SUPPORTING))
    for sid in action.supports:
        s = state.units.get(sid)
        if s is None or not s.in_play or s.side != attacker.side:
            found.append(Violation(Code.BAD_SUPPORT, f"{sid!r} is not a unit of {attacker.side} in play",
                                   clauses.SUPPORTING))
            continue
        problem = support_problem(state, s, target)
        if problem:
            found.append(Violation(Code.BAD_SUPPORT, problem, clauses.SUPPORTING))
    if action.commander is not None:
        c = state.units.get(action.commander)
        eligible = {u.id for u in iter_eligible_commanders(state, attacker.side, (attacker, target))}
        if c is None or c.kind is not UnitKind.COMMANDER or c.side != attacker.side or not c.in_play:
            found.append(Violation(Code.BAD_COMMANDER, f"{action.commander!r} is not your commander in play",
                                   clauses.COMMANDER_RALLY))
        elif c.id not in eligible:
            found.append(Violation(Code.BAD_COMMANDER,
                                   f"{c.label} is not within 3\" of this combat or has already encouraged",
                                   clauses.COMMANDER_RALLY))
        elif not can_be_encouraged(attacker):
            found.append(Violation(Code.BAD_COMMANDER,
                                   f"commanders encourage infantry or cavalry, not {attacker.kind.value}",
                                   clauses.COMMANDER_RALLY))
    return found


def defender_commanders(state: GameState, action: Attack) -> list[str]:
    """Commanders the defending side could send to encourage the target."""
    target = state.units[action.target]
    if not can_be_encouraged(target):
        return []
    attacker = state.units[action.attacker]
    return [c.id for c in iter_eligible_commanders(state, target.side, (attacker, target))]


def validate_encourage(state: GameState, action: Encourage) -> list[Violation]:
    pending = state.pending
    if pending is None or pending.get("kind") != "encourage":
        return [Violation(Code.NOTHING_PENDING, "no attack awaits a defending commander",
                          clauses.COMMANDER_RALLY)]
    if action.commander is not None and action.commander not in pending["eligible"]:
        return [Violation(Code.BAD_COMMANDER,
                          f"{action.commander!r} cannot encourage here; eligible: "
                          f"{', '.join(pending['eligible'])}", clauses.COMMANDER_RALLY)]
    return []


def attacker_modifiers(
    state: GameState, action: Attack, options: Mapping[str, Any]
) -> list[Modifier]:
    """Assess Casualties 1-5 for the attacking side."""
    a = state.units[action.attacker]
    t = state.units[action.target]
    pa, pt = profile(a.kind), profile(t.kind)
    mods: list[Modifier] = []
    if pa.is_infantry and not a.out_of_ammo:
        mods.append(Modifier(1, "muskets: infantry with ammunition attacking"))
    if pa.is_cavalry and not pt.pikes:
        mods.append(Modifier(1, "cavalry"))
    if t.kind is UnitKind.ARTILLERY:
        mods.append(Modifier(1, "attacking artillery"))
    if action.commander:
        mods.append(Modifier(1, f"commander rally: {state.units[action.commander].label}"))
    if action.supports:
        n = len(action.supports)
        mods.append(Modifier(n, f"supporting unit{'s' if n > 1 else ''}"))
    return mods


def defender_modifiers(
    state: GameState, action: Attack, commander: str | None, options: Mapping[str, Any]
) -> list[Modifier]:
    """The defender's roll: cavalry +1 (not against infantry with pikes), commander +1, and
    muskets only with the ``muskets_when_defending`` option."""
    a = state.units[action.attacker]
    t = state.units[action.target]
    pa, pt = profile(a.kind), profile(t.kind)
    mods: list[Modifier] = []
    if options["muskets_when_defending"] and pt.is_infantry and not t.out_of_ammo:
        mods.append(Modifier(1, "muskets: infantry with ammunition"))
    if pt.is_cavalry and options["cavalry_bonus_when_defending"] and not pa.pikes:
        mods.append(Modifier(1, "cavalry"))
    if commander:
        mods.append(Modifier(1, f"commander rally: {state.units[commander].label}"))
    return mods


