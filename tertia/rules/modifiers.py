"""Dice modifiers: a number and the reason a player would give for it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Modifier:
    """One adjustment to a roll, e.g. ``+1 muskets: infantry with ammunition attacking``."""

    value: int
    reason: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason}"


def total(modifiers: Iterable[Modifier]) -> int:
    """The net adjustment of several modifiers."""
    return sum(m.value for m in modifiers)
