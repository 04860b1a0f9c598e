"""Candidate actions for ``d3-commands``, for the random player to choose among: the D3
rule sets' shared ones (:mod:`tertia.rulesets.d3.ai.proposals`) and the answers to the
decisions its rules await, a random order of its command cards or places near the
scenario's position for the next piece to deploy. The engine judges every one.

Only the side's own observation is read, so no proposal depends on the other side's
secret card order.
"""

from __future__ import annotations

import random

from tertia.activation.command_cards import ORDER_KIND, OrderCards
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.d3.ai import proposals as shared
from tertia.rulesets.d3_commands import deployment


def iter_proposals(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Candidates for the side the state awaits, from its own observation."""
    return shared.iter_proposals(game, state, rng, answers=answer_pending)


def answer_pending(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Every kind of decision d3-commands awaits: a random card order, or places near
    the scenario's position for the next piece to deploy."""
    pending = state.pending
    assert pending is not None
    if pending.get("kind") == ORDER_KIND:
        order = [str(c) for c in pending.get("cards", ())]
        rng.shuffle(order)
        return [OrderCards(order=tuple(order))]
    if pending.get("kind") == deployment.KIND:
        uid = str(pending["units"][0])
        wanted = 1 + rng.randrange(3)
        found: list[Action] = []
        for place in iter_deploy_places(game, state, uid):
            if len(found) >= wanted:
                break
            if game.is_legal(state, place):
                found.append(place)
        return found
    return []


def iter_deploy_places(game: Game, state: GameState, uid: str) -> list[deployment.Deploy]:
    """Places to try for a piece: near its scenario position first, then every 2" across
    the table (the rules judge each)."""
    near = deployment.suggestions(state.units[uid], scenario_position(game, uid))
    table = game.table
    grid = [deployment.Deploy(unit=uid, x=float(x), y=float(y))
            for x in range(2, int(table.width) - 1, 2) for y in range(2, int(table.depth) - 1, 2)]
    return [*near, *grid]


def scenario_position(game: Game, uid: str) -> tuple[float, float]:
    for spec in game.scenario.units:
        if spec.id == uid:
            return (spec.x, spec.y)
    for c in game.scenario.commanders:
        if c.id == uid:
            return (c.x, c.y)
    raise KeyError(uid)
