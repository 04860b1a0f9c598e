"""A player that picks uniformly among sampled legal actions: a baseline and a fuzzer."""

from __future__ import annotations

import random

from tertia.ai.lookup import proposer_for
from tertia.ai.player import NoLegalAction
from tertia.core.actions import Action, EndPhase
from tertia.core.game import Game
from tertia.core.state import GameState

__all__ = ["NoLegalAction", "RandomPlayer"]


class RandomPlayer:
    """Proposes a spread of actions, keeps those ``validate`` accepts, and picks one.
    Ending the phase is one of them, taken a quarter of the time (``end_phase_weight``)
    when no decision is awaited, but only when the rules allow it: while declared attacks
    are still to be fought, for one, they do not."""

    name = "random"

    def __init__(self, end_phase_weight: float = 0.25) -> None:
        self.end_phase_weight = end_phase_weight

    def iter_proposals(self, game: Game, state: GameState, rng: random.Random) -> list[Action]:
        """A spread of candidate actions, by the proposer the rule set declares (``RuleSet.AI``)."""
        return proposer_for(game.ruleset)(game, state, rng)

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        legal = [a for a in self.iter_proposals(game, state, rng) if game.is_legal(state, a)]
        end = EndPhase()
        if game.is_legal(state, end) and (
                not legal or (state.pending is None and rng.random() < self.end_phase_weight)):
            return end
        if not legal:
            raise NoLegalAction(
                f"no candidate of {game.ruleset.id} is legal for {state.to_act} at step {state.step}, "
                f"nor is ending the phase: {'; '.join(v.message for v in game.validate(state, end))}")
        return rng.choice(legal)
