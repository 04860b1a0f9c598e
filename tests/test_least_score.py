"""A rule set that declares the least score a side can have (``RuleSet.LEAST_SCORE``,
the floor of a study's interval of the mean score) keeps to it: under every registered
rule set (the example plugin's included) that declares one, no side ends a battle below
it, doctrine against random both ways round."""

from __future__ import annotations

import pytest

from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import default_scenario, load_named
from tests.plugin_rules import with_plugins


def _floored() -> list[str]:
    with with_plugins():
        return [r for r in ruleset_ids() if get_ruleset(r).LEAST_SCORE is not None]


FLOORED = _floored()


def test_the_rule_sets_whose_points_are_only_won_say_so() -> None:
    """Points only won under both D3 texts, Declare Thee Sir and Charge yr Pikes!; the
    larger-battles text takes points away too, so it declares no least."""
    assert {"d3-commands", "d3-cards", "declare-thee-sir", "charge-yr-pikes"} <= set(FLOORED)
    assert "larger-battles" not in FLOORED


@pytest.mark.parametrize("rules", FLOORED)
def test_no_side_ends_a_battle_below_the_least_score(rules: str) -> None:
    with with_plugins():
        ruleset = get_ruleset(rules)
        floor = ruleset.LEAST_SCORE
        assert floor is not None
        game = Game(ruleset, load_named(default_scenario(rules), rules_id=rules))
        sides = game.scenario.side_ids
        for seed, (first, second) in enumerate((("doctrine", "random"), ("random", "doctrine")), start=1):
            record = fight_battle(game, {sides[0]: make_player(first), sides[1]: make_player(second)}, seed)
            score = (record.final_state.result or {}).get("score", {})
            assert set(score) == set(sides), score
            assert all(points >= floor for points in score.values()), score
