"""Charge yr Pikes! command response (Movement 5 A, Tertias and officers 4 B, C, G):
which officer tests for a tertia, the units each die is for, and the "no move" faces."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.command import (
    ResponseDie,
    command_distance,
    dice_for,
    in_command_radius,
    line_for,
    respond,
    response_table,
)
from tertia.rulesets.charge_yr_pikes.data import CypGame
from tertia.rulesets.charge_yr_pikes.events import CommandResponded
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.charge_yr_pikes.setup import pieces
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_setup import scenario


def _state(extension: dict[str, Any] | None = None) -> tuple[Any, GameState]:
    s = scenario(extension)
    units = pieces(s, PikesTable.model_validate(s.extensions.get("charge-yr-pikes", {})))
    return s.build_battlefield(), GameState(("king", "parl"), 1, "king", "movement", units, own=CypGame())


def _who(tests: list[ResponseDie]) -> list[tuple[str | None, tuple[str, ...]]]:
    return [(None if t.officer is None else t.officer.id, t.units) for t in tests]


def test_the_highest_officer_within_8_inches_tests_for_the_units_in_his_reach() -> None:
    _, state = _state()
    near = state.with_unit(state.units["k-gen"].evolve(x=33.0, y=6.0))
    # The army's general at (33, 6) reaches the foot and the gun of k1; the brigadier of k1
    # is lower ranking.
    assert _who(dice_for(near, "king", "k1", {})) == [("k-gen", ("k-foot", "k-gun"))]


def test_the_command_radius_is_measured_from_the_units_reference_point() -> None:
    # Movement 5 B: "All measuring for distance is made from the center of the line ...".
    # At (36, 4) the general is 7.6" from the foot's nearest corner but 9.9" from the
    # centre of its front (30, 12.75): the foot tests without officer; the gun's front
    # centre is 7.4" from him.
    _, state = _state()
    gen, foot = state.units["k-gen"], state.units["k-foot"]
    assert command_distance(gen, foot) == pytest.approx(9.92, abs=0.01)
    assert _who(dice_for(state, "king", "k1", {})) == [("k-gen", ("k-gun",)), (None, ("k-foot",))]
    # In square the foot is measured from its centre (30, 12): 9.2" from him, still beyond.
    square = state.with_unit(foot.evolve(own=unit_data(foot).evolve(formation="square")))
    assert command_distance(gen, square.units["k-foot"]) == pytest.approx(math.dist((30, 12), (35.5, 4.5)))
    # Turned about to face him, its front centre (30, 11.25) is 8.3" off: still beyond; two
    # inches east, at (32, 11.25), 7.6": within.
    about = state.with_unit(foot.evolve(facing=180.0))
    assert command_distance(gen, about.units["k-foot"]) == pytest.approx(math.dist((30, 11.25), (35.5, 4.5)))
    assert not in_command_radius(gen, about.units["k-foot"])
    assert in_command_radius(gen, about.units["k-foot"], at=(32.0, 12.0))


def test_units_beyond_every_officers_reach_test_one_by_one_without_officer() -> None:
    _, state = _state()
    # k2's horse and dragoons stand over 8" from the general; the brigadier commands k1 only.
    assert _who(dice_for(state, "king", "k2", {})) == [(None, ("k-horse",)), (None, ("k-drag",))]


def test_a_wing_commander_tests_for_the_tertias_given_him() -> None:
    _, state = _state({"officers": [{"commander": "k-brig", "rank": "wing"}]})
    moved = state.with_unit(state.units["k-brig"].evolve(x=55.0, y=6.0))
    assert _who(dice_for(moved, "king", "k2", {"k-brig": ("k2",)})) == [("k-brig", ("k-horse", "k-drag"))]
    assert _who(dice_for(moved, "king", "k2", {})) == [(None, ("k-horse",)), (None, ("k-drag",))]


def test_an_officer_in_a_front_rank_tests_for_his_unit_alone() -> None:
    _, state = _state({"officers": [{"commander": "k-gen", "rank": "army", "attached_to": "k-foot"}]})
    state = state.with_unit(state.units["k-brig"].evolve(x=36.0))
    # The general leads the foot; the brigadier of k1, now at (36, 8), reaches the gun.
    assert _who(dice_for(state, "king", "k1", {})) == [("k-gen", ("k-foot",)), ("k-brig", ("k-gun",))]


@pytest.mark.parametrize(("grade", "face", "obeyed"), [
    ("ineffective", 8, False), ("ineffective", 7, True),
    ("effective", 9, False), ("effective", 8, True),
    ("natural_born_leader", 10, False), ("natural_born_leader", 9, True),
])
def test_an_officers_grade_gives_the_texts_no_move_faces(grade: str, face: int, obeyed: bool) -> None:
    # Section 22: "IN ... 0,9,8 = no move", "E ... 0,9", "NB ... 0"; a D10's 10 is the text's 0.
    table = response_table(default_tables(), graded=True)
    assert table.responds(grade, face) is obeyed


@pytest.mark.parametrize(("line", "face", "obeyed"), [
    ("army", 10, False), ("army", 9, True), ("wing", 9, False), ("wing", 8, True),
    ("brigadier", 9, False), ("staff", 8, True), ("no_officer", 7, False), ("no_officer", 6, True),
])
def test_without_grades_the_rank_lines_are_read(line: str, face: int, obeyed: bool) -> None:
    assert response_table(default_tables(), graded=False).responds(line, face) is obeyed


def test_a_graded_officer_tests_on_his_grade_and_an_ungraded_one_on_his_rank() -> None:
    _, state = _state({"officers": [{"commander": "k-brig", "rank": "brigadier",
                                     "grade": "natural_born_leader"}]})
    brig, general = state.units["k-brig"], state.units["k-gen"]
    assert line_for(brig, graded=True) == "natural_born_leader"
    assert line_for(brig, graded=False) == "brigadier"
    assert line_for(general, graded=True) == "army"  # no grade rolled yet
    assert line_for(None, graded=True) == "no_officer"


def test_the_units_that_obey_may_move_and_the_others_may_not() -> None:
    table, state = _state()
    state = state.with_unit(state.units["k-gen"].evolve(x=33.0, y=6.0))
    tx = Tx(table, state, ScriptedDice([8, 7, 3]))
    tests = dice_for(state, "king", "k1", {}) + dice_for(state, "king", "k2", {})
    respond(tx, "king:k1", tests, response_table(default_tables(), graded=False), graded=False)
    # The general (army: fails on 0 only) rolls 8: foot and gun move; the horse without
    # officer rolls 7 (fails on 0, 9, 8, 7); the dragoons roll 3 and move.
    rolled = [e for e in tx.events if isinstance(e, CommandResponded)]
    assert [(e.officer, e.face, e.obeyed) for e in rolled] == \
        [("k-gen", 8, True), (None, 7, False), (None, 3, True)]
    assert game_data(tx.state).moving == ("k-foot", "k-gun", "k-drag")
    assert unit_data(tx.state.units["k-horse"]).moved is False


@pytest.mark.parametrize(("face", "obeyed"), [(5, True), (7, False)])
def test_falling_back_ends_when_the_unit_passes_its_next_command_response(face: int, obeyed: bool) -> None:
    # Special rules B: "This status continues until the unit passes its next command
    # response role." Alone, without officer, the foot passes on 5 and fails on 7.
    table, state = _state()
    foot = state.units["k-foot"]
    state = state.with_unit(foot.evolve(own=unit_data(foot).evolve(falling_back=True, disordered=True)))
    tx = Tx(table, state, ScriptedDice([face]))
    respond(tx, "king:k1", [ResponseDie(None, ("k-foot",))], response_table(default_tables(), graded=False),
            graded=False)
    own = unit_data(tx.state.units["k-foot"])
    assert own.falling_back is not obeyed
    assert own.disordered  # disorder has its own cures
    assert ("k-foot" in game_data(tx.state).moving) is obeyed


def test_a_unit_not_falling_back_that_passes_is_unchanged() -> None:
    table, state = _state()
    tx = Tx(table, state, ScriptedDice([5]))
    respond(tx, "king:k1", [ResponseDie(None, ("k-foot",))], response_table(default_tables(), graded=False),
            graded=False)
    assert tx.state.units["k-foot"].own == state.units["k-foot"].own
