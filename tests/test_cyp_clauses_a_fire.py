"""Charge yr Pikes! fire (Sequence of play 3 C to E, Fire 8, Artillery 9): the tests to
take on casualties, galloper guns firing in the step, batteries that may not fire, ball
and cover, and the penetration zone along a slanting line of fire.

The pieces are those of ``test_cyp_fire`` (the two foot regiments facing off) and
``test_cyp_artillery`` (the king's field gun at (40, 10) facing north)."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.artillery import artillery_problems, penetration, work_out_artillery
from tertia.rulesets.charge_yr_pikes.casualties import FiguresKilled
from tertia.rulesets.charge_yr_pikes.fire import BALL, CANISTER, FireCode, apply_fire
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.phases import work_out_fire
from tertia.rulesets.charge_yr_pikes.tables import default_tables, tables_with
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_artillery import gun_and_target
from .test_cyp_fire import GALLOPER, OPEN, TABLES, at, codes, facing_off, field, line, volley

T = default_tables()
ON_CASUALTIES = tables_with({"morale": {**T.morale.model_dump(by_alias=True),
                                        "triggers": {**T.morale.triggers.model_dump(by_alias=True),
                                                     "canister_always": False}}})
BALL_TAKES_COVER = tables_with({"artillery": {**T.artillery.model_dump(by_alias=True),
                                              "handling": {**T.artillery.handling.model_dump(by_alias=True),
                                                           "ball_takes_cover": True}}})


def _ordered(state: GameState, *orders: tuple[str, str, str]) -> GameState:
    return state.evolve(own=game_data(state).evolve(orders=orders))


# --- tests on casualties (3 C, D, E) -----------------------------------------------------


@pytest.mark.parametrize(("hits", "lost"), [(0, 0), (2, 2)])
def test_a_volley_makes_its_target_test_only_when_it_kills(hits: int, lost: int) -> None:
    # Sequence of play 3 D, E: "morale tests on casualties": a volley that kills none
    # leaves no casualties and no test; one that kills makes the target test.
    state = facing_off(5.0)
    shot, _ = volley(state, [hits])
    applied = apply_fire(Tx(OPEN, state, ScriptedDice([])), [shot], TABLES)
    assert applied.casualties == ({"p-foot": lost} if lost else {})
    assert applied.must_test == (("p-foot",) if lost else ())


@pytest.mark.parametrize(("hits", "tests"), [(0, False), (2, True)])
def test_canister_tested_on_casualties_makes_only_a_target_that_lost_figures_test(hits: int,
                                                                                   tests: bool) -> None:
    # Artillery: "the target tests even with no hits" (canister_always, the text's); with
    # the option off, canister tests on casualties like muskets.
    state = gun_and_target(8.0)
    scripted = ScriptedDice([hits])
    shot = work_out_artillery(Tx(OPEN, state, scripted), OPEN, state, "k-gun", "p-foot", CANISTER,
                              ON_CASUALTIES)
    applied = apply_fire(Tx(OPEN, state, ScriptedDice([])), [shot], ON_CASUALTIES)
    assert applied.casualties == ({"p-foot": hits} if tests else {})
    assert applied.must_test == (("p-foot",) if tests else ())
    # The text's rule: tested either way.
    always = work_out_artillery(Tx(OPEN, state, ScriptedDice([hits])), OPEN, state, "k-gun", "p-foot",
                                CANISTER, TABLES)
    assert apply_fire(Tx(OPEN, state, ScriptedDice([])), [always], TABLES).must_test == ("p-foot",)


def test_a_galloper_ordered_to_fire_fires_in_the_step_with_its_regiment() -> None:
    # Galloper guns "fire as two stands at the unit's target": the step works out the
    # regiment's volley (no hits) and the galloper's two dice (two hits), and the target,
    # having lost figures to the galloper, tests.
    state = at(facing_off(5.0, GALLOPER), "k-gun", 32.75, 12.0)
    state = _ordered(at(state, "p-foot", 30.0, 18.5, morale=4),
                     ("k-foot", "p-foot", "musket"), ("k-gun", "p-foot", "galloper"))
    scripted = ScriptedDice([0, 2, 6])
    tx = Tx(OPEN, state, scripted)
    work_out_fire(tx, TABLES, "musketry")
    assert [d.die for d in scripted.log] == ["4d6@2,3,4,5,6", "2d6@3,4,5,6", "d6"]
    assert unit_data(tx.state.units["p-foot"]).figures == 30
    events = tx.events
    assert [e.figures for e in events if isinstance(e, FiguresKilled) and e.unit == "p-foot"] == [2]
    assert [e.passed for e in events if isinstance(e, MoraleTested)] == [True]


# --- batteries that may not fire (Artillery 9) ---------------------------------------------


@pytest.mark.parametrize(("own", "refused"), [
    ({"men": 0}, True), ({"formation": "routed"}, True), ({"men": 1}, False), ({}, False)])
def test_a_battery_with_no_gunners_left_or_routed_may_not_fire(own: dict[str, Any], refused: bool) -> None:
    # Ball on batteries: each 9 (or 0 then 1-5) is "1 artillerist hit"; a gun with none
    # left cannot be served, nor can one whose crew have routed.
    state = gun_and_target(20.0)
    state = state.with_unit(state.units["k-gun"].evolve(**own))
    found = codes(artillery_problems(OPEN, state, "k-gun", "p-foot", BALL, TABLES))
    assert found == ([FireCode.CANNOT_FIRE] if refused else [])


# --- ball and cover -----------------------------------------------------------------------


@pytest.mark.parametrize(("tables", "covered"), [(TABLES, False), (BALL_TAKES_COVER, True)])
def test_a_ball_ignores_the_targets_hedge_unless_the_tables_say_it_takes_cover(tables: Any,
                                                                             covered: bool) -> None:
    # Ball modifiers are enfilade and an officer only; a hedge's -1 is musketry's and
    # canister's (16 C) unless ``[artillery.handling] ball_takes_cover``.
    state = gun_and_target(20.0)  # the target's front edge at y = 31
    hedged = field(line("hedge", 30.7, 30.0, 50.0))
    scripted = ScriptedDice([4])
    shot = work_out_artillery(Tx(hedged, state, scripted), hedged, state, "k-gun", "p-foot", BALL, tables)
    cover = (-1, "target behind a wall or hedge or in woods")
    assert (cover in shot.modifiers) is covered
    # In the open no cover counts, whatever the tables.
    plain = work_out_artillery(Tx(OPEN, state, ScriptedDice([4])), OPEN, state, "k-gun", "p-foot", BALL,
                               tables)
    assert cover not in plain.modifiers


# --- the penetration zone along a slanting line ------------------------------------------


@pytest.mark.parametrize(("offset", "inside"), [(0.0, True), (5.0, False)])
def test_the_penetration_line_runs_from_the_gun_through_the_targets_centre_at_a_slant(
        offset: float, inside: bool) -> None:
    # Artillery 9: the zone lies behind the target on the line from the gun's front
    # centre (40, 11) through the target's centre (46, 30): 6" east for every 19" north.
    # The king's horse 6" on along that line is in it; 5" to the east of that point, not.
    state = at(gun_and_target(20.0), "p-foot", 46.0, 30.0)
    ux, uy = 6.0 / (6.0 ** 2 + 19.0 ** 2) ** 0.5, 19.0 / (6.0 ** 2 + 19.0 ** 2) ** 0.5
    state = at(state, "k-horse", 46.0 + 6.0 * ux + offset, 30.0 + 6.0 * uy, facing=0.0)
    found = penetration(OPEN, state, state.units["k-gun"], state.units["p-foot"], TABLES)
    assert ([u.id for u in found] == ["k-horse"]) is inside


def test_a_unit_gone_from_the_field_before_its_turn_to_test_takes_no_test() -> None:
    # The units struck test in the order first struck. Parliament's foot, hit by the
    # king's volley, fails (rated 0, a 1) and routs off its own edge; its neighbour 6" off,
    # struck by canister, tests for the rout near it, fails and routs off too: gone from
    # the field, it takes no test for the canister.
    state = at(facing_off(5.0), "p-foot", 30.0, 45.0, morale=0)
    state = state.with_unit(state.units["p-foot"].evolve(id="p-foot2", x=36.0))
    state = at(at(state, "k-foot", 30.0, 38.75), "k-gun", 42.0, 36.0, facing=0.0)
    state = state.evolve(own=game_data(state).evolve(
        edges={"king": "south", "parl": "north"},
        orders=(("k-foot", "p-foot", "musket"), ("k-gun", "p-foot2", "canister"))))
    # hits: 2 and 0; p-foot's test, ½D6 and rout move; p-foot2's the same.
    scripted = ScriptedDice([2, 0, 1, 1, 1, 1, 1, 1])
    tx = Tx(OPEN, state, scripted)
    work_out_fire(tx, TABLES, "musketry")
    assert scripted.remaining == 0
    assert [(e.unit, e.why) for e in tx.events if isinstance(e, MoraleTested)] == [
        ("p-foot", "fired on"), ("p-foot2", "p-foot routed near it")]
    assert [tx.state.units[u].removed for u in ("p-foot", "p-foot2")] == ["routed off", "routed off"]
