"""The deck of unit-type cards as one side may see it, for the page's deck panel
(``d3-cards``: Sequence of Play).

Worked out only from that side's observation (``Game.observe``): the cards still to be
drawn this turn (which cards they are is public: every card drawn is shown, and each
draw is at random from those left, so they hold no order to hide), the cards drawn so
far in the order they came, and the card in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.activation.unit_type_deck import CARD_TYPES
from tertia.web.cards import game_values


def _cards(value: Any) -> list[tuple[str, str]]:
    if not isinstance(value, list | tuple):
        return []
    return [(str(c[0]), str(c[1])) for c in value if isinstance(c, list | tuple) and len(c) == 2]


def deck_view(seen: Mapping[str, Any], viewer: str) -> dict[str, Any] | None:
    """The deck panel's data from ``viewer``'s own observation ``seen``; ``None`` when the
    position holds no deck.

    ``left``: per side, the card types still to draw, in the box's order; ``drawn``: the
    cards drawn this turn, first first, each ``{"side", "card"}``; ``active``: the card in
    play (``{"side", "card"}``) or ``None``; ``count``: how many cards are left in all."""
    extra = game_values(seen)
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
    }
