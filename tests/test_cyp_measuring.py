"""Charge yr Pikes! measuring (Movement 5 B): "All measuring for distance is made from the
center of the line, or the center of the front of the head of a column, or the center of
mass of a square." Moves, wheels and charges are measured along the path of the unit's
reference point."""

from __future__ import annotations

import math

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.movement import plan_move
from tertia.rulesets.charge_yr_pikes import movement
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.events import ChargeMade
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, reformed
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .test_cyp_setup import scenario

K1_MOVES = [4, 1, 1, 5]  # grades; k1's card first; k-foot rolls 5 and moves


def _game(formation: str = "line") -> tuple[Game, GameState]:
    """k-foot (a foot regiment: a line 4" wide and 1.5" deep, centre (30, 12), facing
    north) may move 8" (4" in square) on k1's card."""
    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice(K1_MOVES))
    if formation != "line":
        state = state.with_unit(reformed(state, state.units["k-foot"], formation))
    return game, state


def _measured(state: GameState, move: Move) -> float:
    unit = state.units[move.unit]
    return movement.measured_length(plan_move(unit, move), unit_data(unit).formation)


def test_the_reference_point_is_the_front_centre_in_line_and_column_and_the_centre_in_square() -> None:
    _, state = _game()
    line = state.units["k-foot"]
    assert movement.reference_point(line) == pytest.approx((30.0, 12.75))
    column = reformed(state, line, "column")  # the front edge stays where it was
    assert movement.reference_point(column) == pytest.approx((30.0, 12.75))
    assert movement.reference_point(reformed(state, line, "square")) == \
        pytest.approx(reformed(state, line, "square").base.centre)
    for formation in ("deployed", "routed"):  # chosen: no front, measured as a square
        assert movement.reference_point(line.evolve(formation=formation)) == (30.0, 12.0)


@pytest.mark.parametrize(("inches", "legal"), [(8.0, True), (8.05, False)])
def test_a_line_moving_straight_costs_its_distance(inches: float, legal: bool) -> None:
    game, state = _game()
    move = Move(unit="k-foot", waypoints=((30.0, 12.0 + inches),))
    assert _measured(state, move) == pytest.approx(inches)
    assert game.is_legal(state, move) is legal


def test_a_wheel_about_a_flank_costs_the_front_centres_arc() -> None:
    # Wheeling 90 degrees about its left front corner (28, 12.75), the right flank
    # forward: the front centre, 2" from that corner, travels a quarter circle of radius 2".
    game, state = _game()
    move = Move(unit="k-foot", waypoints=((28.75, 14.75),), face_after=270.0)
    assert plan_move(state.units["k-foot"], move).end.corners()[0] == pytest.approx((28.0, 12.75))
    assert _measured(state, move) == pytest.approx(2.0 * math.pi / 2)
    # Pivoting on the spot and sliding there would cost more: the front centre swings
    # 0.75" x 90 degrees, then the centre's 3.1" slide.
    as_given = movement.turning_cost(plan_move(state.units["k-foot"], move), "line") + math.dist(
        (30.0, 12.0), (28.75, 14.75))
    assert as_given > math.pi + 1.0
    assert game.is_legal(state, move)


def test_a_wheel_about_the_other_flank_is_measured_the_same() -> None:
    # About the right front corner (32, 12.75), the left flank forward, 45 degrees.
    _, state = _game()
    turn = math.radians(45.0)
    rel = (-2.0, -0.75)  # the centre from the pivot corner, turned 45 degrees clockwise
    centre = (32.0 + rel[0] * math.cos(turn) + rel[1] * math.sin(turn),
              12.75 - rel[0] * math.sin(turn) + rel[1] * math.cos(turn))
    move = Move(unit="k-foot", waypoints=(centre,), face_before=45.0)
    assert _measured(state, move) == pytest.approx(2.0 * turn)


