"""Casualties counted as hits: what a unit keeps under the rule sets that count them
(``larger-battles``, ``d3-commands``, ``d3-cards``), the events that change it, and how
the reducer applies them.

A unit there takes hits until it reaches its hit limit; it may run out of ammunition (or,
under ``d3-cards``, collect ammunition-shortage markers); a gun that has fired stays put;
a commander may be the army's general and has a value (``larger-battles``: 0-2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.events import Casualties, DiceRolled, Event
from tertia.core.narration import Narrating, Sentence, humanise, plural, tells
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


# --- how the narrative tells them (core/narration.py) ---------------------------------------

_CAUSES = {
    "combat": "in combat",
    "melee": "in combat",
    "bombardment": "from bombardment",
    "shooting": "from shooting",
    "shot": "from shooting",
}


def cause_phrase(cause: str) -> str:
    """How a hit came: ``"combat with X"`` -> ``"in combat with X"``.

    >>> cause_phrase("shooting"), cause_phrase("combat_with_rupert"), cause_phrase("storm")
    ('from shooting', 'in combat with rupert', '— storm')
    """
    if cause in _CAUSES:
        return _CAUSES[cause]
    text = humanise(cause)
    if text.startswith(("combat", "melee")):
        return f"in {text}"
    return f"— {text}"


def _hits_now(n: Narrating, unit_id: str) -> int | None:
    """The unit's hits before the event told, when the narrator follows the position."""
    state = n.state
    if state is None or unit_id not in state.units:
        return None
    return piece(state.units[unit_id]).hits


@tells(HitsInflicted)
def _tell_hits(n: Narrating, e: HitsInflicted, dice: Sequence[DiceRolled]) -> Sentence:
    before = _hits_now(n, e.unit)
    if before is not None and n.follows_attack_on(e.unit):
        # The attack's line already tells who was hit: give the running total.
        return f"{n.label(e.unit)}: {plural(before + e.hits, 'hit')} in all", "hit"
    what = "a hit" if e.hits == 1 else plural(e.hits, "hit")
    cause = f" {cause_phrase(e.cause)}" if e.cause else ""
    total = "" if before is None else f" ({before + e.hits} in all)"
    return f"{n.label(e.unit)} takes {what}{cause}{total}", "hit"


@tells(HitsRemoved)
def _tell_hits_removed(n: Narrating, e: HitsRemoved, dice: Sequence[DiceRolled]) -> Sentence:
    what = "a hit" if e.hits == 1 else plural(e.hits, "hit")
    cause = f" ({humanise(e.cause)})" if e.cause else ""
    before = _hits_now(n, e.unit)
    left = "" if before is None else f", {plural(max(0, before - e.hits), 'hit')} left"
    return f"{n.label(e.unit)} recovers {what}{cause}{left}", "note"


@tells(AmmunitionExhausted)
def _tell_ammunition(n: Narrating, e: AmmunitionExhausted, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} runs out of ammunition", "hit"


@tells(AmmunitionShortage)
def _tell_shortage(n: Narrating, e: AmmunitionShortage, dice: Sequence[DiceRolled]) -> Sentence:
    state = n.state
    markers = ""
    if state is not None and e.unit in state.units:
        markers = f" ({plural(piece(state.units[e.unit]).ammo_markers + 1, 'shortage marker')})"
    return f"{n.label(e.unit)} runs short of ammunition{markers}", "hit"


@tells(GunFired)
def _tell_gun_fired(n: Narrating, e: GunFired, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} has fired and may now only pivot", "note"
