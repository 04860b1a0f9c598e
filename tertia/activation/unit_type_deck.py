"""A shuffled deck of unit-type cards, one set per side (each side a colour): every card
drawn activates that side's units of that type; when the deck is spent it is shuffled
for the next turn.

Used by ``d3-cards`` (Sequence of Play: five red and five blue cards, Horse, Foot,
Dragoon, Artillery and Commander). Drawing a card at random from those left is the same
chance as shuffling the whole deck first, and leaves nothing hidden in the state: each
draw is one die with a purpose (``d<n>`` over the ``n`` cards left, none when one is
left), so replays and exact odds see every card as it comes.

Kept among the game-wide values the rule set declares (``GameState.value``): ``deck``
(the cards still to draw this turn, as ``[side, type]`` pairs in a fixed order) and
``drawn`` (the cards drawn so far).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.activation.deck import pick
from tertia.core.events import DiceRolled, Event, GameDataChanged
from tertia.core.narration import Narrating, Sentence, possessive, tells
from tertia.core.ruleset import Tx
from tertia.core.state import GameState

CARD_TYPES = ("horse", "foot", "dragoons", "artillery", "commander")
"""One card of each per side: Horse, Foot, Dragoon, Artillery and Commander Activation."""

Card = tuple[str, str]


@dataclass(frozen=True, slots=True)
class TypeCardDrawn(Event):
    """``side``'s ``kind`` card was drawn: its units of that type act on it, or, ``idle``,
    none is left to (the card is passed). The deck itself is kept in the game values."""

    type: ClassVar[str] = "type_card_drawn"
    side: str
    kind: str
    idle: bool = False


@tells(TypeCardDrawn)
def _tell_drawn(n: Narrating, e: TypeCardDrawn, dice: Sequence[DiceRolled]) -> Sentence:
    card = f"{possessive(n.side(e.side))} {e.kind} card"
    return f"{card}: nothing to activate" if e.idle else f"{card} drawn", "note"


def full_deck(sides: Sequence[str], types: Sequence[str] = CARD_TYPES) -> list[Card]:
    """Every side's cards, in a fixed order (the deck as it comes out of the box).

    >>> full_deck(("red", "blue"), ("horse", "foot"))
    [('red', 'horse'), ('red', 'foot'), ('blue', 'horse'), ('blue', 'foot')]
    """
    return [(side, kind) for side in sides for kind in types]


def remaining(state: GameState) -> list[Card]:
    return _cards(state.value("deck", ()))


def drawn(state: GameState) -> list[Card]:
    return _cards(state.value("drawn", ()))


def _cards(found: Sequence[Sequence[str]]) -> list[Card]:
    """The cards as (side, type) pairs (a state read from an older layout holds lists)."""
    return [c if type(c) is tuple else (str(c[0]), str(c[1])) for c in found]


def shuffle(tx: Tx, sides: Sequence[str], types: Sequence[str] = CARD_TYPES) -> None:
    """Gather every card and shuffle: the turn's deck is full again."""
    tx.emit(GameDataChanged(key="deck", value=tuple(full_deck(sides, types))))
    tx.emit(GameDataChanged(key="drawn", value=()))


def gathered(event: Event) -> bool:
    """Is ``event`` the deck gathered for a new turn (:func:`shuffle`: no card drawn yet)?
    The turn's play begins with it, before any card finds a side to act."""
    return isinstance(event, GameDataChanged) and event.key == "drawn" and not event.value


def draw(tx: Tx) -> Card | None:
    """Take the top card: any of the cards left, equally likely. None when the deck is
    spent."""
    left = remaining(tx.state)
    if not left:
        return None
    index = pick(tx, len(left))
    card = left[index]
    tx.emit(GameDataChanged(key="deck", value=tuple(c for i, c in enumerate(left) if i != index)))
    tx.emit(GameDataChanged(key="drawn", value=(*drawn(tx.state), card)))
    return card
