"""Candidate actions for ``d3-cards``, for the random player to choose among: the D3 rule
sets' shared ones (:mod:`tertia.rulesets.d3.ai.proposals`) and a rally by each activated
commander of each friend he touches. The engine judges every one."""

from __future__ import annotations

import random

from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rulesets.d3.ai import proposals as shared
from tertia.rulesets.d3.contact import in_contact
from tertia.rulesets.d3_cards.commanders import Rally


def iter_proposals(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Candidates for the side the state awaits, from its own observation."""
    return shared.iter_proposals(game, state, rng, extras=rallies)


def rallies(view: GameState, unit: Unit) -> list[Action]:
    """A commander's rally of each friend in contact with him."""
    if not unit.is_commander:
        return []
    return [Rally(commander=unit.id, unit=f.id) for f in view.iter_troops(unit.side) if in_contact(unit, f)]
