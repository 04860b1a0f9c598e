"""Players for the example slice: candidate actions (for a random player) and a simple
general who charges what it can reach, else advances on the nearest enemy."""

from __future__ import annotations

import math
import random

from tertia.core.actions import Action, EndPhase
from tertia.core.game import Game
from tertia.core.geometry import bearing, heading_vector
from tertia.core.state import GameState
from tertia.rules.formations import FORMATIONS
from tests.example_rules.data import (
    ASSIGN_FREE_MOVE,
    COUNTERCHARGE,
    STAND_OR_FIRE,
    Advance,
    AssignFreeMove,
    ChangeFormation,
    Charge,
    Countercharge,
    RespondToCharge,
    game_data,
)


def propose(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Every answer to a pending decision; else, for the activated unit, each formation,
    advances straight ahead and towards the nearest enemy, a charge at each enemy, and
    deferring."""
    pending = state.pending
    if pending is not None:
        if pending.kind == ASSIGN_FREE_MOVE:
            return [AssignFreeMove(unit=str(u)) for u in pending["units"]]
        if pending.kind == STAND_OR_FIRE:
            return [RespondToCharge(choice="fire"), RespondToCharge(choice="stand")]
        if pending.kind == COUNTERCHARGE:
            return [*(Countercharge(unit=str(u)) for u in pending["eligible"]), Countercharge()]
        return []
    uid = game_data(state).activated
    if uid is None:
        return []
    unit = state.units[uid]
    out: list[Action] = [Charge(unit=uid, target=e.id) for e in state.iter_troops(state.opponent(unit.side))]
    enemies = sorted(state.iter_troops(state.opponent(unit.side)),
                     key=lambda e: math.hypot(e.x - unit.x, e.y - unit.y))
    if enemies:
        goal = bearing((unit.x, unit.y), (enemies[0].x, enemies[0].y))
        turn = max(-45.0, min(45.0, (goal - unit.facing + 180.0) % 360.0 - 180.0))
        for inches in (6.0, 3.0):
            fx, fy = heading_vector(unit.facing + turn)
            out.append(Advance(unit=uid, waypoints=((unit.x + fx * inches, unit.y + fy * inches),)))
    for inches in (4.0, 2.0):
        fx, fy = heading_vector(unit.facing)
        out.append(Advance(unit=uid, waypoints=((unit.x + fx * inches, unit.y + fy * inches),)))
    out.extend(ChangeFormation(unit=uid, formation=f) for f in FORMATIONS)
    out.append(EndPhase())
    return out


class SimpleGeneral:
    """Charges when it can, else advances (in line), else defers; fires when charged and
    countercharges when it may; gives its free move to its first unit."""

    name = "simple"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        legal = [a for a in propose(game, state, rng) if game.is_legal(state, a)]
        if not legal:
            return EndPhase()
        for kind in (Charge, AssignFreeMove, RespondToCharge, Countercharge, Advance):
            found = [a for a in legal if isinstance(a, kind)]
            if found:
                return found[0]
        unit = game_data(state).activated
        if unit is not None:
            line = ChangeFormation(unit=unit, formation="line")
            if line in legal:
                return line
        return EndPhase()
