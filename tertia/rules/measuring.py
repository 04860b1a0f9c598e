"""Measuring between pieces on the table: the queries every rule set asks.

Distances are edge to edge between bases, in inches.
"""

from __future__ import annotations

from collections.abc import Iterator

from tertia.core.geometry import Base, base_distance, is_within
from tertia.core.state import GameState, Unit


def distance(a: Unit, b: Unit) -> float:
    """Edge-to-edge distance between two pieces' bases."""
    return base_distance(a.base, b.base)


def within(a: Unit, b: Unit, inches: float) -> bool:
    """"Within N inches", edge to edge, boundary included."""
    return is_within(a.base, b.base, inches)


def pieces_near(state: GameState, base: Base, inches: float) -> list[Unit]:
    """The pieces in play whose bases may lie within ``inches`` of ``base``, in play order:
    every one that does, and perhaps some a little further (measure them). Only the pieces
    near ``base`` are read, however large the armies."""
    return state.near(base.x, base.y, base.x, base.y, inches + base.radius)


def iter_enemy_troops_within(state: GameState, unit: Unit, inches: float) -> Iterator[Unit]:
    """Enemy troop units (not commanders) in play within ``inches`` of ``unit``."""
    units = state.units
    for uid in _enemy_troops_within(state, unit, inches):
        yield units[uid]


def has_enemy_troops_within(state: GameState, unit: Unit, inches: float) -> bool:
    """Is any enemy troop unit (not a commander) in play within ``inches`` of ``unit``?
    (:func:`iter_enemy_troops_within` asked only whether it finds one.)"""
    return bool(_enemy_troops_within(state, unit, inches))


def _enemy_troops_within(state: GameState, unit: Unit, inches: float) -> tuple[str, ...]:
    """The ids of :func:`iter_enemy_troops_within`, remembered on the position."""
    key = ("enemies_within", unit.id, inches)
    found: tuple[str, ...] | None = state.recall(key, unit)
    if found is None:
        base = unit.base
        x, y, reach = base.x, base.y, inches + base.radius
        enemy = state.opponent(unit.side)
        found = tuple(
            o.id for o in state.near(x, y, x, y, reach)
            if o.side == enemy and not o.is_commander
            # a cheap first cut on the bounding boxes of the two circles
            and abs(o.x - x) <= reach + o.base.radius and abs(o.y - y) <= reach + o.base.radius
            and is_within(base, o.base, inches)
        )
        state.remember(key, unit, inches, found)
    return found


EDGES = "edges"
"""The game-wide value (``GameState.value``) under which a rule set keeps each side's table edge."""


def home_edge(state: GameState, side: str) -> str:
    """The table edge ``side`` deployed on and falls back towards ("south" or "north"), as
    the scenario gives it."""
    edges = state.value(EDGES) or {}
    return str(edges.get(side, "south"))
