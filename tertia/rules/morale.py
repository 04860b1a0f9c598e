"""Morale points: untested until first tested, then lost and regained a point at a time;
and morale tests, a die against a number.

Served first by Declare Thee Sir (Morale: "Other units start the game untested. A unit's
morale points are determined when it is first fired upon, melees, or is called for by an
event card. To determine morale points roll 1D6; 1 = 1 point, 2-3 = 2 points, 4-5 = 3
points, and 6+ = 4 points"; "a unit that has lost all its morale points has poor
morale"; Melee a: "To close, roll 1D6 and compare to attacking unit's morale (excellent
= 2+, good = 3+, poor = 5+)"), and written for Charge yr Pikes!' tests ("base morale +
1D6, pass on 6+").

An untested unit's points are nobody's secret: they are a die not yet rolled, rolled
through ``tx.roll`` the first time the rules ask (:func:`ensure_tested`), so replays and
exact odds see that die like any other.

A rule set that uses this keeps two values for each unit in its :class:`RuleData
<tertia.core.ruledata.RuleData>`: ``morale`` (points now; ``None`` while untested) and
``morale_max`` (the points first rolled, which regaining never exceeds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6, Distribution
from tertia.core.events import Casualties, DiceRolled, Event
from tertia.core.narration import Narrating, Sentence, humanise, plural, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit


@dataclass(frozen=True, slots=True)
class PointsTable:
    """The points a first test gives: ``die`` rolled, each ``(least roll, points)`` step
    giving its points to that roll and above.

    >>> DECLARE_FOOT.points_for(1), DECLARE_FOOT.points_for(3), DECLARE_FOOT.points_for(6)
    (1, 2, 4)
    """

    die: Distribution
    steps: tuple[tuple[int, int], ...]

    def points_for(self, roll: int) -> int:
        found = [points for least, points in self.steps if roll >= least]
        if not found:
            raise ValueError(f"no morale points for a roll of {roll}")
        return found[-1]


@dataclass(frozen=True, slots=True)
class Levels:
    """Names for ranges of points: each ``(least points, name)`` step names that many
    points and more.

    >>> [DECLARE_LEVELS.name(p) for p in range(5)]
    ['poor', 'good', 'good', 'excellent', 'excellent']
    """

    steps: tuple[tuple[int, str], ...]

    def name(self, points: int) -> str:
        found = [name for least, name in self.steps if points >= least]
        if not found:
            raise ValueError(f"no morale level for {points} points")
        return found[-1]


DECLARE_FOOT = PointsTable(D6, ((1, 1), (2, 2), (4, 3), (6, 4)))
"""Declare Thee Sir, Morale: 1D6; 1 = 1 point, 2-3 = 2, 4-5 = 3, 6+ = 4."""
DECLARE_ARTILLERY = PointsTable(D6, ((1, 1), (3, 2)))
"""Declare Thee Sir, Morale: "Artillery is 1D6; 1-2 = 1 point, 3+ = 2 points"."""
DECLARE_LEVELS = Levels(((0, "poor"), (1, "good"), (3, "excellent")))
"""Declare Thee Sir, Morale: 3 or 4 points excellent, 1 or 2 good, none left poor."""


# --- reading ------------------------------------------------------------------------------


def morale_of(unit: Unit) -> int | None:
    """``unit``'s morale points now; ``None`` while untested."""
    value = getattr(unit.own, "morale", None)
    return None if value is None else int(value)


def is_tested(unit: Unit) -> bool:
    return morale_of(unit) is not None


def first_points(unit: Unit) -> int | None:
    """The points ``unit`` first rolled (the most it may regain to)."""
    value = getattr(unit.own, "morale_max", None)
    return None if value is None else int(value)


def points_lost(before: Unit, after: Unit, *, joined: int = 0, most: int | None = None) -> int:
    """The morale points a unit lost (negative: gained) between ``before`` and ``after``:
    from those it had, or, untested before, from those it first rolled (with ``joined``
    points added as it was tested, at most ``most``); none while it is still untested."""
    now = morale_of(after)
    if now is None:
        return 0
    start = morale_of(before)
    if start is None:
        first = first_points(after)
        if first is None:
            return 0
        start = first + joined if most is None else min(most, first + joined)
    return start - now


# --- events -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoraleDetermined(Event):
    """A unit was tested for the first time and has ``points`` morale points."""

    type: ClassVar[str] = "morale_determined"
    unit: str
    points: int
    cause: str


