"""Charge yr Pikes! artillery (section 9): ball on foot, horse and batteries, penetration,
canister, heavy guns, pivots, silencing, and firing over troops from and at hills.

The king's field gun (k-gun) stands at (40, 10) facing north, its front edge at y = 11.
A unit standing at y = 11.75 + gap facing south (a foot regiment is 1.5" deep) has its
front edge ``gap`` inches from the gun's."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.rulesets.charge_yr_pikes.artillery import (
    artillery_problems,
    ball_strike,
    note_places,
    penetration,
    rally_silenced,
    stands_deep,
    work_out_artillery,
)
from tertia.rulesets.charge_yr_pikes.fire import BALL, CANISTER, SILENCED, SILENT_TURN, FireCode, apply_fire
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_command import _state
from .test_cyp_fire import TABLES, area, at, codes, field

OPEN = Battlefield(72.0, 48.0)
HEAVY = {"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "heavy"}]}


def gun_and_target(gap: float, extension: dict[str, Any] | None = None, facing: float = 180.0,
                   **target: Any) -> GameState:
    _, state = _state(extension)
    state = state.with_unit(state.units["p-foot"].evolve(facing=facing))
    return at(state, "p-foot", 40.0, 11.75 + gap, **target)


def with_parl_gun(state: GameState, x: float, y: float, **own: Any) -> GameState:
    """A parliament battery, a copy of the king's, at (x, y) facing south."""
    gun = state.units["k-gun"].evolve(id="p-gun", side="parl", command="p1", x=x, y=y, facing=180.0, **own)
    return state.with_unit(gun)


def fire(state: GameState, dice: list[int], kind: str = BALL, target: str = "p-foot",
         table: Battlefield = OPEN) -> Any:
    scripted = ScriptedDice(dice)
    shot = work_out_artillery(Tx(table, state, scripted), table, state, "k-gun", target, kind, TABLES)
    assert scripted.remaining == 0
    return shot


# --- ranges ------------------------------------------------------------------------------


@pytest.mark.parametrize(("extension", "kind", "reach"), [
    (None, BALL, 36), (HEAVY, BALL, 48), (None, CANISTER, 12), (HEAVY, CANISTER, 15)])
def test_ball_and_canister_reach_the_texts_ranges(extension: Any, kind: str, reach: int) -> None:
    near = gun_and_target(reach - 0.1, extension)
    assert artillery_problems(OPEN, near, "k-gun", "p-foot", kind, TABLES) == []
    far = artillery_problems(OPEN, gun_and_target(reach + 0.5, extension), "k-gun", "p-foot", kind, TABLES)
    assert codes(far) == [FireCode.OUT_OF_RANGE]


def test_gallopers_fire_no_ball() -> None:
    _, state = _state({"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                                      "attached_to": "k-foot"}]})
    assert codes(artillery_problems(OPEN, state, "k-gun", "p-foot", BALL, TABLES)) == [FireCode.NO_BALL]


def test_a_gun_fires_only_in_its_arc() -> None:
    state = at(gun_and_target(10.0), "p-foot", 40.0, 2.0)
    assert codes(artillery_problems(OPEN, state, "k-gun", "p-foot", BALL, TABLES)) == [FireCode.OUT_OF_ARC]


# --- ball on foot and horse ----------------------------------------------------------------

DEEP = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2}
SHALLOW = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 1}


@pytest.mark.parametrize(("target", "table"), [
    ({}, DEEP),                                   # a foot regiment stands deep
    ({"troop": "musketeers"}, SHALLOW),           # musketeers in line stand shallow
    ({"troop": "musketeers", "formation": "column"}, DEEP),
    ({"troop": "horse", "mounted": True}, SHALLOW),  # cavalry: 1,2,3 miss, 4,5,6 one hit
])
def test_ball_hits_by_the_targets_formation(target: dict[str, Any], table: dict[int, int]) -> None:
    for face, hits in table.items():
        shot = fire(gun_and_target(20.0, **target), [face])
        assert shot.hits == hits, face
        assert not shot.strikes[0].test_on_casualties and not shot.strikes[0].test_always


