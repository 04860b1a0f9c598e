"""Charge yr Pikes! routing (section 15) pinned from both sides: a unit whose last men fall
to the half D6 of a rout is destroyed, one with men left flees; crews, guns and wagons rout
as infantry, other troops on their own line."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.rout import DESTROYED, STILL_ROUTED, rout, rout_move
from tertia.rulesets.charge_yr_pikes.tables import default_tables

from .cyp_morale_support import KING, state_of, troop, tx_with

T = default_tables()


@pytest.mark.parametrize(("shot", "fate"), [(1, DESTROYED), (3, STILL_ROUTED)])
def test_a_unit_whose_last_men_fall_as_it_routs_is_destroyed(shot: int, fate: str) -> None:
    """15 A: "They lose 1/2 D6 of casualties": a D6 of 3 costs two men (halved, rounded up);
    a unit of one man left is destroyed by it and leaves the field, no rout move rolled; a
    unit of three keeps one and flees."""
    state = state_of(troop("u", KING, 30, 20, morale=2, pike=0, shot=shot), turn=3)
    tx = tx_with(state, 3, *([4] if fate == STILL_ROUTED else []))
    flight = rout(tx, T, "u", "fired on")
    assert flight.fate == fate and tx.dice.remaining == 0  # type: ignore[attr-defined]
    unit = tx.state.units["u"]
    assert unit.in_play is (fate == STILL_ROUTED)
    assert unit.removed == (DESTROYED if fate == DESTROYED else None)


@pytest.mark.parametrize(("kind", "inches", "dice"), [
    ("artillery", 8, 1), ("wagons", 8, 1), ("foot", 8, 1), ("horse", 16, 2), ("musketeers", 10, 1)])
def test_crews_and_wagons_rout_as_infantry_and_the_rest_on_their_own_line(kind: str, inches: int,
                                                                          dice: int) -> None:
    """15 G: "Artillery units leave their guns and rout as infantry" (8" + D6); wagons,
    with no rout line, rout so too; horse rout 16" + 2D6, musketeers 10" + D6."""
    line = rout_move(T, troop("u", KING, 30, 20, kind))
    assert (line.inches, line.dice) == (inches, dice)
