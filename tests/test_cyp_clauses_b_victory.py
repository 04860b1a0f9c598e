"""Charge yr Pikes! victory (section 19 C, F) pinned from both sides: the result of a battle
won by objectives and vital points says how much higher (or lower) the beaten army's share
of casualties is, or that it is no higher."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.army import ArmyLosses
from tertia.rulesets.charge_yr_pikes.victory import BY_POINTS, result_reason


@pytest.mark.parametrize(("beaten_lost", "said"), [
    (20, "10 points higher"), (10, "no higher"), (5, "5 points lower")])
def test_a_victory_by_points_says_how_the_beaten_armys_share_stands(beaten_lost: int, said: str) -> None:
    """19 C wins whatever the casualties: the beaten army's share may be higher, equal or
    lower than the victors' (10%), and the result says which, and by how many points."""
    counted = {"a": ArmyLosses("a", 10, 100), "b": ArmyLosses("b", beaten_lost, 100)}
    reason = result_reason(BY_POINTS, counted, "a", "marginal victory", ("a", "b"))
    assert reason.startswith("the victors have occupied all their objectives")
    assert reason.endswith(f"the beaten army's share is {said}: a marginal victory")
