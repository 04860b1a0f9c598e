"""Charge yr Pikes!' own actions (moves are the core's ``Move``; ``EndPhase`` ends the
card in play)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action

FREE_MOVE = "cyp_free_move"
"""The decision awaited when a free move card is turned: which tertia moves."""


@dataclass(frozen=True, slots=True)
class Reform(Action):
    """A unit that may move on this card takes up ``formation`` (Formations B: "Units can
    change formation freely at the end of their move")."""

    type: ClassVar[str] = "cyp_reform"
    unit: str
    formation: str


@dataclass(frozen=True, slots=True)
class GiveFreeMove(Action):
    """The commander-in-chief gives the free move to ``tertia`` (Sequence of play A)."""

    type: ClassVar[str] = "cyp_give_free_move"
    tertia: str


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """A unit that may move on this card charges ``target`` (Close combat 12 A): it goes
    straight at it and halts 1" away, to test to close in the close combat phase."""

    type: ClassVar[str] = "cyp_charge"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class Mount(Action):
    """Dragoons that may move on this card take to their horses (``mounted``) or get down
    to fight on foot (Dragoons 18)."""

    type: ClassVar[str] = "cyp_mount"
    unit: str
    mounted: bool


FIRE_KINDS = ("musket", "galloper", "ball", "canister")


@dataclass(frozen=True, slots=True)
class FireOrder(Action):
    """In a fire step (Sequence of play C, D, E) ``unit`` is ordered to fire at
    ``target``: ``kind`` is "musket" (muskets), "galloper" (a galloper gun), "ball" or
    "canister" (field and heavy guns)."""

    type: ClassVar[str] = "cyp_fire"
    unit: str
    target: str
    kind: str = "musket"