def test_the_exact_odds_of_a_ball_on_a_deep_target_are_the_texts() -> None:
    state = gun_and_target(20.0)
    gun, target = state.units["k-gun"], state.units["p-foot"]
    odds: dict[int, Fraction] = {}
    for face in range(1, 7):
        tx = Tx(OPEN, state, ScriptedDice([face]))
        strike, _ = ball_strike(tx, OPEN, state, gun, target, TABLES, "ball")
        odds[strike.hits] = odds.get(strike.hits, Fraction(0)) + Fraction(1, 6)
    assert odds == {0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}


def test_in_a_town_foot_stand_shallow_and_take_half() -> None:
    town = field(area("town", 30.0, 29.0, 50.0, 40.0))
    state = gun_and_target(20.0)
    assert stands_deep(OPEN, state.units["p-foot"], TABLES)
    assert not stands_deep(town, state.units["p-foot"], TABLES)
    shot = fire(state, [6], table=town)
    assert shot.hits == 1 and shot.strikes[0].halved


def test_enfilade_adds_one_but_not_against_batteries() -> None:
    # Parliament's foot faces east: the gun, to its south, is beyond its right flank.
    flank = gun_and_target(20.0, facing=90.0)
    assert fire(flank, [2]).modifiers == ((1, "firing in enfilade"),)
    assert fire(flank, [2]).hits == 1
    assert fire(gun_and_target(20.0), [2]).hits == 0
    battery = with_parl_gun(gun_and_target(30.0), 40.0, 25.0)
    battery = battery.with_unit(battery.units["p-gun"].evolve(facing=90.0))
    assert fire(battery, [8], target="p-gun").modifiers == ()


def test_an_officer_with_the_battery_adds_one() -> None:
    state = gun_and_target(20.0, {"officers": [{"commander": "k-brig", "rank": "brigadier",
                                                "attached_to": "k-gun"}]})
    shot = fire(state, [2])
    assert shot.modifiers == ((1, "officer attached to the battery"),) and shot.hits == 1


def test_a_routed_unit_that_takes_casualties_from_a_ball_tests() -> None:
    # Routing H: "A routed unit which is fired on and takes casualties tests morale."
    state = gun_and_target(20.0, formation="routed")
    assert apply_fire(Tx(OPEN, state, ScriptedDice([])), [fire(state, [6])], TABLES).must_test == ("p-foot",)
    assert apply_fire(Tx(OPEN, state, ScriptedDice([])), [fire(state, [1])], TABLES).must_test == ()


def test_ball_on_foot_takes_casualties_without_a_test() -> None:
    state = gun_and_target(20.0)
    tx = Tx(OPEN, state, ScriptedDice([]))
    applied = apply_fire(tx, [fire(state, [6])], TABLES)
    assert applied.casualties == {"p-foot": 2} and applied.must_test == ()
    gun = unit_data(tx.state.units["k-gun"])
    assert gun.gun_fired and gun.fired_turn == state.turn


# --- ball on batteries -------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "gunners", "effect"), [
    ([1], 0, None), ([8], 0, None), ([9], 1, None),
    ([10, 1], 1, None), ([10, 5], 1, None), ([10, 6], 0, SILENT_TURN), ([10, 8], 0, SILENT_TURN),
    ([10, 9], 0, SILENCED), ([10, 10], 0, SILENCED)])
def test_ball_on_a_battery_reads_the_d10_and_rolls_again_on_0(dice: list[int], gunners: int,
                                                               effect: str | None) -> None:
    state = with_parl_gun(gun_and_target(30.0), 40.0, 25.0)
    strike = fire(state, dice, target="p-gun").strikes[0]
    assert (strike.hits, strike.effect, strike.struck) == (gunners, effect, bool(gunners or effect))


