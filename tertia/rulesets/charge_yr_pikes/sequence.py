"""The sequence of play (section 3, A to L) and the brigade cards' turn (A).

A turn begins with the movement phase: both armies' brigade cards shuffled together
(:mod:`~tertia.rulesets.charge_yr_pikes.cards`) are turned over one at a time; each card's
units test command response (:mod:`~tertia.rulesets.charge_yr_pikes.command`) and those
that pass may move and change formation until their side ends the card. The
"Officers & Artillery" card moves the officers in no unit's front rank (who need no
response) and the field and heavy guns (which test); on a "free move" card the
commander-in-chief names a tertia, which tests and moves as on its own card. With Horse
and Foot cards (``[cards] by_arm``) each tertia's units on the card test as on the
tertia's own card, and horse back from plunder come back on the Horse card.

The fire, close combat, morale and army phases (C to L) follow the movement phase
(:mod:`~tertia.rulesets.charge_yr_pikes.phases`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.activation import deck
from tertia.core.events import DecisionAwaited, GameStarted, PhaseBegan, TurnBegan
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes import artillery, concealment, phases, plunder, secret_grades
from tertia.rulesets.charge_yr_pikes.actions import FREE_MOVE
from tertia.rulesets.charge_yr_pikes.cards import (
    ARM_CARDS,
    HORSE,
    OFFICERS_AND_ARTILLERY,
    brigade_deck,
    card_label,
    moved_by,
    tertia_of,
    tertias,
)
from tertia.rulesets.charge_yr_pikes.cards import FREE_MOVE as FREE_MOVE_CARD
from tertia.rulesets.charge_yr_pikes.command import dice_for, respond, response_table
from tertia.rulesets.charge_yr_pikes.disorder import dress_ranks
from tertia.rulesets.charge_yr_pikes.events import CardDone, CardPlayed, CommandResponded, change
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

MOVEMENT = "movement"


def begin(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> None:
    """Officers' values are rolled (section 22, with the option officer_grades), then the
    first turn begins, or (option secret_deployment) the armies deploy in secret first."""
    tx.emit(GameStarted(first_side=tx.state.sides[0]))
    if options.get("officer_grades", True):
        roll_grades(tx, tables)
    if options.get("secret_deployment", True):
        concealment.begin_deployment(tx)  # the first turn begins when both sides are deployed
        return
    start_turn(tx, tables, 1, options)


def roll_grades(tx: Tx, tables: Tables) -> None:
    """Section 22 A: "randomly assign values to officers ... with a D6 roll" on the line
    of the officer's rank (a staff officer counts as a brigadier), each under the note
    (:mod:`~tertia.rulesets.charge_yr_pikes.secret_grades`); an officer whose grade the
    scenario fixes keeps it, known to both sides."""
    for officer in list(tx.state.iter_units()):
        own = unit_data(officer)
        if own.is_officer and own.grade is None:
            secret_grades.roll_grade(tx, officer.id, tables)


def start_turn(tx: Tx, tables: Tables, turn: int, options: Mapping[str, Any]) -> None:
    tx.emit(TurnBegan(turn=turn, side=tx.state.sides[0]))
    tx.emit(PhaseBegan(phase=MOVEMENT))
    for unit in list(tx.state.iter_units()):
        change(tx, unit.id, "a new turn", moved=False, remounted=False, acts=0)
    artillery.note_places(tx)
    deck.shuffle(tx, brigade_deck(tx.state, tables.cards))
    draw_next(tx, tables, options)


def draw_next(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> None:
    """Turn over cards until one gives its side something to do; a spent deck ends the
    movement phase."""
    graded = bool(options.get("officer_grades", True))
    while not tx.state.is_over:
        card = deck.draw(tx, "turn over a brigade card")
        if card is None:
            end_turn(tx, tables, options)
            return
        side = deck.read_card(card).side or tx.state.sides[0]
        tx.emit(CardPlayed(card=card, side=side))
        name = deck.read_card(card).name
        if name == FREE_MOVE_CARD:
            choices = tertias(tx.state, side)
            if choices:
                tx.emit(DecisionAwaited(side=side, kind=FREE_MOVE, context={"tertias": list(choices)}))
                return
        elif name == OFFICERS_AND_ARTILLERY:
            officers_and_guns(tx, tables, card, graded=graded)
        elif name in ARM_CARDS:
            arm_card(tx, tables, card, graded=graded)
        else:
            respond_for(tx, tables, card, name, list(moved_by(tx.state, card)), graded=graded)
            plunder.come_back(tx, tables, card, side, name)
        if game_data(tx.state).moving or answered_unseen(tx.state, card):
            return
        tx.emit(CardDone(card=card))


def answered_unseen(state: GameState, card: str) -> bool:
    """Were the card's command responses rolled out of the enemy's sight (a piece it may
    move hidden from the enemy, :mod:`~.concealment`)? Its side is then given the card even
    when none obeyed, to end it itself: the card ending at once would tell the enemy that
    none did, and so something of the hidden officers' values (section 22)."""
    hidden = concealment.hidden_pieces(state)
    return bool(hidden) and any(u.id in hidden for u in moved_by(state, card))


