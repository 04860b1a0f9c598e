"""Declare Thee Sir, Melee (Game Mechanics 5): the test to close, the fight, its
modifiers, push-backs through friends, routs, the capture option, and exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import Dice
from tertia.core.events import DiceRolled, UnitMoved, UnitRemoved, UnitTurned
from tertia.core.geometry import polygons_overlap
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rules.morale import MoraleDetermined, MoraleLost
from tertia.rulesets.declare_thee_sir.capture import Captured
from tertia.rulesets.declare_thee_sir.chart import HOLD, PB1D6, PB2D6, ROUT, ROUT_STAR
from tertia.rulesets.declare_thee_sir.melee import close_test, fight
from tertia.rulesets.declare_thee_sir.modifiers import attacked_face, melee_modifiers
from tertia.rulesets.declare_thee_sir.points import morale_check
from tertia.rulesets.declare_thee_sir.pushback import push_back

from .dts_combat_support import A, B, dice_left, dts, points, state_of, table_with, tx_with, wall


def contact(attacker_morale: int | None = 3, target_morale: int | None = 2, *,
            attacker: dict[str, object] | None = None, target: dict[str, object] | None = None,
            target_at: tuple[float, float, float] = (24, 11, 180)) -> GameState:
    """An attacking regiment facing north at (24, 10), in contact with a target facing it."""
    x, y, facing = target_at
    return state_of(dts("a", A, 24, 10, 0, morale=attacker_morale, **(attacker or {})),  # type: ignore[arg-type]
                    dts("t", B, x, y, facing, morale=target_morale, **(target or {})))  # type: ignore[arg-type]


def modifiers_of(state: GameState, table: object = None) -> tuple[tuple[int, str], ...]:
    return melee_modifiers(table or table_with(), state, state.units["a"], state.units["t"])  # type: ignore[arg-type]


# --- to close (5a) -------------------------------------------------------------------------


@pytest.mark.parametrize(("morale", "fails", "closes"),
                         [(4, 1, 2), (3, 1, 2), (2, 2, 3), (1, 2, 3), (0, 4, 5)])
def test_closing_needs_2_3_or_5_by_morale(morale: int, fails: int, closes: int) -> None:
    """5a: "roll 1D6 and compare to attacking unit's morale (excellent = 2+, good = 3+,
    poor = 5+)"."""
    state = contact(attacker_morale=morale)
    assert not close_test(tx_with(state, fails), "a").passed
    test = close_test(tx_with(state, closes), "a")
    assert test.passed and test.need == closes


def test_an_untested_attacker_rolls_its_morale_before_closing() -> None:
    tx = tx_with(contact(attacker_morale=None), 1, 2)
    test = close_test(tx, "a")
    assert [e.purpose for e in tx.events if isinstance(e, DiceRolled)] == ["morale points: a", "close: a"]
    assert MoraleDetermined(unit="a", points=1, cause="melee") in tx.events
    assert (test.level, test.need, test.passed) == ("good", 3, False)


# --- the fight (5b, 5d) ----------------------------------------------------------------------


def test_an_unmodified_7_costs_the_target_a_point_and_pb1d6_pushes_it_back() -> None:
    tx = tx_with(contact(), 3, 4, 5)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.target_points_lost, fought.attacker_points_lost) == (PB1D6, 1, 0)
    assert (fought.push_roll, fought.pushed_back, fought.target_routed) == (5, 5.0, False)
    t = tx.state.units["t"]
    assert (t.x, t.y, t.facing, points(tx, "t")) == (24, 16, 180, 1)


def test_a_7_made_by_modifiers_costs_the_target_nothing() -> None:
    """5b: "unmodified 7": a 5 with +2 for a flank attack is read as 7 (PB1D6), no point."""
    state = contact(target_at=(28.5, 10, 0))
    assert attacked_face(state.units["a"], state.units["t"]).value == "left"
    tx = tx_with(state, 2, 3, 1)
    fought = fight(tx, "a", "t")
    assert (fought.modified_sum, fought.result, fought.target_points_lost) == (7, PB1D6, 0)


