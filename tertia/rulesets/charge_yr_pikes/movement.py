"""Movement (section 5, Tables and Charts, Terrain 16 D-G).

A unit that passed its command response moves up to its allowance: the movement table's
line for its troop type (dragoons on foot move as musketeers), by the formation it starts
in (5 D: "The formation a unit is in at the start of the move determines the move
distance"): a square its square move, a column its road move when "the unit ... spend[s]
its entire movement marching on the road", every other its normal move. A disordered unit
loses the fraction of its move ``tables.toml [disorder.penalties]`` gives (17: "penalties
in ... movement"). Distance is the length of the path of the unit's centre; turning and
changing formation cost nothing (5 C: "There are no penalties for changing order,
formations, or frontage").

Ground (16 D-G; only towns survive in the text, the rest is ``tables.toml [terrain]``)
costs a fixed number of inches, or dice rolled when the unit moves, for each kind of
ground the path enters, leaves or crosses (a hill: for each climb to higher ground). A
unit whose dice take more than the path left it stops where its allowance runs out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tertia.core.terrain import Battlefield
from tertia.rules.movement import MovePlan
from tertia.rulesets.charge_yr_pikes.data import COLUMN, SQUARE, CypUnit
from tertia.rulesets.charge_yr_pikes.tables import GroundCost, MoveLine, Tables
from tertia.rulesets.charge_yr_pikes.troops import TROOPS

LINEAR = frozenset({"hedge", "wall", "fence", "stream"})
"""Ground crossed rather than entered."""
HILL = "hill"


AS_FOOT: Final = "foot"
"""The movement line of a crew without its gun (14 D, 15 G: "as an foot unit", "as infantry")."""


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
