"""Charge yr Pikes!' galloper guns (Artillery: galloper guns): "They must be touching the
unit at all times". A unit that falls back or routs carries its galloper the same way and
as far, so the gun keeps its place beside it; a gun found on its unit's very centre is put
touching behind it."""

from __future__ import annotations

import pytest

from tertia.core.geometry import base_distance, bases_overlap
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.attached import touching
from tertia.rulesets.charge_yr_pikes.fallback import fall_back
from tertia.rulesets.charge_yr_pikes.musketry import galloper_problems
from tertia.rulesets.charge_yr_pikes.rout import rout
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import dice_left, piece, state_of, tx_with
from .test_cyp_command import _state
from .test_cyp_fire import OPEN, _with_galloper, at

TABLES = default_tables()


def _foot_with_gun(where: str) -> GameState:
    """A foot regiment at (30, 20) facing north, its galloper touching its right flank or
    its rear; the enemy to the north."""
    unit = piece("k", "king", "foot", 30.0, 20.0)
    gun = piece("g", "king", "artillery", 0.0, 0.0, gun="galloper", attached_to="k")
    if where == "right":
        gun = gun.evolve(x=30.0 + unit.width / 2 + gun.width / 2, y=20.0)
    else:
        gun = gun.evolve(x=30.0, y=20.0 - unit.depth / 2 - gun.depth / 2)
    return state_of(unit, gun, piece("e", "parl", "foot", 30.0, 36.0, facing=180.0))


def _kept_its_place(before: GameState, after: GameState) -> None:
    unit0, unit1 = before.units["k"], after.units["k"]
    gun0, gun1 = before.units["g"], after.units["g"]
    moved = (unit1.x - unit0.x, unit1.y - unit0.y)
    assert abs(moved[1]) > 1.0  # the unit did go back
    assert (gun1.x, gun1.y) == pytest.approx((gun0.x + moved[0], gun0.y + moved[1]))
    assert base_distance(unit1.base, gun1.base) < 1e-6 and not bases_overlap(unit1.base, gun1.base)


@pytest.mark.parametrize("where", ["right", "rear"])
def test_a_galloper_falls_back_beside_its_unit_where_it_stood(where: str) -> None:
    """14 A with the galloper rule: the unit falls back a normal move straight back; its gun,
    touching it, goes back with it as far and keeps its side."""
    state = _foot_with_gun(where)
    tx = tx_with(state)
    fall_back(tx, TABLES, "k", "lost the melee")
    assert dice_left(tx) == 0
    _kept_its_place(state, tx.state)


@pytest.mark.parametrize("where", ["right", "rear"])
def test_a_galloper_routs_beside_its_unit_where_it_stood(where: str) -> None:
    """15 A with the galloper rule: a routing unit carries its galloper along its rout move,
    the gun keeping its side of the unit."""
    state = _foot_with_gun(where)
    tx = tx_with(state, 3, 1, 4)  # morale points; half a D6; the rout move
    rout(tx, TABLES, "k", "fired on", foe="e")
    _kept_its_place(state, tx.state)


@pytest.mark.parametrize("facing", [0.0, 90.0, 180.0, 270.0])
def test_a_galloper_on_its_units_centre_is_put_touching_behind_it(facing: float) -> None:
    """A gun that must be put touching its unit goes straight out from the unit's centre;
    standing on the centre itself, it goes out behind the unit (the way away from its front)."""
    unit = piece("k", "king", "foot", 30.0, 20.0, facing=facing)
    gun = piece("g", "king", "artillery", 30.0, 20.0, gun="galloper", attached_to="k")
    put = touching(unit.base, gun.base)
    behind = {0.0: (0.0, -1.0), 90.0: (-1.0, 0.0), 180.0: (0.0, 1.0), 270.0: (1.0, 0.0)}[facing]
    out = ((put.x - 30.0) * behind[0] + (put.y - 20.0) * behind[1])
    assert out >= unit.depth / 2 and abs((put.x - 30.0) * behind[1] - (put.y - 20.0) * behind[0]) < 1e-6
    assert base_distance(unit.base, put) < 1e-6 and not bases_overlap(unit.base, put)


def _ordered(state: GameState, gun_id: str = "k-gun") -> list[str]:
    return [v.message for v in galloper_problems(OPEN, state, gun_id, "p-foot", TABLES, "p-foot")]


def test_only_a_galloper_in_play_with_gunners_fires_as_one() -> None:
    """Galloper guns fire as two stands of infantry at their unit's target: the order is
    refused for a gun not on the table, for a field battery (no galloper), and for a
    galloper with no gunners left or whose gunners have routed; a galloper with one gunner
    fires."""
    state = _with_galloper(5.0)
    assert _ordered(state) == []
    assert _ordered(state, "k-nobody") == ["there is no galloper gun 'k-nobody'"]
    gone = state.with_unit(state.units["k-gun"].evolve(removed="destroyed"))
    name = state.units["k-gun"].label
    assert _ordered(gone) == [f"{name} is no longer in play"]
    _, plain = _state()  # the king's gun a field battery
    battery = at(at(plain, "p-foot", 32.75, 18.5), "k-gun", 32.75, 12.0)
    assert _ordered(battery) == [f"{plain.units['k-gun'].label} is no galloper gun"]
    gun = state.units["k-gun"]
    one = state.with_unit(gun.evolve(own=unit_data(gun).evolve(men=1)))
    assert _ordered(one) == []
    none = state.with_unit(gun.evolve(own=unit_data(gun).evolve(men=0)))
    assert _ordered(none) == [f"{gun.label} has no gunners to serve it"]
    routed = state.with_unit(gun.evolve(own=unit_data(gun).evolve(formation="routed")))
    assert _ordered(routed) == [f"{gun.label} has no gunners to serve it"]
