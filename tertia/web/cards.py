"""The command cards as one side may see them, for the page's card panel.

Worked out only from that side's observation (``Game.observe``), which already hides the
other side's order: the side's own cards, its order once laid face down and which of them
are played; of the other side, only the cards it has turned over and how many it still
holds face down. ``None`` for rule sets without command cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tertia.activation.command_cards import SHUFFLED, deck_key, order_key, played_key
from tertia.core.ruledata import rule_data_from_dict
from tertia.core.state import Unit

CardOf = Callable[[Unit], str | None]
"""Which card activates a unit (``Presentation.card_of``); ``None`` for none."""


def game_values(seen: Mapping[str, Any]) -> dict[str, Any]:
    """The game-wide values of an observation sent as JSON (``GameState.to_dict``), by
    the keys events write (``GameState.value``)."""
    own = seen.get("own")
    declared = {} if not isinstance(own, Mapping) else rule_data_from_dict(own).flat_values()
    return {**(seen.get("extra") or {}), **declared}


def _names(value: Any) -> list[str]:
    return [str(c) for c in value] if isinstance(value, list | tuple) else []


def card_view(seen: Mapping[str, Any], viewer: str, card_of: CardOf | None = None) -> dict[str, Any] | None:
    """The card panel's data for ``viewer`` from ``viewer``'s own observation ``seen``.

    Each side shows ``left`` (cards still face down), ``played`` (turned over, in order)
    and whether it has ``ordered``; the viewer's own side adds ``held`` (its cards this
    turn), ``order`` (its order once laid, else ``None``) and ``units`` (the names of
    each card's units, when ``card_of`` says which card activates a unit). ``active`` is
    the command now activated (``{"side", "card"}``) or ``None``."""
    extra = game_values(seen)
    sides = [str(s) for s in seen.get("sides") or ()]
    if not any(deck_key(s) in extra for s in sides):
        return None
    shuffled = set(_names(extra.get(SHUFFLED)))
    out: dict[str, Any] = {}
    for side in sides:
        held = _names(extra.get(deck_key(side)))
        played = _names(extra.get(played_key(side)))
        order = extra.get(order_key(side))
        entry: dict[str, Any] = {
            "left": sum(1 for c in held if c not in played),
            "played": played,
            "ordered": order is not None,
            "shuffled": side in shuffled,
        }
        if side == viewer:
            entry["held"] = held
            entry["order"] = _names(order) if isinstance(order, list | tuple) else None
            entry["units"] = _card_units(seen, side, card_of)
        out[side] = entry
    active = extra.get("activation")
    shown = None
    if isinstance(active, Mapping):
        shown = {"side": str(active.get("side")), "card": str(active.get("card"))}
    return {"viewer": viewer, "sides": out, "active": shown}


def _card_units(seen: Mapping[str, Any], side: str, card_of: CardOf | None) -> dict[str, list[str]]:
    if card_of is None:
        return {}
    units: dict[str, list[str]] = {}
    for data in seen.get("units") or ():
        if data.get("side") != side or data.get("removed") or data.get("kind") == "commander":
            continue
        try:
            unit = Unit.from_dict(data)
        except (KeyError, TypeError, ValueError):
            continue
        card = card_of(unit)
        if card is not None:
            units.setdefault(card, []).append(str(data.get("name") or data.get("id")))
    return units

