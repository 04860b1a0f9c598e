"""Capture of a flag or an attached general (Optional Rules c), off unless the game's
option turns it on.

"On a modified melee attack sum of 12+, the attacker may attempt a capture. Attacker and
target unit each roll 2D6. Target unit adds its current morale points and 1 for attached
general to its sum. If attacker beats targets modified sum, a capture occurs. Add one
morale point to attacking unit."

Read so: the attacker always tries (trying costs nothing); the target's points are those
it has after the fight's losses; "beats" is strictly more. What is taken is the attached
general when there is one (he leaves play, captured), else the flag. The point gained may
lift the attacker above the points it first rolled but never above 4 (no unit has more);
its original level, to which rallying restores points, does not change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6, sum_of
from tertia.core.events import DiceRolled, Event, UnitRemoved
from tertia.core.narration import Narrating, Sentence, of, tells
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rules.morale import morale_of
from tertia.rulesets.declare_thee_sir.points import MOST_POINTS, attached_general, follow_generals

CAPTURE_FROM = 12
"""Optional Rules c: "a modified melee attack sum of 12+" (the chart's ROUT*)."""
FLAG = "flag"


@dataclass(frozen=True, slots=True)
class Captured(Event):
    """``unit`` captured ``target``'s flag (``prize`` "flag") or its attached general
    (``prize`` his id), and gains a morale point."""

    type: ClassVar[str] = "dts_captured"
    unit: str
    target: str
    prize: str


@handles(Captured)
def _captured(s: GameState, e: Captured) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(morale=min(MOST_POINTS, (morale_of(u) or 0) + 1)))


@tells(Captured)
def _tell_captured(n: Narrating, e: Captured, dice: Sequence[DiceRolled]) -> Sentence:
    prize = of("flag", n.label(e.target)) if e.prize == FLAG else n.label(e.prize)
    return f"{n.label(e.unit)} captures {prize}", "status"


@dataclass(frozen=True, slots=True)
class CaptureAttempt:
    """The attacker's 2D6, the target's 2D6 and what it added (morale points, a general),
    and the prize taken (``None``: no capture)."""

    attacker_roll: int
    target_roll: int
    target_adds: int
    prize: str | None

    @property
    def captured(self) -> bool:
        return self.prize is not None


def try_capture(tx: Tx, attacker_id: str, target_id: str) -> CaptureAttempt:
    """Optional Rules c: the attacker's 2D6 against the target's 2D6 + its morale points +
    1 for an attached general; more takes the general, or else the flag."""
    attacker, target = tx.state.units[attacker_id], tx.state.units[target_id]
    ours = tx.roll(sum_of(2, D6), f"capture: {attacker.label}")
    theirs = tx.roll(sum_of(2, D6), f"capture: {target.label} defends")
    general = attached_general(tx.state, target_id)
    adds = (morale_of(target) or 0) + (1 if general is not None else 0)
    if ours <= theirs + adds:
        return CaptureAttempt(ours, theirs, adds, None)
    prize = general if general is not None else FLAG
    tx.emit(Captured(unit=attacker_id, target=target_id, prize=prize))
    if general is not None:
        tx.emit(UnitRemoved(unit=general, reason="captured",
                            detail=f"taken with {target.label} by {attacker.label}"))
        follow_generals(tx, target_id, general)  # his point goes with him (option general_point)
    return CaptureAttempt(ours, theirs, adds, prize)
