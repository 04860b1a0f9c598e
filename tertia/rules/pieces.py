"""The first checks of any action naming pieces: do they exist, are they in play, are the
acting side's pieces its own."""

from __future__ import annotations

from tertia.core.state import GameState
from tertia.core.violations import CoreCode, Violation


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
            return [Violation(CoreCode.NOT_YOUR_UNIT,
                              f"{u.label} belongs to {u.side}; it is {state.to_act}'s turn", rule)]
    return []
