"""Going into close combat: the charges, the tests to close and to stand (section 12 A-C),
gunners who will not stand (section 10), the caracole (Special rules C) and charge fatigue
(Special rules B).

A charge is recorded by the move that makes it (:class:`Charge`): who charged whom, and
the attacker's base where its move began (flank/rear, 13 A, and uphill, 12 D, are judged
from it). The tests are the morale module's: each step here asks a callable
(:data:`MoraleStep`) whether a unit passes a :class:`MoraleCall` and acts on the answer.

The order a turn's close combats run in (Sequence F to I):

1. the charge moves (and any fatigue, :func:`charge_fatigue`), each charging cavalry unit's
   caracole die (:func:`attacks_with_pistols`); the attacker halts 1" away and takes the
   defenders' fire (12 A: the fire phases);
2. :func:`close_in`: 12 B, each attacker tests to close (not those charging a flank/rear,
   Sequence F), then 12 C, each defender closed on tests; routed defenders rout again
   (15 I) and gunners without support rout (section 10), without a test;
3. :func:`~tertia.rulesets.charge_yr_pikes.melee.fighters_of` and
   :func:`~tertia.rulesets.charge_yr_pikes.melee.resolve`: 12 D the dice, E the totals,
   H the casualties, F and G the results, Special D the commanded musketeers, section 21
   the horse's plunder test;
4. :func:`~tertia.rulesets.charge_yr_pikes.melee.bonus_moves`: 12 I-K, once every close
   combat of the turn is fought.

Read so:

- **Test to close (12 B)**: "If he fails, he remains stopped 1" from target unit": the
  attacker stays where it halted, with no other effect. Sequence F: charges on the enemy
  flank/rear do not test.
- **Defender's test (12 C)**: "defender checks morale and acts accordingly": a failure is
  the morale module's result (falling back or routing), and one attacked in flank/rear
  routs (13 C); the melee is fought with the defenders that stood. A defender that fails
  leaves no melee for the attackers on it.
- **Gunners (section 10)**: "If enemy units close on them and no friendly support unit is
  within 4 inches to fight for them, they will rout." A support unit is a friendly unit
  in play, not routed, not guns or wagons, whose base is within 4" of the battery's; the
  gunners never test; with support the supporters fight for them (the battery rolls no
  dice and takes no casualties) and the gunners share their side's fate.
- **Caracole (Special rules C)**: "Roll a D6 for each attacking cavalry unit that does not
  have an officer fighting in the front rank. 1,2,3 = cavalry attempts to attack with
  mounted fire. -1 D6 in close combat ... Royalist cavalry ... add +1 to this die roll";
  not rolled for battles in 1645 and later. Cavalry is horse, lobsters and Scots horse
  (dragoons fight as musketeers, 12 D). Faces and year: ``tables.toml [caracole]``.
- **A charge that comes to nothing (12 A, B)**: the attacker "halts 1" away" and, in the
  close combat phase, "attempts to close". A charge whose two units no longer stand so
  when that phase begins is over (:func:`lapsed`, :class:`ChargeLapsed`): the attacker or
  its target was driven back by the fire steps (fell back or routed under fire, 12 A "takes
  any defending fire and tests morale"), or moved on a later card (a charger whose tertia
  moves again after the free move). They stand more than :data:`LAPSES_BEYOND` apart: the
  inch the attacker halted short and an inch for a base turned or nudged since. Neither
  tests nor fights; each stays where it is. (A target that moves away on its own card, 12
  L, leaves the charge the same way, as it moves: :mod:`~.reaction`.)
- **Fatigue (Special rules B)**: "lose 1 man to fatigue for every inch of movement till
  they stop 1" from the enemy": each inch begun beyond the unit's charge move fatigues a
  man (a player measures and counts the inches started). Fatigued men do not fight
  (:mod:`~tertia.rulesets.charge_yr_pikes.melee` counts them as casualty stands for the
  dice) and are forgotten when the combat is over. "If the entire unit becomes fatigued
  ... it stops 1" from enemy and is considered to be in fallback status": it is marked
  falling back and does not test to close; passing its next command response clears the
  status (:func:`~tertia.rulesets.charge_yr_pikes.command.end_falling_back`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6, read_face
from tertia.core.events import Event
from tertia.core.geometry import Base, base_distance
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers
from tertia.rulesets.charge_yr_pikes.data import SQUARE
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.facing import is_flank_or_rear
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

CAVALRY = ("horse", "lobsters", "scots_horse")
"""Cavalry in close combat: the horse types (dragoons are counted as musketeers)."""
GUN_SUPPORT = 4.0
"""Section 10: "no friendly support unit is within 4 inches to fight for them"."""
SHORT_OF_TARGET = 1.0
"""12 B and Special rules B: the attacker stops 1" from the enemy."""
LAPSES_BEYOND = SHORT_OF_TARGET + 1.0
"""How far apart a charge's two units may stand when the close combat phase begins and
the charge still be fought: the inch the attacker halted short, and an inch for a base
turned or nudged since. Farther, one of them has been driven back or has moved away."""

