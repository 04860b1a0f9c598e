"""Candidate actions for Charge yr Pikes!, for the random player to pick among (the
engine judges each): on a free move card, each tertia; on a card, a spread of moves within
each moving unit's allowance, its formations, mounting or dismounting, and a charge at
each enemy unit (a charged unit: its tests to move away or reform, and turning to meet
each charger); on the Officers & Artillery card, officers joining the units they touch
and leaving the front ranks they are in; in a fire step, an order at each enemy unit
within its fire's reach for each unit that may fire; in the bonus moves, moves and
breakthroughs for each unit owed one.
Ending the card or the orders is always among them; in a secret deployment, being done and
a few small shifts. Only the side's own observation is read, the enemy pieces it cannot see
sampled."""

from __future__ import annotations

import math
import random

from tertia.activation.deck import read_card
from tertia.ai.observation import playable_view
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes import phases
from tertia.rulesets.charge_yr_pikes.actions import (
    Breakthrough,
    Charge,
    FireOrder,
    GiveFreeMove,
    JoinFrontRank,
    LeaveFrontRank,
    MoraleToMove,
    Mount,
    Reform,
    TurnToMeet,
)
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES, owed
from tertia.rulesets.charge_yr_pikes.cards import OFFICERS_AND_ARTILLERY, tertias
from tertia.rulesets.charge_yr_pikes.concealment import DEPLOY, Deploy, DeploymentDone
from tertia.rulesets.charge_yr_pikes.data import FORMATIONS
from tertia.rulesets.charge_yr_pikes.deployment import tertia_groups, together
from tertia.rulesets.charge_yr_pikes.fire import longest_reach
from tertia.rulesets.charge_yr_pikes.front_rank import touches
from tertia.rulesets.charge_yr_pikes.movement import allowance
from tertia.rulesets.charge_yr_pikes.reaction import PURPOSES, chargers_of
from tertia.rulesets.charge_yr_pikes.tables import tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

MOVE_SAMPLES = 6


def iter_proposals(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Candidates for the side the state awaits, from its own observation."""
    state = playable_view(game, state, rng)  # its own observation, what it cannot see sampled
    g = game_data(state)
    side = state.to_act
    if state.pending is not None and state.pending.kind == DEPLOY:
        return [DeploymentDone(), *_deploys(state, side, rng)]
    if state.pending is not None:
        return [GiveFreeMove(tertia=t) for t in tertias(state, side)]
    out: list[Action] = [EndPhase()]
    enemies = list(state.iter_troops(state.opponent(side)))
    tables = tables_of(state)
    if g.step == BONUS_MOVES:
        for unit_id in owed(state, side):
            unit = state.units[unit_id]
            out += [Breakthrough(unit=unit_id, target=e.id) for e in enemies]
            out += _moves(unit, allowance(tables, unit_data(unit), on_road=False) or 0.0, rng)
        return out
    if g.step is not None:
        for unit in phases.shooters(state, side, g.step):
            own = unit_data(unit)
            kinds = (("galloper",) if own.gun == "galloper" else
                     ("ball", "canister") if own.is_gun else ("musket",))
            reach = longest_reach(unit, tables_of(state))
            out += [FireOrder(unit=unit.id, target=e.id, kind=k) for e in enemies
                    if base_distance(unit.base, e.base) <= reach + 1e-6 for k in kinds]
        return out
    out += _front_ranks(state, side)
    for unit_id in g.moving:
        unit = state.units[unit_id]
        own = unit_data(unit)
        chargers = chargers_of(state, unit_id)
        out += [MoraleToMove(unit=unit_id, purpose=p) for p in PURPOSES if chargers]
        out += [TurnToMeet(unit=unit_id, attacker=c) for c in chargers]
        out += [Charge(unit=unit_id, target=e.id) for e in enemies]
        out += [Reform(unit=unit_id, formation=f) for f in FORMATIONS]
        if own.troop == "dragoons":
            out.append(Mount(unit=unit_id, mounted=not own.mounted))
        out += _moves(unit, allowance(tables, own, on_road=False) or 0.0, rng)
    return out


def _front_ranks(state: GameState, side: str) -> list[Action]:
    """On the side's Officers & Artillery card: each free officer joining each friendly
    unit he touches, and each officer in a front rank leaving it (the engine judges which
    he may)."""
    card = game_data(state).card
    if card is None or read_card(card).name != OFFICERS_AND_ARTILLERY:
        return []
    out: list[Action] = []
    troops = [u for u in state.iter_troops(side) if not unit_data(u).is_officer]
    for officer in state.iter_units(side):
        own = unit_data(officer)
        if not own.is_officer:
            continue
        if own.attached_to is not None:
            out.append(LeaveFrontRank(officer=officer.id))
        else:
            out += [JoinFrontRank(officer=officer.id, unit=u.id) for u in troops
                    if touches(officer, u)]
    return out


def _deploys(state: GameState, side: str, rng: random.Random) -> list[Action]:
    """A few pieces of the side shifted a little from where they stand, each shift kept
    only where the piece's tertia stays together: one taken more than 6" from the rest
    could make being done illegal for good (Tertias and officers 4 A)."""
    pieces = [u for u in state.iter_units(side) if unit_data(u).attached_to not in state.units]
    groups = tertia_groups(state, side)
    out: list[Action] = []
    for u in rng.sample(pieces, min(2, len(pieces))):
        x, y = u.x + rng.uniform(-2.0, 2.0), u.y + rng.uniform(-2.0, 2.0)
        group = groups.get(u.command, [])
        if any(v.id == u.id for v in group) and not together(
                [u.evolve(x=x, y=y) if v.id == u.id else v for v in group]):
            continue
        out.append(Deploy(unit=u.id, x=x, y=y))
    return out


def _moves(unit: Unit, reach: float, rng: random.Random) -> list[Action]:
    """A spread of moves within ``reach``, mostly ahead, a few to the rear."""
    out: list[Action] = []
    for _ in range(MOVE_SAMPLES if reach > 0 else 0):
        heading = unit.facing + rng.uniform(-60.0, 60.0) + (180.0 if rng.random() < 0.1 else 0.0)
        d = rng.uniform(0.5, reach)
        out.append(Move(unit=unit.id, waypoints=((unit.x + math.sin(math.radians(heading)) * d,
                                                  unit.y + math.cos(math.radians(heading)) * d),),
                        face_after=heading % 360.0 if rng.random() < 0.3 else None))
    return out
