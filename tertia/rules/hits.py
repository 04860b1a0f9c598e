"""Casualties counted as hits: what a unit keeps under the rule sets that count them
(``larger-battles``, ``d3-commands``, ``d3-cards``), the events that change it, and how
the reducer applies them.

A unit there takes hits until it reaches its hit limit; it may run out of ammunition (or,
under ``d3-cards``, collect ammunition-shortage markers); a gun that has fired stays put;
a commander may be the army's general and has a value (``larger-battles``: 0-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.events import Casualties, Event
from tertia.core.reducer import handles
from tertia.core.ruleset import OddsMeasure
from tertia.core.state import GameState
from tertia.rules.hit_values import NO_HITS, HitsPiece
from tertia.rules.pieces import piece

__all__ = ["HIT_MEASURES", "NO_HITS", "AmmunitionExhausted", "AmmunitionShortage", "GunFired",
           "HitsInflicted", "HitsPiece", "HitsRemoved", "piece"]


HIT_MEASURES = (
    OddsMeasure("hits", "count", ("hits",)),
    OddsMeasure("ammunition_exhausted", "flag", ("out_of_ammo", "ammo_markers"), "ammunition runs short"),
)
"""What odds report under a rule set that counts hits: the hits the target and the
attacker take, and the chance a unit runs out of (or short of) ammunition."""


@dataclass(frozen=True, slots=True)
class HitsInflicted(Casualties, Event):
    """A unit took ``hits`` hits."""

    type: ClassVar[str] = "hits_inflicted"
    measure: ClassVar[str] = "hits"
    noun: ClassVar[str] = "hit"
    unit: str
    hits: int
    cause: str


@dataclass(frozen=True, slots=True)
class HitsRemoved(Event):
    """Hits taken off a unit (a commander's rally, say)."""

    type: ClassVar[str] = "hits_removed"
    unit: str
    hits: int
    cause: str


@dataclass(frozen=True, slots=True)
class AmmunitionExhausted(Event):
    type: ClassVar[str] = "ammunition_exhausted"
    unit: str


@dataclass(frozen=True, slots=True)
class AmmunitionShortage(Event):
    """A unit's ammunition ran short: one more ammunition-shortage marker."""

    type: ClassVar[str] = "ammunition_shortage"
    unit: str


@dataclass(frozen=True, slots=True)
class GunFired(Event):
    """Artillery fired and must now stay where it is."""

    type: ClassVar[str] = "gun_fired"
    unit: str


@handles(HitsInflicted)
def _hits(s: GameState, e: HitsInflicted) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(hits=piece(u).hits + e.hits))


@handles(HitsRemoved)
def _hits_removed(s: GameState, e: HitsRemoved) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(hits=max(0, piece(u).hits - e.hits)))


@handles(AmmunitionExhausted)
def _ammo(s: GameState, e: AmmunitionExhausted) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(out_of_ammo=True))


@handles(AmmunitionShortage)
def _short(s: GameState, e: AmmunitionShortage) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(ammo_markers=piece(u).ammo_markers + 1))


@handles(GunFired)
def _fired(s: GameState, e: GunFired) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(fired=True))
