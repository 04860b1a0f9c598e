"""Charge yr Pikes! deployment: none within 12" of the centre save in towns or woods, and
tertias of 3 to 5 units within 6" of one another."""

from __future__ import annotations

from tertia.rulesets.charge_yr_pikes.deployment import deployment_problems, together, too_near_the_centre

from .test_cyp_command import _state
from .test_cyp_setup import scenario

TOWN = {"type": "town", "polygon": [[20.0, 20.0], [40.0, 20.0], [40.0, 28.0], [20.0, 28.0]]}


def test_a_unit_within_12_inches_of_the_centre_must_stand_in_a_town_or_wood() -> None:
    table, state = _state()
    foot = state.units["k-foot"]  # the centre line is y = 24 on a 48" deep table
    assert not too_near_the_centre(table, foot.evolve(y=11.0))  # its front edge 12.25" away
    assert too_near_the_centre(table, foot.evolve(y=12.5))
    assert too_near_the_centre(table, foot.evolve(y=30.0))  # across the line, on the far side


def test_in_a_town_a_unit_may_stand_near_the_centre() -> None:
    table = scenario(None, [TOWN]).build_battlefield()
    _, state = _state()
    assert not too_near_the_centre(table, state.units["k-foot"].evolve(y=22.0))


def test_a_tertia_must_be_three_to_five_units_within_6_inches() -> None:
    table, state = _state()
    problems = dict(deployment_problems(table, state))
    assert any("'k1' of king has 1 units" in m for m in problems.values())  # the gun is apart
    units = [state.units["k-foot"], state.units["k-horse"].evolve(x=36.0),
             state.units["k-drag"].evolve(x=42.0)]
    assert together(units)
    assert not together([*units[:2], units[2].evolve(x=60.0)])
    # The deployment's problems say so: three units of k1 within 6", then one 18" off.
    near = state
    for u in units:
        near = near.with_unit(u.evolve(command="k1"))
    k1 = [m for m in dict(deployment_problems(table, near)).values() if "'k1' of king" in m]
    assert k1 == []
    far = near.with_unit(near.units["k-drag"].evolve(x=60.0))
    k1 = [m for m in dict(deployment_problems(table, far)).values() if "'k1' of king" in m]
    assert k1 == ["tertia 'k1' of king is not deployed with all its units within 6\" of one another "
                  "(Tertias and officers A)"]
