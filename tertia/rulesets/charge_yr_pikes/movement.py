"""Movement (section 5, Tables and Charts, Terrain 16 D-G).

A unit that passed its command response moves up to its allowance: the movement table's
line for its troop type (dragoons on foot move as musketeers), by the formation it starts
in (5 D: "The formation a unit is in at the start of the move determines the move
distance"): a square its square move, a column its road move when "the unit ... spend[s]
its entire movement marching on the road", every other its normal move. A disordered unit
loses the fraction of its move ``tables.toml [disorder.penalties]`` gives (17: "penalties
in ... movement"). Changing formation costs nothing (5 C: "There are no penalties for
changing order, formations, or frontage").

Measuring (5 B: "All measuring for distance is made from the center of the line, or the
center of the front of the head of a column, or the center of mass of a square"): a move
is the length of the path of the unit's reference point (:func:`reference_point`), the
centre of its front edge in line or column, its centre in a square. Chosen for the
formations the clause does not name: a unit deployed in a town or works and a routed
"unformed mass" are measured from the centre, as a square (neither has a front); guns,
wagons and officers stand in line and are measured from their front. A move (the
engine's: a pivot on the spot, a slide through waypoints, a pivot at the end) is measured
the shorter of two ways (:func:`measured_length`): as it is given, the reference point
swinging round the unit's centre in each pivot (nothing for a square, half the depth
times the angle turned for a line) and then going the slide's legs; or, for a move of one
leg that turns, as the wheel that carries the unit there about the one point it leaves in
place, the reference point's arc about that point (a wheel about a flank: half the
frontage times the angle). So a wheel costs what the front centre travels, and a turn on
the spot what the front centre swings. Moves straight ahead or back without turning
(falling back, routs, the pursuit, plunderers riding off) cost the same measured from any
point, the centre included. Charges: :mod:`~.charge_path`.

Distances between two units (a tertia's 6", the gunners' support within 4", friends within
6" of a router, the artillery's 12" of clear space, holding a point within 3") stay base
edge to base edge: they are gaps, and measured from a reference point units touching side
by side would stand farther apart than their frontage. Fire is measured as its own rules
say (musketry from the front centre of each firing stand to the nearest part of the
target). The command radius is measured to the unit's reference point
(:func:`~.command.in_command_radius`).

Ground (16 D-G; only towns survive in the text, the rest is ``tables.toml [terrain]``)
costs a fixed number of inches, or dice rolled when the unit moves, for each kind of
ground the path enters, leaves or crosses (a hill: for each climb to higher ground). A
unit whose dice take more than the path left it stops where its allowance runs out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from tertia.core.geometry import Base, Point, angle_between
from tertia.core.state import Unit
from tertia.core.terrain import Battlefield
from tertia.rules.movement import MovePlan
from tertia.rulesets.charge_yr_pikes.data import COLUMN, DEPLOYED, ROUTED, SQUARE, CypUnit
from tertia.rulesets.charge_yr_pikes.tables import GroundCost, MoveLine, Tables
from tertia.rulesets.charge_yr_pikes.troops import TROOPS
from tertia.rulesets.charge_yr_pikes.values import unit_data

LINEAR = frozenset({"hedge", "wall", "fence", "stream"})
"""Ground crossed rather than entered."""
HILL = "hill"


AS_FOOT: Final = "foot"
"""The movement line of a crew without its gun (14 D, 15 G: "as an foot unit", "as infantry")."""


MEASURED_FROM_CENTRE = frozenset({SQUARE, DEPLOYED, ROUTED})
"""Formations measured from their centre (5 B: "the center of mass of a square"; deployed
and routed units, which have no front, as a square)."""


def reference_point_of(base: Base, formation: str) -> Point:
    """5 B: the point a unit in ``formation`` standing on ``base`` is measured from: the
    centre of its front edge ("the center of the line", "the center of the front of the
    head of a column"), or its centre ("the center of mass of a square")."""
    return base.centre if formation in MEASURED_FROM_CENTRE else base.front_centre()


def reference_point(unit: Unit) -> Point:
    """5 B: the point ``unit`` is measured from where it stands (:func:`reference_point_of`)."""
    return reference_point_of(unit.base, unit_data(unit).formation)


def swing(base: Base, formation: str) -> float:
    """How far from the unit's centre its reference point lies: the radius it swings on as
    the unit pivots on the spot (half the depth for a line or column, nothing for a
    square)."""
    return math.dist(reference_point_of(base, formation), base.centre)


def turning_cost(plan: MovePlan, formation: str) -> float:
    """Inches the reference point swings in the move's pivots on the spot (at its start
    and at its end)."""
    turned = angle_between(plan.start.facing, plan.after_pivot.facing) + \
        angle_between(plan.after_pivot.facing, plan.end.facing)
    return swing(plan.start, formation) * math.radians(turned)


def wheel_length(plan: MovePlan, formation: str) -> float | None:
    """A move of one leg that turns, read as a wheel: the arc the reference point travels
    about the one point the move leaves in place (None: the move does not turn, or has
    more than one leg)."""
    if len(plan.points) > 2:
        return None
    turn = (plan.end.facing - plan.start.facing + 180.0) % 360.0 - 180.0
    if abs(turn) < 1e-6:
        return None
    fixed = _fixed_point(plan.start.centre, plan.end.centre, turn)
    return math.dist(reference_point_of(plan.start, formation), fixed) * math.radians(abs(turn))


def _fixed_point(c0: Point, c1: Point, turn: float) -> Point:
    """The point a turn of ``turn`` degrees (clockwise, as facings go) that carries ``c0``
    to ``c1`` leaves in place: P with c1 = R(c0 - P) + P, so (I - R) P = c1 - R c0."""
    t = math.radians(turn)
    cos, sin = math.cos(t), math.sin(t)
    # R turns (x, y) clockwise: (x cos + y sin, -x sin + y cos).
    rx, ry = c0[0] * cos + c0[1] * sin, -c0[0] * sin + c0[1] * cos
    bx, by = c1[0] - rx, c1[1] - ry
    a, b, c, d = 1.0 - cos, -sin, sin, 1.0 - cos  # I - R
    det = a * d - b * c
    return ((bx * d - b * by) / det, (a * by - c * bx) / det)


def measured_length(plan: MovePlan, formation: str) -> float:
    """5 B: how far a move takes the unit, measured along its reference point's path: the
    pivots' swings and the slide's legs, or the wheel that gets it there when that is
    shorter."""
    as_given = turning_cost(plan, formation) + plan.length
    wheel = wheel_length(plan, formation)
    return as_given if wheel is None else min(as_given, wheel)


def slide_within(plan: MovePlan, formation: str, inches: float) -> float:
    """How much of the move's slide (its centre's path) a unit with ``inches`` left makes:
    all of it when the move measures no more; else what is left once its turns are paid
    (a unit stopped short by the ground makes its turns and stops on its path)."""
    if measured_length(plan, formation) <= inches + 1e-9:
        return plan.length
    return max(0.0, inches - turning_cost(plan, formation))


def move_type(own: CypUnit) -> str:
    """The movement table's line a unit moves on: a crew that left its gun as foot,
    dragoons on foot on the dismounted dragoons' line, every other by its troop type."""
    if own.abandoned:
        return AS_FOOT
    if own.is_officer:
        return "officer"
    if own.troop == "dragoons" and not own.mounted:
        return "dismounted_dragoons"
    return TROOPS[own.troop].move if own.troop in TROOPS else own.troop


def arm(own: CypUnit) -> str:
    """Which terrain line a unit pays: foot (dragoons on foot too), horse (officers
    too) or artillery (guns and wagons)."""
    if own.is_gun or own.troop == "wagons":
        return "artillery"
    if own.is_officer or own.troop in ("horse", "lobsters", "scots_horse") or \
            (own.troop == "dragoons" and own.mounted):
        return "horse"
    return "foot"


def line_of(tables: Tables, own: CypUnit) -> MoveLine:
    return tables.movement[move_type(own)]  # type: ignore[index]


def allowance(tables: Tables, own: CypUnit, *, on_road: bool) -> float | None:
    """Inches the unit may move this card (None: its type has no move in its
    formation, the text's "N/A")."""
    line = line_of(tables, own)
    if own.formation == SQUARE:
        inches = line.square
    elif own.formation == COLUMN and on_road and line.road is not None:
        inches = line.road
    else:
        inches = line.normal
    if inches is None:
        return None
    if own.disordered:
        return inches * (1.0 - tables.disorder.penalties.move_fraction)
    return float(inches)


def charge_allowance(tables: Tables, own: CypUnit) -> float:
    """A charge's reach: the charge move where the table has one, not for a disordered
    unit ("Charge movement distances* may not be used if the unit is disordered, use
    normal movement distances instead"), else its normal allowance."""
    line = line_of(tables, own)
    if line.charge is not None and not own.disordered:
        return float(line.charge)
    found = allowance(tables, own, on_road=False)
    return 0.0 if found is None else found


@dataclass(frozen=True, slots=True)
class GroundCosts:
    """What the ground on a path costs: fixed ``inches``, ``dice`` D6 to roll, and the
    first kind the unit may not enter at all (``barred``)."""

    inches: int = 0
    dice: int = 0
    barred: str | None = None
    kinds: tuple[str, ...] = ()


def ground_costs(table: Battlefield, tables: Tables, own: CypUnit, plan: MovePlan) -> GroundCosts:
    """The costs of every kind of ground the path meets, once a kind."""
    inches = dice = 0
    met: list[str] = []
    areas = plan.swept()
    side = arm(own)
    for kind, costs in tables.terrain.items():
        if not table.has(kind):
            continue
        cost: GroundCost | None = costs.get(side)  # type: ignore[call-overload]
        if cost is None:
            continue
        hit = table.climbs(plan.points) if kind == HILL else any(table.overlaps(kind, a) for a in areas)
        if not hit:
            continue
        if cost.impassable:
            return GroundCosts(barred=kind)
        inches += cost.inches
        dice += cost.dice
        met.append(kind)
    return GroundCosts(inches, dice, None, tuple(met))
