"""Charge yr Pikes! falling back (section 14), routing (section 15), the plain results of a
failed test, and officers swept along with their unit or moved out of an enemy's way
(Tertias and officers D, F)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import Dice
from tertia.core.events import DiceRolled
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.attached import may_leave, to_safety
from tertia.rulesets.charge_yr_pikes.data import ROUTED
from tertia.rulesets.charge_yr_pikes.fallback import fall_back, room
from tertia.rulesets.charge_yr_pikes.morale import MoraleResult, morale_test
from tertia.rulesets.charge_yr_pikes.rout import (
    CAPTURED,
    DESTROYED,
    ROUTED_OFF,
    STILL_ROUTED,
    fail_plainly,
    half_d6,
    officer_fell,
    rout,
    routed_attacked,
    routed_fired_on,
)
from tertia.rulesets.charge_yr_pikes.tables import Tables, default_tables, tables_with

from .cyp_morale_support import KING, PARL, field, officer, own, state_of, troop, tx_with

T = default_tables()


def _with_rout(**values: object) -> Tables:
    return tables_with({"rout": {**T.rout.model_dump(), **values}})


def _at(tx: Tx, uid: str) -> tuple[float, float, float]:
    u = tx.state.units[uid]
    return round(u.x, 6), round(u.y, 6), u.facing


def _done(tx: Tx) -> bool:
    return tx.dice.remaining == 0  # type: ignore[attr-defined, no-any-return]


# --- plain results ------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "effect"), [(4, "holds"), (2, "falls back"), (1, "routs")])
def test_a_plain_failure_by_two_or_less_falls_back_and_by_more_routs(die: int, effect: str) -> None:
    # Rating 2: a 4 makes 6 and holds; a 2 fails by 2, a 1 by 3.
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2)), die, 3, 4)
    result = morale_test(tx, T, "u", "fired on")
    assert fail_plainly(tx, T, "u", result, "fired on").effect == effect
    assert (own(tx, "u").routed, own(tx, "u").falling_back) == (effect == "routs", effect == "falls back")


def test_in_flank_or_rear_any_failure_routs() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2)), 3, 3, 4)
    result = morale_test(tx, T, "u", "charged in flank", flank_or_rear=True)
    assert result.margin == -1
    assert fail_plainly(tx, T, "u", result, "charged in flank").effect == "routs"


def test_the_fall_back_margin_is_the_tables() -> None:
    strict = tables_with({"morale": {**T.morale.model_dump(by_alias=True), "fall_back_within": 0}})
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2)), 1, 4)
    failed = MoraleResult("u", 2, 3, (), 5, 6, False)
    assert fail_plainly(tx, strict, "u", failed, "fired on").effect == "routs"


# --- falling back -------------------------------------------------------------------------


def test_a_unit_falls_back_a_normal_move_straight_back_facing_the_front_disordered() -> None:
    """14 A; 5 F: at the normal rate (a disordered move is not shortened)."""
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2), troop("h", KING, 50, 30, "horse", morale=2)))
    done = fall_back(tx, T, "u", "fired on")
    assert _at(tx, "u") == (30.0, 12.0, 0.0) and done.slide.distance == 8.0
    assert own(tx, "u").disordered and own(tx, "u").falling_back and own(tx, "u").formation == "line"
    fall_back(tx, T, "h", "fired on")
    assert _at(tx, "h") == (50.0, 14.0, 0.0)  # horse: 16"
    assert tx.events and _done(tx)


def test_a_parliament_unit_falls_back_northwards() -> None:
    tx = tx_with(state_of(troop("p", PARL, 30, 30, morale=2)))
    fall_back(tx, T, "p", "fired on")
    assert _at(tx, "p") == (30.0, 38.0, 180.0)


@pytest.mark.parametrize(("die", "disordered"), [(3, True), (4, False)])
def test_a_friend_fallen_back_through_tests_and_failing_is_disordered(die: int, disordered: bool) -> None:
    """14 B: "Any failure results in the friendly unit becoming disordered" (and no more)."""
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2), troop("f", KING, 30, 15, morale=2)), die)
    done = fall_back(tx, T, "u", "fired on")
    assert done.slide.passed_through == ("f",) and [t.unit for t in done.tests] == ["f"]
    assert own(tx, "f").disordered is disordered and done.disordered == (("f",) if disordered else ())
    assert _at(tx, "f") == (30.0, 15.0, 0.0) and not own(tx, "f").falling_back and _done(tx)


def test_a_routed_friend_fallen_back_through_tests_nothing() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2), troop("f", KING, 30, 15, formation=ROUTED)))
    done = fall_back(tx, T, "u", "fired on")
    assert done.slide.passed_through == ("f",) and done.tests == () and _done(tx)


def test_falling_back_into_the_enemy_stops_in_contact_for_a_melee() -> None:
    """14 C: "Units falling back that collide with the enemy in some manner fight a melee"."""
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2), troop("e", PARL, 30, 15)))
    done = fall_back(tx, T, "u", "fired on")
    assert done.met == "e" and _at(tx, "u") == (30.0, 16.5, 0.0) and own(tx, "u").disordered


def test_falling_back_stops_at_the_tables_edge() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 5, morale=2)))
    done = fall_back(tx, T, "u", "fired on")
    assert _at(tx, "u") == (30.0, 0.75, 0.0) and not done.slide.off_table and tx.state.units["u"].in_play
    assert room(tx.state.units["u"].base, 180.0, (72.0, 48.0)) == 0.0


def test_a_batterys_crew_abandon_their_gun_and_fall_back_as_foot() -> None:
    """14 D: "all other crew abandon guns and move as an foot unit"."""
    tx = tx_with(state_of(troop("g", KING, 40, 20, "artillery", morale=1)))
    done = fall_back(tx, T, "g", "canister")
    assert done.abandoned and own(tx, "g").abandoned and _at(tx, "g") == (40.0, 12.0, 0.0)  # 8", not 6"


def test_galloper_guns_and_front_rank_officers_fall_back_with_their_unit() -> None:
    """14 D: "Galloper guns falling back go to the rear normally"; 4 D: the general moves
    along with the unit."""
    state = state_of(troop("u", KING, 30, 20, morale=2),
                     troop("gal", KING, 32.75, 20, "artillery", gun="galloper", attached_to="u"),
                     officer("o", KING, 30, 21, attached_to="u"), officer("free", KING, 30, 16))
    tx = tx_with(state)
    done = fall_back(tx, T, "u", "fired on")
    assert not done.abandoned and not own(tx, "gal").abandoned
    assert _at(tx, "gal")[:2] == (32.75, 12.0) and _at(tx, "o")[:2] == (30.0, 13.0)
    assert _at(tx, "free")[:2] == (30.0, 16.0)  # not in the way, not carried
    assert done.slide.passed_through == ()


# --- routing ------------------------------------------------------------------------------


def test_a_rout_costs_half_a_d6_its_rating_and_flees_to_its_own_edge() -> None:
    """15 A, F: half a D6 of casualties, a rout move of 8" + D6, morale -1."""
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2), turn=3), 3, 4)
    flight = rout(tx, T, "u", "fired on")
    assert (flight.half_die, flight.casualties, flight.roll, flight.wanted) == (3, 2, 4, 12.0)
    assert flight.fate == STILL_ROUTED and flight.friends == ()
    assert _at(tx, "u") == (30.0, 8.0, 180.0)  # turned about, 12" towards the south edge
    u = own(tx, "u")
    assert (u.formation, u.morale, u.routed_turn, u.pike + u.shot) == (ROUTED, 1, 3, 30)
    assert [e.purpose for e in tx.events if isinstance(e, DiceRolled)] == \
        ["half a D6 of casualties: u routs", "rout move: u"]


