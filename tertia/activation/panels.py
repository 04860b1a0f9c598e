"""The panels the shared activation blocks fill beside the table, as one side sees them.

A rule set's presentation asks these for the shared panels it declares
(:meth:`Presentation.panel <tertia.core.presentation.Presentation.panel>`), passing the
values only it knows (the card in play, the command now activated, how a card is named);
front ends draw the sections without knowing any panel by name. Everything here is worked
out from the viewer's own observation, which already hides what the other side may not
see (a side's laid order of command cards).

- :func:`orders_panel`: the orders a side has left this player turn.
- :func:`command_cards_panel`: command cards laid face down in order (``d3-commands``:
  Sequence of Play), the viewer's own order, the other side's cards turned over.
- :func:`type_deck_panel`: a deck of unit-type cards (``d3-cards``: Sequence of Play; a
  card is a side and a troop type).
- :func:`unit_deck_panel`: a deck of unit cards (``declare-thee-sir``, ``charge-yr-pikes``:
  a card names its piece, a group or a special card), with the responses rolled on the
  card in play (Charge yr Pikes!' command response).

Who may see what: every card drawn is shown, and each draw is at random from those left,
so the cards still to come hold no order to hide.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tertia.activation import command_cards, unit_type_deck
from tertia.activation import deck as unit_deck
from tertia.core.presentation import Panel, PanelContext, PanelItem, PanelSection
from tertia.core.state import GameState, Unit
from tertia.core.vocabulary import capitalise

STATE_WORDS = {"active": "in play", "played": "played", "gone": "command lost", "waiting": "face down"}
"""A laid command card's state in words."""

RECENT = 6
"""Cards drawn before the one in play shown one a line; the rest are counted."""

RECENT_STEPS = 64
"""How many actions back the responses to the card in play are looked for."""

SPECIAL_CARDS = {"officers_and_artillery": "Officers & Artillery"}
"""Special cards named otherwise than by their words (the rule text's own name)."""