CLOSE = "to close"
"""12 B: the attacker's test to close."""
CLOSED_ON = "closed on"
"""12 C: the defender's test when the attacker closes."""
LOST = "lost a close combat"
"""12 F: the loser's test."""
EQUAL = "equal casualties"
"""12 G: equal casualties, the smaller force first."""
BONUS = "bonus move"
"""12 I, J: a winner's test for a bonus or breakthrough move."""


@dataclass(frozen=True, slots=True)
class Charge:
    """One unit's charge: ``attacker`` on ``target``, its base ``start`` where its move
    began; ``frontal`` once the target has turned to meet it (13 A, B)."""

    attacker: str
    target: str
    start: Base
    frontal: bool = False

    def is_flank_or_rear(self, state: GameState) -> bool:
        """13 A, judged against the target as it stands now."""
        target = state.units[self.target]
        return not self.frontal and is_flank_or_rear(
            self.start, target.base, all_round=unit_data(target).formation == SQUARE)


@dataclass(frozen=True, slots=True)
class ChargeLapsed(Event):
    """``attacker``'s charge on ``target`` comes to nothing: the two stood ``apart`` inches
    apart as the close combat phase began, too far to close (12 A, B). It is dropped;
    neither unit tests or fights for it, and each stays where it is."""

    type: ClassVar[str] = "cyp_charge_lapsed"
    attacker: str
    target: str
    apart: float


@handles(ChargeLapsed)
def _lapsed(s: GameState, e: ChargeLapsed) -> GameState:
    g = game_data(s)
    kept = tuple(c for c in g.charges if (c[0], c[1]) != (e.attacker, e.target))
    return s.evolve(own=g.evolve(charges=kept))


def lapsed(state: GameState) -> list[ChargeLapsed]:
    """The turn's charges whose attacker and target stand more than
    :data:`LAPSES_BEYOND` apart (their bases edge to edge), in the order made: driven
    apart since the charge halted, they have nothing to close with (12 A, B)."""
    found: list[ChargeLapsed] = []
    for attacker, target, *_ in game_data(state).charges:
        a, t = state.units.get(attacker), state.units.get(target)
        if a is None or t is None or not a.in_play or not t.in_play:
            continue
        apart = base_distance(a.base, t.base)
        if apart > LAPSES_BEYOND:
            found.append(ChargeLapsed(attacker=attacker, target=target, apart=round(apart, 1)))
    return found


@dataclass(frozen=True, slots=True)
class MoraleCall:
    """A morale test the close combat rules ask for: ``unit``, ``reason`` (one of
    :data:`CLOSE`, :data:`CLOSED_ON`, :data:`LOST`, :data:`EQUAL`, :data:`BONUS`), and
    whether it is attacked in flank/rear (13 C: a failure routs it)."""

    unit: str
    reason: str
    flank_or_rear: bool = False


MoraleStep = Callable[[MoraleCall], bool]
"""The morale module's test: does the unit pass? (It rolls the dice, through the Tx.)"""


def is_cavalry(unit: Unit) -> bool:
    return unit_data(unit).troop in CAVALRY


def is_gun(unit: Unit) -> bool:
    own = unit_data(unit)
    return own.is_gun or own.troop == "wagons"


