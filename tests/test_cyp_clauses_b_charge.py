"""Charge yr Pikes! close combat (section 12) pinned from both sides: where a charge halts."""

from __future__ import annotations

import pytest

from tertia.core.geometry import base_distance
from tertia.core.terrain import Battlefield
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path

from .test_cyp_movement import _game

TABLE = Battlefield(72.0, 48.0)


@pytest.mark.parametrize(("gap", "go"), [(0.5, 0.0), (2.0, 1.0), (5.5, 4.5)])
def test_a_charge_halts_1_inch_away_and_never_backs_off(gap: float, go: float) -> None:
    """12 A: "Attacker moves units directly towards the target unit(s) and halts 1" away."
    The king's foot (front edge at y 12.75) charges the parliament's ``gap`` inches off,
    front to front: 5.5" apart it goes 4.5", 2" apart 1", and half an inch apart, already
    nearer than 1", it stays where it is."""
    _, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=12.75 + gap + 0.75))
    unit, target = state.units["k-foot"], state.units["p-foot"]
    assert base_distance(unit.base, target.base) == pytest.approx(gap)
    path = charge_path(TABLE, state, unit, target)
    assert path.blocked_by is None
    assert path.distance == pytest.approx(go)
    assert path.end == pytest.approx((30.0, 12.0 + go))


def test_a_charge_stopped_by_a_unit_in_its_way_names_it() -> None:
    """12 A: a charge goes straight at its target; a piece in its way stops it, and the
    refusal names that piece."""
    _, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=24.0))
    state = state.with_unit(state.units["k-horse"].evolve(x=30.0, y=18.0))
    unit, target = state.units["k-foot"], state.units["p-foot"]
    path = charge_path(TABLE, state, unit, target)
    assert path.blocked_by == state.units["k-horse"].label
    assert path.end[1] < 18.0
