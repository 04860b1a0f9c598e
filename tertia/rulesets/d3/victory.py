"""The end of a D3 battle and who won. Neither text says: Tertia ends the battle after
the scenario's turns or when a side has no troop units left, and scores one point for
each enemy unit out of play (routed, pursuing off the table, guns without ammunition),
one for the enemy commander and two for each objective held at the end (a troop unit's
centre within its radius and no enemy troop unit's)."""

from __future__ import annotations

__all__ = ["end_game", "holds", "score_breakdown", "scores", "units_lost", "wiped_out"]

from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rules.victory import end_by_points, holds, wiped_out

UNDEPLOYED = "undeployed"
COMMANDER_POINTS = 1
OBJECTIVE_POINTS = 2


def units_lost(state: GameState, side: str) -> int:
    return sum(
        1 for u in state.iter_units(side, include_removed=True)
        if not u.is_commander and u.removed not in (None, UNDEPLOYED)
    )


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


def end_game(tx: Tx, reason: str) -> None:
    state = tx.state
    end_by_points(tx, scores(state), reason,
                  {s: score_breakdown(state, s) for s in state.sides}
                  | {"units_lost": {s: units_lost(state, s) for s in state.sides}})
