"""Combat: shooting and melee combined, as opposed D6 rolls within 3".

The attacker declares a primary unit, a target, supporting units and an encouraging
commander; the defending side may then have one of its commanders encourage the target.
Both roll a D6 with modifiers; the higher causes a hit (ties nothing). Supporting units,
flank attackers among them, never take hits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.actions import Attack, Encourage
from tertia.core.dice import D6
from tertia.core.events import (
    AmmunitionExhausted,
    AttackResolved,
    DecisionAwaited,
    DecisionMade,
    HitsInflicted,
    Marked,
    UnitTurned,
)
from tertia.core.geometry import Face, bases_overlap, face_towards, facing_towards, is_in_arc
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import Code, Violation
from tertia.rules.measuring import distance, iter_enemy_troops_within, within
from tertia.rules.modifiers import Modifier, total
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.commanders import (
    can_be_encouraged,
    iter_eligible_commanders,
    roll_misfortune,
)
from tertia.rulesets.larger_battles.profile import profile

COMBAT_RANGE = 3.0
RANGE_TOLERANCE = 1e-6
AMMO_OUT_ON = 2  # Check Ammunition: a 1 or 2 and they have run out


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


def declare_attack(tx: Tx, action: Attack, options: Mapping[str, Any]) -> None:
    """Mark the fighters, then resolve at once or await the defender's commander."""
    tx.emit(Marked(mark="attacked", ident=action.attacker))
    for sid in action.supports:
        tx.emit(Marked(mark="supported", ident=sid))
    tx.emit(Marked(mark="attack_targets", ident=action.target))
    if action.commander:
        tx.emit(Marked(mark="encouraged", ident=action.commander))
    eligible = defender_commanders(tx.state, action) if options["defender_may_encourage"] else []
    if eligible:
        tx.emit(DecisionAwaited(
            side=tx.state.units[action.target].side, kind="encourage",
            context={"attack": action.to_dict(), "eligible": eligible},
        ))
        return
    fight(tx, action, None, options)


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


def resolve_encourage(tx: Tx, action: Encourage, options: Mapping[str, Any]) -> None:
    pending = tx.state.pending
    assert pending is not None
    attack = pending["attack"]
    tx.emit(DecisionMade(side=str(pending["side"]), kind="encourage", choice=action.commander))
    if action.commander:
        tx.emit(Marked(mark="encouraged", ident=action.commander))
    fight(
        tx,
        Attack(attacker=attack["attacker"], target=attack["target"],
               supports=tuple(attack["supports"]), commander=attack["commander"]),
        action.commander,
        options,
    )


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


def fight(tx: Tx, action: Attack, defending_commander: str | None, options: Mapping[str, Any]) -> None:
    """Resolve a declared attack: turn the defender, roll, hit, ammunition, misfortune."""
    state = tx.state
    attacker = state.units[action.attacker]
    target = state.units[action.target]
    _turn_to_face(tx, target, attacker)
    a_mods = attacker_modifiers(tx.state, action, options)
    d_mods = defender_modifiers(tx.state, action, defending_commander, options)
    a_roll = tx.roll(D6, f"combat: {attacker.label} attacking {target.label}")
    d_roll = tx.roll(D6, f"combat: {target.label} defending against {attacker.label}")
    a_score = a_roll + total(a_mods)
    d_score = d_roll + total(d_mods)
    if a_score > d_score:
        outcome = f"{target.label} takes a hit"
    elif d_score > a_score:
        outcome = f"{attacker.label} takes a hit"
    else:
        outcome = "a tie: no hit"
    tx.emit(AttackResolved(
        kind="combat", attacker=attacker.id, target=target.id, supports=tuple(action.supports),
        attacker_score=a_score, defender_score=d_score,
        modifiers=tuple(map(str, a_mods)), defender_modifiers=tuple(map(str, d_mods)),
        summary=f"{attacker.label} attacks {target.label}: {a_roll}"
                f"{total(a_mods):+d}={a_score} against {d_roll}{total(d_mods):+d}={d_score}; {outcome}",
    ))
    if a_score > d_score:
        tx.emit(HitsInflicted(unit=target.id, hits=1, cause=f"combat with {attacker.label}"))
    elif d_score > a_score:
        tx.emit(HitsInflicted(unit=attacker.id, hits=1, cause=f"combat with {target.label}"))
    if profile(attacker.kind).is_infantry and not attacker.out_of_ammo:
        ammo = tx.roll(D6, f"ammunition: {attacker.label}")
        if ammo <= AMMO_OUT_ON:
            tx.emit(AmmunitionExhausted(unit=attacker.id))
    for cid in (action.commander, defending_commander):
        if cid:
            roll_misfortune(tx, tx.state.units[cid], "after combat")


def _turn_to_face(tx: Tx, target: Unit, attacker: Unit) -> None:
    """Frontal Facing: defending units must turn to face the primary attacking unit. A turn
    that would overlap another base is not made (the unit fights as it stands)."""
    wanted = facing_towards(target.base, (attacker.x, attacker.y))
    turned = target.base.moved_to(target.x, target.y, wanted)
    if abs(((wanted - target.facing + 180) % 360) - 180) < 0.5:
        return
    if any(bases_overlap(turned, o.base) for o in tx.state.iter_units() if o.id != target.id):
        return
    if not tx.table.inside_table(turned.corners()):
        return
    tx.emit(UnitTurned(unit=target.id, facing=wanted, reason=f"faces {attacker.label}"))
