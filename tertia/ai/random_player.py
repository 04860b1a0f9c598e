"""A player that picks uniformly among sampled legal actions: a baseline and a fuzzer."""

from __future__ import annotations

import random

from tertia.ai.lookup import proposer_for
from tertia.core.actions import Action, EndPhase
from tertia.core.game import Game
from tertia.core.state import GameState


class RandomPlayer:
    """Proposes a spread of actions, keeps those ``validate`` accepts, and picks one."""

    name = "random"

    def __init__(self, end_phase_weight: float = 0.25) -> None:
        self.end_phase_weight = end_phase_weight

    def iter_proposals(self, game: Game, state: GameState, rng: random.Random) -> list[Action]:
        """A spread of candidate actions, by the proposer the rule set declares (``RuleSet.AI``)."""
        return proposer_for(game.ruleset)(game, state, rng)

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        legal = [a for a in self.iter_proposals(game, state, rng) if game.is_legal(state, a)]
        if state.pending is None and (not legal or rng.random() < self.end_phase_weight):
            return EndPhase()
        if not legal:
            return EndPhase()
        return rng.choice(legal)
