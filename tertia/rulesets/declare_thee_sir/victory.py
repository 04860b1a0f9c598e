"""Victory: the text gives none, so this is a documented default a club may change.

An army breaks when half its units (not counting generals, nor a forlorn hope sent out
by a regiment, which is part of it) have routed off the table or been destroyed (option
``army_breaks_at``, the fraction lost that breaks it: 0.5 by default): the battle ends
at once and the other side wins. If both break on the same activation it ends as a draw
on points. Otherwise it ends after the scenario's last turn: each side scores a point
for each enemy unit routed off or destroyed and two for each objective it holds
(:func:`tertia.rules.victory.holds`), and the side with more points wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.events import GameEnded
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, UnitKind
from tertia.rules.victory import end_by_points, holds
from tertia.rulesets.declare_thee_sir.data import unit_data

OBJECTIVE_POINTS = 2


def units_lost(state: GameState, side: str) -> tuple[int, int]:
    """(units lost, units the side began with), generals not counted, nor a forlorn hope
    drawn from a regiment (part of it, Optional Rules a)."""
    units = [u for u in state.iter_units(side, include_removed=True)
             if u.kind is not UnitKind.COMMANDER and unit_data(u).parent is None]
    return sum(1 for u in units if not u.in_play), len(units)


def broken(state: GameState, side: str, fraction: float) -> bool:
    """Has ``side`` lost at least ``fraction`` of its units?"""
    lost, began = units_lost(state, side)
    return began > 0 and lost >= fraction * began


def scores(state: GameState) -> dict[str, dict[str, int]]:
    """Each side's points by what earned them."""
    out = {}
    for side in state.sides:
        lost, _ = units_lost(state, state.opponent(side))
        held = sum(1 for o in state.objectives if holds(state, side, o))
        out[side] = {"enemy_units_lost": lost, "objectives_held": held * OBJECTIVE_POINTS}
    return out


def check(tx: Tx, options: Mapping[str, Any]) -> bool:
    """End the battle if an army has broken; True when it has ended."""
    fraction = float(options["army_breaks_at"])
    gone = [side for side in tx.state.sides if broken(tx.state, side, fraction)]
    if not gone:
        return False
    if len(gone) == 1:
        winner = tx.state.opponent(gone[0])
        breakdown = scores(tx.state)
        tx.emit(GameEnded(winner=winner, score={s: sum(v.values()) for s, v in breakdown.items()},
                          reason=f"{gone[0]}'s army breaks", breakdown=breakdown))
    else:
        _by_points(tx, "both armies break")
    return True


def at_turn_limit(tx: Tx) -> None:
    _by_points(tx, "the last turn is over")


def _by_points(tx: Tx, reason: str) -> None:
    breakdown = scores(tx.state)
    end_by_points(tx, {s: sum(v.values()) for s, v in breakdown.items()}, reason, breakdown)