CardOf = Callable[[Unit], str | None]
"""Which card activates a unit; ``None`` for none."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _left_to_draw(seen: GameState, left: int, tally: str = "", in_play: bool = False) -> str:
    """How many cards are left to draw this turn (``tally``: by side), besides the card in
    play if there is one (``in_play``); once the battle is over, that it is, and how many
    were never drawn."""
    if seen.is_over and not left:
        return "The battle is over: every card was drawn."
    if seen.is_over:
        return f"The battle is over: {_plural(left, 'card')} {'was' if left == 1 else 'were'} not drawn."
    if not left:  # not "0 cards left": a card in play is still to be played
        return ("No more cards to draw this turn: the card in play is the last." if in_play
                else "No cards left to draw this turn.")
    return f"{_plural(left, 'card')} left to draw this turn{tally}."


def _name(seen: GameState, ident: str) -> str:
    unit = seen.units.get(ident)
    return (unit.name or ident) if unit is not None else ident


def _active(active: Mapping[str, Any] | None) -> tuple[str, str] | None:
    if not isinstance(active, Mapping):
        return None
    return str(active.get("side")), str(active.get("card"))


# --- orders -----------------------------------------------------------------------------------


def orders_panel(seen: GameState, context: PanelContext, orders_left: int | None) -> Panel:
    """How many orders the viewer has left this player turn, while it may give them."""
    now = not context.phases or seen.phase in context.phases
    if context.viewer != context.to_act or context.pending or not now or orders_left is None:
        return Panel()
    return Panel((PanelSection("orders-left", (PanelItem(
        f"{_plural(orders_left, 'order')} left this player turn."),), "lines"),))


# --- command cards ----------------------------------------------------------------------------


def command_cards_panel(seen: GameState, context: PanelContext, active: Mapping[str, Any] | None,
                        card_of: CardOf) -> Panel:
    """Command cards: the viewer's own order (played struck through, the one in play
    picked out), the other side's cards turned over and face down, the command active;
    and the words for each of the viewer's cards, to put them in order (with the names
    of the units each activates)."""
    viewer = context.viewer
    if not any(command_cards.deck(seen, side) for side in seen.sides):
        return Panel()
    now = _active(active)
    sections: list[PanelSection] = []
    held = command_cards.deck(seen, viewer)
    units = _card_units(seen, viewer, card_of)
    labels = {c: PanelItem(command_cards.card_words(c), title="\n".join(units.get(c, ())) or None,
                           note=_plural(len(units[c]), "unit") if units.get(c) else None) for c in held}
    mine = context.own_title()
    order = seen.value(command_cards.order_key(viewer))
    if not isinstance(order, list | tuple):
        whose = capitalise(context.whose(viewer))
        words = (f"{whose} cards are shuffled: each is drawn at random."
                 if command_cards.is_shuffled(seen, viewer) else f"{whose} cards are not laid yet.")
        sections.append(PanelSection("own-order", (PanelItem(words),), "lines", title=mine, side=viewer))
    else:
        played = set(command_cards.played(seen, viewer))
        in_play = now[1] if now is not None and now[0] == viewer else None
        items = []
        for c in order:
            state = ("active" if c == in_play else "played" if c in played else "gone" if c not in held
                     else "waiting")
            items.append(PanelItem(command_cards.card_words(c), state=state, id=c, note=STATE_WORDS[state]))
        sections.append(PanelSection("own-order", tuple(items), "ordered", title=mine, side=viewer))
    for side in seen.sides:
        if side == viewer:
            continue
        in_play = now[1] if now is not None and now[0] == side else None
        items = [PanelItem(command_cards.card_words(c), state="active" if c == in_play else "played", id=c,
                           title="in play" if c == in_play else "played")
                 for c in command_cards.played(seen, side)]
        left = command_cards.cards_left(seen, side)
        items += [PanelItem("", state="back", title="face down") for _ in range(left)]
        laid = seen.value(command_cards.order_key(side)) is not None
        note = ("shuffled" if command_cards.is_shuffled(seen, side) else
                f"{left} face down" if laid else "not laid yet")
        sections.append(PanelSection("other-cards", tuple(items), "cards", side=side,
                                     title=f"{context.side_name(side)} · {note}"))
    if now is not None:
        whose = context.whose(now[0])
        sections.append(PanelSection("active-command", (PanelItem(
            f"Active: {whose} {command_cards.card_words(now[1]).lower()} command", side=now[0],
            state="active"),), "lines"))
    return Panel(tuple(sections), labels)


def _card_units(seen: GameState, side: str, card_of: CardOf) -> dict[str, list[str]]:
    units: dict[str, list[str]] = {}
    for unit in seen.iter_units(side):
        if unit.is_commander:
            continue
        card = card_of(unit)
        if card is not None:
            units.setdefault(card, []).append(unit.name or unit.id)
    return units


# --- a deck of unit-type cards ----------------------------------------------------------------


def type_deck_panel(seen: GameState, context: PanelContext, active: Mapping[str, Any] | None) -> Panel:
    """A deck of unit-type cards: the card in play, each side's cards left to draw (in the
    box's order) and the cards drawn this turn, first first."""
    if seen.value("deck") is None:  # not shuffled yet
        return Panel()
    order = {t: i for i, t in enumerate(unit_type_deck.CARD_TYPES)}
    remaining = unit_type_deck.remaining(seen)
    now = _active(active)
    words = command_cards.card_words
    sections: list[PanelSection] = []
    if now is not None:
        whose = context.whose(now[0], 'the enemy')
        sections.append(PanelSection("deck-active", (PanelItem(
            f"In play: {whose} {words(now[1]).lower()} card", side=now[0], state="active"),), "lines"))
    count = _left_to_draw(seen, len(remaining), in_play=now is not None)
    sections.append(PanelSection("deck-count", (PanelItem(count),), "lines"))
    for side in () if seen.is_over else seen.sides:
        left = sorted((t for s, t in remaining if s == side), key=lambda t: (order.get(t, len(order)), t))
        sections.append(PanelSection(f"deck-left-{side}", tuple(PanelItem(words(c), side=side) for c in left),
                                     "cards", side=side,
                                     title=f"{context.side_name(side)} · {len(left)} to draw"))
    drawn = unit_type_deck.drawn(seen)
    if drawn:
        items = []
        for side, card in drawn:
            playing = now == (side, card)
            name = words(card)
            title = f"{context.side_name(side)} {name.lower()}{': in play' if playing else ''}"
            items.append(PanelItem(name, side=side, state="active" if playing else "played", title=title))
        sections.append(PanelSection("deck-drawn", tuple(items), "cards", title="Drawn this turn"))
    return Panel(tuple(sections))


# --- a deck of unit cards ---------------------------------------------------------------------


