"""Charge yr Pikes! morale (section 11): the rating rolled when first needed, the test and
its modifiers, the permanent changes, the 50% rules for single units and rallying routed
units (Routing D)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import Dice
from tertia.core.events import DiceRolled, UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.terrain import TerrainFeature
from tertia.rules.morale import MoraleDetermined
from tertia.rulesets.charge_yr_pikes.data import LINE, ROUTED
from tertia.rulesets.charge_yr_pikes.morale import (
    MoraleTested,
    change_rating,
    half_strength_test,
    may_rally,
    modifiers,
    morale_test,
    rally_routed,
    rating,
    routed_units,
    stand_missing,
)
from tertia.rulesets.charge_yr_pikes.tables import default_tables, tables_with

from .cyp_morale_support import KING, PARL, field, officer, own, state_of, troop, tx_with

T = default_tables()

# Section 11 A, as the text prints it: the basic morale point by D6 face 1 to 6.
TEXT_INITIAL = {
    "horse": (2, 3, 3, 3, 3, 4),
    "second_rate_horse": (2, 2, 2, 3, 3, 3),
    "elite_foot": (2, 3, 3, 3, 3, 4),
    "foot": (1, 2, 2, 2, 3, 3),
    "second_rate_foot": (1, 1, 2, 2, 2, 3),
    "clubmen": (1, 1, 1, 2, 2, 2),
}


# --- the rating ---------------------------------------------------------------------------


@pytest.mark.parametrize("morale_class", sorted(TEXT_INITIAL))
def test_each_face_gives_the_texts_basic_morale_point(morale_class: str) -> None:
    for face, points in enumerate(TEXT_INITIAL[morale_class], 1):
        tx = tx_with(state_of(troop("u", KING, 30, 12, morale_class=morale_class)), face)
        assert rating(tx, T, "u", "fired on") == points, (morale_class, face)
        assert (own(tx, "u").morale, own(tx, "u").morale_max) == (points, points)


@pytest.mark.parametrize("morale_class", sorted(TEXT_INITIAL))
def test_the_initial_morale_distribution_is_exact(morale_class: str) -> None:
    def run(dice: Dice) -> int:
        state = state_of(troop("u", KING, 30, 12, morale_class=morale_class))
        return rating(Tx(field(), state, dice), T, "u")

    found: dict[int, Fraction] = {}
    for b in enumerate_branches(run):
        found[b.result] = found.get(b.result, Fraction(0)) + b.probability
    line = TEXT_INITIAL[morale_class]
    assert found == {p: Fraction(line.count(p), 6) for p in set(line)}


def test_the_foot_distribution_in_numbers() -> None:
    # "Foot or elite trained bands 1 2 2 2 3 3": one in six 1, half 2, a third 3.
    def run(dice: Dice) -> int:
        return rating(Tx(field(), state_of(troop("u", KING, 30, 12)), dice), T, "u")

    found: dict[int, Fraction] = {}
    for b in enumerate_branches(run):
        found[b.result] = found.get(b.result, Fraction(0)) + b.probability
    assert found == {1: Fraction(1, 6), 2: Fraction(1, 2), 3: Fraction(1, 3)}


def test_the_rating_is_rolled_the_first_time_only() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12)), 5)
    assert rating(tx, T, "u", "fired on") == 3
    assert isinstance(tx.events[0], DiceRolled) and tx.events[0].purpose == "morale points: u"
    assert tx.events[1] == MoraleDetermined(unit="u", points=3, cause="fired on")
    assert rating(tx, T, "u") == 3 and len(tx.events) == 2  # no second die


# --- the test -----------------------------------------------------------------------------


def test_rating_and_die_reaching_six_pass() -> None:
    """11 A: "If the result equals or exceeds six, then the unit has passed"."""
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=2, morale_max=2)), 4, 3)
    passed = morale_test(tx, T, "u", "fired on")
    assert (passed.die, passed.total, passed.passed, passed.margin) == (4, 6, True, 0)
    failed = morale_test(tx, T, "u", "fired on")
    assert (failed.die, failed.total, failed.passed, failed.margin) == (3, 5, False, -1)
    assert tx.events[-1] == MoraleTested(unit="u", why="fired on", rating=2, die=3, modifiers=(), total=5,
                                         passed=False)


def test_an_untested_unit_rolls_its_rating_then_its_test() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12)), 1, 6)
    result = morale_test(tx, T, "u", "canister")
    assert (result.rating, result.die, result.total, result.passed) == (1, 6, 7, True)
    assert [e.purpose for e in tx.events if isinstance(e, DiceRolled)] == ["morale points: u",
                                                                           "morale: u (canister)"]


def test_the_exact_chance_an_untested_foot_unit_passes() -> None:
    """Ratings 1, 2, 3 (chances 1/6, 1/2, 1/3) need a 5+, 4+, 3+: 1/6·2/6 + 1/2·3/6 + 1/3·4/6."""
    def run(dice: Dice) -> bool:
        tx = Tx(field(), state_of(troop("u", KING, 30, 12)), dice)
        return morale_test(tx, T, "u", "fired on").passed

    chance = sum((b.probability for b in enumerate_branches(run) if b.result), Fraction(0))
    line = TEXT_INITIAL["foot"]
    expected = sum((Fraction(line.count(r), 6) * Fraction(r + 1, 6) for r in (1, 2, 3)), Fraction(0))
    assert chance == expected == Fraction(19, 36)


@pytest.mark.parametrize(("points", "extra", "chance"), [
    (0, (), Fraction(1, 6)), (2, (), Fraction(3, 6)), (4, (), Fraction(5, 6)), (5, (), Fraction(1)),
    (3, (("disordered", -1),), Fraction(3, 6)), (1, (("charged", -2),), Fraction(0)),
])
def test_the_exact_chance_of_passing_a_rating(points: int, extra: tuple[tuple[str, int], ...],
                                              chance: Fraction) -> None:
    def run(dice: Dice) -> bool:
        tx = Tx(field(), state_of(troop("u", KING, 30, 12, morale=points, morale_max=points)), dice)
        return morale_test(tx, T, "u", "test", extra=extra).passed

    assert sum((b.probability for b in enumerate_branches(run) if b.result), Fraction(0)) == chance


def test_disorder_and_falling_back_each_take_one() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=3, disordered=True, falling_back=True)))
    assert modifiers(tx, T, "u") == (("disordered", -1), ("falling back", -1))
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=3)))
    assert modifiers(tx, T, "u") == ()


@pytest.mark.parametrize(("rank", "grade", "bonus"), [
    ("brigadier", "ineffective", 0), ("brigadier", "effective", 1), ("army", "natural_born_leader", 2),
    ("army", None, 2), ("wing", None, 1), ("brigadier", None, 1), ("staff", None, 1),
])
def test_a_front_rank_officer_adds_his_grades_bonus_or_else_his_ranks(rank: str, grade: str | None,
                                                                       bonus: int) -> None:
    """4 E, section 22: "E ... Morale +1 to die roll", "NB ... Morale +2", "IN ... No morale bonus"."""
    state = state_of(troop("u", KING, 30, 12, morale=2), officer("o", KING, 30, 13, rank=rank, grade=grade,
                                                                 attached_to="u"))
    tx = tx_with(state, 3)
    result = morale_test(tx, T, "u", "fired on")
    assert result.total == 2 + 3 + bonus
    assert result.modifiers == ((("officer", bonus),) if bonus else ())


def test_an_officer_not_in_the_front_rank_adds_nothing() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=2), officer("o", KING, 30, 10, rank="army")))
    assert modifiers(tx, T, "u") == ()


def test_the_best_of_two_front_rank_officers_counts_once() -> None:
    state = state_of(troop("u", KING, 30, 12, morale=2),
                     officer("a", KING, 29, 13, grade="effective", attached_to="u"),
                     officer("b", KING, 31, 13, grade="natural_born_leader", attached_to="u"))
    assert modifiers(tx_with(state), T, "u") == (("officer", 2),)


def test_a_town_or_works_or_deployed_adds_one() -> None:
    town = field(TerrainFeature("town", outline=((26, 10), (34, 10), (34, 14), (26, 14))))
    assert modifiers(tx_with(state_of(troop("u", KING, 30, 12, morale=2)), table=town), T, "u") == \
        (("in a town or works", 1),)
    assert modifiers(tx_with(state_of(troop("u", KING, 50, 12, morale=2)), table=town), T, "u") == ()
    assert modifiers(tx_with(state_of(troop("u", KING, 50, 12, morale=2, formation="deployed"))), T, "u") == \
        (("in a town or works", 1),)


@pytest.mark.parametrize(("y", "values", "supported"), [
    (14.0, {}, True),                      # 4.5" behind its rear edge
    (10.0, {}, False),                     # 8.5": beyond 6"
    (26.0, {}, False),                     # in front, not behind
    (14.0, {"disordered": True}, False),   # not in good order
    (14.0, {"formation": ROUTED}, False),
])
def test_a_friend_in_good_order_within_6_inches_behind_supports(y: float, values: dict[str, object],
                                                                supported: bool) -> None:
    state = state_of(troop("u", KING, 30, 20, morale=2), troop("f", KING, 30, y, **values))
    assert modifiers(tx_with(state), T, "u") == ((("supported", 1),) if supported else ())


def test_an_enemy_behind_is_no_support() -> None:
    state = state_of(troop("u", KING, 30, 20, morale=2), troop("e", PARL, 30, 14))
    assert modifiers(tx_with(state), T, "u") == ()


# --- flank and rear (13 C) ------------------------------------------------------------------


def test_in_flank_or_rear_the_total_decides_by_default() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=3)), 3, 2)
    assert morale_test(tx, T, "u", "charged in flank", flank_or_rear=True).passed  # 3 + 3 = 6
    failed = morale_test(tx, T, "u", "charged in flank", flank_or_rear=True)
    assert not failed.passed and failed.flank_or_rear


def test_read_as_the_bare_die_only_a_six_stands_in_flank_or_rear() -> None:
    """ "rout on any morale die result of less than 6", the die read bare."""
    bare = tables_with({"rout": {**T.rout.model_dump(), "flank_rear_reads": "die"}})
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=3)), 5, 6, 5)
    assert not morale_test(tx, bare, "u", "charged in rear", flank_or_rear=True).passed  # 8, but a 5
    assert morale_test(tx, bare, "u", "charged in rear", flank_or_rear=True).passed
    assert morale_test(tx, bare, "u", "fired on").passed  # only flank or rear reads the die


# --- permanent changes --------------------------------------------------------------------


def test_a_permanent_change_never_takes_the_rating_below_nothing() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=1, morale_max=2)))
    assert change_rating(tx, T, "u", -1, "routed") == 0
    assert change_rating(tx, T, "u", -1, "army takes fright") == 0
    assert own(tx, "u").morale == 0 and own(tx, "u").morale_max == 2


def test_a_permanent_change_to_an_untested_unit_rolls_its_rating_first() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12)), 6)
    assert change_rating(tx, T, "u", -1, "over half lost") == 2  # rolled 3, less one
    assert tx.dice.remaining == 0  # type: ignore[attr-defined]


# --- the 50% rules ------------------------------------------------------------------------


def test_a_unit_at_half_strength_is_not_over_half_lost() -> None:
    """ "When a unit has lost more than 50% of it's strength"."""
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=2, pike=8, shot=8)))
    assert half_strength_test(tx, T, "u") is None and tx.events == []


def test_over_half_lost_drops_the_rating_once_and_tests_each_turn() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=3, morale_max=3, pike=8, shot=7)), 4, 4)
    first = half_strength_test(tx, T, "u")
    assert first is not None and first.reduced and first.result is not None
    assert (first.result.total, first.result.passed, first.removed) == (2 + 4, True, False)
    second = half_strength_test(tx, T, "u")  # the next turn's phase J: no second -1
    assert second is not None and not second.reduced and second.result is not None and second.result.passed
    assert own(tx, "u").morale == 2 and own(tx, "u").half_lost


def test_failing_the_half_strength_test_takes_the_unit_off_the_field() -> None:
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=2, pike=8, shot=7)), 4)
    result = half_strength_test(tx, T, "u")
    assert result is not None and result.removed and result.result is not None and result.result.total == 5
    assert tx.state.units["u"].removed == "deserted"
    assert isinstance(tx.events[-1], UnitRemoved)


def test_an_officer_in_the_front_rank_spares_the_test_but_not_the_drop() -> None:
    state = state_of(troop("u", KING, 30, 12, morale=2, pike=8, shot=7),
                     officer("o", KING, 30, 13, attached_to="u"))
    tx = tx_with(state)
    result = half_strength_test(tx, T, "u")
    assert result is not None and result.reduced and result.result is None and not result.removed
    assert own(tx, "u").morale == 1


def test_an_officer_who_leaves_brings_the_test_back() -> None:
    state = state_of(troop("u", KING, 30, 12, morale=2, pike=8, shot=7, half_lost=True),
                     officer("o", KING, 30, 9))
    tx = tx_with(state, 1)
    result = half_strength_test(tx, T, "u")
    assert result is not None and not result.reduced and result.removed


# --- rallying (Routing D) -----------------------------------------------------------------


def test_a_unit_routed_this_turn_does_not_try_to_rally_yet() -> None:
    """ "A routed unit spends the entire next turn in the location to which it fled"."""
    tx = tx_with(state_of(troop("u", KING, 30, 12, morale=2, formation=ROUTED, routed_turn=3), turn=3))
    assert not may_rally(tx.state, "u") and rally_routed(tx, T, "u") is None and tx.events == []
    later = tx_with(state_of(troop("u", KING, 30, 12, morale=2, formation=ROUTED, routed_turn=3), turn=4))
    assert may_rally(later.state, "u") and routed_units(later.state) == ["u"]


def test_passing_rallies_it_into_a_line_in_good_order() -> None:
    unit = troop("u", KING, 30, 12, morale=2, formation=ROUTED, routed_turn=1, disordered=True)
    tx = tx_with(state_of(unit, turn=2), 5)
    rally = rally_routed(tx, T, "u")  # 2 + 5 - 1 disordered = 6
    assert rally is not None and rally.rallied and not rally.deserted
    assert (own(tx, "u").formation, own(tx, "u").disordered) == (LINE, False)


def test_without_the_rally_cure_a_rallied_unit_stays_disordered() -> None:
    tables = tables_with({"disorder": {**T.disorder.model_dump(),
                                       "removal": {"halt_on_card": True, "rally_test": False}}})
    unit = troop("u", KING, 30, 12, morale=2, formation=ROUTED, routed_turn=1, disordered=True)
    tx = tx_with(state_of(unit, turn=2), 5)
    rally = rally_routed(tx, tables, "u")  # 2 + 5 - 1 disordered = 6
    assert rally is not None and rally.rallied and own(tx, "u").disordered


def test_failing_with_a_stand_missing_it_deserts_and_its_officer_goes_with_it() -> None:
    """ "Less than that, it will desert the field if it has a stand missing"; 4 D: "if it
    leaves the field, he is swept along with it"."""
    unit = troop("u", KING, 30, 12, morale=2, formation=ROUTED, routed_turn=1, pike=12, shot=16)
    assert stand_missing(unit.own)  # type: ignore[arg-type]
    tx = tx_with(state_of(unit, officer("o", KING, 30, 13, attached_to="u"), turn=2), 2)
    rally = rally_routed(tx, T, "u")  # 2 + 2 + 1 officer = 5
    assert rally is not None and rally.deserted and not rally.rallied
    assert tx.state.units["u"].removed == "deserted" and tx.state.units["o"].removed == "deserted"


def test_failing_with_every_stand_it_stands_routed() -> None:
    unit = troop("u", KING, 30, 12, morale=2, formation=ROUTED, routed_turn=1, pike=14, shot=14)
    assert not stand_missing(unit.own)  # type: ignore[arg-type]  # casualties, but no whole stand
    tx = tx_with(state_of(unit, turn=2), 3)
    rally = rally_routed(tx, T, "u")
    assert rally is not None and not rally.rallied and not rally.deserted
    assert tx.state.units["u"].in_play and own(tx, "u").routed
