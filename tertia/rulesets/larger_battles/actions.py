"""What a player does under larger-battles beyond moving and ending a phase: orders,
bombardment, declared attacks and a defender's encouragement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action
from tertia.rules.fighting import Attack


@dataclass(frozen=True, slots=True)
class GiveOrder(Action):
    """Spend an order on a command or a single unit (larger-battles: Orders)."""

    type: ClassVar[str] = "give_order"
    target: str
    purpose: str = "move"  # "move" or "bombard"


@dataclass(frozen=True, slots=True)
class Bombard(Action):
    """An artillery unit fires at a target."""

    type: ClassVar[str] = "bombard"
    gun: str
    target: str


@dataclass(frozen=True, slots=True)
class DeclareAttacks(Action):
    """Every attack of a combat phase, declared together (larger-battles: Combat; support
    is judged against all the phase's targets); each is then fought by an :class:`Attack`
    naming its primary and target."""

    type: ClassVar[str] = "declare_attacks"
    attacks: tuple[Attack, ...] = ()


@dataclass(frozen=True, slots=True)
class Encourage(Action):
    """The defending side's answer to an attack: a commander who encourages, or none."""

    type: ClassVar[str] = "encourage"
    commander: str | None = None
