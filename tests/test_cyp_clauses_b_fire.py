"""Charge yr Pikes! fire clauses pinned from both sides: a hit that kills no figure (an odd
musket hit on a battery, an unconfirmed half hit in a town) makes no casualty and so no
morale test, where a hit that kills one does (sections 8, 9 and 11 B)."""

from __future__ import annotations

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.casualties import FiguresKilled
from tertia.rulesets.charge_yr_pikes.fire import apply_fire
from tertia.rulesets.charge_yr_pikes.phases import STANDING_FIRE, work_out_fire
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_command import _state
from .test_cyp_fire import OPEN, TABLES, _with_galloper, area, at, facing_off, field, volley


@pytest.mark.parametrize(("hits", "lost"), [(1, 0), (2, 1)])
def test_an_odd_musket_hit_on_a_battery_kills_no_gunner_and_makes_no_test(hits: int, lost: int) -> None:
    """Muskets on artillerists: two hits a gunner; a lone hit is lost, so the battery has
    no casualty to test on, while two hits take a gunner and it tests."""
    _, state = _state()
    state = at(state, "p-foot", 40.0, 16.0, fired=True)
    shot, _ = volley(state, [hits], firer="p-foot", target="k-gun")
    applied = apply_fire(Tx(OPEN, state, ScriptedDice([])), [shot], TABLES)
    assert applied.casualties == ({"k-gun": lost} if lost else {})
    assert applied.must_test == (("k-gun",) if lost else ())


@pytest.mark.parametrize(("confirm", "lost"), [(1, 0), (4, 1)])
def test_a_half_hit_in_a_town_not_confirmed_kills_none_and_makes_no_test(confirm: int, lost: int) -> None:
    """In a town a musket hit counts half, an odd half confirmed on a D6 of 4 to 6: one not
    confirmed kills nobody and the regiment has no casualties to test on; one confirmed
    kills a figure and it tests."""
    state = facing_off(5.0, fired=True)
    town = field(area("town", 20.0, 17.2, 40.0, 24.0))
    shot, _ = volley(state, [1], town)
    applied = apply_fire(Tx(town, state, ScriptedDice([confirm])), [shot], TABLES)
    assert applied.casualties == ({"p-foot": lost} if lost else {})
    assert applied.must_test == (("p-foot",) if lost else ())


@pytest.mark.parametrize(("y0", "halved"), [(16.4, True), (13.4, False)])
def test_field_works_halve_casualties_only_nearer_the_target(y0: float, halved: bool) -> None:
    """16 C: troops behind field fortifications take casualties at half the normal rate:
    works across the line of fire nearer the target shelter it; works nearer the firer
    are the firer's, and the target stands in the open."""
    state = facing_off(5.0, fired=True)  # the king's front edge at y 12.75, the parliament's at 17.75
    works = field(area("works", 26.0, y0, 34.0, y0 + 0.5))
    shot, _ = volley(state, [3], works)
    assert shot.strikes[0].halved is halved


def test_a_fire_step_works_out_the_gallopers_shot_with_the_volleys_and_spends_the_orders() -> None:
    """12 A with Sequence of play 3 C-E: a unit charged takes the defending fire of the fire
    steps, a galloper's shot among it; the step's orders, worked out together, are spent
    when it is over, and the target, having lost figures, tests its morale."""
    state = _with_galloper(5.0)
    orders = (("k-foot", "p-foot", "musket"), ("k-gun", "p-foot", "galloper"))
    state = state.evolve(own=game_data(state).evolve(orders=orders, step=STANDING_FIRE, step_side="parl"))
    scripted = ScriptedDice([2, 1, 3, 6])  # two musket hits; one galloper hit; p-foot's rating; its test
    tx = Tx(OPEN, state, scripted)
    work_out_fire(tx, TABLES, STANDING_FIRE)
    assert scripted.remaining == 0
    assert [d.purpose.split(",")[0] for d in scripted.log] == [
        "musketry: k-foot at p-foot", "galloper: k-gun at p-foot",
        "morale points: p-foot", "morale: p-foot (fired on)"]
    assert sum(e.figures for e in tx.events if isinstance(e, FiguresKilled)) == 3
    assert unit_data(tx.state.units["p-foot"]).figures == 29
    assert game_data(tx.state).orders == () and game_data(tx.state).step is None


def test_a_unit_destroyed_before_its_turn_to_test_for_the_fire_takes_no_test() -> None:
    """12 A, 11 B and 15 A-B: the units struck by the step's fire test in the order first
    struck. The first breaks and routs; the second, struck too and within 6" of it, tests
    for the rout, fails, routs and loses its last man to the half D6: destroyed, it takes
    no test for the fire that struck it."""
    state = at(facing_off(5.0), "p-foot", 30.0, 18.5, morale=1, morale_max=1)
    second = state.units["p-foot"].evolve(id="p-foot2", x=38.0)
    second = second.evolve(own=unit_data(second).evolve(pike=0, shot=2))
    state = state.with_unit(second).with_unit(state.units["k-foot"].evolve(id="k-foot2", x=38.0))
    orders = (("k-foot", "p-foot", "musket"), ("k-foot2", "p-foot2", "musket"))
    state = state.evolve(own=game_data(state).evolve(orders=orders, step=STANDING_FIRE, step_side="parl"))
    # Hits 2 and 1; p-foot's test (1 + 1); its half D6 and rout move; p-foot2's test; its half D6.
    scripted = ScriptedDice([2, 1, 1, 1, 1, 1, 1])
    tx = Tx(OPEN, state, scripted)
    work_out_fire(tx, TABLES, STANDING_FIRE)
    assert scripted.remaining == 0
    assert tx.state.units["p-foot2"].removed == "destroyed"
    assert [d.purpose for d in scripted.log if d.purpose.startswith("morale")] == [
        "morale: p-foot (fired on)", "morale: p-foot2 (p-foot routed near it)"]
