"""The interface every player implements, human front ends included."""

from __future__ import annotations

import random
from typing import Protocol

from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState


class Player(Protocol):
    """Chooses the next action for the side the state awaits. ``rng`` is the player's own
    stream, separate from the dice, so changing a player never changes the dice."""

    name: str

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action: ...


class NoLegalAction(RuntimeError):
    """A player found no action the rules allow in a position: the battle cannot go on
    with it (``fight_battle`` stops it in one line, naming the player and side)."""
