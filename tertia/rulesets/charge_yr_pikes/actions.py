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


@dataclass(frozen=True, slots=True)
class Breakthrough(Action):
    """In the bonus moves (Sequence of play I) a horse unit that won its close combat and
    passed its test rides at ``target``, another enemy unit, on its normal move, to fight
    it at once (12 J: "Normal movment is used, not charge movement")."""

    type: ClassVar[str] = "cyp_breakthrough"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class MoraleToMove(Action):
    """A unit charged this turn that has not yet moved tests morale on its card so that
    it may move away from its chargers (``purpose`` "move_away": failing, it routs), or
    change formation or reface ("reform": failing, it routs or stands as ``tables.toml
    [reaction]`` says) (12 L)."""

    type: ClassVar[str] = "cyp_morale_to_move"
    unit: str
    purpose: str = "move_away"


@dataclass(frozen=True, slots=True)
class TurnToMeet(Action):
    """A unit charged in flank or rear by ``attacker`` that has not yet moved turns on
    its card to meet the attack front to front (13 B)."""

    type: ClassVar[str] = "cyp_turn_to_meet"
    unit: str
    attacker: str


@dataclass(frozen=True, slots=True)
class JoinFrontRank(Action):
    """On his army's Officers & Artillery card an officer touching ``unit``, a friendly
    unit he commands, takes his place in its front rank ("IN THE FRONT RANK - A general
    who is touching a friendly unit and is fighting with the unit")."""

    type: ClassVar[str] = "cyp_join_front_rank"
    officer: str
    unit: str


@dataclass(frozen=True, slots=True)
class LeaveFrontRank(Action):
    """On his army's Officers & Artillery card an officer leaves the front rank he is in,
    unless its unit is routed (Tertias and officers 4 D), and stands where he is."""

    type: ClassVar[str] = "cyp_leave_front_rank"
    officer: str
