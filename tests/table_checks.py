"""What must hold of the table after every action, under every rule set: no piece in play
off the table, none standing on another."""

from __future__ import annotations

import math

from tertia.core.game import Game
from tertia.core.geometry import polygons_overlap
from tertia.core.state import GameState
from tertia.rules.involuntary import on_table


def off_the_table(game: Game, state: GameState) -> list[str]:
    """The pieces in play (and the stands of one, where a rule set keeps them apart) whose
    base lies partly beyond the table's edge, to the contact tolerance: every rule set's
    only ways off the table take a piece out of play."""
    size = (game.table.width, game.table.depth)
    return [f"{u.id} at ({u.x:.2f}, {u.y:.2f})" for u in state.iter_units() if u.in_play and not all(
        on_table(b, size) for b in (u.base, *u.footprints))]


OVERLAP = 0.01
"""Inches two bases may overlap and still be touching (the rules' contact tolerance is finer)."""


def overlapping(state: GameState) -> list[str]:
    """The pairs of pieces in play that stand on each other, a unit whose stands are kept
    apart as they flee by each of its stands: every rule set's pieces pass through friends
    at most, and never end a move, a push, a rout or a rally on another piece. Generals
    and officers are left out (they ride among their troops, attached or in a front rank),
    and so are a fleeing unit's own stands on each other (each flees its own roll)."""
    pieces = [u for u in state.iter_units() if u.in_play and not u.is_commander]
    found: list[str] = []
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if math.dist((a.x, a.y), (b.x, b.y)) <= a.reach + b.reach and any(
                    polygons_overlap(fa.corners(), fb.corners(), OVERLAP)
                    for fa in a.footprints for fb in b.footprints):
                found.append(f"{a.id} and {b.id}")
    return found


def colours_astray(state: GameState) -> list[str]:
    """The units in play whose stands stand apart but whose place is not that of their
    colours (the first stand still in play): such a unit is where its colours are, and a
    move of the unit must move its stands."""
    return [u.id for u in state.iter_units() if u.in_play and u.stands and u.base != u.footprints[0]]


def table_problems(game: Game, state: GameState) -> list[str]:
    """What the check after every action finds: pieces off the table, pieces on each other,
    units apart from their colours."""
    return [*(f"off the table: {p}" for p in off_the_table(game, state)),
            *(f"on each other: {p}" for p in overlapping(state)),
            *(f"apart from its colours: {p}" for p in colours_astray(state))]
