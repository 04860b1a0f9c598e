"""Charge yr Pikes! sight (16 A, B) pinned from both sides: woods and towns between hide
from level ground however far beyond them the target stands, but not from a hill beyond
its dead ground; the woods a spotter or its target stands in hide neither; a hill higher
than both ends hides, a hill no higher does not."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.sight import crest_hides, ground_hides

from .test_cyp_fire import area, field

DEAD = 8.0
WOODS = area("woods", 20.0, 20.0, 40.0, 22.0)
SPOTTER = (30.0, 10.0)


@pytest.mark.parametrize(("spotter_level", "hidden"), [(0, True), (1, False)])
def test_woods_hide_a_target_far_beyond_them_from_level_ground_only(spotter_level: int, hidden: bool) -> None:
    """16 A: ground-level obstacles hide what is beyond them from level ground; 16 B: from a
    hill only the dead ground, 8" behind them, is hidden, and a target 14" beyond is seen."""
    table = field(WOODS)
    assert ground_hides(table, SPOTTER, (30.0, 36.0), spotter_level, 0, DEAD) is hidden


@pytest.mark.parametrize(("target", "hidden"), [((30.0, 21.0), False), ((30.0, 30.0), True)])
def test_the_woods_a_target_stands_in_do_not_hide_it(target: tuple[float, float], hidden: bool) -> None:
    """16 A: obstacles between the spotter and the target hide it; woods the target stands
    in are not between (they give cover, not concealment), woods before it are."""
    assert ground_hides(field(WOODS), SPOTTER, target, 0, 0, DEAD) is hidden


def test_the_woods_a_spotter_stands_in_do_not_hide_what_it_sees() -> None:
    """16 A, the spotter's side: woods it stands in do not hide what is beyond it."""
    assert not ground_hides(field(WOODS), (30.0, 21.0), (30.0, 30.0), 0, 0, DEAD)
    assert ground_hides(field(WOODS), (30.0, 11.0), (30.0, 30.0), 0, 0, DEAD)


@pytest.mark.parametrize(("height", "ends", "hidden"), [(2, (0, 1), True), (1, (0, 1), False),
                                                        (1, (0, 0), True), (2, (2, 0), False)])
def test_a_hill_between_hides_only_when_higher_than_both_ends(height: int, ends: tuple[int, int],
                                                              hidden: bool) -> None:
    """16 A: "hills higher" than the spotter and the target between them hide; a hill no
    higher than the higher of them does not."""
    table = field(area("hill", 0.0, 18.0, 72.0, 22.0, height=height))
    assert crest_hides(table, SPOTTER, (30.0, 30.0), *ends) is hidden
