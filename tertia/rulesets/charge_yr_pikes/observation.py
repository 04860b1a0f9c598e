"""What each side of Charge yr Pikes! may see: the one place the rule set hides things.

Three secrets, each kept by its own module: where the enemy's hidden units stand (Set-up
D, Sequence of play B), the grades of the enemy's officers not yet revealed (section 22)
and the enemy's fire orders in a step not yet worked out (Sequence of play C-E).
A side's observation is the full position with each hidden from it; a player (the AI)
tries its actions on a full state sampled from that observation; the log shows a side
only the events it may see.
"""

from __future__ import annotations

import random

from tertia.core.events import Event
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.rulesets.charge_yr_pikes import concealment, secret_grades, secret_orders


def observed(table: Battlefield, state: GameState, side: str) -> GameState:
    """``state`` as ``side`` may see it."""
    state = secret_orders.hide(state, side)
    state = secret_grades.hide(state, side)
    state = concealment.hide(table, state, side)
    return state


def sampled(table: Battlefield, observation: GameState, side: str, rng: random.Random) -> GameState:
    """A full state consistent with ``side``'s observation, what it cannot see drawn by
    ``rng``."""
    observation = concealment.sample(table, observation, side, rng)
    observation = secret_grades.sample(observation, rng)
    return observation


def visible_to(event: Event, side: str) -> bool:
    """May ``side`` see ``event`` in its log?"""
    return concealment.visible_to(event, side) and not secret_grades.carries_secret(event, side) \
        and not secret_orders.carries_secret(event, side)
