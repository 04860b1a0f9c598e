"""The table's edge, for pieces moved without their commander's choosing.

The text's only way off the table is the rout's: "When routed off a table edge, a unit is
removed from play" (a routing stand over the edge is lost,
:mod:`~tertia.rulesets.declare_thee_sir.rout`). A move or a formation change the player
places is refused when it would leave the table. Everything else stops at the edge and
stays in play: a push-back under the default reading (option ``push_off_table``,
:mod:`~tertia.rulesets.declare_thee_sir.pushback`), a pursuer, an evading caracole, a
charger, the stands of a rallied unit gathering about their colours; a general whose unit
would carry him over the edge is left where he stood, on his own (Movement: "Attached
generals move with unit or are left stationary").

A piece stopped by the edge stands a hair (:data:`MARGIN`) inside it, so that the
position kept (to six decimals) never lies beyond it.

>>> from tertia.core.terrain import Battlefield
>>> room(Base(10.0, 3.0, 0.0, 4.0, 2.0), 180.0, Battlefield(width=48, depth=36))
1.999999
"""

from __future__ import annotations

from collections.abc import Collection

from tertia.core.geometry import EPSILON, Base, heading_vector
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rules import involuntary
from tertia.rules.involuntary import Interpenetration, Slide, plan_slide

MARGIN = EPSILON
"""How far inside the edge a piece stopped by it stands."""
STEP = 0.25
"""How finely a slide that must clear a friend before the edge is cut back."""


def on_table(table: Battlefield, base: Base) -> bool:
    """Does ``base`` lie wholly on the table (to the contact tolerance)?"""
    return involuntary.on_table(base, (table.width, table.depth))


def room(base: Base, heading: float, table: Battlefield) -> float:
    """How far ``base`` may slide along ``heading`` and stay wholly on the table, stopping
    :data:`MARGIN` short of the edge (0 when it cannot move that way at all)."""
    dx, dy = heading_vector(heading)
    most = float("inf")
    for x, y in base.corners():
        for at, d, edge in ((x, dx, table.width), (y, dy, table.depth)):
            if d > 1e-12:
                most = min(most, (edge - at) / d)
            elif d < -1e-12:
                most = min(most, at / -d)
    return max(0.0, most - MARGIN)


def keep_on(table: Battlefield, state: GameState, piece: Unit, slide: Slide, policy: Interpenetration,
            *, ignore: Collection[str] = ()) -> Slide:
    """``slide`` (of ``piece``, from its start) cut back to stop at the table's edge, or
    short of a friend it could not clear before the edge."""
    if not slide.off_table:
        return slide
    wanted = min(slide.distance, room(slide.start, slide.heading, table))
    while True:
        again = plan_slide(state, piece, heading=slide.heading, distance=wanted, policy=policy,
                           table=(table.width, table.depth), base=slide.start, ignore=ignore)
        if not again.off_table or wanted <= EPSILON:
            return again
        wanted = max(0.0, wanted - STEP)  # it went on to clear a friend standing at the edge


def nudged_on(table: Battlefield, base: Base) -> Base:
    """``base`` moved the least way that puts it wholly on the table (as it is when it is)."""
    return involuntary.placed_on_table(base, (table.width, table.depth), MARGIN)
