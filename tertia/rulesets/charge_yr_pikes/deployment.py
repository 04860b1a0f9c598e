"""Deployment checks of a scenario (Set-up D, Tertias and officers A).

"No troops may be deployed within 12' [12"] of the center of the table save those in
towns, or woods": a unit whose base comes within 12" of the centre line between the two
armies' edges must stand (its centre) in a town or a wood. "Tertias of 3-5 units ...
must be deployed with all units within 6" of one another": each tertia of a side counts
its troop units (guns, which move on the Officers & Artillery card, apart) and they must
form one group, each within 6" of another. The scenario's own order of battle may break
the tertia size where history did (a wing of two regiments): that is reported too, so a
scenario says so by its choices; the checks are run on built-in scenarios by the tests.
"""

from __future__ import annotations

from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rulesets.charge_yr_pikes.cards import on_officers_card

CENTRE_CLEAR = 12.0
"""Set-up D: no troops within 12" of the centre of the table."""
TERTIA_SPAN = 6.0
"""Tertias A: "all units within 6" of one another"."""
TERTIA_SIZE = range(3, 6)
"""Tertias A: "Tertias of 3-5 units"."""
COVER = (TerrainKind.TOWN, TerrainKind.WOODS)


def too_near_the_centre(table: Battlefield, unit: Unit) -> bool:
    """Does ``unit`` stand within 12" of the centre line (the table's middle, between
    the armies' north and south edges) outside a town or wood?"""
    middle = table.depth / 2.0
    near = min(abs(y - middle) for _, y in unit.base.corners())
    crosses = min(y for _, y in unit.base.corners()) <= middle <= max(y for _, y in unit.base.corners())
    if near > CENTRE_CLEAR and not crosses:
        return False
    return not any(table.has(k) and table.contains_point(k, unit.base.centre) for k in COVER)


def tertia_groups(state: GameState, side: str) -> dict[str, list[Unit]]:
    """Each of ``side``'s tertias and its troop units (guns apart)."""
    found: dict[str, list[Unit]] = {}
    for u in state.iter_troops(side):
        if not on_officers_card(u):
            found.setdefault(u.command, []).append(u)
    return found


def together(units: list[Unit]) -> bool:
    """Do ``units`` form one group, each within 6" of another?"""
    if not units:
        return True
    reached = {units[0].id}
    frontier = [units[0]]
    while frontier:
        u = frontier.pop()
        for v in units:
            if v.id not in reached and base_distance(u.base, v.base) <= TERTIA_SPAN + 1e-9:
                reached.add(v.id)
                frontier.append(v)
    return len(reached) == len(units)


def deployment_problems(table: Battlefield, state: GameState) -> list[tuple[str, str]]:
    """(where, what) for each unit deployed too near the centre and each tertia that is
    not 3 to 5 units within 6" of one another."""
    problems: list[tuple[str, str]] = []
    for u in state.iter_troops():
        if too_near_the_centre(table, u):
            problems.append((f"units.{u.id}", f"{u.label} is deployed within {CENTRE_CLEAR:g}\" of the "
                             "centre of the table outside a town or wood (Set-up D)"))
    for side in state.sides:
        for tertia, units in tertia_groups(state, side).items():
            if len(units) not in TERTIA_SIZE:
                problems.append((f"units.{units[0].id}.command", f"tertia {tertia!r} of {side} has "
                                 f"{len(units)} units, not 3 to 5 (Tertias and officers A)"))
            elif not together(units):
                problems.append((f"units.{units[0].id}.command", f"tertia {tertia!r} of {side} is not "
                                 "deployed with all its units within 6\" of one another "
                                 "(Tertias and officers A)"))
    return problems