def respond_for(tx: Tx, tables: Tables, card: str, tertia: str, units: list[Unit], *, graded: bool) -> None:
    """Command response for a tertia's units; an officer in a unit's front rank moves with
    it when it may."""
    side = deck.read_card(card).side or tx.state.sides[0]
    troops = [u for u in units if not unit_data(u).is_officer]
    dice = dice_for(tx.state, side, tertia, game_data(tx.state).wings, troops)
    own = deck.group_card(tertia, side)
    label = card_label(tx.state, own)
    if card != own:  # a free move, Officers & Artillery or an arm's card: both named
        label = f"{card_label(tx.state, card)}, {label}"
    respond(tx, card, dice, response_table(tables, graded=graded), graded=graded, label=label)


def officers_and_guns(tx: Tx, tables: Tables, card: str, *, graded: bool) -> None:
    """The Officers & Artillery card: officers move without a test; each tertia's guns
    test command response as their tertia does."""
    pieces = moved_by(tx.state, card)
    officers = tuple(u.id for u in pieces if unit_data(u).is_officer)
    if officers:
        tx.emit(CommandResponded(card=card, officer=None, units=officers, face=0, obeyed=True))
    guns: dict[str, list[Unit]] = {}
    for u in pieces:
        if not unit_data(u).is_officer:
            guns.setdefault(u.command, []).append(u)
    for tertia, units in guns.items():
        respond_for(tx, tables, card, tertia, units, graded=graded)


def arm_card(tx: Tx, tables: Tables, card: str, *, graded: bool) -> None:
    """A Horse or Foot card (Dragoons 18 B): each tertia's units on it test command
    response as on the tertia's own card; on the Horse card, horse back from plunder
    come back ("Cavalry returns next move on its card")."""
    side = deck.read_card(card).side or tx.state.sides[0]
    by_tertia: dict[str, list[Unit]] = {}
    for u in moved_by(tx.state, card):
        by_tertia.setdefault(tertia_of(tx.state, u), []).append(u)
    for tertia, units in by_tertia.items():
        respond_for(tx, tables, card, tertia, units, graded=graded)
    if deck.read_card(card).name == HORSE:
        away = {u.command for u in tx.state.iter_units(side, include_removed=True) if u.removed is not None}
        for tertia in sorted(away):
            plunder.come_back(tx, tables, card, side, tertia)


def end_card(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> None:
    """The side is done with the card in play: the next is turned over."""
    card = game_data(tx.state).card
    if card is not None:
        dress_ranks(tx, tables)
        stand_still(tx)
        tx.emit(CardDone(card=card))
    tx.action_over()
    draw_next(tx, tables, options)


def stand_still(tx: Tx) -> None:
    """Movement 5 E: units that could move on this card and did not "are treated as
    'Standing' for fire & morale regardless of any movement on earlier moves" (dragoons
    that mounted or dismounted this turn have moved, Dragoons 18 B)."""
    g = game_data(tx.state)
    for unit_id in g.moving:
        unit = tx.state.units.get(unit_id)
        if unit is not None and unit.in_play and unit_id not in g.moved_on_card and \
                not unit_data(unit).remounted:
            change(tx, unit_id, "stands", moved=False)


def end_turn(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> None:
    """The movement phase is over: the phases B to L follow
    (:mod:`~tertia.rulesets.charge_yr_pikes.phases`); when they are over, unless the
    battle is, the next turn begins."""
    if phases.after_movement(tx, tables, options):
        return
    if game_data(tx.state).step is None:
        next_turn(tx, tables, options)


def next_turn(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> None:
    """The turn's phases are over: the next turn begins, unless the battle is over."""
    if not tx.state.is_over:
        start_turn(tx, tables, tx.state.turn + 1, options)
