"""Resolution: the dice of combat and bombardment.

Kept apart from the rules that say who may fight (:mod:`.combat`, :mod:`.bombardment`):
exact odds (:mod:`tertia.analysis.enumerate`) learn how the rules use each die value from
the value's own operators, so the code that reads die values stays plain Python while the
rest may be compiled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.actions import Attack, Bombard, Encourage
from tertia.core.dice import D6
from tertia.core.events import (
    AmmunitionExhausted,
    AttackResolved,
    DecisionAwaited,
    DecisionMade,
    GunFired,
    HitsInflicted,
    Marked,
    UnitTurned,
)
from tertia.core.geometry import bases_overlap, facing_towards
from tertia.core.ruleset import Tx
from tertia.core.state import Unit
from tertia.rules.modifiers import total
from tertia.rulesets.larger_battles.combat import (
    attacker_modifiers,
    defender_commanders,
    defender_modifiers,
)
from tertia.rulesets.larger_battles.commanders import roll_misfortune
from tertia.rulesets.larger_battles.profile import profile

AMMO_OUT_ON = 2  # Check Ammunition: a 1 or 2 and they have run out
HIT_ON = 5  # Artillery Bombardment: a D6 of 5+ causes a hit


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


def resolve_bombard(tx: Tx, action: Bombard) -> None:
    gun = tx.state.units[action.gun]
    target = tx.state.units[action.target]
    tx.emit(Marked(mark="bombarded", ident=gun.id))
    roll = tx.roll(D6, f"bombardment: {gun.label} at {target.label}")
    hit = roll >= HIT_ON
    tx.emit(AttackResolved(
        kind="bombard", attacker=gun.id, target=target.id, supports=(),
        attacker_score=roll, defender_score=HIT_ON, modifiers=(), defender_modifiers=(),
        summary=f"{gun.label} bombards {target.label}: rolled {roll}, needs {HIT_ON}+ "
                f"({'a hit' if hit else 'no effect'})",
    ))
    if not gun.fired:
        tx.emit(GunFired(unit=gun.id))
    if hit:
        tx.emit(HitsInflicted(unit=target.id, hits=1, cause=f"bombarded by {gun.label}"))