@pytest.mark.parametrize(("rounding", "faces"), [("up", (1, 1, 2, 2, 3, 3)), ("down", (0, 1, 1, 2, 2, 3))])
def test_half_a_d6_rounds_as_the_table_says(rounding: str, faces: tuple[int, ...]) -> None:
    tables = _with_rout(half_d6=rounding)
    assert tuple(half_d6(tables, f) for f in range(1, 7)) == faces


@pytest.mark.parametrize(("rounding", "expected"), [
    ("up", {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}),
    ("down", {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 6)}),
])
def test_the_exact_casualties_of_a_rout(rounding: str, expected: dict[int, Fraction]) -> None:
    tables = _with_rout(half_d6=rounding)

    def run(dice: Dice) -> int:
        tx = Tx(field(), state_of(troop("u", KING, 30, 30, morale=2)), dice)
        return rout(tx, tables, "u", "fired on").casualties

    found: dict[int, Fraction] = {}
    for b in enumerate_branches(run):
        found[b.result] = found.get(b.result, Fraction(0)) + b.probability
    assert found == expected


def test_horse_rout_sixteen_inches_and_two_d6_rolled_as_one() -> None:
    tx = tx_with(state_of(troop("h", KING, 30, 40, "horse", morale=3)), 2, 7)
    flight = rout(tx, T, "h", "fired on")
    assert (flight.roll, flight.wanted) == (7, 23.0) and _at(tx, "h") == (30.0, 17.0, 180.0)
    assert [e.die for e in tx.events if isinstance(e, DiceRolled)] == ["d6", "2d6"]


