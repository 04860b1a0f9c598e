"""Flank and rear (section 13): the tangent line, and turning to meet.

13 A: "There is an imaginary line extending in parallel of and tangent to the front of
every unit. This is the line that divides the unit's 'front' from it's flank/rear. An
attacking unit must have started its move completely behind this line to have an attack
classed as a flank/rear attack. If the attacking unit does not start completely behind
this line, the facing of the defending unit may be adjusted so that the two units meet
frontally."

Read so: the line runs along the defender's front edge, extended both ways; the attacker's
base where its move began is "completely behind" it when none of its corners lies beyond
it (a corner on the line is not in front). A square faces all round and has no flank or
rear. To "meet frontally" the defender turns in place to face the attacker front to front
(its facing the attacker's, reversed); where the turned footprint stands is the move's
business.

13 B: "Units attacked in flank/rear may turn to meet such attack if they have not yet
moved and pass command response die roll when their move card is drawn": the card's
command response is the sequence's; :func:`may_turn_to_meet` says whether the unit may
try, :func:`turn_to_meet` turns it (the action on the card:
:mod:`~tertia.rulesets.charge_yr_pikes.reaction`). The charge is then fought frontally (the melee's
``Charge.frontal``). 13 C (a unit attacked in flank/rear routs on any failed test) is the
melee's: its morale calls carry ``flank_or_rear``.

>>> from tertia.core.geometry import Base
>>> defender = Base(0, 0, 0, 4, 2)                   # front edge on y = 1, facing north
>>> is_flank_or_rear(Base(6, 0, 270, 2, 1), defender)  # beside it, wholly behind the line
True
>>> is_flank_or_rear(Base(6, 1.2, 270, 2, 1), defender)  # a corner beyond the line
False
>>> meeting_facing(Base(6, 0, 270, 2, 1))
90.0
"""

from __future__ import annotations

from tertia.core.events import UnitTurned
from tertia.core.geometry import EPSILON, Base
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.attached import keep_gallopers
from tertia.rulesets.charge_yr_pikes.data import SQUARE
from tertia.rulesets.charge_yr_pikes.values import unit_data

TURNED_TO_MEET = "turned to meet an attack"


def is_behind_front(start: Base, defender: Base) -> bool:
    """Is ``start`` completely behind the line tangent to ``defender``'s front (13 A)?"""
    front = defender.depth / 2.0 + EPSILON
    return all(defender.to_local(corner)[1] <= front for corner in start.corners())


def is_flank_or_rear(start: Base, defender: Base, *, all_round: bool = False) -> bool:
    """13 A: is an attack that began its move at ``start`` a flank/rear attack on
    ``defender``? Never on a unit facing all round (a square)."""
    return not all_round and is_behind_front(start, defender)


def meeting_facing(attacker: Base) -> float:
    """The facing that brings a defender front to front with ``attacker``."""
    return (attacker.facing + 180.0) % 360.0


def may_turn_to_meet(tx: Tx, defender_id: str) -> bool:
    """13 B: a unit attacked in flank/rear may turn to meet the attack if it has not yet
    moved this turn (and its card's command response passes: the sequence's)."""
    own = unit_data(tx.state.units[defender_id])
    return not own.moved and own.formation != SQUARE


def turn_to_meet(tx: Tx, defender_id: str, attacker_id: str) -> None:
    """13 A, B: turn the defender in place to meet ``attacker_id`` frontally."""
    attacker = tx.state.units[attacker_id]
    before = tx.state.units[defender_id].base
    tx.emit(UnitTurned(unit=defender_id, facing=meeting_facing(attacker.base), reason=TURNED_TO_MEET))
    keep_gallopers(tx, defender_id, before, TURNED_TO_MEET)