def test_an_officer_with_the_battery_makes_an_8_a_hit() -> None:
    state = with_parl_gun(gun_and_target(30.0, {"officers": [{"commander": "k-brig", "rank": "brigadier",
                                                               "attached_to": "k-gun"}]}), 40.0, 25.0)
    assert fire(state, [8], target="p-gun").strikes[0].hits == 1
    assert fire(state, [9, 2], target="p-gun").strikes[0].hits == 1  # a 9 reads 0: rolled again


def test_the_exact_odds_of_a_ball_on_a_battery() -> None:
    state = with_parl_gun(gun_and_target(30.0), 40.0, 25.0)
    gun, target = state.units["k-gun"], state.units["p-gun"]
    odds: dict[str, Fraction] = {}
    for first, second in itertools.product(range(1, 11), repeat=2):
        strike, _ = ball_strike(Tx(OPEN, state, ScriptedDice([first, second])), OPEN, state, gun, target,
                                TABLES, "ball")
        result = "gunner" if strike.hits else strike.effect or "miss"
        odds[result] = odds.get(result, Fraction(0)) + Fraction(1, 100)
    assert odds == {"miss": Fraction(8, 10), "gunner": Fraction(15, 100), SILENT_TURN: Fraction(3, 100),
                    SILENCED: Fraction(2, 100)}


def test_a_battery_struck_tests_morale_one_missed_does_not() -> None:
    state = with_parl_gun(gun_and_target(30.0), 40.0, 25.0)
    struck = apply_fire(Tx(OPEN, state, ScriptedDice([])), [fire(state, [10, 7], target="p-gun")], TABLES)
    assert struck.must_test == ("p-gun",) and struck.casualties == {}
    missed = apply_fire(Tx(OPEN, state, ScriptedDice([])), [fire(state, [4], target="p-gun")], TABLES)
    assert missed.must_test == ()


def test_a_battery_stopped_for_a_turn_fires_again_the_turn_after() -> None:
    state = with_parl_gun(gun_and_target(30.0), 40.0, 25.0)
    tx = Tx(OPEN, state, ScriptedDice([]))
    apply_fire(tx, [fire(state, [10, 6], target="p-gun")], TABLES)
    after = tx.state
    assert unit_data(after.units["p-gun"]).silent_turn == state.turn + 1
    assert artillery_problems(OPEN, after, "p-gun", "k-gun", BALL, TABLES) == []  # this turn it fired already
    next_turn = after.evolve(turn=state.turn + 1)
    assert codes(artillery_problems(OPEN, next_turn, "p-gun", "k-gun", BALL, TABLES)) == [FireCode.SILENCED]
    assert artillery_problems(OPEN, after.evolve(turn=state.turn + 2), "p-gun", "k-gun", BALL, TABLES) == []


@pytest.mark.parametrize(("face", "resumes"), [(3, False), (4, True), (6, True), (1, False)])
def test_a_silenced_battery_resumes_on_a_rally_d6_of_4_to_6(face: int, resumes: bool) -> None:
    state = with_parl_gun(gun_and_target(30.0), 40.0, 25.0, silenced=True)
    assert codes(artillery_problems(OPEN, state, "p-gun", "k-gun", BALL, TABLES)) == [FireCode.SILENCED]
    tx = Tx(OPEN, state, ScriptedDice([face]))
    assert rally_silenced(tx, "p-gun", TABLES) is resumes
    assert (artillery_problems(OPEN, tx.state, "p-gun", "k-gun", BALL, TABLES) == []) is resumes


def test_a_battery_not_silenced_rolls_nothing_to_rally() -> None:
    state = with_parl_gun(gun_and_target(30.0), 40.0, 25.0)
    assert rally_silenced(Tx(OPEN, state, ScriptedDice([])), "p-gun", TABLES)


# --- heavy guns, pivots, moves ------------------------------------------------------------


@pytest.mark.parametrize(("extension", "last", "refused"), [
    (HEAVY, 0, True), (HEAVY, -1, False), (None, 0, False), (HEAVY, None, False)])
