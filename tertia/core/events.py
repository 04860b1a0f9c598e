"""Events: what happened, in the past tense. One reducer applies them to state; the same
stream drives the narrative, reports, the web page and statistics."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from tertia.core.geometry import Point
from tertia.core.tagged import Registry, Tagged


@dataclass(frozen=True, slots=True)
class Event(Tagged):
    """Base of all events; each subclass registers under its ``type`` name."""

    type: ClassVar[str] = "event"
    registry: ClassVar[Registry] = {}


EVENT_TYPES = Event.registry


def event_from_dict(d: Mapping[str, Any]) -> Event:
    cls: type[Event] = EVENT_TYPES[str(d["type"])]
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        v = d.get(f.name)
        if isinstance(v, list):
            v = tuple(tuple(p) if isinstance(p, list) else p for p in v)
        kwargs[f.name] = v
    return cls(**kwargs)


class Casualties:
    """The kind of every event by which a unit loses strength, however its rule set counts
    it: hits, stands, figures or morale points. The shared blocks' events are of this kind
    (``rules/hits.py: HitsInflicted``, ``rules/casualties.py: StandsLost, FiguresLost``,
    ``rules/morale.py: MoraleLost``), so the narrator, statistics and front ends read any
    of them alike: which ``unit``, how much (:attr:`amount`) of what (:attr:`noun`), and
    its ``cause``. Each keeps its own type name and fields; the reducer applies each with
    its block's handler.

    >>> from tertia.rules.casualties import StandsLost
    >>> lost = StandsLost(unit="red-foot", stands=2, cause="routed")
    >>> isinstance(lost, Casualties), lost.amount, lost.noun
    (True, 2, 'stand')
    """

    __slots__ = ()
    measure: ClassVar[str]
    """The name of the field holding how much was lost."""
    noun: ClassVar[str]
    """What one of them is called ("hit", "stand", "figure", "morale point")."""
    unit: str
    cause: str

    @property
    def amount(self) -> int:
        """How much was lost (the field :attr:`measure` names)."""
        return int(getattr(self, self.measure))


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    first_side: str


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """A player turn began (``turn`` counts game turns from 1)."""

    type: ClassVar[str] = "turn_began"
    turn: int
    side: str


@dataclass(frozen=True, slots=True)
class PhaseBegan(Event):
    type: ClassVar[str] = "phase_began"
    phase: str


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    type: ClassVar[str] = "dice_rolled"
    purpose: str
    die: str
    value: int


@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """A unit moved along ``path`` (its start first) and ended facing ``facing``."""

    type: ClassVar[str] = "unit_moved"
    unit: str
    path: tuple[Point, ...]
    facing: float
    reason: str = "move"


@dataclass(frozen=True, slots=True)
class UnitFormed(Event):
    """A unit took up ``formation``: its footprint is now ``width`` by ``depth`` centred
    on (``x``, ``y``). The rule set keeps the formation's name among its unit values
    (``formation``); the stands are laid out by :mod:`tertia.rules.formations`."""

    type: ClassVar[str] = "unit_formed"
    unit: str
    formation: str
    x: float
    y: float
    width: float
    depth: float


@dataclass(frozen=True, slots=True)
class StandsScattered(Event):
    """A unit's stands stand apart (a rout of stands each moving on its own): each of
    ``places`` is a stand's (x, y) in the unit's facing, ``width`` by ``depth``, the first
    its flag; ``gone`` marks those that have left play (``gone[i]`` true: off the table).
    The unit itself stands where its flag stands (the first stand still in play)."""

    type: ClassVar[str] = "stands_scattered"
    unit: str
    places: tuple[Point, ...]
    width: float
    depth: float
    gone: tuple[bool, ...] = ()


@dataclass(frozen=True, slots=True)
class StandsGathered(Event):
    """A unit's scattered stands are together again about its flag, as one footprint
    ``width`` by ``depth`` centred on (``x``, ``y``) facing ``facing``."""

    type: ClassVar[str] = "stands_gathered"
    unit: str
    x: float
    y: float
    facing: float
    width: float
    depth: float


@dataclass(frozen=True, slots=True)
class UnitTurned(Event):
    type: ClassVar[str] = "unit_turned"
    unit: str
    facing: float
    reason: str = "turn"


@dataclass(frozen=True, slots=True)
class Marked(Event):
    """Bookkeeping for the current player turn: ``ident`` joins the set ``mark``."""

    type: ClassVar[str] = "marked"
    mark: str
    ident: str


@dataclass(frozen=True, slots=True)
class UnitDeployed(Event):
    """A unit waiting off the table was placed on it."""

    type: ClassVar[str] = "unit_deployed"
    unit: str
    x: float
    y: float
    facing: float


@dataclass(frozen=True, slots=True)
class UnitRemoved(Event):
    """A unit or commander left play: ``reason`` is routed, raided, misfortune ..."""

    type: ClassVar[str] = "unit_removed"
    unit: str
    reason: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ObjectiveTaken(Event):
    type: ClassVar[str] = "objective_taken"
    objective: str
    side: str


@dataclass(frozen=True, slots=True)
class DecisionAwaited(Event):
    """The rules await a decision from a side other than the active one."""

    type: ClassVar[str] = "decision_awaited"
    side: str
    kind: str
    context: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class DecisionMade(Event):
    type: ClassVar[str] = "decision_made"
    side: str
    kind: str
    choice: str | None


@dataclass(frozen=True, slots=True)
class Narrated(Event):
    """A line of narrative with no effect on state (what a player says at the table)."""

    type: ClassVar[str] = "narrated"
    text: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    winner: str | None
    score: Mapping[str, int]
    reason: str
    breakdown: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class UnitStatusChanged(Event):
    """A rule set's own per-unit value changed (kept in ``Unit.extra``)."""

    type: ClassVar[str] = "unit_status_changed"
    unit: str
    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class GameDataChanged(Event):
    """A rule set's own game-wide value changed: ``key`` names a field of the values it
    declares (``GameState.own``), or ``"<field>:<side>"`` for one kept per side."""

    type: ClassVar[str] = "game_data_changed"
    key: str
    value: Any
