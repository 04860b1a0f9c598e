"""Declare Thee Sir, Morale: "A general stand attached to a unit adds one morale point (up to
4) to that unit." Option ``general_point``: ``while_attached`` (default) counts the point
while he is attached, gained when he joins and lost when he leaves; ``first_roll`` adds it
once, when the unit's points are first rolled, and keeps it."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.declare_thee_sir.capture import try_capture
from tertia.rulesets.declare_thee_sir.fire import fire
from tertia.rulesets.declare_thee_sir.points import GeneralPointChanged
from tertia.rulesets.declare_thee_sir.rally import rest
from tertia.rulesets.declare_thee_sir.reports import morale_words
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

from .dts_combat_support import A, B, dts, points, state_of, tx_with
from .dts_support import P, R, activated, dts_game, unit

READINGS = ("while_attached", "first_roll")
GENERAL = {"id": "pc", "side": P, "command": "centre", "x": 28, "y": 3, "general": True}


def game_for(reading: str, **table: Any) -> Game:
    """Two regiments of foot, the first at (20, 6), the second at (28, 6), and a general
    at (28, 3); the enemy far off."""
    return dts_game([unit("pf", P, "foot", 20, 6), unit("pf2", P, "foot", 28, 6),
                     unit("rf", R, "foot", 20, 30, 180)],
                    commanders=[GENERAL], turns=1, table=table or None, general_point=reading)


def general_moves(game: Game, state: GameState, to: tuple[float, float]) -> GameState:
    """The general's card is drawn and he rides to ``to``."""
    ready = activated(game, "pc", "advance", {"open": 9, "difficult": 3}).with_unit(state.units["pc"])
    for uid in ("pf", "pf2"):
        ready = ready.with_unit(state.units[uid])
    ready = ready.evolve(own=game_data(ready).evolve(deck_left=()))
    after, _ = game.apply(ready, Move(unit="pc", waypoints=(to,)), ScriptedDice([]))
    return after


def at_points(state: GameState, uid: str, morale: int) -> GameState:
    return state.with_unit(state.units[uid].evolve(morale=morale, morale_max=morale))


@pytest.mark.parametrize(("reading", "joined", "left"), [("while_attached", 3, 2), ("first_roll", 2, 2)])
def test_a_general_joining_a_tested_unit_adds_his_point_and_takes_it_when_he_leaves(
        reading: str, joined: int, left: int) -> None:
    """He rides up behind the good regiment (2 points), and then off again on his own."""
    game = game_for(reading)
    state = at_points(game.ruleset.initial_state(game.scenario), "pf", 2)
    state = general_moves(game, state, (20, 4.75))
    assert unit_data(state.units["pc"]).attached_to == "pf" and points_of(state, "pf") == joined
    state = general_moves(game, state, (28, 3))
    assert unit_data(state.units["pc"]).attached_to is None and points_of(state, "pf") == left


@pytest.mark.parametrize(("reading", "first", "second"), [("while_attached", 2, 3), ("first_roll", 3, 3)])
def test_riding_from_one_untested_unit_to_the_next_banks_no_point(reading: str, first: int,
                                                                   second: int) -> None:
    """Attached to the first regiment when it is first fired upon (its die a 2: 2 points,
    and his), he rides to the second, which is fired upon in turn (its die a 2). Counted
    while attached, the first loses his point as he goes and the second gains it; added at
    the first roll, each keeps one."""
    game = game_for(reading, generals=[{"commander": "pc", "attached_to": "pf"}])
    state = game.ruleset.initial_state(game.scenario).with_unit(
        game.ruleset.initial_state(game.scenario).units["pc"].evolve(x=20.0, y=4.75))
    state = fired_upon(state, "pf")
    assert points_of(state, "pf") == 3
    state = general_moves(game, state, (28, 4.75))
    state = fired_upon(state, "pf2")
    assert (points_of(state, "pf"), points_of(state, "pf2")) == (first, second)


def fired_upon(state: GameState, uid: str) -> GameState:
    """``uid`` is fired upon by an enemy musket in range (its morale die a 2: 2 points) and
    the volley does nothing (1 and 2: 3, HOLD)."""
    shooter = dts("shot", R, state.units[uid].x, 9.5, 180, morale=2)
    position = state.with_unit(shooter)
    tx = tx_with(position, 1, 2, 1, 2)
    fire(tx, "shot", uid)
    return tx.state.evolve(units={k: v for k, v in tx.state.units.items() if k != "shot"})