@pytest.mark.parametrize(("dice", "at", "cover", "modified", "result", "target_lost", "attacker_lost"), [
    ((3, 4), (28.5, 10, 0), False, 9, PB2D6, 1, 0),    # an unmodified 7, +2 for the flank: still a point
    ((2, 3), (28.5, 10, 0), False, 7, PB1D6, 0, 0),    # a 7 only once modified: none
    ((3, 5), (24, 11.5, 180), True, 6, HOLD, 0, 1),    # 8, -2 behind hard cover: a modified HOLD
    ((2, 3), (24, 11, 0), False, 9, PB2D6, 0, 0),      # a 5 (HOLD unmodified), +4 in the rear: none
    ((3, 5), (24, 11, 0), False, 12, ROUT_STAR, 1, 0),  # 8, +4 in the rear: a modified ROUT
])
def test_the_7_is_read_unmodified_and_the_rout_and_hold_modified(
        dice: tuple[int, int], at: tuple[float, float, float], cover: bool, modified: int, result: str,
        target_lost: int, attacker_lost: int) -> None:
    """5b: "Target loses 1 morale point each for unmodified 7 and/or modified ROUT result
    ... Attacker loses one morale point each for doubles and/or modified HOLD results": a
    good target (2 points), an excellent attacker (3); each modifier moves the sum across
    one of the lines and the points follow the text's reading of each."""
    table = table_with(wall(10, 10.75, 38, 10.75)) if cover else table_with()
    tx = tx_with(contact(target_at=at), *dice, 2, table=table)  # a push of 2 where one is due
    fought = fight(tx, "a", "t")
    assert (fought.modified_sum, fought.result) == (modified, result)
    assert (fought.target_points_lost, fought.attacker_points_lost) == (target_lost, attacker_lost)


def test_a_modified_rout_costs_a_point_and_breaks_the_target() -> None:
    tx = tx_with(contact(), 6, 5)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.target_points_lost, fought.target_routed) == (ROUT, 1, True)
    assert fought.push is None and fought.routed == ("t",) and dice_left(tx) == 0
    assert not any(isinstance(e, UnitMoved) for e in tx.events), "rout movement is not resolved here"


def test_a_rout_breaks_the_target_whatever_its_morale() -> None:
    """An excellent target of 4 points, routed on 12+ (+2 for a general with the attacker)
    with points to spare; the attacker's doubles cost it a point."""
    state = contact(target_morale=4).with_unit(dts("gen", A, 24, 8.5, 0, troop="general", attached_to="a"))
    tx = tx_with(state, 5, 5)
    fought = fight(tx, "a", "t")
    assert (fought.modified_sum, fought.result, fought.target_routed) == (12, ROUT_STAR, True)
    assert (points(tx, "t"), fought.attacker_points_lost, points(tx, "a")) == (3, 1, 2)


def test_an_excellent_target_holds_11_and_is_pushed_2d6() -> None:
    tx = tx_with(contact(target_morale=3), 6, 5, 9)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.target_routed, fought.push_roll) == (PB2D6, False, 9)
    assert [e.die for e in tx.events if isinstance(e, DiceRolled)][-1] == "2d6"
    assert tx.state.units["t"].y == 20


def test_doubles_cost_the_attacker_a_point() -> None:
    tx = tx_with(contact(), 4, 4, 2)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.attacker_points_lost, fought.target_points_lost) == (PB1D6, 1, 0)
    assert points(tx, "a") == 2


def test_a_modified_hold_costs_the_attacker_a_point_and_doubles_another() -> None:
    tx = tx_with(contact(), 2, 3)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.attacker_points_lost, fought.push) == (HOLD, 1, None)
    tx = tx_with(contact(), 2, 2)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.attacker_points_lost, points(tx, "a")) == (HOLD, 2, 1)
    assert MoraleLost(unit="a", points=2, cause="melee") in tx.events


def test_an_attacker_at_poor_that_loses_a_point_routs() -> None:
    tx = tx_with(contact(attacker_morale=0), 2, 3)
    fought = fight(tx, "a", "t")
    assert (fought.attacker_routed, fought.target_routed, fought.routed) == (True, False, ("a",))
    tx = tx_with(contact(attacker_morale=1), 2, 3)
    assert not fight(tx, "a", "t").attacker_routed, "at 1 point it falls to poor, no further"


