"""Charge yr Pikes! moves, charges and the stands that fire (Formations C, D; Movement 5;
Close combat 12 A; Fire 8 D, town and works): short moves, a unit's states on the table,
charges begun within an inch of the target, charge reaches and blockers, moves cut to the
allowance, the rear stand's range and hits halved only in a town or works."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.rules.movement import plan_move
from tertia.rulesets.charge_yr_pikes import movement
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.musketry import stand_ranges, work_out_volley
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.troops import FOOT, TROOPS

from .test_cyp_fire import OPEN, TABLES, area, facing_off, field
from .test_cyp_movement import _game

T = default_tables()


# --- Formations C, D -------------------------------------------------------------------------


@pytest.mark.parametrize("forward", [0.5, 1.0, 6.0])
def test_a_unit_may_move_less_than_its_own_depth(forward: float) -> None:
    # Formations C: a unit may not end "intermingled" with a friend; ending where it
    # partly stood itself is no such thing. The foot is 1.5" deep.
    game, state = _game()
    foot = state.units["k-foot"]
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((foot.x, foot.y + forward),)))


def test_a_unit_comes_onto_the_table_in_good_order_with_no_state_set() -> None:
    # Formations D: disordered and falling back are states beside the formation; a unit
    # fresh on the table has none of them, and has neither moved nor fired (its gun either).
    fresh = CypUnit.of(FOOT)
    assert not (fresh.disordered or fresh.falling_back or fresh.moved or fresh.fired or fresh.gun_fired)
    gun = CypUnit.of(TROOPS["artillery"])
    assert not gun.gun_fired


# --- charges (Movement 5 table, Close combat 12 A) -----------------------------------------


def test_a_charge_begun_within_an_inch_of_the_target_does_not_move() -> None:
    # 12 A: the attacker "halts 1" away"; one whose front is already 0.5" off stays put.
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=14.0))  # its front at 13.25
    foot, enemy = state.units["k-foot"], state.units["p-foot"]
    path = charge_path(game.table, state, foot, enemy)
    assert path.blocked_by is None and path.distance == 0.0 and path.end == (foot.x, foot.y)


def test_a_charge_stopped_by_a_piece_in_the_way_names_it() -> None:
    # A piece in the way, friend or foe, stops the charge: the path says which.
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=24.0))
    state = state.with_unit(state.units["k-horse"].evolve(x=30.0, y=18.0, name="Rupert's Horse"))
    path = charge_path(game.table, state, state.units["k-foot"], state.units["p-foot"])
    assert path.blocked_by == "Rupert's Horse"


@pytest.mark.parametrize(("troop", "formation", "reach"), [
    ("foot", "column", 8.0), ("foot", "line", 8.0), ("horse", "column", 32.0)])
def test_a_charge_is_never_made_at_the_road_rate(troop: str, formation: str, reach: float) -> None:
    # Movement table: foot have no charge move and charge at their normal 8" (not the
    # 12" of a road column); horse charge 32".
    assert movement.charge_allowance(T, CypUnit.of(TROOPS[troop], formation=formation)) == reach


# --- Movement 5 B: a move cut to the allowance ----------------------------------------------


@pytest.mark.parametrize(("to", "made"), [(8.0, 8.0), (8.5, 8.0), (9.5, 8.0)])
def test_a_move_longer_than_the_inches_left_goes_only_as_far_as_they_reach(to: float, made: float) -> None:
    # A unit stopped short by the ground: with 8" left, a straight move of 8.5" or 9.5"
    # goes 8" of its path; one of 8" goes all of it.
    _, state = _game()
    foot = state.units["k-foot"]
    plan = plan_move(foot, Move(unit="k-foot", waypoints=((foot.x, foot.y + to),)))
    assert movement.slide_within(plan, "line", 8.0) == pytest.approx(made)


# --- Fire 8 D: the rear stand's range --------------------------------------------------------


def test_the_rear_stand_fires_at_its_file_leaders_close_range() -> None:
    # D: the front rank's shot 5.5" off (close range), the rear rank's own front 6.25"
    # off (long): the rear stands fire at their file leaders' 5.5", all four at close range.
    state = facing_off(5.5, fired=True)
    foot, target = state.units["k-foot"], state.units["p-foot"]
    assert sorted(stand_ranges(OPEN, state, foot, target, TABLES).values()) == pytest.approx([5.5] * 4)
    shot = work_out_volley(Tx(OPEN, state, ScriptedDice([1])), OPEN, state, "k-foot", "p-foot", TABLES)
    assert (shot.close, shot.long) == (4, 0)


@pytest.mark.parametrize("x", [30.0, 27.0, 33.0])
def test_pike_stands_nearer_the_target_lend_no_range(x: float) -> None:
    # Only shot stands fire and only a shot file leader lends a rear stand its range: a
    # target 12.5" ahead of the pike in the centre (or off to one wing) is out of reach
    # of the shot on the wings, whatever the pike's range.
    state = facing_off(12.0)
    state = state.with_unit(state.units["p-foot"].evolve(x=x, y=state.units["p-foot"].y + 0.5))
    foot, target = state.units["k-foot"], state.units["p-foot"]
    assert stand_ranges(OPEN, state, foot, target, TABLES) == {}


# --- Fire 8 modifiers: halved only in a town or works ---------------------------------------


@pytest.mark.parametrize(("town", "halved"), [(False, False), (True, True)])
def test_hits_are_halved_only_on_a_target_in_a_town_or_works(town: bool, halved: bool) -> None:
    state = facing_off(5.0, fired=True)
    table = field(area("town", 20.0, 17.0, 40.0, 24.0)) if town else OPEN
    shot = work_out_volley(Tx(table, state, ScriptedDice([2])), table, state, "k-foot", "p-foot", TABLES)
    assert shot.strikes[0].halved is halved
