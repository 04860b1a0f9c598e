"""Fire (Game Mechanics 4): one volley of musketry or one shot of artillery, resolved.

"Two types of ranged fire; artillery and musketry. ... First declare target, determine if
in range (to closest stand edge). Roll 2D6 for effect."

- **Artillery (4b)**: "Roll 2D6; doubles remove 1 morale point, then apply modifiers ...
  Compare modified sum to Melee Chart (5d). If the number indicates a PB2D6 or ROUT for
  targets morale, target is pushed back 1D6 in good order."
- **Musketry (4c)**: "Roll 2D6, doubles or a 7 removes 1 morale from target. Next, modify
  ... Compare modified sum to Melee Chart (5d). If the number indicates a ROUT for targets
  morale, target loses a morale point."
- **Generals (4d)**: "Attached generals with a target unit which loses morale points
  through fire may be killed. A 1D6 die roll of one kills the general, removing him from
  play. In that event, the general was the morale point lost."
- **Morale (3)**: "A unit with poor morale that loses another point to fire remains at
  poor."

Read so (the order of the dice is the order of the text):

1. the range is rolled (:func:`roll_range`); a
   target beyond it is not fired upon, and nothing more is rolled;
2. a target in range is "fired upon": an untested target's points are rolled now;
3. the two dice; the first point (doubles; for musketry a 7 too) is taken at once, and
   the chart is read for the target's morale after it ("Next, modify"; option
   ``fire_chart`` ``after``, the default) or as it was before it (``before``: the point
   and the chart read as one result of the same roll); ROUT* counts as ROUT;
4. when the dice took any point (even from a unit at poor, which stays at poor), one D6
   for an attached general: on a 1 he is removed from play, and the point the volley
   took was his, so the unit loses nothing more (see
   :mod:`~tertia.rulesets.declare_thee_sir.points` for where his point is kept); one roll
   a volley, however many points it took;
5. artillery's push-back, 1D6 straight away from the gun, the target keeping its facing,
   through friends with their morale checks
   (:mod:`~tertia.rulesets.declare_thee_sir.pushback`).

A target out of arc or out of sight is refused (``ValueError``): the rule set's
``validate`` says so first (:func:`~tertia.rulesets.declare_thee_sir.reach.fire_distance`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tertia.core.dice import D6, recorded, summed
from tertia.core.events import UnitRemoved
from tertia.core.ruleset import Tx
from tertia.rules.morale import lose_points
from tertia.rulesets.declare_thee_sir.chart import PB2D6, chart_result, is_rout
from tertia.rulesets.declare_thee_sir.events import VolleyWorkedOut
from tertia.rulesets.declare_thee_sir.modifiers import Modifier, fire_modifiers, total
from tertia.rulesets.declare_thee_sir.points import (
    attached_general,
    follow_generals,
    level_of,
    tested,
    two_dice,
)
from tertia.rulesets.declare_thee_sir.pushback import PushBack, push_back
from tertia.rulesets.declare_thee_sir.reach import base_range, fire_distance
from tertia.rulesets.declare_thee_sir.readings import BEFORE, FIRE_CHART, of_game
from tertia.rulesets.declare_thee_sir.values import unit_data

MUSKETRY = "musketry"
ARTILLERY = "artillery"

PUSHED_BY_ARTILLERY = "pushed back by artillery"
"""The reason a push-back's move gives (odds measure push-backs by it)."""
GENERAL_KILLED_ON = 1
"""Fire d: "A 1D6 die roll of one kills the general"."""


