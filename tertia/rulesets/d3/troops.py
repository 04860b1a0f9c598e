"""Troop types as both D3 texts describe them: movement allowances, who may charge,
who shoots, traits (impetuous Horse, the optional Clubmen)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.state import GameState, Unit, UnitKind

MOVE: Mapping[UnitKind, float] = {
    UnitKind.HORSE: 12.0,
    UnitKind.DRAGOONS: 9.0,
    UnitKind.FOOT: 6.0,
    UnitKind.COMMANDED_SHOT: 6.0,
    UnitKind.ARTILLERY: 6.0,
    UnitKind.COMMANDER: 12.0,
}
"""Movement: Horse 12", Dragoons 9", Foot and Commanded Shot 6", Artillery 6". Neither
text gives commanders a distance; where they move (d3-cards) they move as Horse."""

CHARGERS = frozenset({UnitKind.HORSE, UnitKind.FOOT})
"""Horse and Foot are the only units that may charge."""

MUSKETS = frozenset({UnitKind.FOOT, UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT})
"""Only Foot, Dragoons and Commanded Shot shoot with muskets or flintlocks."""

IMPETUOUS = "impetuous"
CLUBMEN = "clubmen"


def can_charge(unit: Unit) -> bool:
    return unit.kind in CHARGERS


def has_muskets(unit: Unit) -> bool:
    """Foot, Dragoons and Commanded Shot; Clubmen (foot with the ``clubmen`` trait) carry
    no muskets."""
    return unit.kind in MUSKETS and CLUBMEN not in unit.traits


def is_clubmen(unit: Unit) -> bool:
    return CLUBMEN in unit.traits


def is_infantry(unit: Unit, options: Mapping[str, Any]) -> bool:
    """"Infantry" in a melee modifier: Foot, and Commanded Shot too with the option
    ``infantry_in_melee = "foot-and-commanded-shot"`` (the texts list infantry apart from
    Dragoons and Commanded Shot where towns are concerned)."""
    if unit.kind is UnitKind.FOOT:
        return True
    return unit.kind is UnitKind.COMMANDED_SHOT and options["infantry_in_melee"] != "foot"


def is_royalist(state: GameState, side: str) -> bool:
    return side in state.value("royalist_sides", ())


def is_impetuous(state: GameState, unit: Unit, options: Mapping[str, Any]) -> bool:
    """Impetuous Horse: Horse with the ``impetuous`` trait, or every Royalist Horse with
    the option ``royalist_horse_impetuous``."""
    if unit.kind is not UnitKind.HORSE:
        return False
    if IMPETUOUS in unit.traits:
        return True
    return bool(options["royalist_horse_impetuous"]) and is_royalist(state, unit.side)
