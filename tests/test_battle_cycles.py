"""A battle makes no reference cycles, under every rule set: ``fight_battle`` pauses
Python's cyclic collector while it fights (``battle.collector_paused``), which is sound
only while reference counting alone frees all that a battle drops."""

from __future__ import annotations

import gc

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios import resolve_scenario

CASES = [("skirmish", "larger-battles"), ("edgehill", "d3-commands"), ("chalgrove", "d3-cards"),
         ("roundway_down", "declare-thee-sir"), ("edgehill", "charge-yr-pikes")]


@pytest.mark.parametrize(("scenario", "rules"), CASES)
def test_a_battle_leaves_no_cyclic_garbage(scenario: str, rules: str) -> None:
    game = Game(get_ruleset(rules), resolve_scenario(scenario, rules_id=rules))
    players = {side: DoctrinePlayer() for side in game.scenario.side_ids}
    fight_battle(game, players, 1)  # imports and caches first
    gc.collect()
    gc.disable()
    try:
        record = fight_battle(game, players, 2)
        assert record.steps
        del record
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_collector_runs_again_after_a_battle() -> None:
    game = Game(get_ruleset("larger-battles"), resolve_scenario("skirmish", rules_id="larger-battles"))
    assert gc.isenabled()
    fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 1)
    assert gc.isenabled() and gc.get_freeze_count() == 0
