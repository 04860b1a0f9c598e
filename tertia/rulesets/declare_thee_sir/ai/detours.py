"""Ways round friends for the Declare Thee Sir doctrine's second edition: a unit whose way
ahead is barred by its own side goes obliquely or to a flank first, then on.

Movement: "Oblique movement up to 45 degrees"; "Difficult Terrain or Flank move = 1/3
movement". A path whose every leg keeps within 45 degrees of the unit's facing goes at the
open-ground figure; one with a leg further off (up to the rearward 135) at a third of the
move (``movement:kind_of_move``). So a detour is two legs: the first obliquely or to a
flank, the second on towards the goal (kept within 45 degrees of the facing), all within
the figure the first leg's heading allows.

Each detour is judged cheaply (how far each leg is clear, :func:`~tertia.ai.moves.free_run`)
by the ground it gains towards the goal and by how far the way on from where it ends lies
open; the best is then put to the rules, shortened until they accept it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from tertia.ai.moves import MIN_STEP, TOUCHING, edge_run, free_run
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import Point, angle_between, bearing, heading_vector
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.movement import OBLIQUE

FIRST_LEGS = (-44.0, 44.0, -90.0, 90.0)
"""The first leg's heading off the unit's facing: obliquely (the open-ground figure), then
to a flank (a third of it)."""
SHARES = (1.0, 0.5)
"""How much of the first leg's clear run is taken before turning on."""
LOOK_ON = 6.0
"""How far the way on from a detour's end is looked along."""
OPEN_WORTH = 0.5
"""What an inch of open way on is worth against an inch gained now: the next move goes
that way."""
SECOND_ARC = OBLIQUE - 1.0
"""The second leg keeps within this many degrees of the unit's facing."""


def detour(game: Game, state: GameState, unit: Unit, goals: Sequence[Point], allowance: Mapping[str, int],
           least: float, *, validate: bool = True) -> Move | None:
    """The best detour towards any of ``goals`` within the rolled ``allowance`` (open and
    difficult figures) that scores at least ``least`` better than standing still (ground
    gained towards that goal, and the way on from its end weighed at :data:`OPEN_WORTH`);
    the rules judge it (``validate``) and it is shortened until they accept it. Without
    ``validate`` the first detour found that scores so is returned unjudged (a cheap look
    before a declaration)."""
    table = (game.table.width, game.table.depth)
    firsts: list[tuple[float, Point, float]] = []
    for off in FIRST_LEGS:
        figure = float(allowance.get("open" if abs(off) <= OBLIQUE else "difficult", 0))
        if figure < MIN_STEP:
            continue
        direction = heading_vector((unit.facing + off) % 360.0)
        clear = min(figure, edge_run(unit.base, direction, table))
        clear = free_run(state, unit, direction, clear, shave=TOUCHING) if clear >= MIN_STEP else 0.0
        firsts += [(figure, direction, clear * share) for share in SHARES if clear * share >= MIN_STEP]
    best: tuple[float, Move] | None = None
    for goal in goals:
        span = math.dist((unit.x, unit.y), goal)
        stay = OPEN_WORTH * _way_on(state, unit, (unit.x, unit.y), goal)
        for figure, direction, first in firsts:
            mid = (unit.x + direction[0] * first, unit.y + direction[1] * first)
            end = _second_leg(state, unit, mid, goal, figure - first, table)
            score = span - math.dist(end, goal) + OPEN_WORTH * _way_on(state, unit, end, goal) - stay
            if score >= least and (best is None or score > best[0] + 1e-9):
                points = (mid,) if math.dist(mid, end) < MIN_STEP else (mid, end)
                best = (score, Move(unit=unit.id, waypoints=points))
                if not validate:
                    return best[1]  # a look before declaring asks only whether there is one
    if best is None:
        return None
    move = best[1]
    if not validate or game.is_legal(state, move):
        return move
    return _shortened(game, state, move)


def _second_leg(state: GameState, unit: Unit, mid: Point, goal: Point, reach: float,
                table: tuple[float, float]) -> Point:
    """Where the second leg ends: from ``mid`` towards the goal (within
    :data:`SECOND_ARC` of the facing), as far as ``reach`` and the way allow."""
    if reach < MIN_STEP:
        return mid
    heading = _within_arc(bearing(mid, goal), unit.facing)
    direction = heading_vector(heading)
    there = unit.evolve(x=mid[0], y=mid[1])
    run = min(reach, edge_run(there.base, direction, table))
    run = free_run(state, there, direction, run, shave=TOUCHING) if run >= MIN_STEP else 0.0
    return (mid[0] + direction[0] * run, mid[1] + direction[1] * run)


def _way_on(state: GameState, unit: Unit, at: Point, goal: Point) -> float:
    """How far the way from ``at`` towards the goal (within :data:`SECOND_ARC` of the
    facing) is clear, up to :data:`LOOK_ON`."""
    there = unit.evolve(x=at[0], y=at[1]) if (at[0], at[1]) != (unit.x, unit.y) else unit
    direction = heading_vector(_within_arc(bearing(at, goal), unit.facing))
    return free_run(state, there, direction, min(LOOK_ON, math.dist(at, goal)), shave=TOUCHING)


def _within_arc(heading: float, facing: float) -> float:
    """``heading``, turned no further than :data:`SECOND_ARC` off ``facing``."""
    if angle_between(heading, facing) <= SECOND_ARC:
        return heading
    left = (facing - SECOND_ARC) % 360.0
    right = (facing + SECOND_ARC) % 360.0
    return left if angle_between(heading, left) < angle_between(heading, right) else right


def _shortened(game: Game, state: GameState, move: Move) -> Move | None:
    """The detour with its last leg halved until the rules accept it, else its first leg
    alone, likewise."""
    points = move.waypoints
    if len(points) == 2:
        mid, end = points
        for share in (0.5, 0.25):
            cut = (mid[0] + (end[0] - mid[0]) * share, mid[1] + (end[1] - mid[1]) * share)
            candidate = Move(unit=move.unit, waypoints=(mid, cut))
            if game.is_legal(state, candidate):
                return candidate
    start = state.units[move.unit]
    mid = points[0]
    for share in (1.0, 0.5, 0.25):
        cut = (start.x + (mid[0] - start.x) * share, start.y + (mid[1] - start.y) * share)
        if math.dist(cut, (start.x, start.y)) < MIN_STEP:
            break
        candidate = Move(unit=move.unit, waypoints=(cut,))
        if game.is_legal(state, candidate):
            return candidate
    return None