@dataclass(frozen=True, slots=True)
class FireResult:
    """What one shot did: the range rolled (``reach``) and the ``distance`` measured; the
    two ``dice`` (``None``: out of range, nothing more rolled), the modifier lines that
    applied and the chart's ``result``; the points the dice took (``points_called``) and
    those the target actually lost (fewer at poor morale); the general killed; for
    artillery, the push-back die and what the push did."""

    firer: str
    target: str
    kind: str
    reach: int
    distance: float
    dice: tuple[int, int] | None = None
    modifiers: tuple[Modifier, ...] = ()
    result: str | None = None
    points_called: int = 0
    points_lost: int = 0
    general_killed: str | None = None
    push_roll: int | None = None
    push: PushBack | None = None

    @property
    def in_range(self) -> bool:
        return self.dice is not None

    @property
    def modified_sum(self) -> int | None:
        return None if self.dice is None else sum(self.dice) + total(self.modifiers)

    @property
    def pushed_back(self) -> float:
        """How far the target was pushed (0 when it was not)."""
        return 0.0 if self.push is None else self.push.distance

    @property
    def routed(self) -> tuple[str, ...]:
        """Units routed by the morale checks of a push-back through friends."""
        return () if self.push is None else self.push.routed


def fire(tx: Tx, firer_id: str, target_id: str) -> FireResult:
    """One shot of ``firer_id`` at ``target_id``: musketry, or artillery for a gun."""
    firer, target = tx.state.units[firer_id], tx.state.units[target_id]
    distance = fire_distance(tx.table, tx.state, firer, target)
    if distance is None:
        raise ValueError(f"{firer_id} has no stand that bears on {target_id} and sees it")
    kind = ARTILLERY if unit_data(firer).is_gun else MUSKETRY
    reach = roll_range(tx, firer_id)
    if distance > reach:
        tx.emit(VolleyWorkedOut(unit=firer_id, target=target_id, reach=reach, distance=round(distance, 2)))
        return FireResult(firer_id, target_id, kind, reach, distance)
    tested(tx, target_id, "fired upon")
    first, second = two_dice(tx, f"{kind}: {firer.label} at {target.label}")
    before = level_of(tx.state.units[target_id])
    called = lost = 0
    if first == second or (kind == MUSKETRY and summed(first, second) == 7):
        called, lost = called + 1, lost + _lose(tx, target_id, kind)
    modifiers = fire_modifiers(tx.table, tx.state.units[firer_id], tx.state.units[target_id])
    level = before if of_game(tx.state, FIRE_CHART) == BEFORE else level_of(tx.state.units[target_id])
    result = chart_result(summed(first, second, total(modifiers)), level)
    if kind == MUSKETRY and is_rout(result):
        called, lost = called + 1, lost + _lose(tx, target_id, kind)
    tx.emit(VolleyWorkedOut(unit=firer_id, target=target_id, reach=reach, distance=round(distance, 2),
                            total=recorded(first) + recorded(second) + total(modifiers), result=result,
                            points=lost))
    killed = _general_falls(tx, target_id) if called else None
    push_roll: int | None = None
    push: PushBack | None = None
    if kind == ARTILLERY and (result == PB2D6 or is_rout(result)):
        push_roll = tx.roll(D6, f"push back: {target.label}")
        push = push_back(tx, target_id, firer_id, push_roll, face_foe=False,
                         reason=PUSHED_BY_ARTILLERY)
    return FireResult(firer_id, target_id, kind, reach, distance, (first, second), modifiers, result,
                      called, lost, killed, push_roll, push)


def roll_range(tx: Tx, firer_id: str) -> int:
    """This shot's range: the firer's base range + 1D6 (one die, logged)."""
    firer = tx.state.units[firer_id]
    return base_range(unit_data(firer)) + tx.roll(D6, f"range: {firer.label}")


def _lose(tx: Tx, target_id: str, kind: str) -> int:
    """One point to fire; a unit at poor loses nothing and stays at poor."""
    loss = lose_points(tx, target_id, 1, kind)
    return loss.before - loss.after


def _general_falls(tx: Tx, target_id: str) -> str | None:
    """Fire d: a general attached to the target dies on a 1 on 1D6."""
    general = attached_general(tx.state, target_id)
    if general is None:
        return None
    roll = tx.roll(D6, f"general under fire: {tx.state.units[general].label}")
    if roll > GENERAL_KILLED_ON:
        return None
    tx.emit(UnitRemoved(unit=general, reason="killed",
                        detail=f"under fire with {tx.state.units[target_id].label}: "
                               "the general was the morale point lost"))
    follow_generals(tx, target_id, general, fell=True)
    return general
