"""Candidate moves for players on a free table: the engine validates, these only propose.

On a free-movement table the legal moves cannot be listed, so players propose a move
towards where they want to be and shorten it until ``validate`` accepts it.
"""

from __future__ import annotations

import math

from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import (
    Base,
    Point,
    angle_between,
    bearing,
    first_contact,
    point_segment_distance,
)
from tertia.core.state import GameState, Unit
from tertia.rulesets.larger_battles.events import supplies_of

SHORTEN_STEPS = 7
MIN_STEP = 0.25


def move_towards(
    game: Game,
    state: GameState,
    unit: Unit,
    goal: Point,
    max_distance: float,
    *,
    face: float | None = None,
) -> Move | None:
    """The longest legal straight move (up to ``max_distance``) from ``unit`` towards
    ``goal``, pivoting first to ``face`` if given; None when no such move is legal."""
    dx, dy = goal[0] - unit.x, goal[1] - unit.y
    span = math.hypot(dx, dy)
    if span < MIN_STEP:
        return None
    reach = min(max_distance, span)
    ux, uy = dx / span, dy / span

    def build(d: float) -> Move:
        return Move(unit=unit.id, waypoints=((unit.x + ux * d, unit.y + uy * d),), face_before=face)

    reach = min(reach, free_run(state, unit, (ux, uy), reach, face))
    if reach < MIN_STEP:
        return None
    full = build(reach)
    if game.is_legal(state, full):
        return full
    lo, hi = 0.0, reach
    best: Move | None = None
    for _ in range(SHORTEN_STEPS):
        mid = (lo + hi) / 2
        candidate = build(mid)
        if game.is_legal(state, candidate):
            best, lo = candidate, mid
        else:
            hi = mid
    if best is not None and lo >= MIN_STEP:
        return best
    return None


ENEMY_CLEARANCE = 2.98
"""Players stop just inside 3" of the enemy (the rules allow a hair's tolerance)."""


def free_run(
    state: GameState, unit: Unit, direction: Point, reach: float, face: float | None = None
) -> float:
    """How far a unit (pivoted first to ``face``, if given) can slide straight along
    ``direction`` before touching another base or reaching 3" of an enemy unit, computed
    exactly; the engine still has the last word."""
    slide = Slide(unit.base if face is None else unit.base.moved_to(unit.x, unit.y, face),
                   direction, reach)
    best = reach
    for other in state.iter_units():
        if other.id != unit.id:
            enemy = other.side != unit.side and not other.is_commander
            best = min(best, slide.contact(other.base, ENEMY_CLEARANCE if enemy else 0.0))
    for supply in supplies_of(state):
        if supply.in_play:
            best = min(best, slide.contact(supply.base, 0.0))
    return max(0.0, best - 1e-6)


class Slide:
    """A base sliding straight along a unit vector, up to ``reach``."""

    def __init__(self, base: Base, direction: Point, reach: float) -> None:
        self.base = base
        self.corners = base.corners()
        self.direction = direction
        self.start = (base.x, base.y)
        self.end = (base.x + direction[0] * reach, base.y + direction[1] * reach)
        self.x0, self.x1 = min(self.start[0], self.end[0]), max(self.start[0], self.end[0])
        self.y0, self.y1 = min(self.start[1], self.end[1]), max(self.start[1], self.end[1])

    def contact(self, other: Base, clearance: float) -> float:
        """How far the slide goes before coming within ``clearance`` of ``other``
        (``inf`` if it never does). Only what lies within reach of the corridor the slide
        sweeps can stop it: first the corridor's box, then the corridor itself."""
        margin = other.radius + self.base.radius + clearance
        if (other.x < self.x0 - margin or other.x > self.x1 + margin
                or other.y < self.y0 - margin or other.y > self.y1 + margin):
            return math.inf
        if point_segment_distance(other.centre, self.start, self.end) > margin:
            return math.inf
        return first_contact(self.corners, other.corners(), self.direction, clearance)


def pivot_to(game: Game, state: GameState, unit: Unit, facing: float) -> Move | None:
    """A pivot on the spot, when it is legal and actually turns the unit."""
    if angle_between(unit.facing, facing) < 1.0:
        return None
    move = Move(unit=unit.id, waypoints=(), face_before=facing)
    return move if game.is_legal(state, move) else None



def bearing_to(unit: Unit, p: Point) -> float:
    return bearing((unit.x, unit.y), p)
