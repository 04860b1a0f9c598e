"""Charge yr Pikes! deployment (Set-up D): a scenario's deployment names a unit within 12"
of the centre line outside a town or wood."""

from __future__ import annotations

import pytest

from tertia.rulesets.charge_yr_pikes.deployment import deployment_problems

from .test_cyp_command import _state


@pytest.mark.parametrize(("y", "named"), [(11.0, False), (12.5, True)])
def test_the_deployment_names_a_unit_within_12_inches_of_the_centre(y: float, named: bool) -> None:
    # Set-up D: "No troops may be deployed within 12" of the center of the table unless in
    # a town or woods." The foot's front edge 12.25" from the centre line (y = 24), then
    # 11.75".
    table, state = _state()
    state = state.with_unit(state.units["k-foot"].evolve(y=y))
    found = dict(deployment_problems(table, state))
    assert ("units.k-foot" in found) is named
    if named:
        assert found["units.k-foot"] == ("k-foot is deployed within 12\" of the centre of the table outside "
                                         "a town or wood (Set-up D)")
