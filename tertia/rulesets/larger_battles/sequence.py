"""Sequence of Play: who moves first, the four phases of a player turn, and the turn limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.events import GameStarted, PhaseBegan, TurnBegan
from tertia.core.ruleset import Tx
from tertia.rules.victory import WIPED_OUT, turn_limit_reached, wiped_out
from tertia.rulesets.larger_battles.routing import reassess
from tertia.rulesets.larger_battles.victory import OBJECTIVE_TAKEN, check_objectives, end_game

PHASES = ("movement", "bombardment", "combat", "routing")


def roll_for_first(tx: Tx) -> str:
    """Neither text says who moves first: both sides roll a D6, re-rolling ties."""
    return tx.roll_off("first move")


def begin(tx: Tx, first: str | None) -> None:
    side = first if first is not None else roll_for_first(tx)
    tx.emit(GameStarted(first_side=side))
    tx.emit(TurnBegan(turn=1, side=side))
    tx.emit(PhaseBegan(phase="movement"))


def end_phase(tx: Tx, options: Mapping[str, Any]) -> None:
    """Finish the current phase; after combat, the routing phase runs at once and the turn
    passes (or the game ends)."""
    phase = tx.state.phase
    nxt = PHASES[PHASES.index(phase) + 1]
    tx.emit(PhaseBegan(phase=nxt))
    if nxt != "routing":
        return
    reassess(tx, options)
    if check_objectives(tx):
        end_game(tx, OBJECTIVE_TAKEN, options)
        return
    state = tx.state
    if wiped_out(state) is not None:
        end_game(tx, WIPED_OUT, options)
        return
    other = state.opponent(state.active)
    if state.active == state.first_side:
        tx.emit(TurnBegan(turn=state.turn, side=other))
    else:
        if state.turn >= int(state.value("turn_limit")):
            end_game(tx, turn_limit_reached(int(state.value("turn_limit"))), options)
            return
        tx.emit(TurnBegan(turn=state.turn + 1, side=other))
    tx.emit(PhaseBegan(phase="movement"))
