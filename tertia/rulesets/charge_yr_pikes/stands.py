"""Where each stand of a Charge yr Pikes! unit stands and what it carries.

The stands fill the unit's footprint (:func:`~tertia.rulesets.charge_yr_pikes.layout.footprint_of`):
the same formation (:func:`~tertia.rulesets.charge_yr_pikes.layout.formation_of`) lays
them out rank by rank from the front, each stand as wide as the footprint's width over
the stands abreast and as deep as its depth over the ranks.

What each carries, read so (the text fixes no layout):

- a regiment of pike and shot stands its pikes nearest the centre and its shot about
  them: in line the pike in the centre files and the shot on the wings, two ranks deep;
  in column the shot lead and close the column ("sleeves" before and behind the pike);
  in a square the pike in the middle, the shot on the faces;
- casualties gather on one stand of a weapon ("consolodate casualties ... onto one
  stand"), and a player puts that stand at the back: the full stands of a weapon take its
  front places;
- a square faces all round: each stand faces out from the square's centre (one in the
  very centre faces the unit's way); the stands on its faces are its first rank;
- musketeers, highlanders and dismounted dragoons are all shot; horse and mounted
  dragoons stand in one rank; a gun or an officer is one stand, the whole base.

>>> from tertia.core.state import Unit, UnitKind
>>> from tertia.rulesets.charge_yr_pikes.data import CypUnit
>>> from tertia.rulesets.charge_yr_pikes.troops import FOOT
>>> foot = Unit("f", "a", UnitKind.FOOT, "t", 10.0, 10.0, 0.0, 4.0, 1.5, own=CypUnit.of(FOOT))
>>> [(s.weapon, s.rank) for s in stands_of(foot)][:4]
[('shot', 0), ('pike', 0), ('pike', 0), ('shot', 0)]
>>> [(s.base.x, s.base.y) for s in stands_of(foot)][4:]
[(8.5, 9.625), (9.5, 9.625), (10.5, 9.625), (11.5, 9.625)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from tertia.core.geometry import Base, bearing
from tertia.core.state import Unit
from tertia.rules.formations import stand_bases
from tertia.rulesets.charge_yr_pikes.data import SQUARE, CypUnit
from tertia.rulesets.charge_yr_pikes.layout import formation_of
from tertia.rulesets.charge_yr_pikes.values import unit_data

PIKE = "pike"
SHOT = "shot"
HORSE = "horse"
GUN = "gun"
OFFICER = "officer"


@dataclass(frozen=True, slots=True)
class Stand:
    """One stand: its ``base``, what it carries (``weapon``), its ``rank`` (0: the
    front), whether it is at ``full`` strength (a casualty stand is not) and where it
    stands in the unit (``right``, ``forward`` from the unit's centre)."""

    base: Base
    weapon: str
    rank: int
    full: bool
    right: float
    forward: float


def weapon_of_men(own: CypUnit) -> str:
    """What a unit's ``men`` carry: horse (horse, mounted dragoons), a gun's crew, or
    muskets (dragoons on foot)."""
    if own.is_officer:
        return OFFICER
    if own.is_gun or own.troop == "wagons":
        return GUN
    return HORSE if own.mounted or own.troop != "dragoons" else SHOT


def stands_of(unit: Unit) -> tuple[Stand, ...]:
    """``unit``'s stands, front rank first and left to right (within a rank)."""
    own = unit_data(unit)
    return _laid_out(unit.base, own.formation, own.pike, own.shot, own.men, own.per_stand,
                     weapon_of_men(own), own.is_officer or own.is_gun or own.troop == "wagons")


LAID_OUT_KEPT = 256
"""Units' stands :func:`stands_of` remembers: a unit is laid out again for every line of
fire measured from or to it, while it stands where it is. A battle lays out a couple of
hundred (Edgehill: 210 in three battles, 95.1% of the asks remembered by 128, 95.3% by
any number); a server playing 64 battles at once, 570 in five minutes of 40 players,
where 256 keep 95.4% of the asks remembered (every one, 96.3%). Each holds its stands,
about 5 KiB: 256 hold 1.3 MiB, where 4,096 grew by 0.65 MiB a minute under that load,
towards 20 MiB."""


@lru_cache(maxsize=LAID_OUT_KEPT)
def _laid_out(base: Base, formation_name: str, pike: int, shot: int, men: int, per_stand: int,
              men_carry: str, single: bool) -> tuple[Stand, ...]:
    if single:
        return (Stand(base, men_carry, 0, men > 0, 0.0, 0.0),)
    own = CypUnit(pike=pike, shot=shot, men=men, per_stand=per_stand)
    count = max(1, own.stands_left)
    formation = formation_of(own, formation_name)
    across, ranks = formation.abreast(count), formation.ranks(count)
    width, depth = base.width / across, base.depth / ranks
    bases = stand_bases(base.x, base.y, base.facing, formation, count, width, depth)
    places = [base.to_local(b.centre) for b in bases]
    square = formation_name == SQUARE
    rank_of = [_square_rank(places, i, width, depth) if square else i // across for i in range(count)]
    # Pike nearest the centre, then shot, then men; within a weapon the full stands first.
    central = sorted(range(count), key=lambda i: (round(math.hypot(*places[i]), 6), i))
    carried: dict[int, tuple[str, bool]] = {}
    start = 0
    for weapon, figures in ((PIKE, pike), (SHOT, shot), (men_carry, men)):
        stands = -(-figures // per_stand) if per_stand else 0
        mine = sorted(central[start:start + stands], key=lambda i: (rank_of[i], i))
        whole = figures // per_stand if per_stand else 0
        for k, i in enumerate(mine):
            carried[i] = (weapon, k < whole)
        start += stands
    out: list[Stand] = []
    for i, b in enumerate(bases):
        weapon, full = carried.get(i, (men_carry, False))
        if square and math.hypot(*places[i]) > 1e-6:
            b = Base(b.x, b.y, bearing(base.centre, b.centre), b.width, b.depth)
        out.append(Stand(b, weapon, rank_of[i], full, places[i][0], places[i][1]))
    return tuple(out)


def _square_rank(places: list[tuple[float, float]], i: int, width: float, depth: float) -> int:
    """A square's first rank is its outer stands (on its faces); those within, its second."""
    right, forward = places[i]
    edge_right = max(abs(p[0]) for p in places)
    edge_forward = max(abs(p[1]) for p in places)
    outer = abs(right) >= edge_right - width / 2.0 or abs(forward) >= edge_forward - depth / 2.0
    return 0 if outer else 1


def stand_ahead(stands: tuple[Stand, ...], i: int) -> int | None:
    """The stand in front of stand ``i`` in its file (the rank before, nearest across);
    None for a front-rank stand."""
    me = stands[i]
    ahead = [j for j, s in enumerate(stands) if s.rank == me.rank - 1]
    if not ahead:
        return None
    return min(ahead, key=lambda j: (abs(stands[j].right - me.right), j))
