"""A deck of activation cards: a card for each unit (two for some), special cards beside
them, drawn one at a time at random, gathered and shuffled again when a turn is done.

Served first by Declare Thee Sir (Unit Compositions: "Infantry ... (One card)", "Cavalry
... (Two cards)"; Game Play: "Events and units are recorded on cards. As cards are drawn,
events may occur and units are activated"), and written for Charge yr Pikes!' brigade
cards (a card per tertia, a "free move" card).

Drawing a card at random from those left is the same chance as shuffling the whole deck
first, and leaves nothing hidden in the state: each draw is one die with a purpose
(``d<n>`` over the ``n`` cards left, none when one is left), so replays and exact odds see
every card as it comes (as :mod:`tertia.activation.unit_type_deck` does for d3-cards).

A card is a string: ``unit:<id>`` (``unit:<id>#2`` for a unit's second card),
``group:<group>:<side>`` (a group of a side's units, such as a tertia) or
``special:<name>`` (``special:<name>:<side>`` for one side's). A rule set that uses this
keeps ``deck_left`` (the cards still to draw, in a fixed order) and ``deck_drawn`` (those
drawn, in order) in its game-wide :class:`RuleData <tertia.core.ruledata.RuleData>`, and
may keep ``card``, the card in play, for front ends to show.

>>> build_deck([("p1", 1), ("h1", 2)], [special_card("free_move", "royalist")])
('unit:p1', 'unit:h1', 'unit:h1#2', 'special:free_move:royalist')
>>> read_card("unit:h1#2")
Card(kind='unit', name='h1', side=None, copy=2)
>>> read_card("special:free_move:royalist")
Card(kind='special', name='free_move', side='royalist', copy=1)
>>> read_card(group_card("rupert", "royalist"))
Card(kind='group', name='rupert', side='royalist', copy=1)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.dice import Distribution, die
from tertia.core.events import DiceRolled, Event
from tertia.core.narration import Narrating, Sentence, humanise, plural, possessive, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState

UNIT = "unit"
GROUP = "group"
SPECIAL = "special"


@dataclass(frozen=True, slots=True)
class Card:
    """What a card's string says: a unit's (``name`` is its id) or a special card (``name``
    says which; ``side`` whose, if anyone's); ``copy`` counts a unit's cards from 1."""

    kind: str
    name: str
    side: str | None = None
    copy: int = 1


def unit_card(unit_id: str, copy: int = 1) -> str:
    return f"{UNIT}:{unit_id}" if copy == 1 else f"{UNIT}:{unit_id}#{copy}"


def group_card(group: str, side: str) -> str:
    """The card that moves a group of one side's units (Charge yr Pikes!' tertia card)."""
    return f"{GROUP}:{group}:{side}"


def special_card(name: str, side: str | None = None) -> str:
    return f"{SPECIAL}:{name}" if side is None else f"{SPECIAL}:{name}:{side}"


def read_card(card: str) -> Card:
    """The card a string names; raises ValueError for one that names nothing."""
    kind, _, rest = card.partition(":")
    if kind == UNIT and rest:
        name, _, copy = rest.partition("#")
        return Card(UNIT, name, None, int(copy) if copy else 1)
    if kind in (SPECIAL, GROUP) and rest:
        name, _, side = rest.partition(":")
        return Card(kind, name, side or None)
    raise ValueError(f"{card!r} is not a card")


def build_deck(units: Iterable[tuple[str, int]], specials: Sequence[str] = ()) -> tuple[str, ...]:
    """A whole deck in a fixed order: ``copies`` cards for each ``(unit id, copies)``, then
    the special cards."""
    return (*(unit_card(uid, c) for uid, copies in units for c in range(1, copies + 1)), *specials)


def cards_of(cards: Iterable[str], unit_id: str) -> tuple[str, ...]:
    """The cards among ``cards`` that activate ``unit_id``."""
    return tuple(c for c in cards if _is_unit_card(c, unit_id))


def _is_unit_card(card: str, unit_id: str) -> bool:
    return card == unit_card(unit_id) or card.startswith(f"{UNIT}:{unit_id}#")


# --- what the deck holds ----------------------------------------------------------------------


def left(state: GameState) -> tuple[str, ...]:
    return tuple(getattr(state.own, "deck_left", ()))


def drawn(state: GameState) -> tuple[str, ...]:
    return tuple(getattr(state.own, "deck_drawn", ()))


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """Every card was gathered: ``cards`` are to be drawn, none drawn yet."""

    type: ClassVar[str] = "deck_shuffled"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    type: ClassVar[str] = "card_drawn"
    card: str


@dataclass(frozen=True, slots=True)
class CardsWithdrawn(Event):
    """Cards left the deck unplayed (their unit left play)."""

    type: ClassVar[str] = "cards_withdrawn"
    cards: tuple[str, ...]


def _deck(s: GameState, **values: Any) -> GameState:
    if s.own is None:
        raise ValueError("a deck needs the rule set's game values (deck_left, deck_drawn)")
    return s.evolve(own=s.own.evolve(**values))


@handles(DeckShuffled)
def _shuffled(s: GameState, e: DeckShuffled) -> GameState:
    return _deck(s, deck_left=tuple(e.cards), deck_drawn=())


@handles(CardDrawn)
def _drawn(s: GameState, e: CardDrawn) -> GameState:
    rest = list(left(s))
    rest.remove(e.card)
    return _deck(s, deck_left=tuple(rest), deck_drawn=(*drawn(s), e.card))


@handles(CardsWithdrawn)
def _withdrawn(s: GameState, e: CardsWithdrawn) -> GameState:
    gone = set(e.cards)
    return _deck(s, deck_left=tuple(c for c in left(s) if c not in gone))


# --- procedures ---------------------------------------------------------------------------


def shuffle(tx: Tx, cards: Sequence[str]) -> None:
    """Gather ``cards`` for a new turn: the whole deck is to be drawn again."""
    tx.emit(DeckShuffled(cards=tuple(cards)))


def pick(tx: Tx, count: int, purpose: str = "draw a card") -> int:
    """Which of ``count`` cards is drawn (0 first), each equally likely: one die over
    them, none when only one is left."""
    return 0 if count == 1 else int(tx.roll(_card_die(count), purpose)) - 1


def _card_die(count: int) -> Distribution:
    """The die that picks one of ``count`` cards, made once for each count (a
    distribution never changes)."""
    found = _CARD_DICE.get(count)
    if found is None:
        found = _CARD_DICE[count] = die(f"d{count}", range(1, count + 1))
    return found


_CARD_DICE: dict[int, Distribution] = {}


def draw(tx: Tx, purpose: str = "draw a card") -> str | None:
    """Draw a card: any of those left, equally likely (one die over them). None when the
    deck is spent."""
    rest = left(tx.state)
    if not rest:
        return None
    card = rest[pick(tx, len(rest), purpose)]
    tx.emit(CardDrawn(card=card))
    return card


def withdraw(tx: Tx, cards: Collection[str]) -> None:
    """Take ``cards`` out of the cards still to draw (a unit gone from play)."""
    going = tuple(c for c in left(tx.state) if c in cards)
    if going:
        tx.emit(CardsWithdrawn(cards=going))


# --- how the narrative tells them (core/narration.py) ---------------------------------------


def card_words(n: Narrating, name: str) -> str:
    """A card as players call it: the unit it activates, a group's card by the rule
    set's name for the group, or the special card."""
    try:
        card = read_card(name)
    except ValueError:
        return name
    if card.kind == UNIT:
        return n.label(card.name) + (f" (card {card.copy})" if card.copy > 1 else "")
    owner = f"{possessive(n.side(card.side))} " if card.side else ""
    if card.kind == GROUP:
        return f"{owner}{n.command_name(card.name) or humanise(card.name)} card"
    return f"{owner}{humanise(card.name)} card"


@tells(DeckShuffled)
def _tell_shuffled(n: Narrating, e: DeckShuffled, dice: Sequence[DiceRolled]) -> Sentence:
    return f"The deck is shuffled: {plural(len(e.cards), 'card')}", "note"


@tells(CardDrawn)
def _tell_drawn(n: Narrating, e: CardDrawn, dice: Sequence[DiceRolled]) -> Sentence:
    return f"Card drawn: {card_words(n, e.card)}", "card"


@tells(CardsWithdrawn)
def _tell_withdrawn(n: Narrating, e: CardsWithdrawn, dice: Sequence[DiceRolled]) -> Sentence:
    return f"Out of the deck: {', '.join(card_words(n, c) for c in e.cards)}", "note"
