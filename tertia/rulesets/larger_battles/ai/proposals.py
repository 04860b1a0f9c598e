"""Candidate actions for ``larger-battles``, for the random player to pick among (the
engine judges each): orders for every command, sampled moves, every bombardment, a spread
of attacks and declarations of several, the declared attacks still to fight, and every
answer to a call for encouragement."""

from __future__ import annotations

import math
import random

from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.state import GameState, UnitKind
from tertia.rules.fighting import Attack
from tertia.rulesets.larger_battles.actions import Bombard, DeclareAttacks, Encourage, GiveOrder
from tertia.rulesets.larger_battles.combat import declared_attacks

MOVE_SAMPLES = 6


def iter_proposals(game: Game, state: GameState, rng: random.Random) -> list[Action]:
    """Orders for every command, sampled moves, every shot and a spread of attacks."""
    side = state.to_act
    if state.pending is not None:
        eligible = list(state.pending.get("eligible", ()))
        return [Encourage(commander=c) for c in [None, *eligible]]
    out: list[Action] = []
    commands = sorted({u.command for u in state.iter_units(side)})
    mine = list(state.iter_units(side))
    enemies = list(state.iter_troops(state.opponent(side)))
    for command in commands:
        out.append(GiveOrder(target=command, purpose="move"))
        out.append(GiveOrder(target=command, purpose="bombard"))
    if mine:
        out.append(GiveOrder(target=rng.choice(mine).id, purpose="move"))
    for unit in mine:
        for _ in range(MOVE_SAMPLES if state.phase == "movement" else 0):
            angle = rng.uniform(0.0, 360.0)
            dist = rng.uniform(0.5, 12.0)
            turn = rng.choice([None, None, rng.uniform(0.0, 360.0)])
            x = unit.x + math.sin(math.radians(angle)) * dist
            y = unit.y + math.cos(math.radians(angle)) * dist
            out.append(Move(unit=unit.id, waypoints=((x, y),), face_before=turn))
        if unit.kind is UnitKind.ARTILLERY:
            out.extend(Bombard(gun=unit.id, target=e.id) for e in enemies)
        elif unit.kind is not UnitKind.COMMANDER and state.phase == "combat":
            for e in enemies:
                friends = [f.id for f in mine if f.id != unit.id and f.kind is not UnitKind.COMMANDER]
                supports = tuple(f for f in friends if rng.random() < 0.3)
                out.append(Attack(attacker=unit.id, target=e.id))
                if supports:
                    out.append(Attack(attacker=unit.id, target=e.id, supports=supports))
    if state.phase == "combat":
        out.extend(_declarations(game, state, out, rng))
        out.extend(declared_attacks(state))
    return out


def _declarations(game: Game, state: GameState, proposed: list[Action], rng: random.Random) -> list[Action]:
    """A random declaration of several legal attacks, each unit and target used once."""
    chosen: list[Attack] = []
    for a in proposed:
        if isinstance(a, Attack) and not a.supports and rng.random() < 0.5 \
                and all(a.attacker != c.attacker and a.target != c.target for c in chosen) \
                and game.is_legal(state, a):
            chosen.append(a)
    return [DeclareAttacks(attacks=tuple(chosen))] if len(chosen) > 1 else []
