"""Charge yr Pikes! unit organisations: only foot regiments carry pikes. Highlanders fight
by their own stands (12 D: "1 D6 for each pike stand or highlanders stand"), none of them
pike; musketeers, horse and dragoons have none either."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.troops import TROOPS


@pytest.mark.parametrize(("troop", "pike", "others"), [
    ("foot", 16, 16), ("highlanders", 0, 24), ("musketeers", 0, 16), ("horse", 0, 15), ("dragoons", 0, 18)])
def test_only_foot_regiments_carry_pikes(troop: str, pike: int, others: int) -> None:
    """Unit Organizations: foot are "4 of shot, and 4 of pike" companies; every other
    troop's figures are shot or men, never pike."""
    unit = CypUnit.of(TROOPS[troop])
    assert TROOPS[troop].pike_stands * TROOPS[troop].figures_per_stand == unit.pike == pike
    assert unit.shot + unit.men == others
