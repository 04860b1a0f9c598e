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
from tertia.core.violations import side_whose


@dataclass(frozen=True, slots=True)
class Supply:
    """A supply base marker (larger-battles: Supplies), with the name the scenario gives
    it, if any ("the baggage at Kineton")."""

    id: str
    side: str
    x: float
    y: float
    width: float = 2.0
    depth: float = 1.0
    raided_by: str | None = None
    name: str = ""
    base: Base = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", Base(self.x, self.y, 0.0, self.width, self.depth))

    @property
    def in_play(self) -> bool:
        return self.raided_by is None

    def to_dict(self) -> dict[str, Any]:
        """Its values; the name only when the scenario gives one, so that a base without
        one is written, and hashed, as it always was."""
        out: dict[str, Any] = {"id": self.id, "side": self.side, "x": self.x, "y": self.y,
                               "width": self.width, "depth": self.depth, "raided_by": self.raided_by}
        if self.name:
            out["name"] = self.name
        return out


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
        """The supply bases, raided or not, as maps draw them, each named as players call
        it (:func:`supply_name`, its side a mention the map words with the battle's names)."""
        return tuple(TableMarker(s.id, "supply", "Supplies", s.side, s.x, s.y, s.width, s.depth,
                                 s.raided_by, supply_name(s, self.supplies, side_whose(s.side)))
                     for s in self.supplies)

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


_last_markers: tuple[tuple[Supply, ...], tuple[tuple[str, Base], ...], tuple[Base, ...]] = ((), (), ())
"""The markers and their bases last worked out, with the supplies they came from: the
supplies stay the same object from one position to the next until one is raided."""


PLACES = {2: ("western", "eastern"), 3: ("western", "central", "eastern")}
"""Where each of a side's supply bases stands along its edge, west to east, in words,
for a side with two or three (Supplies: "Armies have 3 supply bases")."""

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def supply_name(supply: Supply, supplies: Sequence[Supply], whose: str) -> str:
    """A supply base as players call it: the name the scenario gives it; else whose it is
    (``whose``: its side's name as a possessive, "the King's Army's") and, where the side
    has more than one (of ``supplies``), where it stands along the edge, west to east
    (Supplies): "the King's Army's supply base", "Parliament's eastern supply base". Never
    its id, which no player reads.

    >>> bases = [Supply("r-w", "royalist", 12, 47), Supply("r-e", "royalist", 60, 47),
    ...          Supply("p-k", "parliament", 36, 1, name="the baggage at Kineton")]
    >>> supply_name(bases[1], bases, "Royalists'"), supply_name(bases[2], bases, "Parliament's")
    ("Royalists' eastern supply base", 'the baggage at Kineton')
    >>> supply_name(bases[0], bases[:1], "Royalists'")
    "Royalists' supply base"
    """
    if supply.name:
        return supply.name
    own = sorted((s for s in supplies if s.side == supply.side), key=lambda s: (s.x, s.y, s.id))
    at = next((i for i, s in enumerate(own) if s.id == supply.id), None)
    if at is None or len(own) < 2:
        return f"{whose} supply base"
    places = PLACES.get(len(own))
    if places is not None:
        return f"{whose} {places[at]} supply base"
    if at < len(ORDINALS):
        return f"{whose} {ORDINALS[at]} supply base from the west"
    return f"{whose} supply base at ({supply.x:g}, {supply.y:g})"


def _markers_now(state: GameState) -> tuple[tuple[tuple[str, Base], ...], tuple[Base, ...]]:
    """The supply bases still on the table, named and bare, worked out again only once
    the supplies differ from those last seen (``_last_markers``)."""
    global _last_markers
    supplies = supplies_of(state)
    last_supplies, markers, bases = _last_markers
    if supplies is not last_supplies:
        markers = tuple((supply_name(s, supplies, side_whose(s.side)), s.base)
                        for s in supplies if s.in_play)
        bases = tuple(base for _, base in markers)
        _last_markers = (supplies, markers, bases)
    return markers, bases


def supply_markers(state: GameState) -> tuple[tuple[str, Base], ...]:
    """The supply bases still on the table, named (:func:`supply_name`, the side as the
    battle names it: :func:`~tertia.core.violations.side_whose`), as movement blocks them
    and its refusals name them (remembered on the state, which never changes)."""
    found: tuple[tuple[str, Base], ...] | None = state.cache.get(_MARKERS)
    if found is None:
        found = _markers_now(state)[0]
        state.cache[_MARKERS] = found
    return found


def supply_bases(state: GameState) -> tuple[Base, ...]:
    """The bases of the supply bases still on the table, which no unit may move onto
    (Supplies): what a planner passes as obstacles at every move it weighs."""
    return _markers_now(state)[1]



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
    """A raid (Supplies), told by the side that made it (a unit, in an event that names
    one) and the base as players call it (:func:`supply_name`)."""
    supplies = supplies_of(n.state) if n.state is not None else ()
    supply = next((s for s in supplies if s.id == e.supply), None)
    what = "supplies" if supply is None else supply_name(supply, supplies, possessive(n.side(supply.side)))
    if n.state is not None and e.by in n.state.units:
        return f"{n.label(e.by)} raids {what}", "loss"
    return side_does(n.side(e.by), f"raid {what}"), "loss"