def test_a_target_at_poor_that_loses_a_point_routs_and_is_not_pushed() -> None:
    """Morale: "A unit with poor morale that loses another point to melee ... routs": a 7
    against a poor target (PB2D6 on the chart) breaks it instead of pushing it."""
    tx = tx_with(contact(target_morale=0), 3, 4)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.target_routed, fought.push) == (PB2D6, True, None)
    assert dice_left(tx) == 0


def test_a_target_at_poor_that_loses_nothing_is_pushed() -> None:
    tx = tx_with(contact(target_morale=0), 2, 3, 3)
    fought = fight(tx, "a", "t")
    assert (fought.result, fought.target_routed, fought.pushed_back) == (PB1D6, False, 3.0)


def test_the_chart_is_read_for_the_targets_morale_before_the_fight() -> None:
    """A 7 takes a good target's last point; its chart column is still good (PB1D6, where
    poor would read PB2D6)."""
    tx = tx_with(contact(target_morale=1), 3, 4, 2)
    fought = fight(tx, "a", "t")
    assert (fought.result, points(tx, "t"), fought.push_roll) == (PB1D6, 0, 2)


def test_untested_units_roll_their_morale_when_they_melee() -> None:
    """Attacker first, then the target, then the fight's dice."""
    tx = tx_with(contact(attacker_morale=None, target_morale=None), 6, 1, 2, 3)
    fight(tx, "a", "t")
    assert [e.purpose for e in tx.events if isinstance(e, DiceRolled)] == [
        "morale points: a", "morale points: t", "melee: a against t (first die)",
        "melee: a against t (second die)"]
    determined = [e for e in tx.events if isinstance(e, MoraleDetermined)]
    assert determined == [MoraleDetermined(unit="a", points=4, cause="melee"),
                          MoraleDetermined(unit="t", points=1, cause="melee")]


def test_a_target_attacked_in_the_flank_is_pushed_away_and_turns_to_face_its_foe() -> None:
    """5d: "pushed back that many inches in good order facing the foe"."""
    state = contact(target_at=(28.5, 10, 0))
    tx = tx_with(state, 3, 5, 4)
    fought = fight(tx, "a", "t")
    assert fought.result == PB2D6 and fought.push_roll == 4
    t = tx.state.units["t"]
    assert (round(t.x, 6), round(t.y, 6), t.facing) == (32.5, 10, 270)


def test_a_target_pushed_nowhere_still_turns_to_face_its_foe() -> None:
    """Attacked in the rear (3 + 4 = 7, PB1D6) with an enemy at its front: it about-faces
    where it stands."""
    state = contact(target_at=(24, 11, 0)).with_unit(dts("pikes", A, 24, 12, 0, morale=2))
    tx = tx_with(state, 1, 2, 4)
    fought = fight(tx, "a", "t")
    assert fought.result == PB1D6 and fought.pushed_back == 0.0
    assert fought.push is not None and fought.push.slide.stopped_by == "pikes"
    assert UnitTurned(unit="t", facing=180.0, reason="pushed back in melee") in tx.events
    assert tx.state.units["t"].facing == 180.0


def test_a_push_back_through_a_friend_checks_the_friend_and_the_unit() -> None:
    """Movement: a morale check "(one musketry roll)" on each unit involved: the friend at
    poor routs on a 7 at any point; the pushed unit, good, loses a point to doubles and
    stays."""
    state = contact().with_unit(dts("friend", B, 24, 13, 180, morale=0))
    tx = tx_with(state, 3, 5, 2, 1, 6, 2, 2)
    fought = fight(tx, "a", "t")
    assert fought.push is not None and fought.push.slide.passed_through == ("friend",)
    assert (fought.push_roll, fought.pushed_back) == (2, 3.0), "on until clear of the friend"
    assert [(c.unit, c.dice, c.points_lost, c.routed) for c in fought.push.checks] == [
        ("friend", (1, 6), 0, True), ("t", (2, 2), 1, False)]
    assert fought.routed == ("friend",)


def test_no_check_when_no_friend_is_passed() -> None:
    tx = tx_with(contact(), 3, 5, 3)
    fought = fight(tx, "a", "t")
    assert fought.push is not None and fought.push.checks == () and dice_left(tx) == 0


def test_an_enemy_stops_a_push_back() -> None:
    state = contact().with_unit(dts("foe", A, 24, 14, 180, morale=2))
    tx = tx_with(state, 3, 5, 6)
    fought = fight(tx, "a", "t")
    assert fought.push is not None and fought.push.slide.stopped_by == "foe"
    assert fought.pushed_back == pytest.approx(2.0)


