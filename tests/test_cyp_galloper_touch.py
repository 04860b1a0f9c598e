"""Charge yr Pikes!' galloper guns: "They must be touching the unit at all times" (Artillery:
galloper guns). The gun goes where its unit goes, turned as it turns, and is put touching
it; moving itself, it must end touching it."""

from __future__ import annotations

import pytest

from tertia.core.actions import Action, Move
from tertia.core.geometry import base_distance, bases_overlap
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.actions import Charge, Reform
from tertia.rulesets.charge_yr_pikes.attached import TOUCHING, touches
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import COLUMN
from tertia.rulesets.charge_yr_pikes.facing import turn_to_meet
from tertia.rulesets.charge_yr_pikes.rout import rout
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data

from .cyp_melee_support import dice_left, piece, state_of, table_with, tx_with

RULES = ChargeYrPikes(secret_deployment=False)


def _horse_with_gun(troop: str = "horse") -> GameState:
    """A regiment at (30, 20) facing north, its galloper touching its right flank."""
    unit = piece("k", "king", troop, 30.0, 20.0)
    gun = piece("g", "king", "artillery", 0.0, 20.0, gun="galloper", attached_to="k")
    gun = gun.evolve(x=30.0 + unit.width / 2 + gun.width / 2)
    return state_of(unit, gun, piece("e", "parl", "foot", 30.0, 36.0, facing=180.0))


def _on_card(state: GameState, *moving: str) -> GameState:
    state = state.evolve(phase="movement")
    return state.evolve(own=game_data(state).evolve(card="group:t-k:king", moving=moving))


def _done(state: GameState, action: Action) -> GameState:
    tx = tx_with(state)
    RULES.resolve(tx, action)
    assert dice_left(tx) == 0
    return tx.state


def _touching(state: GameState) -> bool:
    unit, gun = state.units["k"], state.units["g"]
    return base_distance(unit.base, gun.base) < 1e-6 and not bases_overlap(unit.base, gun.base)


def _gun(state: GameState) -> Unit:
    return state.units["g"]


def test_the_galloper_goes_where_its_unit_moves() -> None:
    state = _horse_with_gun()
    x = _gun(state).x
    after = _done(_on_card(state, "k"), Move(unit="k", waypoints=((30.0, 28.0),)))
    assert (_gun(after).x, _gun(after).y) == pytest.approx((x, 28.0)) and _touching(after)


def test_the_galloper_turns_with_its_unit_on_the_same_side() -> None:
    state = _horse_with_gun()
    gap = _gun(state).x - 30.0
    # The regiment turns to face east: its right flank is now to the south.
    after = _done(_on_card(state, "k"), Move(unit="k", waypoints=((30.0, 26.0),), face_after=90.0))
    assert (_gun(after).x, _gun(after).y, _gun(after).facing) == pytest.approx((30.0, 26.0 - gap, 90.0))
    assert _touching(after)


def test_the_galloper_charges_with_its_unit() -> None:
    after = _done(_on_card(_horse_with_gun(), "k"), Charge(unit="k", target="e"))
    assert after.units["k"].y == pytest.approx(33.625) and _touching(after)


def test_a_galloper_left_apart_by_a_change_of_formation_is_put_touching() -> None:
    state = _horse_with_gun("foot")
    after = _done(_on_card(state, "k"), Reform(unit="k", formation=COLUMN))
    assert after.units["k"].width < state.units["k"].width and _touching(after)
    # Carried with the column's centre, then straight in to its flank.
    assert _gun(after).y == pytest.approx(after.units["k"].y) and _gun(after).x < _gun(state).x


def test_a_galloper_stays_touching_a_unit_that_routs() -> None:
    tx = tx_with(_horse_with_gun("foot"), 3, 1, 4)  # morale points; half a D6; the rout move
    rout(tx, default_tables(), "k", "fired on", foe="e")
    assert _touching(tx.state) and tx.state.units["k"].y < 20.0


def test_a_galloper_moving_itself_must_end_touching_its_unit() -> None:
    state = _on_card(_horse_with_gun(), "k", "g")
    unit, gun = state.units["k"], _gun(state)
    behind = 20.0 - unit.depth / 2 - gun.depth / 2
    assert RULES.validate(table_with(), state, Move(unit="g", waypoints=((30.0, behind),))) == []
    assert RULES.validate(table_with(), state,
                          Move(unit="g", waypoints=((30.0, behind - TOUCHING / 2),))) == []
    refused = RULES.validate(table_with(), state, Move(unit="g", waypoints=((30.0, behind - 1.0),)))
    assert [v.code for v in refused] == [CypCode.GALLOPER_APART]
    assert refused[0].message == "g must end touching k, the unit it is attached to"


def test_touching_is_within_a_tenth_of_an_inch_and_never_on_the_unit() -> None:
    state = _horse_with_gun()
    unit, gun = state.units["k"].base, _gun(state).base
    assert touches(unit, gun) and touches(unit, gun.moved_to(gun.x + 0.1, gun.y))
    assert not touches(unit, gun.moved_to(gun.x + 0.2, gun.y))
    assert not touches(unit, gun.moved_to(gun.x - 0.5, gun.y))


def test_a_galloper_turns_with_a_unit_turning_to_meet_a_charge() -> None:
    state = _horse_with_gun()
    state = state.with_unit(state.units["e"].evolve(x=50.0, y=20.0, facing=270.0))
    tx = tx_with(state)
    turn_to_meet(tx, "k", "e")
    assert tx.state.units["k"].facing == 90.0 and _touching(tx.state)
    assert _gun(tx.state).y < 20.0  # its right flank, now to the south
