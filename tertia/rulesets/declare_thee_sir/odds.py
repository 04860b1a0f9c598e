"""Exact odds under Declare Thee Sir: a volley or a charge asked about in a position as it
stands, and its outcomes in the rule set's own words.

The odds themselves are the playing code run under enumerating dice
(:func:`tertia.analysis.odds.odds`): the range, the untested morale of each unit the
action tests (a die nobody has rolled yet, so a chance node like any other: Morale,
"determined when it is first fired upon, melees"), the two dice, the general's die, the
push-back, the test to close, the capture, the rout and the pursuit. Nothing is worked
out twice here; this module only readies the position and reads the results:

- **readying** (:func:`ready`): the acting unit's card is drawn and the option declared
  that the action needs (Game Play): ``fire`` under stand and fire (two volleys; the
  first volley is asked about), ``charge`` under advance with its move rolled. A position
  in which the unit is already activated under that option (a record mid-activation)
  stays as it is. The move is not part of a charge's odds: it is rolled when the option
  is declared, before the charge is chosen, so a charge is asked about with the most the
  move dice can give (the charge must reach; whether a smaller roll reaches is the
  player's to see on the table). Against a caracole that evades, that is the reach that
  most favours the charge.
- **what each outcome did** (:func:`effects`): per unit, the morale points lost (gained,
  negative, by a capture), the inches pushed back, whether it was broken, the prize
  taken and a general killed by fire.
- **the measures** (:data:`MEASURES`): their distributions for the target and the
  attacker, and the chances any unit's prize is taken or general killed.

The activation's end draws the next card (Game Play); the odds stop before it
(:meth:`Tx.action_over <tertia.core.ruleset.Tx.action_over>`), the draw being the play
that follows the action, not part of it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from tertia.core.actions import Action
from tertia.core.events import Event, UnitMoved, UnitRemoved
from tertia.core.ruleset import OddsMeasure
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, IllegalAction, Violation
from tertia.rules.morale import DECLARE_LEVELS, morale_of, points_lost
from tertia.rules.pieces import piece_problems
from tertia.rulesets.declare_thee_sir import clauses, movement
from tertia.rulesets.declare_thee_sir.capture import FLAG, Captured
from tertia.rulesets.declare_thee_sir.data import ADVANCE, LONG_MARCH, STAND_AND_FIRE
from tertia.rulesets.declare_thee_sir.events import VOLLEYS, Charge, Fire
from tertia.rulesets.declare_thee_sir.fire import PUSHED_BY_ARTILLERY
from tertia.rulesets.declare_thee_sir.melee import PUSHED_IN_MELEE
from tertia.rulesets.declare_thee_sir.points import MOST_POINTS, GeneralPointChanged
from tertia.rulesets.declare_thee_sir.rout import UnitBroken
from tertia.rulesets.declare_thee_sir.sequence import PHASE
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

FIRE, CHARGE = "fire", "charge"
WORDS = (FIRE, CHARGE)
"""The actions odds are asked of: a volley (Fire) and a charge into melee (Melee a-d)."""

MORALE_LOST = "morale_lost"
PUSHED_BACK = "pushed_back"
BROKEN = "broken"
FLAG_TAKEN = "flag_taken"
GENERAL_TAKEN = "general_taken"
KILLED = "killed"
FLED = "fled"
PURSUED = "pursued"
PURSUIT = "pursuit"

MEASURES: tuple[OddsMeasure, ...] = (
    OddsMeasure(MORALE_LOST, "count", (MORALE_LOST,), "morale points lost"),
    OddsMeasure(PUSHED_BACK, "count", (PUSHED_BACK,), "inches pushed back"),
    OddsMeasure(BROKEN, "unit_flag", (BROKEN,), "broken: routs", routs=True),
    OddsMeasure("flag_captured", "flag", (FLAG_TAKEN,), "a flag is captured"),
    OddsMeasure("general_captured", "flag", (GENERAL_TAKEN,), "an attached general is captured"),
    OddsMeasure("general_killed", "flag", (KILLED,), "an attached general is killed by fire"),
)
"""Summary keys: ``target_morale_lost`` / ``attacker_morale_lost`` and
``target_pushed_back`` / ``attacker_pushed_back`` (distributions), ``target_broken`` /
``attacker_broken`` (chances), ``flag_captured``, ``general_captured`` (Optional Rules c,
never with the option off) and ``general_killed`` (Fire d), beside the common
``target_routed`` / ``attacker_routed`` (routed off the table) and ``commander_lost``."""

PUSHES = (PUSHED_IN_MELEE, PUSHED_BY_ARTILLERY)


def ready(state: GameState, word: str | None, attacker: str, target: str) -> tuple[GameState, Action]:
    """The position readied for ``word`` (``fire`` or ``charge``; by default what the
    option already declared allows, else ``fire``) by ``attacker`` at ``target``, and the
    action. Raises ``IllegalAction`` for an unknown unit or word; whether the action is
    legal there is the rule set's ``validate``'s to say."""
    missing = piece_problems(state, (), (attacker, target), clauses.GAME_PLAY)
    if missing:
        raise IllegalAction(missing)
    game = game_data(state)
    mine = game.activated == attacker and state.pending is None
    if word is None:
        word = CHARGE if mine and game.declared == ADVANCE else FIRE
    if word not in WORDS:
        raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION, f"{clauses.NAME} has no action {word!r} "
                                       f"to give odds of; its actions: {', '.join(WORDS)}",
                                       clauses.GAME_PLAY)])
    if word == FIRE:
        if not (mine and game.declared in VOLLEYS and game.volleys > 0):
            state = _activated(state, attacker, STAND_AND_FIRE, None)
        return state, Fire(unit=attacker, target=target)
    if not (mine and game.declared == ADVANCE and game.allowance is not None and not game.moved):
        state = _activated(state, attacker, ADVANCE, _longest_move(state, state.units[attacker]))
    return state, Charge(unit=attacker, target=target)


def _longest_move(state: GameState, unit: Unit) -> dict[str, int]:
    """The allowance of the best roll the unit's move dice can show (Movement)."""
    own = unit_data(unit)
    dice = movement.move_dice(own)
    roll = movement.GENERAL_MOVE if dice == 0 else 6 * dice
    found = movement.work_out(roll, movement.modifiers(own), halve=False, road=own.formation == LONG_MARCH,
                              road_bonus=movement.road_bonus_in(state))
    road = {} if found.road is None else {"road": found.road}
    return {"open": found.open_ground, "difficult": found.difficult, **road}


