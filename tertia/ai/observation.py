"""What a player reasons about: its own observation, with what it cannot see sampled.

A player never reads the true state's secrets. It takes its side's view of the game and
fills every hidden value with a sample consistent with that view
(:meth:`RuleSet.sample_hidden <tertia.core.ruleset.RuleSet.sample_hidden>`), then tries
actions on the result.
"""

from __future__ import annotations

import random

from tertia.core.game import Game
from tertia.core.state import GameState


def playable_view(game: Game, state: GameState, rng: random.Random) -> GameState:
    """The side to act's observation of ``state`` with its hidden values sampled. The
    sampler is a stream of its own, seeded from the step number (public), so sampling
    leaves the player's own stream (``rng``) as it was and reads nothing secret."""
    return game.playable_state(state, state.to_act, state.step)
