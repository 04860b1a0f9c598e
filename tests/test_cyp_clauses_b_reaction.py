"""Charge yr Pikes! reactions to a charge (12 L) pinned from both sides: a charged unit
that fails its test to reform and stands (`[reaction] reform_failure = "stand"`) has spent
its chance on the card and may not test again; one that passed may go on to reform, and
refacing where it stands does not evade the charge."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.rulesets.charge_yr_pikes.actions import MoraleToMove, Reform
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import SQUARE
from tertia.rulesets.charge_yr_pikes.reaction import MOVE_AWAY, REFORM, ChargeEvaded, chargers_of

from .cyp_dice_support import ByPurpose
from .test_cyp_reaction import _charged, _codes

STAND = {"tables": {"reaction": {"reform_failure": "stand"}}}


@pytest.mark.parametrize("again", [REFORM, MOVE_AWAY])
def test_a_unit_that_failed_its_test_to_reform_may_not_test_again_on_the_card(again: str) -> None:
    """12 L: a charged unit "must successfully test morale" to change formation; failing
    (and, under the option, standing), its reaction on this card is spent: no second test,
    to reform or to move away."""
    game, state = _charged(STAND)
    state, _ = game.apply(state, MoraleToMove(unit="k-foot", purpose=REFORM),
                          ByPurpose({"(to change formation": [1]}, otherwise="max"))
    assert _codes(game, state, MoraleToMove(unit="k-foot", purpose=again)) == [CypCode.ALREADY_MOVED]


def test_a_unit_that_passed_its_test_to_reform_may_reform() -> None:
    """12 L, the other side: passing, it may change formation on the card."""
    game, state = _charged(STAND)
    state, _ = game.apply(state, MoraleToMove(unit="k-foot", purpose=REFORM),
                          ByPurpose({"(to change formation": [6]}, otherwise="max"))
    assert _codes(game, state, Reform(unit="k-foot", formation=SQUARE)) == []


def test_a_unit_that_refaces_where_it_stands_has_not_moved_away_from_the_charge() -> None:
    """12 L: passing its test to reform, a charged unit may reface; turning where it stands
    it has not moved away, and the charge still comes in (moving away it would evade it)."""
    game, state = _charged()
    state, _ = game.apply(state, MoraleToMove(unit="k-foot", purpose=REFORM), ScriptedDice([6]))
    enemy = state.units["p-foot"]
    state = state.with_unit(enemy.evolve(y=enemy.y + 6.0))  # room to wheel about
    before = state.units["k-foot"]
    state, events = game.apply(state, Move(unit="k-foot", face_after=90.0), ScriptedDice([]))
    turned = state.units["k-foot"]
    assert turned.facing == 90.0 and (turned.x, turned.y) == (before.x, before.y)
    assert not [e for e in events if isinstance(e, ChargeEvaded)]
    assert chargers_of(state, "k-foot") == ("p-foot",)
