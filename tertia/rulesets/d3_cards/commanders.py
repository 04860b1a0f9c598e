"""Commanders in d3-cards: on the Commander card the commander may move (as Horse, 12":
the text gives no distance) and join a unit to rally it, removing a D3 of its hits, one
less if it is in melee. Four rallies a game; optionally five for an inspirational
commander and three for a poor one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.actions import Action
from tertia.core.dice import D3
from tertia.core.events import GameDataChanged, Marked, Narrated
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import FightingCode
from tertia.rules.hits import HitsRemoved, piece
from tertia.rulesets.d3.codes import D3Code
from tertia.rulesets.d3.contact import in_contact, is_engaged
from tertia.rulesets.d3_cards import clauses

INSPIRATIONAL, POOR = 2, 0


@dataclass(frozen=True, slots=True)
class Rally(Action):
    """The commander, having joined a unit, rallies it."""

    type: ClassVar[str] = "rally"
    commander: str
    unit: str


def rallies_allowed(commander: Unit, options: Mapping[str, Any]) -> int:
    """Four a game (option ``rallies``); with ``rallies_by_value`` a commander of value 2
    (inspirational) has five and one of value 0 (poor) three."""
    if options["rallies_by_value"]:
        if piece(commander).value >= INSPIRATIONAL:
            return 5
        if piece(commander).value <= POOR:
            return 3
    return int(options["rallies"])


def rallies_used(state: GameState, side: str) -> int:
    return int(state.value(f"rallies_used:{side}", 0))


def rallies_left(state: GameState, commander: Unit, options: Mapping[str, Any]) -> int:
    return max(0, rallies_allowed(commander, options) - rallies_used(state, commander.side))


def validate(state: GameState, action: Rally, options: Mapping[str, Any]) -> list[Violation]:
    rule = clauses.RALLY
    commander = state.units.get(action.commander)
    unit = state.units.get(action.unit)
    if commander is None or not commander.is_commander:
        named = repr(action.commander) if commander is None else commander.label
        return [Violation(FightingCode.BAD_COMMANDER, f"{named} is not a commander", rule)]
    if unit is None or unit.is_commander:
        why = f"there is no unit {action.unit!r}" if unit is None else f"{unit.label} is a commander, no unit"
        return [Violation(CoreCode.UNKNOWN_UNIT, f"{why} to rally", rule)]
    if not commander.in_play or not unit.in_play:
        gone = commander if not commander.in_play else unit
        return [Violation(CoreCode.UNIT_REMOVED, f"{gone.label} is no longer in play", rule)]
    if unit.side != commander.side:
        return [Violation(CoreCode.NOT_YOUR_UNIT, f"{unit.label} is not {commander.label}'s to rally", rule)]
    if state.is_marked("rallied", commander.id):
        return [Violation(CoreCode.ALREADY_ACTED, f"{commander.label} has already rallied this activation",
                          rule)]
    if rallies_left(state, commander, options) <= 0:
        return [Violation(D3Code.NO_RALLIES_LEFT,
                          f"{commander.label} has used all {rallies_allowed(commander, options)} "
                          f"rallies of the game", rule)]
    if not in_contact(commander, unit):
        return [Violation(D3Code.NOT_JOINED, f"{commander.label} must join {unit.label} (move into "
                                           f"contact with it) to rally it", rule)]
    if piece(unit).hits <= 0:
        return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} has no hits to remove", rule)]
    return []


def resolve(tx: Tx, action: Rally) -> None:
    commander = tx.state.units[action.commander]
    unit = tx.state.units[action.unit]
    tx.emit(Marked(mark="rallied", ident=commander.id))
    tx.emit(Marked(mark="moved", ident=commander.id))
    tx.emit(GameDataChanged(key=f"rallies_used:{commander.side}",
                            value=rallies_used(tx.state, commander.side) + 1))
    roll = tx.roll(D3, f"rally: {commander.label} with {unit.label}")
    in_melee = is_engaged(tx.state, unit)
    removed = max(0, roll - 1 if in_melee else roll)
    removed = min(removed, piece(unit).hits)
    why = " less 1 in melee" if in_melee else ""
    if removed:
        tx.emit(HitsRemoved(unit=unit.id, hits=removed, cause=f"rallied by {commander.label}"))
    else:
        tx.emit(Narrated(text=f"{commander.label} fails to rally {unit.label} (D3 {roll}{why})"))