def test_heavy_guns_fire_every_other_turn(extension: Any, last: int | None, refused: bool) -> None:
    state = gun_and_target(20.0, extension)
    fired = None if last is None else state.turn + last - 1
    state = state.with_unit(state.units["k-gun"].evolve(fired_turn=fired))
    found = codes(artillery_problems(OPEN, state, "k-gun", "p-foot", BALL, TABLES))
    assert found == ([FireCode.RELOADING] if refused else [])


@pytest.mark.parametrize("extension", [HEAVY, None])
def test_a_gun_that_fired_this_turn_is_refused_as_having_fired(extension: Any) -> None:
    state = gun_and_target(20.0, extension)
    state = state.with_unit(state.units["k-gun"].evolve(fired_turn=state.turn))
    refused = artillery_problems(OPEN, state, "k-gun", "p-foot", BALL, TABLES)
    assert codes(refused) == [FireCode.RELOADING]
    assert refused[0].message.endswith("has already fired this turn"), refused[0].message


def _turned(state: GameState, degrees: float, moved: float = 0.0) -> GameState:
    tx = Tx(OPEN, state, ScriptedDice([]))
    note_places(tx)
    gun = tx.state.units["k-gun"]
    return tx.state.with_unit(gun.evolve(x=gun.x + moved, facing=(gun.facing + degrees) % 360.0))


@pytest.mark.parametrize(("extension", "degrees", "moved", "refused"), [
    (None, 30.0, 0.0, False), (None, -45.0, 0.0, False), (None, 50.0, 0.0, True), (None, 0.0, 2.0, True),
    (HEAVY, 0.0, 0.0, False), (HEAVY, 10.0, 0.0, True)])
def test_field_guns_pivot_45_degrees_and_fire_heavy_guns_do_not_fire_after_pivoting(
        extension: Any, degrees: float, moved: float, refused: bool) -> None:
    state = _turned(gun_and_target(20.0, extension), degrees, moved)
    assert game_data(state).places
    found = codes(artillery_problems(OPEN, state, "k-gun", "p-foot", BALL, TABLES))
    assert found == ([FireCode.GUN_MOVED] if refused else [])


# --- canister ------------------------------------------------------------------------------


@pytest.mark.parametrize(("extension", "die"), [(None, "3d6@3,4,5,6"), (HEAVY, "4d6@3,4,5,6")])
def test_canister_rolls_a_d6_for_each_gunner(extension: Any, die: str) -> None:
    state = gun_and_target(8.0, extension)
    scripted = ScriptedDice([2])
    shot = work_out_artillery(Tx(OPEN, state, scripted), OPEN, state, "k-gun", "p-foot", CANISTER, TABLES)
    assert scripted.log[0].die == die and shot.hits == 2


def test_fewer_gunners_fewer_dice_and_a_hedge_takes_one_off() -> None:
    state = gun_and_target(8.0)
    state = state.with_unit(state.units["k-gun"].evolve(men=2))
    hedge = field(area("hedge", 30.0, 18.0, 50.0, 18.3))
    scripted = ScriptedDice([1])
    work_out_artillery(Tx(hedge, state, scripted), hedge, state, "k-gun", "p-foot", CANISTER, TABLES)
    assert scripted.log[0].die == "2d6@4,5,6"


def test_a_target_of_canister_tests_even_with_no_hits() -> None:
    state = gun_and_target(8.0)
    applied = apply_fire(Tx(OPEN, state, ScriptedDice([])), [fire(state, [0], CANISTER)], TABLES)
    assert applied.casualties == {} and applied.must_test == ("p-foot",)


# --- penetration -------------------------------------------------------------------------


def _behind(gap: float, extension: Any = None) -> GameState:
    """Parliament's foot 20" from the gun; the king's own horse ``gap`` inches behind its
    front edge, in the line of fire."""
    state = gun_and_target(20.0, extension)
    return at(state, "k-horse", 40.0, 31.0 + gap + 0.625)  # front edge 31 + gap


@pytest.mark.parametrize(("extension", "gap", "inside"), [
    (None, 11.0, True), (None, 12.5, False), (HEAVY, 17.0, True), (HEAVY, 18.5, False)])
