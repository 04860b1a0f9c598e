"""A rule set's cheap test of refusal (``RuleSet.surely_refused``) refuses only what
``validate`` refuses, so ``Game.is_legal`` answers alike with it and without it."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from tertia.ai.doctrine import BaselinePlayer
from tertia.battle import fight_battle
from tertia.core.actions import Action, Move
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.rulesets import get_ruleset
from tertia.scenarios import resolve_scenario

REFUSING = [("d3-commands", "edgehill", 20), ("d3-cards", "chalgrove", 10)]
"""The rule sets with a test of their own, each with a battle and the least it refuses
there (the baseline doctrine's battle, as golden transcripts are: a later doctrine leaves
it as it was)."""


@pytest.mark.parametrize(("rules", "scenario", "least"), REFUSING)
def test_what_is_surely_refused_is_refused(rules: str, scenario: str, least: int) -> None:
    """The same battle with the test and without it, every action it refuses refused by
    ``validate`` too."""
    records = []
    refused = [0]
    for cheap in (False, True):
        ruleset = get_ruleset(rules)
        game = Game(ruleset, resolve_scenario(scenario, rules_id=rules))
        surely = ruleset.surely_refused

        def checked(table: Battlefield, state: GameState, action: Action, cheap: bool = cheap,
                    surely: Callable[[Battlefield, GameState, Action], bool] = surely,
                    ruleset: RuleSet = ruleset) -> bool:
            found = cheap and surely(table, state, action)
            if found:
                assert ruleset.validate(table, state, action), action
                refused[0] += 1
            return found

        ruleset.surely_refused = checked  # type: ignore[method-assign]
        records.append(fight_battle(game, {side: BaselinePlayer() for side in game.scenario.side_ids}, 2))
    plain, cheap = records
    assert [s.action for s in plain.steps] == [s.action for s in cheap.steps]
    assert plain.final_state.state_hash() == cheap.final_state.state_hash()
    assert refused[0] >= least, refused[0]


@pytest.mark.parametrize("rules", [rules for rules, _, _ in REFUSING])
def test_a_move_the_cheap_test_cannot_read_is_left_to_validate(rules: str) -> None:
    game = Game(get_ruleset(rules), resolve_scenario("edgehill", rules_id=rules))
    state, _ = game.start(SeededDice(1))
    unit = next(iter(state.units))
    for move in (Move(unit="nobody", waypoints=((1.0, 1.0),)), Move(unit=unit, waypoints=((math.nan, 1.0),)),
                 Move(unit=unit, waypoints=(), face_before=math.inf)):
        assert not game.ruleset.surely_refused(game.table, state, move)
        assert not game.is_legal(state, move)