def test_a_unit_routs_straight_away_from_the_foe_that_broke_it() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 20, morale=2), troop("e", PARL, 36, 20)), 1, 2)
    rout(tx, T, "u", "lost a melee", foe="e", after_melee=True)
    assert _at(tx, "u") == (20.0, 20.0, 270.0)


def test_an_untested_unit_routed_outright_rolls_its_rating_first() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 30)), 5, 1, 1)
    rout(tx, T, "u", "charged while routed")
    assert own(tx, "u").morale == 2 and own(tx, "u").morale_max == 3 and _done(tx)


def test_friends_within_6_inches_test_when_a_unit_routs() -> None:
    """15 B: "or is within 6 inches when it routs"."""
    state = state_of(troop("u", KING, 30, 30, morale=2), troop("near", KING, 36, 30, morale=3),
                     troop("far", KING, 45, 30, morale=3))
    tx = tx_with(state, 1, 1, 3)
    flight = rout(tx, T, "u", "fired on")
    assert [o.result.unit for o in flight.friends] == ["near"] and flight.friends[0].effect == "holds"
    assert _done(tx)


def test_after_close_combat_friends_near_do_not_test() -> None:
    """15 B: "Units routing after close combat do not cause this unless they rout THROUGH"."""
    state = state_of(troop("u", KING, 30, 30, morale=2), troop("near", KING, 36, 30, morale=3))
    tx = tx_with(state, 1, 1)
    assert rout(tx, T, "u", "lost a melee", after_melee=True).friends == () and _done(tx)


def test_after_close_combat_friends_routed_through_test() -> None:
    state = state_of(troop("u", KING, 30, 30, morale=2), troop("m", KING, 30, 24, "musketeers", morale=3))
    tx = tx_with(state, 1, 4, 4)
    flight = rout(tx, T, "u", "lost a melee", after_melee=True)
    assert flight.slide is not None and flight.slide.passed_through == ("m",)
    assert [(o.result.unit, o.result.why) for o in flight.friends] == [("m", "u routed through it")]
    assert _done(tx)


def test_a_friend_that_fails_badly_routs_in_its_turn() -> None:
    """ "test morale and act accordingly": a rout may spread."""
    state = state_of(troop("u", KING, 30, 30, morale=2), troop("near", KING, 36, 30, morale=2))
    # u: half D6, rout D6; near: test 1 (fails by 3) then its own half D6 and rout D6.
    tx = tx_with(state, 1, 1, 1, 2, 2)
    flight = rout(tx, T, "u", "fired on")
    assert flight.friends[0].effect == "routs" and own(tx, "near").routed and _done(tx)
    assert flight.friends[0].flight is not None and flight.friends[0].flight.friends == ()  # u is routed


def test_a_friend_that_fails_narrowly_falls_back() -> None:
    state = state_of(troop("u", KING, 30, 30, morale=2), troop("near", KING, 36, 30, morale=2))
    tx = tx_with(state, 1, 1, 2)
    flight = rout(tx, T, "u", "fired on")
    assert flight.friends[0].effect == "falls back" and _at(tx, "near") == (36.0, 22.0, 0.0)


def test_a_routed_friend_in_the_way_is_shoved_aside_and_tests_nothing() -> None:
    state = state_of(troop("u", KING, 30, 30, morale=2),
                     troop("r", KING, 30, 24, morale=1, formation=ROUTED, routed_turn=1))
    tx = tx_with(state, 1, 4)
    flight = rout(tx, T, "u", "lost a melee", after_melee=True)
    assert flight.slide is not None and flight.slide.passed_through == ("r",) and flight.friends == ()
    assert flight.fate == STILL_ROUTED and _done(tx)


def _pikes_behind() -> GameState:
    # u routs south from y 30: through the musketeers at 26, then the pike regiment at 22.
    return state_of(troop("u", KING, 30, 30, morale=2), officer("o", KING, 30, 31, attached_to="u"),
                    troop("m", KING, 30, 26, "musketeers", morale=3), troop("p", KING, 30, 22, morale=3))


