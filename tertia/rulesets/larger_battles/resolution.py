"""Resolution: the dice of combat and bombardment.

Kept apart from the rules that say who may fight (:mod:`.combat`, :mod:`.bombardment`):
exact odds (:mod:`tertia.analysis.enumerate`) learn how the rules use each die value from
the value's own operators, so the code that reads die values stays plain Python while the
rest may be compiled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tertia.core.dice import D6, recorded, summed
from tertia.core.events import DecisionAwaited, DecisionMade, GameDataChanged, Marked, Narrated, UnitTurned
from tertia.core.geometry import bases_overlap, facing_towards
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.fighting import Attack, AttackResolved
from tertia.rules.hits import AmmunitionExhausted, GunFired, HitsInflicted, piece
from tertia.rules.modifiers import total
from tertia.rulesets.larger_battles.actions import Bombard, Encourage
from tertia.rulesets.larger_battles.combat import (
    ATTACKERS_OF,
    DECLARED,
    DECLARED_ATTACKS,
    FLANKING,
    attack_from,
    attack_words,
    attacker_modifiers,
    declared_attacks,
    defender_commanders,
    defender_modifiers,
    find_declared,
    is_flanking,
)
from tertia.rulesets.larger_battles.commanders import roll_misfortune
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.routing import reassess

AMMO_OUT_ON = 2  # Check Ammunition: a 1 or 2 and they have run out
HIT_ON = 5  # Artillery Bombardment: a D6 of 5+ causes a hit


def declare_attacks(tx: Tx, attacks: Sequence[Attack], options: Mapping[str, Any]) -> None:
    """Combat: mark every declared attack (who attacks and supports whom, which attackers
    are on a flank or rear), keep them to be fought one by one, and reassess routing
    (dragoons leaving cover, units leaving a river bank)."""
    state = tx.state
    tx.emit(Narrated(text=_declaration_text(state, attacks)))
    tx.emit(Marked(mark=DECLARED, ident=state.active))
    for a in attacks:
        tx.emit(Marked(mark="attacked", ident=a.attacker))
        for sid in a.supports:
            tx.emit(Marked(mark="supported", ident=sid))
        for uid in (a.attacker, *a.supports):
            tx.emit(Marked(mark=ATTACKERS_OF + a.target, ident=uid))
        if a.target not in tx.state.marked("attack_targets"):
            tx.emit(Marked(mark="attack_targets", ident=a.target))
        if a.commander:
            tx.emit(Marked(mark="encouraged", ident=a.commander))
        if is_flanking(state.units[a.attacker], state.units[a.target]):
            tx.emit(Marked(mark=FLANKING, ident=a.attacker))
    tx.emit(GameDataChanged(key=DECLARED_ATTACKS, value=[a.to_dict() for a in attacks]))
    settle(tx, options)


def _declaration_text(state: GameState, attacks: Sequence[Attack]) -> str:
    def one(a: Attack) -> str:
        words = attack_words(state, a)
        if a.supports:
            words += " supported by " + ", ".join(state.units[s].label for s in a.supports)
        if a.commander:
            words += f", encouraged by {state.units[a.commander].label}"
        return words

    n = len(attacks)
    return f"{n} attack{'s' if n > 1 else ''} declared: " + "; ".join(one(a) for a in attacks)


def make_attack(tx: Tx, action: Attack, options: Mapping[str, Any]) -> None:
    """Fight one declared attack (named by its primary and target), first awaiting the
    defending side's commander when one could encourage."""
    left = declared_attacks(tx.state)
    attack = find_declared(left, action)
    assert attack is not None  # validated: the rules refuse an attack not declared
    tx.emit(GameDataChanged(key=DECLARED_ATTACKS, value=[a.to_dict() for a in left if a != attack]))
    eligible = defender_commanders(tx.state, attack) if options["defender_may_encourage"] else []
    if eligible:
        tx.emit(DecisionAwaited(
            side=tx.state.units[attack.target].side, kind="encourage",
            context={"attack": attack.to_dict(), "eligible": eligible},
        ))
        return
    fight(tx, attack, None, options)


