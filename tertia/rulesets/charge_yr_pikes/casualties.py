"""Casualties: figures killed, and what rides on them.

Fire, section 8: "Each hit ... kills one enemy casting"; casualties are gathered "onto one
stand as long as you keep like with like ... Units that consist of two types of figures
(Pikes and Shot) should take casualties in roughly equal proportion. EXAMPLE: If the unit
takes 4 casualties, two should be shot, and two should be pikes" (and Close combat H).
An odd casualty falls on the shot, who stand in front; a weapon with none left passes the
rest to the other.

Tertias and officers E: "Any time the unit takes casualties, roll a D10. If the result is
'10' the general is killed or wounded and out of the battle." Galloper guns: "If the unit
to which they are attached suffers fire casualties, roll a D10. A result of '1' means
that one gunner is a casualty instead of a casualty on the unit to which it is attached."

A unit whose last figures fall leaves the field, destroyed, whatever killed them (the
text is silent: a regiment with no men left fights, tests and holds ground no more; its
routing already ended so, and so does fire or close combat now).

>>> from tertia.rulesets.charge_yr_pikes.data import CypUnit
>>> from tertia.rulesets.charge_yr_pikes.troops import FOOT, TROOPS
>>> split(CypUnit.of(FOOT), 4), split(CypUnit.of(FOOT), 3), split(CypUnit.of(FOOT, shot=1), 3)
((2, 2, 0), (1, 2, 0), (2, 1, 0))
>>> split(CypUnit.of(TROOPS["horse"]), 20)
(0, 0, 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D10
from tertia.core.events import Casualties, Event, UnitRemoved
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, gallopers, leave_field
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.values import unit_data

OFFICER_FALLS = 10
"""The D10 result that kills or wounds a front-rank officer."""
GUNNER_HIT = 1
"""The D10 result that puts a fire casualty on an attached galloper's gunners instead."""
DESTROYED = "destroyed"
"""Why a unit is off the field whose last figures fell, or that pikes were lowered on
(Routing C: every figure is a casualty)."""


@dataclass(frozen=True, slots=True)
class FiguresKilled(Casualties, Event):
    """A unit lost ``figures`` figures: ``pike``, ``shot`` and ``men`` of them."""

    type: ClassVar[str] = "cyp_figures_killed"
    measure: ClassVar[str] = "figures"
    noun: ClassVar[str] = "figure"
    unit: str
    figures: int
    pike: int
    shot: int
    men: int
    cause: str


@handles(FiguresKilled)
def _killed(s: GameState, e: FiguresKilled) -> GameState:
    u = s.units[e.unit]
    own = unit_data(u)
    return s.with_unit(u.evolve(pike=own.pike - e.pike, shot=own.shot - e.shot, men=own.men - e.men))


def split(own: CypUnit, figures: int) -> tuple[int, int, int]:
    """How ``figures`` casualties fall: (pike, shot, men), never more than there are."""
    if own.men or not (own.pike or own.shot):
        return 0, 0, min(own.men, figures)
    shot = min(own.shot, figures - figures // 2)
    pike = min(own.pike, figures - shot)
    shot = min(own.shot, figures - pike)
    return pike, shot, 0


def kill(tx: Tx, unit_id: str, figures: int, cause: str, *, by_fire: bool = False,
         last_men: str | None = None) -> int:
    """Take up to ``figures`` figures from a unit, then roll for its front-rank officers
    (and, under fire, its galloper's gunners); returns the figures taken. A unit (or
    galloper) left with no figures leaves the field, destroyed: ``last_men`` says how
    (by default, that its last men fell to ``cause``)."""
    if figures <= 0:
        return 0
    for gun in [g.id for g in gallopers(tx.state, unit_id)] if by_fire else ():
        hit = tx.roll(D10, f"galloper's gunners hit instead: {tx.state.units[gun].label}") == GUNNER_HIT
        if hit and unit_data(tx.state.units[gun]).men > 0:
            tx.emit(FiguresKilled(unit=gun, figures=1, pike=0, shot=0, men=1, cause=cause))
            _destroyed_if_spent(tx, gun, last_men or f"its last gunners fell ({cause})")
            figures -= 1
            break
    pike, shot, men = split(unit_data(tx.state.units[unit_id]), figures)
    taken = pike + shot + men
    if taken:
        tx.emit(FiguresKilled(unit=unit_id, figures=taken, pike=pike, shot=shot, men=men, cause=cause))
        for officer in [o.id for o in front_rank_officers(tx.state, unit_id)]:
            if tx.roll(D10, f"officer falls: {tx.state.units[officer].label}") == OFFICER_FALLS:
                tx.emit(UnitRemoved(unit=officer, reason="fallen",
                                    detail=f"killed or wounded with {tx.state.units[unit_id].label}"))
        _destroyed_if_spent(tx, unit_id, last_men or f"its last men fell ({cause})")
    return taken


def _destroyed_if_spent(tx: Tx, unit_id: str, detail: str) -> None:
    """A unit with no figures left leaves the field (see the module's note)."""
    unit = tx.state.units[unit_id]
    if unit.in_play and unit_data(unit).figures == 0:
        leave_field(tx, unit_id, DESTROYED, detail)

