"""Morale points under Declare Thee Sir (Game Mechanics 3): tested when first needed, the
level they make, an attached general's point, and the morale check.

"General stands don't check for morale points. Other units start the game untested. A
unit's morale points are determined when it is first fired upon, melees, or is called for
by an event card." "A general stand attached to a unit adds one morale point (up to 4) to
that unit."

Where the general's point is kept: it is added when the unit's points are first rolled
(with a general attached then, to at most 4), and so it is part of the unit's points and
of its original level from then on. It is lost like any other point; when fire kills the
general, "the general was the morale point lost": the point the volley took was his, and
nothing more is taken (:mod:`~tertia.rulesets.declare_thee_sir.fire`). A general who joins
or leaves a tested unit is the attaching rule's business (not here).
"""

from __future__ import annotations

from dataclasses import dataclass

from tertia.core.dice import D6
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.morale import (
    DECLARE_ARTILLERY,
    DECLARE_FOOT,
    DECLARE_LEVELS,
    MoraleDetermined,
    PointsTable,
    ensure_tested,
    lose_points,
    morale_of,
)
from tertia.rulesets.declare_thee_sir.chart import chart_result, is_rout
from tertia.rulesets.declare_thee_sir.data import unit_data

MOST_POINTS = 4
"""Morale: "adds one morale point (up to 4)"; no unit ever has more."""


def points_table(unit: Unit) -> PointsTable:
    """Morale: 1D6 for most units (1 = 1 point ... 6 = 4), "Artillery is 1D6; 1-2 = 1
    point, 3+ = 2 points"."""
    return DECLARE_ARTILLERY if unit_data(unit).is_gun else DECLARE_FOOT


def attached_general(state: GameState, unit_id: str) -> str | None:
    """The general in play attached to ``unit_id`` (the first by id if several), if any."""
    found = sorted(u.id for u in state.iter_units()
                   if unit_data(u).is_general and unit_data(u).attached_to == unit_id)
    return found[0] if found else None


def tested(tx: Tx, unit_id: str, cause: str) -> int:
    """``unit_id``'s morale points, rolled now if it is untested (one D6, logged), with an
    attached general's point added (to at most 4)."""
    unit = tx.state.units[unit_id]
    if unit_data(unit).is_general:
        raise ValueError(f"{unit_id} is a general: general stands don't check for morale points")
    table = points_table(unit)
    if morale_of(unit) is not None or attached_general(tx.state, unit_id) is None:
        return ensure_tested(tx, unit_id, table, cause)
    rolled = table.points_for(tx.roll(table.die, f"morale points: {unit.label}"))
    points = min(MOST_POINTS, rolled + 1)
    tx.emit(MoraleDetermined(unit=unit_id, points=points, cause=f"{cause} (with a general attached)"))
    return points


def level_of(unit: Unit) -> str:
    """"A unit with 3 or 4 points has excellent morale, a unit with 1 or 2 points has good
    morale, while a unit that has lost all its morale points has poor morale." An untested
    unit has no level yet: test it first."""
    points = morale_of(unit)
    if points is None:
        raise ValueError(f"{unit.id} is untested: it has no morale level yet")
    return DECLARE_LEVELS.name(points)


def is_poor(unit: Unit) -> bool:
    """Tested and at poor morale (an untested unit is not poor: nobody knows it yet)."""
    return morale_of(unit) == 0


def two_dice(tx: Tx, purpose: str) -> tuple[int, int]:
    """2D6 rolled as two dice, so doubles and the unmodified sum can be read."""
    return tx.roll(D6, f"{purpose} (first die)"), tx.roll(D6, f"{purpose} (second die)")


@dataclass(frozen=True, slots=True)
class MoraleCheck:
    """A morale check ("one musketry roll"): the two dice, the chart's result for the
    unit's level, the points it cost and whether the unit routed."""

    unit: str
    dice: tuple[int, int]
    result: str
    points_lost: int
    routed: bool


def morale_check(tx: Tx, unit_id: str, cause: str) -> MoraleCheck:
    """Movement: "Units that move or rout through another unit cause a moral check (one
    musketry roll) on each unit involved." As musketry (4c) with no modifiers: doubles or
    a 7 cost a point; then the sum on the Melee Chart for the unit's level (after that
    point) costs another on a ROUT. Morale: "A unit with poor morale that loses another
    point to ... a morale check routs"."""
    tested(tx, unit_id, cause)
    label = tx.state.units[unit_id].label
    first, second = two_dice(tx, f"morale check: {label}")
    lost, routed = 0, False
    if first == second or first + second == 7:
        loss = lose_points(tx, unit_id, 1, cause)
        lost, routed = lost + loss.before - loss.after, routed or loss.beyond > 0
    result = chart_result(first + second, level_of(tx.state.units[unit_id]))
    if is_rout(result):
        loss = lose_points(tx, unit_id, 1, cause)
        lost, routed = lost + loss.before - loss.after, routed or loss.beyond > 0
    return MoraleCheck(unit_id, (first, second), result, lost, routed)
