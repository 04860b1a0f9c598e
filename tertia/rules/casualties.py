"""Casualties counted by stands or by figures: what a unit has left, and losing them.

Served first by Declare Thee Sir (Melee: a routing unit's stands "move that many inches
away from foe ... When routed off a table edge, a unit is removed from play": a stand that
leaves the table is lost), and written for Charge yr Pikes!' figures on stands ("count
exact casualties").

A rule set that uses this keeps ``stands_left`` (and, if it counts figures, ``figures``)
in each unit's :class:`RuleData <tertia.core.ruledata.RuleData>`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.events import Casualties, Event
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit


def stands_left(unit: Unit) -> int:
    """How many stands ``unit`` still has (one for a unit that does not count them)."""
    return int(getattr(unit.own, "stands_left", 1))


def figures_left(unit: Unit) -> int | None:
    """How many figures ``unit`` still has; ``None`` when its rule set does not count them."""
    value = getattr(unit.own, "figures", None)
    return None if value is None else int(value)


@dataclass(frozen=True, slots=True)
class StandsLost(Casualties, Event):
    """A unit lost ``stands`` stands (never below none)."""

    type: ClassVar[str] = "stands_lost"
    measure: ClassVar[str] = "stands"
    noun: ClassVar[str] = "stand"
    unit: str
    stands: int
    cause: str


@dataclass(frozen=True, slots=True)
class FiguresLost(Casualties, Event):
    """A unit lost ``figures`` figures (never below none)."""

    type: ClassVar[str] = "figures_lost"
    measure: ClassVar[str] = "figures"
    noun: ClassVar[str] = "figure"
    unit: str
    figures: int
    cause: str


@handles(StandsLost)
def _stands(s: GameState, e: StandsLost) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(stands_left=max(0, stands_left(u) - e.stands)))


@handles(FiguresLost)
def _figures(s: GameState, e: FiguresLost) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(figures=max(0, (figures_left(u) or 0) - e.figures)))


def lose_stands(tx: Tx, unit_id: str, stands: int, cause: str) -> int:
    """Take up to ``stands`` stands from a unit; returns how many it has left."""
    left = stands_left(tx.state.units[unit_id])
    taken = min(left, max(0, stands))
    if taken:
        tx.emit(StandsLost(unit=unit_id, stands=taken, cause=cause))
    return left - taken


def lose_figures(tx: Tx, unit_id: str, figures: int, cause: str) -> int:
    """Take up to ``figures`` figures from a unit that counts them; returns how many it
    has left."""
    left = figures_left(tx.state.units[unit_id])
    if left is None:
        raise ValueError(f"{unit_id}'s rule set does not count figures")
    taken = min(left, max(0, figures))
    if taken:
        tx.emit(FiguresLost(unit=unit_id, figures=taken, cause=cause))
    return left - taken