def settle(tx: Tx, options: Mapping[str, Any]) -> None:
    """Routing's "reassess immediately", then the declared attacks still to fight lose what
    has left the field: an attack whose primary or target has gone is not made (its target
    still counted as attacked), routed supports and lost commanders add nothing."""
    reassess(tx, options)
    left = declared_attacks(tx.state)
    if not left:
        return
    units = tx.state.units
    kept: list[Attack] = []
    for a in left:
        primary, target = units[a.attacker], units[a.target]
        if not (primary.in_play and target.in_play):
            gone = primary if not primary.in_play else target
            tx.emit(Narrated(text=f"{primary.label}'s attack on {target.label} is not made: "
                                  f"{gone.label} has left the field"))
            continue
        supports = tuple(s for s in a.supports if units[s].in_play)
        commander = a.commander if a.commander and units[a.commander].in_play else None
        kept.append(Attack(a.attacker, a.target, supports, commander))
    if kept != left:
        tx.emit(GameDataChanged(key=DECLARED_ATTACKS, value=[a.to_dict() for a in kept]))


def resolve_encourage(tx: Tx, action: Encourage, options: Mapping[str, Any]) -> None:
    pending = tx.state.pending
    assert pending is not None
    tx.emit(DecisionMade(side=str(pending["side"]), kind="encourage", choice=action.commander))
    if action.commander:
        tx.emit(Marked(mark="encouraged", ident=action.commander))
    fight(tx, attack_from(pending["attack"]), action.commander, options)


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
    # The scores are only compared: exact odds walk one branch for each way it goes.
    beaten = summed(a_roll, total(a_mods)) > summed(d_roll, total(d_mods))
    beats = summed(d_roll, total(d_mods)) > summed(a_roll, total(a_mods))
    a_score, d_score = recorded(a_roll) + total(a_mods), recorded(d_roll) + total(d_mods)
    spared = spared_as_flanker(tx.state, attacker, options)
    if beaten:
        outcome = f"{target.label} takes a hit"
    elif beats:
        outcome = (f"{attacker.label} attacked a flank or rear and takes no hit" if spared
                   else f"{attacker.label} takes a hit")
    else:
        outcome = "a tie: no hit"
    tx.emit(AttackResolved(
        kind="combat", attacker=attacker.id, target=target.id, supports=tuple(action.supports),
        attacker_score=a_score, defender_score=d_score,
        modifiers=tuple(map(str, a_mods)), defender_modifiers=tuple(map(str, d_mods)),
        summary=f"{attacker.label} attacks {target.label}: {recorded(a_roll)}"
                f"{total(a_mods):+d}={a_score} against {recorded(d_roll)}{total(d_mods):+d}={d_score}; "
                f"{outcome}",
    ))
    if beaten:
        tx.emit(HitsInflicted(unit=target.id, hits=1, cause=f"combat with {attacker.label}"))
    elif beats and not spared:
        tx.emit(HitsInflicted(unit=attacker.id, hits=1, cause=f"combat with {target.label}"))
    if profile(attacker.kind).is_infantry and not piece(attacker).out_of_ammo:
        ammo = tx.roll(D6, f"ammunition: {attacker.label}")
        if ammo <= AMMO_OUT_ON:
            tx.emit(AmmunitionExhausted(unit=attacker.id))
    for cid in (action.commander, defending_commander):
        if cid:
            roll_misfortune(tx, tx.state.units[cid], "after combat")


def spared_as_flanker(state: GameState, attacker: Unit, options: Mapping[str, Any]) -> bool:
    """The author's ruling, flanking units "cannot take any hits in combat": a primary
    attacker that was on its target's flank or rear when declared takes no hit when it
    loses (``lone_flanker = "no-hits"``); with ``fights-normally`` it does."""
    return options["lone_flanker"] == "no-hits" and state.is_marked(FLANKING, attacker.id)


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
    if not piece(gun).fired:
        tx.emit(GunFired(unit=gun.id))
    if hit:
        tx.emit(HitsInflicted(unit=target.id, hits=1, cause=f"bombarded by {gun.label}"))