# --- the morale check ----------------------------------------------------------------------


@pytest.mark.parametrize(("morale", "dice", "lost", "left", "routed"), [
    (2, (1, 2), 0, 2, False),    # 3: HOLD, nothing
    (2, (3, 4), 1, 1, False),    # a 7: a point
    (2, (5, 6), 1, 1, False),    # 11: ROUT for good
    (2, (6, 6), 2, 0, False),    # doubles, then 12 at 1 point: ROUT*
    (0, (1, 2), 0, 0, False),    # poor, nothing lost
    (0, (2, 2), 0, 0, True),     # poor, loses another: routs
    (1, (5, 5), 1, 0, True),     # doubles to poor, then 10 is a ROUT at poor: routs
])
def test_a_morale_check_is_one_musketry_roll(morale: int, dice: tuple[int, int], lost: int, left: int,
                                             routed: bool) -> None:
    tx = tx_with(state_of(dts("u", A, 10, 10, morale=morale)), *dice)
    check = morale_check(tx, "u", "passed through")
    assert (check.points_lost, points(tx, "u"), check.routed) == (lost, left, routed)


@pytest.mark.parametrize(("reading", "routed"), [("after", True), ("before", False)])
def test_a_morale_check_reads_the_chart_as_fire_does(reading: str, routed: bool) -> None:
    """"one musketry roll": double fives take a good unit's last point; read at poor (option
    ``fire_chart`` ``after``) 10 is a ROUT, another point it has not got, and it routs;
    read at good (``before``) 10 is PB2D6, and it stands at poor."""
    state = state_of(dts("u", A, 10, 10, morale=1), fire_chart=reading)
    check = morale_check(tx_with(state, 5, 5), "u", "passed through")
    assert (check.result, check.routed) == ((ROUT, True) if routed else (PB2D6, False))


def test_an_untested_unit_is_tested_before_its_check() -> None:
    tx = tx_with(state_of(dts("u", A, 10, 10)), 1, 3, 4)
    check = morale_check(tx, "u", "passed through")
    assert MoraleDetermined(unit="u", points=1, cause="passed through") in tx.events
    assert (check.points_lost, check.routed) == (1, False)


# --- modifiers (5c) ----------------------------------------------------------------------------


def test_no_modifiers_head_on_in_the_open() -> None:
    assert modifiers_of(contact()) == ()


def test_target_in_long_march_or_attacked_in_the_rear_plus_4_once() -> None:
    assert modifiers_of(contact(target={"formation": "long_march", "stands": 3})) == (
        (4, "target in long march"),)
    rear = contact(target_at=(24, 11, 0))
    assert attacked_face(rear.units["a"], rear.units["t"]).value == "rear"
    assert modifiers_of(rear) == ((4, "attacked in the rear"),)
    both = contact(target={"formation": "long_march"}, target_at=(24, 12.5, 0))
    assert modifiers_of(both) == ((4, "target in long march and attacked in the rear"),)


def test_general_caracole_forlorn_hope_or_flank_plus_2_once() -> None:
    general = dts("gen", A, 24, 8.5, 0, troop="general", attached_to="a")
    assert modifiers_of(contact().with_unit(general)) == ((2, "general attached to the attacker"),)
    assert modifiers_of(contact(target={"formation": "caracole", "troop": "horse"})) == (
        (2, "target in caracole"),)
    assert modifiers_of(contact(target={"formation": "forlorn_hope", "stands": 1})) == (
        (2, "target in forlorn hope"),)
    flank = contact(target_at=(28.5, 10, 180))
    assert attacked_face(flank.units["a"], flank.units["t"]).value == "right"
    assert modifiers_of(flank) == ((2, "flank attack"),)
    assert modifiers_of(flank.with_unit(general)) == (
        (2, "general attached to the attacker and flank attack"),)


def test_a_general_attached_elsewhere_adds_nothing() -> None:
    other = dts("gen", A, 10, 8.5, 0, troop="general", attached_to="someone-else")
    assert modifiers_of(contact().with_unit(other)) == ()