@pytest.mark.parametrize(("slide", "legal"), [(6.8, True), (6.85, False)])
def test_a_line_pays_for_its_front_centres_swing_on_the_spot(slide: float, legal: bool) -> None:
    # A quarter turn on the spot swings the front centre 0.75" x pi/2 = 1.18"; with a
    # slide of 6.8" that is 7.98" of the 8" allowed, with 6.85" it is 8.03".
    game, state = _game()
    move = Move(unit="k-foot", waypoints=((30.0 + slide, 12.0),), face_before=90.0)
    assert _measured(state, move) == pytest.approx(0.75 * math.pi / 2 + slide)
    found = game.validate(state, move)
    assert (not found) is legal
    if not legal:
        assert [v.code for v in found] == [CypCode.TOO_FAR] and "centre of its front" in found[0].message


@pytest.mark.parametrize(("slide", "legal"), [(4.0, True), (4.05, False)])
def test_a_square_is_measured_from_its_centre_and_turns_for_nothing(slide: float, legal: bool) -> None:
    # Foot in square move 4"; turning about its centre of mass moves nothing.
    game, state = _game("square")
    foot = state.units["k-foot"]
    move = Move(unit="k-foot", waypoints=((foot.x, foot.y + slide),), face_before=180.0)
    assert _measured(state, move) == pytest.approx(slide)
    found = game.validate(state, move)
    assert (not found) is legal
    if not legal:
        assert "measured from its centre" in found[0].message


@pytest.mark.parametrize(("slide", "legal"), [(5.6, True), (5.7, False)])
def test_a_column_is_measured_from_the_front_of_its_head(slide: float, legal: bool) -> None:
    # A column 2" wide and 3" deep: a quarter turn on the spot swings the head's front
    # centre 1.5" x pi/2 = 2.36"; 5.6" more makes 7.96", 5.7" makes 8.06".
    game, state = _game("column")
    foot = state.units["k-foot"]
    assert (foot.width, foot.depth) == (2.0, 3.0)
    move = Move(unit="k-foot", waypoints=((foot.x + slide, foot.y),), face_before=90.0)
    assert _measured(state, move) == pytest.approx(1.5 * math.pi / 2 + slide)
    assert game.is_legal(state, move) is legal


def test_ground_that_stops_a_unit_short_takes_its_turns_first() -> None:
    # With 8" and a quarter turn (1.18") the slide left is 6.82".
    _, state = _game()
    plan = plan_move(state.units["k-foot"], Move(unit="k-foot", waypoints=((40.0, 12.0),), face_before=90.0))
    assert movement.slide_within(plan, "line", 8.0) == pytest.approx(8.0 - 0.75 * math.pi / 2)
    assert movement.slide_within(plan, "line", 20.0) == pytest.approx(10.0)


def test_a_charge_is_measured_from_the_front_centre_with_its_turn() -> None:
    # The enemy 15" off to the left: the foot turns a quarter (its front centre swings
    # 1.18") and runs until its front is 1" from the target.
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=15.0, y=12.0, facing=90.0))
    path = charge_path(game.table, state, state.units["k-foot"], state.units["p-foot"])
    assert path.turn == pytest.approx(0.75 * math.pi / 2)
    # Centre to the target's front 14.25", less the foot's half depth and the 1" halt.
    assert path.distance == pytest.approx(30.0 - 0.75 - 15.0 - 0.75 - 1.0)
    assert path.length == pytest.approx(path.turn + path.distance)
    # Foot charge at their normal 8": 12.5" + 1.18" is 5.68" too far, a man an inch begun.
    _, events = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    assert [e.fatigued for e in events if isinstance(e, ChargeMade)] == [6]


def test_a_square_charging_turns_for_nothing() -> None:
    game, state = _game("square")
    state = state.with_unit(state.units["p-foot"].evolve(x=15.0, y=12.0, facing=90.0))
    path = charge_path(game.table, state, state.units["k-foot"], state.units["p-foot"])
    assert path.turn == 0.0 and path.length == path.distance
