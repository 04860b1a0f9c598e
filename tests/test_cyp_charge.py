"""Charge yr Pikes! going into close combat: flank and rear by the tangent line (13 A, B),
the tests to close and to stand (12 B, C), gunners who will not stand (section 10), the
caracole (Special rules C) and charge fatigue (Special rules B)."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.dice import SeededDice
from tertia.core.events import DiceRolled, UnitTurned
from tertia.core.geometry import Base
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.charge import (
    CLOSE,
    CLOSED_ON,
    Charge,
    ChargeLapsed,
    attacks_with_pistols,
    charge_fatigue,
    close_in,
)
from tertia.rulesets.charge_yr_pikes.facing import (
    is_behind_front,
    is_flank_or_rear,
    may_turn_to_meet,
    meeting_facing,
    turn_to_meet,
)
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.phases import after_fire, fight
from tertia.rulesets.charge_yr_pikes.ruleset import tables_of
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_dice_support import ByPurpose
from .cyp_melee_support import Morale, dice_left, officer, piece, state_of, table_with, tx_with
from .test_cyp_reaction import _charged

T = default_tables()
DEFENDER = Base(0.0, 0.0, 0.0, 4.0, 2.0)
"""Faces north; its front edge lies on y = 1."""


@pytest.mark.parametrize(("start", "behind"), [
    (Base(6.0, -0.5, 270.0, 2.0, 1.0), True),    # on its flank, facing it
    (Base(0.0, -5.0, 0.0, 4.0, 2.0), True),      # in its rear
    (Base(6.0, 0.0, 270.0, 2.0, 1.0), True),     # a corner on the line is not beyond it
    (Base(6.0, 0.1, 270.0, 2.0, 1.0), False),    # a corner beyond the line
    (Base(30.0, 1.2, 270.0, 2.0, 1.0), False),   # far out on the flank but just in front
    (Base(0.0, 6.0, 180.0, 4.0, 2.0), False),    # in front
])
def test_the_tangent_line_along_the_front_divides_front_from_flank_and_rear(start: Base,
                                                                           behind: bool) -> None:
    assert is_behind_front(start, DEFENDER) is behind
    assert is_flank_or_rear(start, DEFENDER) is behind


def test_the_line_turns_with_the_defender() -> None:
    east = Base(0.0, 0.0, 90.0, 4.0, 2.0)  # front edge on x = 1
    assert is_flank_or_rear(Base(0.0, 6.0, 180.0, 2.0, 1.0), east)
    assert not is_flank_or_rear(Base(6.0, 0.0, 270.0, 2.0, 1.0), east)


def test_a_square_has_no_flank_or_rear() -> None:
    assert not is_flank_or_rear(Base(0.0, -5.0, 0.0, 4.0, 2.0), DEFENDER, all_round=True)


def test_a_unit_turns_to_meet_the_attack_front_to_front() -> None:
    d = piece("d", "parl", "foot", 20.0, 20.0, 180.0)
    a = piece("a", "king", "horse", 26.0, 20.0, 270.0)
    tx = tx_with(state_of(d, a))
    assert may_turn_to_meet(tx, "d")
    turn_to_meet(tx, "d", "a")
    assert tx.state.units["d"].facing == meeting_facing(a.base) == 90.0
    assert isinstance(tx.events[-1], UnitTurned)
    assert not is_flank_or_rear(Base(40.0, 20.0, 270.0, 6.25, 1.25), tx.state.units["d"].base)


@pytest.mark.parametrize(("own", "may"), [({"moved": True}, False), ({"formation": "square"}, False),
                                          ({}, True)])
def test_only_a_unit_that_has_not_moved_may_turn_to_meet(own: dict[str, Any], may: bool) -> None:
    tx = tx_with(state_of(piece("d", "parl", "foot", 20.0, 20.0, **own)))
    assert may_turn_to_meet(tx, "d") is may


# --- 12 B, C ----------------------------------------------------------------------------------------


def front_charge() -> tuple[Charge, list[object]]:
    a = piece("a", "king", "horse", 20.0, 10.0)
    d = piece("d", "parl", "foot", 20.0, 12.0, 180.0)
    return Charge("a", "d", a.base.moved_to(20.0, 2.0)), [a, d]


def test_an_attacker_that_fails_to_close_stays_short_and_no_one_else_tests() -> None:
    c, units = front_charge()
    morale = Morale({"a": [False]})
    closing = close_in(tx_with(state_of(*units)), [c], morale)  # type: ignore[arg-type]
    assert (closing.charges, closing.stopped, morale.asked) == ((), ("a",), [("a", CLOSE)])


def test_an_attacker_that_closes_makes_the_defender_test() -> None:
    c, units = front_charge()
    morale = Morale()
    closing = close_in(tx_with(state_of(*units)), [c], morale)  # type: ignore[arg-type]
    assert (closing.charges, closing.stopped, closing.failed) == ((c,), (), ())
    assert morale.asked == [("a", CLOSE), ("d", CLOSED_ON)]


def test_a_defender_that_fails_leaves_no_melee() -> None:
    c, units = front_charge()
    closing = close_in(tx_with(state_of(*units)), [c], Morale({"d": [False]}))  # type: ignore[arg-type]
    assert (closing.charges, closing.failed, closing.rout) == ((), ("d",), ())


def test_a_charge_on_the_flank_needs_no_test_to_close_and_a_failing_defender_routs() -> None:
    a = piece("a", "king", "horse", 20.0, 10.0)
    d = piece("d", "parl", "foot", 20.0, 12.0, 0.0)  # faces away: the charge comes from its rear
    c = Charge("a", "d", a.base.moved_to(20.0, 2.0))
    morale = Morale({"d": [False]})
    closing = close_in(tx_with(state_of(a, d)), [c], morale)
    assert morale.calls[0].flank_or_rear and morale.asked == [("d", CLOSED_ON)]
    assert (closing.failed, closing.rout) == ((), ("d",))


@pytest.mark.parametrize(("seed", "fought", "routs", "falls_back"), [
    (2, False, "d", None),   # the defender fails its test to stand: it routs, no melee
    (1, True, None, "a"),    # it stands and wins: the attacker falls back
    (11, True, None, "d"),   # it stands and loses: it falls back
])
def test_a_combat_routs_a_defender_that_will_not_stand_and_carries_out_its_melee(
        seed: int, fought: bool, routs: str | None, falls_back: str | None) -> None:
    # 12 C, H through the phase: the tests taken, the melee fought and its result carried out.
    a = piece("a", "king", "foot", 20.0, 10.0)
    d = piece("d", "parl", "foot", 20.0, 12.0, 0.0)  # faces away: the charge comes from its rear
    tx = Tx(table_with(), state_of(a, d), SeededDice(seed))
    result = fight(tx, default_tables(), [Charge("a", "d", a.base.moved_to(20.0, 2.0))], {})
    assert (result is not None) is fought
    assert [u for u in ("a", "d") if unit_data(tx.state.units[u]).routed] == ([routs] if routs else [])
    assert [u for u in ("a", "d") if unit_data(tx.state.units[u]).falling_back] == \
        ([falls_back] if falls_back else [])


def test_a_routed_defender_routs_again_without_a_test() -> None:
    a = piece("a", "king", "horse", 20.0, 10.0)
    d = piece("d", "parl", "foot", 20.0, 12.0, 180.0, formation="routed")
    morale = Morale()
    closing = close_in(tx_with(state_of(a, d)), [Charge("a", "d", a.base)], morale)
    assert (closing.rout, closing.charges, morale.asked) == (("d",), (), [("a", CLOSE)])


@pytest.mark.parametrize(("support_x", "stands"), [(24.5, True), (30.0, False)])
def test_gunners_rout_unless_a_friend_within_4_inches_fights_for_them(support_x: float, stands: bool) -> None:
    # Section 10: "If enemy units close on them and no friendly support unit is within 4 inches
    # to fight for them, they will rout."
    a = piece("a", "king", "horse", 20.0, 10.0)
    gun = piece("g", "parl", "artillery", 20.0, 12.0, 180.0)
    friend = piece("s", "parl", "foot", support_x, 12.5, 180.0)
    morale = Morale()
    closing = close_in(tx_with(state_of(a, gun, friend)), [Charge("a", "g", a.base)], morale)
    assert morale.asked == [("a", CLOSE)]  # gunners never test
    assert (closing.rout == ("g",)) is not stands and bool(closing.charges) is stands


def test_a_routed_friend_is_no_support() -> None:
    a = piece("a", "king", "horse", 20.0, 10.0)
    gun = piece("g", "parl", "artillery", 20.0, 12.0, 180.0)
    friend = piece("s", "parl", "foot", 24.5, 12.5, 180.0, formation="routed")
    closing = close_in(tx_with(state_of(a, gun, friend)), [Charge("a", "g", a.base)], Morale())
    assert closing.rout == ("g",)


# --- caracole ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "royalist", "pistols"), [
    (1, False, True), (3, False, True), (4, False, False), (6, False, False),
    (2, True, True), (3, True, False)])
def test_cavalry_without_an_officer_may_flinch_into_mounted_fire(face: int, royalist: bool,
                                                                  pistols: bool) -> None:
    tx = tx_with(state_of(piece("a", "king", "horse", 20.0, 10.0)), face)
    assert attacks_with_pistols(tx, T, "a", year=1643, royalist=royalist) is pistols
    assert dice_left(tx) == 0


@pytest.mark.parametrize(("year", "troop", "led", "rolls"), [
    (1645, "horse", False, False), (1650, "horse", False, False), (1644, "horse", False, True),
    (1644, "lobsters", False, True), (1644, "scots_horse", False, True),
    (1644, "horse", True, False), (1644, "dragoons", False, False), (1644, "foot", False, False)])
def test_who_rolls_for_the_caracole(year: int, troop: str, led: bool, rolls: bool) -> None:
    units = [piece("a", "king", troop, 20.0, 10.0)]
    if led:
        units.append(officer("o", "king", "a"))
    tx = tx_with(state_of(*units), 1)
    assert attacks_with_pistols(tx, T, "a", year=year, royalist=False) is rolls
    assert dice_left(tx) == (0 if rolls else 1)


# --- fatigue ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("inches", "men"), [(0.0, 0), (2.0, 2), (2.5, 3), (0.1, 1)])
def test_a_man_fatigued_for_each_inch_begun_beyond_the_charge(inches: float, men: int) -> None:
    tx = tx_with(state_of(piece("a", "king", "horse", 20.0, 10.0)))
    result = charge_fatigue(tx, "a", inches)
    own = unit_data(tx.state.units["a"])
    assert (result.men, result.spent, own.fatigued, own.falling_back) == (men, False, men, False)


def test_a_unit_wholly_fatigued_is_spent_and_falls_back() -> None:
    tx = tx_with(state_of(piece("a", "king", "horse", 20.0, 10.0, men=6)))
    result = charge_fatigue(tx, "a", 9.0)
    own = unit_data(tx.state.units["a"])
    assert (result.men, result.spent, own.fatigued, own.falling_back) == (6, True, 6, True)


# --- 12 A, B: a charge whose units were driven apart ------------------------------------------------


@pytest.mark.parametrize(("moved", "back", "fought"), [
    (None, 0.0, True),        # halted 1" away: it closes and the melee is fought
    ("p-foot", 0.9, True),    # nudged, within the inch's slack
    ("p-foot", 16.0, False),  # the charger fell back under the defenders' fire
    ("k-foot", 8.0, False),   # the target fell back under fire before it was closed on
])
def test_a_charge_whose_units_were_driven_apart_comes_to_nothing(moved: str | None, back: float,
                                                                  fought: bool) -> None:
    # 12 A: the attacker "halts 1" away ... takes any defending fire and tests morale";
    # 12 B: it then "attempts to close". p-foot halted north of k-foot, which faces it.
    game, state = _charged()
    if moved is not None:
        unit = state.units[moved]
        state = state.with_unit(unit.evolve(y=unit.y + (back if moved == "p-foot" else -back)))
    tx = Tx(game.table, state.evolve(own=game_data(state).evolve(card=None, moving=())),
            ByPurpose(otherwise="max"))
    after_fire(tx, tables_of(state), {})
    gone = [e for e in tx.events if isinstance(e, ChargeLapsed)]
    closing = [e.unit for e in tx.events if isinstance(e, MoraleTested) and e.why == CLOSE]
    melee = [e for e in tx.events if isinstance(e, DiceRolled) and e.purpose.startswith("close combat")]
    assert (closing == ["p-foot"], bool(melee)) == (fought, fought)
    if fought:
        assert gone == []
    else:
        assert [(e.attacker, e.target) for e in gone] == [("p-foot", "k-foot")]
        assert gone[0].apart == pytest.approx(1.0 + back, abs=0.1)
        assert game_data(tx.state).charges == ()