def test_hard_cover_forlorn_hope_attacker_or_cavalry_at_hedgehog_minus_2_once() -> None:
    table = table_with(wall(10, 10.75, 38, 10.75))
    state = contact(target_at=(24, 11.5, 180))
    assert modifiers_of(state, table) == ((-2, "target behind hard cover"),)
    assert modifiers_of(state, table_with(wall(10, 8, 38, 8))) == (), "a wall behind the attacker"
    assert modifiers_of(contact(attacker={"formation": "forlorn_hope", "stands": 1})) == (
        (-2, "attacker in forlorn hope"),)
    horse = contact(attacker={"troop": "horse"}, target={"formation": "hedgehog"})
    assert modifiers_of(horse) == ((-2, "cavalry attacking a hedgehog"),)
    dragoons = contact(attacker={"troop": "dragoons", "mounted": True}, target={"formation": "hedgehog"})
    assert modifiers_of(dragoons) == ((-2, "cavalry attacking a hedgehog"),)
    assert modifiers_of(contact(target={"formation": "hedgehog"})) == (), "foot at a hedgehog: nothing"
    both = contact(attacker={"formation": "forlorn_hope", "stands": 1}, target_at=(24, 11.5, 180))
    assert modifiers_of(both, table) == ((-2, "target behind hard cover and attacker in forlorn hope"),)


def test_a_hedgehog_has_no_flank_or_rear() -> None:
    rear = contact(target={"formation": "hedgehog"}, target_at=(24, 11.5, 0))
    assert attacked_face(rear.units["a"], rear.units["t"]).value == "front"
    assert modifiers_of(rear) == ()


def test_the_three_lines_add() -> None:
    table = table_with(wall(10, 10.75, 38, 10.75))
    general = dts("gen", A, 24, 8.5, 0, troop="general", attached_to="a")
    state = contact(target={"formation": "long_march"}, target_at=(24, 12, 180)).with_unit(general)
    assert [v for v, _ in modifiers_of(state, table)] == [4, 2, -2]
    tx = tx_with(state, 1, 2, 1, table=table)
    assert fight(tx, "a", "t").modified_sum == 7


def test_a_modifier_changes_the_fights_result() -> None:
    """8 is PB1D6 against a good target; +4 makes it 12, ROUT*."""
    tx = tx_with(contact(target_at=(24, 11, 0)), 3, 5)
    fought = fight(tx, "a", "t")
    assert (fought.modified_sum, fought.result, fought.target_routed) == (12, ROUT_STAR, True)


# --- capture (Optional Rules c) --------------------------------------------------------------


def test_no_capture_without_the_option() -> None:
    tx = tx_with(contact(), 6, 6)
    fought = fight(tx, "a", "t")
    assert fought.capture is None and dice_left(tx) == 0


def test_no_capture_below_12() -> None:
    tx = tx_with(contact(), 6, 5)
    assert fight(tx, "a", "t", capture=True).capture is None and dice_left(tx) == 0


def test_a_capture_of_the_flag_gains_the_attacker_a_point() -> None:
    """Double sixes: the attacker loses a point to the doubles (3 to 2) and the target
    one to the ROUT* (2 to 1). The attacker's 9 beats the target's 6 + 1 point."""
    tx = tx_with(contact(), 6, 6, 9, 6)
    fought = fight(tx, "a", "t", capture=True)
    assert fought.capture is not None and fought.capture.prize == "flag"
    assert fought.capture.target_adds == 1
    assert Captured(unit="a", target="t", prize="flag") in tx.events
    assert points(tx, "a") == 3


@pytest.mark.parametrize(("dice", "at", "tries"), [
    ((5, 5), (28.5, 10, 0), True),   # 10, +2 for the flank: a modified 12
    ((6, 5), (24, 11, 180), False),  # 11, head on: not 12
])
def test_the_capture_is_tried_on_a_modified_12(dice: tuple[int, int], at: tuple[float, float, float],
                                               tries: bool) -> None:
    """Optional Rules c: "On a modified melee attack sum of 12 +": double fives and a flank
    attack make 12, and a capture is tried; an unmodified 11, no."""
    tx = tx_with(contact(target_at=at), *dice, 7, 2, 2)  # the capture's 2D6 each, a push of 2
    fought = fight(tx, "a", "t", capture=True)
    assert (fought.capture is not None) is tries


