"""A piece's and the game's Charge yr Pikes! values (:mod:`~tertia.rulesets.charge_yr_pikes.data`),
read off the state.

Compiled, so that compiled rules and doctrine, which ask for a unit's values at almost
every step, make a plain C call rather than one into Python.
"""

from __future__ import annotations

from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.data import CypGame, CypUnit


def unit_data(unit: Unit) -> CypUnit:
    """``unit``'s Charge yr Pikes! values (every piece under this rule set has them)."""
    return unit.own  # type: ignore[return-value]  # asked for everywhere: no cast() call


def game_data(state: GameState) -> CypGame:
    """The game's Charge yr Pikes! values."""
    return state.own  # type: ignore[return-value]
