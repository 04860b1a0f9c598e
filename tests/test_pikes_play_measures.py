"""The measures ``benchmarks/pikes_play.py`` reports of Charge yr Pikes! battles: which
objectives each side held (19 C), counted battle by battle."""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

import pytest

from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.points import OBJECTIVE, places
from tertia.scenarios import resolve_scenario

from .benchmark_scripts import load_benchmark


@pytest.fixture(scope="module")
def pikes_play() -> ModuleType:
    return load_benchmark("pikes_play")


def test_a_battle_won_by_objectives_counts_every_objective_of_the_victor_held(pikes_play: ModuleType) -> None:
    """19 C: a battle is won by occupying all three objectives, so the victor's three are
    among those held, and each is counted once for the battle."""
    battle = next((b for b in map(pikes_play.fight, (("edgehill", "doctrine", s) for s in range(1, 11)))
                   if b.decided), None)
    assert battle is not None, "no Edgehill battle of seeds 1-10 was decided by objectives"
    held_by = {side for side, _ in battle.objectives_held}
    victors = [side for side in held_by
               if all((side, name) in battle.objectives_held for s, name in battle.objectives if s == side)]
    assert len(victors) == 1
    tally = pikes_play._battles_holding([battle])[victors[0]]
    assert len(tally) == 3 and set(tally.values()) == {1}


def test_an_objective_never_held_is_listed_with_no_battles(pikes_play: ModuleType) -> None:
    """Every objective of each side is listed in the scenario's order, those held in no
    battle with 0, the rest with the battles that held them."""
    blank = pikes_play.Battle(seed=1, decided=False, foot=0, foot_charged=0, foot_in_melee=0, horse_lost=0,
                              fright=(), horse_fielded={}, horse_lost_by={}, most_objectives=0,
                              objectives=(("a", "Y"), ("a", "X"), ("b", "Z")))
    battles = [replace(blank, objectives_held=(("a", "X"),)),
               replace(blank, seed=2, objectives_held=(("a", "X"), ("b", "Z")))]
    tally = pikes_play._battles_holding(battles)
    assert tally == {"a": {"Y": 0, "X": 2}, "b": {"Z": 1}}
    assert list(tally["a"]) == ["Y", "X"]


def test_the_victors_objectives_are_counted_as_the_battle_was_won_not_after_the_pursuit(
        pikes_play: ModuleType) -> None:
    """19 C, E 3: the victor held its three objectives as the turn ended, though its
    pursuers' move forward may carry them off one before the battle's last position (at
    Edgehill, seeds 7 and 10); a battle ended at darkness adds none."""
    scenario = resolve_scenario("edgehill", rules_id="charge-yr-pikes")
    game = Game(get_ruleset("charge-yr-pikes"), scenario)
    pursued_off = at_darkness = None
    for seed in range(1, 11):
        record = fight_battle(game, {side: make_player("doctrine") for side in scenario.side_ids}, seed)
        counted = pikes_play.victors_objectives(record)
        if not pikes_play.won_by_objectives(record):
            at_darkness = at_darkness or record
        elif not set(counted) <= pikes_play.held_at_turns(record):
            pursued_off = pursued_off or record
    assert pursued_off is not None and at_darkness is not None, "seeds 1-10 at Edgehill no longer give both"
    result = pursued_off.final_state.result
    assert result is not None
    victor = result["winner"]
    counted = pikes_play.victors_objectives(pursued_off)
    assert counted == tuple((victor, p.name) for p in places(pursued_off.initial_state, victor, OBJECTIVE))
    assert len(counted) == 3 and set(counted) <= set(pikes_play.objectives_held(pursued_off))
    assert pikes_play.victors_objectives(at_darkness) == ()
