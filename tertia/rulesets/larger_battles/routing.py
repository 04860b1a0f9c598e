"""Routing Units: hit limits with cover, river and support, and immediate reassessment."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tertia.core.events import UnitRemoved
from tertia.core.narration import plural
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rules.hits import piece
from tertia.rules.measuring import iter_enemy_troops_within, pieces_near, within
from tertia.rulesets.larger_battles.combat import attackers_of, has_fought
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
    """Routing 2, Rivers: "if defending a river and all attacking units are on the opposite
    river bank". A unit that attacked or supported this player turn is not defending. One
    that was attacked this player turn has the bonus when every unit that attacked it
    (primaries and supports) stands across the river, whatever other enemies are near;
    otherwise it holds its bank when there is an enemy within 3" and every one is across
    the river, whichever side's turn it is."""
    if not table.has(TerrainKind.RIVER) or has_fought(state, unit.id):
        return False
    attackers = attackers_of(state, unit.id)
    if attackers:
        here = (unit.x, unit.y)
        return all(
            table.crosses_river(here, (a.x, a.y)) for a in map(state.units.__getitem__, attackers)
        )
    return _holds_bank(table, state, unit)


def _holds_bank(table: Battlefield, state: GameState, unit: Unit) -> bool:
    enemies = list(iter_enemy_troops_within(state, unit, SUPPORT_RANGE))
    return bool(enemies) and all(
        table.crosses_river((unit.x, unit.y), (e.x, e.y)) for e in enemies
    )


def keeps_cover(table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]) -> bool:
    """Routing 1 with Terrain 2 and 3, "Defending Dragoons benefit": dragoons in cover keep
    the +1 unless they attacked or supported this player turn, leaving their cover to fight
    (``dragoon_cover_while = "holding"``); with ``always`` they keep it whenever they are
    there."""
    if unit.kind is not UnitKind.DRAGOONS or not is_in_cover(table, unit, options):
        return False
    return cover_kept(state, unit, options)


def cover_kept(state: GameState, unit: Unit, options: Mapping[str, Any]) -> bool:
    """Do dragoons that are in cover keep it now (see :func:`keeps_cover`)?"""
    return options["dragoon_cover_while"] == "always" or not has_fought(state, unit.id)


def supporters(state: GameState, unit: Unit) -> list[Unit]:
    """Routing 3, Support: similar units (infantry for infantry, cavalry for cavalry) within
    3", engaged or not."""
    return list(iter_supporters(state, unit))


def iter_supporters(state: GameState, unit: Unit) -> Iterator[Unit]:
    """:func:`supporters`, one by one."""
    mine = profile(unit.kind)
    if not (mine.is_infantry or mine.is_cavalry):
        return
    for other in pieces_near(state, unit.base, SUPPORT_RANGE):
        if (other.side == unit.side and not other.is_commander and other.id != unit.id
                and profile(other.kind).word == mine.word and within(unit, other, SUPPORT_RANGE)):
            yield other


def is_supported(state: GameState, unit: Unit) -> bool:
    """Routing 3: "if supported by two similar units" (see :func:`supporters`)."""
    found = iter_supporters(state, unit)
    return next(found, None) is not None and next(found, None) is not None


BASE_LIMITS = ("hit_limit_infantry", "hit_limit_cavalry", "hit_limit_dragoons", "hit_limit_artillery")
"""The options :func:`base_limit` reads."""


def base_limit(unit: Unit, options: Mapping[str, Any]) -> int:
    """The hit limit by troop type alone (Routing Units), before any increase."""
    word = profile(unit.kind).word
    return int(options["hit_limit_" + word]) if word != "commander" else 0


def hit_limit(
    table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]
) -> HitLimit:
    """The number of hits at which ``unit`` routs, as things stand."""
    cover, river, support = _raised(table, state, unit, options)
    increases: list[str] = []
    if cover:
        increases.append("cover: dragoons in a town or hedged field")
    if river:
        increases.append("river: defending it against enemies across")
    if support:
        increases.append("support: two similar units within 3\"")
    return HitLimit(base_limit(unit, options), tuple(increases))


def routs(table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]) -> bool:
    """Does ``unit`` rout now: has it taken its :func:`hit_limit` in hits?"""
    cover, river, support = _raised(table, state, unit, options)
    return piece(unit).hits >= base_limit(unit, options) + int(cover) + int(river) + int(support)


def _raised(
    table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]
) -> tuple[bool, bool, bool]:
    """Whether cover, a river and support each raise ``unit``'s hit limit now."""
    key = ("standing", unit.id, id(options))
    standing: tuple[bool, bool] | None = state.recall(key, unit)
    if standing is None:
        # What depends only on the pieces within 3" (remembered until one of them moves);
        # who fought whom this turn is read fresh below.
        in_cover = unit.kind is UnitKind.DRAGOONS and is_in_cover(table, unit, options)
        standing = (in_cover, is_supported(state, unit))
        state.remember(key, unit, SUPPORT_RANGE, standing)
    in_cover, supported = standing
    cover = in_cover and cover_kept(state, unit, options)
    return cover, is_defending_river(table, state, unit), supported


def at_base_limit(state: GameState, options: Mapping[str, Any]) -> tuple[Unit, ...]:
    """The troops in play with hits at or over their base limit, in play order: the only
    ones that may rout, as cover, rivers and support only ever raise a limit."""
    def test(u: Unit) -> bool:
        hits = piece(u).hits
        return u.kind is not UnitKind.COMMANDER and hits != 0 and hits >= base_limit(u, options)

    key = ("at_base_limit", *(options[name] for name in BASE_LIMITS))
    return state.pieces_where(key, test)


def reassess(tx: Tx, options: Mapping[str, Any]) -> None:
    """Routing: "whenever a unit's situation changes ... reassess immediately". Routs can
    cascade (a routed unit no longer supports), so repeat until nothing more routs."""
    while True:
        routed = [u for u in at_base_limit(tx.state, options) if routs(tx.table, tx.state, u, options)]
        if not routed:
            return
        for u in routed:
            tx.emit(UnitRemoved(unit=u.id, reason="routed", detail=plural(piece(u).hits, "hit")))
