"""The brigade cards (Equipment C, Set-up B and C, Sequence of play A).

"A deck of index cards with brigades written on them, one card for each tertia, and one
for mounted officers/artillery"; "Shuffle the two decks (one for each army) together";
"When 'free move' card comes up, the commander in chief decides which tertia receives
the opportunity to move." Each army's deck: a card for each of its tertias that has a
unit in play, its "Officers & Artillery" cards and its "free move" cards (how many of
each: ``tables.toml [cards]``). Field and heavy guns and officers in no unit's front rank
move on the Officers & Artillery card; a galloper gun moves with its unit.

Horse and Foot cards (``[cards] by_arm``; Dragoons 18 B: "When using move cards divided
into 'Horse' or 'foot' cards, dragoons may move on either type of move cards"): an army's
tertia cards give way to a Horse card (horse, lobsters, Scots horse) and a Foot card
(foot, musketeers, highlanders, wagons and every other troop), each dealt when a piece in
play moves on it. Read so: dragoons are on both, unless they have moved, mounted or
dismounted this turn already (so they move on the one drawn first, or wait for the other);
an officer in a unit's front rank and a galloper go on their unit's card. The card of
horse away plundering is dealt though none of its units is on the table, so that they may
come back on it.
"""

from __future__ import annotations

from collections.abc import Iterable

from tertia.activation.deck import group_card, read_card, special_card
from tertia.core.narration import humanise
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.tables import Cards
from tertia.rulesets.charge_yr_pikes.values import unit_data

OFFICERS_AND_ARTILLERY = "officers_and_artillery"
FREE_MOVE = "free_move"
HORSE = "horse"
FOOT = "foot"
ARM_CARDS = (HORSE, FOOT)
HORSE_TROOPS = frozenset({"horse", "lobsters", "scots_horse"})


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


def arm_cards_of(state: GameState, unit: Unit) -> tuple[str, ...]:
    """The arm cards (Horse, Foot) that may move ``unit``: its troop's, or its unit's
    when it is attached; dragoons either; none for a piece on the Officers & Artillery
    card."""
    if on_officers_card(unit):
        return ()
    led = unit_data(unit).attached_to
    troop = unit_data(state.units.get(led or "", unit)).troop
    if troop == "dragoons":
        return ARM_CARDS
    return (HORSE,) if troop in HORSE_TROOPS else (FOOT,)


def army_deck(state: GameState, side: str, cards: Cards) -> tuple[str, ...]:
    """One army's brigade cards, in a fixed order."""
    away = _plundering(state, side)
    if cards.by_arm:
        arms = {a for u in state.iter_troops(side) for a in arm_cards_of(state, u)}
        arms |= {HORSE} if away else set()
        moving: tuple[str, ...] = tuple(special_card(a, side) for a in ARM_CARDS if a in arms)
    else:
        named = tertias(state, side)
        moving = tuple(group_card(t, side) for t in (*named, *dict.fromkeys(
            u.command for u in away if u.command not in named)))
    return (*moving,
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
        return tuple(u for u in pieces if not on_officers_card(u) and tertia_of(state, u) == c.name)
    if c.name == OFFICERS_AND_ARTILLERY:
        return tuple(u for u in pieces if on_officers_card(u))
    if c.name in ARM_CARDS:
        return tuple(u for u in pieces if c.name in arm_cards_of(state, u) and _not_moved_yet(state, u))
    return ()


def _plundering(state: GameState, side: str) -> tuple[Unit, ...]:
    """``side``'s horse away from the table plundering: their card is dealt, for "Cavalry
    returns next move on its card" (Baggage plunder C)."""
    return tuple(u for u in state.iter_units(side, include_removed=True)
                 if u.removed is not None and unit_data(u).plundering is not None)


def _not_moved_yet(state: GameState, unit: Unit) -> bool:
    """Dragoons move on the second arm card drawn only if they have not moved, mounted or
    dismounted this turn already."""
    if len(arm_cards_of(state, unit)) < 2:
        return True
    led = unit_data(unit).attached_to
    own = unit_data(state.units.get(led or "", unit))
    return not (own.moved or own.remounted)


def tertia_of(state: GameState, unit: Unit) -> str:
    """The tertia a piece moves with: its own, or that of the unit it is attached to."""
    led = unit_data(unit).attached_to
    found = state.units.get(led) if led is not None else None
    return unit.command if found is None else found.command


# --- a tertia's card as the players call it -----------------------------------------------

ARM_WORDS = {"horse": "horse", "lobsters": "horse", "scots_horse": "horse", "foot": "foot",
             "musketeers": "foot", "highlanders": "foot", "dragoons": "dragoons", "artillery": "guns",
             "wagons": "baggage"}
"""The arm a tertia's troops are called by, for its card's name."""
LEADS_FIRST = ("brigadier", "wing", "army", "staff")
"""Whose name a tertia's card carries: its brigadier's, else its wing commander's ..."""


def tertia_label(pieces: Iterable[tuple[str, str | None, str]]) -> str | None:
    """A tertia's card by name: its arms and its commander, e.g. "Horse (Oliver
    Cromwell)", "Foot and horse (Sir Henry Bard)", from each of its pieces' ``(troop,
    rank, name)`` (``rank`` None for a unit). It reads the order of battle only (every
    piece that ever belonged, however it stands now), which both sides know from the
    start. None for a tertia with no piece."""
    pieces = list(pieces)
    arms = list(dict.fromkeys(ARM_WORDS.get(troop, troop.replace("_", " "))
                              for troop, rank, _ in pieces if rank is None))
    officers = sorted(((LEADS_FIRST.index(rank) if rank in LEADS_FIRST else len(LEADS_FIRST), name)
                       for _, rank, name in pieces if rank is not None), key=lambda o: o[0])
    if not arms and not officers:
        return None
    words = " and ".join(arms) if arms else "officers"
    words = words[0].upper() + words[1:]
    return f"{words} ({officers[0][1]})" if officers else words


def tertia_label_in(state: GameState, tertia: str, side: str | None) -> str | None:
    """:func:`tertia_label` of tertia ``tertia`` of ``side`` in ``state`` (every piece of it,
    in play or not; None when it has no piece of this rule set's)."""
    return tertia_label((u.own.troop, u.own.rank if u.own.is_officer else None, u.label)
                        for u in state.iter_units(side, include_removed=True)
                        if u.command == tertia and isinstance(u.own, CypUnit))


def card_label(state: GameState | None, card: str) -> str:
    """A card as the players call it: a tertia's by :func:`tertia_label` (its id when no
    piece of it is known, or no position is at hand), a special card by its name
    ("Officers & Artillery", "free move"); an id that is no card of the deck as it is."""
    try:
        c = read_card(card)
    except ValueError:
        return card
    if c.kind == "group":
        return (tertia_label_in(state, c.name, c.side) if state is not None else None) or c.name
    return humanise(c.name).replace("officers and artillery", "Officers & Artillery")
