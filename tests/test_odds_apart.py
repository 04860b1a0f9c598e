"""Steps settled apart (:mod:`tertia.analysis.apart`): in play they run as called; under
exact odds each is worked out once per position it starts in and walked one branch per
distinct outcome, with the very distribution the plain walk gives, and walked as it runs
wherever what makes that exact does not hold."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tertia.analysis.enumerate import WorkMeter, enumerate_branches
from tertia.core.dice import D6, Dice, ScriptedDice, summed
from tertia.core.events import Marked
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind

UNITS = ("a", "b", "c")


def _state(**extra: Any) -> GameState:
    units = {uid: Unit(uid, "blue", UnitKind.FOOT, "line", 10.0 * i, 0.0, 0.0, 4, 2)
             for i, uid in enumerate(UNITS)}
    return GameState(("blue", "red"), 1, "blue", "play", units, extra=extra)


@dataclass(frozen=True)
class Checked:
    unit: str
    dice: tuple[int, int]
    broken: bool


def _check(tx: Tx, unit: str) -> Checked:
    """Doubles or a 7 shake the unit; 10 or more breaks it."""
    first, second = tx.roll(D6, f"{unit} first"), tx.roll(D6, f"{unit} second")
    if first == second or summed(first, second) == 7:
        tx.emit(Marked(mark="shaken", ident=unit))
    broken = summed(first, second) >= 10
    if broken:
        tx.emit(Marked(mark="broken", ident=unit))
    return Checked(unit, (first, second), broken)


def _volley(reads_dice_after: bool = False) -> Callable[[Dice], Any]:
    def run(dice: Dice) -> Any:
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]  # the checks read no table
        checks = [tx.apart(_check, uid) for uid in UNITS]
        high = reads_dice_after and checks[0].dice[0] > 3
        return tuple(sorted(tx.state.marks.items())), tuple(c.broken for c in checks), high
    return run


def _walked(run: Callable[[Dice], Any], **how: Any) -> tuple[dict[Any, Fraction], int]:
    meter = WorkMeter()
    dist: Counter[Any] = Counter()
    for b in enumerate_branches(run, meter=meter, **how):
        dist[b.result] += b.probability  # type: ignore[assignment]
    assert sum(dist.values()) == 1
    return dict(dist), meter.work


def test_in_play_a_step_apart_runs_as_called_with_the_same_dice() -> None:
    faces = [3, 3, 2, 5, 6, 6]
    marked = Tx(None, _state(), ScriptedDice(faces))  # type: ignore[arg-type]
    plain = Tx(None, _state(), ScriptedDice(faces))  # type: ignore[arg-type]
    assert [marked.apart(_check, u) for u in UNITS] == [_check(plain, u) for u in UNITS]
    assert marked.events == plain.events and marked.state == plain.state


def test_settled_apart_the_checks_give_the_plain_walks_distribution_for_less_work() -> None:
    settled, work = _walked(_volley())
    grouped, grouped_work = _walked(_volley(), apart=False)
    plain, _ = _walked(_volley(), face_by_face=True)
    assert settled == grouped == plain
    assert work < grouped_work


def test_a_step_whose_dice_are_read_after_it_is_walked_as_it_runs() -> None:
    settled, _ = _walked(_volley(reads_dice_after=True))
    plain, _ = _walked(_volley(reads_dice_after=True), face_by_face=True)
    assert settled == plain


def _beats_the_die_before(tx: Tx, unit: str) -> bool:
    return bool(tx.roll(D6, f"{unit} test") > tx.state.extra["before"])


def test_a_step_that_reads_a_die_rolled_before_it_is_walked_as_it_runs() -> None:
    def run(dice: Dice) -> Any:
        tx = Tx(None, _state(before=dice.roll(D6, "before")), dice)  # type: ignore[arg-type]
        return tx.apart(_beats_the_die_before, "a"), tx.apart(_beats_the_die_before, "b")

    settled, _ = _walked(run)
    plain, _ = _walked(run, face_by_face=True)
    assert settled == plain


def test_a_step_given_a_die_or_made_as_a_closure_is_walked_as_it_runs() -> None:
    def run(dice: Dice) -> Any:
        before = dice.roll(D6, "before")
        tx = Tx(None, _state(), dice)  # type: ignore[arg-type]

        def closure(tx: Tx) -> bool:
            return bool(tx.roll(D6, "closure") > before)

        return tx.apart(closure), tx.apart(_beats, before)

    settled, _ = _walked(run)
    plain, _ = _walked(run, face_by_face=True)
    assert settled == plain


def _beats(tx: Tx, score: int) -> bool:
    return bool(tx.roll(D6, "beats") > score)
