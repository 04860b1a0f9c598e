"""How exact enumeration groups faces: one branch for each way the comparisons go.

Each case is walked grouped and face by face (the plain walk): the distributions must be
the very same fractions, and the grouped walk must take the number of branches the
comparisons call for, no more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from tertia.analysis.enumerate import MAX_JOINT, TooManyBranches, WorkMeter, enumerate_branches
from tertia.core.dice import D6, Dice, sum_of, summed


def _walked(run: Callable[[Dice], Any], *, face_by_face: bool = False) -> tuple[dict[Any, Fraction], int]:
    dist: Counter[Any] = Counter()
    branches = enumerate_branches(run, face_by_face=face_by_face)
    for b in branches:
        dist[b.result] += b.probability  # type: ignore[assignment]
    assert sum(dist.values()) == 1
    return dict(dist), len(branches)


def _both(run: Callable[[Dice], Any]) -> tuple[dict[Any, Fraction], int, int]:
    grouped, walks = _walked(run)
    plain, plain_walks = _walked(run, face_by_face=True)
    assert grouped == plain
    return grouped, walks, plain_walks


def _opposed(dice: Dice) -> str:
    attack = dice.roll(D6, "attacker")
    defence = dice.roll(D6, "defender")
    if summed(attack, 1) > summed(defence, 0):
        return "hit"
    return "tie" if summed(attack, 1) == defence else "held"


def test_two_opposed_dice_summed_and_compared_walk_three_branches_not_36() -> None:
    dist, walks, plain = _both(_opposed)
    assert (walks, plain) == (3, 36)
    assert dist == {"hit": Fraction(21, 36), "tie": Fraction(5, 36), "held": Fraction(10, 36)}


def test_doubles_are_two_branches_and_a_seven_among_them_a_third() -> None:
    def run(dice: Dice) -> tuple[bool, bool]:
        first, second = dice.roll(D6, "first"), dice.roll(D6, "second")
        return first == second, summed(first, second) == 7

    dist, walks, _ = _both(run)
    assert walks == 3
    assert dist == {(True, False): Fraction(1, 6), (False, True): Fraction(1, 6),
                    (False, False): Fraction(2, 3)}


def test_a_die_compared_after_another_is_rolled_is_grouped_there_without_starting_again() -> None:
    def run(dice: Dice) -> tuple[bool, bool]:
        first = dice.roll(D6, "first")
        second = dice.roll(D6, "second")
        return first >= 5, second >= 4

    meter = WorkMeter()
    enumerate_branches(run, meter=meter)
    dist, walks, plain = _both(run)
    assert (walks, plain) == (4, 36) and meter.work == 4 * 3
    assert dist[(True, True)] == Fraction(1, 6)


def test_a_die_read_whole_after_another_is_rolled_is_split_there_without_starting_again() -> None:
    """Rout moves rolled for every stand, then each read as a distance: the first die is
    split by its faces where it is read, and the walks already made stand."""
    def run(dice: Dice) -> tuple[float, bool]:
        first = dice.roll(D6, "first")
        second = dice.roll(D6, "second")
        return float(first) / 2, second >= 4

    meter = WorkMeter()
    enumerate_branches(run, meter=meter)
    dist, walks, plain = _both(run)
    assert (walks, plain) == (12, 36) and meter.work == 12 * 3
    assert dist[(3.0, True)] == Fraction(1, 12)


def _first_and_a_second_rolled_again_on_six(dice: Any) -> tuple[Any, Any]:
    """A first die, then a second in an attempt rolled again while it shows a six."""
    first = dice.roll(D6, "first")
    while True:
        mark = dice.attempt_begins()
        second = dice.roll(D6, "second")
        if second == 6:
            dice.attempt_rolled_again(mark)
            continue
        return first, second


def test_a_die_read_whole_across_an_attempt_rolled_again_is_walked_face_by_face() -> None:
    def run(dice: Any) -> tuple[int, int]:
        first, second = _first_and_a_second_rolled_again_on_six(dice)
        return int(first), int(second)

    dist, _, _ = _both(run)
    assert len(dist) == 30 and set(dist.values()) == {Fraction(1, 30)}


def test_a_sum_read_whole_counts_its_dice_face_by_face() -> None:
    table = (0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)

    def run(dice: Dice) -> int:
        return table[summed(dice.roll(D6, "a"), dice.roll(D6, "b"))]  # a lookup: __index__

    dist, walks, _ = _both(run)
    assert walks == 36 and dist[3] == Fraction(10, 36)


def test_a_sum_kept_in_the_result_counts_its_dice_face_by_face() -> None:
    def run(dice: Dice) -> object:
        return summed(dice.roll(D6, "a"), 2)

    dist, walks, _ = _both(run)
    assert walks == 6 and {int(k): v for k, v in dist.items()} == {k: Fraction(1, 6) for k in range(3, 9)}


def test_a_sum_is_no_int_so_nothing_reads_it_unheard() -> None:
    seen: list[bool] = []

    def run(dice: Dice) -> int:
        total = summed(dice.roll(D6, "a"), 0)
        seen.append(isinstance(total, int))
        return int(total)

    _both(run)
    assert seen and not any(seen)


def test_dice_compared_across_an_attempt_rolled_again_are_walked_face_by_face() -> None:
    def run(dice: Any) -> str:
        first, second = _first_and_a_second_rolled_again_on_six(dice)
        return "above" if second > first else "not above"

    dist, _, _ = _both(run)
    assert dist["above"] == sum((Fraction(max(0, 5 - f), 5) for f in range(1, 7)), Fraction(0)) / 6


def test_more_dice_tied_together_than_the_joint_limit_are_walked_face_by_face() -> None:
    count = 5
    assert 6 ** count > MAX_JOINT

    def run(dice: Dice) -> bool:
        faces = [dice.roll(D6, f"die {i}") for i in range(count)]
        return summed(*faces) >= 20

    grouped, walks = _walked(run)
    exact = sum((w for v, w in sum_of(count, D6).outcomes if v >= 20), 0)
    assert grouped[True] == Fraction(exact, 6 ** count) and walks < 6 ** count


@pytest.mark.parametrize("budget", [1, 5])
def test_a_grouped_walk_over_its_budget_is_refused_with_the_share_it_walked(budget: int) -> None:
    with pytest.raises(TooManyBranches) as refused:
        enumerate_branches(_opposed, budget=budget)
    assert refused.value.walked is not None and refused.value.walked < 1
