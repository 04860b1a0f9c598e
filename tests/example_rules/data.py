"""The example slice's own values, actions, events and refusal codes (every type tag
prefixed ``declare_``, every code in the ``example-declare`` namespace)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, cast

from tertia.core.actions import Action
from tertia.core.events import Event
from tertia.core.geometry import Point
from tertia.core.reducer import handles
from tertia.core.ruledata import RuleData
from tertia.core.state import GameState, Stand, Unit, UnitKind
from tertia.core.violations import Codes
from tertia.rules.formations import FORMATIONS, Formation

RULES_ID = "example-declare"
SHORT_TITLE = "Example slice"
"""The rule set's name where room is short, as a reader sees it."""
RULE = "Declare Thee Sir"

STAND_SIZE: dict[UnitKind, tuple[float, float]] = {
    UnitKind.FOOT: (1.5, 1.0),
    UnitKind.HORSE: (2.0, 1.0),
    UnitKind.DRAGOONS: (1.5, 1.0),
    UnitKind.COMMANDED_SHOT: (1.5, 1.0),
    UnitKind.ARTILLERY: (2.0, 1.5),
    UnitKind.COMMANDER: (1.0, 1.0),
}
"""(frontage, depth) of one stand, in inches."""

DEFAULT_STANDS: dict[UnitKind, int] = {
    UnitKind.FOOT: 3, UnitKind.HORSE: 2, UnitKind.DRAGOONS: 2,
    UnitKind.COMMANDED_SHOT: 1, UnitKind.ARTILLERY: 1, UnitKind.COMMANDER: 1,
}
"""Unit Compositions: a regiment of foot is three divisions; cavalry two or three stands."""
MOST_STANDS = 6
"""The most stands an order of battle may give a unit."""

CARDS: dict[UnitKind, int] = {UnitKind.HORSE: 2, UnitKind.DRAGOONS: 2}
"""Unit Compositions: cavalry have two cards, everything else one (commanders: none in
this slice)."""

MOUNTED = frozenset({UnitKind.HORSE, UnitKind.DRAGOONS})
MUSKETS = frozenset({UnitKind.FOOT, UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT})

FREE_MOVE = "free_move"
"""The special card: each side's, activating the unit it secretly chose."""

ASSIGN_FREE_MOVE = "assign_free_move"
STAND_OR_FIRE = "stand_or_fire"
COUNTERCHARGE = "countercharge"


def formation_of(unit: Unit) -> Formation:
    return FORMATIONS[piece(unit).formation]


class ExampleCode(Codes, namespace=RULES_ID):
    UNKNOWN_FORMATION = "no such formation"
    FORMATION_NOT_ALLOWED = "the unit may not take that formation"
    SAME_FORMATION = "the unit is already in that formation"
    OBLIQUE = "the path turns more than 45 degrees off the unit's facing"
    BAD_CHOICE = "the answer is not one of those offered"
    NO_MUSKETS = "the unit has no muskets to fire"


# --- values ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeclareUnit(RuleData):
    """A unit's formation, stands left and at the start (0: its kind's usual number), and
    morale points (``None``: untested)."""

    type: ClassVar[str] = "declare_unit"
    formation: str = "line"
    stands_left: int = 1
    morale: int | None = None
    morale_max: int | None = None
    stands_start: int = 0


@dataclass(frozen=True, slots=True)
class DeclareGame(RuleData):
    """The deck, the unit activated now and by which card, each side's secret free-move
    unit (``(side, unit)`` pairs), the charge being answered, and the turn limit."""

    type: ClassVar[str] = "declare_game"
    deck_left: tuple[str, ...] = ()
    deck_drawn: tuple[str, ...] = ()
    activated: str | None = None
    card: str | None = None
    free_move: tuple[tuple[str, Any], ...] = ()
    charge: tuple[str, str] | None = None
    turn_limit: int = 8


def piece(unit: Unit) -> DeclareUnit:
    return cast(DeclareUnit, unit.own)


def game_data(state: GameState) -> DeclareGame:
    return cast(DeclareGame, state.own)


def free_move_of(state: GameState, side: str) -> Any:
    """The unit ``side`` gave its free-move card to (a placeholder in a view that hides
    it), or None."""
    return dict(game_data(state).free_move).get(side)


