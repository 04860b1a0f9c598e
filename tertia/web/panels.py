"""The panels beside the table, as generic sections the page draws without knowing them.

Each panel a rule set declares (``RuleSet.PANELS``: one of the kinds front ends know,
:data:`~tertia.core.vocabulary.PANEL_NAMES`) is sent with the view as
``{"name", "label", "help", "action", "sections", "labels"}``: ``sections`` are what the
panel shows, each a titled list of items in one of a few styles; ``labels`` are the
words (and a title on hover) for the values the panel's action puts in order (command
cards). What the panel lets a player do comes from its action kind's interaction (a
button for each offer, cards to put in order, a piece to place, actions planned together),
which the page reads from the vocabulary. Everything here is worked out from the viewing
side's own observation.

A section: ``{"key", "title", "side", "note", "style", "open", "items"}``, ``style`` one
of ``cards`` (a row of small cards), ``list`` (one item a line), ``lines`` (sentences)
and ``dice`` (a die's face and what it did); ``open`` ``False`` for a list shown on
demand. An item: ``{"text", "side", "state", "title", "unit", "target", "face"}``, each
but ``text`` optional: ``state`` is ``active``, ``played``, ``back`` (face down),
``gone``, ``waiting``, ``obeyed`` or ``refused``; ``unit`` a piece the item is about (a
click selects it) and ``target`` the piece an offer of the panel's kind is aimed at.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tertia.activation.command_cards import card_words
from tertia.core.vocabulary import COMMAND_CARDS, DECK, ORDERS, PanelKind

STATE_WORDS = {"active": "in play", "played": "played", "gone": "command lost", "waiting": "face down"}

RECENT = 6
"""Cards drawn before the one in play shown one a line; the rest are counted."""

Namer = Callable[[str], str]


def item(text: str, **extra: Any) -> dict[str, Any]:
    return {"text": text, **{k: v for k, v in extra.items() if v is not None and v is not False}}


def section(key: str, items: Sequence[Mapping[str, Any]], style: str = "list",
            **extra: Any) -> dict[str, Any]:
    return {"key": key, "style": style, "items": list(items),
            **{k: v for k, v in extra.items() if v is not None}}


def panel_view(spec: PanelKind, *, viewer: str, to_act: str, phase: str | None, pending: bool,
               summary: Mapping[str, Any], side_names: Mapping[str, str], names: Namer,
               deck: Mapping[str, Any] | None, cards: Mapping[str, Any] | None,
               phases: Sequence[str]) -> dict[str, Any]:
    """One panel as ``viewer`` sees it (``deck`` and ``cards``: the deck and command-card
    data of :mod:`tertia.web.deck` and :mod:`tertia.web.cards`; ``phases``: those the
    panel's action is made in)."""
    out: dict[str, Any] = {**spec.to_dict(), "sections": [], "labels": {}}
    yours = to_act == viewer
    if spec.name == ORDERS:
        left = summary.get("orders_left")
        now = not phases or phase in phases
        if yours and not pending and now and isinstance(left, int):
            out["sections"].append(section("orders-left", [item(
                f"{left} order{'' if left == 1 else 's'} left this player turn.")], "lines"))
    elif spec.name == DECK and deck is not None:
        out["sections"] = _deck_sections(deck, viewer, side_names, names)
    elif spec.name == COMMAND_CARDS and cards is not None:
        out["sections"], out["labels"] = _card_sections(cards, viewer, side_names)
    return out


def _deck_sections(deck: Mapping[str, Any], viewer: str, side_names: Mapping[str, str],
                   names: Namer) -> list[dict[str, Any]]:
    """The deck: the card in play (and the responses rolled on it), the cards left to draw
    and those drawn this turn."""
    out: list[dict[str, Any]] = []
    active = deck.get("active")
    left: Mapping[str, Sequence[str]] = deck.get("left") or {}
    count = int(deck.get("count") or 0)
    drawn: Sequence[Mapping[str, Any]] = deck.get("drawn") or ()
    pieces = bool(deck.get("pieces"))
    words = (lambda c: str(c)) if pieces else card_words
    if active:
        mine = active.get("side") == viewer
        whose = "your" if mine else f"{side_names.get(str(active.get('side')), 'the enemy')}'s"
        text = (f"Card drawn: {words(active['card'])}{' (yours)' if mine else ''}" if pieces
                else f"In play: {whose} {words(active['card']).lower()} card")
        out.append(section("deck-active", [item(text, side=active.get("side"), state="active",
                                                unit=active.get("unit"))], "lines"))
        rolled = deck.get("responses") or ()
        if rolled:
            out.append(section("deck-responses", [item(
                f"{', '.join(names(u) for u in r.get('units') or ())} "
                f"{'under ' + names(r['officer']) if r.get('officer') else 'without officer'}: "
                f"{'may move' if r.get('obeyed') else 'no move'}",
                face=str(r.get("face") or "–"), state="obeyed" if r.get("obeyed") else "refused",
                title="the die rolled" if r.get("face") else "no die: they move") for r in rolled], "dice"))
    tally = ", ".join(f"{side_names.get(s, s)} {len(c)}" for s, c in left.items())
    counted = f"{count} card{'' if count == 1 else 's'} left to draw this turn"
    out.append(section("deck-count", [item(counted + (f": {tally}." if pieces else "."))], "lines"))
    if pieces:
        before = list(drawn[:-1] if active else drawn)
        if before:
            recent = before[-RECENT:][::-1]
            items = [item(str(c.get("card")), side=c.get("side"), state="played",
                          title=side_names.get(str(c.get("side")), None), unit=c.get("unit")) for c in recent]
            if len(before) > RECENT:
                items.append(item(f"and {len(before) - RECENT} more this turn"))
            out.append(section("deck-drawn", items, "list", title="Drawn before it, last first"))
        for s, cards in left.items():
            if cards:
                out.append(section(f"deck-left-{s}", [item(str(c)) for c in cards], "list", side=s,
                                   open=False, title=f"{side_names.get(s, s)}: {len(cards)} to come"))
        return out
    for s, cards in left.items():
        out.append(section(f"deck-left-{s}", [item(card_words(c), side=s) for c in cards], "cards", side=s,
                           title=f"{side_names.get(s, s)} · {len(cards)} to draw"))
    if drawn:
        items = []
        for d in drawn:
            now = active is not None and (active.get("side"), active.get("card")) == (d.get("side"),
                                                                                    d.get("card"))
            whose = side_names.get(str(d.get("side")), str(d.get("side")))
            name = card_words(str(d.get("card")))
            items.append(item(name, side=d.get("side"), state="active" if now else "played",
                              title=f"{whose} {name.lower()}{': in play' if now else ''}"))
        out.append(section("deck-drawn", items, "cards", title="Drawn this turn"))
    return out


def _card_sections(cards: Mapping[str, Any], viewer: str,
                   side_names: Mapping[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Command cards: the viewer's own order (played struck through, the one in play
    picked out), the other side's cards turned over and face down, the command active;
    and the words for each of the viewer's cards, to put them in order."""
    out: list[dict[str, Any]] = []
    sides: Mapping[str, Mapping[str, Any]] = cards.get("sides") or {}
    active = cards.get("active") or None
    own = sides.get(viewer) or {}
    units: Mapping[str, Sequence[str]] = own.get("units") or {}
    labels = {c: {"text": card_words(c), "title": "\n".join(units.get(c, ())),
                  "note": f"{len(units[c])} unit{'' if len(units[c]) == 1 else 's'}" if units.get(c) else ""}
              for c in own.get("held") or ()}
    mine = side_names.get(viewer, viewer)
    order = own.get("order")
    if own and order is None:
        words = ("Your cards are shuffled: each is drawn at random." if own.get("shuffled")
                 else "Your cards are not laid yet.")
        out.append(section("own-order", [item(words)], "lines", title=f"{mine} (you)", side=viewer))
    elif own and isinstance(order, list | tuple):
        played = set(own.get("played") or ())
        held = set(own.get("held") or ())
        now = active.get("card") if active and active.get("side") == viewer else None
        items = []
        for c in order:
            state = ("active" if c == now else "played" if c in played else "gone" if c not in held
                     else "waiting")
            items.append(item(card_words(c), state=state, id=c, note=STATE_WORDS[state]))
        out.append(section("own-order", items, "ordered", title=f"{mine} (you)", side=viewer))
    for s, entry in sides.items():
        if s == viewer:
            continue
        now = active.get("card") if active and active.get("side") == s else None
        items = [item(card_words(c), state="active" if c == now else "played", id=c,
                      title="in play" if c == now else "played") for c in entry.get("played") or ()]
        items += [item("", state="back", title="face down") for _ in range(int(entry.get("left") or 0))]
        note = ("shuffled" if entry.get("shuffled") else
                f"{entry.get('left')} face down" if entry.get("ordered") else "not laid yet")
        out.append(section("other-cards", items, "cards", side=s, title=f"{side_names.get(s, s)} · {note}"))
    if active:
        whose = "your" if active.get("side") == viewer else f"{side_names.get(str(active.get('side')), '')}'s"
        out.append(section("active-command", [item(
            f"Active: {whose} {card_words(str(active.get('card'))).lower()} command", side=active.get("side"),
            state="active")], "lines"))
    return out, labels
