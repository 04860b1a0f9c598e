"""The random player plays only what the rules allow: it picks among the candidates
``validate`` accepts, ending the phase among them only when ending it is legal, so its
battles end rather than abort."""

from __future__ import annotations

import random

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.player import Player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import Step, fight_battle
from tertia.core.actions import Action, EndPhase
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.fighting import Attack
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.combat import declared_attacks, find_declared
from tertia.scenarios import load_builtin

GAMES = 20
"""Edgehill under larger-battles, random against doctrine: with ending the phase chosen
unchecked, 3 of these 20 aborted while declared attacks were still to be fought."""


class LegalOnly:
    """Wraps a player: every action it chooses must be one ``validate`` accepts."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        action = self.inner.choose(game, state, rng)
        assert game.validate(state, action) == [], f"{self.name} chose an illegal {action}"
        return action


def edgehill() -> Game:
    return Game(get_ruleset("larger-battles"), load_builtin("edgehill"))


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_against_doctrine_at_edgehill_never_aborts(seed: int) -> None:
    game = edgehill()
    first, second = game.scenario.side_ids
    randomly = first if seed % 2 else second
    players: dict[str, Player] = {side: LegalOnly(RandomPlayer() if side == randomly else DoctrinePlayer())
                                  for side in (first, second)}
    record = fight_battle(game, players, seed)
    assert record.final_state.is_over and record.final_state.result is not None


def _declared_and_unfought() -> tuple[Game, GameState]:
    """The first position of a doctrine battle at Edgehill in which the side to act has
    declared attacks it has still to fight."""
    game = edgehill()
    found: list[GameState] = []

    def look(step: Step) -> None:
        if not found and step.state.pending is None and declared_attacks(step.state):
            found.append(step.state)

    fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 1, on_step=look)
    assert found, "no declared attacks in the battle"
    return game, found[0]


def test_the_phase_is_not_ended_while_declared_attacks_wait() -> None:
    """Larger-battles, Combat: declared attacks are fought before the phase ends. A random
    player that would always end the phase fights one of them instead (named by its
    primary and target: the declaration holds its supports)."""
    game, state = _declared_and_unfought()
    assert not game.is_legal(state, EndPhase())
    always_end = RandomPlayer(end_phase_weight=1.0)
    for seed in range(10):
        choice = always_end.choose(game, state, random.Random(seed))
        assert game.validate(state, choice) == []
        assert isinstance(choice, Attack) and find_declared(declared_attacks(state), choice) is not None


def test_the_phase_is_ended_when_the_rules_allow_and_the_draw_says_so() -> None:
    game = edgehill()
    state, _ = game.start(SeededDice(1))
    assert state.pending is None and game.is_legal(state, EndPhase())
    assert RandomPlayer(end_phase_weight=1.0).choose(game, state, random.Random(0)) == EndPhase()
    assert RandomPlayer(end_phase_weight=0.0).choose(game, state, random.Random(0)) != EndPhase()
