"""Dragoons (section 18).

"Dragoons may do any TWO of the following actions during a turn, but not the same thing
twice. 1. Mount or Dismount 2. Move - Mounted or Dismounted 3. Fire if Dismounted. A
charge, mounted or dismounted occupies the entire turn"; "Dragoons may not mount or
dismount if they fail command response. Mounting or dismounting counts as a move for
morale and firing purposes. Dragoons may not fire mounted."

Mounted, a regiment is "six 3-man stands"; dismounted, "four 4-man stands plus two
stands of horse holders" (:data:`~tertia.rulesets.charge_yr_pikes.troops.HORSE_HOLDERS`):
the holders leave the ranks when the regiment gets down and rejoin them when it mounts,
so casualties taken on foot stay lost mounted.
"""

from __future__ import annotations

from tertia.core.state import Unit
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.layout import StandSize, footprint_of
from tertia.rulesets.charge_yr_pikes.troops import HORSE_HOLDERS, TROOPS
from tertia.rulesets.charge_yr_pikes.values import unit_data

MOUNTED_PER_STAND = TROOPS["dragoons"].figures_per_stand
DISMOUNTED_PER_STAND = 4


ACTS = 2
"""Dragoons "may do any TWO of the following actions during a turn"."""


def may_act(own: CypUnit) -> bool:
    """Have dragoons an action left this turn (a charge uses both)?"""
    return own.acts < ACTS


def remounted(unit: Unit, mounted: bool) -> Unit:
    """``unit`` mounted (or on foot), its front edge where it was: the holders rejoin (or
    leave) the ranks and its stands take the other arm's size."""
    own = unit_data(unit)
    if own.other_stand is None:
        raise ValueError(f"{unit.label} has no other stand size to take")
    width, depth = own.other_stand
    if mounted:
        changed = own.evolve(mounted=True, men=own.men + own.holders, holders=0,
                             per_stand=MOUNTED_PER_STAND)
    else:
        holders = min(HORSE_HOLDERS, own.men)
        changed = own.evolve(mounted=False, men=own.men - holders, holders=holders,
                             per_stand=DISMOUNTED_PER_STAND)
    changed = changed.evolve(stand_width=width, stand_depth=depth, acts=own.acts + 1,
                             other_stand=(own.stand_width, own.stand_depth), remounted=True, moved=True)
    w, d = footprint_of(changed, changed.formation, StandSize(width, depth))
    front = unit.base.front_centre()
    fx, fy = front[0] - unit.x, front[1] - unit.y
    scale = (d / 2.0) / (unit.depth / 2.0) if unit.depth else 1.0
    return unit.evolve(x=front[0] - fx * scale, y=front[1] - fy * scale, width=w, depth=d, own=changed)