def test_a_tie_is_no_capture() -> None:
    tx = tx_with(contact(), 6, 6, 7, 6)
    fought = fight(tx, "a", "t", capture=True)
    assert fought.capture is not None and not fought.capture.captured
    assert not any(isinstance(e, Captured) for e in tx.events) and points(tx, "a") == 2


def test_an_attached_general_adds_1_and_is_the_prize() -> None:
    general = dts("gen", B, 24, 12.5, 180, troop="general", attached_to="t")
    state = contact(target_at=(24, 11, 0)).with_unit(general)  # attacked in the rear: 8 + 4
    tx = tx_with(state, 3, 5, 8, 6)
    fought = fight(tx, "a", "t", capture=True)
    assert fought.capture is not None and fought.capture.target_adds == 2
    assert not fought.capture.captured, "8 against 6 + 1 point + 1 for the general"
    tx = tx_with(state, 3, 5, 9, 6)
    fought = fight(tx, "a", "t", capture=True)
    assert fought.capture is not None and fought.capture.prize == "gen"
    assert UnitRemoved(unit="gen", reason="captured", detail="taken with t by a") in tx.events
    assert points(tx, "a") == 4


def test_a_capture_never_lifts_a_unit_above_4() -> None:
    state = contact(attacker_morale=4, target_at=(24, 11, 0))
    tx = tx_with(state, 3, 5, 12, 2)
    fight(tx, "a", "t", capture=True)
    assert points(tx, "a") == 4


# --- exact odds ------------------------------------------------------------------------------


def routs(state: GameState, dice: Dice) -> bool:
    return fight(Tx(table_with(), state, dice), "a", "t").target_routed


def chance_of_rout(state: GameState) -> Fraction:
    return sum((b.probability for b in enumerate_branches(lambda d: routs(state, d)) if b.result),
               Fraction(0))


def test_the_exact_odds_of_routing_a_target() -> None:
    """No modifiers. A good target routs only on a ROUT, 11 or 12: 2 + 1 = 3 of 36 throws
    (a 7 takes one of its 2 points, no more). A poor target routs on 9 to 12 (4 + 3 + 2 +
    1 = 10 throws) and on any 7 (6 more), which costs a point it has not got: 16/36 = 4/9.
    An excellent one routs only on 12: 1/36."""
    assert chance_of_rout(contact(target_morale=2)) == Fraction(3, 36)
    assert chance_of_rout(contact(target_morale=0)) == Fraction(4, 9)
    assert chance_of_rout(contact(target_morale=3)) == Fraction(1, 36)


def test_the_exact_odds_of_a_morale_check_costing_a_point() -> None:
    """A good unit (2 points): doubles or a 7, 12 of 36, or 11 (5-6, 6-5), 2 more: 7/18."""
    def run(dice: Dice) -> bool:
        tx = Tx(table_with(), state_of(dts("u", A, 10, 10, morale=2)), dice)
        return morale_check(tx, "u", "test").points_lost > 0

    assert sum((b.probability for b in enumerate_branches(run) if b.result), Fraction(0)) == Fraction(7, 18)


@pytest.mark.parametrize(("beside_x", "turns"), [(17.9, False), (16.0, True)])
def test_a_unit_that_cannot_turn_to_face_the_foe_without_standing_over_a_friend_keeps_its_facing(
        beside_x: float, turns: bool) -> None:
    """Melee: "pushed back ... in good order facing the foe". The regiment faces east with a
    friend at its north-west; its foe attacks from the north-east. Turned about its centre
    to face the foe, it would stand over the friend close beside it: it keeps its facing
    (going back through the friend, who checks, and then it). With the friend further off,
    it turns."""
    pushed = dts("t", A, 20.0, 10.0, 90.0, morale=3)
    foe = dts("a", B, 24.0, 13.0, 233.0, morale=3)
    friend = dts("n", A, beside_x, 12.6, 90.0, morale=3)
    tx = tx_with(state_of(pushed, foe, friend), *([] if turns else [1, 2, 1, 2]))
    push_back(tx, "t", "a", 2.0, face_foe=True, reason="pushed back in melee")
    t = tx.state.units["t"]
    assert (t.facing != 90.0) is turns and dice_left(tx) == 0
    assert not polygons_overlap(t.base.corners(), tx.state.units["n"].base.corners())
