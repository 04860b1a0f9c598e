"""Push-backs (Game Mechanics 4b, 5d) and the morale checks of the friends they pass
through (2).

Artillery: "target is pushed back 1D6 in good order". Melee: "PB1D6 and PB2D6 indicate
target is pushed back that many inches in good order facing the foe." Movement: "Units
that move or rout through another unit cause a moral check (one musketry roll) on each
unit involved."

Read so: the unit slides straight away from the foe (centre to centre) without breaking
formation; from melee it ends facing the foe (turned about its centre before it slides),
from artillery it keeps its facing. It passes through friends, going on until clear of
the last, and stops in contact at an enemy (:mod:`tertia.rules.involuntary`) or at the
water's edge (:mod:`~tertia.rulesets.declare_thee_sir.water`), and, under the option
``obstacles_stop`` ``every_move``, at a wall, stream, fence or hedge (which it crosses the
next time it is moved, as a unit's own move does). When it
passed through any friend, each friend passed, in order, and then the unit itself take a
morale check (:func:`~tertia.rulesets.declare_thee_sir.points.morale_check`): "each unit
involved". Command stands neither stop it nor are checked (generals don't check morale).

The table's edge (option ``push_off_table``, :mod:`~tertia.rulesets.declare_thee_sir.readings`):
under ``edge`` (the default) the unit stops at the edge, as at an enemy or the water's edge
(:mod:`~tertia.rulesets.declare_thee_sir.edge`); under ``removed`` a unit whose push ends
partly beyond the edge is removed from play as one routed off, leaving its attached generals
where they stood. A unit pinned against the edge, or against another piece, so that it
cannot turn to face the foe without standing over it (or over the piece) keeps its facing.

A routing unit, its stands apart, cannot be pushed "in good order": each of its stands
flees the push's inches straight away from the foe, as a rout moves them
(:func:`~tertia.rulesets.declare_thee_sir.rout.flee`: through friends, who check morale,
lost over the edge), its attached generals with its colours.
"""

from __future__ import annotations

from dataclasses import dataclass

from tertia.core.events import UnitRemoved, UnitTurned
from tertia.core.geometry import EPSILON, angle_between
from tertia.core.ruleset import Tx
from tertia.rules.involuntary import Interpenetration, Slide, away_from, carry_out, plan_slide, stands_on
from tertia.rulesets.declare_thee_sir import edge, movement, water
from tertia.rulesets.declare_thee_sir.events import ObstacleReached
from tertia.rulesets.declare_thee_sir.generals import attach, attached_generals
from tertia.rulesets.declare_thee_sir.points import MoraleCheck, morale_check
from tertia.rulesets.declare_thee_sir.readings import (
    EVERY_MOVE,
    OBSTACLES_STOP,
    PUSH_OFF_TABLE,
    REMOVED,
    of_game,
)
from tertia.rulesets.declare_thee_sir.rout import flee
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.values import unit_data

PUSHED_OFF = "pushed off the table"
"""How a unit removed by a push over the edge is told (option ``push_off_table``)."""


@dataclass(frozen=True, slots=True)
class PushBack:
    """A push-back done: the ``slide`` (how far it went, whom it passed through, what
    stopped it, whether it left the table), the morale ``checks`` taken and the units they
    ``routed``; ``removed``: pushed over the edge and out of play (option
    ``push_off_table`` ``removed``, or a routing unit's last stand); ``fled``: a routing
    unit's stands fled the push, and its attached generals with them."""

    unit: str
    slide: Slide
    checks: tuple[MoraleCheck, ...]
    removed: bool = False
    fled: bool = False

    @property
    def distance(self) -> float:
        return self.slide.distance

    @property
    def routed(self) -> tuple[str, ...]:
        return tuple(c.unit for c in self.checks if c.routed)


def push_back(tx: Tx, unit_id: str, foe_id: str, inches: float, *, face_foe: bool, reason: str
              ) -> PushBack:
    """Push ``unit_id`` back ``inches`` straight away from ``foe_id``, ending facing the foe
    (``face_foe``) or as it faced, stopped at the edge or removed over it (the game's
    ``push_off_table``); then the morale checks of everyone involved. A routing unit's
    stands flee the inches instead."""
    unit, foe = tx.state.units[unit_id], tx.state.units[foe_id]
    heading = away_from(foe.base, unit.base)
    if unit.stands:
        stands = stands_of(unit)
        flight = flee(tx, unit_id, stands, (int(inches),) * len(stands), heading, reason)
        return PushBack(unit_id, flight.slides[0], flight.checks, flight.removed, fled=True)
    facing = (heading + 180.0) % 360.0 if face_foe else unit.facing
    start = unit.base.moved_to(unit.x, unit.y, facing)
    generals = tuple(u.id for u in tx.state.iter_units() if unit_data(u).is_general)
    if not edge.on_table(tx.table, start) or stands_on(tx.state, start, (unit.id, *generals)):
        facing, start = unit.facing, unit.base  # pinned, it cannot turn
    policy = Interpenetration.PASS_FRIENDS
    slide = plan_slide(tx.state, unit, heading=heading, distance=inches, policy=policy,
                       table=(tx.table.width, tx.table.depth), base=start, ignore=generals)
    slide = water.keep_dry(tx.table, tx.state, unit, slide, policy, ignore=generals)
    walls = of_game(tx.state, OBSTACLES_STOP) == EVERY_MOVE
    if walls:
        slide = movement.stop_at_obstacle(tx.table, tx.state, unit, slide, policy, ignore=generals)
    over = slide.off_table and of_game(tx.state, PUSH_OFF_TABLE) == REMOVED
    if slide.off_table and not over:
        slide = edge.keep_on(tx.table, tx.state, unit, slide, policy, ignore=generals)
    if slide.distance > EPSILON:
        carry_out(tx, unit_id, slide, reason)
    elif angle_between(facing, unit.facing) > EPSILON:
        tx.emit(UnitTurned(unit=unit_id, facing=facing, reason=reason))
    if over:
        for general in attached_generals(tx.state, unit_id):  # left where they stood
            attach(tx, general.id, None)
        tx.emit(UnitRemoved(unit=unit_id, reason="routed", detail=PUSHED_OFF))
    elif walls:
        stopped = movement.at_obstacle(tx.table, slide.end.corners())
        if stopped != unit_data(tx.state.units[unit_id]).at_obstacle:
            tx.emit(ObstacleReached(unit=unit_id, reached=stopped))
    checks: list[MoraleCheck] = []
    if slide.passed_through:
        for involved in (*slide.passed_through, unit_id):
            if tx.state.units[involved].in_play:
                checks.append(morale_check(tx, involved, f"{reason}: passed through"))
    return PushBack(unit_id, slide, tuple(checks), over)

