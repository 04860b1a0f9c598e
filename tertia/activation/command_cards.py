"""Command cards: each side secretly orders one card per command, both roll for the
initiative, then the sides alternate, each playing its top card.

Used by ``d3-commands`` (Sequence of Play); written for any rule set that activates
commands from a face-down stack of cards.

Where things are kept (game-wide values the rule set declares, ``GameState.value``):

- ``card_deck:<side>``: the cards the side holds this turn, public (a command that loses
  all its units has its card removed at once);
- ``card_order:<side>``: the side's chosen order for this turn, **secret** until each
  card is played (:func:`hide_orders` hides it from the other side; :func:`carries_secret`
  names the events that hold it);
- ``cards_played:<side>``: the cards played so far this turn, public;
- ``cards_shuffled``: sides whose cards are shuffled rather than ordered (the solo
  option): their next card is drawn at random when it is played, so no order exists to
  hide, and the draw is a die with a purpose like every other chance.

While the sides order their cards the state awaits each in turn
(``pending["kind"] == "order_cards"``); the second side to order cannot see the first
side's order, because its observation hides it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action
from tertia.core.dice import die
from tertia.core.events import DecisionAwaited, DecisionMade, Event, GameDataChanged
from tertia.core.hidden import as_view, hidden, is_hidden, without_view_mark
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import ActivationCode

ORDER_KIND = "order_cards"
SHUFFLED = "cards_shuffled"


@dataclass(frozen=True, slots=True)
class OrderCards(Action):
    """A side's command cards for this turn, in the order they will be played (top first)."""

    type: ClassVar[str] = "order_cards"
    order: tuple[str, ...] = ()


CARD_NAMES = {"centre": "Centre", "right": "Right flank", "left": "Left flank", "reserve": "Reserve",
              "independent": "Independent"}
"""Command cards and unit-type cards as players call them, where not the word itself."""


def card_words(card: str) -> str:
    """A command card or a unit-type card in words.

    >>> card_words("right"), card_words("commanded_shot")
    ('Right flank', 'Commanded shot')
    """
    if card in CARD_NAMES:
        return CARD_NAMES[card]
    words = str(card).replace("_", " ")
    return words[:1].upper() + words[1:]


def deck_key(side: str) -> str:
    return f"card_deck:{side}"


def order_key(side: str) -> str:
    return f"card_order:{side}"


def played_key(side: str) -> str:
    return f"cards_played:{side}"


def deck(state: GameState, side: str) -> tuple[str, ...]:
    """The cards ``side`` still holds this turn (played or not)."""
    return tuple(state.value(deck_key(side), ()))


def played(state: GameState, side: str) -> tuple[str, ...]:
    return tuple(state.value(played_key(side), ()))


def is_shuffled(state: GameState, side: str) -> bool:
    return side in state.value(SHUFFLED, ())


def unplayed(state: GameState, side: str) -> tuple[str, ...]:
    """Cards still to be played this turn, in the side's order when it chose one. Only
    the side itself (or a referee) may call this: it reads the secret order."""
    done = set(played(state, side))
    held = deck(state, side)
    order = state.value(order_key(side))
    if not isinstance(order, list | tuple):
        order = held
    return tuple(c for c in order if c in held and c not in done)


def cards_left(state: GameState, side: str) -> int:
    """How many cards ``side`` has still to play this turn: public knowledge."""
    done = set(played(state, side))
    return sum(1 for c in deck(state, side) if c not in done)


# --- ordering ---------------------------------------------------------------------------


def begin_ordering(
    tx: Tx, decks: Mapping[str, Sequence[str]], shuffled: Sequence[str] = ()
) -> bool:
    """A new turn: deal each side its cards and await the order of the first side that
    must choose one. Returns False when no side has to choose (every side shuffles)."""
    tx.emit(GameDataChanged(key=SHUFFLED, value=tuple(shuffled)))
    for side in tx.state.sides:
        tx.emit(GameDataChanged(key=deck_key(side), value=tuple(decks.get(side, ()))))
        tx.emit(GameDataChanged(key=played_key(side), value=()))
        tx.emit(GameDataChanged(key=order_key(side), value=None))
    return await_next_order(tx)


def await_next_order(tx: Tx) -> bool:
    """Ask the next side that has cards to order and has not ordered them; False when
    every side is done."""
    for side in tx.state.sides:
        if is_shuffled(tx.state, side) or tx.state.value(order_key(side)) is not None:
            continue
        cards = deck(tx.state, side)
        if len(cards) <= 1:
            tx.emit(GameDataChanged(key=order_key(side), value=tuple(cards)))
            continue
        tx.emit(DecisionAwaited(side=side, kind=ORDER_KIND, context={"cards": list(cards)}))
        return True
    return False


