"""Charge yr Pikes! plunder in play (section 21 B-D): the ride to the enemy's edge round
enemy units or to the baggage train, the roll to cease at the end of each turn, the return
on the horse's card and no attack on the turn it comes back."""

from __future__ import annotations

import math

from tertia.core.state import Unit
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.data import CypGame
from tertia.rulesets.charge_yr_pikes.plunder import (
    AT_TRAIN,
    OFF_TABLE,
    RETURNING,
    come_back,
    end_of_turn,
    plunder_path,
    ride_off,
)
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_melee_support import DEPTH, WIDTH, dice_left, piece, state_of, table_with, tx_with

T = default_tables()
TABLE = (WIDTH, DEPTH)


def horse() -> Unit:
    return piece("h", "king", "horse", 30.0, 36.0)


def wagons(x: float, y: float) -> Unit:
    gun = piece("w", "parl", "artillery", x, y)
    return gun.evolve(own=unit_data(gun).evolve(troop="wagons", gun=None))


def test_with_the_way_clear_the_horse_ride_straight_off_the_enemys_edge() -> None:
    # 21 B: "They will move straight towards the edge if possible".
    tx = tx_with(state_of(horse(), turn=3))
    ride_off(tx, "h")
    u = tx.state.units["h"]
    assert (u.removed, unit_data(u).plundering, unit_data(u).plunder_x, unit_data(u).plunder_y) == \
        ("plundering", OFF_TABLE, 30.0, DEPTH)


def test_an_enemy_in_the_way_is_avoided_at_the_smallest_angle() -> None:
    # "... but at any angle if necessary to avoid enemy units."
    enemy = piece("e", "parl", "foot", 30.0, 42.0, facing=180.0)
    state = state_of(horse(), enemy)
    (start, end), at_train = plunder_path(state, state.units["h"], TABLE, "north")
    angle = math.degrees(math.atan2(end[0] - start[0], end[1] - start[1]))
    assert not at_train and end[1] == DEPTH
    assert angle > 0 and round(angle) % 5 == 0  # to the right first, in 5-degree steps
    # With the enemy off to the right of the straight line, the right is blocked longer.
    closer = piece("e", "parl", "foot", 30.0 + 4.0, 42.0, facing=180.0)
    (_, straight), _ = plunder_path(state_of(horse(), closer), horse(), TABLE, "north")
    assert straight[0] < 30.0  # the enemy to the right: the horse bears left


def test_friends_in_the_way_are_ridden_through() -> None:
    friend = piece("f", "king", "foot", 30.0, 42.0)
    (start, end), _ = plunder_path(state_of(horse(), friend), horse(), TABLE, "north")
    assert (start, end) == ((30.0, 36.0), (30.0, DEPTH))


def test_with_the_baggage_on_the_table_they_head_for_the_train_and_stay_there() -> None:
    # "If the bagage train is on the table, they will head for the train ... the plundering
    # cavalry remain there plundering till they cease."
    tx = tx_with(state_of(horse(), wagons(40.0, 44.0), turn=3))
    ride_off(tx, "h")
    u = tx.state.units["h"]
    assert u.in_play and unit_data(u).plundering == AT_TRAIN
    gap = math.dist(u.base.centre, (40.0, 44.0))
    assert gap < math.dist((30.0, 36.0), (40.0, 44.0)) - 5.0  # it rode up to the wagons


def test_the_roll_to_cease_is_made_at_the_end_of_each_turn_after_the_first() -> None:
    tx = tx_with(state_of(horse(), turn=3))
    ride_off(tx, "h")
    end_of_turn(tx, T)  # the turn it rode off: no roll
    assert dice_left(tx) == 0 and unit_data(tx.state.units["h"]).plundering == OFF_TABLE
    later = tx_with(tx.state.evolve(turn=4), 4)
    end_of_turn(later, T)
    assert dice_left(later) == 0 and unit_data(later.state.units["h"]).plundering == RETURNING


def test_returning_horse_come_back_on_their_card_without_a_response_and_may_not_charge() -> None:
    tx = tx_with(state_of(horse(), piece("e", "parl", "foot", 30.0, 20.0, facing=0.0), turn=3))
    ride_off(tx, "h")
    back = tx_with(tx.state.evolve(turn=4), 4, 3)  # ceases on 4; re-enters at the exit point on 3
    end_of_turn(back, T)
    come_back(back, T, "king:t-h", "king", "t-h")
    u = back.state.units["h"]
    assert u.in_play and (u.x, u.facing) == (30.0, 180.0) and unit_data(u).reentered_turn == 4
    assert "h" in game_data(back.state).moving and dice_left(back) == 0
    found = ChargeYrPikes().validate(table_with(), back.state, Charge(unit="h", target="e"))
    assert found and "came back from plundering" in found[0].message
    next_turn = back.state.evolve(turn=5)
    assert not any("plundering" in v.message for v in
                   ChargeYrPikes().validate(table_with(), next_turn, Charge(unit="h", target="e")))


def test_a_card_of_another_tertia_brings_no_one_back() -> None:
    state = state_of(horse())
    state = state.with_unit(state.units["h"].evolve(own=unit_data(state.units["h"]).evolve(
        plundering=RETURNING, plunder_x=30.0, plunder_y=DEPTH, plunder_turn=3)))
    tx = tx_with(state)
    come_back(tx, T, "king:other", "king", "other")
    assert game_data(tx.state) == CypGame() and dice_left(tx) == 0
