"""The game-wide values ``d3-commands`` keeps (``GameState.own``): the shared D3 values
and its command cards (:mod:`tertia.activation.command_cards`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.ruledata import per_side
from tertia.rulesets.d3.data import D3Data


@dataclass(frozen=True, slots=True)
class D3CommandsData(D3Data):
    """``d3-commands`` adds its command cards and who deploys first (Sequence of Play,
    Deployment): ``card_deck``, ``card_order`` (secret from the other side until played)
    and ``cards_played`` per side, ``cards_shuffled`` (sides drawing at random) and
    ``deploy_first``."""

    type: ClassVar[str] = "d3_commands_data"
    card_deck: Mapping[str, Any] = per_side()
    card_order: Mapping[str, Any] = per_side()
    cards_played: Mapping[str, Any] = per_side()
    cards_shuffled: tuple[str, ...] = ()
    deploy_first: str | None = None
