"""How a Charge yr Pikes! unit stands in each formation, and so its footprint.

The text fixes no layout; these follow what it implies. Foot in line stand two ranks deep
("Formations of musketeers up to two ranks deep may all fire"), pike in the centre and
shot on the wings; horse and mounted dragoons in line stand in one rank. A column is two
stands abreast (horse: one). A square ("Squares", foot only) is as near square as its
stands allow, facing all round. Deployed troops (in towns and works) and a routed mass
stand as a line. A gun is one stand.

>>> from tertia.rulesets.charge_yr_pikes.data import CypUnit
>>> from tertia.rulesets.charge_yr_pikes.troops import FOOT, TROOPS
>>> size = STAND_SIZES
>>> footprint_of(CypUnit.of(FOOT), "line", size["foot"])
(4.0, 1.5)
>>> footprint_of(CypUnit.of(FOOT), "column", size["foot"])
(2.0, 3.0)
>>> footprint_of(CypUnit.of(TROOPS["horse"]), "line", size["horse"])
(6.25, 1.25)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tertia.rules.formations import Formation, footprint
from tertia.rulesets.charge_yr_pikes.data import COLUMN, SQUARE, CypUnit


@dataclass(frozen=True, slots=True)
class StandSize:
    width: float
    depth: float


STAND_SIZES: dict[str, StandSize] = {
    "foot": StandSize(1.0, 0.75),
    "horse": StandSize(1.25, 1.25),
    "artillery": StandSize(1.5, 2.0),
    "officer": StandSize(1.0, 1.0),
}
"""A stand's frontage and depth in inches by arm, for 25 mm figures ("Armies of little
soldiers"; the text gives no basing): four foot a stand, three horse. A scenario gives its
own in ``[extensions."charge-yr-pikes".stands]``."""


def arm_of(own: CypUnit) -> str:
    """Which stand size a unit uses: its officers', guns', horse's (dragoons mounted) or
    foot's (dragoons on foot too)."""
    if own.is_officer:
        return "officer"
    if own.is_gun or own.troop == "wagons":
        return "artillery"
    if own.troop in ("horse", "lobsters", "scots_horse") or (own.troop == "dragoons" and own.mounted):
        return "horse"
    return "foot"


def formation_of(own: CypUnit, formation: str) -> Formation:
    """The layout of ``own``'s stands in ``formation``."""
    stands = max(1, own.stands_left)
    mounted = arm_of(own) == "horse"
    if formation == COLUMN:
        return Formation(COLUMN, 1 if mounted else 2)
    if formation == SQUARE:
        return Formation(SQUARE, max(1, math.isqrt(stands - 1) + 1), all_round=True)
    return Formation(formation, None if mounted else max(1, math.ceil(stands / 2)))


def footprint_of(own: CypUnit, formation: str, size: StandSize) -> tuple[float, float]:
    """A unit's (width, depth) in ``formation`` with stands of ``size``."""
    if own.is_officer or own.is_gun or own.troop == "wagons":
        return size.width, size.depth
    return footprint(formation_of(own, formation), max(1, own.stands_left), size.width, size.depth)
