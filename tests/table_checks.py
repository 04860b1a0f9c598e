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
        on_table(b, size) for b in (u.base, *(s.base for s in u.stands if s.removed is None)))]


OVERLAP = 0.01
"""Inches two bases may overlap and still be touching (the rules' contact tolerance is finer)."""


def overlapping(state: GameState) -> list[str]:
    """The pairs of pieces in play that stand on each other: every rule set's pieces pass
    through friends at most, and never end a move, a push, a rout or a rally on another
    piece. Generals and officers are left out (they ride among their troops, attached or
    in a front rank), and so is a unit whose stands are kept apart as they flee (what its
    scattered stands meet is the rout's to judge)."""
    pieces = [u for u in state.iter_units() if u.in_play and not u.is_commander and not u.stands]
    found: list[str] = []
    for i, a in enumerate(pieces):
        for b in pieces[i + 1:]:
            if math.dist((a.x, a.y), (b.x, b.y)) <= a.base.radius + b.base.radius and \
                    polygons_overlap(a.base.corners(), b.base.corners(), OVERLAP):
                found.append(f"{a.id} and {b.id}")
    return found


def table_problems(game: Game, state: GameState) -> list[str]:
    """What the check after every action finds: pieces off the table, pieces on each other."""
    return [*(f"off the table: {p}" for p in off_the_table(game, state)),
            *(f"on each other: {p}" for p in overlapping(state))]