def test_pikes_lowered_on_a_router_destroy_it() -> None:
    """15 C: "A pike armed unit in the rear may lower it's pikes upon a routing unit to keep
    it from passing through it. This destroys the routing unit"."""
    tx = tx_with(_pikes_behind(), 1, 1, 6, 3)  # half D6, the officer's D10, rout D6 (14"), m's test
    flight = rout(tx, T, "u", "lost a melee", after_melee=True)
    assert (flight.fate, flight.by, flight.slide) == (DESTROYED, "p", None)
    assert [o.result.unit for o in flight.friends] == ["m"]  # those it passed before the pikes
    assert tx.state.units["u"].removed == DESTROYED and tx.state.units["o"].removed == DESTROYED
    assert _done(tx)


def test_pikes_held_up_let_the_router_through_and_test() -> None:
    tx = tx_with(_pikes_behind(), 1, 1, 6, 3, 3)
    flight = rout(tx, _with_rout(lower_pikes=False), "u", "lost a melee", after_melee=True)
    assert flight.fate == STILL_ROUTED and [o.result.unit for o in flight.friends] == ["m", "p"]
    assert _at(tx, "o")[:2] == (30.0, 17.0) and _done(tx)  # carried 14" with its unit


def test_the_pike_units_owner_may_be_asked() -> None:
    asked: list[tuple[str, str]] = []

    def owner(state: GameState, pikes: str, router: str) -> bool:
        asked.append((pikes, router))
        return False

    tx = tx_with(_pikes_behind(), 1, 1, 6, 3, 3)
    assert rout(tx, T, "u", "lost a melee", after_melee=True, lower_pikes=owner).fate == STILL_ROUTED
    assert asked == [("p", "u")]


def test_units_without_pikes_cannot_lower_them() -> None:
    state = state_of(troop("u", KING, 30, 30, morale=2), troop("m", KING, 30, 24, "musketeers", morale=3))
    tx = tx_with(state, 1, 4, 3)
    assert rout(tx, _with_rout(lower_pikes=True), "u", "lost a melee", after_melee=True).fate == STILL_ROUTED


def test_routers_running_into_the_enemy_are_captured_with_their_officer() -> None:
    """15 E; 4 D: the front-rank general suffers the fate of the unit."""
    state = state_of(troop("u", KING, 30, 30, morale=2), officer("o", KING, 30, 31, attached_to="u"),
                     troop("e", PARL, 30, 22))
    tx = tx_with(state, 1, 1, 3)  # half D6, the officer's D10, rout D6
    flight = rout(tx, T, "u", "fired on")
    assert (flight.fate, flight.by) == (CAPTURED, "e")
    assert tx.state.units["u"].removed == CAPTURED and tx.state.units["o"].removed == CAPTURED
    assert tx.state.units["e"].in_play


def test_a_rout_over_the_tables_edge_leaves_the_field() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 6, morale=2)), 1, 1)
    flight = rout(tx, T, "u", "fired on")
    assert flight.fate == ROUTED_OFF and tx.state.units["u"].removed == ROUTED_OFF


def test_a_unit_whose_last_men_fall_as_it_routs_is_destroyed() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 30, "horse", morale=2, men=2)), 4)
    flight = rout(tx, T, "u", "fired on")
    assert flight.fate == DESTROYED and flight.slide is None and tx.state.units["u"].removed == DESTROYED


def test_a_batterys_crew_leave_their_gun_and_rout_as_infantry() -> None:
    """15 G: "Artillery units leave their guns and rout as infantry": 8" + D6."""
    tx = tx_with(state_of(troop("g", KING, 40, 30, "artillery", morale=1)), 2, 3)
    flight = rout(tx, T, "g", "closed on without support")
    assert flight.wanted == 11.0 and own(tx, "g").abandoned and own(tx, "g").men == 2
    assert _at(tx, "g") == (40.0, 19.0, 180.0)


def test_a_routed_unit_fired_on_that_passes_stands_routed() -> None:
    """15 H: "If it passes, it stands in place routed"."""
    tx = tx_with(state_of(troop("u", KING, 30, 30, morale=1, formation=ROUTED, routed_turn=1), turn=2), 5)
    outcome = routed_fired_on(tx, T, "u", "fired on")
    assert outcome.effect == "holds" and _at(tx, "u") == (30.0, 30.0, 0.0) and own(tx, "u").routed_turn == 1


