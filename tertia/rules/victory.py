"""Objectives, the end of a battle and who won, as more than one rule set decides them.

An objective is held by a side with a troop unit's centre within its radius and no enemy
troop unit's (larger-battles: Objectives; the D3 rule sets score objectives held at the
end, a reading recorded in their clause tables). A battle ends when the scenario's turns
are played, or when a side has no troops left; the side with more points wins, equal
points draw.

>>> from tertia.core.state import GameState, Objective
>>> ford = Objective("The Ford", 10.0, 10.0, 3.0)
>>> holds(GameState(("red", "blue"), 1, "red", "movement", {}), "red", ford)
False
>>> winner_of({"red": 3, "blue": 1}), winner_of({"red": 2, "blue": 2})
('red', None)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tertia.core.events import GameEnded
from tertia.core.presentation import Ending
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Objective

WIPED_OUT = "the beaten side has no units left"
"""Why a battle ends when a side has no troop units left."""

TURN_LIMIT = "the turn limit"
"""How the reason opens when a battle ends as its last turn is played."""

ENDED_WIPED_OUT = Ending("a side had no units left", WIPED_OUT, decided=True)
ENDED_AT_TURN_LIMIT = Ending("the turn limit was reached", TURN_LIMIT, decided=False)


def turn_limit_reached(limit: int) -> str:
    """Why a battle ends as its last turn, ``limit``, is played."""
    return f"{TURN_LIMIT} ({limit}) was reached"


def holds(state: GameState, side: str, objective: Objective) -> bool:
    """Does ``side`` hold ``objective``: one of its troop units' centre within the
    radius, no enemy troop unit's, and the objective one ``side`` may take?"""
    if objective.side not in (None, side):
        return False

    def inside(x: float, y: float) -> bool:
        return math.hypot(x - objective.x, y - objective.y) <= objective.radius

    mine = any(inside(u.x, u.y) for u in state.iter_troops(side))
    return mine and not any(inside(u.x, u.y) for u in state.iter_troops(state.opponent(side)))


def wiped_out(state: GameState) -> str | None:
    """A side with no troop units left on the table, or None."""
    for side in state.sides:
        if not any(True for _ in state.iter_troops(side)):
            return side
    return None


def turns_played(state: GameState, limit: int) -> bool:
    """Has the game turn ``limit`` (the scenario's number of turns) been reached?"""
    return state.turn >= limit


def winner_of(score: Mapping[str, int]) -> str | None:
    """The side with more points, or None when the points are equal."""
    (a, pa), (b, pb) = score.items()
    return a if pa > pb else b if pb > pa else None


def end_by_points(tx: Tx, score: Mapping[str, int], reason: str, breakdown: Mapping[str, Any]) -> None:
    """End the battle: the side with more points wins (:func:`winner_of`)."""
    ordered = {side: score[side] for side in tx.state.sides}
    tx.emit(GameEnded(winner=winner_of(ordered), score=ordered, reason=reason, breakdown=breakdown))
