"""Charge yr Pikes! dragoons' two actions a turn (Dragoons 18 A) and a galloper kept
touching its unit (Artillery: galloper guns) where a move's checks reach them through
the movement and charge code: a move refused to dragoons that have done their two, and
a galloper kept touching a charge stopped short by troops hidden in its way."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.violations import CoreCode
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import piece
from .test_cyp_dragoons import _dragoons_card
from .test_cyp_galloper_touch import _done, _horse_with_gun, _on_card, _touching


@pytest.mark.parametrize(("acts", "refused"), [(2, True), (1, False), (0, False)])
def test_dragoons_that_have_done_two_things_this_turn_may_not_move(acts: int, refused: bool) -> None:
    # Dragoons 18 A: they "may do two of the following: mount or dismount, move, fire".
    game, state = _dragoons_card()
    state = state.with_unit(state.units["k-drag"].evolve(acts=acts))
    found = game.validate(state, Move(unit="k-drag", waypoints=((60.0, 14.0),)))
    assert [v.code for v in found] == ([CoreCode.ALREADY_ACTED] if refused else [])


def test_a_galloper_stays_touching_a_charge_stopped_short_by_hidden_troops() -> None:
    # Galloper guns stay touching their unit; the horse charging the foot 16" ahead runs
    # into a unit hidden in its way, finds it and stops short: its galloper is with it.
    state = _horse_with_gun()
    state = state.with_unit(piece("h", "parl", "foot", 30.0, 27.0, facing=180.0, placed=False))
    after = _done(_on_card(state, "k"), Charge(unit="k", target="e"))
    assert unit_data(after.units["h"]).placed
    assert 20.0 < after.units["k"].y < 27.0 and _touching(after)
