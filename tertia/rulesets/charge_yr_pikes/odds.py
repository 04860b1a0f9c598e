"""Exact odds under Charge yr Pikes!: a unit's fire, a charge and the close combat it
brings on, and a morale test, asked about in a position as it stands, with their
outcomes in the rule set's own words.

The odds are the playing code run under enumerating dice
(:func:`tertia.analysis.odds.odds`): the hits (each range's stands one node), the half
hit confirmed, the officers' and gallopers' D10s, each morale rating rolled when first
needed, the morale dice, the caracole, each side's close combat dice (the sum of its D6
one node), the rout's half D6 and its move, and every test a rout or a fall-back causes.
Nothing is worked out twice here; this module readies the position, runs the sequence's
own steps and reads the results.

In this rule set neither fire nor close combat is one player's action: fire orders are
given in the fire steps and worked out together when both sides have given theirs
(Sequence of play C-E), and a charge halts 1" short in the movement phase, the combat
being fought in phase H. An odds question is therefore a :class:`Question`, which the
rules accept only in a position :func:`ready` made for it (marked so; in play it is
refused as an unknown action, and front ends never offer it):

- ``fire`` (``ball``, ``canister``: a battery's kind named): the position at the fire step
  the attacker fires in (C, artillery, for a battery; D, standing muskets, for a unit
  that has not moved this turn, E otherwise), its side giving orders and no order yet
  given. The question gives the attacker's order at the target and works the step out
  with that order alone (:func:`~tertia.rulesets.charge_yr_pikes.phases.work_out_fire`):
  the hits, the casualties and the morale tests they cause, and a rout's consequences.
  It stops there: the next step is the play that follows. A battery asked to ``fire``
  fires canister when the target is in canister range, else ball.
- ``charge``: the attacker charges the target in the movement phase, as on its card (the
  charge move, and any fatigue), then its close combat is fought as in phase H
  (:func:`~tertia.rulesets.charge_yr_pikes.phases.fight`): the caracole, the test to
  close, the defender's test, the dice, the casualties, the losers' tests, the fall-back
  or rout; the odds stop when that combat is over. A position in which the charge is
  already made this turn (a record between the movement phase and the close combat) keeps
  it as made; a melee locked from the last turn is fought on
  (:func:`~tertia.rulesets.charge_yr_pikes.phases.fight_on`). The fire the charging unit
  takes on its way in (12 A) is the fire steps': ask ``fire`` of the defender at it.
  Only this charge is fought; other charges of the turn are left out.
- ``morale``: the attacker tests its morale as it stands (11 C), with the plain results
  of a failure (:func:`~tertia.rulesets.charge_yr_pikes.rout.fail_plainly`: falls back
  disordered, or routs) or, routed already, Routing H's (stands routed or routs again).
  The target is the enemy that causes the test, whom a rout flees; naming the unit
  itself (or a friend) leaves the flight to the rear.

Asked of a side's observation, an enemy officer's value it cannot see (section 22) is
rolled on his rank's line where it is first read, so the odds average over it; the
outcomes say what he proves to be.

What each outcome did (:func:`effects`), per unit: the figures lost, each morale rating
first rolled, whether it passed its morale tests, fell back or routed, whether an
attacker failed its test to close, a melee locked, an officer fallen, a battery
silenced. A unit that routs off the table is reported removed "routed", the common word
(the rule set's own is "routed off"), so the common ``target_routed`` reads as under the
other rule sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.actions import Action
from tertia.core.events import Event, PhaseBegan, UnitRemoved
from tertia.core.geometry import base_distance
from tertia.core.hidden import is_hidden
from tertia.core.narration import humanise
from tertia.core.ruleset import OddsMeasure, Tx
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, IllegalAction, Violation, not_in_play
from tertia.rulesets.charge_yr_pikes import phases
from tertia.rulesets.charge_yr_pikes.charge import CLOSE
from tertia.rulesets.charge_yr_pikes.data import ROUTED, UNSEEN, CypGame
from tertia.rulesets.charge_yr_pikes.events import MeleeLocked, StepOver, UnitChanged
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested, morale_test
from tertia.rulesets.charge_yr_pikes.musketry import has_muskets
from tertia.rulesets.charge_yr_pikes.rout import ROUTED_OFF, fail_plainly, routed_fired_on
from tertia.rulesets.charge_yr_pikes.sequence import MOVEMENT
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.rulesets.charge_yr_pikes.vocabulary import TITLE

RULE = "Sequence of play 3"

FIRE, BALL, CANISTER, CHARGE, MORALE = "fire", "ball", "canister", "charge", "morale"
WORDS = (FIRE, BALL, CANISTER, CHARGE, MORALE)
"""The questions odds answer: a unit's fire (a battery's ball or canister named, or the
one it would fire), a charge with its close combat, a morale test."""
GUN_WORDS = (BALL, CANISTER)
"""The words only a battery is asked."""
MARK = "cyp_odds_question"
"""The mark of a position readied for a question: (word, attacker, target, kind)."""

FIGURES_LOST = "figures_lost"
RATING = "rating"
PASSED = "passed"
FELL_BACK = "fell_back"
ROUTS = "routs"
STOPPED = "stopped_short"
LOCKED = "locked"
FELL = "fell"
SILENCED = ("silenced", "silent_turn")
FATIGUE = "charge fatigue"
"""Why a charge's fatigue changes a unit (a unit wholly spent is in fall-back status,
Special rules B: no morale result)."""

MEASURES: tuple[OddsMeasure, ...] = (
    OddsMeasure(FIGURES_LOST, "count", (FIGURES_LOST,), "figures lost"),
    OddsMeasure(PASSED, "unit_flag", (PASSED,), "passes its morale tests"),
    OddsMeasure(FELL_BACK, "unit_flag", (FELL_BACK,), "falls back disordered"),
    OddsMeasure(ROUTS, "unit_flag", (ROUTS,), "routs (on the table or off it)", routs=True),
    OddsMeasure(STOPPED, "unit_flag", (STOPPED,), "fails its test to close and halts 1\" short"),
    OddsMeasure(LOCKED, "unit_flag", (LOCKED,), "is locked in the melee"),
    OddsMeasure("officer_killed", "flag", (FELL,), "an officer in a front rank is killed or wounded"),
    OddsMeasure("battery_silenced", "flag", SILENCED, "a battery is silenced"),
)
"""Summary keys: ``target_figures_lost`` / ``attacker_figures_lost`` (distributions);
``target_passed``, ``target_fell_back``, ``target_routs`` and the attacker's (chances of
each unit's morale outcome: passed every test it took, fell back, routed);
``attacker_stopped_short`` (12 B); ``target_locked`` / ``attacker_locked`` (12 G);
``officer_killed`` (4 E) and ``battery_silenced`` (Artillery 9), beside the common
``target_routed`` / ``attacker_routed`` (routed off the table), ``target_removed`` /
``attacker_removed`` and ``commander_lost`` (an officer killed, or swept off the field
with his unit)."""


@dataclass(frozen=True, slots=True)
class Question(Action):
    """An odds question (see the module's note): ``word`` asked of ``unit`` at ``target``;
    ``kind``: the fire order's kind ("musket", "galloper", "ball", "canister") for fire."""

    type: ClassVar[str] = "cyp_odds_question"
    word: str
    unit: str
    target: str
    kind: str = ""


def _refuse(message: str, code: str = CoreCode.UNKNOWN_UNIT, rule: str = RULE) -> IllegalAction:
    return IllegalAction([Violation(code, message, rule)])


# --- readying -------------------------------------------------------------------------------


def ready(state: GameState, word: str | None, attacker: str, target: str, tables: Tables
          ) -> tuple[GameState, Question]:
    """The position readied for ``word`` (by default ``charge`` when the attacker's charge
    at the target is made or locked, else ``fire`` for a unit that fires, else
    ``charge``) by ``attacker`` at ``target``, and the question. Raises
    ``IllegalAction`` for an unknown unit or word; whether the action may be taken there
    is ``validate``'s to say."""
    for role, uid in (("attacker", attacker), ("target", target)):
        unit = state.units.get(uid)
        if unit is None or not unit.in_play:
            raise _refuse(f"the {role}: {not_in_play(state, uid, unseen=UNSEEN)}")
    unit = state.units[attacker]
    if word is None:
        word = CHARGE if made(state, attacker, target) or not _fires(unit) else FIRE
    if word not in WORDS:
        raise _refuse(f"{TITLE} has no action {word!r} to give odds of; its actions: "
                      f"{', '.join(WORDS)}", CoreCode.UNKNOWN_ACTION)
    g = game_data(state)
    base = state.evolve(decisions=(), result=None)
    if word == MORALE:  # its side to act: the question is judged on what that side sees
        return _marked(base.evolve(active=unit.side), word, attacker, target, ""), \
            Question(MORALE, attacker, target)
    if word == CHARGE:
        found = made(state, attacker, target)
        if found is not None:
            kept = tuple(c for c in found[1] if c[0] == attacker and c[1] == target)
            values = {"charges": kept, "locked": ()} if found[0] == "charges" else \
                {"charges": (), "locked": kept}
            readied = base.evolve(own=g.evolve(step=None, step_side=None, orders=(), **values))
        else:
            readied = base.evolve(phase=MOVEMENT, active=unit.side, own=_movement(g, attacker))
        return _marked(readied, word, attacker, target, ""), Question(CHARGE, attacker, target)
    kind = _kind(unit, state.units[target], word, tables)
    step = phases.ARTILLERY if unit_data(unit).is_battery else \
        phases.MOVING_FIRE if phases._moved(state, unit) else phases.STANDING_FIRE
    readied = base.evolve(phase=step, active=unit.side,
                          own=g.evolve(step=step, step_side=unit.side, orders=((attacker, target, kind),),
                                       card=None, moving=(), moved_on_card=(), reformed=()))
    return _marked(readied, word, attacker, target, kind), Question(word, attacker, target, kind)


def _marked(state: GameState, word: str, attacker: str, target: str, kind: str) -> GameState:
    return state.evolve(marks={**state.marks, MARK: (word, attacker, target, kind)})


def _fires(unit: Unit) -> bool:
    own = unit_data(unit)
    return own.is_battery or own.gun == "galloper" or has_muskets(own)


def _kind(unit: Unit, target: Unit, word: str, tables: Tables) -> str:
    """The fire order's kind: a battery's ball or canister (``fire``: canister at a target
    within its canister range, else ball), a galloper's, or muskets."""
    own = unit_data(unit)
    if own.is_battery:
        if word in (BALL, CANISTER):
            return word
        reach = tables.artillery.canister_range.get(own.gun or "field", 0)  # type: ignore[call-overload]
        return CANISTER if base_distance(unit.base, target.base) <= reach + 1e-9 else BALL
    if word != FIRE:
        raise _refuse(f"{unit.label} is no battery: it fires no {word}", CoreCode.CANNOT_ACT,
                      "Artillery 9")
    return "galloper" if own.gun == "galloper" else "musket"


def made(state: GameState, attacker: str, target: str
          ) -> tuple[str, tuple[tuple[str, str, float, float, float, int], ...]] | None:
    """Where the position already keeps ``attacker``'s charge at ``target``: made this
    turn (``charges``) or locked from the last (``locked``)."""
    g = game_data(state)
    for name, kept in (("charges", g.charges), ("locked", g.locked)):
        if any(c[0] == attacker and c[1] == target for c in kept):
            return name, kept
    return None


def _movement(g: CypGame, attacker: str) -> CypGame:
    """The movement phase with the attacker free to move on its card, nothing yet done."""
    return g.evolve(step=None, step_side=None, orders=(), moving=(attacker,), moved_on_card=(), reformed=(),
                    charges=(), locked=())


def asked(state: GameState, question: Question) -> bool:
    """Is ``state`` readied for ``question``?"""
    return tuple(state.marks.get(MARK, ())) == (question.word, question.unit, question.target, question.kind)


# --- the answer -----------------------------------------------------------------------------


def fire(tx: Tx, tables: Tables) -> None:
    """The step worked out with the attacker's order alone; then the question is over."""
    phases.work_out_fire(tx, tables, game_data(tx.state).step or phases.ARTILLERY)
    tx.action_over()


def close_combat(tx: Tx, tables: Tables, options: Mapping[str, Any]) -> None:
    """Phase H for the one combat the position keeps (the charge just made, or made or
    locked before; one made before whose units were driven apart comes to nothing, 12 A,
    B); then the question is over."""
    tx.emit(PhaseBegan(phase=phases.CLOSE_COMBAT))
    phases.drop_lapsed(tx)
    g = game_data(tx.state)
    fought_on = phases.combats(tx.state, g.locked)
    fresh = phases.combats(tx.state, g.charges)
    tx.emit(StepOver(charges=True))
    for combat in fought_on:
        phases.fight_on(tx, tables, combat, options)
    for combat in fresh:
        phases.fight(tx, tables, combat, options)
    tx.action_over()


def morale(tx: Tx, tables: Tables, question: Question) -> None:
    """The attacker's morale test and what a failure does; then the question is over."""
    unit = tx.state.units[question.unit]
    other = tx.state.units[question.target]
    foe = other.id if other.side != unit.side else None
    why = f"facing {other.label}" if foe is not None else "a morale test"
    if unit_data(unit).routed:
        routed_fired_on(tx, tables, unit.id, why, foe=foe)
    else:
        fail_plainly(tx, tables, unit.id, morale_test(tx, tables, unit.id, why), why, foe=foe)
    tx.action_over()


# --- reading the outcomes ------------------------------------------------------------------


def effects(before: GameState, after: GameState, events: Sequence[Event]) -> dict[str, dict[str, Any]]:
    """Per unit, what one way the question went did to it in the rule set's terms (see
    the module's note); units it left alone are not named."""
    out: dict[str, dict[str, Any]] = {}

    def put(uid: str, name: str, value: Any) -> None:
        out.setdefault(uid, {})[name] = value

    tested: dict[str, bool] = {}
    for e in events:
        if isinstance(e, MoraleTested):
            tested[e.unit] = tested.get(e.unit, True) and e.passed
            if e.why == CLOSE and not e.passed:
                put(e.unit, STOPPED, True)
        elif isinstance(e, UnitChanged):
            values = dict(e.values)
            if values.get("formation") == ROUTED:
                put(e.unit, ROUTS, True)
            elif values.get("falling_back") is True and e.why != FATIGUE:
                put(e.unit, FELL_BACK, True)
        elif isinstance(e, MeleeLocked):
            for charge in e.charges:
                put(charge[0], LOCKED, True)
                put(charge[1], LOCKED, True)
        elif isinstance(e, UnitRemoved):
            if e.reason == "fallen":
                put(e.unit, FELL, True)
            elif e.reason == ROUTED_OFF:
                put(e.unit, "removed", "routed")
    for uid, clean in tested.items():
        if clean and not out.get(uid, {}).get(ROUTS) and not out.get(uid, {}).get(FELL_BACK):
            put(uid, PASSED, True)
        elif not clean and uid in before.units and not out.get(uid, {}).get(STOPPED):
            # failing, a unit already routed or falling back does so again, its state unchanged
            prior, told = unit_data(before.units[uid]), out.get(uid, {})
            if prior.routed and not told.get(ROUTS):
                put(uid, ROUTS, True)
            elif prior.falling_back and not told.get(ROUTS) and not told.get(FELL_BACK):
                put(uid, FELL_BACK, True)
    for uid, unit in after.units.items():
        was = before.units[uid]
        if unit is was:  # untouched: the position shares the piece
            continue
        old, new = unit_data(was), unit_data(unit)
        if old.figures > new.figures and not old.is_officer:
            put(uid, FIGURES_LOST, old.figures - new.figures)
        if old.morale is None and new.morale is not None:
            put(uid, RATING, new.morale_max)
    return out


REMOVED = {"routed": "routs off the table", "fallen": "is killed or wounded",
           "captured": "is captured", "destroyed": "is destroyed", "deserted": "leaves the field"}


def describe(state: GameState, found: Mapping[str, Mapping[str, Any]]) -> str:
    """One outcome in the rule set's words: each unit's morale first rolled, figures lost,
    morale outcome, and its leaving the field."""
    parts: list[str] = []
    for uid, diff in found.items():
        unit = state.units.get(uid)
        name = unit.label if unit is not None else uid
        if diff.get(RATING) is not None:
            parts.append(f"{name} proves to have a morale rating of {diff[RATING]}")
        if unit is not None and is_hidden(unit_data(unit).grade) and diff.get("grade"):
            parts.append(f"{name} proves to be {humanise(str(diff['grade']))}")
        lost = int(diff.get(FIGURES_LOST, 0))
        if lost:
            parts.append(f"{name} loses {lost} figure{'s' if lost != 1 else ''}")
        if diff.get(STOPPED):
            parts.append(f"{name} will not close and halts 1\" short")
        routed = unit is not None and unit_data(unit).routed
        if diff.get(PASSED):
            parts.append(f"{name} passes its morale test" + (" and stays where it fled" if routed else ""))
        if diff.get(FELL_BACK):
            again = unit is not None and unit_data(unit).falling_back
            parts.append(f"{name} falls back disordered" + (" again" if again else ""))
        elif diff.get("disordered") is True:
            parts.append(f"{name} is disordered")
        if diff.get(ROUTS) and diff.get("removed") is None:
            parts.append(f"{name} routs again" if routed else f"{name} routs")
        if diff.get(LOCKED):
            parts.append(f"{name} is locked in the melee")
        if diff.get("silenced"):
            parts.append(f"{name} is silenced until it rallies")
        elif diff.get("silent_turn"):
            parts.append(f"{name} cannot fire next turn")
        removed = diff.get("removed")
        if removed:
            parts.append(f"{name} {REMOVED.get(str(removed), f'is {removed}')}")
    return "; ".join(parts) or "no effect"
