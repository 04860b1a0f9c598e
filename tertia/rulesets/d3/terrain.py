"""Where a unit stands and what lies between it and its enemy: the ground each D3 text
counts as cover. A unit is *in* a piece of ground when its centre is; a hedge or
entrenchment lies *between* two units when the line joining their centres crosses it."""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import LineString

from tertia.core.state import Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rulesets.d3.troops import is_clubmen

WOODS, FIELDS, TOWN, HEDGE, ENTRENCHMENT, HILL, CLUBMEN = (
    "woods", "fields", "town", "hedge", "entrenchment", "defending a hill", "Clubmen count as in cover",
)
"""The kinds of cover a rule set may count, in the words its modifiers use."""


def stands_in(table: Battlefield, kind: TerrainKind, unit: Unit) -> bool:
    return table.contains_point(kind, (unit.x, unit.y))


def is_behind_hedge(table: Battlefield, attacker: Unit, target: Unit) -> bool:
    """A hedge between them: a hedge line, or the edge of a hedged field, crosses the line
    from the attacker's centre to the target's."""
    a, b = (attacker.x, attacker.y), (target.x, target.y)
    if table.has(TerrainKind.HEDGE) and table.line_crosses((TerrainKind.HEDGE,), a, b):
        return True
    hedged = [f for f in table.features if f.kind is TerrainKind.FIELD and f.hedged]
    if not hedged:
        return False
    line = LineString((a, b))
    return any(bool(line.intersects(f.geometry.boundary)) for f in hedged)


def is_entrenched(table: Battlefield, attacker: Unit, target: Unit) -> bool:
    """The target stands in an entrenchment the attacker is not in, or one lies between."""
    if not table.has(TerrainKind.ENTRENCHMENT):
        return False
    if stands_in(table, TerrainKind.ENTRENCHMENT, target):
        return not stands_in(table, TerrainKind.ENTRENCHMENT, attacker)
    a, b = (attacker.x, attacker.y), (target.x, target.y)
    return table.line_crosses((TerrainKind.ENTRENCHMENT,), a, b)


def is_defending_hill(table: Battlefield, attacker: Unit, target: Unit) -> bool:
    """The target stands higher on a hill than its attacker."""
    return table.hill_level((target.x, target.y)) > table.hill_level((attacker.x, attacker.y))


def cover(table: Battlefield, attacker: Unit, target: Unit, kinds: Sequence[str]) -> str | None:
    """The first of ``kinds`` of cover that shelters ``target`` from ``attacker`` (each
    rule set lists the kinds its text counts, for shooting and for melee); None in the
    open."""
    tests = {
        WOODS: lambda: stands_in(table, TerrainKind.WOODS, target),
        FIELDS: lambda: stands_in(table, TerrainKind.FIELD, target),
        TOWN: lambda: stands_in(table, TerrainKind.TOWN, target),
        HEDGE: lambda: is_behind_hedge(table, attacker, target),
        ENTRENCHMENT: lambda: is_entrenched(table, attacker, target),
        HILL: lambda: is_defending_hill(table, attacker, target),
        CLUBMEN: lambda: is_clubmen(target),
    }
    return next((kind for kind in kinds if tests[kind]()), None)
