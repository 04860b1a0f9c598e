"""Morale points under Declare Thee Sir (Game Mechanics 3): tested when first needed, the
level they make, an attached general's point, and the morale check.

"General stands don't check for morale points. Other units start the game untested. A
unit's morale points are determined when it is first fired upon, melees, or is called for
by an event card." "A general stand attached to a unit adds one morale point (up to 4) to
that unit."

Where the general's point is kept (option ``general_point``, kept with the game's
readings):

- ``while_attached`` (the default): his point counts while he is attached. A unit first
  tested with a general attached rolls its own points (its original level, ``morale_max``)
  and he adds one; a general joining a tested unit adds one; either only up to 4 (none is
  added to a unit at 4, nor later). When he leaves it (rides off, is left where he stood,
  is captured) the unit loses his point, never below none; with two generals attached the
  point stays while either does. When fire kills him, "the general was the morale point
  lost": the point the volley took was his, and nothing more is taken. The unit marks the
  point it holds (``general_point``), and resting may regain up to its own level and his
  point while he is attached.
- ``first_roll``: he adds his point when the unit's points are first rolled (with a general
  attached then, to at most 4), and it is part of the unit's points and of its original
  level from then on; joining or leaving a tested unit changes nothing.

Points are lost like any other, his with the rest; when fire kills the general under
either reading nothing more is taken (:mod:`~tertia.rulesets.declare_thee_sir.fire`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6, summed
from tertia.core.events import DiceRolled, Event
from tertia.core.narration import Narrating, Sentence, of, tells
from tertia.core.reducer import handles
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
from tertia.rulesets.declare_thee_sir.readings import (
    BEFORE,
    FIRE_CHART,
    GENERAL_POINT,
    WHILE_ATTACHED,
    of_game,
)
from tertia.rulesets.declare_thee_sir.values import unit_data

MOST_POINTS = 4
"""Morale: "adds one morale point (up to 4)"; no unit ever has more."""


def points_table(unit: Unit) -> PointsTable:
    """Morale: 1D6 for most units (1 = 1 point ... 6 = 4), "Artillery is 1D6; 1-2 = 1
    point, 3+ = 2 points"."""
    return DECLARE_ARTILLERY if unit_data(unit).is_gun else DECLARE_FOOT


def attached_general(state: GameState, unit_id: str) -> str | None:
    """The general in play attached to ``unit_id`` (the first by id if several), if any."""
    return _first_attached(state).get(unit_id)


def _first_attached(state: GameState) -> dict[str, str]:
    """Each unit's first general in play attached to it (by id), found once for a state
    (which never changes): the doctrine asks it of every charge it weighs."""
    found: dict[str, str] | None = state.cache.get(_FIRST_ATTACHED)
    if found is None:
        found = {}
        for u in attached_pieces(state):
            to = unit_data(u).attached_to
            assert to is not None  # what attached_pieces holds
            first = found.get(to)
            found[to] = u.id if first is None else min(first, u.id)
        state.cache[_FIRST_ATTACHED] = found
    return found


_FIRST_ATTACHED = ("declare-thee-sir", "first attached general")


def attached_pieces(state: GameState) -> tuple[Unit, ...]:
    """The generals in play attached to a unit, in play order: kept from one position to
    the next, each change of a piece testing only that piece again."""
    return state.pieces_where(_ATTACHED, _is_attached)


def _is_attached(unit: Unit) -> bool:
    own = unit_data(unit)
    return own.is_general and own.attached_to is not None


_ATTACHED = ("declare-thee-sir", "generals attached")


@dataclass(frozen=True, slots=True)
class GeneralPointChanged(Event):
    """``general``'s morale point with ``unit`` (option ``general_point`` ``while_attached``):
    ``points`` 1, he adds it; -1, he has left and the unit loses it (never below none); 0,
    it goes with him and nothing is taken (killed by fire: "the general was the morale point
    lost")."""

    type: ClassVar[str] = "dts_general_point"
    unit: str
    general: str
    points: int


@handles(GeneralPointChanged)
def _general_point(s: GameState, e: GeneralPointChanged) -> GameState:
    u = s.units[e.unit]
    morale = max(0, min(MOST_POINTS, (morale_of(u) or 0) + e.points))
    return s.with_unit(u.evolve(morale=morale, general_point=e.points > 0))


