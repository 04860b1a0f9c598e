"""Troop profiles loaded from ``troops.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from tertia.core.state import UnitKind


@dataclass(frozen=True, slots=True)
class TroopProfile:
    word: str
    move: float
    hit_limit: int
    combat_range: float
    pikes: bool
    bombard_range: float = 0.0

    @property
    def is_infantry(self) -> bool:
        return self.word == "infantry"

    @property
    def is_cavalry(self) -> bool:
        return self.word == "cavalry"


def _load() -> dict[UnitKind, TroopProfile]:
    text = resources.files(__package__).joinpath("troops.toml").read_text(encoding="utf-8")
    return {UnitKind(k): TroopProfile(**v) for k, v in tomllib.loads(text).items()}


_PROFILES = _load()
"""Every troop type's profile, read once at import."""


def profile(kind: UnitKind) -> TroopProfile:
    return _PROFILES[kind]
