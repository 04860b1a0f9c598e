"""Charge yr Pikes! close combat (section 12) pinned from both sides: a locked melee fought
on next turn carries out its result, and is not fought once a side of it has left; in a
bonus combat only the horse breaking through skip the test to close."""

from __future__ import annotations

import pytest

from tertia.core.events import DiceRolled
from tertia.core.geometry import Base
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.charge import CLOSE, CLOSED_ON, Charge
from tertia.rulesets.charge_yr_pikes.phases import fight_on
from tertia.rulesets.charge_yr_pikes.reaction import close_in as reaction_close_in
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import Morale, dice_left, piece, state_of, tx_with

T = default_tables()


def _locked() -> tuple[GameState, Charge]:
    """The king's horse (at y 10) locked in melee with the parliament's foot (at y 12)."""
    state = state_of(piece("h", "king", "horse", 20.0, 10.0, morale=3),
                     piece("f", "parl", "foot", 20.0, 12.0, 180.0, morale=3))
    return state, Charge("h", "f", state.units["h"].base.moved_to(20.0, 2.0))


def test_a_locked_melee_fought_on_carries_out_its_result() -> None:
    """12 G: locked, "the melee ... continues in the next turn", and 12 F: the side that
    inflicts fewer casualties loses, and a loser that passes its test falls back a normal
    move, disordered."""
    state, charge = _locked()
    tx = tx_with(state, 12, 6, 5, 5)  # the king's 12 (2 dead), the parliament's 6 (1); f's test; h obeys
    fight_on(tx, T, [charge], {})
    assert dice_left(tx) == 0
    foot = tx.state.units["f"]
    assert (foot.x, foot.y) == pytest.approx((20.0, 20.0))  # 8" back, away from the horse
    assert unit_data(foot).falling_back and unit_data(foot).disordered
    assert unit_data(foot).figures == 30


@pytest.mark.parametrize("gone", ["h", "f"])
def test_a_locked_melee_one_side_has_left_is_not_fought(gone: str) -> None:
    """12 G: what goes on is the melee of the units locked in it; once the attacker or its
    target has left the field there is no melee to fight: no die is rolled."""
    state, charge = _locked()
    state = state.with_unit(state.units[gone].evolve(removed="routed off"))
    tx = tx_with(state)
    fight_on(tx, T, [charge], {})
    assert not [e for e in tx.events if isinstance(e, DiceRolled)] and tx.state == state


def test_in_a_bonus_combat_only_the_breakthrough_skips_its_test_to_close() -> None:
    """12 J: horse breaking through attack "without a test to close"; another unit charging
    into the same bonus combat still tests to close (and, failing, stops 1" short), and the
    unit broken through into tests to stand."""
    a = piece("a", "parl", "horse", 20.0, 24.0, 180.0)
    b = piece("b", "parl", "horse", 30.0, 24.0, 180.0)
    x = piece("x", "king", "foot", 25.0, 20.0, 0.0)
    charges = [Charge("a", "x", Base(20.0, 30.0, 180.0, a.width, a.depth)),
               Charge("b", "x", Base(30.0, 30.0, 180.0, b.width, b.depth))]
    morale = Morale({"b": [False]})
    closing = reaction_close_in(tx_with(state_of(a, b, x)), charges, morale, closed=frozenset({"a"}))
    assert morale.asked == [("b", CLOSE), ("x", CLOSED_ON)]
    assert closing.stopped == ("b",) and [c.attacker for c in closing.charges] == ["a"]
