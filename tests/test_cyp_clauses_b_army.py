"""Charge yr Pikes! army morale (section 19 A, B) pinned from both sides: the units that
lost a single figure lower their morale when the army takes fright, those that lost none
do not; the log says when fright came at half the army lost, without a roll."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.army import take_fright
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_pieces import piece, state, tx
from .test_cyp_army import TABLES, _army, _test, _told


@pytest.mark.parametrize(("shot", "lowered"), [(15, True), (16, False)])
def test_a_unit_that_lost_one_figure_lowers_its_morale_when_the_army_takes_fright(shot: int,
                                                                                   lowered: bool) -> None:
    """19 B, step 3: "All units with casualties lower their morale 1 level": one figure
    lost is a casualty; none is not."""
    s = state(piece("k-foot", "king", "foot", 10.0, 10.0, shot=shot, morale=3),
              piece("p-foot", "parl", "foot", 36.0, 40.0))
    t = tx(s, [])
    steps = take_fright(t, "king", TABLES, lambda unit_id: None)
    assert unit_data(t.state.units["k-foot"]).morale == (2 if lowered else 3)
    assert steps.lowered == (("k-foot",) if lowered else ())


def test_the_log_says_an_army_half_lost_takes_fright_without_a_roll() -> None:
    """19 A: "50%+ Casualties, army takes fright": the log tells the share and that no die
    was rolled."""
    t, fright, _ = _test(_army(50), [])
    assert fright
    assert _told(t) == ["Royalists' army takes fright without a roll: 50 of 100 figures lost (50%)"]