def test_units_in_the_penetration_zone_test_for_hits_as_the_target(extension: Any, gap: float,
                                                                    inside: bool) -> None:
    # The target's front edge is at y = 31; the horse's near edge at 31 + gap - 1.25.
    state = _behind(gap, extension)
    found = penetration(OPEN, state, state.units["k-gun"], state.units["p-foot"], TABLES)
    assert ([u.id for u in found] == ["k-horse"]) is inside
    if inside:
        shot = fire(state, [3, 5])
        assert [(s.unit, s.hits) for s in shot.strikes] == [("p-foot", 1), ("k-horse", 1)]


@pytest.mark.parametrize(("ground", "stopped"), [
    (area("woods", 30.0, 35.0, 50.0, 36.0), True),
    (area("town", 30.0, 35.0, 50.0, 36.0), True),
    (area("works", 30.0, 35.0, 50.0, 36.0), True),
    (area("hill", 0.0, 35.0, 72.0, 48.0), True),
    (area("rough", 30.0, 35.0, 50.0, 36.0), False),
])
def test_woods_towns_works_and_rising_ground_stop_a_ball(ground: Any, stopped: bool) -> None:
    state = _behind(10.0)
    found = penetration(field(ground), state, state.units["k-gun"], state.units["p-foot"], TABLES)
    assert (found == ()) is stopped


# --- firing over troops ----------------------------------------------------------------------

GUN_HILL = area("hill", 0.0, 0.0, 72.0, 11.5)
TARGET_HILL = area("hill", 0.0, 33.0, 72.0, 48.0)


def _over(friend_y: float, *hills: Any, kind: str = BALL, friend: str = "k-horse") -> list[str]:
    state = gun_and_target(23.0)  # target's front edge at 34, centre 34.75
    state = at(state, friend, 40.0, friend_y)
    return codes(artillery_problems(field(*hills), state, "k-gun", "p-foot", kind, TABLES))


def test_from_a_hill_at_a_hill_a_gun_fires_over_all_troops() -> None:
    assert _over(25.0, GUN_HILL, TARGET_HILL) == []
    assert _over(32.0, GUN_HILL, TARGET_HILL) == []  # close before the target, too


def test_from_a_hill_a_gun_fires_over_friends_12_inches_clear_of_the_target() -> None:
    assert _over(20.0, GUN_HILL) == []                       # the horse's far edge 13.4" from the target
    assert _over(28.0, GUN_HILL) == [FireCode.IN_THE_WAY]    # 5.4"


def test_at_a_hill_a_gun_fires_over_friends_on_its_level_12_inches_clear_of_it() -> None:
    assert _over(25.0, TARGET_HILL) == []                    # 13.4" from the gun
    assert _over(18.0, TARGET_HILL) == [FireCode.IN_THE_WAY]  # 6.4"
    knoll = area("hill", 30.0, 23.0, 50.0, 27.0)              # friends above the gun's level
    assert _over(25.0, TARGET_HILL, knoll) == [FireCode.IN_THE_WAY]


def test_on_level_ground_friends_in_the_line_stop_the_ball() -> None:
    assert _over(25.0) == [FireCode.IN_THE_WAY]


def test_enemies_in_the_line_stop_the_ball_from_a_hill() -> None:
    state = gun_and_target(23.0)
    state = with_parl_gun(state, 40.0, 20.0)
    assert codes(artillery_problems(field(GUN_HILL), state, "k-gun", "p-foot", BALL, TABLES)) == [
        FireCode.IN_THE_WAY]


def test_never_canister_over_friends() -> None:
    state = at(gun_and_target(10.0), "k-horse", 40.0, 15.0)
    problems = artillery_problems(field(GUN_HILL, area("hill", 0.0, 20.0, 72.0, 48.0)), state, "k-gun",
                                  "p-foot", CANISTER, TABLES)
    assert codes(problems) == [FireCode.IN_THE_WAY] and "canister" in problems[0].message
