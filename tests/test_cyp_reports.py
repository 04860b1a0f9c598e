"""Charge yr Pikes! beside the table: the turn in brief and a unit's card, morale reading
"untested" until the unit first tests."""

from __future__ import annotations

from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes

from .test_cyp_setup import scenario


def test_a_units_card_says_untested_until_it_tests_and_counts_its_figures() -> None:
    game = Game(ChargeYrPikes(), scenario())
    state, _ = game.start(ScriptedDice([4, 1, 1, 5]))
    card = game.unit_report(state, "k-foot")
    assert card["morale"] == "untested"
    assert (card["figures"], card["pike"], card["shot"], card["stands"]) == (32, 16, 16, 8)
    tested = state.with_unit(state.units["k-foot"].evolve(morale=2, shot=13))
    card = game.unit_report(tested, "k-foot")
    assert (card["morale"], card["lost"], card["shot_stands_firing"]) == (2, 3, 3)
    assert game.unit_report(state, "k-gen")["grade"] == "natural_born_leader"


def test_the_turn_in_brief_names_the_card_and_who_may_move() -> None:
    game = Game(ChargeYrPikes(), scenario())
    state, _ = game.start(ScriptedDice([4, 1, 1, 5]))
    brief = game.ruleset.summary(state)
    assert brief["card"] == "group:k1:king" and brief["moving"] == ["k-foot"]
    assert brief["cards_left"] == 6 and brief["losses_percent"] == {"king": 0.0, "parl": 0.0}
