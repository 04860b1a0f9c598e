"""The first checks of any action naming pieces: do they exist, are they in play, are the
acting side's pieces its own; and the values a hit-counting rule set keeps for a piece."""

from __future__ import annotations

from typing import cast

from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, Violation, not_own
from tertia.rules.hit_values import NO_HITS, HitsPiece


def piece_problems(
    state: GameState, own: tuple[str, ...], others: tuple[str, ...], rule: str
) -> list[Violation]:
    """Violations for pieces that do not exist or are out of play, and for ``own`` pieces
    that do not belong to the side to act; empty when all is well."""
    for uid in (*own, *others):
        u = state.units.get(uid)
        if u is None:
            return [Violation(CoreCode.UNKNOWN_UNIT, f"there is no unit {uid!r}", rule)]
        if not u.in_play:
            return [Violation(CoreCode.UNIT_REMOVED, f"{u.label} is no longer in play ({u.removed})", rule)]
    for uid in own:
        u = state.units[uid]
        if u.side != state.to_act:
            return [not_own(u, state.to_act, rule)]
    return []


def piece(unit: Unit) -> HitsPiece:
    """``unit``'s hits, ammunition and commander values under a rule set that counts hits
    (:class:`~tertia.rules.hit_values.HitsPiece`; the defaults when it keeps none)."""
    own = unit.own
    return NO_HITS if own is None else cast(HitsPiece, own)