def _activated(state: GameState, unit_id: str, option: str, allowance: Mapping[str, int] | None
               ) -> GameState:
    """``state`` with ``unit_id``'s card drawn and ``option`` declared, nothing done yet."""
    unit = state.units[unit_id]
    own = game_data(state).evolve(activated=unit_id, card=f"unit:{unit_id}", declared=option,
                                  allowance=allowance, moved=False, volleys=VOLLEYS.get(option, 0))
    return state.evolve(phase=PHASE, active=unit.side, decisions=(), result=None, own=own)


def effects(before: GameState, after: GameState, events: Sequence[Event]) -> dict[str, dict[str, Any]]:
    """Per unit, what one way the action went did to it in the rule set's terms (see the
    module's note); units it left alone are not named."""
    out: dict[str, dict[str, Any]] = {}

    def put(uid: str, name: str, value: Any) -> None:
        out.setdefault(uid, {})[name] = value

    pushed: dict[str, float] = {}
    pursued: dict[str, float] = {}
    for e in events:
        if isinstance(e, Captured):
            put(e.unit, FLAG_TAKEN if e.prize == FLAG else GENERAL_TAKEN, e.target)
        elif isinstance(e, UnitMoved) and e.reason in PUSHES:
            pushed[e.unit] = pushed.get(e.unit, 0.0) + _length(e.path)
        elif isinstance(e, UnitMoved) and e.reason == PURSUIT:
            pursued[e.unit] = pursued.get(e.unit, 0.0) + _length(e.path)
        elif isinstance(e, UnitBroken):
            put(e.unit, BROKEN, True)
            gone, came = before.units[e.unit], after.units[e.unit]
            if came.in_play:  # where its colours fled to tells one flight from another
                put(e.unit, FLED, _inches(math.dist((gone.x, gone.y), (came.x, came.y))))
        elif isinstance(e, UnitRemoved) and e.reason == KILLED:
            put(e.unit, KILLED, True)
    joined = {e.unit for e in events if isinstance(e, GeneralPointChanged) and e.points > 0}
    for uid, unit in after.units.items():
        lost = _points_lost(before.units[uid], unit, uid in joined)
        if lost:
            put(uid, MORALE_LOST, lost)
    for name, moved in ((PUSHED_BACK, pushed), (PURSUED, pursued)):
        for uid, inches in moved.items():
            if _inches(inches) > 0:
                put(uid, name, _inches(inches))
    return out


