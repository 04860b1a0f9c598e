"""Charge yr Pikes! artillery clauses pinned from both sides: what stops a ball's
penetration on a line of fire that is not square to the table (9, *The lost tables*).

The king's field gun (k-gun) stands at (40, 10) facing north, its front centre at (40, 11)."""

from __future__ import annotations

import math

import pytest

from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.artillery import penetration

from .test_cyp_artillery import gun_and_target
from .test_cyp_fire import TABLES, area, at, field

# The line of fire from the gun's front centre through the target's centre, slanting
# north-east: one in two across, one in one up.
GUN_FRONT = (40.0, 11.0)
TARGET = (48.0, 27.0)
SLOPE = (TARGET[0] - GUN_FRONT[0], TARGET[1] - GUN_FRONT[1])
UNIT = math.hypot(*SLOPE)


def _along(inches: float) -> tuple[float, float]:
    """The point ``inches`` beyond the target's centre on the line of fire."""
    return (TARGET[0] + SLOPE[0] / UNIT * inches, TARGET[1] + SLOPE[1] / UNIT * inches)


def _slanting() -> GameState:
    """Parliament's foot the target, off to the gun's right; the king's horse 7" beyond it
    on the line, well inside the 12" zone."""
    state = gun_and_target(10.0)
    state = at(state, "p-foot", *TARGET)
    return at(state, "k-horse", *_along(7.0))


@pytest.mark.parametrize(("kind", "across", "stopped"), [
    ("woods", 0.0, True),     # woods on the line between the target and the horse
    ("town", 0.0, True),
    ("woods", 5.0, False),    # the same woods 5" to the side of the line: the ball passes
    ("rough", 0.0, False),    # rough ground stops no ball
])
def test_a_slanting_ball_is_stopped_only_by_stopping_ground_on_its_line(kind: str, across: float,
                                                                        stopped: bool) -> None:
    """*The lost tables* (artillery stops): woods, towns, works and rising ground on the line
    of fire behind the target stop the ball; the line runs from the gun through the target,
    whichever way it slants, and ground beside it stops nothing."""
    state = _slanting()
    x, y = _along(3.5)
    x += across
    ground = area(kind, x - 0.75, y - 0.75, x + 0.75, y + 0.75)
    found = penetration(field(ground), state, state.units["k-gun"], state.units["p-foot"], TABLES)
    assert [u.id for u in found] == ([] if stopped else ["k-horse"])
