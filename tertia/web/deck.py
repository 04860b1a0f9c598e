"""The deck of activation cards as one side may see it, for the page's deck panel.

Two decks are known, both drawn one card at a time at random from those left: the
unit-type cards of :mod:`tertia.activation.unit_type_deck` (``d3-cards``: Sequence of
Play; a card is a side and a type) and the unit cards of :mod:`tertia.activation.deck`
(``declare-thee-sir``: a card for each unit, two for some; a card names its piece, and
the piece says whose it is).

Worked out only from that side's observation (``Game.observe``): the cards still to be
drawn this turn (which cards they are is public: every card drawn is shown, and each
draw is at random from those left, so they hold no order to hide), the cards drawn so
far in the order they came, and the card in play. Where the rule set tests each unit's
response to the card turned over (Charge yr Pikes!' command response: events with the
card, the units, the die's face and whether they obeyed), the rolls on the card in play,
from the events the side may see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tertia.activation import deck as unit_deck
from tertia.activation.unit_type_deck import CARD_TYPES
from tertia.web.cards import game_values


def _cards(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list | tuple):
        return []
    return [(str(c[0]), str(c[1])) for c in value if isinstance(c, list | tuple) and len(c) == 2]


SPECIAL_CARDS = {"officers_and_artillery": "Officers & Artillery"}
"""Special cards named otherwise than by their words (the rule text's own name)."""

RECENT_STEPS = 64
"""How many actions back the responses to the card in play are looked for."""


def deck_view(seen: Mapping[str, Any], viewer: str, recent: Iterable[Sequence[Any]] = (),
              names: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
    """The deck panel's data from ``viewer``'s own observation ``seen``; ``None`` when the
    position holds no deck.

    ``left``: per side, the card types still to draw, in the box's order; ``drawn``: the
    cards drawn this turn, first first, each ``{"side", "card"}``; ``active``: the card in
    play (``{"side", "card"}``) or ``None``; ``count``: how many cards are left in all;
    ``pieces``: whether each card names a piece (a deck of unit cards) rather than a type;
    ``responses``: the responses rolled on the card in play, from ``recent`` (the events
    ``viewer`` may see of each action, newest first). ``names``: what the players call a
    card that moves a group of units, by the card (the rule set's summary "card_names":
    Charge yr Pikes!' tertia cards by the tertia's arms and commander)."""
    extra = game_values(seen)
    if "deck_left" in extra:
        cards = _unit_cards(seen, extra, viewer, names or {})
        return cards | {"responses": responses(recent, extra.get("card"))}
    if "deck" not in extra:
        return None
    sides = [str(s) for s in seen.get("sides") or ()]
    remaining = _cards(extra.get("deck"))
    order = {t: i for i, t in enumerate(CARD_TYPES)}
    left = {side: sorted((t for s, t in remaining if s == side), key=lambda t: (order.get(t, len(order)), t))
            for side in sides}
    active = extra.get("activation")
    shown = None
    if isinstance(active, Mapping):
        shown = {"side": str(active.get("side")), "card": str(active.get("card"))}
    return {
        "viewer": viewer,
        "left": left,
        "count": len(remaining),
        "drawn": [{"side": s, "card": t} for s, t in _cards(extra.get("drawn"))],
        "active": shown,
        "pieces": False,
    }


def _unit_cards(seen: Mapping[str, Any], extra: Mapping[str, Any], viewer: str,
                names: Mapping[str, Any]) -> dict[str, Any]:
    """The same for a deck of unit cards (``deck_left``, ``deck_drawn`` and, while a card
    is in play, ``card``): each card as ``{"side", "card", "unit"}``, ``card`` its words
    (the piece's name, "second card" for a unit's second, a group's name from ``names``),
    ``pieces`` true."""
    units = {str(u.get("id")): u for u in seen.get("units") or ()}
    sides = [str(s) for s in seen.get("sides") or ()]

    def shown(card: str) -> dict[str, Any]:
        try:
            read = unit_deck.read_card(card)
        except ValueError:
            return {"side": None, "card": card, "unit": None}
        if read.kind == unit_deck.GROUP and isinstance(names.get(card), str):
            return {"side": read.side, "card": names[card], "unit": None}
        if read.kind != unit_deck.UNIT:
            words = SPECIAL_CARDS.get(read.name, read.name.replace("_", " "))
            return {"side": read.side, "card": words[:1].upper() + words[1:], "unit": None}
        unit = units.get(read.name) or {}
        name = str(unit.get("name") or read.name)
        return {"side": unit.get("side"), "card": name if read.copy == 1 else f"{name} (card {read.copy})",
                "unit": read.name}

    remaining = [shown(str(c)) for c in extra.get("deck_left") or ()]
    active = extra.get("card")
    return {
        "viewer": viewer,
        "left": {side: sorted(c["card"] for c in remaining if c["side"] == side) for side in sides},
        "count": len(remaining),
        "drawn": [shown(str(c)) for c in extra.get("deck_drawn") or ()],
        "active": shown(str(active)) if active else None,
        "pieces": True,
    }


def responses(recent: Iterable[Sequence[Any]], card: Any) -> list[dict[str, Any]]:
    """The responses to ``card`` (the card in play) among ``recent``'s events, in the order
    rolled: each ``{"officer", "units", "face", "obeyed"}`` (``face`` 0: no die, as for
    officers on their own card). They are rolled as the card is turned over, so the
    newest action holding any is the one."""
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
