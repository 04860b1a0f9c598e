"""Event cards (Game Play), under the option ``event_cards`` (off by default).

"Events and units are recorded on cards. As cards are drawn, events may occur and units
are activated." Morale: a unit's points are determined when it "is called for by an event
card". The text describes no event card. This is a small deck of the rule set's own,
four cards a club would recognise, each an interpretation, not the author's:

- **Alarm** ("called for by an event card"): the side's untested unit nearest the enemy
  has its morale points determined now.
- **Rumour of defeat**: the side's unit in good order nearest the enemy takes a morale
  check (one musketry roll, as when a unit is passed through); broken, it routs towards
  its own table edge.
- **Sermon**: a chaplain preaches to the side's most shaken unit (the tested unit not
  routing that is furthest below what it may regain, as a resting unit may, option
  ``regain_to``): it regains one morale point, no dice.
- **Damp powder**: the side's unit nearest the enemy that could fire (not routing) may
  not fire on its next activation: its commander may not declare advance and fire or
  stand and fire.

How they are played: the four cards are shuffled in with the unit cards at every turn's
shuffle and drawn as they are, one die over the cards left. A card drawn strikes one
side, rolled on 1D6 (1-3 the scenario's first side, 4-6 the second); "nearest the enemy"
is edge to edge to the nearest enemy unit of troops (ties by id); generals are never
struck. A card with no unit to strike does nothing. Then the next card is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.activation import deck
from tertia.core.dice import D6
from tertia.core.events import DiceRolled, Event
from tertia.core.geometry import base_distance
from tertia.core.narration import Narrating, Sentence, of, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.morale import regain_points
from tertia.rulesets.declare_thee_sir import points, rally, rout
from tertia.rulesets.declare_thee_sir.values import unit_data

ALARM, RUMOUR, SERMON, DAMP_POWDER = "alarm", "rumour", "sermon", "damp_powder"
EVENTS: tuple[str, ...] = (ALARM, RUMOUR, SERMON, DAMP_POWDER)
"""The event deck: one card of each."""
TITLES = {ALARM: "Alarm", RUMOUR: "Rumour of defeat", SERMON: "Sermon", DAMP_POWDER: "Damp powder"}
FIRST_SIDE_UP_TO = 3
"""The side a card strikes: 1-3 on 1D6 the first side, 4-6 the second."""


@dataclass(frozen=True, slots=True)
class EventCardDrawn(Event):
    """The event card ``event`` was drawn: it strikes ``side``, ``unit`` (None: nobody)."""

    type: ClassVar[str] = "dts_event_card_drawn"
    event: str
    side: str
    unit: str | None


@dataclass(frozen=True, slots=True)
class PowderSpoiled(Event):
    """``unit``'s powder is damp (``damp``) or dry again."""

    type: ClassVar[str] = "dts_powder_spoiled"
    unit: str
    damp: bool


@handles(EventCardDrawn)
def _drawn(s: GameState, e: EventCardDrawn) -> GameState:
    return s


@handles(PowderSpoiled)
def _spoiled(s: GameState, e: PowderSpoiled) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(damp_powder=e.damp))


@tells(EventCardDrawn)
def _tell_drawn(n: Narrating, e: EventCardDrawn, dice: Sequence[DiceRolled]) -> Sentence:
    struck = n.label(e.unit) if e.unit is not None else f"no unit of {n.side(e.side)}"
    return f"Event card: {TITLES.get(e.event, e.event)}, striking {struck}", "heading"


@tells(PowderSpoiled)
def _tell_spoiled(n: Narrating, e: PowderSpoiled, dice: Sequence[DiceRolled]) -> Sentence:
    if e.damp:
        powder = of("powder", n.label(e.unit), opening=True)
        return f"{powder} is damp: it may not fire on its next activation", "status"
    return f"{of('powder', n.label(e.unit), opening=True)} is dry again", "status"


def cards(on: bool) -> tuple[str, ...]:
    """The event cards shuffled into the deck: the four, when the option is on."""
    return tuple(deck.special_card(name) for name in EVENTS) if on else ()


def is_event(card: str) -> bool:
    found = deck.read_card(card)
    return found.kind == deck.SPECIAL and found.name in EVENTS


def nearest_the_enemy(state: GameState, units: list[Unit]) -> Unit | None:
    """Of ``units``, the one nearest (edge to edge) an enemy unit of troops; ties by id."""
    def gap(u: Unit) -> float:
        return min((base_distance(u.base, e.base) for e in state.iter_troops(state.opponent(u.side))),
                   default=math.inf)

    return min(units, key=lambda u: (gap(u), u.id)) if units else None


def _troops(state: GameState, side: str) -> list[Unit]:
    return [u for u in state.iter_troops(side) if not unit_data(u).is_general]


def _alarm(state: GameState, side: str, options: Mapping[str, Any]) -> Unit | None:
    return nearest_the_enemy(state, [u for u in _troops(state, side) if unit_data(u).morale is None])


def _rumour(state: GameState, side: str, options: Mapping[str, Any]) -> Unit | None:
    return nearest_the_enemy(state, [u for u in _troops(state, side) if not unit_data(u).routing])


def _sermon(state: GameState, side: str, options: Mapping[str, Any]) -> Unit | None:
    how = str(options.get("regain_to", "level"))
    shaken = [u for u in _troops(state, side)
              if not unit_data(u).routing and _short_of(u, how) > 0]
    if not shaken:
        return None
    most = max(_short_of(u, how) for u in shaken)
    return nearest_the_enemy(state, [u for u in shaken if _short_of(u, how) == most])


def _short_of(unit: Unit, how: str) -> int:
    """How many points ``unit`` is below what it may regain (0 untested)."""
    own = unit_data(unit)
    if own.morale is None or own.morale_max is None:
        return 0
    return rally.rest_cap(own, how) - own.morale


def _damp(state: GameState, side: str, options: Mapping[str, Any]) -> Unit | None:
    return nearest_the_enemy(state, [u for u in _troops(state, side)
                                     if not unit_data(u).routing and not unit_data(u).damp_powder])


STRIKES: dict[str, Callable[[GameState, str, Mapping[str, Any]], Unit | None]] = {
    ALARM: _alarm, RUMOUR: _rumour, SERMON: _sermon, DAMP_POWDER: _damp}
"""Whom each card strikes, on the side rolled."""


def play(tx: Tx, card: str, options: Mapping[str, Any]) -> EventCardDrawn:
    """Carry out the event ``card`` (see the module's note)."""
    event = deck.read_card(card).name
    roll = tx.roll(D6, f"event card {TITLES[event]}: which side")
    side = tx.state.sides[0] if roll <= FIRST_SIDE_UP_TO else tx.state.sides[1]
    struck = STRIKES[event](tx.state, side, options)
    drawn = EventCardDrawn(event=event, side=side, unit=None if struck is None else struck.id)
    tx.emit(drawn)
    if struck is None:
        return drawn
    cause = f"event card: {TITLES[event]}"
    if event == ALARM:
        points.tested(tx, struck.id, cause)
    elif event == RUMOUR:
        if points.morale_check(tx, struck.id, cause).routed and tx.state.units[struck.id].in_play:
            rout.rout(tx, struck.id, None, cause)
    elif event == SERMON:
        own = unit_data(struck)
        assert own.morale_max is not None  # a shaken unit is tested
        how = str(options.get("regain_to", "level"))
        regain_points(tx, struck.id, 1, cause, up_to=rally.rest_cap(own, how))
    else:
        tx.emit(PowderSpoiled(unit=struck.id, damp=True))
    return drawn
