"""Routing Units: hit limits with cover, river and support, and immediate reassessment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tertia.core.events import UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rules.measuring import iter_enemy_troops_within, within
from tertia.rulesets.larger_battles.profile import profile

SUPPORT_RANGE = 3.0
"""Support: similar units within 3" (the author's ruling)."""


@dataclass(frozen=True, slots=True)
class HitLimit:
    """A unit's hit limit now, with the reasons for each increase."""

    base: int
    increases: tuple[str, ...]

    @property
    def value(self) -> int:
        return self.base + len(self.increases)


def is_in_cover(table: Battlefield, unit: Unit, options: Mapping[str, Any]) -> bool:
    """Routing 1, Cover: dragoons in hedged fields or towns (the unit's centre decides).

    With ``dragoon_cover = "fields-broken-and-towns"`` any field or broken ground counts,
    following the Terrain section's wording instead.
    """
    p = (unit.x, unit.y)
    if table.contains_point(TerrainKind.TOWN, p):
        return True
    broad = options["dragoon_cover"] == "fields-broken-and-towns"
    if broad and table.contains_point(TerrainKind.BROKEN, p):
        return True
    return any(
        f.kind is TerrainKind.FIELD and (f.hedged or broad) for f in table.features_at(p)
    )


def is_defending_river(table: Battlefield, state: GameState, unit: Unit) -> bool:
    """Routing 2, Rivers: enemy within combat range, and every such enemy across a river."""
    enemies = list(iter_enemy_troops_within(state, unit, SUPPORT_RANGE))
    return bool(enemies) and all(
        table.crosses_river((unit.x, unit.y), (e.x, e.y)) for e in enemies
    )


def supporters(state: GameState, unit: Unit) -> list[Unit]:
    """Routing 3, Support: similar units (infantry for infantry, cavalry for cavalry) within
    3", engaged or not."""
    mine = profile(unit.kind)
    if not (mine.is_infantry or mine.is_cavalry):
        return []
    return [
        other
        for other in state.iter_troops(unit.side)
        if other.id != unit.id
        and profile(other.kind).word == mine.word
        and within(unit, other, SUPPORT_RANGE)
    ]


def base_limit(unit: Unit, options: Mapping[str, Any]) -> int:
    """The hit limit by troop type alone (Routing Units), before any increase."""
    word = profile(unit.kind).word
    return int(options["hit_limit_" + word]) if word != "commander" else 0


def hit_limit(
    table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]
) -> HitLimit:
    """The number of hits at which ``unit`` routs, as things stand (remembered per state)."""
    key = ("hit_limit", unit.id, id(options))
    found: HitLimit | None = state.recall(key, unit)
    if found is not None:
        return found
    increases: list[str] = []
    if unit.kind is UnitKind.DRAGOONS and is_in_cover(table, unit, options):
        increases.append("cover: dragoons in a town or hedged field")
    if is_defending_river(table, state, unit):
        increases.append("river: every enemy in range is across the river")
    if len(supporters(state, unit)) >= 2:
        increases.append("support: two similar units within 3\"")
    limit = HitLimit(base_limit(unit, options), tuple(increases))
    state.remember(key, unit, SUPPORT_RANGE, limit)
    return limit


def reassess(tx: Tx, options: Mapping[str, Any]) -> None:
    """Routing: "whenever a unit's situation changes ... reassess immediately". Routs can
    cascade (a routed unit no longer supports), so repeat until nothing more routs."""
    while True:
        # Cover, rivers and support only ever raise a limit, so a unit below its base
        # limit cannot rout and needs no closer look.
        routed = [
            u
            for u in tx.state.iter_troops()
            if u.hits and u.hits >= base_limit(u, options)
            and u.hits >= hit_limit(tx.table, tx.state, u, options).value
        ]
        if not routed:
            return
        for u in routed:
            tx.emit(UnitRemoved(unit=u.id, reason="routed", detail=f"{u.hits} hits"))
