"""What larger-battles keeps for the whole game (its supply bases, turn limit, declared
attacks ...) and the events only it has: orders given and supplies raided, with how the
reducer applies them and how the log tells them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Self

from tertia.core.events import DiceRolled, Event
from tertia.core.geometry import Base
from tertia.core.narration import Narrating, Sentence, humanise, possessive, side_does, tells
from tertia.core.records import frozen_value
from tertia.core.reducer import handles
from tertia.core.ruledata import RuleData
from tertia.core.state import GameState
from tertia.core.table_markers import TableMarker


@dataclass(frozen=True, slots=True)
class Supply:
    """A supply base marker (larger-battles: Supplies)."""

    id: str
    side: str
    x: float
    y: float
    width: float = 2.0
    depth: float = 1.0
    raided_by: str | None = None
    base: Base = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", Base(self.x, self.y, 0.0, self.width, self.depth))

    @property
    def in_play(self) -> bool:
        return self.raided_by is None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "side": self.side, "x": self.x, "y": self.y,
                "width": self.width, "depth": self.depth, "raided_by": self.raided_by}


@dataclass(frozen=True, slots=True)
class LargerBattlesData(RuleData):
    """The game-wide values larger-battles keeps: each side's supply bases (Supplies); from
    the scenario the turn limit, the side that moves first, each side's table edge and
    whether taking each objective ends the game (Victory); and the declared attacks not
    yet fought, in the order declared (Combat)."""

    type: ClassVar[str] = "larger_battles_data"
    supplies: tuple[Supply, ...] = ()
    turn_limit: int = 0
    first: str | None = None
    edges: Mapping[str, str] = field(default_factory=dict)
    objective_ends: Mapping[str, bool] = field(default_factory=dict)
    declared_attacks: tuple[Mapping[str, Any], ...] = ()

    def values(self) -> dict[str, Any]:
        return {**RuleData.values(self), "supplies": [s.to_dict() for s in self.supplies]}

    def table_markers(self) -> tuple[TableMarker, ...]:
        """The supply bases, raided or not, as maps draw them."""
        return tuple(TableMarker(s.id, "supply", "Supplies", s.side, s.x, s.y, s.width, s.depth,
                                 s.raided_by) for s in self.supplies)

    @classmethod
    def from_values(cls, d: Mapping[str, Any]) -> Self:
        rest = {name: frozen_value(d[name]) for name in cls.names() if name in d and name != "supplies"}
        return cls(supplies=tuple(Supply(**s) for s in d.get("supplies", ())), **rest)


NO_DATA = LargerBattlesData()


def supplies_of(state: GameState) -> tuple[Supply, ...]:
    """The supply bases on the table (larger-battles: Supplies)."""
    own = state.own
    return own.supplies if isinstance(own, LargerBattlesData) else ()


_MARKERS = ("larger-battles", "supply markers")
"""Where a state remembers its supply markers (``GameState.cache``)."""


_last_markers: tuple[tuple[Supply, ...], tuple[tuple[str, Base], ...]] = ((), ())
"""The markers last worked out, with the supplies they came from: the supplies stay the
same object from one position to the next until one is raided."""


def supply_markers(state: GameState) -> tuple[tuple[str, Base], ...]:
    """The supply bases still on the table, named, as movement blocks them (remembered
    on the state, which never changes)."""
    global _last_markers
    found: tuple[tuple[str, Base], ...] | None = state.cache.get(_MARKERS)
    if found is None:
        supplies = supplies_of(state)
        last_supplies, found = _last_markers
        if supplies is not last_supplies:
            found = tuple((f"supply {s.id}", s.base) for s in supplies if s.in_play)
            _last_markers = (supplies, found)
        state.cache[_MARKERS] = found
    return found



@dataclass(frozen=True, slots=True)
class OrderGiven(Event):
    type: ClassVar[str] = "order_given"
    side: str
    target: str
    purpose: str


@dataclass(frozen=True, slots=True)
class SupplyRaided(Event):
    type: ClassVar[str] = "supply_raided"
    supply: str
    by: str


@handles(OrderGiven)
def _order(s: GameState, e: OrderGiven) -> GameState:
    return s.with_mark(f"ordered_{e.purpose}", e.target).with_mark("orders", e.target)


@handles(SupplyRaided)
def _raided(s: GameState, e: SupplyRaided) -> GameState:
    own = s.own if isinstance(s.own, LargerBattlesData) else NO_DATA
    return s.evolve(own=own.evolve(supplies=tuple(
        replace(sp, raided_by=e.by) if sp.id == e.supply else sp for sp in supplies_of(s)
    )))


PURPOSES = {"move": "to move", "bombard": "to bombard"}


@tells(OrderGiven)
def order_given(n: Narrating, e: OrderGiven, dice: Sequence[DiceRolled]) -> Sentence:
    purpose = PURPOSES.get(e.purpose, f"({humanise(e.purpose)})")
    return side_does(n.side(e.side), f"order {n.target(e.target)} {purpose}"), "order"


@tells(SupplyRaided)
def supply_raided(n: Narrating, e: SupplyRaided, dice: Sequence[DiceRolled]) -> Sentence:
    owner = None
    if n.state is not None:
        owner = next((s.side for s in supplies_of(n.state) if s.id == e.supply), None)
    whose = f"{possessive(n.side(owner))} supplies" if owner else "supplies"
    return f"{n.label(e.by)} raids {whose}", "loss"