def _inches(length: float) -> float | int:
    """A length to a tenth of an inch, a whole number when it is one."""
    tenths = round(length, 1)
    return int(tenths) if tenths.is_integer() else tenths


def _points_lost(before: Unit, after: Unit, general_joined: bool = False) -> int:
    """Points lost (negative: gained) from those it had before, or, untested before, from
    those first rolled now with an attached general's point (``general_joined``: his point
    added in the action, option ``general_point`` ``while_attached``)."""
    return points_lost(before, after, joined=1 if general_joined else 0, most=MOST_POINTS)


def _length(path: Sequence[tuple[float, float]]) -> float:
    return sum(math.dist(a, b) for a, b in itertools.pairwise(path))


def describe(state: GameState, found: Mapping[str, Mapping[str, Any]]) -> str:
    """One outcome in the rule set's words: each unit's morale first rolled, points lost,
    push-back, break and rout off the table, and the prizes taken."""
    parts: list[str] = []
    for uid, diff in found.items():
        unit = state.units.get(uid)
        name = unit.label if unit is not None else uid
        if unit is not None and morale_of(unit) is None and diff.get("morale_max") is not None:
            parts.append(f"{name} proves to have {diff['morale_max']} morale point"
                         f"{'s' if diff['morale_max'] != 1 else ''}")
        points = int(diff.get(MORALE_LOST, 0))
        if points:
            now = diff.get("morale", morale_of(unit) if unit is not None else None)
            level = f" (now {now}, {DECLARE_LEVELS.name(int(now))})" if now is not None else ""
            verb = "loses" if points > 0 else "gains"
            parts.append(f"{name} {verb} {abs(points)} morale point{'s' if abs(points) != 1 else ''}{level}")
        if diff.get(PUSHED_BACK):
            parts.append(f"{name} is pushed back {diff[PUSHED_BACK]:g}\"")
        if diff.get(BROKEN):
            fled = f" {diff[FLED]:g}\"" if FLED in diff else ""
            parts.append(f"{name} is broken and routs{fled}")
        if diff.get(PURSUED):
            parts.append(f"{name} pursues {diff[PURSUED]:g}\"")
        for prize in (FLAG_TAKEN, GENERAL_TAKEN):
            if diff.get(prize):
                taken = state.units.get(str(diff[prize]))
                parts.append(f"{name} captures {taken.label if taken else diff[prize]}'s flag"
                             if prize == FLAG_TAKEN else f"{name} captures a general")
        removed = diff.get("removed")
        if removed == KILLED:
            parts.append(f"{name} is killed")
        elif removed == "routed":
            parts.append(f"{name} routs off the table")
        elif removed:
            parts.append(f"{name} is {removed}")
    return "; ".join(parts) or "no effect"
