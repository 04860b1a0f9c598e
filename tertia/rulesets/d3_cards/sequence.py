"""Sequence of Play: the ten cards (each side's Horse, Foot, Dragoon, Artillery and
Commander) are shuffled together and drawn one at a time; the side whose colour is drawn
activates its units of that type. When every card has been drawn the deck is shuffled
for the next turn."""

from __future__ import annotations

from collections.abc import Callable

from tertia.activation import unit_type_deck as deck
from tertia.core.events import GameDataChanged, GameStarted, PhaseBegan, TurnBegan
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rules.victory import turn_limit_reached
from tertia.rulesets.d3.base import ACTIVATION
from tertia.rulesets.d3.victory import end_game

HasUnits = Callable[[GameState, str, str], bool]
"""Whether a side has anything a card would activate."""


def start_turn(tx: Tx, turn: int, has_units: HasUnits) -> None:
    deck.shuffle(tx, tx.state.sides)
    draw_next(tx, turn, has_units)


def draw_next(tx: Tx, turn: int, has_units: HasUnits) -> None:
    """Draw until a card finds something to activate (a card whose troops are all gone is
    turned over and passed); the deck spent, the turn ends."""
    while True:
        card = deck.draw(tx)
        if card is None:
            end_turn(tx, turn, has_units)
            return
        side, kind = card
        if has_units(tx.state, side, kind):
            break
        tx.emit(deck.TypeCardDrawn(side=side, kind=kind, idle=True))
    if tx.state.first_side is None:
        tx.emit(GameStarted(first_side=side))
    tx.emit(TurnBegan(turn=turn, side=side))
    tx.emit(PhaseBegan(phase=ACTIVATION))
    tx.emit(GameDataChanged(key=ACTIVATION, value={"side": side, "card": kind}))
    tx.emit(deck.TypeCardDrawn(side=side, kind=kind))


def end_activation(tx: Tx, has_units: HasUnits) -> None:
    tx.emit(GameDataChanged(key=ACTIVATION, value=None))
    draw_next(tx, tx.state.turn, has_units)


def end_turn(tx: Tx, turn: int, has_units: HasUnits) -> None:
    limit = int(tx.state.value("turn_limit"))
    if turn >= limit:
        end_game(tx, turn_limit_reached(limit))
        return
    start_turn(tx, turn + 1, has_units)