def gun_support(state: GameState, gun_id: str) -> tuple[str, ...]:
    """Section 10: the friendly units within 4" of a battery that may fight for it."""
    gun = state.units[gun_id]
    return tuple(u.id for u in state.iter_troops(gun.side) if u.id != gun_id and not is_gun(u)
                 and not unit_data(u).routed and not unit_data(u).is_officer
                 and base_distance(u.base, gun.base) <= GUN_SUPPORT + 1e-9)


@dataclass(frozen=True, slots=True)
class Closing:
    """What 12 B and C decided: the ``charges`` that go into close combat; the attackers
    ``stopped`` 1" short; the defenders that ``failed`` their test (the morale module's
    result applies) and those that ``rout`` without a melee (attacked in flank/rear and
    failing, 13 C; routed already, 15 I; gunners without support, section 10); the
    ``tests`` taken, in order."""

    charges: tuple[Charge, ...]
    stopped: tuple[str, ...]
    failed: tuple[str, ...]
    rout: tuple[str, ...]
    tests: tuple[tuple[MoraleCall, bool], ...]


def close_in(tx: Tx, charges: Sequence[Charge], test: MoraleStep) -> Closing:
    """12 B, C: the attackers' tests to close, then the tests of the defenders they close
    on. A unit charging several targets tests once."""
    tests: list[tuple[MoraleCall, bool]] = []
    closing: dict[str, bool] = {}
    for c in charges:
        if c.attacker not in closing:
            closing[c.attacker] = (c.is_flank_or_rear(tx.state)
                                   or _ask(test, tests, MoraleCall(c.attacker, CLOSE)))
    closed = [c for c in charges if closing[c.attacker]]
    standing: dict[str, bool] = {}
    failed: list[str] = []
    rout: list[str] = []
    for c in closed:
        if c.target in standing:
            continue
        target = tx.state.units[c.target]
        flank = any(o.is_flank_or_rear(tx.state) for o in closed if o.target == c.target)
        if unit_data(target).routed or (is_gun(target) and not gun_support(tx.state, c.target)):
            standing[c.target] = False
            rout.append(c.target)
        elif is_gun(target):
            standing[c.target] = True
        else:
            standing[c.target] = _ask(test, tests, MoraleCall(c.target, CLOSED_ON, flank))
            if not standing[c.target]:
                (rout if flank else failed).append(c.target)
    return Closing(tuple(c for c in closed if standing[c.target]),
                   tuple(a for a, ok in closing.items() if not ok), tuple(failed), tuple(rout), tuple(tests))


def _ask(test: MoraleStep, tests: list[tuple[MoraleCall, bool]], call: MoraleCall) -> bool:
    passed = test(call)
    tests.append((call, passed))
    return passed


def attacks_with_pistols(tx: Tx, tables: Tables, attacker_id: str, *, year: int, royalist: bool) -> bool:
    """Special rules C: does an attacking cavalry unit flinch into mounted fire? Rolled
    before 1645 for cavalry with no officer in its front rank (Royalists +1)."""
    unit = tx.state.units[attacker_id]
    rule = tables.caracole
    if year >= rule.abandoned_from or not is_cavalry(unit) or front_rank_officers(tx.state, attacker_id):
        return False
    face = tx.roll(D6, f"caracole: {unit.label}")
    bonus = rule.royalist_bonus if royalist else 0
    return read_face(face, D6, lambda f: min(6, f + bonus) in rule.pistols)


@dataclass(frozen=True, slots=True)
class Fatigue:
    """Special rules B: the men a long charge fatigued, and whether the whole unit is
    spent (it stops 1" short, falling back, and does not close)."""

    unit: str
    men: int
    spent: bool


def charge_fatigue(tx: Tx, unit_id: str, inches_beyond: float) -> Fatigue:
    """Special rules B: a man fatigued for each inch begun beyond the charge move."""
    own = unit_data(tx.state.units[unit_id])
    men = max(0, math.ceil(inches_beyond - 1e-9))
    fatigued = min(own.figures, own.fatigued + men)
    spent = own.figures > 0 and fatigued >= own.figures
    change(tx, unit_id, "charge fatigue", fatigued=fatigued, **({"falling_back": True} if spent else {}))
    return Fatigue(unit_id, fatigued - own.fatigued, spent)