@dataclass(frozen=True, slots=True)
class MoraleLost(Casualties, Event):
    """A unit lost ``points`` morale points (never below none)."""

    type: ClassVar[str] = "morale_lost"
    measure: ClassVar[str] = "points"
    noun: ClassVar[str] = "morale point"
    unit: str
    points: int
    cause: str


@dataclass(frozen=True, slots=True)
class MoraleRegained(Event):
    """A unit regained ``points`` morale points, never above ``up_to`` (``None``: its
    first points)."""

    type: ClassVar[str] = "morale_regained"
    unit: str
    points: int
    cause: str
    up_to: int | None = None


@handles(MoraleDetermined)
def _determined(s: GameState, e: MoraleDetermined) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(morale=e.points, morale_max=e.points))


@handles(MoraleLost)
def _lost(s: GameState, e: MoraleLost) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(morale=max(0, (morale_of(u) or 0) - e.points)))


@handles(MoraleRegained)
def _regained(s: GameState, e: MoraleRegained) -> GameState:
    u = s.units[e.unit]
    cap = first_points(u) if e.up_to is None else e.up_to
    now = (morale_of(u) or 0) + e.points
    return s.with_unit(u.evolve(morale=now if cap is None else min(cap, now)))


# --- procedures ---------------------------------------------------------------------------


def ensure_tested(tx: Tx, unit_id: str, table: PointsTable, cause: str) -> int:
    """``unit_id``'s morale points, rolled now (one die, logged) if it is untested."""
    now = morale_of(tx.state.units[unit_id])
    if now is not None:
        return now
    label = tx.state.units[unit_id].label
    points = table.points_for(tx.roll(table.die, f"morale points: {label}"))
    tx.emit(MoraleDetermined(unit=unit_id, points=points, cause=cause))
    return points


@dataclass(frozen=True, slots=True)
class Loss:
    """What a loss of points did: points ``before`` and ``after``, and ``beyond``, how many
    it could not take because none were left (a unit at poor morale losing another point:
    the rules say what that means)."""

    before: int
    after: int
    beyond: int


def lose_points(tx: Tx, unit_id: str, points: int, cause: str) -> Loss:
    """Take ``points`` morale points from a tested unit."""
    before = morale_of(tx.state.units[unit_id])
    if before is None:
        raise ValueError(f"{unit_id} is untested: test it before it loses points")
    taken = min(before, points)
    if taken:
        tx.emit(MoraleLost(unit=unit_id, points=taken, cause=cause))
    return Loss(before, before - taken, points - taken)


def regain_points(tx: Tx, unit_id: str, points: int, cause: str, up_to: int | None = None) -> int:
    """Give a tested unit back up to ``points``, never above ``up_to`` (by default its
    first points; "Untested units cannot regain the unknown"); returns how many it
    regained."""
    u = tx.state.units[unit_id]
    now, first = morale_of(u), first_points(u)
    if now is None or first is None:
        return 0
    cap = first if up_to is None else up_to
    given = max(0, min(points, cap - now))
    if given:
        tx.emit(MoraleRegained(unit=unit_id, points=given, cause=cause, up_to=up_to))
    return given


@dataclass(frozen=True, slots=True)
class MoraleTest:
    """A morale test: the die's ``roll``, the ``total`` with modifiers, and the verdict."""

    roll: int
    total: int
    need: int
    passed: bool


def morale_test(tx: Tx, die: Distribution, need: int, purpose: str,
                modifiers: Sequence[int] = ()) -> MoraleTest:
    """Roll ``die``, add ``modifiers``; passed when the total reaches ``need`` ("roll
    1D6 ... excellent = 2+, good = 3+, poor = 5+")."""
    roll = tx.roll(die, purpose)
    total = roll + sum(modifiers)
    return MoraleTest(roll, total, need, total >= need)


# --- how the narrative tells them (core/narration.py) ---------------------------------------


@tells(MoraleDetermined)
def _tell_determined(n: Narrating, e: MoraleDetermined, dice: Sequence[DiceRolled]) -> Sentence:
    return (f"{n.label(e.unit)} is tested for the first time ({humanise(e.cause)}): "
            f"{plural(e.points, 'morale point')}"), "status"


@tells(MoraleRegained)
def _tell_regained(n: Narrating, e: MoraleRegained, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} regains {plural(e.points, 'morale point')} ({humanise(e.cause)})", "status"
