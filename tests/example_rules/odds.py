"""Exact odds of the example slice's charge (Melee a-b), as a rule set from outside the
engine gives them: the position readied, the decisions the charge awaits answered as a
player would by default, and each outcome read in the slice's own terms.

The odds are the playing code run under enumerating dice
(:func:`tertia.analysis.odds.odds`): the charge move, the test to close, each side's
untested morale, the melee's two dice, the push-back and the rout. The activation's end
draws the next card; the odds stop before it (:meth:`Tx.action_over
<tertia.core.ruleset.Tx.action_over>`).

- **readying** (:func:`ready`): the charger's card is drawn, nothing else done yet.
- **the answers** (:func:`default_responses`): the target stands (a volley is its
  player's choice, asked about by answering ``fire``), and no friend countercharges.
- **what each outcome did** (:func:`effects`): the morale points each unit lost.

The slice declares no question words (``RuleSet.ACTION_WORDS``): a charge in play rolls
the move, both sides' untested morale, the test to close, the melee and a rout's 2D6 for
each stand, beyond what a list of questions may spend (as Declare Thee Sir's charges are);
its odds are shown before it is made and answered, or refused with their bounds, by
``tertia odds``, whose question it is by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tertia.core.actions import Action
from tertia.core.events import Event
from tertia.core.ruleset import OddsMeasure
from tertia.core.state import GameState
from tertia.core.violations import CoreCode, IllegalAction, Violation
from tertia.rules.morale import points_lost
from tertia.rules.pieces import piece_problems
from tests.example_rules.data import (
    COUNTERCHARGE,
    RULE,
    SHORT_TITLE,
    STAND_OR_FIRE,
    Charge,
    Countercharge,
    RespondToCharge,
    game_data,
)
from tests.example_rules.sequence import PHASE

CHARGE = "charge"
WORDS = (CHARGE,)
"""The one action odds are asked of: a charge into melee (Melee a-b)."""

MORALE_LOST = "morale_lost"
MEASURES: tuple[OddsMeasure, ...] = (
    OddsMeasure(MORALE_LOST, "count", (MORALE_LOST,), "morale points lost"),
)
"""Summary keys ``target_morale_lost`` and ``attacker_morale_lost`` (distributions), beside
the common ``target_routed`` / ``attacker_routed``."""


def ready(state: GameState, word: str | None, attacker: str, target: str) -> tuple[GameState, Action]:
    """The position with ``attacker``'s card drawn (as it stands if it is already the unit
    activated and nothing is awaited), and the charge at ``target``. Raises
    ``IllegalAction`` for an unknown unit or word; whether the charge is legal there is
    the rule set's ``validate``'s to say."""
    missing = piece_problems(state, (), (attacker, target), RULE)
    if missing:
        raise IllegalAction(missing)
    if word not in (None, CHARGE):
        raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION, f"{SHORT_TITLE} has no action {word!r} to "
                                       f"give odds of; its actions: {', '.join(WORDS)}", RULE)])
    g = game_data(state)
    if g.activated != attacker or state.pending is not None or state.phase != PHASE:
        own = g.evolve(activated=attacker, card=f"unit:{attacker}", charge=None)
        side = state.units[attacker].side
        state = state.evolve(phase=PHASE, active=side, decisions=(), result=None, own=own)
    return state, Charge(unit=attacker, target=target)


def default_responses(state: GameState) -> list[Action]:
    """The target stands, and nobody countercharges."""
    pending = state.pending
    if pending is None:
        return []
    if pending.kind == STAND_OR_FIRE:
        return [RespondToCharge(choice="stand")]
    if pending.kind == COUNTERCHARGE:
        return [Countercharge(unit=None)]
    return []


def effects(before: GameState, after: GameState, events: Sequence[Event]) -> dict[str, dict[str, Any]]:
    """Per unit, the morale points one way the charge went cost it (from those it had, or,
    untested before, from those first rolled); units it left alone are not named."""
    out: dict[str, dict[str, Any]] = {}
    for uid, unit in after.units.items():
        lost = points_lost(before.units[uid], unit)
        if lost:
            out[uid] = {MORALE_LOST: lost}
    return out