def unit_deck_panel(seen: GameState, context: PanelContext, in_play: str | None,
                    names: Mapping[str, str] | None = None) -> Panel:
    """A deck of unit cards: the card drawn (and the responses rolled on it), how many are
    left to draw per side, the cards drawn before it (last first, the older counted) and
    each side's cards to come, on demand. ``names``: what the players call a card that
    moves a group of units, by the card (Charge yr Pikes!' tertia cards)."""
    named = names or {}

    def shown(card: str) -> tuple[str | None, str, str | None]:
        """A card's side, its words and the piece it names."""
        try:
            read = unit_deck.read_card(card)
        except ValueError:
            return None, card, None
        if read.kind == unit_deck.GROUP and card in named:
            return read.side, named[card], None
        if read.kind != unit_deck.UNIT:
            words = SPECIAL_CARDS.get(read.name, read.name.replace("_", " "))
            return read.side, words[:1].upper() + words[1:], None
        unit = seen.units.get(read.name)
        name = (unit.name or read.name) if unit is not None else read.name
        return (unit.side if unit is not None else None,
                name if read.copy == 1 else f"{name} (card {read.copy})", read.name)

    sections: list[PanelSection] = []
    remaining = [shown(c) for c in unit_deck.left(seen)]
    if in_play:
        side, words, unit = shown(in_play)
        mine = context.plays(side)
        sections.append(PanelSection("deck-active", (PanelItem(
            f"Card drawn: {words}{' (yours)' if mine else ''}", side=side, state="active", unit=unit),),
            "lines"))
        rolled = responses(context.recent(), in_play)
        if rolled:
            sections.append(PanelSection("deck-responses", tuple(_response_item(seen, r) for r in rolled),
                                         "dice"))
    drawn = [shown(c) for c in unit_deck.drawn(seen)]
    if remaining or drawn or in_play:
        tally = ", ".join(f"{context.side_name(side)} {sum(1 for c in remaining if c[0] == side)}"
                          for side in seen.sides)
        count = _left_to_draw(seen, len(remaining), f": {tally}", in_play=bool(in_play))
    else:  # before the first turn (deployment): nothing shuffled yet
        count = "The deck is shuffled as the first turn begins."
    sections.append(PanelSection("deck-count", (PanelItem(count),), "lines"))
    before = drawn[:-1] if in_play else drawn
    if before:
        items = [PanelItem(words, side=side, state="played", title=context.side_names.get(str(side)),
                           unit=unit) for side, words, unit in before[-RECENT:][::-1]]
        if len(before) > RECENT:
            items.append(PanelItem(f"and {len(before) - RECENT} more this turn"))
        sections.append(PanelSection("deck-drawn", tuple(items), "list", title="Drawn before it, last first"))
    for side in () if seen.is_over else seen.sides:
        cards = sorted(words for s, words, _ in remaining if s == side)
        if cards:
            sections.append(PanelSection(f"deck-left-{side}", tuple(PanelItem(c) for c in cards), "list",
                                         side=side, open=False,
                                         title=f"{context.side_name(side)}: {len(cards)} to come"))
    return Panel(tuple(sections))


def _response_item(seen: GameState, rolled: Mapping[str, Any]) -> PanelItem:
    officer = rolled.get("officer")
    who = ", ".join(_name(seen, str(u)) for u in rolled.get("units") or ())
    under = f"under {_name(seen, str(officer))}" if officer else "without officer"
    obeyed = bool(rolled.get("obeyed"))
    face = rolled.get("face")
    return PanelItem(f"{who} {under}: {'may move' if obeyed else 'no move'}", face=str(face or "–"),
                     state="obeyed" if obeyed else "refused",
                     title="the die rolled" if face else "no die: they move")


def responses(recent: Iterable[Sequence[Any]], card: str | None) -> list[dict[str, Any]]:
    """The responses to ``card`` (the card in play) among ``recent``'s events (each
    action's, newest first), in the order rolled: each ``{"officer", "units", "face",
    "obeyed"}`` (``face`` 0: no die, as for officers on their own card). They are rolled
    as the card is turned over, so the newest action holding any is the one."""
    if not card:
        return []
    for n, events in enumerate(recent):
        found = [{"officer": e.officer, "units": list(e.units), "face": e.face, "obeyed": e.obeyed}
                 for e in events if _responds(e, card)]
        if found or n >= RECENT_STEPS:
            return found
    return []


def _responds(event: Any, card: str) -> bool:
    return getattr(event, "card", None) == card and all(
        hasattr(event, a) for a in ("officer", "units", "face", "obeyed"))
