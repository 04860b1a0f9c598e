"""Combat: shooting and melee combined, as opposed D6 rolls within 3": who may fight
whom, with which supports and commanders, and the modifiers of each side.

The active side declares all the phase's attacks together (:class:`DeclareAttacks`), each
a primary unit, a target, supporting units and an encouraging commander, then fights them
one by one, each by an :class:`Attack` naming its primary and target (a lone ``Attack``
before any declaration declares itself and is fought at once). Before each fight the
defending side may have one of its commanders encourage the target.
The rolls themselves are in :mod:`tertia.rulesets.larger_battles.resolution`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from tertia.core.geometry import Face, face_towards, is_in_arc
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation, no_piece_of
from tertia.rules.codes import FightingCode
from tertia.rules.fighting import Attack, not_an_enemy
from tertia.rules.hits import piece
from tertia.rules.measuring import distance, iter_enemy_troops_within, within
from tertia.rules.modifiers import Modifier
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.actions import Encourage
from tertia.rulesets.larger_battles.codes import LargerBattlesCode
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


DECLARED = "declared"
"""Mark: the combat phase's attacks have been declared (once a player turn)."""
ATTACKERS_OF = "attackers_of:"
"""Marks ``attackers_of:<target>``: the primary and every supporting unit of each attack
declared on the target, so that the turn remembers who attacked whom (Routing 2, Rivers)."""
FLANKING = "flanking"
"""Mark: primary attackers that were on their target's flank or rear when declared."""
DECLARED_ATTACKS = "declared_attacks"
"""Game data: the declared attacks not yet fought, in the order declared."""


def attack_from(data: Mapping[str, Any]) -> Attack:
    return Attack(attacker=data["attacker"], target=data["target"],
                  supports=tuple(data["supports"]), commander=data["commander"])


_read: tuple[object, tuple[Attack, ...]] = ((), ())
"""The declared attacks last read, and the game data they were read from: positions
share that data until an attack is fought, and the rules ask for them after every action."""


def declared_attacks(state: GameState) -> list[Attack]:
    """The attacks declared this phase that are still to be fought."""
    global _read
    data = state.value(DECLARED_ATTACKS, ())
    seen, attacks = _read
    if seen is not data:
        attacks = tuple(attack_from(d) for d in data)
        _read = (data, attacks)
    return list(attacks)


def attackers_of(state: GameState, unit_id: str) -> tuple[str, ...]:
    """The units (primaries and supports) that attacked ``unit_id`` this player turn."""
    return state.marked(ATTACKERS_OF + unit_id)


def has_fought(state: GameState, unit_id: str) -> bool:
    """Did the unit attack or support this player turn?"""
    return state.is_marked("attacked", unit_id) or state.is_marked("supported", unit_id)


def attacked_this_turn(state: GameState) -> tuple[str, ...]:
    return state.marked("attack_targets")


def is_attacked(state: GameState, unit_id: str, target: str, targets: Collection[str]) -> bool:
    """Is the unit being attacked this turn: already attacked, or ``target`` or one of the
    ``targets`` being declared?"""
    return unit_id == target or unit_id in targets or state.is_marked("attack_targets", unit_id)


def is_flanking(unit: Unit, target: Unit) -> bool:
    """The author's ruling on flank attacks: a unit whose centre lies beyond the target's
    flank or rear face (split by the target's diagonals), judged as the attack is declared."""
    return face_towards(target.base, unit.base.centre) is not Face.FRONT


CANNOT_FIGHT: Final = "cannot fight"
HAS_FOUGHT: Final = "has fought"
OUT_OF_RANGE: Final = "out of range"
NOT_FACING: Final = "not facing"
SupportBar = str | Unit
"""What keeps a unit from supporting an attack: one of the reasons above, or the enemy
within 3" that is not being attacked this turn."""


