"""Terrain 1 and 4: the ground no unit may enter, with the clause that forbids it."""

from __future__ import annotations

from tertia.core.terrain import TerrainKind
from tertia.rulesets.larger_battles import clauses

IMPASSABLE: dict[str, str] = {
    TerrainKind.WOODS: clauses.WOODS,
    TerrainKind.MARSH: clauses.MARSH,
    TerrainKind.LAKE: clauses.MARSH,
}
