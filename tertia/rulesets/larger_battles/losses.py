"""How to Win: the troop units each side brought and has lost, counted for the 6 points
an army "reduced by more than half" gives its enemy, and for the page's tally."""

from __future__ import annotations

from tertia.core.state import GameState, UnitKind


def troops_at_start(state: GameState, side: str) -> list[str]:
    """The troop units ``side`` began with (commanders are not units of the army's count)."""
    return [
        u.id for u in state.iter_units(side, include_removed=True)
        if u.kind is not UnitKind.COMMANDER
    ]


def units_lost(state: GameState, side: str) -> int:
    """Troop units of ``side`` out of play: routed, or lost raiding supplies."""
    lost = 0
    for u in state.iter_units(side, include_removed=True):
        if u.kind is not UnitKind.COMMANDER and u.removed is not None:
            lost += 1
    return lost