@tells(GeneralPointChanged)
def _tell_general_point(n: Narrating, e: GeneralPointChanged, dice: Sequence[DiceRolled]) -> Sentence:
    if e.points > 0:
        return f"{n.label(e.general)} adds a morale point to {n.label(e.unit)}", "status"
    if e.points < 0:
        return f"{n.label(e.unit)} loses {of('morale point', n.label(e.general))}", "loss"
    return f"{n.label(e.general)} was {of('morale point', n.label(e.unit))} lost", "loss"


def while_attached(state: GameState) -> bool:
    """Is the game played with a general's point counted while he is attached?"""
    return bool(of_game(state, GENERAL_POINT) == WHILE_ATTACHED)


def tested(tx: Tx, unit_id: str, cause: str) -> int:
    """``unit_id``'s morale points, rolled now if it is untested (one D6, logged), with an
    attached general's point added (to at most 4): kept apart from the points rolled while
    he is attached, or part of them (see the module's note)."""
    unit = tx.state.units[unit_id]
    if unit_data(unit).is_general:
        raise ValueError(f"{unit_id} is a general: general stands don't check for morale points")
    table = points_table(unit)
    if morale_of(unit) is not None or attached_general(tx.state, unit_id) is None:
        return ensure_tested(tx, unit_id, table, cause)
    if while_attached(tx.state):
        ensure_tested(tx, unit_id, table, cause)
        follow_generals(tx, unit_id)
        return morale_of(tx.state.units[unit_id]) or 0
    rolled = table.points_for(tx.roll(table.die, f"morale points: {unit.label}"))
    points = min(MOST_POINTS, rolled + 1)
    tx.emit(MoraleDetermined(unit=unit_id, points=points, cause=f"{cause} (with a general attached)"))
    return points


def follow_generals(tx: Tx, unit_id: str | None, gone: str = "", *, fell: bool = False) -> None:
    """Under ``while_attached``: ``unit_id`` holds a general's point exactly while a general
    is attached to it (and it is tested and in play): one who has joined adds his point
    (if the unit is below 4); when the last has ``gone`` it loses the point (nothing, when
    he ``fell`` to fire: the volley's point was his)."""
    unit = tx.state.units.get(unit_id) if unit_id is not None else None
    if unit is None or unit_data(unit).is_general or not while_attached(tx.state):
        return
    general = attached_general(tx.state, unit.id)
    has, points = unit_data(unit).general_point, morale_of(unit)
    if general is not None and not has and unit.in_play and points is not None and points < MOST_POINTS:
        tx.emit(GeneralPointChanged(unit=unit.id, general=general, points=1))
    elif has and general is None and unit.in_play:
        tx.emit(GeneralPointChanged(unit=unit.id, general=gone, points=0 if fell else -1))


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
    unit's level, the points it cost and whether the unit routed. The dice and the result
    are the record's (``RECORD``): what follows a check reads only the rest."""

    RECORD: ClassVar[tuple[str, ...]] = ("dice", "result")
    unit: str
    dice: tuple[int, int]
    result: str
    points_lost: int
    routed: bool


def morale_check(tx: Tx, unit_id: str, cause: str) -> MoraleCheck:
    """Movement: "Units that move or rout through another unit cause a moral check (one
    musketry roll) on each unit involved." As musketry (4c) with no modifiers: doubles or
    a 7 cost a point; then the sum on the Melee Chart for the unit's level (after that
    point, or before it: option ``fire_chart``, as for musketry) costs another on a ROUT.
    Morale: "A unit with poor morale that loses another point to ... a morale check
    routs". A step of its own (:meth:`~tertia.core.ruleset.Tx.apart`): what follows reads
    only the points it cost and whether the unit routed."""
    return tx.apart(_checked, unit_id, cause)


def _checked(tx: Tx, unit_id: str, cause: str) -> MoraleCheck:
    """:func:`morale_check` itself."""
    tested(tx, unit_id, cause)
    label = tx.state.units[unit_id].label
    first, second = two_dice(tx, f"morale check: {label}")
    before = level_of(tx.state.units[unit_id])
    lost, routed = 0, False
    if first == second or summed(first, second) == 7:
        loss = lose_points(tx, unit_id, 1, cause)
        lost, routed = lost + loss.before - loss.after, routed or loss.beyond > 0
    level = before if of_game(tx.state, FIRE_CHART) == BEFORE else level_of(tx.state.units[unit_id])
    result = chart_result(summed(first, second), level)
    if is_rout(result):
        loss = lose_points(tx, unit_id, 1, cause)
        lost, routed = lost + loss.before - loss.after, routed or loss.beyond > 0
    return MoraleCheck(unit_id, (first, second), result, lost, routed)
