"""Kinds of ground the hit-counting rule sets give a meaning (``larger-battles``,
``d3-commands``, ``d3-cards``): woods, towns, fields and hedged fields, broken ground,
marsh, lakes, hills, rivers with their fords and bridges, roads, hedges and entrenchments.
Walls, fences, streams, ploughed and rough ground are not in their texts, so a scenario
placing them is refused under those rule sets."""

from __future__ import annotations

from tertia.core.terrain import TerrainKind

SHIPPED_TERRAIN = frozenset({
    TerrainKind.WOODS, TerrainKind.TOWN, TerrainKind.FIELD, TerrainKind.BROKEN,
    TerrainKind.MARSH, TerrainKind.LAKE, TerrainKind.HILL, TerrainKind.RIVER, TerrainKind.FORD,
    TerrainKind.BRIDGE, TerrainKind.ROAD, TerrainKind.HEDGE, TerrainKind.ENTRENCHMENT,
})
