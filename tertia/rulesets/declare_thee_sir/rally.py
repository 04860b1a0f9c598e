"""Rally (Game Mechanics 6): stopping a rout, breaking off a pursuit, and resting.

b. "A routing unit is allowed a 2D6 roll for each of its current morale levels (poor = 1,
good = 2, excellent = 3 rolls). If a friendly general is within 3 inches of the routing
unit, an additional dice roll is allowed. Doubles rally the routing unit. Its stands begin
moving toward the flag stand to complete rally. When the unit is reassembled around its
colors, it may move freely. Use the sum of the doubles to begin rally move. Routing units
failing to rally use the last dice roll as continued rout movement for the flag stand.
Then roll 2D6 for each routing unit stand's movement."
c. "Units which break pursuit also rally on 2D6 doubles, and use the dice sum as movement
allowance."
d. "A unit may rest and attempt to regain points using the rally option. One 2D6 dice roll
per activation. Doubles regain one morale point. A unit may only regain morale points up
to its original morale level (good = 2, excellent = 4). Untested units cannot regain the
unknown."

Read so: the rolls stop at the first doubles; a rallied unit's stands gather about its
flag at once, in line facing as the unit faced (beside it, where the flag stands so near
the table's edge that the line would go over it), and the doubles' sum is its move this
activation (worked out like any move: a third through difficult ground). A unit that
fails flees on towards its own edge: its flag stand the last roll's sum, each other
stand its own 2D6. Resting regains up to the top of the level first rolled (option
``regain_to``: ``level``, as the text's numbers say; ``points``, up to the points first
rolled), and the point of a general attached while he is (option ``general_point``
``while_attached``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tertia.core.events import StandsGathered
from tertia.core.geometry import Base, base_distance, heading_vector
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rules.formations import footprint
from tertia.rules.involuntary import nearest_clear
from tertia.rules.morale import DECLARE_LEVELS, regain_points
from tertia.rulesets.declare_thee_sir import edge
from tertia.rulesets.declare_thee_sir.data import LINE, DtsUnit
from tertia.rulesets.declare_thee_sir.events import MoveWorkedOut
from tertia.rulesets.declare_thee_sir.points import MOST_POINTS, two_dice
from tertia.rulesets.declare_thee_sir.rout import (
    TWO_D6,
    Flight,
    PursuitChanged,
    UnitRallied,
    flee,
    flight_heading,
)
from tertia.rulesets.declare_thee_sir.stands import LAYOUTS, stands_of
from tertia.rulesets.declare_thee_sir.values import unit_data

ROLLS_BY_LEVEL = {"poor": 1, "good": 2, "excellent": 3}
GENERAL_REACH = 3.0
"""Rally b: a friendly general "within 3 inches" gives another roll."""
LEVEL_TOPS = {"good": 2, "excellent": 4}
"""Rally d: "up to its original morale level (good = 2, excellent = 4)"."""


@dataclass(frozen=True, slots=True)
class RallyAttempt:
    """The 2D6 rolled (in order), whether a pair of doubles came, and the move it gives
    (the doubles' sum) or the flight that followed a failure."""

    unit: str
    rolls: tuple[tuple[int, int], ...]
    rallied: bool
    move: int = 0
    flight: Flight | None = None


def rolls_allowed(state: GameState, unit: Unit) -> int:
    """One roll a morale level (poor 1, good 2, excellent 3), one more for a friendly
    general within 3"."""
    level = DECLARE_LEVELS.name(unit_data(unit).morale or 0)
    general = any(g.kind is UnitKind.COMMANDER and base_distance(g.base, unit.base) <= GENERAL_REACH
                  for g in state.iter_units(unit.side))
    return ROLLS_BY_LEVEL[level] + (1 if general else 0)


def rally_routing(tx: Tx, unit_id: str) -> RallyAttempt:
    """Rally b for a routing unit."""
    unit = tx.state.units[unit_id]
    rolls: list[tuple[int, int]] = []
    for i in range(rolls_allowed(tx.state, unit)):
        a, b = two_dice(tx, f"rally: {unit.label} (roll {i + 1})")
        rolls.append((a, b))
        if a == b:
            gather(tx, unit_id)
            allow_move(tx, unit_id, a + b)
            return RallyAttempt(unit_id, tuple(rolls), True, a + b)
    last = sum(rolls[-1])
    stands = stands_of(tx.state.units[unit_id])
    others = tuple(tx.roll(TWO_D6, f"rout: {unit.label} stand {i + 1}") for i in range(1, len(stands)))
    flight = flee(tx, unit_id, stands, (last, *others), flight_heading(tx.state, unit, None),
                   "failed to rally")
    return RallyAttempt(unit_id, tuple(rolls), False, flight=flight)


def gather(tx: Tx, unit_id: str) -> None:
    """The stands reassemble about the flag, in line, facing as the unit faced; a flag near
    the table's edge has the line formed beside it, wholly on the table, and one with
    another piece where the line would stand has it formed the least way off, clear of
    every piece (:func:`gathering_place`)."""
    unit = tx.state.units[unit_id]
    own = unit_data(unit)
    width, depth = footprint(LAYOUTS[LINE], own.stands_left, own.stand_width, own.stand_depth)
    placed = gathering_place(tx.table, tx.state, unit, Base(unit.x, unit.y, unit.facing, width, depth))
    tx.emit(StandsGathered(unit=unit_id, x=placed.x, y=placed.y, facing=unit.facing, width=width,
                           depth=depth))
    tx.emit(UnitRallied(unit=unit_id))


GATHER_WITHIN = 2.0
"""How far, in the line's own widths, a rallied line may form from its colours to stand
clear of other pieces: among scattered routing stands a width is not always enough."""


def gathering_place(table: Battlefield, state: GameState, unit: Unit, line: Base) -> Base:
    """Where the rallied ``unit``'s ``line`` (about its flag) is formed: wholly on the
    table (:func:`~tertia.rulesets.declare_thee_sir.edge.nudged_on`) and, where another
    piece (troops, not a general) stands in the way, the nearest place clear of every one,
    the line shifted along its front or to its rear (a quarter inch at a time, each no
    further than :data:`GATHER_WITHIN` times its own width:
    :func:`~tertia.rules.involuntary.nearest_clear`); where there is none, about the flag
    as it is."""
    placed = edge.nudged_on(table, line)
    within = GATHER_WITHIN * line.width
    clear = nearest_clear(state, unit.id, placed, heading_vector(line.facing + 90.0),
                          heading_vector(line.facing + 180.0), within, within, (table.width, table.depth))
    return placed if clear is None else clear


def allow_move(tx: Tx, unit_id: str, inches: int) -> None:
    """The rally move: the dice's sum over open ground, a third through difficult."""
    tx.emit(MoveWorkedOut(unit=unit_id, roll=inches, modifiers=(), open=inches,
                          difficult=math.ceil(inches / 3)))


def break_pursuit(tx: Tx, unit_id: str) -> RallyAttempt:
    """Rally c: doubles stop the pursuit, and their sum is the unit's move."""
    unit = tx.state.units[unit_id]
    a, b = two_dice(tx, f"rally from pursuit: {unit.label}")
    if a != b:
        return RallyAttempt(unit_id, ((a, b),), False)
    tx.emit(PursuitChanged(unit=unit_id, target=None))
    allow_move(tx, unit_id, a + b)
    return RallyAttempt(unit_id, ((a, b),), True, a + b)


def regain_cap(first: int, regain_to: str) -> int:
    """The most points a unit first rolled at ``first`` may regain: the top of that level
    (``regain_to`` ``level``: good 2, excellent 4) or ``first`` itself (``points``)."""
    if regain_to == "level":
        return LEVEL_TOPS.get(DECLARE_LEVELS.name(first), first)
    return first


def rest_cap(own: DtsUnit, regain_to: str) -> int:
    """The most points a tested unit may rest up to: :func:`regain_cap` of its first points,
    and one more (to at most 4) while it holds an attached general's point (option
    ``general_point`` ``while_attached``)."""
    assert own.morale_max is not None
    return min(MOST_POINTS, regain_cap(own.morale_max, regain_to) + (1 if own.general_point else 0))


def rest(tx: Tx, unit_id: str, regain_to: str) -> RallyAttempt:
    """Rally d: one 2D6; doubles regain a point, up to the top of the level first rolled
    (``regain_to`` ``level``) or the points first rolled (``points``), with an attached
    general's point (:func:`rest_cap`). An untested unit rolls nothing."""
    unit = tx.state.units[unit_id]
    own = unit_data(unit)
    if own.morale is None or own.morale_max is None:
        return RallyAttempt(unit_id, (), False)
    a, b = two_dice(tx, f"rest: {unit.label}")
    if a != b:
        return RallyAttempt(unit_id, ((a, b),), False)
    cap = rest_cap(own, regain_to)
    if own.morale < cap:
        regain_points(tx, unit_id, 1, "rested", up_to=cap)
    return RallyAttempt(unit_id, ((a, b),), True)
