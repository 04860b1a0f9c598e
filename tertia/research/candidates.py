"""The actions a side is offered at one decision: a finite list on a free table.

A free-movement table has no finite list of moves, so each decision gets a list of its
own: ending the phase, then what the rule set's proposer suggests (the random player's
source, :meth:`RandomPlayer.iter_proposals
<tertia.ai.random_player.RandomPlayer.iter_proposals>`), each once, keeping those legal,
the first ``limit`` of them.

The list is made on the side's own view with its secrets sampled (:meth:`Game.playable_state
<tertia.core.game.Game.playable_state>`), never on the true position, and every stream it
draws on is seeded from the battle's seed, the side and the number of actions taken so
far, all of which the side knows: two positions the side cannot tell apart give it the
same list.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from tertia.ai.random_player import RandomPlayer
from tertia.core.actions import Action, EndPhase
from tertia.core.dice import derive_seed
from tertia.core.game import Game
from tertia.core.state import GameState


@dataclass(frozen=True)
class Candidates:
    """What ``side`` is offered after ``step`` actions: ``actions``, each legal on
    ``playable`` (the side's view with its secrets sampled), in a fixed order."""

    side: str
    step: int
    playable: GameState
    actions: tuple[Action, ...]


def candidates_for(game: Game, state: GameState, side: str, seed: int, limit: int) -> Candidates:
    """The first ``limit`` legal candidates of ``side`` in ``state`` (none unless the game
    awaits ``side``), drawn with streams made from ``seed``."""
    playable = game.playable_state(state, side, derive_seed(seed, "research view", side, state.step))
    if state.is_over or state.to_act != side:
        return Candidates(side, state.step, playable, ())
    rng = random.Random(derive_seed(seed, "research candidates", side, state.step))
    proposed = RandomPlayer().iter_proposals(game, playable, rng)
    found: list[Action] = []
    seen: set[str] = set()
    for action in (EndPhase(), *proposed):
        key = json.dumps(action.to_dict(), sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        if game.is_legal(playable, action):
            found.append(action)
            if len(found) == limit:
                break
    return Candidates(side, state.step, playable, tuple(found))
