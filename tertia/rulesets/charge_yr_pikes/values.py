"""A piece's and the game's Charge yr Pikes! values (:mod:`~tertia.rulesets.charge_yr_pikes.data`),
read off the state.

Compiled, so that compiled rules and doctrine, which ask for a unit's values at almost
every step, make a plain C call rather than one into Python.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tertia.core.hidden import is_hidden
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.data import CypGame, CypUnit


def unit_data(unit: Unit) -> CypUnit:
    """``unit``'s Charge yr Pikes! values (every piece under this rule set has them)."""
    return unit.own  # type: ignore[return-value]  # asked for everywhere: no cast() call


def game_data(state: GameState) -> CypGame:
    """The game's Charge yr Pikes! values."""
    return state.own  # type: ignore[return-value]


def graded_in_secret(pieces: Iterable[Unit], viewer: str) -> list[Unit]:
    """The ``pieces`` whose value (an officer's grade) ``viewer`` may not see, or that hold
    the placeholder for one, in the order given. Compiled with the values: every decision
    of a player looks through all the pieces for them
    (:func:`~tertia.rulesets.charge_yr_pikes.secret_grades.hidden_and_sampled`)."""
    found: list[Unit] = []
    for u in pieces:
        own = unit_data(u)
        if (u.side != viewer and own.grade_secret is True) or is_placeholder(own.grade):
            found.append(u)
    return found


def is_placeholder(grade: Any) -> bool:
    """Whether an officer's value is the placeholder a view holds for one unseen."""
    return grade is not None and type(grade) is not str and is_hidden(grade)
