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
from tertia.rulesets.charge_yr_pikes.values import unit_data


def observed(table: Battlefield, state: GameState, side: str) -> GameState:
    """``state`` as ``side`` may see it: ``state`` itself, at once, when nothing of it is
    secret from ``side``."""
    if not hides_from(state, side):
        return state
    state = secret_orders.hide(state, side)
    state = secret_grades.hide(state, side)
    state = concealment.hide(table, state, side)
    return state


def playable(table: Battlefield, state: GameState, side: str, seed: int) -> GameState:
    """``sampled(table, observed(table, state, side), side, random.Random(seed))``, what a
    player tries its actions on, built faster: ``state`` itself when nothing is secret from
    ``side``, and in one step when only officers' values (and orders) are: each value is
    drawn in place of the officer's own, which is never read."""
    if not hides_from(state, side):
        return state
    if concealment.hidden_from(state, side):
        return sampled(table, observed(table, state, side), side, random.Random(seed))
    view = secret_grades.hidden_and_sampled(secret_orders.hide(state, side), side, random.Random(seed))
    return concealment.hiding_alike(view, state)


def hides_from(state: GameState, side: str) -> bool:
    """Does ``state`` hold anything secret from ``side``: would :func:`observed` change it?
    Exactly when one of the secrets' ``hide`` would: an enemy fire order of the step under
    way (:func:`secret_orders.hides_from`), an enemy officer's value not yet revealed
    (:func:`secret_grades.is_secret_from`), an enemy piece in play not placed
    (:func:`concealment.hidden_from`); the pieces looked at in one pass. Kept on the state
    (a player, the page and the log may ask of one position many times)."""
    key = (_HIDES, side)
    found: bool | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = secret_orders.hides_from(state, side) or _secret_piece(state, side)
    return found


def _secret_piece(state: GameState, side: str) -> bool:
    for u in state.units.values():
        if u.side != side:
            own = unit_data(u)
            if own.grade_secret is True or (own.placed is False and u.removed is None):
                return True
    return False


_HIDES = "cyp_hides_from"


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
