"""Where a unit stands and what lies between it and its enemy: the ground each D3 text
counts as cover. A unit is *in* a piece of ground when its centre is; a hedge or
entrenchment lies *between* two units when the line joining their centres crosses it, and
shelters only the unit that holds it (:func:`holds`)."""

from __future__ import annotations

from collections.abc import Sequence

import shapely
from shapely.geometry import LineString

from tertia.core.state import Unit
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.rulesets.d3.troops import is_clubmen

WOODS, FIELDS, TOWN, HEDGE, ENTRENCHMENT, HILL, CLUBMEN = (
    "woods", "fields", "town", "hedge", "entrenchment", "defending a hill", "Clubmen count as in cover",
)
"""The kinds of cover a rule set may count, in the words its modifiers use."""


def stands_in(table: Battlefield, kind: str, unit: Unit) -> bool:
    return table.contains_point(kind, (unit.x, unit.y))


def holds(features: Sequence[TerrainFeature], holder: Unit, enemy: Unit, charger: str | None) -> bool:
    """``holder`` is inside or behind one of ``features`` against ``enemy`` outside it;
    ``features`` are those whose bounding boxes meet the box about both centres (see
    :func:`between`), nothing else can.

    Inside: the holder's centre is in an area (a field, a redoubt) and the enemy's is
    not; an enemy inside the same area takes it away. Behind: the line between the two
    centres crosses the feature with neither inside it; then the unit that was charged
    holds it (``charger`` names whichever of the two charged the other), and with no
    charge between them (shooting) the unit whose centre is nearer to it."""
    if not features:
        return False
    me, them = shapely.Point(holder.x, holder.y), shapely.Point(enemy.x, enemy.y)
    line = LineString(((enemy.x, enemy.y), (holder.x, holder.y)))
    for f in features:
        shape = f.geometry
        if not f.is_linear:
            mine, theirs = bool(shape.covers(me)), bool(shape.covers(them))
            if mine or theirs:
                if mine and not theirs:
                    return True
                continue
        if not bool(line.intersects(shape)):
            continue
        if charger is not None:
            if charger == enemy.id:
                return True
            continue
        if float(shape.distance(me)) < float(shape.distance(them)):
            return True
    return False


def between(table: Battlefield, kinds: tuple[str, ...], a: Unit, b: Unit) -> list[TerrainFeature]:
    """The features of ``kinds`` whose bounding boxes meet the box about the centres of
    ``a`` and ``b`` (the table keeps each feature's box): a cheap first cut."""
    return table.features_near(kinds, (a.x, a.y), (b.x, b.y))


def is_behind_hedge(table: Battlefield, attacker: Unit, target: Unit, charger: str | None) -> bool:
    """Hedges cover defenders in melee: the target holds a hedge against its attacker
    (inside a hedged field, or behind a hedge line) and did not charge it."""
    if charger == target.id:
        return False
    found = [f for f in between(table, _HEDGED, target, attacker)
             if f.kind is TerrainKind.HEDGE or (f.kind is TerrainKind.FIELD and f.hedged)]
    return holds(found, target, attacker, charger)


_HEDGED = (TerrainKind.HEDGE, TerrainKind.FIELD)
"""The kinds of ground a hedge may bound: hedge lines, and fields (when hedged)."""


def is_entrenched(table: Battlefield, attacker: Unit, target: Unit, charger: str | None) -> bool:
    """Entrenchments cover a unit inside or behind the works against enemies outside."""
    if not table.has(TerrainKind.ENTRENCHMENT):
        return False
    works = [f for f in between(table, (TerrainKind.ENTRENCHMENT,), target, attacker)
             if f.kind is TerrainKind.ENTRENCHMENT]
    return holds(works, target, attacker, charger)


def is_defending_hill(table: Battlefield, attacker: Unit, target: Unit) -> bool:
    """The target stands higher on a hill than its attacker."""
    return table.hill_level((target.x, target.y)) > table.hill_level((attacker.x, attacker.y))


def cover(
    table: Battlefield, attacker: Unit, target: Unit, kinds: Sequence[str], charger: str | None = None
) -> str | None:
    """The first of ``kinds`` of cover that shelters ``target`` from ``attacker`` (each
    rule set lists the kinds its text counts, for shooting and for melee); None in the
    open. ``charger``: in a melee, whichever of the two charged the other. The ground's
    answer depends on the two centres and who charged whom alone, so the table remembers
    it (:meth:`~tertia.core.terrain.Battlefield.recall`)."""
    kinds = tuple(kinds)
    charged = 0 if charger is None else 1 if charger == attacker.id else 2 if charger == target.id else 3
    key = ("d3 cover", kinds, attacker.x, attacker.y, target.x, target.y, charged, is_clubmen(target))
    return table.recall(key, lambda: _first_cover(table, attacker, target, kinds, charger))


def _first_cover(table: Battlefield, attacker: Unit, target: Unit, kinds: tuple[str, ...],
                 charger: str | None) -> str | None:
    """:func:`cover`, measured on the ground."""
    for kind in kinds:
        if kind == WOODS:
            found = stands_in(table, TerrainKind.WOODS, target)
        elif kind == FIELDS:
            found = stands_in(table, TerrainKind.FIELD, target)
        elif kind == TOWN:
            found = stands_in(table, TerrainKind.TOWN, target)
        elif kind == HEDGE:
            found = is_behind_hedge(table, attacker, target, charger)
        elif kind == ENTRENCHMENT:
            found = is_entrenched(table, attacker, target, charger)
        elif kind == HILL:
            found = is_defending_hill(table, attacker, target)
        elif kind == CLUBMEN:
            found = is_clubmen(target)
        else:
            raise ValueError(f"no such kind of cover: {kind!r}")
        if found:
            return kind
    return None
