"""The game-wide values ``d3-cards`` keeps (``GameState.own``): the shared D3 values and
its unit-type deck (:mod:`tertia.activation.unit_type_deck`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.ruledata import per_side
from tertia.rulesets.d3.data import D3Data


@dataclass(frozen=True, slots=True)
class D3CardsData(D3Data):
    """``d3-cards`` adds its unit-type deck (Sequence of Play): ``deck`` (cards still to
    draw this turn), ``drawn`` (in the order drawn), and each side's commander rallies
    used (``rallies_used``)."""

    type: ClassVar[str] = "d3_cards_data"
    deck: tuple[tuple[str, str], ...] = ()
    drawn: tuple[tuple[str, str], ...] = ()
    rallies_used: Mapping[str, int] = per_side()
