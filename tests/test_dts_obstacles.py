"""Declare Thee Sir, Movement: "When a unit encounters an obstacle (Wall, stream etc..)
during movement, it stops. When next activated, the unit moves without penalty." Option
``obstacles_stop``: ``own_moves`` (default) reads it of a unit's own movement only;
``every_move`` stops push-backs, routing stands and pursuers at an obstacle too, and one
already at an obstacle crosses it."""

from __future__ import annotations

import pytest

from tertia.rulesets.declare_thee_sir.pushback import push_back
from tertia.rulesets.declare_thee_sir.rout import pursue, rout
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.values import unit_data

from .dts_combat_support import A, B, dice_left, dts, state_of, table_with, tx_with, wall

WALL = wall(0, 10, 48, 10)
"""A wall across the table, a quarter inch thick, its near face at 9.875."""


@pytest.mark.parametrize(("reading", "at", "went", "stopped"), [
    ("own_moves", 7.0, 5.0, False), ("every_move", 7.0, 2.25, True), ("every_move", 9.25, 5.0, False)])
def test_a_push_back_stops_at_an_obstacle_only_under_every_move(reading: str, at: float, went: float,
                                                                stopped: bool) -> None:
    """Pushed 5" north towards the wall: by default it goes over it; under ``every_move`` it
    stops at it (its front at 9.75, cut back a quarter inch at a time) and is marked as
    stopped there; already at the wall, it crosses."""
    state = state_of(dts("t", A, 20, at, 0), dts("f", B, 20, at - 2.0, 0), obstacles_stop=reading)
    tx = tx_with(state, table=table_with(WALL))
    pushed = push_back(tx, "t", "f", 5.0, face_foe=False, reason="pushed back")
    assert pushed.distance == went and dice_left(tx) == 0
    assert unit_data(tx.state.units["t"]).at_obstacle is stopped


@pytest.mark.parametrize(("reading", "ys"), [("own_moves", [15.0] * 3), ("every_move", [9.25] * 3)])
def test_routing_stands_stop_at_an_obstacle_only_under_every_move(reading: str, ys: list[float]) -> None:
    """Each stand flees 9" north from y 6 (its front at 6.5) over the wall."""
    state = state_of(dts("b", A, 20, 6.0, 180, morale=0), dts("f", B, 20, 3.0, 0, morale=3),
                     obstacles_stop=reading)
    tx = tx_with(state, 9, 9, 9, table=table_with(WALL))
    rout(tx, "b", "f", "broken")
    assert [s.y for s in stands_of(tx.state.units["b"])] == ys and dice_left(tx) == 0


def test_a_routing_stand_at_an_obstacle_crosses_it() -> None:
    """Stopped at the wall (its front at 9.75), a stand flees on over it the next time."""
    state = state_of(dts("b", A, 20, 9.25, 180, morale=0, stands=1), dts("f", B, 20, 6.0, 0, morale=3),
                     obstacles_stop="every_move")
    tx = tx_with(state, 4, table=table_with(WALL))
    rout(tx, "b", "f", "broken")
    assert tx.state.units["b"].y == 13.25


@pytest.mark.parametrize(("reading", "reached"), [("own_moves", True), ("every_move", False)])
def test_a_pursuer_stops_at_an_obstacle_only_under_every_move(reading: str, reached: bool) -> None:
    """The pursuer's front at 7.5, the routing stand's rear at 12 (4.5" away), the wall
    between: a 6 reaches the stand over it by default; under ``every_move`` the pursuer
    stops at the wall, marked as stopped there."""
    routing = dts("b", A, 20, 12.5, 0, stands=1, morale=0).evolve(routing=True)
    pursuer = dts("p", B, 20, 7.0, 0, morale=3)
    tx = tx_with(state_of(routing, pursuer, obstacles_stop=reading), 6, *((5,) if reached else ()),
                 table=table_with(WALL))
    found = pursue(tx, "p", "b")
    assert (found.reached is not None) is reached and dice_left(tx) == 0
    p = tx.state.units["p"]
    assert (p.y + 0.5 <= 9.875) is not reached and unit_data(p).at_obstacle is not reached
