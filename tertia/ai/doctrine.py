"""The scripted (doctrine) player for whichever rule set is played: each rule set keeps its
own doctrine in its package and names it in its ``AI`` declaration."""

from __future__ import annotations

import random

from tertia.ai.lookup import doctrine_for
from tertia.ai.player import Player
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState


class DoctrinePlayer:
    """The scripted general, for whichever rule set is played: the doctrine the rule set
    declares (``RuleSet.AI``), one instance per rule set so each keeps its own memory."""

    name = "doctrine"

    def __init__(self) -> None:
        self._by_rules: dict[str, Player] = {}

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        rules = game.ruleset.id
        player = self._by_rules.get(rules)
        if player is None:
            player = self._by_rules[rules] = doctrine_for(game.ruleset)()
        return player.choose(game, state, rng)