def test_a_routed_unit_fired_on_that_fails_routs_again() -> None:
    """15 H: "If it fails it routs again with all implications and loses 1/2 D6"."""
    state = state_of(troop("u", KING, 30, 30, morale=1, formation=ROUTED, routed_turn=1, facing=180.0),
                     troop("near", KING, 36, 30, morale=3), turn=2)
    tx = tx_with(state, 4, 2, 2, 3)  # test 1 + 4 = 5; half D6; rout D6; near's test
    outcome = routed_fired_on(tx, T, "u", "fired on")
    assert outcome.effect == "routs" and outcome.flight is not None
    assert (outcome.flight.casualties, own(tx, "u").morale, own(tx, "u").routed_turn) == (1, 0, 2)
    assert _at(tx, "u") == (30.0, 20.0, 180.0) and [o.result.unit for o in outcome.flight.friends] == ["near"]
    assert _done(tx)


def test_a_routed_unit_attacked_routs_again_at_once() -> None:
    """15 I: no test; a rout from close combat, so friends near do not test."""
    state = state_of(troop("u", KING, 30, 30, morale=1, formation=ROUTED, routed_turn=1, facing=180.0),
                     troop("near", KING, 36, 30, morale=3), troop("e", PARL, 30, 32), turn=2)
    tx = tx_with(state, 6, 1)
    flight = routed_attacked(tx, T, "u", "charged", foe="e")
    assert (flight.casualties, flight.friends, own(tx, "u").morale) == (3, (), 0)
    assert _at(tx, "u") == (30.0, 21.0, 180.0) and _done(tx)


# --- officers -----------------------------------------------------------------------------


def test_an_officer_may_not_leave_a_routed_unit() -> None:
    """4 D: "Said leader may not leave a routed unit till it rallies"."""
    state = state_of(troop("u", KING, 30, 30, formation=ROUTED), troop("v", KING, 40, 30),
                     officer("a", KING, 30, 31, attached_to="u"), officer("b", KING, 40, 31, attached_to="v"),
                     officer("c", KING, 50, 31))
    assert (may_leave(state, "a"), may_leave(state, "b"), may_leave(state, "c")) == (False, True, True)


def test_an_enemy_officer_not_in_a_front_rank_is_moved_out_of_a_routers_way() -> None:
    """4 F: "may not be over-run or captured by any enemy unit. He is merely moved to the
    nearest friendly unit"."""
    state = state_of(troop("u", KING, 30, 30, morale=2), officer("eo", PARL, 30, 20),
                     troop("pf", PARL, 50, 40), troop("pr", PARL, 36, 20, formation=ROUTED))
    tx = tx_with(state, 1, 2)  # 10": u ends on the officer at y 20
    flight = rout(tx, T, "u", "fired on")
    assert flight.fate == STILL_ROUTED and _at(tx, "u")[:2] == (30.0, 20.0)
    assert _at(tx, "eo") == (50.0, 41.25, 180.0)  # just behind the nearest unit not routed
    assert tx.state.units["eo"].in_play


def test_an_officer_with_no_friend_left_goes_to_his_own_edge() -> None:
    tx = tx_with(state_of(officer("eo", PARL, 30, 20)))
    to_safety(tx, "eo")
    assert _at(tx, "eo")[:2] == (30.0, 47.5)


# --- the chosen readings ------------------------------------------------------------------


def test_the_chosen_readings_are_the_defaults() -> None:
    assert (T.rout.flank_rear_reads, T.rout.half_d6, T.rout.lower_pikes) == ("total", "up", True)
    assert (T.morale.fall_back_within, T.morale.triggers.friend_routs_within) == (2, 6)


@pytest.mark.parametrize(("trigger", "tested"), [(True, True), (False, False)])
def test_a_unit_whose_officer_falls_tests_when_the_trigger_is_on(trigger: bool, tested: bool) -> None:
    morale = T.morale.model_dump(by_alias=True)
    triggers = {**morale["triggers"], "officer_killed": trigger}
    tables = tables_with({"morale": {**morale, "triggers": triggers}})
    tx = tx_with(state_of(troop("u", KING, 30, 30, morale=2)), *([2] if tested else []))
    outcome = officer_fell(tx, tables, "u")
    assert (outcome is not None) is tested and _done(tx)
    if outcome is not None:
        assert outcome.effect == "falls back" and outcome.result.why == "its officer fell"


def test_a_routed_unit_does_not_test_when_its_officer_falls() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 30, morale=2, formation=ROUTED)))
    assert officer_fell(tx, T, "u") is None