def support_bar(
    state: GameState, unit: Unit, target: Unit, targets: Collection[str] = ()
) -> SupportBar | None:
    """What keeps ``unit`` from supporting an attack on ``target``, or None when it may.
    ``targets`` are the other targets declared this phase: "a unit cannot support if it
    is within 3\" of an enemy unit which is not being attacked this turn" is judged
    against all of them. A player only asking whether it may is spared the words of
    :func:`support_problem`."""
    if not can_attack(unit):
        return CANNOT_FIGHT
    if has_fought(state, unit.id):
        return HAS_FOUGHT
    if not within(unit, target, COMBAT_RANGE + RANGE_TOLERANCE):
        return OUT_OF_RANGE
    if not is_in_arc(unit.base, target.base):
        return NOT_FACING
    for enemy in iter_enemy_troops_within(state, unit, COMBAT_RANGE):
        if not is_attacked(state, enemy.id, target.id, targets):
            return enemy
    return None


def support_problem(
    state: GameState, unit: Unit, target: Unit, targets: Collection[str] = ()
) -> str | None:
    """Why ``unit`` may not support an attack on ``target`` (:func:`support_bar`), in
    words, or None."""
    bar = support_bar(state, unit, target, targets)
    if bar is None:
        return None
    if isinstance(bar, Unit):
        return f"{unit.label} is within 3\" of {bar.label}, which is not being attacked this turn"
    if bar == CANNOT_FIGHT:
        return f"{unit.label} cannot take part in combat"
    if bar == HAS_FOUGHT:
        return f"{unit.label} has already fought this turn"
    if bar == OUT_OF_RANGE:
        return f"{unit.label} is {distance(unit, target):.1f}\" from {target.label}, beyond 3\""
    return f"{unit.label} does not face {target.label}"


def validate_declaration(
    table: Battlefield, state: GameState, attacks: Sequence[Attack], options: Mapping[str, Any]
) -> list[Violation]:
    """Combat: every attack of the phase, declared together. Each is checked on its own
    (support judged against every declared target), then as a whole: no unit or commander
    in two attacks, and flank attackers folded into the frontal attack on their target."""
    if state.phase != "combat":
        return [Violation(CoreCode.WRONG_PHASE, f"attacks are made in the combat phase, not {state.phase}",
                          clauses.SEQUENCE)]
    if state.is_marked(DECLARED, state.active):
        return [Violation(CoreCode.ALREADY_ACTED, "this phase's attacks have already been declared; "
                          "they are declared together, once a phase", clauses.COMBAT)]
    if not attacks:
        return [Violation(CoreCode.CANNOT_ACT, "declare at least one attack (or end the phase)",
                          clauses.COMBAT)]
    targets = {a.target for a in attacks}
    found: list[Violation] = []
    for a in attacks:
        found.extend(validate_attack(table, state, a, options, targets))
    if found:
        return found
    return _whole_problems(state, attacks)


def validate_declared(state: GameState, action: Attack) -> list[Violation]:
    """Once the phase's attacks are declared, an attack names one of those still to be
    fought (by its primary and target); supports and commander, if given, as declared."""
    left = declared_attacks(state)
    found = find_declared(left, action)
    named = attack_words(state, action)
    if found is None:
        listed = "; ".join(attack_words(state, a) for a in left) or "none"
        return [Violation(CoreCode.ALREADY_ACTED,
                          f"this phase's attacks were declared together; {named} is not among "
                          f"those left to fight ({listed})", clauses.COMBAT)]
    if (action.supports and action.supports != found.supports) or (
            action.commander and action.commander != found.commander):
        return [Violation(FightingCode.BAD_SUPPORT,
                          f"{named} was declared with supports {list(found.supports)} and "
                          f"commander {found.commander}", clauses.COMBAT)]
    return []


def find_declared(declared: Sequence[Attack], action: Attack) -> Attack | None:
    """The declared attack an ``Attack`` names by its primary and target."""
    return next((a for a in declared if (a.attacker, a.target) == (action.attacker, action.target)), None)


def attack_words(state: GameState, attack: Attack) -> str:
    """``Rupert's Horse on Essex's Foot``."""
    return f"{state.units[attack.attacker].label} on {state.units[attack.target].label}"


