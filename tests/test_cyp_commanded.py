"""Charge yr Pikes! commanded musketeers detached from their parent units (Special rules D):
"Players may detatch a stand of shot from several foot units to creat new units of
'Commanded Musketeers'. These should be at least 4 stands strong and can be up to 8 stands
strong. Make a note so you do not count their loss from the 'parent units' as casualties.\""""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.scenario import Scenario
from tertia.rulesets.charge_yr_pikes.army import fright_losses
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

T = default_tables()
FEET = [f"k-foot{i}" for i in range(1, 10)]
STRENGTH = "commanded musketeers are 4 to 8 stands strong, a stand from each parent"
WHERE = "extensions.charge-yr-pikes.regiments[0].detached_from"


def _scenario(detached: list[str], *, troop: str = "musketeers", more: list[dict[str, Any]] | None = None
              ) -> Scenario:
    """Nine regiments of foot (4 stands of pike, 4 of shot) in three tertias, horse, and the
    commanded musketeers drawn from ``detached``."""
    units: list[dict[str, Any]] = [
        {"id": u, "side": "king", "type": "foot", "command": f"k{i // 3}", "x": 6.0 + i * 7.0, "y": 6.0}
        for i, u in enumerate(FEET)]
    units += [
        {"id": "k-horse", "side": "king", "type": "horse", "command": "k2", "x": 66.0, "y": 6.0},
        {"id": "k-cm", "side": "king", "type": "commanded_shot", "command": "k0", "x": 10.0, "y": 10.0},
        {"id": "p-foot", "side": "parl", "type": "foot", "command": "p1", "x": 30.0, "y": 42.0,
         "facing": 180.0},
    ]
    regiments = [{"unit": "k-cm", "troop": troop, "detached_from": detached}, *(more or [])]
    return Scenario.model_validate({
        "name": "commanded", "table": {"width": 72.0, "depth": 48.0},
        "sides": [{"id": "king", "name": "King", "edge": "south"},
                  {"id": "parl", "name": "Parliament", "edge": "north"}],
        "commanders": [{"id": "k-gen", "side": "king", "command": "k0", "x": 36.0, "y": 2.0,
                        "general": True}],
        "units": units,
        "extensions": {"charge-yr-pikes": {"regiments": regiments}},
    })


def _problems(s: Scenario) -> list[tuple[str, str]]:
    return [p for p in ChargeYrPikes(secret_deployment=False).scenario_problems(s) if "regiments" in p[0]]


@pytest.mark.parametrize("n", [4, 8])
def test_four_to_eight_parents_each_give_a_stand_of_shot(n: int) -> None:
    s = _scenario(FEET[:n])
    assert _problems(s) == []
    units = ChargeYrPikes(secret_deployment=False).initial_state(s).units
    cm = unit_data(units["k-cm"])
    assert (cm.troop, cm.pike, cm.shot, cm.start, cm.stands_left) == ("musketeers", 0, 4 * n, 4 * n, n)
    for parent in FEET[:n]:
        own = unit_data(units[parent])
        assert (own.pike, own.shot, own.start, own.lost) == (16, 12, 28, 0)
    assert unit_data(units[FEET[n]]).start == 32  # a unit that gives nothing
    # The commanded unit's footprint is its stands': n stands, two ranks.
    assert units["k-cm"].width == pytest.approx(units[FEET[0]].width / 4 * (n // 2))


def test_a_detached_stand_is_no_casualty_of_its_parent() -> None:
    state = ChargeYrPikes(secret_deployment=False).initial_state(_scenario(FEET[:4]))
    assert fright_losses(state, "king", T).lost == 0
    parent = unit_data(state.units[FEET[0]])
    # 28 men at the start: losing 14 is half, not over half; 15 is over half.
    assert not parent.evolve(pike=7, shot=7).under_half
    assert parent.evolve(pike=6, shot=7).under_half
    # The army's strength counts each man once: nine regiments of 32 and the horse.
    assert fright_losses(state, "king", T).strength == 9 * 32 + 15


@pytest.mark.parametrize(("detached", "problem"), [
    (FEET[:3], f"k-cm: {STRENGTH}: 3 parents given"),
    (FEET[:9], f"k-cm: {STRENGTH}: 9 parents given"),
    ([*FEET[:3], "k-nobody"], "k-cm: no unit 'k-nobody' in the scenario"),
    ([*FEET[:3], "k-horse"], "k-cm: k-horse is no regiment of foot with shot to give (it is horse)"),
    ([*FEET[:3], FEET[0]], "k-cm: draws from k-foot1 2 times (a stand from each parent)"),
    ([*FEET[:3], "k-cm"], "k-cm: draws a stand from itself"),
])
def test_a_bad_detachment_is_named_by_unit_and_field(detached: list[str], problem: str) -> None:
    assert _problems(_scenario(detached)) == [(WHERE, problem)]


def test_commanded_musketeers_are_musketeers_and_take_no_figures_of_their_own() -> None:
    found = _problems(_scenario(FEET[:4], troop="foot"))
    assert found == [("extensions.charge-yr-pikes.regiments[0].troop",
                      "k-cm: a unit detached from others is commanded musketeers (troop \"musketeers\"), "
                      "not foot")]
    s = _scenario(FEET[:4], more=[{"unit": "k-foot1", "troop": "foot", "shot": 4, "pike": 28}])
    assert _problems(s) == []  # one stand of shot to give: enough
    s = _scenario(FEET[:4], more=[{"unit": "k-foot1", "troop": "foot", "shot": 3, "pike": 28}])
    assert _problems(s) == [
        (WHERE, "k-cm: k-foot1 has no stand of shot left to give (0 stands of shot, 1 asked)")]


def test_a_parent_may_give_to_two_commanded_units_while_it_has_shot() -> None:
    second = {"unit": "k-cm2", "troop": "musketeers", "detached_from": FEET[:4]}
    s = _scenario(FEET[:4], more=[second])
    s = s.model_copy(update={"units": [*s.units, s.units[-2].model_copy(update={"id": "k-cm2", "x": 20.0})]})
    assert _problems(s) == []
    units = ChargeYrPikes(secret_deployment=False).initial_state(s).units
    assert (unit_data(units[FEET[0]]).shot, unit_data(units[FEET[0]]).start) == (8, 24)
    thin = _scenario(FEET[:4], more=[second, {"unit": "k-foot1", "troop": "foot", "shot": 4, "pike": 28}])
    thin = thin.model_copy(update={"units": [*thin.units, thin.units[-2].model_copy(update={"id": "k-cm2"})]})
    assert ("extensions.charge-yr-pikes.regiments[1].detached_from",
            "k-cm2: k-foot1 has no stand of shot left to give (1 stands of shot, 2 asked)") in _problems(thin)
