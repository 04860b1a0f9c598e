"""Candidate actions for Declare Thee Sir, for the random player to pick among (the engine
judges each): every option when a card awaits its declaration; then every volley and
charge at an enemy (a general on his own too: he evades), each formation (the optional
caracole and forlorn hope among them, refused when their option is off) and mounting and
dismounting (dragoons only), and a spread of moves within the rolled move."""

from __future__ import annotations

import math
import random

from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.declare_thee_sir.data import RALLY
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Charge, Declare, Fire
from tertia.rulesets.declare_thee_sir.reform import CHOICES
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

MOVE_SAMPLES = 8


def iter_proposals(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    g = game_data(state)
    unit = state.units.get(g.activated or "")
    if unit is None:
        return [EndPhase()]
    if state.pending is not None:
        out: list[Action] = []
        keeps_order = not unit_data(unit).routing and unit_data(unit).pursuing is None
        for option in state.pending.get("options", ()):
            if option == RALLY and keeps_order:
                out += [Declare(unit=unit.id, option=option, how=how) for how in ("rest", "retire")]
            else:
                out.append(Declare(unit=unit.id, option=option))
        return out
    out = [EndPhase()]
    for enemy in state.iter_units(state.opponent(unit.side)):
        out += [Fire(unit=unit.id, target=enemy.id), Charge(unit=unit.id, target=enemy.id)]
    out += [ChangeFormation(unit=unit.id, formation=f) for f in CHOICES]
    reach = float((g.allowance or {}).get("open", 0))
    for _ in range(MOVE_SAMPLES if reach > 0 else 0):
        heading = unit.facing + rng.uniform(-50.0, 50.0) + (180.0 if rng.random() < 0.15 else 0.0)
        d = rng.uniform(0.3, reach)
        out.append(Move(unit=unit.id, waypoints=((unit.x + math.sin(math.radians(heading)) * d,
                                                   unit.y + math.cos(math.radians(heading)) * d),)))
    return out
