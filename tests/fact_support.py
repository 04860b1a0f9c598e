"""Reading a piece card as front ends receive it (``PieceCard.to_dict``: its ``facts`` a
list of ``{key, label, kind, value, words, text, ...}``), by fact key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def facts_of(card: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """A card dict's facts by key (only those with anything to show are in a card dict)."""
    return {f["key"]: f for f in card["facts"]}


def fact_of(card: Mapping[str, Any], key: str) -> dict[str, Any] | None:
    """Fact ``key`` of a card dict, or None when the card does not show it."""
    return facts_of(card).get(key)
