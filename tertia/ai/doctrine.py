"""The scripted (doctrine) player for whichever rule set is played: each rule set keeps its
own doctrine in its package and names it in its ``AI`` declaration."""

from __future__ import annotations

import random
from collections.abc import Callable

from tertia.ai.lookup import baseline_for, doctrine_for, second_edition_for
from tertia.ai.player import Player
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState


class DoctrinePlayer:
    """The scripted general, for whichever rule set is played: the doctrine the rule set
    declares (``RuleSet.AI``), one instance per rule set so each keeps its own memory."""

    name = "doctrine"

    def __init__(self) -> None:
        self._by_rules: dict[str, Player] = {}

    def _factory(self, ruleset: RuleSet) -> Callable[[], Player]:
        return doctrine_for(ruleset)

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        rules = game.ruleset.id
        player = self._by_rules.get(rules)
        if player is None:
            player = self._by_rules[rules] = self._factory(game.ruleset)()
        return player.choose(game, state, rng)


class BaselinePlayer(DoctrinePlayer):
    """The doctrine's first edition, for whichever rule set is played (``AiSpec.baseline``;
    the doctrine itself where it has no later edition): kept by name to measure later
    editions against, and to play the golden transcripts, which pin the rules, not the
    doctrine."""

    name = "baseline"

    def _factory(self, ruleset: RuleSet) -> Callable[[], Player]:
        return baseline_for(ruleset)


class SecondEditionPlayer(DoctrinePlayer):
    """The doctrine's second edition where a rule set has one not yet made its doctrine
    (``AiSpec.second_edition``), else the doctrine: the ``doctrine-2`` player."""

    name = "doctrine-2"

    def _factory(self, ruleset: RuleSet) -> Callable[[], Player]:
        return second_edition_for(ruleset)