def validate_order(state: GameState, action: OrderCards, rule: str) -> list[Violation]:
    pending = state.pending
    if pending is None or pending.get("kind") != ORDER_KIND:
        return [Violation(CoreCode.NOTHING_PENDING, "no side is ordering its command cards now", rule)]
    held = [str(c) for c in pending.get("cards", ())]
    if not isinstance(action.order, list | tuple) or not all(isinstance(c, str) for c in action.order):
        return [Violation(ActivationCode.BAD_CARD_ORDER,
                          f"the order must be a list of card names: {', '.join(held)}", rule)]
    given = list(action.order)
    if sorted(given) != sorted(held):
        return [Violation(
            ActivationCode.BAD_CARD_ORDER,
            f"the order must name each of the {len(held)} cards held once: {', '.join(held)}; "
            f"got {', '.join(given) or 'none'}",
            rule)]
    return []


def resolve_order(tx: Tx, action: OrderCards) -> bool:
    """Record the side's order face down; returns True when another side must still order."""
    pending = tx.state.pending
    assert pending is not None
    side = str(pending["side"])
    tx.emit(DecisionMade(side=side, kind=ORDER_KIND, choice=f"{len(action.order)} cards face down"))
    tx.emit(GameDataChanged(key=order_key(side), value=tuple(action.order)))
    return await_next_order(tx)


# --- initiative and play -----------------------------------------------------------------


def roll_initiative(tx: Tx, bonus: Mapping[str, int]) -> str:
    """Both sides roll a D6 and add their commander's value; the higher activates first,
    ties are rolled again."""
    return tx.roll_off("initiative", bonus)


def play_top_card(tx: Tx, side: str) -> str | None:
    """Turn over ``side``'s next card (a random one of those left when its cards are
    shuffled); None when it has none left."""
    left = unplayed(tx.state, side)
    if not left:
        return None
    if is_shuffled(tx.state, side) and len(left) > 1:
        pick = tx.roll(die(f"d{len(left)}", range(1, len(left) + 1)), f"shuffled card: {side}")
        card = sorted(left)[int(pick) - 1]
    else:
        card = left[0]
    tx.emit(GameDataChanged(key=played_key(side), value=(*played(tx.state, side), card)))
    return card


def next_side(state: GameState, just_played: str | None) -> str | None:
    """Who plays next: the other side while it has cards, else the same side; None when
    both are out of cards."""
    if just_played is None:
        return None
    other = state.opponent(just_played)
    if cards_left(state, other):
        return other
    if cards_left(state, just_played):
        return just_played
    return None


def remove_card(tx: Tx, side: str, card: str) -> None:
    """A command lost all its units: its card leaves the deck at once."""
    held = deck(tx.state, side)
    if card in held:
        tx.emit(GameDataChanged(key=deck_key(side), value=tuple(c for c in held if c != card)))


# --- hidden information -------------------------------------------------------------------


def hide_orders(state: GameState, viewer: str) -> GameState:
    """The position as ``viewer`` may see it: every other side's card order hidden, so
    only how many cards it has left shows."""
    secret = [
        order_key(side) for side in state.sides
        if side != viewer and state.value(order_key(side)) is not None
    ]
    if not secret:
        return state
    return as_view(state, viewer, dict.fromkeys(secret, _HIDDEN_ORDER))


_HIDDEN_ORDER = hidden("card order")


def sample_orders(observation: GameState, rng: random.Random) -> GameState:
    """A full state consistent with a view from :func:`hide_orders`: each hidden order is
    the cards already played, in the order played, then the rest in a random order."""
    hidden_from_viewer = [side for side in observation.sides
                          if is_hidden(observation.value(order_key(side)))]
    return without_view_mark(observation, _sampled_orders(observation, hidden_from_viewer, rng))


def resample_orders(state: GameState, viewer: str, seed: int) -> GameState:
    """``sample_orders(hide_orders(state, viewer), random.Random(seed))`` in one step:
    every other side's card order replaced by a sample drawn from what ``viewer`` sees
    (the cards it has played and the cards left), never from the order itself."""
    secret = [side for side in state.sides
              if side != viewer and state.value(order_key(side)) is not None]
    if not secret:
        return state
    return state.with_values(_sampled_orders(state, secret, random.Random(seed)))


def _sampled_orders(state: GameState, sides: list[str], rng: random.Random) -> dict[str, list[str]]:
    """For each of ``sides``, an order of its cards consistent with what all may see: the
    cards already played, in the order played, then the rest in a random order."""
    sampled: dict[str, list[str]] = {}
    for side in sides:
        done = played(state, side)
        rest = [c for c in deck(state, side) if c not in done]
        rng.shuffle(rest)
        sampled[order_key(side)] = [*done, *rest]
    return sampled


def carries_secret(event: Event, viewer: str) -> bool:
    """Does ``event`` reveal another side's card order? (Its :class:`OrderCards` action
    does too: a record of play is a referee's document.)"""
    if isinstance(event, GameDataChanged) and event.key.startswith("card_order:"):
        return event.key != order_key(viewer) and event.value is not None
    return False
