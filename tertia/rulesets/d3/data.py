"""The game-wide values the D3 rule sets keep (``GameState.own``), declared once.

``d3-commands`` and ``d3-cards`` share :class:`D3Data`, each adding what its own sequence
of play needs (``d3_commands.data``, ``d3_cards.data``). Events write them by field name, or
``"<field>:<side>"`` for one kept per side (:class:`~tertia.core.events.GameDataChanged`);
rules read them through ``GameState.value`` and the accessors beside each rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from tertia.core.ruledata import RuleData
from tertia.core.state import GameState


@dataclass(frozen=True, slots=True)
class D3Data(RuleData):
    """What both D3 rule sets keep for the whole game.

    ``turn_limit``, ``edges`` (each side's table edge) and ``royalist_sides`` come from the
    scenario; ``weather`` is the day's weather (Weather); ``activation`` the command or
    troop type now activated (``{"side", "card"}``); ``charges`` each unit that charged
    home and the unit it charged, and ``passing`` the [charger, unit] pairs a charge only
    brushed (Charges), both until either moves."""

    type: ClassVar[str] = "d3_data"
    turn_limit: int = 0
    edges: Mapping[str, str] = field(default_factory=dict)
    royalist_sides: tuple[str, ...] = ()
    weather: str | None = None
    activation: Mapping[str, str] | None = None
    charges: Mapping[str, str] = field(default_factory=dict)
    passing: tuple[tuple[str, str], ...] = ()


def activation_of(state: GameState) -> Mapping[str, str] | None:
    """The command or troop type now activated, ``{"side", "card"}``, or None (Sequence
    of Play); read straight off the record, as the rules ask it of every unit."""
    own = state.own
    return own.activation if isinstance(own, D3Data) else state.value("activation")
