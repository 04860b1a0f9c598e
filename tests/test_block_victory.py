"""The shared objectives-and-victory block (``tertia.rules.victory``), both sides of each
condition."""

from __future__ import annotations

from typing import Any

from tertia.core.dice import ScriptedDice
from tertia.core.events import GameEnded
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Objective
from tertia.core.terrain import Battlefield
from tertia.rules.victory import end_by_points, holds, turns_played, winner_of, wiped_out
from tests.support import P, R, commander, make_game, position, unit

FORD = Objective("The Ford", 30.0, 20.0, 4.0)


def _state(*pieces: dict[str, Any]) -> GameState:
    units = [p for p in pieces if "type" in p]
    leaders = [p for p in pieces if "type" not in p]
    return position(make_game(units, commanders=leaders))


def test_an_objective_is_held_by_a_troop_within_its_radius_and_no_enemy() -> None:
    near = unit("p", P, "foot", 30, 17)
    assert holds(_state(near, unit("r", R, "foot", 30, 40, 180)), P, FORD)
    assert not holds(_state(unit("p", P, "foot", 30, 15.9), unit("r", R, "foot", 30, 40, 180)), P, FORD)
    # An enemy troop within it denies it; a commander counts for neither side.
    assert not holds(_state(near, unit("r", R, "foot", 30, 23.5, 180)), P, FORD)
    assert not holds(_state(commander("c", P, 30, 20), unit("r", R, "foot", 30, 40, 180)), P, FORD)
    # An objective named for one side only that side can hold.
    theirs = Objective("Their Ford", 30.0, 20.0, 4.0, side=R)
    assert not holds(_state(near, unit("r", R, "foot", 30, 40, 180)), P, theirs)


def test_a_side_with_no_troops_is_wiped_out() -> None:
    assert wiped_out(_state(unit("p", P, "foot", 30, 10), unit("r", R, "foot", 30, 40, 180))) is None
    assert wiped_out(_state(unit("p", P, "foot", 30, 10), commander("c", R, 30, 40))) == R


def test_the_turn_limit_and_the_winner() -> None:
    state = _state(unit("p", P, "foot", 30, 10), unit("r", R, "foot", 30, 40, 180))
    assert not turns_played(state.evolve(turn=7), 8) and turns_played(state.evolve(turn=8), 8)
    assert winner_of({P: 2, R: 1}) == P and winner_of({P: 1, R: 2}) == R
    assert winner_of({P: 1, R: 1}) is None


def test_ending_by_points_names_the_winner_and_keeps_the_sides_order() -> None:
    state = _state(unit("p", P, "foot", 30, 10), unit("r", R, "foot", 30, 40, 180))
    tx = Tx(Battlefield(60, 48), state, ScriptedDice([]))
    end_by_points(tx, {R: 3, P: 1}, "the turn limit", {"note": 1})
    ended = tx.events[-1]
    assert isinstance(ended, GameEnded) and ended.winner == R and list(ended.score) == list(state.sides)
    assert tx.state.result is not None and tx.state.result["reason"] == "the turn limit"