def unfought_problems(state: GameState) -> list[Violation]:
    """The combat phase ends only when every declared attack has been fought."""
    left = declared_attacks(state)
    if not left:
        return []
    listed = "; ".join(attack_words(state, a) for a in left)
    return [Violation(CoreCode.CANNOT_ACT, f"declared attacks are still to be fought: {listed}",
                      clauses.COMBAT)]


def _whole_problems(state: GameState, attacks: Sequence[Attack]) -> list[Violation]:
    found: list[Violation] = []
    named: set[str] = set()
    for a in attacks:
        for uid in (a.attacker, *a.supports):
            if uid in named:
                found.append(Violation(CoreCode.ALREADY_ACTED,
                                       f"{state.units[uid].label} is named in two attacks; each unit "
                                       f"attacks or supports once a turn", clauses.COMBAT))
            named.add(uid)
    leaders = [a.commander for a in attacks if a.commander]
    for cid in sorted({c for c in leaders if leaders.count(c) > 1}):
        found.append(Violation(FightingCode.BAD_COMMANDER,
                               f"{state.units[cid].label} may encourage only one attack a turn",
                               clauses.COMMANDER_RALLY))
    for target_id in dict.fromkeys([a.target for a in attacks]):
        found.extend(_flank_problems(state, [a for a in attacks if a.target == target_id]))
    return found


def _flank_problems(state: GameState, attacks: Sequence[Attack]) -> list[Violation]:
    """The author's ruling: flanking units count as supporting units. Where a frontal attack
    on the target is declared, a flank or rear attacker supports it rather than fighting its
    own combat; without one, the flank attackers on a target make a single attack."""
    target = state.units[attacks[0].target]
    frontal = [a for a in attacks if not is_flanking(state.units[a.attacker], target)]
    flank = [a for a in attacks if a not in frontal]
    found: list[Violation] = []
    if frontal:
        lead = state.units[frontal[0].attacker]
        found.extend([
            Violation(LargerBattlesCode.FLANK_PRIMARY,
                      f"{state.units[a.attacker].label} is on {target.label}'s flank or rear while "
                      f"{lead.label} attacks its front: name it as a supporting unit of that attack "
                      f"instead of fighting its own combat", clauses.FLANKING)
            for a in flank])
    elif len(flank) > 1:
        lead = state.units[flank[0].attacker]
        found.extend([
            Violation(LargerBattlesCode.FLANK_PRIMARY,
                      f"{state.units[a.attacker].label} and {lead.label} both attack "
                      f"{target.label}'s flank or rear: one leads, the other supports it",
                      clauses.FLANKING)
            for a in flank[1:]])
    return found


