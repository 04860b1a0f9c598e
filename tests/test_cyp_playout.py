"""Charge yr Pikes! played through: random players fight whole battles, turn after turn
through every phase to darkness, and a battle replays from its actions and dice."""

from __future__ import annotations

import pytest

from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.dice import ReplayDice, SeededDice
from tertia.core.events import DiceRolled
from tertia.core.game import Game
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.charge import CLOSE
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.phases import ARMY_MORALE, CLOSE_COMBAT, FIRE_STEPS, after_fire
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data

from .test_cyp_setup import scenario

DEGREES = {"indecisive victory", "marginal victory", "tactical victory", "substantial victory",
           "decisive victory", "overwhelming victory", "crushing victory"}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_players_fight_a_battle_to_its_end(seed: int) -> None:
    game = Game(ChargeYrPikes(), scenario())
    record = fight_battle(game, {s: RandomPlayer() for s in game.scenario.side_ids}, seed)
    result = record.final_state.result
    assert result is not None
    # Section 19 D: after ten turns, D6 turns to darkness; then the larger share of
    # casualties loses, and F gives the degree of the victory.
    assert 11 <= record.final_state.turn <= 16
    assert result["breakdown"]["degree"] in DEGREES or result["winner"] is None
    phases = {e.phase for s in record.steps for e in s.events if type(e).__name__ == "PhaseBegan"}
    assert {*FIRE_STEPS, CLOSE_COMBAT, ARMY_MORALE} <= phases


def test_a_battle_replays_from_its_actions_and_dice() -> None:
    game = Game(ChargeYrPikes(), scenario())
    record = fight_battle(game, {s: RandomPlayer() for s in game.scenario.side_ids}, 4)
    dice = ReplayDice(record.rolls)
    state, _ = game.start(dice)
    for step in record.steps:
        state, _ = game.apply(state, step.action, dice)
    assert state == record.final_state


def test_a_locked_melee_is_fought_on_next_turn_without_tests_to_close() -> None:
    # 12 G: "If both pass morale, the units are locked into the melee which continues in
    # the next turn."
    game = Game(ChargeYrPikes(), scenario())
    state, _ = game.start(SeededDice(1))
    foot, enemy = state.units["k-foot"], state.units["p-foot"]
    state = state.with_unit(enemy.evolve(x=30.0, y=foot.y + foot.depth / 2 + enemy.depth / 2))
    locked = ((foot.id, enemy.id, foot.x, foot.y, foot.facing, 0),)
    state = state.evolve(own=game_data(state).evolve(locked=locked, charges=()))
    tx = Tx(game.table, state, SeededDice(2))
    after_fire(tx, tables_of(state), {})
    purposes = [e.purpose for e in tx.events if isinstance(e, DiceRolled)]
    assert any(p.startswith("close combat: king") for p in purposes)
    assert not [e for e in tx.events if isinstance(e, MoraleTested) and e.why == CLOSE]
