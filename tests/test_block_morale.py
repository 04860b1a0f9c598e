"""rules.morale: untested until first tested (a die, never a secret), losing and regaining
points, levels, and morale tests (Declare Thee Sir, Morale and Melee a)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import D6
from tertia.core.events import DiceRolled
from tertia.core.ruleset import Tx
from tertia.rules.morale import (
    DECLARE_ARTILLERY,
    DECLARE_FOOT,
    DECLARE_LEVELS,
    MoraleDetermined,
    ensure_tested,
    first_points,
    is_tested,
    lose_points,
    morale_of,
    morale_test,
    regain_points,
)

from .block_support import TABLE, A, piece, state_of, tx_with


def test_an_untested_unit_rolls_its_points_when_first_tested() -> None:
    """ "To determine morale points roll 1D6; 1 = 1 point, 2-3 = 2 points, 4-5 = 3, 6+ = 4"."""
    tx = tx_with(state_of(piece("u", A, 10, 10)), 4)
    assert not is_tested(tx.state.units["u"])
    assert ensure_tested(tx, "u", DECLARE_FOOT, "fired upon") == 3
    u = tx.state.units["u"]
    assert (morale_of(u), first_points(u)) == (3, 3)
    assert isinstance(tx.events[0], DiceRolled) and tx.events[0].purpose == "morale points: u"
    assert tx.events[1] == MoraleDetermined(unit="u", points=3, cause="fired upon")


def test_a_tested_unit_rolls_nothing() -> None:
    tx = tx_with(state_of(piece("u", A, 10, 10, morale=2, morale_max=4)))
    assert ensure_tested(tx, "u", DECLARE_FOOT, "melee") == 2
    assert tx.events == []


def exact_points(table: object) -> dict[int, Fraction]:
    def run(dice: object) -> int:
        tx = Tx(TABLE, state_of(piece("u", A, 10, 10)), dice)  # type: ignore[arg-type]
        return ensure_tested(tx, "u", table, "test")  # type: ignore[arg-type]

    out: dict[int, Fraction] = {}
    for b in enumerate_branches(run):
        out[b.result] = out.get(b.result, Fraction(0)) + b.probability
    return out


def test_the_exact_distribution_of_first_points() -> None:
    assert exact_points(DECLARE_FOOT) == {1: Fraction(1, 6), 2: Fraction(2, 6), 3: Fraction(2, 6),
                                          4: Fraction(1, 6)}
    assert exact_points(DECLARE_ARTILLERY) == {1: Fraction(2, 6), 2: Fraction(4, 6)}


def test_losing_points_stops_at_none_and_reports_the_rest() -> None:
    """ "A unit with poor morale that loses another point ...": the rules read ``beyond``."""
    tx = tx_with(state_of(piece("u", A, 10, 10, morale=1, morale_max=3)))
    first = lose_points(tx, "u", 1, "fire")
    assert (first.before, first.after, first.beyond) == (1, 0, 0)
    again = lose_points(tx, "u", 1, "melee")
    assert (again.before, again.after, again.beyond) == (0, 0, 1)
    assert morale_of(tx.state.units["u"]) == 0
    assert len(tx.events) == 1  # nothing to take the second time
    with pytest.raises(ValueError, match="untested"):
        lose_points(tx_with(state_of(piece("v", A, 10, 10))), "v", 1, "fire")


def test_regaining_never_passes_the_first_points() -> None:
    """Rally d: "up to its original morale level"; "Untested units cannot regain the unknown"."""
    tx = tx_with(state_of(piece("u", A, 10, 10, morale=1, morale_max=2), piece("v", A, 20, 10)))
    assert regain_points(tx, "u", 3, "rest") == 1
    assert morale_of(tx.state.units["u"]) == 2
    assert regain_points(tx, "u", 1, "rest") == 0
    assert regain_points(tx, "v", 1, "rest") == 0 and morale_of(tx.state.units["v"]) is None


def test_levels() -> None:
    assert [DECLARE_LEVELS.name(p) for p in (0, 1, 2, 3, 4)] == ["poor", "good", "good", "excellent",
                                                                   "excellent"]
    with pytest.raises(ValueError):
        DECLARE_LEVELS.name(-1)
    with pytest.raises(ValueError):
        DECLARE_FOOT.points_for(0)


@pytest.mark.parametrize(("roll", "need", "mods", "passed"),
                         [(3, 3, (), True), (2, 3, (), False), (2, 3, (1,), True), (5, 5, (-1,), False)])
def test_a_morale_test_passes_on_the_number_needed(roll: int, need: int, mods: tuple[int, ...],
                                                     passed: bool) -> None:
    """Melee a: "roll 1D6 and compare to attacking unit's morale (excellent = 2+, good = 3+,
    poor = 5+)"."""
    result = morale_test(tx_with(state_of(), roll), D6, need, "close", mods)
    assert (result.roll, result.total, result.passed) == (roll, roll + sum(mods), passed)


def test_the_exact_chance_of_a_morale_test() -> None:
    def run(dice: object) -> bool:
        return morale_test(Tx(TABLE, state_of(), dice), D6, 5, "close").passed  # type: ignore[arg-type]

    assert sum(b.probability for b in enumerate_branches(run) if b.result) == Fraction(1, 3)
