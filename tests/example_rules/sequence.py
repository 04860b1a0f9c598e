"""Turns, the card deck and activations of the example slice (Declare Thee Sir, Game Play:
"As cards are drawn, events may occur and units are activated")."""

from __future__ import annotations

from tertia.activation import deck
from tertia.core.events import (
    DecisionAwaited,
    GameEnded,
    GameStarted,
    Narrated,
    PhaseBegan,
    TurnBegan,
)
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, UnitKind
from tests.example_rules.data import (
    ASSIGN_FREE_MOVE,
    CARDS,
    FREE_MOVE,
    ActivationEnded,
    UnitActivated,
    free_move_of,
    game_data,
)

PHASE = "cards"

TURN_LIMIT = "turn limit"
"""Why a battle ends as its last turn is played."""

NO_UNITS_LEFT = "a side has no units left"
"""Why a battle ends when a side has no troops left."""


def troops(state: GameState, side: str) -> list[str]:
    """The side's units in play that have cards (commanders have none in this slice)."""
    return sorted(u.id for u in state.iter_troops(side))


def full_deck(state: GameState) -> tuple[str, ...]:
    """A card for each unit in play (two for cavalry), and each side's free-move card."""
    units = [(u.id, CARDS.get(u.kind, 1)) for u in state.iter_troops() if u.kind is not UnitKind.COMMANDER]
    specials = [deck.special_card(FREE_MOVE, side) for side in state.sides if troops(state, side)]
    return deck.build_deck(sorted(units), specials)


def begin(tx: Tx) -> None:
    tx.emit(GameStarted(first_side=tx.state.sides[0]))
    start_turn(tx, 1)


def start_turn(tx: Tx, turn: int) -> None:
    """Gather and shuffle every card; each side secretly gives its free-move card to one
    of its units (both asked at once, the first side first)."""
    tx.emit(TurnBegan(turn=turn, side=tx.state.sides[0]))
    tx.emit(PhaseBegan(phase=PHASE))
    deck.shuffle(tx, full_deck(tx.state))
    for side in tx.state.sides:
        units = troops(tx.state, side)
        if units:
            tx.emit(DecisionAwaited(side=side, kind=ASSIGN_FREE_MOVE, context={"units": units}))
    if not tx.state.decisions:
        draw_next(tx)


def end_activation(tx: Tx) -> None:
    unit = game_data(tx.state).activated
    if unit is not None:
        tx.emit(ActivationEnded(unit=unit))
    tx.action_over()  # the next card begins the play that follows
    draw_next(tx)


def draw_next(tx: Tx) -> None:
    """Draw until a card activates a unit in play; a spent deck ends the turn."""
    while not tx.state.is_over:
        if ended(tx):
            return
        card = deck.draw(tx)
        if card is None:
            end_turn(tx)
            return
        face = deck.read_card(card)
        if face.kind == deck.UNIT:
            unit = tx.state.units.get(face.name)
        else:
            assigned = free_move_of(tx.state, face.side or "")
            unit = tx.state.units.get(str(assigned)) if assigned is not None else None
        if unit is None or not unit.in_play:
            tx.emit(Narrated(text=f"The {face.name.replace('_', ' ')} card has no unit to move"))
            continue
        tx.emit(UnitActivated(side=unit.side, unit=unit.id, card=card))
        return


def end_turn(tx: Tx) -> None:
    if tx.state.turn >= game_data(tx.state).turn_limit:
        finish(tx, TURN_LIMIT)
    else:
        start_turn(tx, tx.state.turn + 1)


def ended(tx: Tx) -> bool:
    """The battle ends when a side has no units left."""
    if all(troops(tx.state, side) for side in tx.state.sides):
        return False
    finish(tx, NO_UNITS_LEFT)
    return True


def finish(tx: Tx, reason: str) -> None:
    """A point for each enemy unit routed or lost; the higher score wins."""
    state = tx.state
    score = {
        side: sum(1 for u in state.iter_units(state.opponent(side), include_removed=True)
                  if not u.in_play and u.kind is not UnitKind.COMMANDER)
        for side in state.sides
    }
    a, b = state.sides
    winner = None if score[a] == score[b] else (a if score[a] > score[b] else b)
    tx.emit(GameEnded(winner=winner, score=score, reason=reason, breakdown={}))
