"""Officers taking and leaving a place in a unit's front rank during the battle (Glossary,
"IN THE FRONT RANK - A general who is touching a friendly unit and is fighting with the
unit"; Tertias and officers 4 D-G; Close combat A: "Attached officers move with their
brigade, unattached officers move on 'Officers & Artillery' card").

Both are done on the officer's own card, his army's Officers & Artillery card:

- **Joining.** An officer who may move on the card and is in no front rank joins that of
  a friendly unit he touches (within :data:`~.attached.TOUCHING`, or standing on it) and
  commands (:func:`~.command.commands`: the army's general any tertia, a wing commander
  his wing's, any other officer his own); not a routed unit, a galloper gun or the
  baggage; he may ride up to it first on the same card. Joining ends his part on the
  card: he moves no more on it, and from then on moves with the unit's tertia and shares
  its fate.
- **Leaving.** An officer in a front rank leaves it and stands where he is; never that of
  a routed unit ("Said leader may not leave a routed unit till it rallies"). He moves
  again on his army's next Officers & Artillery card.
"""

from __future__ import annotations

from tertia.activation.deck import read_card
from tertia.core.geometry import base_distance
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, Violation, no_piece_of
from tertia.rulesets.charge_yr_pikes.actions import JoinFrontRank, LeaveFrontRank
from tertia.rulesets.charge_yr_pikes.attached import TOUCHING, may_leave
from tertia.rulesets.charge_yr_pikes.cards import OFFICERS_AND_ARTILLERY
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.command import commands
from tertia.rulesets.charge_yr_pikes.data import UNSEEN
from tertia.rulesets.charge_yr_pikes.events import MovedOnCard, change
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

RULE = "Tertias and officers 4 D-G"

NOT_JOINABLE = ("wagons",)
"""Troops no officer fights with: the baggage."""


def problems(state: GameState, action: JoinFrontRank | LeaveFrontRank) -> list[Violation]:
    """Why the action may not be taken now, or nothing."""
    officer = state.units.get(action.officer)
    if (officer is None or not officer.in_play or officer.side != state.active
            or not unit_data(officer).is_officer):
        return [Violation(CoreCode.UNKNOWN_UNIT,
                          no_piece_of(state, action.officer, state.active, "officer", unseen=UNSEEN), RULE)]
    card = game_data(state).card
    drawn = None if card is None else read_card(card)
    if drawn is None or drawn.name != OFFICERS_AND_ARTILLERY or drawn.side != officer.side:
        return [Violation(CypCode.NOT_MOVING, f"{officer.label} takes or leaves a front rank only on his "
                          "army's Officers & Artillery card", RULE)]
    led = unit_data(officer).attached_to
    if isinstance(action, LeaveFrontRank):
        if led is None:
            return [Violation(CypCode.NOT_IN_FRONT_RANK, f"{officer.label} is in no unit's front rank", RULE)]
        if not may_leave(state, officer.id):
            return [Violation(CypCode.ROUTED_UNIT, f"{officer.label} may not leave {state.units[led].label} "
                              "till it rallies", "Tertias and officers 4 D")]
        return []
    if led is not None:
        return [Violation(CypCode.IN_FRONT_RANK, f"{officer.label} is already in the front rank of "
                          f"{state.units[led].label}", RULE)]
    if officer.id not in game_data(state).moving:
        return [Violation(CypCode.NOT_MOVING, f"{officer.label} may not act on this card", RULE)]
    unit = state.units.get(action.unit)
    if unit is None or not unit.in_play or unit.side != officer.side:
        return [Violation(CoreCode.UNKNOWN_UNIT,
                          no_piece_of(state, action.unit, officer.side, "unit", unseen=UNSEEN), RULE)]
    return _unit_problems(state, officer, unit)


def _unit_problems(state: GameState, officer: Unit, unit: Unit) -> list[Violation]:
    bar = lead_bar(state, officer, unit)
    if bar == CypCode.NOT_JOINABLE:
        return [Violation(bar, f"{officer.label} may not fight in the front rank of {unit.label}", RULE)]
    if bar == CypCode.ROUTED_UNIT:
        return [Violation(bar, f"{unit.label} is routed", "Tertias and officers 4 D")]
    if bar == CypCode.NOT_HIS_COMMAND:
        return [Violation(bar, f"{officer.label} does not command {unit.label}", "Tertias and officers 4 C")]
    if not touches(officer, unit):
        return [Violation(CypCode.NOT_TOUCHING, f"{officer.label} does not touch {unit.label}", RULE)]
    return []


def lead_bar(state: GameState, officer: Unit, unit: Unit) -> str | None:
    """What keeps ``officer`` from the front rank of ``unit``, his touching it aside: a
    unit that does not fight, a routed one, one he does not command; None when nothing
    does. A player only asking whether he may is spared the words of the refusal."""
    own = unit_data(unit)
    if own.is_officer or own.gun == "galloper" or own.troop in NOT_JOINABLE:
        return CypCode.NOT_JOINABLE
    if own.routed:
        return CypCode.ROUTED_UNIT
    if not commands(officer, unit.command, game_data(state).wings):
        return CypCode.NOT_HIS_COMMAND
    return None


def touches(officer: Unit, unit: Unit) -> bool:
    """Does ``officer`` touch ``unit`` (within :data:`~.attached.TOUCHING`, or stand on it)?"""
    return base_distance(officer.base, unit.base) <= TOUCHING + 1e-9


def apply(tx: Tx, action: JoinFrontRank | LeaveFrontRank) -> None:
    """Take or leave the front rank (the action is legal)."""
    if isinstance(action, JoinFrontRank):
        change(tx, action.officer, "joins the front rank", attached_to=action.unit)
        if action.officer not in game_data(tx.state).moved_on_card:
            tx.emit(MovedOnCard(unit=action.officer))
    else:
        change(tx, action.officer, "leaves the front rank", attached_to=None)
