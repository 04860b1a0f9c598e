"""Melee (Game Mechanics 5): the test to close and the fight.

- **To close (5a)**: "To close, roll 1D6 and compare to attacking unit's morale (excellent
  = 2+, good = 3+, poor = 5+). Failure to close leaves attacking unit 1 in from target
  unit." The verdict is returned; the caller places the unit.
- **The fight (5b)**: "Attacker rolls 2D6. Target loses 1 morale point each for
  unmodified 7 and/or modified ROUT result on Melee Chart (5d). Attacker loses one morale
  point each for doubles and/or modified HOLD results on Melee Chart."
- **Modifiers (5c)**: :func:`~tertia.rulesets.declare_thee_sir.modifiers.melee_modifiers`.
- **Results (5d)**: "PB1D6 and PB2D6 indicate target is pushed back that many inches in
  good order facing the foe. HOLD means target holds ground unaffected. ROUT in melee
  indicates the target unit is broken."
- **Morale (3)**: "A unit with poor morale that loses another point to melee or a morale
  check routs."

Read so: a unit's morale is "determined when it ... melees": the attacker's when it tests
to close (or when the fight begins, if it did not), the target's when the fight begins,
the attacker's first. The chart is read for the target's level before the fight's losses
(the text takes each point "for" a result, together, where fire takes its first point
"next"). A modified ROUT breaks the target at any morale; so does a point lost at poor, on
either side: the attacker too routs when it loses a point at poor. A target that does not
rout is pushed back on PB1D6 or PB2D6 (:mod:`~tertia.rulesets.declare_thee_sir.pushback`).
With the capture option (Optional Rules c) a modified 12 or more opens a capture
(:mod:`~tertia.rulesets.declare_thee_sir.capture`), after the losses. Rout movement and
pursuit are not resolved here: the result names who routed.
"""

from __future__ import annotations

from dataclasses import dataclass

from tertia.core.dice import D6, sum_of, summed
from tertia.core.ruleset import Tx
from tertia.rules.morale import lose_points, morale_test
from tertia.rulesets.declare_thee_sir.capture import CAPTURE_FROM, CaptureAttempt, try_capture
from tertia.rulesets.declare_thee_sir.chart import HOLD, chart_result, is_rout, push_dice
from tertia.rulesets.declare_thee_sir.modifiers import Modifier, melee_modifiers, total
from tertia.rulesets.declare_thee_sir.points import level_of, tested, two_dice
from tertia.rulesets.declare_thee_sir.pushback import PushBack, push_back

CLOSE_NEED = {"excellent": 2, "good": 3, "poor": 5}
"""Melee a: the least roll on 1D6 that closes, by the attacker's morale."""
PUSHED_IN_MELEE = "pushed back in melee"
"""The reason a push-back's move gives (odds measure push-backs by it)."""
SHORT_OF_TARGET = 1.0
"""Melee a: "Failure to close leaves attacking unit 1 in from target unit"."""


@dataclass(frozen=True, slots=True)
class CloseTest:
    """The attacker's test to close: its level, the roll, the least roll that closes."""

    unit: str
    level: str
    roll: int
    need: int

    @property
    def passed(self) -> bool:
        return self.roll >= self.need


def close_test(tx: Tx, attacker_id: str) -> CloseTest:
    """Melee a: 1D6 against the attacker's morale, its points rolled first if untested.
    On a failure the caller leaves the attacker :data:`SHORT_OF_TARGET` inches off."""
    tested(tx, attacker_id, "melee")
    unit = tx.state.units[attacker_id]
    level = level_of(unit)
    test = morale_test(tx, D6, CLOSE_NEED[level], f"close: {unit.label}")
    return CloseTest(attacker_id, level, test.roll, test.need)


@dataclass(frozen=True, slots=True)
class MeleeResult:
    """What a fight did: the attacker's two ``dice``, the modifier lines and the chart's
    ``result``; the points each side lost and whether each routed; the push-back's dice
    total and what it did; the capture tried, if any."""

    attacker: str
    target: str
    dice: tuple[int, int]
    modifiers: tuple[Modifier, ...]
    result: str
    target_points_lost: int
    attacker_points_lost: int
    target_routed: bool
    attacker_routed: bool
    push_roll: int | None = None
    push: PushBack | None = None
    capture: CaptureAttempt | None = None

    @property
    def modified_sum(self) -> int:
        return sum(self.dice) + total(self.modifiers)

    @property
    def pushed_back(self) -> float:
        return 0.0 if self.push is None else self.push.distance

    @property
    def routed(self) -> tuple[str, ...]:
        """Every unit the melee routed: the target, the attacker, and any unit routed by
        the morale checks of a push-back through friends."""
        out = [u for u, gone in ((self.target, self.target_routed), (self.attacker, self.attacker_routed))
               if gone]
        if self.push is not None:
            out.extend(u for u in self.push.routed if u not in out)
        return tuple(out)


def fight(tx: Tx, attacker_id: str, target_id: str, *, capture: bool = False) -> MeleeResult:
    """Melee b-d: the attacker's 2D6, modified, on the Melee Chart for the target's morale;
    the points lost, the push-back and (``capture``: Optional Rules c) the capture."""
    tested(tx, attacker_id, "melee")
    tested(tx, target_id, "melee")
    attacker, target = tx.state.units[attacker_id], tx.state.units[target_id]
    modifiers = melee_modifiers(tx.table, tx.state, attacker, target)
    level = level_of(target)
    first, second = two_dice(tx, f"melee: {attacker.label} against {target.label}")
    modified = summed(first, second, total(modifiers))
    result = chart_result(modified, level)
    target_lost, target_routed = _lose(tx, target_id, int(summed(first, second) == 7) + int(is_rout(result)))
    attacker_lost, attacker_routed = _lose(tx, attacker_id, int(first == second) + int(result == HOLD))
    target_routed = target_routed or is_rout(result)
    attempt = try_capture(tx, attacker_id, target_id) if capture and modified >= CAPTURE_FROM else None
    push_roll: int | None = None
    push: PushBack | None = None
    dice = push_dice(result)
    if dice and not target_routed:
        push_roll = tx.roll(D6 if dice == 1 else sum_of(dice, D6), f"push back: {target.label}")
        push = push_back(tx, target_id, attacker_id, push_roll, face_foe=True,
                         reason=PUSHED_IN_MELEE)
    return MeleeResult(attacker_id, target_id, (first, second), modifiers, result, target_lost,
                       attacker_lost, target_routed, attacker_routed, push_roll, push, attempt)


def _lose(tx: Tx, unit_id: str, points: int) -> tuple[int, bool]:
    """Points lost to melee, and whether the unit routs: one it could not lose (at poor)."""
    if not points:
        return 0, False
    loss = lose_points(tx, unit_id, points, "melee")
    return loss.before - loss.after, loss.beyond > 0
