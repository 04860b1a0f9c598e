"""Candidate actions for the D3 rule sets (``d3-commands``, ``d3-cards``): a spread of
moves, charges, shots, melees and rallies for the random player to choose among, and the
answers to the decisions the rules await (card orders, deployment). The engine judges
every one; these only propose.

Only the side's own observation is read, so no proposal depends on the other side's
secret card order.
"""

from __future__ import annotations

import math
import random

from tertia.activation.command_cards import ORDER_KIND, OrderCards
from tertia.ai.moves import Slide
from tertia.ai.observation import playable_view
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.geometry import bearing, first_contact, heading_vector
from tertia.core.state import GameState, Unit
from tertia.rules.fighting import Attack, Shoot
from tertia.rulesets.d3.base import D3RuleSet
from tertia.rulesets.d3.contact import enemy_contacts, in_contact
from tertia.rulesets.d3.troops import MOVE
from tertia.rulesets.d3_cards.commanders import Rally
from tertia.rulesets.d3_commands import deployment

MOVE_SAMPLES = 5
CHARGE_REACH = 16.0


def activated(game: Game, state: GameState) -> list[Unit]:
    ruleset = game.ruleset
    assert isinstance(ruleset, D3RuleSet)
    return [u for u in state.iter_units(state.active) if ruleset.is_activated(state, u)]


def answer_pending(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Every kind of decision the D3 rule sets await: a random card order, or places near
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


def charge_towards(state: GameState, unit: Unit, target: Unit, aim: tuple[float, float]) -> Move | None:
    """A straight move at ``aim`` (pivoting first to face it) that stops as it touches
    the first base in its way; None when that base is not ``target``."""
    heading = bearing((unit.x, unit.y), aim)
    direction = heading_vector(heading)
    facing_aim = unit.base.moved_to(unit.x, unit.y, heading)
    hit = first_contact(facing_aim.corners(), target.base.corners(), direction, 0.0)
    if not math.isfinite(hit) or hit <= 0.0:
        return None
    slide = Slide(facing_aim, direction, hit)
    for other in state.iter_units():
        if other.id not in (unit.id, target.id) and slide.contact(other.base, 0.0) <= hit:
            return None
    stop = max(0.0, hit - 0.01)
    end = (unit.x + direction[0] * stop, unit.y + direction[1] * stop)
    turn = abs(((heading - unit.facing + 180.0) % 360.0) - 180.0)
    return Move(unit=unit.id, waypoints=(end,), face_before=None if turn < 0.5 else heading)


def iter_unit_proposals(game: Game, state: GameState, unit: Unit, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    enemies = list(state.iter_units(state.opponent(unit.side)))
    reach = MOVE[unit.kind]
    for _ in range(MOVE_SAMPLES):
        angle = rng.uniform(0.0, 360.0)
        dist = rng.uniform(0.5, reach)
        turn = rng.choice([None, None, (unit.facing + rng.uniform(-60.0, 60.0)) % 360.0])
        x = unit.x + math.sin(math.radians(angle)) * dist
        y = unit.y + math.cos(math.radians(angle)) * dist
        out.append(Move(unit=unit.id, waypoints=((x, y),), face_before=turn))
    for e in enemies:
        if math.hypot(e.x - unit.x, e.y - unit.y) <= CHARGE_REACH:
            charge = charge_towards(state, unit, e, (e.x, e.y))
            if charge is not None:
                out.append(charge)
        if e.is_commander:
            continue
        out.append(Shoot(unit=unit.id, target=e.id))
    out.extend(Attack(attacker=unit.id, target=e.id) for e in enemy_contacts(state, unit))
    if unit.is_commander:
        out.extend(Rally(commander=unit.id, unit=f.id) for f in state.iter_troops(unit.side)
                   if in_contact(unit, f))
    return out


def iter_proposals(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Candidates for the side the state awaits, from its own observation."""
    view = playable_view(game, state, rng)
    if view.pending is not None:
        return answer_pending(game, view, rng)
    out: list[Action] = []
    for unit in activated(game, view):
        out.extend(iter_unit_proposals(game, view, unit, rng))
    return out
