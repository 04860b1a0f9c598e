"""Charge yr Pikes! routing 15 A pinned from both sides: "If any unit attempts to move
through a routed friendly unit it may do so and the routed unit is simply shoved out of the
way." The router shoved takes its officers with it; shoved the same distance either way, it
goes to the mover's right; with no room on the table either side it is left where it is."""

from __future__ import annotations

import pytest

from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.rulesets.charge_yr_pikes.shove import shove_aside

from .cyp_melee_support import officer, tx_with
from .test_cyp_way import FAR_FRIEND, STEP, _done, _mover, _on_card, _routed


def test_a_routed_friend_shoved_aside_takes_its_officer_with_it() -> None:
    """15 A with Tertias and officers D: an officer in a unit's front rank shares its fate,
    so he is shoved aside with it, as far and the same way."""
    led = officer("o", "king", "r", x=31.0, y=16.5)
    state = _on_card(_mover(), _routed("r", 31.0, 16.0), led, FAR_FRIEND)
    after = _done(state, STEP)
    assert (after.units["r"].x, after.units["r"].y) == (34.0, 16.0)
    assert (after.units["o"].x, after.units["o"].y) == pytest.approx((34.0, 16.5))


@pytest.mark.parametrize(("x", "to"), [(30.0, 34.0), (29.0, 26.0)])
def test_a_router_shoved_as_far_either_way_goes_to_the_movers_right(x: float, to: float) -> None:
    """Shoved square to the mover's facing, just clear of its frontage, the shorter way;
    a router on the mover's own line is as near clear either way, and goes to its right
    (east, the mover facing north); one a little to its left goes left."""
    state = _on_card(_mover(), _routed("r", x, 16.0), FAR_FRIEND)
    after = _done(state, STEP)
    assert (after.units["r"].x, after.units["r"].y) == pytest.approx((to, 16.0))


def test_a_router_with_no_room_on_the_table_either_side_is_left_where_it_is() -> None:
    """A routed friend the mover stands on with no room to be shoved on the table, either
    way, is not moved (the move that would end there is refused before it is made)."""
    narrow = Battlefield(width=8.0, depth=48.0, features=())
    state: GameState = _on_card(_mover().evolve(x=4.0, y=16.0), _routed("r", 4.0, 16.0))
    tx = tx_with(state, table=narrow)
    assert shove_aside(tx, "k", [state.units["k"].base.corners()]) == []
    assert tx.state.units["r"] == state.units["r"]
