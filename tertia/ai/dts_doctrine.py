"""The doctrine player for Declare Thee Sir: the battle as the period fought it, on one
card at a time.

- Guns stand and fire at whatever their arc holds, and otherwise wait.
- Foot in musket reach of an enemy stand and fire; an excellent regiment close to a
  shaken enemy goes in with push of pike; otherwise the foot advance on the nearest enemy,
  forming line from long march when the enemy is near.
- Horse charge what their rolled move reaches, and otherwise advance.
- A unit left at poor morale rests to regain a point.
- A routing unit always tries to rally; a pursuer breaks off by rallying when its pursuit
  nears a table edge (pursuit itself is compulsory), and pursues on otherwise.
- Generals wait (they neither fight nor take hits).

It reads only what its side may see (``Game.observe``); nothing in this rule set is hidden
from either side, so that is the whole position.
"""

from __future__ import annotations

import random

from tertia.ai.moves import move_towards
from tertia.core.actions import Action, EndPhase
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    DEFER,
    FORMATION_CHANGE,
    LINE,
    LONG_MARCH,
    RALLY,
    STAND_AND_FIRE,
    game_data,
    unit_data,
)
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Charge, Declare, Fire
from tertia.rulesets.declare_thee_sir.reach import base_range

EDGE_WARNING = 6.0
"""A pursuer this close to a table edge tries to break off."""
NEAR = 12.0
"""An enemy this close makes a column form line."""
EXPECTED_D6 = 3.5
MAX_D6 = 6


class DtsDoctrine:
    name = "doctrine"

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        g = game_data(state)
        unit = state.units.get(g.activated or "")
        if unit is None:
            return EndPhase()
        if state.pending is not None:
            return self._declare(game, state, unit)
        return self._carry_out(game, state, unit) or EndPhase()

    # --- the declaration ----------------------------------------------------------------

    def _declare(self, game: Game, state: GameState, unit: Unit) -> Action:
        own = unit_data(unit)
        if own.routing:
            return Declare(unit=unit.id, option=RALLY)
        if own.pursuing is not None:
            return Declare(unit=unit.id, option=RALLY if near_edge(game, unit) else DEFER)
        if own.is_general:
            return Declare(unit=unit.id, option=DEFER)
        enemy = nearest_enemy(state, unit)
        if enemy is None:
            return Declare(unit=unit.id, option=DEFER)
        gap = base_distance(unit.base, enemy.base)
        if own.morale == 0:
            return Declare(unit=unit.id, option=RALLY, how="rest")
        if own.formation == LONG_MARCH and gap < NEAR:
            return Declare(unit=unit.id, option=FORMATION_CHANGE)
        if own.is_gun:
            return Declare(unit=unit.id, option=STAND_AND_FIRE if self._has_target(game, state, unit)
                           else DEFER)
        if own.is_mounted:
            return Declare(unit=unit.id, option=ADVANCE)
        charges = (own.morale or 0) >= 3 and gap < EXPECTED_D6 and (unit_data(enemy).morale or 4) <= 2
        if not charges and self._has_target(game, state, unit) and gap <= base_range(own) + 2:
            return Declare(unit=unit.id, option=STAND_AND_FIRE)
        return Declare(unit=unit.id, option=ADVANCE)

    def _has_target(self, game: Game, state: GameState, unit: Unit) -> bool:
        """Would a volley be legal at some enemy, were stand and fire declared now (the
        declaration answered, so nothing pending)?"""
        declared = state.evolve(decisions=(), own=game_data(state).evolve(declared=STAND_AND_FIRE,
                                                                           volleys=1))
        return any(game.is_legal(declared, Fire(unit=unit.id, target=e.id))
                   for e in within_reach(state, unit))

    # --- carrying it out -----------------------------------------------------------------

    def _carry_out(self, game: Game, state: GameState, unit: Unit) -> Action | None:
        g = game_data(state)
        if g.declared == FORMATION_CHANGE:
            change = ChangeFormation(unit=unit.id, formation=LINE)
            return change if game.is_legal(state, change) else None
        targets = sorted(state.iter_troops(state.opponent(unit.side)),
                         key=lambda e: (base_distance(unit.base, e.base), e.id))
        if g.volleys > 0:
            for enemy in within_reach(state, unit):
                shot = Fire(unit=unit.id, target=enemy.id)
                if game.is_legal(state, shot):
                    return shot
        if g.allowance is not None and not g.moved:
            for enemy in targets[:3]:
                charge = Charge(unit=unit.id, target=enemy.id)
                if game.is_legal(state, charge):
                    return charge
            if targets:
                goal = targets[0]
                ahead = max(0.0, base_distance(unit.base, goal.base) - 1.0)
                reach = min(float(g.allowance.get("open", 0)), ahead)
                move = move_towards(game, state, unit, (goal.x, goal.y), reach)
                if move is not None and game.is_legal(state, move):
                    return move
        return None


def within_reach(state: GameState, unit: Unit) -> list[Unit]:
    """The enemy troops the unit's longest possible shot could reach (its base range and a
    six), nearest first: a volley at any other surely falls short."""
    longest = base_range(unit_data(unit)) + MAX_D6
    return sorted((e for e in state.iter_troops(state.opponent(unit.side))
                   if base_distance(unit.base, e.base) <= longest),
                  key=lambda e: (base_distance(unit.base, e.base), e.id))


def nearest_enemy(state: GameState, unit: Unit) -> Unit | None:
    enemies = list(state.iter_troops(state.opponent(unit.side)))
    return min(enemies, key=lambda e: (base_distance(unit.base, e.base), e.id)) if enemies else None


def near_edge(game: Game, unit: Unit) -> bool:
    t = game.table
    return min(unit.x, unit.y, t.width - unit.x, t.depth - unit.y) < EDGE_WARNING

