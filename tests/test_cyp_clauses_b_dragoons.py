"""Charge yr Pikes! dragoons (section 18 A): two of mount or dismount, move and fire a turn.
Dragoons who have done two things may not move on a later card of the turn, where they
have not yet moved; with one done they may. Mounting again takes the horse holders back
into the saddle, the regiment its full eighteen."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.violations import CoreCode
from tertia.rulesets.charge_yr_pikes.actions import Mount
from tertia.rulesets.charge_yr_pikes.dragoons import remounted
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .test_cyp_dragoons import _dragoons_card


@pytest.mark.parametrize(("acts", "refused"), [(1, []), (2, [CoreCode.ALREADY_ACTED])])
def test_dragoons_that_did_two_things_may_not_move_on_a_later_card(acts: int, refused: list[str]) -> None:
    """18 A: "Dragoons may do two of the following in a turn: mount or dismount, move,
    fire"; moving is one of them."""
    game, state = _dragoons_card()
    drag = state.units["k-drag"]
    state = state.with_unit(drag.evolve(own=unit_data(drag).evolve(acts=acts)))
    problems = game.validate(state, Move(unit="k-drag", waypoints=((59.0, 13.0),)))
    assert [v.code for v in problems] == refused


def test_dragoons_that_mount_again_take_up_their_horse_holders() -> None:
    """Dismounted, four 4-man stands and two holders; mounted again, six 3-man stands of
    eighteen men and no one holding horses."""
    game, state = _dragoons_card()
    state, _ = game.apply(state, Mount(unit="k-drag", mounted=False), ScriptedDice([]))
    on_foot = unit_data(state.units["k-drag"])
    assert (on_foot.men, on_foot.holders) == (16, 2)
    again = remounted(state.units["k-drag"], True)
    own = unit_data(again)
    assert (own.mounted, own.men, own.holders, own.per_stand) == (True, 18, 0, 3)
