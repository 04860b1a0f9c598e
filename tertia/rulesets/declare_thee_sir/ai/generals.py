"""Where the Declare Thee Sir doctrine sends its generals: to join a regiment and stay with
it, behind its rear rank.

An attached general adds a morale point when his unit is first tested, +2 when it
charges, and a rally roll to a routing unit within 3" (Morale, Melee c, Rally b); he risks
death only when his unit loses points to fire (Fire d). So a general at large rides to
join, in this order of choice, a routing friend (to rally it), a regiment of horse (the
chargers), any other regiment; untested ones first (they gain his point), the nearest
first; never a battery (it neither charges nor closes). He takes his place behind the
unit, where no enemy comes at him first, and stays while it is in play.
"""

from __future__ import annotations

import math

from tertia.ai.moves import advance_towards, free_run
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import heading_vector
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.ai.judgement import gap
from tertia.rulesets.declare_thee_sir.generals import ATTACH_REACH
from tertia.rulesets.declare_thee_sir.movement import GENERAL_MOVE
from tertia.rulesets.declare_thee_sir.points import attached_general
from tertia.rulesets.declare_thee_sir.values import unit_data

HORSE_FIRST = 6.0
"""Inches of extra ride a general accepts to join horse rather than foot."""
UNTESTED_FIRST = 4.0
"""Inches of extra ride a general accepts to join an untested unit."""
TOUCH = ATTACH_REACH / 2
"""How far behind a unit's rear edge a general stops: touching it, by the rules' measure."""


def stays(state: GameState, general: Unit) -> bool:
    """A general attached to a unit in play stays with it."""
    joined = state.units.get(unit_data(general).attached_to or "")
    return joined is not None and joined.in_play


def unit_to_join(state: GameState, general: Unit) -> Unit | None:
    """The friend the general rides to join (see the module's note), or None."""
    best: tuple[float, str, Unit] | None = None
    for friend in state.iter_troops(general.side):
        own = unit_data(friend)
        if own.is_gun or own.pursuing is not None:
            continue
        if attached_general(state, friend.id) is not None:
            continue
        ride = gap(general, friend)
        if own.routing:
            ride -= 2 * GENERAL_MOVE
        if not own.is_mounted:
            ride += HORSE_FIRST
        if own.morale is not None:
            ride += UNTESTED_FIRST
        if best is None or (ride, friend.id) < best[:2]:
            best = (ride, friend.id, friend)
    return None if best is None else best[2]


def behind(general: Unit, unit: Unit) -> tuple[float, float]:
    """The place touching the middle of ``unit``'s rear edge, for the general's centre."""
    fx, fy = heading_vector(unit.facing)
    back = unit.depth / 2 + general.depth / 2 + TOUCH
    return unit.x - fx * back, unit.y - fy * back


def join(game: Game, state: GameState, general: Unit, unit: Unit) -> Move | None:
    """A legal ride to the place behind ``unit`` (facing as it faces) when it lies within
    his move and the way is clear, else the best legal ride towards it."""
    spot = behind(general, unit)
    if math.dist((general.x, general.y), spot) <= GENERAL_MOVE:
        ride = Move(unit=general.id, waypoints=(spot,), face_after=unit.facing)
        if game.is_legal(state, ride) and not _through_friends(state, general, spot):
            return ride
    return advance_towards(game, state, general, spot, float(GENERAL_MOVE), arc=180.0)


def _through_friends(state: GameState, general: Unit, spot: tuple[float, float]) -> bool:
    """Would the ride pass over a friend (who would take a morale check for it)? The
    straight way is clear when the slide meets nothing before the spot."""
    span = math.dist((general.x, general.y), spot)
    if span < 1e-9:
        return False
    direction = ((spot[0] - general.x) / span, (spot[1] - general.y) / span)
    return free_run(state, general, direction, span) < span - 2 * TOUCH
