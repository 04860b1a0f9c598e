"""Charge yr Pikes! close combat (section 12 E-K): each side's dice as one roll, total / 6
casualties, the winner and the loser's test, equal casualties and locked melees, casualties
shared out, commanded musketeers behind beaten horse, the horse's plunder test, bonus moves;
and the exact odds of a small melee against enumeration of every die."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import Dice
from tertia.core.events import DiceRolled
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.charge import BONUS, EQUAL, LOST, Charge
from tertia.rulesets.charge_yr_pikes.melee import (
    MeleeResult,
    bonus_moves,
    casualties_from,
    continued,
    resolve,
)
from tertia.rulesets.charge_yr_pikes.melee_dice import Fighter, fighters_of
from tertia.rulesets.charge_yr_pikes.tables import Tables, default_tables, tables_with
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import Morale, dice_left, officer, piece, state_of, table_with, tx_with

T = default_tables()
HORSE_ON_FOOT = (Fighter("h", ("f",), True), Fighter("f", ("h",), False))


def horse_on_foot(**foot: Any) -> GameState:
    return state_of(piece("h", "king", "horse", 20.0, 10.0),
                    piece("f", "parl", "foot", 20.0, 12.0, 180.0, **foot))


def rolls(tx: Tx) -> list[tuple[str, int]]:
    return [(e.die, e.value) for e in tx.events if isinstance(e, DiceRolled)]


def figures(tx: Tx, unit: str) -> tuple[int, int, int]:
    own = unit_data(tx.state.units[unit])
    return own.pike, own.shot, own.men


@pytest.mark.parametrize(("total", "down", "nearest", "up"), [
    (0, 0, 0, 0), (5, 0, 1, 1), (6, 1, 1, 1), (8, 1, 1, 2), (9, 1, 2, 2), (17, 2, 3, 3), (18, 3, 3, 3)])
def test_total_divided_by_6_rounded_as_the_tables_say(total: int, down: int, nearest: int, up: int) -> None:
    assert [casualties_from(total, r) for r in ("down", "nearest", "up")] == [down, nearest, up]


def test_the_side_that_inflicts_more_casualties_wins_and_the_loser_falls_back_if_it_passes() -> None:
    # Horse (5 stands: 5D6) charge foot (4 pike stands, 4 shot stands: 6D6). The horse roll
    # 18: 3 casualties; the foot 13: 2. The foot lose 1 pike and 2 shot, the horse 2 men; the
    # foot pass their test and fall back; the horse pass their plunder test (4).
    tx = tx_with(horse_on_foot(), 18, 13, 4)
    morale = Morale()
    result = resolve(tx, T, HORSE_ON_FOOT, morale)
    assert rolls(tx) == [("5d6", 18), ("6d6", 13), ("d6", 4)]
    assert (result.attackers.inflicted, result.defenders.inflicted) == (3, 2)
    assert dict(result.casualties) == {"f": 3, "h": 2}
    assert figures(tx, "f") == (15, 14, 0) and figures(tx, "h") == (0, 0, 13)
    assert morale.asked == [("f", LOST)]
    assert (result.winner, result.loser, result.fall_back, result.rout) == ("king", "parl", ("f",), ())
    assert (result.won, result.plunderers, result.locked) == (("h",), (), ())


def test_a_loser_that_fails_its_test_routs() -> None:
    tx = tx_with(horse_on_foot(), 18, 13, 4)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale({"f": [False]}))
    assert (result.fall_back, result.rout) == ((), ("f",))


@pytest.mark.parametrize(("face", "plunders"), [(3, True), (4, False)])
def test_winning_horse_test_obedience_at_once(face: int, plunders: bool) -> None:
    tx = tx_with(horse_on_foot(), 18, 13, face)
    assert (resolve(tx, T, HORSE_ON_FOOT, Morale()).plunderers == ("h",)) is plunders


def test_winning_foot_do_not_test_for_plunder() -> None:
    tx = tx_with(horse_on_foot(), 6, 18)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale())
    assert (result.winner, result.won, result.plunderers, dice_left(tx)) == ("parl", ("f",), (), 0)


def test_no_plunder_test_when_the_caller_turns_it_off() -> None:
    tx = tx_with(horse_on_foot(), 18, 13)
    assert resolve(tx, T, HORSE_ON_FOOT, Morale(), plunder=False).plunderers == ()


def test_equal_casualties_both_pass_and_are_locked() -> None:
    # 12 each: 2 casualties each. The horse (13 figures left) are the smaller force and
    # test first; both pass: locked, the melee goes on next turn.
    tx = tx_with(horse_on_foot(), 12, 12)
    morale = Morale()
    result = resolve(tx, T, HORSE_ON_FOOT, morale)
    assert morale.asked == [("h", EQUAL), ("f", EQUAL)]
    assert (result.winner, result.locked, result.fall_back, result.rout) == (None, ("h", "f"), (), ())
    assert continued(tx.state, result) == HORSE_ON_FOOT


def test_equal_casualties_the_smaller_force_failing_falls_back_and_the_larger_does_not_test() -> None:
    tx = tx_with(horse_on_foot(), 12, 12)
    morale = Morale({"h": [False]})
    result = resolve(tx, T, HORSE_ON_FOOT, morale)
    assert morale.asked == [("h", EQUAL)]
    assert (result.winner, result.fall_back, result.rout, result.won) == ("parl", ("h",), (), ("f",))


def test_equal_casualties_the_larger_force_failing_falls_back_and_the_smaller_wins() -> None:
    tx = tx_with(horse_on_foot(), 12, 12, 6)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale({"f": [False]}))
    assert (result.winner, result.fall_back, result.won) == ("king", ("f",), ("h",))


def test_equal_casualties_the_foot_smaller_test_first() -> None:
    tx = tx_with(horse_on_foot(shot=0, pike=8), 12, 12)  # 8 foot against 15 horse
    morale = Morale()
    resolve(tx, T, HORSE_ON_FOOT, morale)
    assert morale.asked == [("f", EQUAL), ("h", EQUAL)]


def test_equal_forces_the_attackers_test_first() -> None:
    state = state_of(piece("h", "king", "horse", 20.0, 10.0, moved=True),
                     piece("g", "parl", "horse", 20.0, 12.0, 180.0, moved=True))
    fighters = (Fighter("h", ("g",), True), Fighter("g", ("h",), False))
    morale = Morale()
    resolve(tx_with(state, 5, 5), T, fighters, morale)  # no casualties either side: equal
    assert morale.asked == [("h", EQUAL), ("g", EQUAL)]


def test_a_unit_attacked_in_flank_failing_at_equal_casualties_routs() -> None:
    fighters = (HORSE_ON_FOOT[0], Fighter("f", ("h",), False, flank_or_rear=True))
    tx = tx_with(horse_on_foot(), 12, 12, 4)  # the foot: 4 dice (6 - 2 flank)
    morale = Morale({"f": [False]})
    result = resolve(tx, T, fighters, morale)
    assert rolls(tx)[1] == ("4d6", 12)
    assert morale.asked == [("h", EQUAL), ("f", EQUAL)] and morale.calls[1].flank_or_rear
    assert (result.rout, result.fall_back, result.winner) == (("f",), (), "king")


def test_rounding_nearest_is_a_table_option() -> None:
    nearest = tables_with({"melee": {**T.melee.model_dump(), "casualties_rounding": "nearest"}})
    tx = tx_with(horse_on_foot(), 15, 14, 4)
    result = resolve(tx, nearest, HORSE_ON_FOOT, Morale())
    assert (result.attackers.inflicted, result.defenders.inflicted, result.winner) == (3, 2, "king")
    tx = tx_with(horse_on_foot(), 15, 14)
    assert resolve(tx, T, HORSE_ON_FOOT, Morale()).winner is None  # down: 2 and 2


def test_several_units_a_side_sum_their_dice_and_share_the_casualties() -> None:
    # Two horse (5 and 4 dice) charge one foot regiment (6 dice): 9D6 roll 30, 5 casualties
    # on the foot; 6D6 roll 20, 3 casualties shared, the horse with more dice first: 2 and 1.
    state = state_of(piece("h", "king", "horse", 20.0, 10.0), piece("i", "king", "horse", 27.0, 10.0, men=12),
                     piece("f", "parl", "foot", 22.0, 12.0, 180.0))
    fighters = (Fighter("h", ("f",), True), Fighter("i", ("f",), True), Fighter("f", ("h", "i"), False))
    tx = tx_with(state, 30, 20, 5, 5)
    result = resolve(tx, T, fighters, Morale())
    assert rolls(tx)[:2] == [("9d6", 30), ("6d6", 20)]
    assert dict(result.casualties) == {"f": 5, "h": 2, "i": 1}
    assert (result.winner, result.won) == ("king", ("h", "i"))


def test_casualties_a_unit_cannot_take_pass_to_the_others() -> None:
    state = state_of(piece("h", "king", "horse", 20.0, 10.0), piece("i", "king", "horse", 27.0, 10.0, men=1),
                     piece("f", "parl", "foot", 22.0, 12.0, 180.0))
    fighters = (Fighter("h", ("f",), True), Fighter("i", ("f",), True), Fighter("f", ("h", "i"), False))
    result = resolve(tx_with(state, 6, 30), T, fighters, Morale())  # 5 + 0 dice; 5 casualties to the horse
    assert dict(result.casualties) == {"f": 1, "h": 4, "i": 1}


def test_an_officer_in_the_front_rank_fights_and_may_fall() -> None:
    state = horse_on_foot().with_unit(officer("o", "king", "h", "army"))
    tx = tx_with(state, 30, 6, 10, 5)  # 7D6: 5 horse stands and the general's two dice
    resolve(tx, T, HORSE_ON_FOOT, Morale())
    assert rolls(tx) == [("7d6", 30), ("6d6", 6), ("d10", 10), ("d6", 5)]
    assert tx.state.units["o"].removed == "fallen"


def test_fatigue_is_forgotten_once_the_combat_is_fought() -> None:
    state = state_of(piece("h", "king", "horse", 20.0, 10.0, fatigued=6),
                     piece("f", "parl", "foot", 20.0, 12.0, 180.0))
    tx = tx_with(state, 12, 12)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale())
    assert result.attackers.units[0].stands == 3  # two stands' men fatigued
    assert unit_data(tx.state.units["h"]).fatigued == 0


def test_gunners_whose_supporters_lose_rout() -> None:
    a = piece("a", "king", "horse", 20.0, 10.0)
    state = state_of(a, piece("g", "parl", "artillery", 20.0, 12.0, 180.0),
                     piece("s", "parl", "foot", 24.5, 12.5, 180.0))
    fighters = fighters_of(table_with(), state, [Charge("a", "g", a.base)])
    tx = tx_with(state, 24, 6, 4)
    result = resolve(tx, T, fighters, Morale())
    assert dict(result.casualties) == {"s": 4, "a": 1}  # the battery takes none
    assert (result.fall_back, result.rout, result.winner) == (("s",), ("g",), "king")


def test_commanded_musketeers_fight_when_their_horse_is_beaten() -> None:
    # Special rules D. The king's horse (5D6, +1 against horse that stood still) beat the
    # parliament's horse (5D6), 18 to 6.
    # The musketeers intermingled with the beaten horse then fight the victors: 2D6
    # against the victors' 4 full stands and +1 for horse fighting foot without pikes.
    kh = piece("kh", "king", "horse", 20.0, 10.0, moved=True)
    ph = piece("ph", "parl", "horse", 20.0, 12.0, 180.0)
    m = piece("m", "parl", "musketeers", 27.0, 12.0, 180.0, attached_to="ph")
    fighters = (Fighter("kh", ("ph",), True), Fighter("ph", ("kh",), False))
    tx = tx_with(state_of(kh, ph, m), 18, 6, 12, 6, 5)
    result = resolve(tx, T, fighters, Morale())
    assert (result.winner, result.fall_back) == ("king", ("ph",))
    (then,) = result.then
    assert [(u.unit, u.stands, u.lines) for u in then.attackers.units] == [
        ("kh", 4, ((1, "horse fighting foot without pikes"),))]
    assert then.defenders.dice == 2 and then.defenders.units[0].unit == "m"
    assert (then.winner, then.fall_back, then.plunderers) == ("king", ("m",), ())
    assert rolls(tx) == [("6d6", 18), ("5d6", 6), ("5d6", 12), ("2d6", 6), ("d6", 5)]
    assert result.won == ("kh",)


def test_musketeers_stand_idle_when_their_horse_wins() -> None:
    kh = piece("kh", "king", "horse", 20.0, 10.0)
    ph = piece("ph", "parl", "horse", 20.0, 12.0, 180.0)
    m = piece("m", "parl", "musketeers", 27.0, 12.0, 180.0, attached_to="ph")
    fighters = (Fighter("kh", ("ph",), True), Fighter("ph", ("kh",), False))
    tx = tx_with(state_of(kh, ph, m), 6, 18, 5)
    result = resolve(tx, T, fighters, Morale())
    assert (result.winner, result.then, dice_left(tx)) == ("parl", (), 0)


# --- bonus moves ------------------------------------------------------------------------------------


def test_winners_of_combats_begun_this_turn_test_for_a_bonus_move() -> None:
    tx = tx_with(horse_on_foot(), 18, 13, 4)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale())
    morale = Morale()
    moves = bonus_moves(tx.state, [result], morale)
    assert morale.asked == [("h", BONUS)]
    assert [(b.unit, b.breakthrough) for b in moves] == [("h", True)]
    assert bonus_moves(tx.state, [result], Morale({"h": [False]})) == ()  # K: stands in place
    old = replace(result, began_this_turn=False)
    assert bonus_moves(tx.state, [old], Morale()) == ()


def test_plunderers_take_no_bonus_move_and_foot_have_no_breakthrough() -> None:
    tx = tx_with(horse_on_foot(), 18, 13, 2)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale())
    assert bonus_moves(tx.state, [result], Morale()) == ()
    tx = tx_with(horse_on_foot(), 6, 18)
    result = resolve(tx, T, HORSE_ON_FOOT, Morale())
    assert [(b.unit, b.breakthrough) for b in bonus_moves(tx.state, [result], Morale())] == [("f", False)]


# --- exact odds ------------------------------------------------------------------------------------


def small_melee() -> tuple[GameState, tuple[Fighter, ...]]:
    """Horse of two stands (2D6, +1 against foot without pikes in the open) against two
    stands of musketeers (1D6 for the pair): four dice."""
    state = state_of(piece("h", "king", "horse", 20.0, 10.0, men=6),
                     piece("m", "parl", "musketeers", 20.0, 12.0, 180.0, shot=8))
    return state, (Fighter("h", ("m",), True), Fighter("m", ("h",), False))


def outcome(result: MeleeResult) -> tuple[int, int, str | None]:
    return result.attackers.inflicted, result.defenders.inflicted, result.winner


def exact(tables: Tables) -> dict[tuple[int, int, str | None], Fraction]:
    state, fighters = small_melee()

    def run(dice: Dice) -> tuple[int, int, str | None]:
        return outcome(resolve(Tx(table_with(), state, dice), tables, fighters, Morale(), plunder=False))

    odds: dict[tuple[int, int, str | None], Fraction] = {}
    for branch in enumerate_branches(run):
        odds[branch.result] = odds.get(branch.result, Fraction(0)) + branch.probability
    return odds


def brute_force(rounding: str) -> dict[tuple[int, int, str | None], Fraction]:
    """Every face of every one of the four dice, one by one."""
    count: Counter[tuple[int, int, str | None]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=4):
        mine, theirs = casualties_from(sum(faces[:3]), rounding), casualties_from(faces[3], rounding)
        # Equal casualties: the horse (fewer figures) test first; the morale step passes all.
        winner = "king" if mine > theirs else "parl" if theirs > mine else None
        count[(mine, theirs, winner)] += 1
    return {k: Fraction(n, 6**4) for k, n in count.items()}


@pytest.mark.parametrize("rounding", ["down", "nearest", "up"])
def test_the_exact_odds_of_a_small_melee_match_every_die_enumerated(rounding: str) -> None:
    tables = tables_with({"melee": {**T.melee.model_dump(), "casualties_rounding": rounding}})
    assert exact(tables) == brute_force(rounding)


def test_each_sides_dice_are_one_chance_node() -> None:
    state, fighters = small_melee()
    tx = tx_with(state, 3, 1)
    resolve(tx, T, fighters, Morale(), plunder=False)
    assert rolls(tx) == [("3d6", 3), ("1d6", 1)]
    # No casualties either side: the horse's three dice under 6 (10 of 216 throws) and the
    # musketeers' die under 6 (5 of 6).
    assert exact(T)[(0, 0, None)] == Fraction(10, 216) * Fraction(5, 6)
