"""Fire orders given in secret (Sequence of play C-E): "within each fire step, all fire is
worked out from the state at the start of the step and applied together", so each side
orders its fire as the other does, not knowing the other's orders. Both sides write them
at the same time at the table; here one side gives its orders after the other, and must
not see them: until the step is worked out, the other side's orders are out of a side's
observation and its log. Once it is worked out the fire itself (the dice, the
casualties) is seen by both.
"""

from __future__ import annotations

from tertia.core.events import Event
from tertia.core.hidden import as_view
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.events import FireOrdered
from tertia.rulesets.charge_yr_pikes.values import game_data


def hides_from(state: GameState, viewer: str) -> bool:
    """Does ``state`` hold an order ``viewer`` may not see: does :func:`hide` change it?"""
    g = game_data(state)
    return g.step is not None and any(_side_of(state, o[0]) != viewer for o in g.orders)


def hide(state: GameState, viewer: str) -> GameState:
    """``state`` without the other side's orders of the fire step under way, marked as
    ``viewer``'s view; ``state`` itself when there are none."""
    g = game_data(state)
    if g.step is None or not g.orders:
        return state
    mine = tuple(o for o in g.orders if _side_of(state, o[0]) == viewer)
    if len(mine) == len(g.orders):
        return state
    return as_view(state.evolve(own=g.evolve(orders=mine)), viewer)


def _side_of(state: GameState, unit_id: str) -> str | None:
    unit = state.units.get(unit_id)
    return None if unit is None else unit.side


def carries_secret(event: Event, viewer: str) -> bool:
    """Is ``event`` the other side's fire order?"""
    return isinstance(event, FireOrdered) and event.side not in ("", viewer)
