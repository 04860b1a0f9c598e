"""Charge yr Pikes! plunder (section 21 A-E): obedience, riding off, the plundering turn,
the return and the re-entry."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.events import UnitRemoved
from tertia.core.state import Unit
from tertia.rulesets.charge_yr_pikes.plunder import (
    AT_TRAIN,
    OFF_TABLE,
    RETURNING,
    exit_point,
    go_plundering,
    may_charge,
    obeys,
    plunder_path,
    reenter,
    stops_plundering,
)
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import DEPTH, WIDTH, dice_left, officer, piece, state_of, tx_with

T = default_tables()


def horse(**own: Any) -> Unit:
    return piece("h", "king", "horse", 30.0, 40.0, **own)


@pytest.mark.parametrize(("face", "grade", "obedient"), [
    (3, None, False), (4, None, True), (1, None, False), (6, None, True),
    (3, "effective", True), (2, "effective", False), (2, "natural_born_leader", True),
    (3, "ineffective", False)])
def test_obedience_a_d6_with_the_officers_morale_bonus(face: int, grade: str | None, obedient: bool) -> None:
    # 21 A: "1,2,3 Cavalry attempts to plunder; 4-6 Cavalry obedient ... Normal officer bonuses apply."
    units = [horse()] + ([officer("o", "king", "h", "brigadier", grade)] if grade else [])
    tx = tx_with(state_of(*units), face)
    assert obeys(tx, T, "h") is obedient and dice_left(tx) == 0


def test_the_exit_is_straight_ahead_on_the_enemys_edge() -> None:
    h = piece("h", "king", "horse", 30.0, 40.0)
    assert exit_point(DEPTH, h, "north") == (30.0, DEPTH)
    assert exit_point(DEPTH, h, "south") == (30.0, 0.0)


def test_horse_riding_off_the_table_is_out_of_play_plundering() -> None:
    tx = tx_with(state_of(horse(), turn=3))
    go_plundering(tx, "h", [(30.0, 40.0), (30.0, DEPTH)])
    u = tx.state.units["h"]
    own = unit_data(u)
    assert (u.removed, own.plundering, own.plunder_x, own.plunder_y, own.plunder_turn) == \
        ("plundering", OFF_TABLE, 30.0, DEPTH, 3)
    assert isinstance(tx.events[-1], UnitRemoved)


def test_horse_plundering_the_train_stays_on_the_table() -> None:
    tx = tx_with(state_of(horse(), turn=3))
    go_plundering(tx, "h", [(30.0, 40.0), (20.0, 44.0)], at_train=True)
    u = tx.state.units["h"]
    assert (u.in_play, unit_data(u).plundering, (u.x, u.y)) == (True, AT_TRAIN, (20.0, 44.0))


@pytest.mark.parametrize(("friend_y", "halts"), [(None, 38.375), (30.0, 38.375), (38.0, 36.75)])
def test_horse_ride_through_friends_to_the_train_but_halt_short_of_one_there(friend_y: float | None,
                                                                             halts: float) -> None:
    """21 B: "they will head for the train": the ride halts in contact with the wagons (their
    front at 39, the horse 1.25" deep); a friend half way is ridden through, one already at
    the train halts it in contact with that friend (Movement C: not "intermingled")."""
    units = [piece("h", "king", "horse", 30.0, 20.0), piece("w", "parl", "wagons", 30.0, 40.0)]
    if friend_y is not None:
        units.append(piece("f", "king", "horse", 30.0, friend_y))
    state = state_of(*units)
    (start, end), at_train = plunder_path(state, state.units["h"], (WIDTH, DEPTH), "north")
    assert at_train and start == (30.0, 20.0) and end == pytest.approx((30.0, halts))


@pytest.mark.parametrize(("turn", "face", "rolled", "stops"), [
    (3, 6, False, False),   # the turn it rode off: no roll
    (4, 3, True, False),    # the end of the next turn: still plundering
    (4, 4, True, True)])
def test_the_return_is_rolled_at_the_end_of_each_turn_after_the_first(turn: int, face: int, rolled: bool,
                                                                       stops: bool) -> None:
    state = state_of(horse(plundering=OFF_TABLE, plunder_x=30.0, plunder_y=DEPTH, plunder_turn=3), turn=turn)
    tx = tx_with(state, face)
    assert stops_plundering(tx, T, "h") is stops
    assert dice_left(tx) == (0 if rolled else 1)
    assert unit_data(tx.state.units["h"]).plundering == (RETURNING if stops else OFF_TABLE)


def test_at_the_train_ceasing_frees_the_horse_at_once() -> None:
    state = state_of(horse(plundering=AT_TRAIN, plunder_x=30.0, plunder_y=40.0, plunder_turn=3), turn=4)
    tx = tx_with(state, 5)
    assert stops_plundering(tx, T, "h")
    assert unit_data(tx.state.units["h"]).plundering is None


@pytest.mark.parametrize(("face", "x"), [(1, 6.0), (2, 30.0), (5, 30.0), (6, 54.0)])
def test_reentry_at_the_exit_or_24_inches_to_its_right_or_left(face: int, x: float) -> None:
    # Left the north edge at x = 30; coming back it faces south, so its right is west.
    state = state_of(horse(plundering=RETURNING, plunder_x=30.0, plunder_y=DEPTH, plunder_turn=3), turn=5)
    tx = tx_with(state, face)
    assert reenter(tx, T, "h", WIDTH, DEPTH) == (x, DEPTH - 1.25 / 2)
    u = tx.state.units["h"]
    own = unit_data(u)
    assert (u.in_play, u.facing, own.plundering, own.reentered_turn) == (True, 180.0, None, 5)


@pytest.mark.parametrize(("standing", "at"), [
    ((30.0, DEPTH - 0.625), (30.0, DEPTH - 1.875)),  # a friend on the spot: just in front of it
    ((30.0, DEPTH - 3.0), (30.0, DEPTH - 0.625)),  # one further in: the spot is clear
])
def test_reentry_where_a_piece_stands_is_at_the_nearest_clear_place(standing: tuple[float, float],
                                                                   at: tuple[float, float]) -> None:
    # 21 C: coming back at its exit point (a 2), the horse may not be put down on another
    # piece: a friend standing there, it comes on just clear of it, further in.
    friend = piece("f", "king", "horse", *standing, facing=180.0)
    state = state_of(horse(plundering=RETURNING, plunder_x=30.0, plunder_y=DEPTH, plunder_turn=3), friend,
                     turn=5)
    tx = tx_with(state, 2)
    assert reenter(tx, T, "h", WIDTH, DEPTH) == pytest.approx(at)


def test_reentry_from_the_south_edge_faces_north_and_stays_on_the_table() -> None:
    state = state_of(horse(plundering=RETURNING, plunder_x=70.0, plunder_y=0.0, plunder_turn=3), turn=5)
    tx = tx_with(state, 1)
    x, y = reenter(tx, T, "h", WIDTH, DEPTH)
    assert (x, y, tx.state.units["h"].facing) == (WIDTH - 6.25 / 2, 1.25 / 2, 0.0)


def test_no_charge_while_plundering_nor_on_the_turn_it_comes_back() -> None:
    assert not may_charge(state_of(horse(plundering=AT_TRAIN)), "h")
    assert not may_charge(state_of(horse(reentered_turn=5), turn=5), "h")
    assert may_charge(state_of(horse(reentered_turn=5), turn=6), "h")
