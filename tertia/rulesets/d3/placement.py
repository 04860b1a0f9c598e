"""Where a D3 piece may stand, checked on a scenario's deployment (and on the deployment
procedure's placements in ``d3-commands``): no piece in a marsh, a lake or a river away
from its fords and bridges, only Commanded Shot in woods, and only Infantry, Dragoons and
Commanded Shot in a town (Terrain Effects of both texts)."""

from __future__ import annotations

from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rules.movement import ground_under
from tertia.rulesets.d3.clauses import ClauseBook
from tertia.rulesets.d3.movement import TOWN_ENTRANTS

WHY: dict[str, str] = {
    TerrainKind.MARSH: "marsh is impassable to all units",
    TerrainKind.LAKE: "lakes are impassable to all units",
    TerrainKind.WOODS: "only Commanded Shot may enter woods",
    TerrainKind.TOWN: "only Infantry, Dragoons and Commanded Shot may stand in a town",
    TerrainKind.RIVER: "a river is impassable except at bridges and fords",
}


def closed_ground(unit: Unit, *, commander_in_town: bool) -> tuple[str, ...]:
    """The ground ``unit`` may not stand on (a river apart): marsh and lakes; woods but
    for Commanded Shot; towns but for Infantry, Dragoons, Commanded Shot and, where
    ``commander_in_town``, the commander."""
    closed = [TerrainKind.MARSH, TerrainKind.LAKE]
    if unit.kind is not UnitKind.COMMANDED_SHOT:
        closed.append(TerrainKind.WOODS)
    if unit.kind not in TOWN_ENTRANTS and not (unit.is_commander and commander_in_town):
        closed.append(TerrainKind.TOWN)
    return tuple(closed)


def forbidden_ground(table: Battlefield, unit: Unit, *, commander_in_town: bool) -> str | None:
    """The first ground ``unit``'s base shares area with that it may not stand on (a
    river away from its crossings included); None where it may stand."""
    return ground_under(table, unit.base.corners(), closed_ground(unit, commander_in_town=commander_in_town))


def clause_for(kind: str, clauses: ClauseBook) -> str:
    found: dict[str, str] = {TerrainKind.WOODS: clauses.woods, TerrainKind.TOWN: clauses.towns,
                             TerrainKind.RIVER: clauses.rivers}
    return found.get(kind, clauses.marsh)


def ground_problems(
    table: Battlefield, state: GameState, clauses: ClauseBook, *, commander_in_town: bool
) -> list[tuple[str, str]]:
    """(unit id, reason) for each piece on the table standing where its rule set forbids."""
    found: list[tuple[str, str]] = []
    for u in state.iter_units():
        kind = forbidden_ground(table, u, commander_in_town=commander_in_town)
        if kind is not None:
            what = "the commander" if u.is_commander else u.kind.value.replace("_", " ")
            found.append((u.id, f"{what} deployed in {kind}: {WHY[kind]} "
                                f"({clause_for(kind, clauses)})"))
    return found
