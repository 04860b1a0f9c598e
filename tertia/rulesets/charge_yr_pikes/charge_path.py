"""Charges (Close combat 12 A, Movement 5 notes, Special rules B).

"Attacker moves units directly towards the target unit(s) and halts 1" away." Read so: the
attacker turns to face the target's centre and goes straight at it until its front is 1"
from the target (one already nearer stays where it stands, turned; one that, turned where
it stands, would stand over the target, beside it, goes straight back until 1" from it);
a piece in the way, friend or foe, stops the charge (the attacker may not charge through
it). The charge reaches as far as its charge move (the movement
table's charge column; a unit without one, or a disordered unit, charges at its normal
move: :func:`~tertia.rulesets.charge_yr_pikes.movement.charge_allowance`). A unit that
falls short "may still charge towards the enemy but will lose 1 man to fatigue for every
inch of movement till they stop 1" from the enemy"
(:func:`~tertia.rulesets.charge_yr_pikes.charge.charge_fatigue`). Mounted dragoons "may not charge any units
unless they charge flank/rear, or if the target of the charge is already routed".

Measuring (Movement 5 B): the charge's length is the path of the attacker's reference point
(:func:`~tertia.rulesets.charge_yr_pikes.movement.reference_point`), the centre of its front
(of a square, its centre): the swing of that point as the unit turns to face the target
(:attr:`ChargePath.turn`), then the straight run until its front halts 1" from the target.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tertia.core.actions import Move
from tertia.core.geometry import angle_between, bearing, heading_vector
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rules.involuntary import Interpenetration, facing_from_clear, on_table, plan_slide
from tertia.rules.movement import MovePlan, plan_move
from tertia.rulesets.charge_yr_pikes.attached import lone_enemy_officers
from tertia.rulesets.charge_yr_pikes.charge import SHORT_OF_TARGET
from tertia.rulesets.charge_yr_pikes.movement import swing
from tertia.rulesets.charge_yr_pikes.values import unit_data


@dataclass(frozen=True, slots=True)
class ChargePath:
    """A charge straight at its target: the ``heading``, how far the attacker goes to halt
    1" away (``distance``), where it ends (``end``), the piece in the way (``blocked_by``,
    its label), if any, how far its reference point swings as it turns to the target
    (``turn``), and whether halting before the target would leave the attacker partly off
    the table (``off_table``: a charge is a move, and may not end there)."""

    heading: float
    distance: float
    end: tuple[float, float]
    blocked_by: str | None = None
    turn: float = 0.0
    off_table: bool = False

    @property
    def length(self) -> float:
        """The charge measured from the attacker's reference point (Movement 5 B): its
        swing as it turns, then its run."""
        return self.turn + self.distance


def charge_path(table: Battlefield, state: GameState, unit: Unit, target: Unit) -> ChargePath:
    """Where a charge at ``target`` takes ``unit`` (its officers in its front rank and its
    gallopers go with it, enemy officers in no front rank are moved to safety (4 F) and
    routed friends are shoved aside (15 A): none of them is in its way)."""
    heading = bearing(unit.base.centre, target.base.centre)
    turn = swing(unit.base, unit_data(unit).formation) * math.radians(angle_between(unit.facing, heading))
    turned = unit.evolve(facing=heading)
    ignore = passed_by_charge(state, unit)
    size = (table.width, table.depth)
    # Turned where it stands beside its target, it may stand over it: it faces it from
    # just clear, straight behind, and halts the inch away from there.
    facing = facing_from_clear(state, turned, target, size, ignore)
    back = facing.back
    if facing.blocked_by is not None:
        return ChargePath(heading, -back, facing.start.centre, state.units[facing.blocked_by].label, turn)
    # Unless it is left out, it touches the target at the latest as its centre reaches the
    # target's: a slide that far (and an inch) meets whatever stands in its way.
    reach = table.width + table.depth if target.id in ignore else \
        math.dist(facing.start.centre, target.base.centre) + 1.0
    slide = plan_slide(state, turned, heading=heading, distance=reach,
                       policy=Interpenetration.STOP, table=size, ignore=ignore, base=facing.start)
    if slide.stopped_by != target.id:
        blocker = state.units[slide.stopped_by].label if slide.stopped_by is not None else "the table edge"
        return ChargePath(heading, slide.distance - back, slide.end.centre, blocker, turn)
    go = slide.distance - back - SHORT_OF_TARGET if back > 0.0 else max(0.0, slide.distance - SHORT_OF_TARGET)
    dx, dy = math.sin(math.radians(heading)), math.cos(math.radians(heading))
    end = (unit.x + dx * go, unit.y + dy * go)
    off_table = not on_table(turned.base.moved_to(*end), size)
    return ChargePath(heading, go, end, turn=turn, off_table=off_table)


def passed_by_charge(state: GameState, unit: Unit) -> frozenset[str]:
    """The pieces none of which is in the way of a charge of ``unit`` (see
    :func:`charge_path`): its officers in its front rank and its gallopers, which go with
    it, enemy officers in no front rank, moved to safety (4 F), and its side's routed
    troops, shoved aside (15 A). Found once for a state and charger, which both the charge's
    path and :func:`surely_barred` ask."""
    key = (_PASSED, unit.id)
    found: frozenset[str] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = _led_by(state).get(unit.id, _NONE) | _routed(state, unit.side) | \
            frozenset(lone_enemy_officers(state, unit.side))
    return found


def surely_barred(state: GameState, unit: Unit, target: Unit) -> bool:
    """A cheap test that :func:`charge_path` finds a piece in the way of ``unit``'s charge
    at ``target`` (False says nothing): a piece it does not pass, a stand of which has its
    centre within the charger's width of the line it charges along, wholly ahead of its
    front once turned, and nearer along that line than any stand of the target comes. The
    front reaches that centre, so meets the stand, before it could meet the target; and a
    charger that would stand over its target once turned (and so stand back first) has
    none such, since then the target comes no further ahead than its front."""
    passed = passed_by_charge(state, unit)
    if target.id in passed:
        return False
    ux, uy = heading_vector(bearing(unit.base.centre, target.base.centre))
    half_width, half_depth = unit.width / 2, unit.depth / 2
    met = min((f.x - unit.x) * ux + (f.y - unit.y) * uy - f.radius for f in target.footprints)
    if met <= half_depth:
        return False
    for other in state.near(min(unit.x, target.x), min(unit.y, target.y), max(unit.x, target.x),
                            max(unit.y, target.y), unit.base.radius):
        if other.id == unit.id or other.id == target.id or other.id in passed:
            continue
        for f in other.footprints:
            ox, oy = f.x - unit.x, f.y - unit.y
            along = ox * ux + oy * uy
            if (abs(ox * uy - oy * ux) < half_width and along - f.radius > half_depth
                    and along < met - _MARGIN):
                return True
    return False


_MARGIN = 1e-6
"""How much nearer than the target a stand must be met to be surely met first (the slide
measures its contacts to a tolerance far smaller)."""


def _led_by(state: GameState) -> dict[str, frozenset[str]]:
    """The pieces in play attached to each unit (its front-rank officers, gallopers and
    intermingled musketeers), by the unit's id: found once for a state, which every
    charge judged in it asks."""
    found: dict[str, frozenset[str]] | None = state.cache.get(_LED_BY)
    if found is None:
        led: dict[str, set[str]] = {}
        for piece in state.iter_units():
            to = unit_data(piece).attached_to
            if to is not None:
                led.setdefault(to, set()).add(piece.id)
        found = state.cache[_LED_BY] = {to: frozenset(ids) for to, ids in led.items()}
    return found


def _routed(state: GameState, side: str) -> frozenset[str]:
    """``side``'s routed troops in play, found once for a state and side."""
    key = (_ROUTED, side)
    found: frozenset[str] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = frozenset(u.id for u in state.iter_troops(side) if unit_data(u).routed)
    return found


_LED_BY = "cyp charge path: pieces led"
_ROUTED = "cyp charge path: routed troops"
_PASSED = "cyp charge path: pieces passed"
_NONE: frozenset[str] = frozenset()


def charge_swept(unit: Unit, path: ChargePath) -> MovePlan:
    """The charge as a straight move of ``unit``, turned to its heading, to its end: the
    ground it covers (``swept()``) and its ``end``."""
    return plan_move(unit.evolve(facing=path.heading), Move(unit=unit.id, waypoints=(path.end,)))

