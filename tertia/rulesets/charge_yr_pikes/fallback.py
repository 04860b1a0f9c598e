"""Falling back (section 14; Movement 5 F).

"A. Units that fall back as a result of morale move straight back a normal move in good
order. They face the front. They are disordered. B. If a unit falling back passes through
a friendly unit, the friendly unit must check morale. Any failure results in the friendly
unit becoming disordered. C. Units falling back that collide with the enemy in some manner
fight a melee. They fight as disordered. D. Galloper guns falling back go to the rear
normally, all other crew abandon guns and move as an foot unit." 5 F: "Units that 'Fall
back' due to poor morale do so at the normal movement rate."

Read so: the unit slides straight back (away from its facing) its line's normal move (the
whole of it: 5 F names the rate, so disorder's shortened move does not apply), keeping its
facing; it is disordered and falling back (a state cleared when the unit next passes
command response, :func:`~tertia.rulesets.charge_yr_pikes.command.end_falling_back`, as
Charge fatigue B says of "fallback status"). It passes
through friends (:mod:`tertia.rules.involuntary`), going on until clear of the last; each
friend passed that is not routed tests, and a failure only disorders it. An enemy stops
it in contact: the melee that follows is the close combat code's, fought disordered
(:attr:`FallBack.met`). It stops at the table's edge: it goes back in good order, not
fleeing the field. Officers are never in the way (4 F); those in its front rank and its
galloper guns go back with it (4 D, 14 D). A field or heavy battery's crew leave their gun
and go back as foot (``abandoned``).
"""

from __future__ import annotations

from dataclasses import dataclass

from tertia.core.geometry import EPSILON, Base, heading_vector
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rules.involuntary import Interpenetration, Slide, carry_out, plan_slide
from tertia.rulesets.charge_yr_pikes.attached import carry, overrun_officers, sharing_fate
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.morale import MoraleResult, morale_test
from tertia.rulesets.charge_yr_pikes.movement import line_of as move_line
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data


def is_battery(own: CypUnit) -> bool:
    """A field or heavy gun with its crew (a galloper goes with its unit)."""
    return own.is_battery and not own.abandoned


def not_in_the_way(state: GameState, unit_id: str) -> tuple[str, ...]:
    """Pieces an involuntary move ignores: every officer (4 F) and what goes with the unit."""
    officers = [u.id for u in state.iter_units() if unit_data(u).is_officer]
    return (*officers, *sharing_fate(state, unit_id))


def room(base: Base, heading: float, table: tuple[float, float]) -> float:
    """How far ``base`` may slide along ``heading`` and stay wholly on the table."""
    dx, dy = heading_vector(heading)
    width, depth = table
    most = float("inf")
    for x, y in base.corners():
        for at, d, edge in ((x, dx, width), (y, dy, depth)):
            if d > EPSILON:
                most = min(most, (edge - at) / d)
            elif d < -EPSILON:
                most = min(most, at / -d)
    return max(0.0, most)


@dataclass(frozen=True, slots=True)
class FallBack:
    """A fall-back done: the ``slide``; the friends passed through, their ``tests`` and
    those ``disordered`` by failing; the enemy ``met`` (a melee to fight, disordered), and
    whether a battery's crew ``abandoned`` their gun."""

    unit: str
    slide: Slide
    tests: tuple[MoraleResult, ...]
    disordered: tuple[str, ...]
    met: str | None
    abandoned: bool


def fall_back(tx: Tx, tables: Tables, unit_id: str, why: str) -> FallBack:
    """14 A-D: fall back a normal move straight back, facing the front, disordered."""
    abandoned = is_battery(unit_data(tx.state.units[unit_id]))
    if abandoned:
        change(tx, unit_id, "crew abandon their gun", abandoned=True)
    change(tx, unit_id, f"falls back ({why})", disordered=True, falling_back=True)
    unit = tx.state.units[unit_id]
    slide = _slide_back(tx, unit_id, float(move_line(tables, unit_data(unit)).normal))
    before = (unit.x, unit.y)
    carry_out(tx, unit_id, slide, "falls back")
    carry(tx, unit_id, before, "falls back with its unit")
    overrun_officers(tx, unit_id)
    tests: list[MoraleResult] = []
    for friend in slide.passed_through:
        if tx.state.units[friend].in_play and not unit_data(tx.state.units[friend]).routed:
            tests.append(morale_test(tx, tables, friend, f"{unit.label} fell back through it"))
    failed = tuple(t.unit for t in tests if not t.passed)
    for friend in failed:
        change(tx, friend, f"is disordered as {unit.label} falls back through it", disordered=True)
    met = slide.stopped_by
    enemy = met is not None and tx.state.units[met].side != unit.side
    return FallBack(unit_id, slide, tuple(tests), failed, met if enemy else None, abandoned)


def _slide_back(tx: Tx, unit_id: str, inches: float) -> Slide:
    """Straight back ``inches``, no further than the table's edge."""
    unit = tx.state.units[unit_id]
    heading = (unit.facing + 180.0) % 360.0
    size = (tx.table.width, tx.table.depth)
    ignore = not_in_the_way(tx.state, unit_id)
    slide = plan_slide(tx.state, unit, heading=heading, distance=inches,
                       policy=Interpenetration.PASS_FRIENDS, table=size, ignore=ignore)
    if not slide.off_table:
        return slide
    inches = min(inches, room(unit.base, heading, size))
    slide = plan_slide(tx.state, unit, heading=heading, distance=inches,
                       policy=Interpenetration.PASS_FRIENDS, table=size, ignore=ignore)
    if not slide.off_table:
        return slide
    # Clearing a friend would carry it over the edge: it halts against that friend.
    return plan_slide(tx.state, unit, heading=heading, distance=inches, policy=Interpenetration.STOP,
                      table=size, ignore=ignore)
