"""A rule set's computer players, found through the rule set's own declaration
(``RuleSet.AI``, an :class:`~tertia.core.ai_spec.AiSpec`) rather than tables keyed by id."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from functools import cache
from typing import Any, cast

from tertia.ai.player import Player
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.ruleset import RuleSet
from tertia.core.state import GameState

Proposer = Callable[[Game, GameState, random.Random], list[Action]]
"""Candidate actions for the side the state awaits (the engine judges each)."""


class NoAi(ValueError):
    """A rule set declares no computer player, or one that cannot be found."""


@cache
def resolve(reference: str) -> Any:
    """The object a ``"module:attribute"`` reference names; :class:`NoAi` naming the
    reference when it names nothing."""
    module_name, _, attribute = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise NoAi(f"cannot import {module_name!r} for {reference!r}: {exc}") from None
    found = getattr(module, attribute, None)
    if found is None or not callable(found):
        raise NoAi(f"{module_name!r} has no callable {attribute!r} ({reference!r})")
    return found


def _spec(ruleset: RuleSet, what: str) -> str:
    spec = ruleset.AI
    if spec is None:
        raise NoAi(f"{ruleset.id} declares no computer players (RuleSet.AI), so no {what} can play it")
    found = getattr(spec, what)
    if found is None:
        raise NoAi(f"{ruleset.id} has no {what} player yet")
    return str(found)


def proposer_for(ruleset: RuleSet) -> Proposer:
    """The random player's source of candidate actions under ``ruleset``."""
    return cast(Proposer, resolve(_spec(ruleset, "proposer")))


def doctrine_for(ruleset: RuleSet) -> Callable[[], Player]:
    """The factory of ``ruleset``'s scripted (doctrine) player."""
    return cast(Callable[[], Player], resolve(_spec(ruleset, "doctrine")))


def baseline_for(ruleset: RuleSet) -> Callable[[], Player]:
    """The factory of ``ruleset``'s doctrine in its first edition (``AiSpec.baseline``):
    the doctrine itself while it has no later edition."""
    return _edition_or_doctrine(ruleset, None if ruleset.AI is None else ruleset.AI.baseline)


def second_edition_for(ruleset: RuleSet) -> Callable[[], Player]:
    """The factory of ``ruleset``'s doctrine in its second edition, while that is not yet
    the doctrine (``AiSpec.second_edition``): the doctrine itself where it has none."""
    return _edition_or_doctrine(ruleset, None if ruleset.AI is None else ruleset.AI.second_edition)


def _edition_or_doctrine(ruleset: RuleSet, reference: str | None) -> Callable[[], Player]:
    if reference is None:
        return doctrine_for(ruleset)
    return cast(Callable[[], Player], resolve(reference))
