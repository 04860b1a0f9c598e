"""Turns and cards (Game Play): "Events and units are recorded on cards. As cards are drawn,
events may occur and units are activated. When a unit is activated, the units immediate
commander has 30 seconds to declare one of the following six options".

A turn is one pass through the deck: a card for each regiment of foot, battery and general
and two for each regiment of horse (Unit Compositions), shuffled together and drawn one at
a time at random (:mod:`tertia.activation.deck`). When the deck is spent the turn ends
and, unless the scenario's last turn is over, every card of the units still in play is
gathered and shuffled again. The text describes no event card: under the option
``event_cards`` (off by default) a small deck of the rule set's own is shuffled in
(:mod:`~tertia.rulesets.declare_thee_sir.event_cards`). The 30-second limit is for players at a table: the
page may time a declaration, the rules do not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.activation import deck
from tertia.core.events import DecisionAwaited, GameStarted, PhaseBegan, TurnBegan
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rulesets.declare_thee_sir import event_cards, reform, rejoin, victory
from tertia.rulesets.declare_thee_sir.data import ADVANCE_AND_FIRE, FORMATION_CHANGE, OPTIONS, STAND_AND_FIRE
from tertia.rulesets.declare_thee_sir.events import DECLARE, ActivationEnded, UnitActivated
from tertia.rulesets.declare_thee_sir.troops import CARDS
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

PHASE = "activation"


def full_deck(state: GameState, *, events: bool = False) -> tuple[str, ...]:
    """A card for each unit and general in play (two for a regiment of horse), and with
    ``events`` the event cards (:mod:`~tertia.rulesets.declare_thee_sir.event_cards`), in
    a fixed order: the deck as it is gathered before shuffling."""
    return deck.build_deck(sorted((u.id, CARDS[unit_data(u).troop]) for u in state.iter_units()),
                           event_cards.cards(events))


def begin(tx: Tx, options: Mapping[str, Any]) -> None:
    tx.emit(GameStarted(first_side=tx.state.sides[0]))
    start_turn(tx, 1, options)


def start_turn(tx: Tx, turn: int, options: Mapping[str, Any]) -> None:
    tx.emit(TurnBegan(turn=turn, side=tx.state.sides[0]))
    tx.emit(PhaseBegan(phase=PHASE))
    deck.shuffle(tx, full_deck(tx.state, events=bool(options.get("event_cards"))))
    draw_next(tx, options)


def options_for(unit: Unit, *, reformable: bool = True) -> tuple[str, ...]:
    """The options a unit's commander may declare (Game Play): a general moves or stays
    (he neither changes formation, fires nor rallies); a routing unit rallies or routs on
    (defer); a pursuing unit tries to break off by rallying, or pursues on (defer); every
    other unit has all six, but those that fire when its powder is damp (an event card),
    and a formation change unless it has one it can carry out (``reformable``: see
    :func:`declarable`)."""
    own = unit_data(unit)
    if own.is_general:
        return ("advance", "defer")
    if own.routing or own.pursuing is not None:
        return ("rally", "defer")
    shut = {ADVANCE_AND_FIRE, STAND_AND_FIRE} if own.damp_powder else set()
    if not reformable:
        shut.add(FORMATION_CHANGE)
    return tuple(o for o in OPTIONS if o not in shut)


def declarable(table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]
               ) -> tuple[str, ...]:
    """The options open to ``unit``'s commander as its card is drawn (:func:`options_for`):
    "Once an option is declared, the commander proceeds to determine its execution", so a
    formation change is open only when the unit has one it can carry out where it stands,
    judged by the test of the change itself
    (:func:`~tertia.rulesets.declare_thee_sir.reform.can_reform`)."""
    return options_for(unit, reformable=reform.can_reform(table, state, unit, options))


def draw_next(tx: Tx, options: Mapping[str, Any]) -> None:
    """Draw cards until one activates a unit in play, then await its commander's
    declaration; a spent deck ends the turn. An event card is carried out as it is drawn
    (the option ``event_cards``). A forlorn hope that must rejoin its regiment
    falls back on its card, and the next is drawn (Optional Rules a)."""
    while not tx.state.is_over:
        card = deck.draw(tx)
        if card is None:
            end_turn(tx, options)
            return
        if event_cards.is_event(card):
            event_cards.play(tx, card, options)
            if victory.check(tx, options):
                return
            continue
        unit = tx.state.units.get(deck.read_card(card).name)
        if unit is None or not unit.in_play:
            continue
        tx.emit(UnitActivated(side=unit.side, unit=unit.id, card=card))
        if rejoin.falls_back(tx.state, unit):
            # Optional Rules a: "it will attempt to rejoin": not its commander's to declare.
            rejoin.fall_back(tx, unit.id)
            tx.emit(ActivationEnded(unit=unit.id))
            continue
        tx.emit(DecisionAwaited(side=unit.side, kind=DECLARE,
                                context={"unit": unit.id,
                                         "options": list(declarable(tx.table, tx.state, unit, options))}))
        return


def end_activation(tx: Tx, options: Mapping[str, Any]) -> None:
    """The activated unit is done: forlorn hopes that must rejoin their regiments and can
    do so now go back into them, the battle is checked for a decision, then the next card
    is drawn."""
    unit = game_data(tx.state).activated
    if unit is not None:
        tx.emit(ActivationEnded(unit=unit))
        if tx.state.units[unit].in_play and unit_data(tx.state.units[unit]).damp_powder:
            tx.emit(event_cards.PowderSpoiled(unit=unit, damp=False))
    rejoin.settle(tx, str(options.get("forlorn_rejoin", rejoin.MARCH)))
    if victory.check(tx, options):
        return
    tx.action_over()  # the next card begins the play that follows
    draw_next(tx, options)


def end_turn(tx: Tx, options: Mapping[str, Any]) -> None:
    """The deck is spent: an objective held that ends the battle ends it, as does the
    scenario's last turn; otherwise the next turn begins."""
    if victory.at_turn_end(tx, options):
        return
    if tx.state.turn >= game_data(tx.state).turn_limit:
        victory.at_turn_limit(tx, options)
    else:
        start_turn(tx, tx.state.turn + 1, options)
