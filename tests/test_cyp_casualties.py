"""Charge yr Pikes! casualties: figures killed in equal proportion of pike and shot, a
front-rank officer's D10 of 10, a galloper's gunners hit on a D10 of 1, and a unit with
no figures left destroyed."""

from __future__ import annotations

import pytest

from tertia.core.dice import DiceDivergence, ScriptedDice
from tertia.core.events import UnitRemoved
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.casualties import DESTROYED, FiguresKilled, kill
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .test_cyp_command import _state

LED = {"officers": [{"commander": "k-brig", "rank": "brigadier", "attached_to": "k-foot"}]}


def test_four_casualties_are_two_pike_and_two_shot() -> None:
    # Fire, section 8: "If the unit takes 4 casualties, two should be shot, and two should be pikes."
    table, state = _state()
    tx = Tx(table, state, ScriptedDice([]))
    assert kill(tx, "k-foot", 4, "musketry") == 4
    foot = unit_data(tx.state.units["k-foot"])
    assert (foot.pike, foot.shot, foot.lost) == (14, 14, 4)


def test_casualties_never_take_more_than_the_unit_has() -> None:
    table, state = _state()
    tx = Tx(table, state, ScriptedDice([]))
    assert kill(tx, "k-horse", 40, "melee") == 15
    assert unit_data(tx.state.units["k-horse"]).figures == 0


@pytest.mark.parametrize(("face", "falls"), [(10, True), (9, False), (1, False)])
def test_a_front_rank_officer_falls_on_a_d10_of_10(face: int, falls: bool) -> None:
    table, state = _state(LED)
    tx = Tx(table, state, ScriptedDice([face]))
    kill(tx, "k-foot", 1, "musketry")
    assert (tx.state.units["k-brig"].removed == "fallen") is falls


def test_no_casualties_no_roll_for_the_officer() -> None:
    table, state = _state(LED)
    tx = Tx(table, state, ScriptedDice([]))
    assert kill(tx, "k-foot", 0, "musketry") == 0  # a die asked for would exhaust the script


@pytest.mark.parametrize(("face", "gunners_hit"), [(1, 1), (2, 0)])
def test_under_fire_a_gallopers_gunner_takes_a_casualty_on_a_d10_of_1(face: int, gunners_hit: int) -> None:
    table, state = _state({"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                                          "attached_to": "k-foot"}]})
    tx = Tx(table, state, ScriptedDice([face]))
    kill(tx, "k-foot", 2, "musketry", by_fire=True)
    lost = {e.unit: e.figures for e in tx.events if isinstance(e, FiguresKilled)}
    assert lost.get("k-gun", 0) == gunners_hit
    assert lost["k-foot"] == 2 - gunners_hit
    with pytest.raises(DiceDivergence):
        kill(Tx(table, state, ScriptedDice([])), "k-foot", 2, "melee", by_fire=True)


@pytest.mark.parametrize("cause", ["musketry", "canister", "close combat"])
@pytest.mark.parametrize(("killed", "destroyed"), [(15, True), (14, False)])
def test_a_unit_whose_last_figures_fall_leaves_the_field_destroyed(cause: str, killed: int,
                                                                   destroyed: bool) -> None:
    # The text is silent; a regiment with no men left fights and holds ground no more.
    table, state = _state()
    tx = Tx(table, state, ScriptedDice([]))
    assert kill(tx, "k-horse", killed, cause) == killed
    horse = tx.state.units["k-horse"]
    assert horse.in_play is not destroyed
    removed = [e for e in tx.events if isinstance(e, UnitRemoved)]
    assert [(e.unit, e.reason, e.detail) for e in removed] == (
        [("k-horse", DESTROYED, f"its last men fell ({cause})")] if destroyed else [])


def test_a_destroyed_units_front_rank_officer_goes_with_it_if_he_did_not_fall() -> None:
    table, state = _state(LED)
    tx = Tx(table, state, ScriptedDice([3]))  # the officer's D10: he does not fall
    kill(tx, "k-foot", 40, "musketry")
    assert tx.state.units["k-foot"].removed == DESTROYED
    assert tx.state.units["k-brig"].removed == DESTROYED


def test_a_routing_units_last_men_say_it_fell_as_it_routed() -> None:
    table, state = _state()
    tx = Tx(table, state, ScriptedDice([]))
    kill(tx, "k-horse", 15, "routing (lost a close combat)", last_men="its last men fell as it routed")
    assert [e.detail for e in tx.events if isinstance(e, UnitRemoved)] == ["its last men fell as it routed"]
