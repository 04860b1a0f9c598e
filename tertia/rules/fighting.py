"""Fighting shared by the rule sets that count hits: one unit attacking another (with
supports and an encouraging commander under ``larger-battles``; a D3 melee under the D3
rule sets), a unit shooting, and the report of a fight resolved."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action
from tertia.core.events import Event


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """A primary attacker engages a target, with supporting units and an encouraging
    commander (larger-battles: Combat)."""

    type: ClassVar[str] = "attack"
    attacker: str
    target: str
    supports: tuple[str, ...] = ()
    commander: str | None = None


@dataclass(frozen=True, slots=True)
class Shoot(Action):
    """A unit fires its muskets (or a gun its shot) at a target."""

    type: ClassVar[str] = "shoot"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class AttackResolved(Event):
    """A combat, bombardment or shot was resolved (the dice are separate events)."""

    type: ClassVar[str] = "attack_resolved"
    kind: str
    attacker: str
    target: str
    supports: tuple[str, ...]
    attacker_score: int
    defender_score: int
    modifiers: tuple[str, ...]
    defender_modifiers: tuple[str, ...]
    summary: str