# --- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AssignFreeMove(Action):
    """Secretly give this turn's free-move card to one of the side's units."""

    type: ClassVar[str] = "declare_assign_free_move"
    unit: str


@dataclass(frozen=True, slots=True)
class ChangeFormation(Action):
    """Option 1, Formation Change."""

    type: ClassVar[str] = "declare_change_formation"
    unit: str
    formation: str


@dataclass(frozen=True, slots=True)
class Advance(Action):
    """Option 2, Advance: along the path as far as the movement dice allow."""

    type: ClassVar[str] = "declare_advance"
    unit: str
    waypoints: tuple[Point, ...] = ()


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Advance into melee: "the attacking unit must use advance option to move directly
    at target unit"."""

    type: ClassVar[str] = "declare_charge"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class RespondToCharge(Action):
    """The charged unit stands, or gives the charger a volley first."""

    type: ClassVar[str] = "declare_respond"
    choice: str


@dataclass(frozen=True, slots=True)
class Countercharge(Action):
    """A friend of the charged unit meets the charger (``None``: nobody does)."""

    type: ClassVar[str] = "declare_countercharge"
    unit: str | None = None


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FreeMoveAssigned(Event):
    """Secret: only ``side`` sees it."""

    type: ClassVar[str] = "test_declare_free_move_assigned"
    side: str
    unit: str


@dataclass(frozen=True, slots=True)
class UnitActivated(Event):
    type: ClassVar[str] = "test_declare_unit_activated"
    side: str
    unit: str
    card: str


@dataclass(frozen=True, slots=True)
class ActivationEnded(Event):
    type: ClassVar[str] = "test_declare_activation_ended"
    unit: str


@dataclass(frozen=True, slots=True)
class ChargeDeclared(Event):
    type: ClassVar[str] = "test_declare_charge_declared"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class ChargeMet(Event):
    """A countercharger reached the charger: the charger fights it instead."""

    type: ClassVar[str] = "test_declare_charge_met"
    charger: str
    by: str


@dataclass(frozen=True, slots=True)
class ChargeOver(Event):
    type: ClassVar[str] = "test_declare_charge_over"
    unit: str


@dataclass(frozen=True, slots=True)
class StandsFled(Event):
    """A routed unit's stands, each where its own flight took it."""

    type: ClassVar[str] = "test_declare_stands_fled"
    unit: str
    places: tuple[Point, ...]


@handles(FreeMoveAssigned)
def _assigned(s: GameState, e: FreeMoveAssigned) -> GameState:
    g = game_data(s)
    kept = tuple(p for p in g.free_move if p[0] != e.side)
    return s.evolve(own=g.evolve(free_move=(*kept, (e.side, e.unit))))


@handles(UnitActivated)
def _activated(s: GameState, e: UnitActivated) -> GameState:
    g = game_data(s)
    free = g.free_move
    if e.card.startswith("special:"):
        free = tuple(p for p in free if p[0] != e.side)
    return s.evolve(active=e.side, own=g.evolve(activated=e.unit, card=e.card, free_move=free))


@handles(ActivationEnded)
def _ended(s: GameState, e: ActivationEnded) -> GameState:
    return s.evolve(own=game_data(s).evolve(activated=None, card=None))


@handles(ChargeDeclared)
def _charge(s: GameState, e: ChargeDeclared) -> GameState:
    return s.evolve(own=game_data(s).evolve(charge=(e.unit, e.target)))


@handles(ChargeMet)
def _met(s: GameState, e: ChargeMet) -> GameState:
    return s.evolve(own=game_data(s).evolve(charge=(e.charger, e.by)))


@handles(ChargeOver)
def _over(s: GameState, e: ChargeOver) -> GameState:
    return s.evolve(own=game_data(s).evolve(charge=None))


@handles(StandsFled)
def _fled(s: GameState, e: StandsFled) -> GameState:
    u = s.units[e.unit]
    w, d = STAND_SIZE[u.kind]
    return s.with_unit(u.evolve(stands=tuple(Stand(x, y, u.facing, w, d) for x, y in e.places)))
