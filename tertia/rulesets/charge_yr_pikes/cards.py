"""The brigade cards (Equipment C, Set-up B and C, Sequence of play A).

"A deck of index cards with brigades written on them, one card for each tertia, and one
for mounted officers/artillery"; "Shuffle the two decks (one for each army) together";
"When 'free move' card comes up, the commander in chief decides which tertia receives
the opportunity to move." Each army's deck: a card for each of its tertias that has a
unit in play, its "Officers & Artillery" cards and its "free move" cards (how many of
each: ``tables.toml [cards]``). Field and heavy guns and officers in no unit's front rank
move on the Officers & Artillery card; a galloper gun moves with its unit.
"""

from __future__ import annotations

from tertia.activation.deck import group_card, read_card, special_card
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.data import unit_data
from tertia.rulesets.charge_yr_pikes.tables import Cards

OFFICERS_AND_ARTILLERY = "officers_and_artillery"
FREE_MOVE = "free_move"


def on_officers_card(unit: Unit) -> bool:
    """Does ``unit`` move on its army's Officers & Artillery card rather than a tertia's?"""
    own = unit_data(unit)
    return (own.is_officer and own.attached_to is None) or own.is_battery


def tertias(state: GameState, side: str) -> tuple[str, ...]:
    """``side``'s tertias with a unit in play that moves on its card, in first-seen order."""
    found: dict[str, None] = {}
    for u in state.iter_troops(side):
        if not on_officers_card(u):
            found.setdefault(u.command)
    return tuple(found)


def army_deck(state: GameState, side: str, cards: Cards) -> tuple[str, ...]:
    """One army's brigade cards, in a fixed order."""
    return (*(group_card(t, side) for t in tertias(state, side)),
            *(special_card(OFFICERS_AND_ARTILLERY, side) for _ in range(cards.officers_and_artillery)),
            *(special_card(FREE_MOVE, side) for _ in range(cards.free_move)))


def brigade_deck(state: GameState, cards: Cards) -> tuple[str, ...]:
    """Both armies' decks together (Set-up C): drawn at random, as if shuffled."""
    return tuple(c for side in state.sides for c in army_deck(state, side, cards))


def moved_by(state: GameState, card: str) -> tuple[Unit, ...]:
    """The pieces a card moves: a tertia's units (with the officers in their front ranks
    and their galloper guns), or an army's officers and batteries (a free move names its
    tertia later, when the commander-in-chief chooses)."""
    c = read_card(card)
    if c.side is None:
        raise ValueError(f"{card!r} is no brigade card")
    pieces = list(state.iter_units(c.side))
    if c.kind == "group":
        return tuple(u for u in pieces if not on_officers_card(u) and _tertia_of(state, u) == c.name)
    if c.name == OFFICERS_AND_ARTILLERY:
        return tuple(u for u in pieces if on_officers_card(u))
    return ()


def _tertia_of(state: GameState, unit: Unit) -> str:
    """The tertia a piece moves with: its own, or that of the unit it is attached to."""
    led = unit_data(unit).attached_to
    found = state.units.get(led) if led is not None else None
    return unit.command if found is None else found.command
