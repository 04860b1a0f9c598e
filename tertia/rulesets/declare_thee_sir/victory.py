"""Victory: the text gives none, so this is a documented default a club may change.

- **An army breaks** when a share of its units (not counting generals, nor a forlorn hope
  sent out by a regiment, which is part of it) have routed off the table or been
  destroyed (option ``army_breaks_at``: one half by default): the battle ends at once and
  the other side wins. If both break on the same activation it ends on points.
- **Objectives** (a scenario's ``[[objectives]]``): a side holds one when a unit of its
  troops in good order (in play and not routing) has its centre within the radius and no
  enemy unit in good order has, and the objective is one the side may take. An objective
  whose taking ends the battle (the scenario's ``ends_game``, true unless it says
  otherwise) ends it when a side holds it as a turn ends (the deck spent): the side that
  holds it wins; if each side holds one, the battle ends on points.
- **Points**, when the scenario's last turn is over (or both armies break, or each side
  holds an objective that ends the battle): a point for each enemy unit routed off or
  destroyed and ``objective_points`` (option, 2 by default) for each objective held; the
  side with more points wins, equal points draw.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tertia.core.events import GameEnded
from tertia.core.presentation import Ending
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Objective, UnitKind
from tertia.rules.victory import end_by_points
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

OBJECTIVE_POINTS = 2
"""An objective held at the end is worth this many points unless the option says otherwise."""


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


def holds(state: GameState, side: str, objective: Objective) -> bool:
    """Does ``side`` hold ``objective``: a unit of its troops in good order (not routing)
    with its centre within the radius, none of the enemy's, and the objective one ``side``
    may take?"""
    if objective.side not in (None, side):
        return False

    def there(s: str) -> bool:
        return any(math.hypot(u.x - objective.x, u.y - objective.y) <= objective.radius
                   for u in state.iter_troops(s) if not unit_data(u).routing)

    return there(side) and not there(state.opponent(side))


def scores(state: GameState, objective_points: int = OBJECTIVE_POINTS) -> dict[str, dict[str, int]]:
    """Each side's points by what earned them."""
    out = {}
    for side in state.sides:
        lost, _ = units_lost(state, state.opponent(side))
        held = sum(1 for o in state.objectives if holds(state, side, o))
        out[side] = {"enemy_units_lost": lost, "objectives_held": held * objective_points}
    return out


ARMY_BREAKS = "the beaten army breaks"
BOTH_BREAK = "both armies break"
VICTORS_HOLD = "the victors hold"
EACH_HOLDS = "each side holds an objective"
LAST_TURN = "the last turn is over"
"""How the reasons a battle ends open: an army broken, both (on points), an objective
that ends the battle held by one side, by both (on points), and the last turn played."""

ENDINGS = (Ending("an army broke", ARMY_BREAKS, decided=True),
           Ending("both armies broke", BOTH_BREAK, decided=True),
           Ending("an objective was held", VICTORS_HOLD, decided=True),
           Ending("each side held an objective", EACH_HOLDS, decided=True),
           Ending("the last turn was played", LAST_TURN, decided=False))
"""Every way a battle ends (:attr:`~tertia.core.presentation.Presentation.ENDINGS`)."""


def check(tx: Tx, options: Mapping[str, Any]) -> bool:
    """End the battle if an army has broken; True when it has ended."""
    fraction = float(options["army_breaks_at"])
    gone = [side for side in tx.state.sides if broken(tx.state, side, fraction)]
    if not gone:
        return False
    if len(gone) == 1:
        _win(tx, tx.state.opponent(gone[0]), ARMY_BREAKS, options)
    else:
        _by_points(tx, BOTH_BREAK, options)
    return True


def at_turn_end(tx: Tx, options: Mapping[str, Any]) -> bool:
    """As a turn ends: a side holding an objective that ends the battle wins (each side
    holding one: on points); True when the battle has ended."""
    ending = set(game_data(tx.state).ending_objectives)
    held = {side: [o.name for o in tx.state.objectives if o.name in ending and holds(tx.state, side, o)]
            for side in tx.state.sides}
    takers = [side for side in tx.state.sides if held[side]]
    if not takers:
        return False
    if len(takers) == 1:
        _win(tx, takers[0], f"{VICTORS_HOLD} {', '.join(held[takers[0]])}", options)
    else:
        _by_points(tx, EACH_HOLDS, options)
    return True


def at_turn_limit(tx: Tx, options: Mapping[str, Any]) -> None:
    _by_points(tx, LAST_TURN, options)


def _points(options: Mapping[str, Any]) -> int:
    return int(options.get("objective_points", OBJECTIVE_POINTS))


def _win(tx: Tx, winner: str, reason: str, options: Mapping[str, Any]) -> None:
    breakdown = scores(tx.state, _points(options))
    tx.emit(GameEnded(winner=winner, score={s: sum(v.values()) for s, v in breakdown.items()},
                      reason=reason, breakdown=breakdown))


def _by_points(tx: Tx, reason: str, options: Mapping[str, Any]) -> None:
    breakdown = scores(tx.state, _points(options))
    end_by_points(tx, {s: sum(v.values()) for s, v in breakdown.items()}, reason, breakdown)
