"""The example rule set's odds: a rule set from outside the engine asked "what are my odds"
through the same machinery as the shipped ones (its word, its readied position, its
default answers to the decisions a charge awaits, its own measures), exactly and against
the dice the playing code rolls."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.odds import odds
from tertia.core.dice import SeededDice
from tertia.core.violations import CoreCode, IllegalAction
from tests.example_rules.data import Charge, Countercharge, RespondToCharge
from tests.example_rules.odds import default_responses

from .example_support import P, R, make_game, registered, unit

__all__ = ["registered"]

pytestmark = pytest.mark.usefixtures("registered")


def duel():  # type: ignore[no-untyped-def]
    """Two regiments of foot a stand strong, 2" apart, nobody else near."""
    return make_game([unit("ph", P, "foot", 20, 10), unit("rf", R, "foot", 20, 13, 180)],
                     {"ph": {"stands": 1}, "rf": {"stands": 1}})


def with_morale(state, points: int = 2):  # type: ignore[no-untyped-def]
    """Both regiments' morale already tested (good, ``points``): a charge between them is
    walked within the odds' budget (the move, the test to close, the melee, the push-back
    and the rout)."""
    for uid in ("ph", "rf"):
        state = state.with_unit(state.units[uid].evolve(morale=points, morale_max=points))
    return state


def test_a_charge_is_asked_with_the_chargers_card_drawn() -> None:
    game = duel()
    state, _ = game.start(SeededDice(1))
    asked, action = game.ruleset.query(state, "charge", "ph", "rf")
    assert action == Charge(unit="ph", target="rf") and game.is_legal(asked, action)
    same, _ = game.ruleset.query(state, None, "ph", "rf")
    assert same.units == asked.units


@pytest.mark.parametrize(("word", "attacker", "message"), [
    ("volley", "ph", "Example slice has no action 'volley' to give odds of; its actions: charge"),
    ("charge", "nobody", "there is no unit 'nobody'"),
])
def test_an_unknown_word_or_unit_is_refused_by_name(word: str, attacker: str, message: str) -> None:
    game = duel()
    state, _ = game.start(SeededDice(1))
    with pytest.raises(IllegalAction) as refused:
        game.ruleset.query(state, word, attacker, "rf")
    assert refused.value.violations[0].code in (CoreCode.UNKNOWN_ACTION, CoreCode.UNKNOWN_UNIT)
    assert refused.value.violations[0].message == message


def test_the_target_stands_and_nobody_countercharges_by_default() -> None:
    game = duel()
    state, _ = game.start(SeededDice(1))
    asked, action = game.ruleset.query(state, "charge", "ph", "rf")
    after, _ = game.apply(asked, action, SeededDice(1))
    assert default_responses(after) == [RespondToCharge(choice="stand")]
    assert default_responses(asked) == []
    countered = after.evolve(decisions=(after.decisions[0].__class__(R, "countercharge", {}),))
    assert default_responses(countered) == [Countercharge(unit=None)]


def test_the_odds_of_a_charge_are_exact_and_sum_to_one() -> None:
    """Every outcome with its exact chance: they sum to one; the charger breaks the foot
    (which leaves play, routed) as often as the summary says, and each side's morale
    points lost are a distribution of their own."""
    game = duel()
    state, _ = game.start(SeededDice(1))
    asked, action = game.ruleset.query(with_morale(state), "charge", "ph", "rf")
    result = odds(game, asked, action)
    assert sum(o.probability for o in result.outcomes) == 1
    routed = sum((o.probability for o in result.outcomes
                  if o.effects.get("rf", {}).get("removed") == "routed"), Fraction(0))
    assert routed > 0 and result.summary["target_routed_exact"] == routed
    lost = result.summary["target_morale_lost_exact"]
    assert sum(lost.values()) == 1 and set(lost) == {"0", "1"}


def test_a_seeded_sample_of_charges_agrees_with_the_exact_odds() -> None:
    """The charge played 600 times with seeded dice, the target standing and nobody
    countercharging: the share of charges that broke the target lies within four standard
    errors of the exact chance."""
    game = duel()
    state, _ = game.start(SeededDice(1))
    asked, action = game.ruleset.query(with_morale(state), "charge", "ph", "rf")
    exact = odds(game, asked, action).summary["target_routed_exact"]
    plays = 600
    broken = 0
    for seed in range(plays):
        dice = SeededDice(seed)
        now, _ = game.apply(asked, action, dice)
        while answers := default_responses(now):  # the charge's own decisions, answered
            now, _ = game.apply(now, answers[0], dice)
        broken += not now.units["rf"].in_play
    error = (float(exact) * (1 - float(exact)) / plays) ** 0.5
    assert abs(broken / plays - float(exact)) <= 4 * error
