"""Sequence of Play: each turn the sides order their command cards face down, roll for
the initiative (D6 + the commander's value) and then alternate, each turning over its top
card; the units of that command move, shoot and melee. When both have played every
card, a new turn begins."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tertia.activation import command_cards as cards
from tertia.core.events import GameDataChanged, GameStarted, Narrated, PhaseBegan, TurnBegan
from tertia.core.narration import side_verbs
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.hits import piece
from tertia.rules.victory import turn_limit_reached
from tertia.rulesets.d3.base import ACTIVATION
from tertia.rulesets.d3.cohesion import move_back, strays
from tertia.rulesets.d3.victory import end_game
from tertia.rulesets.d3_commands import clauses
from tertia.rulesets.d3_commands.organisation import (
    COHESION_RADIUS,
    cohesion_group,
    current_cards,
    holds_card,
)

side_verbs("win", "turn")  # the notes "<side> win the initiative", "<side> turn over their ... card"

VALUE_SCALES = {"0-1-2": (0, 1, 2), "1-2-3": (1, 2, 3), "none": (0, 0, 0)}
"""What a poor (0), average (1) and veteran (2) commander adds to the initiative roll."""
VETERAN = 2


def shuffled_sides(state: GameState, options: Mapping[str, Any]) -> list[str]:
    """Solo games: the sides whose cards are shuffled rather than ordered."""
    choice = str(options["solo_shuffle"])
    edges = state.value("edges", {})
    if choice == "both":
        return list(state.sides)
    return [s for s in state.sides if edges.get(s) == choice]


def initiative_bonus(state: GameState, options: Mapping[str, Any]) -> dict[str, int]:
    """Each side adds its commander's value on the option's scale; a side whose cards are
    shuffled counts its commander a veteran ("always give a veteran commander"), and a
    side whose commander has fled adds nothing."""
    scale = VALUE_SCALES[str(options["commander_values"])]
    shuffled = shuffled_sides(state, options)
    bonus: dict[str, int] = {}
    for side in state.sides:
        commander = next((u for u in state.iter_units(side) if u.is_commander), None)
        if side in shuffled and options["solo_veteran"]:
            bonus[side] = scale[VETERAN]
        elif commander is not None:
            bonus[side] = scale[max(0, min(VETERAN, piece(commander).value))]
        else:
            bonus[side] = 0
    return bonus


def start_turn(tx: Tx, turn: int, options: Mapping[str, Any]) -> None:
    state = tx.state
    tx.emit(TurnBegan(turn=turn, side=state.sides[0]))
    tx.emit(PhaseBegan(phase="orders"))
    tx.emit(GameDataChanged(key=ACTIVATION, value=None))
    decks = {side: current_cards(tx.state, side) for side in state.sides}
    if not cards.begin_ordering(tx, decks, shuffled_sides(tx.state, options)):
        roll_initiative(tx, options)


def after_order(tx: Tx, action: cards.OrderCards, options: Mapping[str, Any]) -> None:
    if not cards.resolve_order(tx, action):
        roll_initiative(tx, options)


def roll_initiative(tx: Tx, options: Mapping[str, Any]) -> None:
    first = cards.roll_initiative(tx, initiative_bonus(tx.state, options))
    tx.emit(Narrated(text=f"{first} win the initiative ({clauses.INITIATIVE})"))
    if tx.state.first_side is None:
        tx.emit(GameStarted(first_side=first))
    begin_activation(tx, first, options)


def begin_activation(tx: Tx, side: str, options: Mapping[str, Any]) -> None:
    """The side turns over its top card (or the other side, if it has none left)."""
    state = tx.state
    player = side if cards.cards_left(state, side) else state.opponent(side)
    card = cards.play_top_card(tx, player) if cards.cards_left(state, player) else None
    if card is None:
        end_turn(tx, options)
        return
    tx.emit(TurnBegan(turn=tx.state.turn, side=player))
    tx.emit(PhaseBegan(phase=ACTIVATION))
    tx.emit(GameDataChanged(key=ACTIVATION, value={"side": player, "card": card}))
    tx.emit(Narrated(text=f"{player} turn over their {card} command card"))


Impassable = Callable[[Unit], tuple[str, ...]]


def end_activation(tx: Tx, impassable: Impassable, options: Mapping[str, Any]) -> None:
    """The card is done: any unit more than 6" from every unit of its command is moved
    back (breaking off a melee if need be), then the other side plays."""
    enforce_cohesion(tx, impassable)
    side = tx.state.active
    tx.emit(GameDataChanged(key=ACTIVATION, value=None))
    nxt = cards.next_side(tx.state, side)
    if nxt is None:
        end_turn(tx, options)
    else:
        begin_activation(tx, nxt, options)


def enforce_cohesion(tx: Tx, impassable: Impassable) -> None:
    """Commands, 6" rule: "units must be moved to adhere to this rule, including breaking
    off melee". Units of the side that has just acted first, then the other's."""
    active = tx.state.active
    order = sorted(tx.state.iter_troops(), key=lambda u: (u.side != active, u.id))
    for unit in strays(tx.state, order, cohesion_group, COHESION_RADIUS):
        current = tx.state.units[unit.id]
        if not current.in_play or not strays(tx.state, [current], cohesion_group, COHESION_RADIUS):
            continue
        if move_back(tx, current, cohesion_group, COHESION_RADIUS, impassable(current),
                     clauses.COHESION):
            tx.emit(Narrated(text=f"{current.label} is moved back within 6\" of its command "
                                  f"({clauses.COHESION})"))


def end_turn(tx: Tx, options: Mapping[str, Any]) -> None:
    state = tx.state
    limit = int(state.value("turn_limit"))
    if state.turn >= limit:
        end_game(tx, turn_limit_reached(limit))
        return
    start_turn(tx, state.turn + 1, options)


def prune_cards(tx: Tx) -> None:
    """If a command loses all its units, its card leaves the deck at once."""
    for side in tx.state.sides:
        for card in cards.deck(tx.state, side):
            if not holds_card(tx.state, side, card):
                cards.remove_card(tx, side, card)
