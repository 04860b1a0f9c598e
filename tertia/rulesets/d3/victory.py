"""The end of a D3 battle and who won. Neither text says: Tertia ends the battle after
the scenario's turns or when a side has no troop units left, and scores one point for
each enemy unit out of play (routed, pursuing off the table, guns without ammunition),
one for the enemy commander and two for each objective held at the end (a troop unit's
centre within its radius and no enemy troop unit's)."""

from __future__ import annotations

import math

from tertia.core.events import GameEnded
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Objective

UNDEPLOYED = "undeployed"
COMMANDER_POINTS = 1
OBJECTIVE_POINTS = 2


def units_lost(state: GameState, side: str) -> int:
    return sum(
        1 for u in state.iter_units(side, include_removed=True)
        if not u.is_commander and u.removed not in (None, UNDEPLOYED)
    )


def holds(state: GameState, side: str, objective: Objective) -> bool:
    def inside(x: float, y: float) -> bool:
        return math.hypot(x - objective.x, y - objective.y) <= objective.radius

    mine = any(inside(u.x, u.y) for u in state.iter_troops(side))
    theirs = any(inside(u.x, u.y) for u in state.iter_troops(state.opponent(side)))
    return mine and not theirs and objective.side in (None, side)


def score_breakdown(state: GameState, side: str) -> dict[str, int]:
    enemy = state.opponent(side)
    commanders = sum(
        COMMANDER_POINTS for u in state.iter_units(enemy, include_removed=True)
        if u.is_commander and u.removed not in (None, UNDEPLOYED)
    )
    return {
        "enemy_units_lost": units_lost(state, enemy),
        "enemy_commander_lost": commanders,
        "objectives_held": OBJECTIVE_POINTS * sum(1 for o in state.objectives if holds(state, side, o)),
    }


def scores(state: GameState) -> dict[str, int]:
    return {s: sum(score_breakdown(state, s).values()) for s in state.sides}


def wiped_out(state: GameState) -> str | None:
    """A side with no troop units left on the table."""
    for side in state.sides:
        if not any(True for _ in state.iter_troops(side)):
            return side
    return None


def end_game(tx: Tx, reason: str) -> None:
    state = tx.state
    score = scores(state)
    a, b = state.sides
    winner = a if score[a] > score[b] else b if score[b] > score[a] else None
    tx.emit(GameEnded(
        winner=winner, score=score, reason=reason,
        breakdown={s: score_breakdown(state, s) for s in state.sides}
        | {"units_lost": {s: units_lost(state, s) for s in state.sides}},
    ))
