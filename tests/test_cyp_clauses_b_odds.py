"""Charge yr Pikes!' exact odds (row 105) pinned from both sides: what a question's answer
is taken for, how an outcome is read and told, what is refused, and which pieces a side's
odds put off the table."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.hidden import place_hidden
from tertia.core.ruleset import ActionOver, Tx
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rulesets import registered
from tertia.rulesets.charge_yr_pikes import concealment
from tertia.rulesets.charge_yr_pikes import odds as cyp_odds
from tertia.rulesets.charge_yr_pikes.charge import CLOSE
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_dice_support import ByPurpose
from .test_cyp_odds import _facing, _game
from .test_cyp_setup import scenario


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    with registered(ChargeYrPikes):
        yield


def _rated(state: GameState) -> GameState:
    return _facing(state, 3.0, morale=3, morale_max=3)


@pytest.mark.parametrize("word", ["fire", "charge", "morale"])
def test_a_questions_answer_ends_with_the_question(word: str) -> None:
    """The odds are of the action alone: the answer worked out for them stops when the
    question's own consequences are done (``ActionOver``), before what the rules do next."""
    game, state = _game()
    ready, question = game.ruleset.query(_rated(state), word, "k-foot", "p-foot")
    tx = Tx(game.table, ready, ByPurpose({}, otherwise="max"), ends_with_action=True)
    with pytest.raises(ActionOver):
        game.ruleset.resolve(tx, question)


@pytest.mark.parametrize(("attacker", "word"), [("k-foot", "fire"), ("k-horse", "charge")])
def test_the_word_asked_by_default_is_fire_for_a_unit_that_fires_else_charge(attacker: str,
                                                                              word: str) -> None:
    """Asked with no word: a unit that fires (muskets, a battery, a galloper) is asked about
    its fire; one that does not (horse) about its charge."""
    game, state = _game()
    _, question = game.ruleset.query(_rated(state), None, attacker, "p-foot")
    assert isinstance(question, cyp_odds.Question) and question.word == word


@pytest.mark.parametrize(("target", "why"), [("p-foot", "facing p-foot"), ("k-horse", "a morale test")])
def test_a_morale_question_tests_facing_the_enemy_named_or_plainly(target: str, why: str) -> None:
    """11: the unit tests "facing" the enemy unit the question names; naming a friend, it
    takes a plain morale test."""
    game, state = _game()
    ready, question = game.ruleset.query(_rated(state), "morale", "k-foot", target)
    label = ready.units[target].label
    tx = Tx(game.table, ready, ByPurpose({}, otherwise="max"))
    game.ruleset.resolve(tx, question)
    tested = [e.why for e in tx.events if isinstance(e, MoraleTested)]
    assert tested == [why.replace("p-foot", label)]


def _tested(unit: str, why: str, passed: bool) -> MoraleTested:
    return MoraleTested(unit=unit, why=why, rating=3, die=6 if passed else 1, modifiers=(), total=9 if passed
                        else 4, passed=passed)


@pytest.mark.parametrize(("passes", "passed"), [((True,), True), ((False,), False), ((True, False), False),
                                                ((False, True), False), ((True, True), True)])
def test_a_unit_passes_in_an_outcome_only_if_it_passed_every_test(passes: tuple[bool, ...],
                                                                  passed: bool) -> None:
    """An outcome says a unit passed its morale test only when it passed each it took in
    that outcome (a test to close, then one as a defender, say)."""
    _, state = _game()
    events = [_tested("k-foot", "fired on", p) for p in passes]
    found = cyp_odds.effects(state, state, events)
    assert bool(found.get("k-foot", {}).get(cyp_odds.PASSED)) is passed


def test_a_unit_failing_its_test_to_close_halts_and_does_not_pass() -> None:
    _, state = _game()
    found = cyp_odds.effects(state, state, [_tested("k-foot", CLOSE, False)])
    assert found == {"k-foot": {cyp_odds.STOPPED: True}}


def test_an_outcome_is_told_by_the_units_names() -> None:
    """The answer names each unit as the table does (its label, not its id), says it passes
    its test, and counts no figure it did not lose."""
    _, state = _game()
    foot = state.units["k-foot"].evolve(name="Prince Rupert's Bluecoats")
    state = state.with_unit(foot)
    told = cyp_odds.describe(state, {"k-foot": {cyp_odds.PASSED: True}})
    assert told == f"{foot.label} passes its morale test"
    assert foot.label != "k-foot"
    assert cyp_odds.describe(state, {"k-foot": {cyp_odds.FIGURES_LOST: 2}}) == f"{foot.label} loses 2 figures"


def test_the_refusal_of_details_names_the_first_it_does_not_take() -> None:
    """An odds question under this rule set takes no details: the refusal names the first
    of those given, in order."""
    game, state = _game()
    with pytest.raises(IllegalAction, match="takes no 'alpha'"):
        game.ruleset.query(state, "fire", "k-foot", "p-foot", {"zeta": 1, "alpha": 2})


def test_a_sides_odds_put_off_the_table_only_the_enemy_pieces_hidden_from_it() -> None:
    """What a side works out from its view does not count on pieces it cannot see: the
    enemy's pieces hidden from it are taken off the table with only their order of battle;
    its own pieces, placed or still to be placed, are left as they are."""
    game = Game(ChargeYrPikes(), scenario())
    start, _ = game.start(SeededDice(1))
    view = concealment.hide(game.table, start, "king")
    hidden = view.units["p-foot"]
    assert hidden.removed == concealment.UNPLACED and place_hidden(hidden)
    own_unplaced: Any = view.units["k-foot"].evolve(removed=concealment.UNPLACED)
    view = view.with_unit(own_unplaced)
    seen = concealment.unseen_off_table(view)
    assert seen.units["k-foot"] is view.units["k-foot"] and seen.units["k-horse"] is view.units["k-horse"]
    off = seen.units["p-foot"]
    assert "position" not in off.extra and (off.x, off.y, off.width) == (0.0, 0.0, 0.0)
    assert unit_data(off).troop == unit_data(hidden).troop
