"""Melee as both D3 texts have it: one-sided, in the active side's activation, between
units in contact; a D3 with modifiers, doubled on a flank or rear; impetuous Horse that
destroy their enemy may pursue it off the table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tertia.core.events import Marked
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import FightingCode
from tertia.rules.fighting import Attack, not_an_enemy
from tertia.rules.modifiers import Modifier
from tertia.rulesets.d3.clauses import ClauseBook
from tertia.rulesets.d3.combat import roll_hits
from tertia.rulesets.d3.contact import already_fought, charges, face_attacked, in_contact, in_passing
from tertia.rulesets.d3.hits import check_routs, roll_pursuit
from tertia.rulesets.d3.movement import face_name
from tertia.rulesets.d3.troops import is_impetuous

ModifierRule = Callable[[GameState, Unit, Unit], Sequence[Modifier]]


def validate_melee(state: GameState, action: Attack, clauses: ClauseBook) -> list[Violation]:
    """A unit in contact with an enemy unit fights it in its own activation (the attacker
    is known to be activated)."""
    c = clauses
    attacker = state.units[action.attacker]
    target = state.units[action.target]
    if action.supports or action.commander:
        return [Violation(FightingCode.BAD_SUPPORT,
                          "a D3 melee is one unit against one: no supporting units or commanders",
                          c.melee)]
    if attacker.is_commander:
        return [Violation(CoreCode.CANNOT_ACT, f"{attacker.label} is a commander and does not fight",
                          c.melee)]
    done = already_fought(state, attacker, c.melee, c.withdraw)
    if done:
        return done
    refused = not_an_enemy(attacker, target, c.melee)
    if refused:
        return refused
    if not in_contact(attacker, target):
        return [Violation(FightingCode.NOT_IN_CONTACT,
                          f"{attacker.label} is not in contact with {target.label}", c.melee)]
    if in_passing(state, attacker.id, target.id):
        return [Violation(FightingCode.NOT_IN_CONTACT,
                          f"{attacker.label} and {target.label} touch only in passing, from a charge "
                          f"on another unit: they are not in melee", c.melee)]
    return []


def charged_home(state: GameState, unit_id: str) -> str | None:
    """Right after ``unit_id`` has moved: the unit its move charged, while both are in play
    and in contact; None when that move was no charge (a move that is not a charge ends
    the unit's record)."""
    target_id = charges(state).get(unit_id)
    if target_id is None:
        return None
    unit, target = state.units[unit_id], state.units[target_id]
    if not (unit.in_play and target.in_play and in_contact(unit, target)):
        return None
    return target_id


def fight(
    tx: Tx,
    action: Attack,
    modifiers: Sequence[Modifier],
    options: Mapping[str, Any],
    *,
    pursuit_from: int,
    pursuit_rule: str,
) -> None:
    """Roll the attacker's hits on the target; if that routs the target and the attacker
    is impetuous Horse, it tests to pursue on ``pursuit_from`` or more."""
    attacker = tx.state.units[action.attacker]
    target = tx.state.units[action.target]
    tx.emit(Marked(mark="meleed", ident=attacker.id))
    face = face_attacked(target, attacker)
    doubled = None if face.value == "front" else face_name(face)
    roll_hits(tx, kind="melee", attacker=attacker, target=target, modifiers=modifiers,
              doubled=doubled, verb="attacks")
    routed = check_routs(tx, options)
    if target.id in routed and is_impetuous(tx.state, attacker, options):
        roll_pursuit(tx, tx.state.units[attacker.id], target, pursuit_from, pursuit_rule)
