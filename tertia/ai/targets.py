"""Where a doctrine's troops make for: the nearest enemy by centres, as the period's book
would have them. Horse seek the enemy horse; foot and commanded shot advance as a line,
every unit of the command taking the same bearing from the command's centre, so the line
keeps its shape; anything else makes for the nearest enemy.

Each "nearest" is the least (distance between centres, id) over the enemy troops that
qualify. A pass over the enemy's troops finds the least squared distance, and a second
calls ``hypot`` only for those that could be nearest: at a few dozen instructions a
piece, cheaper than walking the cells of the position's grid outwards, even for armies
of a hundred units.
"""

from __future__ import annotations

import math
from typing import Final

from tertia.core.geometry import Point, hypot
from tertia.core.state import GameState, Unit, UnitKind


def nearest_enemy(state: GameState, side: str, x: float, y: float, *,
                  horse: bool | None = None) -> Unit | None:
    """The troop in play of ``side``'s enemy whose centre is nearest (x, y), ties by id;
    only horse when ``horse`` is True, none of them when False; None when there is none."""
    horse_kind = UnitKind.HORSE
    pool = [u for u in state.iter_troops(state.opponent(side))
            if horse is None or (u.kind is horse_kind) is horse]
    # the least square first, far cheaper than math.hypot; the square is never off by more
    # than a few roundings, so only the pieces within the margin of it could be nearest
    least = math.inf
    for u in pool:
        dx, dy = u.x - x, u.y - y
        square = dx * dx + dy * dy
        if square < least:
            least = square
    limit = least * SQUARE_MARGIN
    best: Unit | None = None
    gap = math.inf
    for u in pool:
        dx, dy = u.x - x, u.y - y
        if dx * dx + dy * dy <= limit:
            d = hypot(dx, dy)
            if best is None or d < gap or (d == gap and u.id < best.id):
                best, gap = u, d
    return best


SQUARE_MARGIN: Final = 1.0 + 1e-9
"""How far past the least squared distance a piece's may lie and the piece still be
measured: many times the few roundings by which the square and ``math.hypot`` may disagree."""


_LINE = "a line of its command and kind"


def line_goal(state: GameState, unit: Unit, *, on_foot: bool) -> tuple[Point, Unit] | None:
    """Foot advance as a line: the point ``unit`` makes for on the bearing from its line's
    centre (the troops of its command and kind) to the enemy troop nearest that centre
    (with ``on_foot``, the nearest that is not horse, while there are any), with that
    enemy; None when there are no enemies."""
    if next(state.iter_troops(state.opponent(unit.side)), None) is None:
        return None
    side, command, kind = unit.side, unit.command, unit.kind
    # a piece keeps its command and kind all game: the line is sifted once, and only a
    # piece coming into play tested
    line = state.pieces_where((_LINE, side, command, kind), lambda u: u.side == side and not u.is_commander
                              and u.command == command and u.kind is kind, fixed=True)
    cx = sum(u.x for u in line) / len(line)
    cy = sum(u.y for u in line) / len(line)
    target = nearest_enemy(state, unit.side, cx, cy, horse=False) if on_foot else None
    if target is None:
        target = nearest_enemy(state, unit.side, cx, cy)
    if target is None:
        return None
    return (unit.x + target.x - cx, unit.y + target.y - cy), target


def goal(state: GameState, unit: Unit) -> tuple[Point, Unit] | None:
    """Where ``unit`` makes for, and the enemy it makes for: horse the nearest enemy horse
    (any enemy troop when there is none), foot and commanded shot as a line on the nearest
    enemy troop (:func:`line_goal`), anything else the nearest enemy troop; None when there
    are no enemies."""
    if unit.kind in (UnitKind.FOOT, UnitKind.COMMANDED_SHOT):
        return line_goal(state, unit, on_foot=False)
    target = None
    if unit.kind is UnitKind.HORSE:
        target = nearest_enemy(state, unit.side, unit.x, unit.y, horse=True)
    if target is None:
        target = nearest_enemy(state, unit.side, unit.x, unit.y)
    return None if target is None else ((target.x, target.y), target)
