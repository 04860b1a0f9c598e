"""What a rule set that counts hits keeps for each unit and commander
(``larger-battles``, ``d3-commands``, ``d3-cards``); :func:`tertia.rules.pieces.piece`
reads it, :mod:`tertia.rules.hits` has the events that change it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.ruledata import RuleData


@dataclass(frozen=True, slots=True)
class HitsPiece(RuleData):
    """What a rule set that counts hits keeps for each unit and commander."""

    type: ClassVar[str] = "hits_piece"
    general: bool = False
    value: int = 0
    hits: int = 0
    out_of_ammo: bool = False
    ammo_markers: int = 0
    fired: bool = False


NO_HITS = HitsPiece()
"""A piece with no hits, ammunition to spare, no gun fired, no commander's value."""
