"""Evading a charge: independent generals (Melee a) and the caracole (Optional Rules b).

Melee a: "Artillery or independent generals can't advance into melee. Independent generals
always evade melee." Movement: "Independent generals move 9 inches." Optional Rules b: "If
meleed, the carole formation will first evade 1D6 inches away."

Read so, for a general on his own (a general attached to a unit is charged with it: the
charge is at the unit):

- **when**: a unit may charge him as it charges any enemy (under Advance, straight at him,
  within its rolled move); before it moves he evades, so there is never a melee, no test
  to close and no morale rolled.
- **how far, which way**: his own move, 9" with no dice, straight away from the charger
  (centre to centre), keeping his facing; he is a rider at the gallop, so the ground does
  not shorten it.
- **what stops him**: an enemy in his way stops him in contact; he rides through his own
  side's troops, who each take a morale check as when any piece moves through them
  (Movement), and he does not stop on one; the table's edge and water (a lake, a river
  away from its fords and bridges) stop him short. "Always evade": he is never caught,
  captured or killed by a charge; if he could not get clear, he stays where he is
  stopped and the charger still halts short of him.
- **the charger**: completes its move straight at him, as far as its rolled move allows
  but no nearer than 1" (the gap the text leaves a charge that fails to close), and its
  activation ends.

The caracole's evasion is 1D6 straight away from the attacker, stopped by anything in its
way, at the water's edge or at the table's (see the rule set's charge).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Move
from tertia.core.events import DiceRolled, Event
from tertia.core.geometry import EPSILON, Base, heading_vector, swept_polygon
from tertia.core.narration import Narrating, Sentence, of, tells
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rules.involuntary import Interpenetration, Slide, away_from, carry_out, plan_slide, stands_on
from tertia.rules.movement import plan_move
from tertia.rulesets.declare_thee_sir import edge, water
from tertia.rulesets.declare_thee_sir.movement import GENERAL_MOVE
from tertia.rulesets.declare_thee_sir.points import MoraleCheck, morale_check
from tertia.rulesets.declare_thee_sir.values import unit_data

STEP = 0.25
"""How finely an evasion stopped by the table's edge or water is cut back."""


@dataclass(frozen=True, slots=True)
class Evaded(Event):
    """``unit`` evaded ``charger``'s charge, going ``distance`` inches."""

    type: ClassVar[str] = "dts_evaded"
    unit: str
    charger: str
    distance: float


@tells(Evaded)
def _tell_evaded(n: Narrating, e: Evaded, dice: Sequence[DiceRolled]) -> Sentence:
    if e.distance < 0.05:
        return f"{n.label(e.unit)} cannot get clear of {of('charge', n.label(e.charger))}", "move"
    return f"{n.label(e.unit)} evades {of('charge', n.label(e.charger))}, {e.distance:.1f}\" away", "move"


def independent(unit: Unit) -> bool:
    """A general standing on his own, attached to no unit."""
    return unit_data(unit).is_general and unit_data(unit).attached_to is None


@dataclass(frozen=True, slots=True)
class Evasion:
    """A general's evasion: how far he went and the morale checks of the friends he rode
    through."""

    general: str
    distance: float
    checks: tuple[MoraleCheck, ...]


def general_evades(tx: Tx, general_id: str, charger_id: str) -> Evasion:
    """Melee a: the general rides his 9" straight away from the charger (see the module's
    note for what stops him)."""
    general, charger = tx.state.units[general_id], tx.state.units[charger_id]
    heading = away_from(charger.base, general.base)
    friends = tuple(u.id for u in tx.state.iter_units(general.side) if u.id != general_id)
    slide = plan_slide(tx.state, general, heading=heading, distance=float(GENERAL_MOVE),
                       policy=Interpenetration.STOP, table=(tx.table.width, tx.table.depth), ignore=friends)
    went = clear_end(tx.table, tx.state, general, heading, slide.distance)
    tx.emit(Evaded(unit=general_id, charger=charger_id, distance=went))
    if went <= EPSILON:
        return Evasion(general_id, 0.0, ())
    dx, dy = heading_vector(heading)
    end = (general.x + dx * went, general.y + dy * went)
    plan = plan_move(general, Move(unit=general_id, waypoints=(end,)))
    areas = plan.swept()
    passed = [u.id for u in tx.state.iter_troops(general.side)
              if any(u.overlaps(a) for a in areas)]
    carry_out(tx, general_id, Slide(general.base, plan.end, heading, float(GENERAL_MOVE), went), "evades")
    checks = tuple(morale_check(tx, f, f"{general.label} rode through it") for f in passed
                   if tx.state.units[f].in_play)
    return Evasion(general_id, went, checks)


def clear_end(table: Battlefield, state: GameState, piece: Unit, heading: float, distance: float) -> float:
    """The farthest, up to ``distance``, ``piece`` may go along ``heading`` and end on the
    table, short of water (a lake, a river away from its fords and bridges) and off every
    other piece: cut back :data:`STEP` at a time."""
    dx, dy = heading_vector(heading)
    went = distance
    while went > EPSILON:
        end: Base = piece.base.moved_to(piece.x + dx * went, piece.y + dy * went)
        corners = end.corners()
        if table.inside_table(corners) and water.wet(table, (swept_polygon(piece.base, end),)) is None \
                and not stands_on(state, end, (piece.id,)):
            return went
        went = max(0.0, went - STEP)
    return 0.0


def caracole_evades(tx: Tx, unit_id: str, foe_id: str, inches: int) -> None:
    """Optional Rules b: the caracole goes ``inches`` straight away from the attacker,
    keeping its facing, stopped by anything in its way."""
    unit, foe = tx.state.units[unit_id], tx.state.units[foe_id]
    slide = plan_slide(tx.state, unit, heading=away_from(foe.base, unit.base), distance=float(inches),
                       policy=Interpenetration.STOP, table=(tx.table.width, tx.table.depth))
    slide = water.keep_dry(tx.table, tx.state, unit, slide, Interpenetration.STOP)
    slide = edge.keep_on(tx.table, tx.state, unit, slide, Interpenetration.STOP)
    tx.emit(Evaded(unit=unit_id, charger=foe_id, distance=slide.distance))
    carry_out(tx, unit_id, slide, "evades")
