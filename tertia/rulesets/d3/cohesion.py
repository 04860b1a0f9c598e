"""Keeping a command together: a unit must stay within a distance of at least one other
unit of its command, and a unit that strays is moved back (used by ``d3-commands``,
Commands: 6")."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tertia.core.actions import Move
from tertia.core.events import UnitMoved
from tertia.core.geometry import CONTACT, EPSILON, Base, bounding_box, first_contact, is_finite, is_within
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.measuring import pieces_near
from tertia.rules.movement import (
    iter_collision_violations,
    iter_table_violations,
    iter_terrain_violations,
    plan_move,
)
from tertia.rules.nearest import NearestFirst

GroupOf = Callable[[Unit], str | None]
"""A unit's group (its command), or None for a unit bound to no one."""

MARGIN = 0.05
"""A unit moved back ends this much inside the distance."""

CONTACT_REACH = CONTACT + EPSILON

NEAR_MARGIN = 1e-3
"""Beyond the bounding circles' reach, so that a fact remembered, and the pieces asked of
the grid along a way, hold every piece measuring finds near, whatever the rounding."""

ENEMY_GAP = 0.25
"""A unit moved back stops this far short of an enemy base."""


def companions(state: GameState, unit: Unit, group_of: GroupOf) -> list[Unit]:
    group = group_of(unit)
    if group is None:
        return []
    return [u for u in state.iter_troops(unit.side) if u.id != unit.id and group_of(u) == group]


def is_cohesive(state: GameState, unit: Unit, group_of: GroupOf, radius: float) -> bool:
    """True for a unit alone in its group, bound to none, or within ``radius`` of another
    unit of its group (edge to edge)."""
    return not strays(state, [unit], group_of, radius)


def strays(state: GameState, units: Iterable[Unit], group_of: GroupOf, radius: float) -> list[Unit]:
    """The units (of those given) that are not cohesive: each in a group with other units
    in play, and more than ``radius`` from every one of them. Whether a mate is within
    ``radius`` is remembered until a piece within it moves, arrives or leaves
    (:meth:`~tertia.core.state.GameState.remember`), so a card's end measures only about
    the units that moved, not the whole army again."""
    key = (_MATE_WITHIN, radius, id(group_of))
    found: list[Unit] = []
    for unit in units:
        if group_of(unit) is None:
            continue
        near: bool | None = state.recall(key, unit)
        if near is None:
            near = mate_within(state, unit, group_of, radius)
            state.remember(key, unit, radius + NEAR_MARGIN, near)
        if not near and companions(state, unit, group_of):
            found.append(unit)
    return found


_MATE_WITHIN = "a mate of its group within"


def mate_within(
    state: GameState, unit: Unit, group_of: GroupOf, radius: float, base: Base | None = None
) -> bool:
    """Whether another troop in play of ``unit``'s side and group is within ``radius`` of
    ``base`` (the unit's own, if none is given). Only the pieces filed near it are
    measured, so the cost does not grow with the army."""
    group = group_of(unit)
    if group is None:
        return False
    at = unit.base if base is None else base
    return any(o.id != unit.id and o.side == unit.side and not o.is_commander and group_of(o) == group
               and is_within(at, o.base, radius)
               for o in pieces_near(state, at, radius))


def _in_reach(state: GameState, unit: Unit, direction: tuple[float, float], reach: float) -> list[Unit]:
    """The other pieces in play ``unit`` could come within :data:`ENEMY_GAP` of, sliding
    ``reach`` inches along ``direction``: those whose bounding circles come near the way
    (every piece, when the reach has no end)."""
    if not is_finite(reach):
        return [o for o in state.iter_units() if o.id != unit.id]
    end = (unit.x + direction[0] * reach, unit.y + direction[1] * reach)
    x0, y0, x1, y1 = bounding_box(((unit.x, unit.y), end))
    look = unit.base.radius + ENEMY_GAP + NEAR_MARGIN
    return [o for o in state.near(x0, y0, x1, y1, look) if o.id != unit.id]


def move_back(
    tx: Tx, unit: Unit, group_of: GroupOf, radius: float, impassable: Iterable[str], rule: str
) -> bool:
    """Slide a stray unit straight towards the nearest unit of its group until within
    ``radius`` of it, stopping short of any base, table edge or impassable ground (a unit
    in melee breaks off). Returns whether it moved."""
    others = companions(tx.state, unit, group_of)
    if not others:
        return False
    nearest = NearestFirst(unit, others)[0]  # by (distance, id), measuring only the likely
    dx, dy = nearest.x - unit.x, nearest.y - unit.y
    span = (dx * dx + dy * dy) ** 0.5
    if span == 0.0:
        return False
    direction = (dx / span, dy / span)
    corners = unit.base.corners()
    reach = first_contact(corners, nearest.base.corners(), direction, radius - MARGIN)
    for other in _in_reach(tx.state, unit, direction, reach):
        if is_within(unit.base, other.base, CONTACT_REACH):
            continue  # a base it touches may be slid along or away from: judged below
        # Stop short of the enemy: a unit moved back may not blunder into a melee.
        gap = ENEMY_GAP if other.side != unit.side else 0.0
        reach = min(reach, first_contact(corners, other.base.corners(), direction, gap) - 1e-6)
    reach = max(0.0, reach)
    kinds = list(impassable)
    while reach > 0.05:
        end = (unit.x + direction[0] * reach, unit.y + direction[1] * reach)
        plan = plan_move(unit, Move(unit=unit.id, waypoints=(end,)))
        blocked = any(True for _ in iter_table_violations(tx.table, plan, rule)) or any(
            True for _ in iter_terrain_violations(tx.table, plan, kinds, dict.fromkeys(kinds, rule), rule)
        ) or any(True for _ in iter_collision_violations(tx.state, plan, rule))
        if not blocked:
            tx.emit(UnitMoved(unit=unit.id, path=((unit.x, unit.y), end), facing=unit.facing,
                              reason="cohesion"))
            return True
        reach /= 2.0
    return False

