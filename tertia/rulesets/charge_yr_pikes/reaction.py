"""Reactions to a charge (section 12 L, M; 13 B).

- **12 L**: "Units that are attacked in close combat but have not yet moved, may attempt
  to move away from the charging unit or units when their move card is drawn. They must
  test morale to do so, and any failure means that they rout. Units that wish to change
  formations or reface similarly must sucessfully test morale before doing so if they
  have already been charged by enemy units."
- **12 M**: "Units attacked as above under L. may countercharge or stand in place to
  receive the charge without testing morale as above."
- **13 B**: "Units attacked in flank/rear may turn to meet such attack if they have not
  yet moved and pass command response die roll when their move card is drawn."

Read so:

- A unit is *charged* when an enemy charge made this turn (halted 1" away, to be fought in
  the close combat phase) has it as its target. It reacts on its own card, once its
  command response has passed (it is among the card's moving units), and only if it had
  not moved this turn before it was charged; a unit charged after it moved stands.
- **Moving away** (:class:`~tertia.rulesets.charge_yr_pikes.actions.MoraleToMove`,
  "move_away"): it tests morale first; failing, it routs, away from its first charger.
  Passing, it may make a normal move (the usual allowance, ground and tertia) that ends
  with its base farther from every charger's than it began (so never through or round
  them); a turn in place is a reface. A unit that moves away, or routs, leaves its
  chargers nothing to strike: their charges on it are dropped (:class:`ChargeEvaded`)
  and each charger stays where it halted.
- **Changing formation or refacing** (``MoraleToMove``, "reform"): the same test first;
  passing, the unit may change formation or turn in place. Failing, it routs, or with
  ``tables.toml [reaction] reform_failure = "stand"`` only stands. Mounting or
  dismounting dragoons is a change of formation.
- **Countercharging** (12 M): the unit may charge one of its chargers (and no other
  unit) without a test. It turns and goes at it as any charge, so it has moved ("horse
  that remained motionless" no longer) and the charge it meets is frontal. In the close
  combat phase both are attackers: each tests to close once (Sequence F), and that test
  is also its test as the other's target (12 C): both pass, they fight, both as
  attackers (neither defends an obstacle); one fails, it acts on its failure as a
  defender that failed (it falls back or routs) and there is no melee; both fail, both
  stay where they halted (:func:`close_in`).
- **Standing** (12 M): doing nothing; no test. The defender's test when the attacker
  closes (12 C) is still taken.
- **Turning to meet** (13 B, :class:`~tertia.rulesets.charge_yr_pikes.actions.TurnToMeet`):
  a unit charged in flank or rear (judged from where the charger's move began, 13 A) that
  has not moved and is not in square turns in place to face that charger front to
  front, with no morale test (the command response is the test). The charge is then
  frontal (judged against the unit as it now stands). Turning counts as the unit's
  formation change on the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action, Move
from tertia.core.events import Event
from tertia.core.geometry import base_distance
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation
from tertia.rules.movement import iter_room_violations, plan_move
from tertia.rulesets.charge_yr_pikes.actions import Charge, MoraleToMove, Mount, Reform, TurnToMeet
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers
from tertia.rulesets.charge_yr_pikes.charge import CLOSE, CLOSED_ON, Closing, MoraleCall, MoraleStep
from tertia.rulesets.charge_yr_pikes.charge import Charge as Charged
from tertia.rulesets.charge_yr_pikes.charge import close_in as plain_close_in
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import SQUARE
from tertia.rulesets.charge_yr_pikes.events import MovedOnCard
from tertia.rulesets.charge_yr_pikes.facing import meeting_facing, turn_to_meet
from tertia.rulesets.charge_yr_pikes.morale import morale_test
from tertia.rulesets.charge_yr_pikes.rout import rout
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

MOVE_AWAY = "move_away"
REFORM = "reform"
PURPOSES = (MOVE_AWAY, REFORM)
RULE_L = "Close combat 12 L"
RULE_M = "Close combat 12 M"
RULE_B = "Flank and rear 13 B"
TO_MOVE = "to move away from a charge"
TO_REFORM = "to change formation under a charge"
STILL = 1e-6
"""A move shorter than this is a turn in place."""


@dataclass(frozen=True, slots=True)
class Steadied(Event):
    """``unit``, charged, passed its test to move away or to change formation or reface
    (``purpose``, 12 L)."""

    type: ClassVar[str] = "cyp_steadied"
    unit: str
    purpose: str


@handles(Steadied)
def _steadied(s: GameState, e: Steadied) -> GameState:
    g = game_data(s)
    return s.evolve(own=g.evolve(steadied=(*g.steadied, (e.unit, e.purpose))))


@dataclass(frozen=True, slots=True)
class ChargeEvaded(Event):
    """``unit`` moved away (or fled) before the charges of ``chargers`` struck: those
    charges are dropped and the chargers stay where they halted (12 L)."""

    type: ClassVar[str] = "cyp_charge_evaded"
    unit: str
    chargers: tuple[str, ...]
    routed: bool = False


@handles(ChargeEvaded)
def _evaded(s: GameState, e: ChargeEvaded) -> GameState:
    g = game_data(s)
    return s.evolve(own=g.evolve(charges=tuple(c for c in g.charges if c[1] != e.unit)))


# --- who is charged --------------------------------------------------------------------------


def chargers_of(state: GameState, unit_id: str) -> tuple[str, ...]:
    """The units whose charges made this turn have ``unit_id`` as their target, in order."""
    return tuple(dict.fromkeys(c[0] for c in game_data(state).charges if c[1] == unit_id
                               and c[0] in state.units and state.units[c[0]].in_play))


def charge_on(state: GameState, unit_id: str, attacker_id: str) -> Charged | None:
    """The charge ``attacker_id`` made on ``unit_id`` this turn, if any."""
    for attacker, target, x, y, facing, _ in game_data(state).charges:
        if attacker == attacker_id and target == unit_id:
            a = state.units[attacker]
            return Charged(attacker, target, a.base.moved_to(x, y, facing))
    return None


def steadied_for(state: GameState, unit_id: str) -> str | None:
    """What the unit passed its 12 L test for this turn (None: it has not)."""
    return next((p for u, p in game_data(state).steadied if u == unit_id), None)


# --- what the rules refuse ----------------------------------------------------------------------


def problems(table: Battlefield, state: GameState, unit: Unit, action: Action) -> list[Violation]:
    """12 L, M and 13 B: what a unit that may act on the card may not do because it has
    been charged (the action's usual checks follow); for ``MoraleToMove`` and
    ``TurnToMeet``, all their checks."""
    chargers = chargers_of(state, unit.id)
    if not chargers:
        if isinstance(action, MoraleToMove | TurnToMeet):
            return [Violation(CypCode.NOT_CHARGED, f"{unit.label} has not been charged this turn", RULE_L)]
        return []
    if unit_data(unit).moved:
        return [Violation(CypCode.CHARGED_AFTER_MOVING, f"{unit.label} has moved this turn and stands to "
                          "receive the charge", RULE_L)]
    if isinstance(action, MoraleToMove):
        return _test_problems(state, unit, action.purpose)
    if isinstance(action, TurnToMeet):
        return _turn_problems(table, state, unit, action.attacker)
    if isinstance(action, Charge):
        if action.target not in chargers:
            return [Violation(CypCode.COUNTERCHARGE_ONLY, f"{unit.label} has been charged: it may "
                              f"countercharge only {_names(state, chargers)}", RULE_M)]
        return []
    purpose = steadied_for(state, unit.id)
    if isinstance(action, Reform | Mount):
        if purpose is None:
            return [_must_test(unit, "change formation")]
        return []
    if isinstance(action, Move):
        return _move_problems(state, unit, action, chargers, purpose)
    return []


def _names(state: GameState, ids: Sequence[str]) -> str:
    return " or ".join(state.units[i].label for i in ids)


def _must_test(unit: Unit, what: str) -> Violation:
    return Violation(CypCode.MUST_TEST, f"{unit.label} has been charged: it must pass a morale test "
                     f"before it may {what}", RULE_L)


def _test_problems(state: GameState, unit: Unit, purpose: str) -> list[Violation]:
    if purpose not in PURPOSES:
        return [Violation(CoreCode.CANNOT_ACT, f"no such test {purpose!r} ({', '.join(PURPOSES)})", RULE_L)]
    if steadied_for(state, unit.id) is not None:
        return [Violation(CypCode.ALREADY_TESTED, f"{unit.label} has already passed its test", RULE_L)]
    g = game_data(state)
    if unit.id in g.moved_on_card or unit.id in g.reformed:
        return [Violation(CypCode.ALREADY_MOVED, f"{unit.label} has already acted on this card", RULE_L)]
    return []


def _turn_problems(table: Battlefield, state: GameState, unit: Unit, attacker_id: str) -> list[Violation]:
    charge = charge_on(state, unit.id, attacker_id)
    if charge is None:
        return [Violation(CypCode.NOT_CHARGED, f"{attacker_id} has not charged {unit.label}", RULE_B)]
    if unit_data(unit).formation == SQUARE or not charge.is_flank_or_rear(state):
        return [Violation(CypCode.NOT_FLANK, f"{state.units[attacker_id].label}'s charge is not on "
                          f"{unit.label}'s flank or rear", RULE_B)]
    g = game_data(state)
    if unit.id in g.moved_on_card or unit.id in g.reformed:
        return [Violation(CypCode.ALREADY_MOVED, f"{unit.label} has already acted on this card", RULE_B)]
    turned = unit.evolve(facing=_meeting(state, attacker_id))
    led = {o.id for o in front_rank_officers(state, unit.id)}
    return list(iter_room_violations(table, state, turned, RULE_B, led | {attacker_id}))[:1]


def _meeting(state: GameState, attacker_id: str) -> float:
    return meeting_facing(state.units[attacker_id].base)


def _move_problems(state: GameState, unit: Unit, action: Move, chargers: Sequence[str],
                   purpose: str | None) -> list[Violation]:
    """A charged unit moves only after passing its test: away from every charger (12 L),
    or, having tested to reform, only turning in place (a reface)."""
    plan = plan_move(unit, action)
    if plan.length <= STILL:
        return [] if purpose is not None else [_must_test(unit, "reface")]
    if purpose != MOVE_AWAY:
        return [_must_test(unit, "move away")]
    for c in chargers:
        foe = state.units[c].base
        if base_distance(plan.end, foe) <= base_distance(unit.base, foe) + STILL:
            return [Violation(CypCode.NOT_AWAY, f"{unit.label} must end farther from "
                              f"{state.units[c].label} than it began", RULE_L)]
    return []


# --- what the reactions do -----------------------------------------------------------------------


def test_to_move(tx: Tx, tables: Tables, unit_id: str, purpose: str) -> bool:
    """12 L: the charged unit tests morale to move away or to reform; passing, it is
    steadied for that; failing, it routs from its first charger (whose charges on it are
    then dropped), or, reforming with ``[reaction] reform_failure = "stand"``, stands."""
    chargers = chargers_of(tx.state, unit_id)
    result = morale_test(tx, tables, unit_id, TO_MOVE if purpose == MOVE_AWAY else TO_REFORM)
    if result.passed:
        tx.emit(Steadied(unit=unit_id, purpose=purpose))
        return True
    tx.emit(MovedOnCard(unit=unit_id, moved=False))  # its chance on this card is spent
    if purpose == REFORM and tables.reaction.reform_failure == "stand":
        return False
    rout(tx, tables, unit_id, "will not stand its ground under a charge",
         foe=chargers[0] if chargers else None)
    tx.emit(ChargeEvaded(unit=unit_id, chargers=chargers, routed=True))
    return False


def after_move(tx: Tx, unit_id: str, start: tuple[float, float]) -> None:
    """12 L: a charged unit that has moved away leaves its chargers where they halted."""
    unit = tx.state.units[unit_id]
    chargers = chargers_of(tx.state, unit_id)
    if chargers and (abs(unit.x - start[0]) > STILL or abs(unit.y - start[1]) > STILL):
        tx.emit(ChargeEvaded(unit=unit_id, chargers=chargers))


def turn(tx: Tx, unit_id: str, attacker_id: str) -> None:
    """13 B: the unit turns to meet ``attacker_id`` front to front."""
    turn_to_meet(tx, unit_id, attacker_id)
    tx.emit(MovedOnCard(unit=unit_id, moved=False))


# --- the close combat phase ----------------------------------------------------------------------


def countercharging(charges: Sequence[Charged]) -> frozenset[str]:
    """The units of a countercharge (12 M): each charged a unit that charged it."""
    pairs = {(c.attacker, c.target) for c in charges}
    return frozenset(a for a, t in pairs if (t, a) in pairs)


def close_in(tx: Tx, charges: Sequence[Charged], test: MoraleStep, *,
             closed: frozenset[str] = frozenset()) -> Closing:
    """12 B, C with 12 J and M: ``closed`` attackers (breakthroughs) have passed their
    test to close; in a countercharge each unit's test to close is also its test as the
    other's target."""
    mutual = countercharging(charges)
    taken: dict[str, bool] = {}

    def asked(call: MoraleCall) -> bool:
        if call.reason == CLOSE and call.unit in closed:
            return True
        if call.reason == CLOSED_ON and call.unit in taken:
            return taken[call.unit]
        passed = test(call)
        if call.reason == CLOSE and call.unit in mutual:
            taken[call.unit] = passed
        return passed

    return plain_close_in(tx, charges, asked)


def flank_attacks(state: GameState, unit_id: str) -> tuple[str, ...]:
    """The chargers of ``unit_id`` whose charges are on its flank or rear (13 A)."""
    out = []
    for c in chargers_of(state, unit_id):
        charge = charge_on(state, unit_id, c)
        if charge is not None and charge.is_flank_or_rear(state):
            out.append(c)
    return tuple(out)
