"""The doctrine player for ``d3-cards``: the D3 doctrine
(:mod:`tertia.rulesets.d3.ai.doctrine`) with shots judged by its musketry and guns, guns
worth charging whatever the odds, and commanders who rally the worst-hurt unit they can
reach."""

from __future__ import annotations

import math

from tertia.ai.moves import move_towards
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.hits import piece
from tertia.rules.measuring import distance
from tertia.rules.modifiers import total
from tertia.rulesets.d3 import weather
from tertia.rulesets.d3.ai.doctrine import D3Doctrine, expected_d3
from tertia.rulesets.d3.contact import in_contact
from tertia.rulesets.d3.troops import MOVE
from tertia.rulesets.d3_cards import shooting
from tertia.rulesets.d3_cards.commanders import Rally, rallies_left

RALLY_FROM = 2
"""Commanders rally units with at least this many hits."""


class D3CardsDoctrine(D3Doctrine):
    """Plays either side of ``d3-cards`` legally and sensibly."""

    def _shot_hits(self, game: Game, view: GameState, unit: Unit, target: Unit) -> float:
        return shot_hits(game, unit, target)

    def _charge_value(self, game: Game, target: Unit, value: float) -> float:
        return charge_value(target, value)

    def _commander(self, game: Game, view: GameState, unit: Unit) -> Action | None:
        return commander_action(self, game, view, unit)


def shot_hits(game: Game, unit: Unit, target: Unit) -> float:
    """The hits ``unit``'s shot at ``target`` is expected to make: a gun's chance that its
    range roll reaches (Artillery), a volley's mean on the D3 (Musketry)."""
    options = game.ruleset.options
    if unit.kind is UnitKind.ARTILLERY:
        pips = total(shooting.gun_modifiers(game.table, unit, target, options))
        need = distance(unit, target) / shooting.RANGE_STEP
        return sum(1 for face in range(1, 7) if max(0, face + pips) >= need) / 6.0
    return expected_d3(shooting.musket_modifiers(game.table, unit, target, options))


def charge_value(target: Unit, value: float) -> float:
    """A charge at a gun is worth making whatever the odds (artillery engaged in melee is
    eliminated); any other is worth ``value``."""
    return 3.0 if target.kind is UnitKind.ARTILLERY else value


def commander_action(doctrine: D3Doctrine, game: Game, view: GameState, unit: Unit) -> Action | None:
    """A commander rallies the worst-hurt unit he touches (Commanders: rallies left); else
    rides to the worst-hurt one he can reach, or the worst-hurt of all, or the army's
    front (``doctrine`` says where the enemy is nearest)."""
    if rallies_left(view, unit, game.ruleset.options) <= 0:
        return None
    hurt = sorted((u for u in view.iter_troops(unit.side) if piece(u).hits >= RALLY_FROM),
                  key=lambda u: (-piece(u).hits, u.id))
    for friend in hurt:
        if in_contact(unit, friend):
            rally = Rally(commander=unit.id, unit=friend.id)
            if game.is_legal(view, rally):
                return rally
    if view.is_marked("moved", unit.id):
        return None
    reach = MOVE[UnitKind.COMMANDER] * weather.movement_factor(view)
    near = [f for f in hurt if math.hypot(f.x - unit.x, f.y - unit.y) <= reach + 4.0]
    # Nobody to rally within reach: follow the worst-hurt unit, or the army's front.
    troops = list(view.iter_troops(unit.side))
    front = sorted(troops, key=lambda u: (doctrine._nearest_enemy_distance(view, u), u.id))[:1]
    follow = near or hurt[:1] or front
    for friend in follow:
        back = math.radians(friend.facing + 180.0)
        gap = friend.depth / 2 + unit.depth / 2 + (0.0 if friend in near else 2.0)
        spot = (friend.x + math.sin(back) * gap, friend.y + math.cos(back) * gap)
        move = move_towards(game, view, unit, spot, reach)
        if move is not None:
            return move
    return None
