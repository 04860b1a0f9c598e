"""Charge yr Pikes! casualties: figures killed in equal proportion of pike and shot, a
front-rank officer's D10 of 10, and a galloper's gunners hit on a D10 of 1."""

from __future__ import annotations

import pytest

from tertia.core.dice import DiceDivergence, ScriptedDice
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.casualties import FiguresKilled, kill
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