def validate_attack(
    table: Battlefield, state: GameState, action: Attack, options: Mapping[str, Any],
    targets: Collection[str] = (),
) -> list[Violation]:
    """One declared attack: range, facing, supports and commander (``targets``: every target
    declared with it)."""
    attacker = state.units[action.attacker]
    target = state.units[action.target]
    refused = not_an_enemy(attacker, target, clauses.COMBAT)
    if refused:
        return refused
    if not can_attack(attacker):
        return [Violation(CoreCode.CANNOT_ACT, f"{attacker.label} ({attacker.kind.value}) cannot attack",
                          clauses.COMBAT_RANGE)]
    if has_fought(state, attacker.id):
        return [Violation(CoreCode.ALREADY_ACTED, f"{attacker.label} has already fought this turn",
                          clauses.COMBAT)]
    d = distance(attacker, target)
    if d > COMBAT_RANGE + RANGE_TOLERANCE:
        return [Violation(FightingCode.OUT_OF_RANGE,
                          f"{target.label} is {d:.1f}\" from {attacker.label}; combat range is 3\"",
                          clauses.COMBAT_RANGE)]
    if not is_in_arc(attacker.base, target.base):
        return [Violation(FightingCode.NOT_IN_FRONT,
                          f"{attacker.label} must face {target.label} to attack it",
                          clauses.COMBAT_FRONT)]
    found: list[Violation] = []
    if is_flanking(attacker, target):
        for sid in action.supports:
            s = state.units.get(sid)
            if s is not None and not is_flanking(s, target):
                found.append(Violation(
                    LargerBattlesCode.FLANK_PRIMARY,
                    f"{attacker.label} is on {target.label}'s flank or rear while {s.label} is at its "
                    f"front: the frontal unit must lead, flanking units support and take no hits",
                    clauses.FLANKING))
                break
    if len(set(action.supports)) != len(action.supports) or attacker.id in action.supports:
        found.append(Violation(FightingCode.BAD_SUPPORT, "each supporting unit may be named once",
                               clauses.SUPPORTING))
    for sid in action.supports:
        s = state.units.get(sid)
        if s is None or not s.in_play or s.side != attacker.side:
            found.append(Violation(FightingCode.BAD_SUPPORT, no_piece_of(state, sid, attacker.side, "unit"),
                                   clauses.SUPPORTING))
            continue
        problem = support_problem(state, s, target, targets)
        if problem:
            found.append(Violation(FightingCode.BAD_SUPPORT, problem, clauses.SUPPORTING))
    if action.commander is not None:
        c = state.units.get(action.commander)
        eligible = {u.id for u in iter_eligible_commanders(state, attacker.side, (attacker, target))}
        if c is None or c.kind is not UnitKind.COMMANDER or c.side != attacker.side or not c.in_play:
            found.append(Violation(FightingCode.BAD_COMMANDER,
                                   no_piece_of(state, action.commander, attacker.side, "commander"),
                                   clauses.COMMANDER_RALLY))
        elif c.id not in eligible:
            found.append(Violation(FightingCode.BAD_COMMANDER,
                                   f"{c.label} is not within 3\" of this combat or has already encouraged",
                                   clauses.COMMANDER_RALLY))
        elif not can_be_encouraged(attacker):
            found.append(Violation(FightingCode.BAD_COMMANDER,
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
        return [Violation(CoreCode.NOTHING_PENDING, "no attack awaits a defending commander",
                          clauses.COMMANDER_RALLY)]
    if action.commander is not None and action.commander not in pending["eligible"]:
        asked = state.units.get(action.commander)
        called = asked.label if asked is not None else repr(action.commander)
        eligible = ", ".join(state.units[c].label for c in pending["eligible"] if c in state.units)
        return [Violation(FightingCode.BAD_COMMANDER,
                          f"{called} cannot encourage here; eligible: {eligible or 'none'}",
                          clauses.COMMANDER_RALLY)]
    return []


def attacker_modifiers(
    state: GameState, action: Attack, options: Mapping[str, Any]
) -> list[Modifier]:
    """Assess Casualties 1-5 for the attacking side."""
    a = state.units[action.attacker]
    t = state.units[action.target]
    pa, pt = profile(a.kind), profile(t.kind)
    mods: list[Modifier] = []
    if pa.is_infantry and not piece(a).out_of_ammo:
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
    """The defender's roll: cavalry +1 (see :func:`defending_cavalry_bonus`), commander +1,
    and muskets only with the ``muskets_when_defending`` option."""
    a = state.units[action.attacker]
    t = state.units[action.target]
    pa, pt = profile(a.kind), profile(t.kind)
    mods: list[Modifier] = []
    if options["muskets_when_defending"] and pt.is_infantry and not piece(t).out_of_ammo:
        mods.append(Modifier(1, "muskets: infantry with ammunition"))
    if pt.is_cavalry and defending_cavalry_bonus(options["cavalry_bonus"], pa.pikes):
        mods.append(Modifier(1, "cavalry"))
    if commander:
        mods.append(Modifier(1, f"commander rally: {state.units[commander].label}"))
    return mods


def defending_cavalry_bonus(reading: str, attacker_has_pikes: bool) -> bool:
    """Assess Casualties 2, "Cavalry. Add 1 except when attacking infantry with pikes", for
    cavalry that are attacked. ``literal`` (the default): the exception names only
    attacking, so defending cavalry always add 1; ``not-against-pikes``: not when the
    attacker has pikes; ``attacking-only``: the bonus is for attacking cavalry alone."""
    if reading == "literal":
        return True
    return reading == "not-against-pikes" and not attacker_has_pikes