def points_of(state: GameState, uid: str) -> int | None:
    return unit_data(state.units[uid]).morale


def combat(reading: str, *units: Any) -> GameState:
    return state_of(*units, general_point=reading)


@pytest.mark.parametrize("reading", READINGS)
def test_a_general_joining_a_unit_at_4_adds_nothing_and_takes_nothing_when_he_leaves(
        reading: str) -> None:
    """"adds one morale point (up to 4)": an excellent regiment at 4 gains nothing from him,
    so loses nothing when he goes."""
    game = game_for(reading)
    state = at_points(game.ruleset.initial_state(game.scenario), "pf", 4)
    state = general_moves(game, state, (20, 4.75))
    assert points_of(state, "pf") == 4 and not unit_data(state.units["pf"]).general_point
    state = general_moves(game, state, (28, 3))
    assert points_of(state, "pf") == 4


@pytest.mark.parametrize("reading", READINGS)
def test_a_general_killed_by_fire_was_the_point_lost_and_nothing_more_goes(reading: str) -> None:
    """Fire d: "the general was the morale point lost". The untested regiment rolls 2 (2
    points) and he adds his; the volley's doubles take one, and his 1 kills him: the point
    taken was his, and it keeps its own 2."""
    target = dts("t", B, 24, 14, 180)
    general = dts("gen", B, 24, 15.5, 180, troop="general", attached_to="t")
    tx = tx_with(combat(reading, dts("f", A, 24, 10, 0, morale=3), target, general), 1, 2, 3, 3, 1)
    shot = fire(tx, "f", "t")
    assert shot.general_killed == "gen" and shot.points_lost == 1
    assert (points(tx, "t"), unit_data(tx.state.units["t"]).general_point) == (2, False)


@pytest.mark.parametrize(("reading", "left"), [("while_attached", 1), ("first_roll", 2)])
def test_a_captured_general_takes_his_point_with_him_while_attached(reading: str, left: int) -> None:
    """Optional Rules c: the attacker's 12 beats the target's 2 + 2 points + 1 for the
    general, and takes him; counted while attached, his point goes with him."""
    target = dts("t", B, 24, 11, 0, morale=2).evolve(general_point=reading == "while_attached")
    general = dts("gen", B, 24, 12.25, 0, troop="general", attached_to="t")
    tx = tx_with(combat(reading, dts("a", A, 24, 10, 0, morale=3), target, general), 12, 2)
    attempt = try_capture(tx, "a", "t")
    assert attempt.prize == "gen" and points(tx, "t") == left
    lost = GeneralPointChanged(unit="t", general="gen", points=-1)
    assert (lost in tx.events) is (reading == "while_attached")


@pytest.mark.parametrize(("held", "after"), [(True, 3), (False, 2)])
def test_resting_regains_the_generals_point_while_he_is_attached(held: bool, after: int) -> None:
    """Rally d: "up to its original morale level (good = 2 ...)", and his point while he
    is attached: a good regiment with his point, at 2 of 3, regains the third on doubles;
    without it, it is at its level already."""
    unit_ = dts("u", A, 20.0, 10.0, morale=2, morale_max=2).evolve(general_point=held)
    tx = tx_with(state_of(unit_), 3, 3)
    assert rest(tx, "u", "level").rallied and points(tx, "u") == after


@pytest.mark.parametrize(("first", "now", "after"), [(2, 3, 3), (3, 3, 4), (4, 4, 4), (1, 2, 3)])
def test_resting_with_the_generals_point_regains_one_over_the_level_and_never_past_four(
        first: int, now: int, after: int) -> None:
    """Rally d: "up to its original morale level"; the attached general "adds one morale
    point (up to 4)": a good regiment (first 2) with his point rests up to 3 and no
    further, an excellent one (first 3 or 4) up to 4 and never past it."""
    unit_ = dts("u", A, 20.0, 10.0, morale=now, morale_max=first).evolve(general_point=True)
    tx = tx_with(state_of(unit_), 3, 3)
    assert rest(tx, "u", "level").rallied and points(tx, "u") == after


def test_a_units_card_names_the_generals_point() -> None:
    assert morale_words(3, 2, True) == "3 points: excellent, one a general's"
    assert morale_words(2, 2, True) == "2 of 3 points: good, one a general's"
    assert morale_words(2, 2) == "2 points: good"
