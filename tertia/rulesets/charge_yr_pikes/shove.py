"""Routed friends shoved out of a unit's way (Routing 15 A).

"If any unit attempts to move through a routed friendly unit it may do so and the routed
unit is simply shoved out of the way." A unit passes through friends anyway (Formations
C); what this adds is that a routed friend stops neither its move nor its charge, nor
keeps it from ending where the routers stand. Read so: a unit's own move (a move, a
charge, a bonus move or breakthrough) that ends on a routed friend, or a charge whose
path crosses one, shoves it sideways, square to the mover's facing at the end, just far
enough to clear the mover's frontage: to whichever side it goes on the table and onto no
other piece, else the shorter shove on the table. Its front-rank officers and gallopers go
with it; it tests nothing and stays routed. With no room on the table either side the
move is refused. Routers shoved by a rout are the rout's
(:mod:`~tertia.rulesets.charge_yr_pikes.rout`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tertia.core.events import UnitMoved
from tertia.core.geometry import (
    EPSILON,
    Base,
    Polygon,
    bases_overlap,
    bounding_box,
    heading_vector,
    polygons_overlap,
)
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.attached import carry
from tertia.rulesets.charge_yr_pikes.values import unit_data

SHOVED = "shoved aside"


def routers_in_the_way(state: GameState, unit: Unit, areas: Sequence[Polygon]) -> tuple[Unit, ...]:
    """``unit``'s routed friends (not what goes with a unit) whose bases ``areas`` cover:
    only the pieces filed near the areas are looked at (a base they cover is there)."""
    points = [p for area in areas for p in area]
    if not points:
        return ()
    near = state.near(*bounding_box(points), 0.0)
    return tuple(u for u in near if u.side == unit.side and not u.is_commander and u.id != unit.id
                 and unit_data(u).routed and unit_data(u).attached_to is None
                 and any(polygons_overlap(a, u.base.corners()) for a in areas))


def shoved_to(state: GameState, router: Unit, clear_of: Base, table: tuple[float, float],
              ignore: Sequence[str] = ()) -> Base | None:
    """Where ``router`` is shoved clear of ``clear_of``'s frontage (the mover at its end),
    square to its facing; None when neither side leaves it on the table."""
    lx, ly = heading_vector(clear_of.facing + 90.0)
    mine = [x * lx + y * ly for x, y in clear_of.corners()]
    theirs = [x * lx + y * ly for x, y in router.base.corners()]
    options: list[tuple[bool, float, Base]] = []
    for sign, shift in ((1.0, max(mine) - min(theirs)), (-1.0, max(theirs) - min(mine))):
        moved = router.base.moved_to(router.x + sign * lx * shift, router.y + sign * ly * shift)
        if not _on_table(moved, table):
            continue
        crowded = any(bases_overlap(moved, o.base) for o in state.iter_units()
                      if o.id not in (router.id, *ignore) and unit_data(o).attached_to != router.id)
        options.append((crowded, shift, moved))
    return min(options, key=lambda o: (o[0], o[1]))[2] if options else None


def without_room(state: GameState, unit: Unit, end: Base, areas: Sequence[Polygon],
                 table: tuple[float, float]) -> Unit | None:
    """The first routed friend in ``unit``'s way (``areas``) that cannot be shoved clear
    of it standing at ``end``, if any."""
    return next((r for r in routers_in_the_way(state, unit, areas)
                 if shoved_to(state, r, end, table, (unit.id,)) is None), None)


def shove_aside(tx: Tx, unit_id: str, areas: Sequence[Polygon]) -> list[str]:
    """Shove the routed friends whose bases ``areas`` (the mover's path, or its end) cover
    out of ``unit_id``'s way, it standing at its end; returns them."""
    unit = tx.state.units[unit_id]
    table = (tx.table.width, tx.table.depth)
    shoved: list[str] = []
    for router in routers_in_the_way(tx.state, unit, areas):
        place = shoved_to(tx.state, router, unit.base, table, (unit_id,))
        if place is None:
            continue
        before = (router.x, router.y)
        tx.emit(UnitMoved(unit=router.id, path=(before, place.centre), facing=router.facing, reason=SHOVED))
        carry(tx, router.id, before, SHOVED)
        shoved.append(router.id)
    return shoved


def _on_table(base: Base, table: tuple[float, float]) -> bool:
    width, depth = table
    return all(-EPSILON <= x <= width + EPSILON and -EPSILON <= y <= depth + EPSILON
               for x, y in base.corners())
