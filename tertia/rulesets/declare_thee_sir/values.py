"""A piece's and the game's Declare Thee Sir values (:mod:`~tertia.rulesets.declare_thee_sir.data`),
read off the state.

Compiled, so that compiled rules and doctrine, which ask for a unit's values at almost
every step, make a plain C call rather than one into Python.
"""

from __future__ import annotations

from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.data import DtsGame, DtsUnit


def unit_data(unit: Unit) -> DtsUnit:
    """``unit``'s Declare Thee Sir values (every piece under this rule set has them)."""
    return unit.own  # type: ignore[return-value]  # asked for everywhere: no cast() call


def game_data(state: GameState) -> DtsGame:
    """The game's Declare Thee Sir values."""
    return state.own  # type: ignore[return-value]
