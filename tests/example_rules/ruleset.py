"""The example rule set: a thin slice of Declare Thee Sir, built on the shared blocks.

Units on stands in line, long march or hedgehog; a card for each unit (two for cavalry)
and a secret free-move card per side; on its card a unit changes formation, advances,
charges or defers; a charge is answered by the target (stand, or fire a volley) and may
be met by a friend's countercharge, both awaited at once; melee by the chart, push-backs
through friends (who check morale), routs by stands.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from tertia.activation.command_response import ResponseTable, roll_response
from tertia.core.actions import Action, EndPhase
from tertia.core.ai_spec import AiSpec
from tertia.core.dice import D10
from tertia.core.events import DecisionAwaited, DecisionMade, Event, Narrated, UnitFormed, UnitMoved
from tertia.core.geometry import (
    EPSILON,
    Base,
    angle_between,
    bearing,
    path_length,
    polygons_overlap,
    swept_polygon,
)
from tertia.core.hidden import as_view, hidden, is_hidden, without_view_mark
from tertia.core.ruleset import OddsMeasure, OptionSpec, RuleSet, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, IllegalAction, Violation, not_in_play, not_own
from tertia.core.vocabulary import ActionKind, DecisionKind, PanelKind
from tertia.rules.codes import ActivationCode, FightingCode, MovementCode
from tertia.rules.formations import (
    FORMATIONS,
    HEDGEHOG,
    LINE,
    footprint,
    reformed_centre,
    stand_bases,
    stands_in_arc,
)
from tertia.rules.involuntary import Interpenetration, carry_out, plan_slide, towards
from tests.example_rules import (  # noqa: F401  (narration: the log's sentences)
    combat,
    narration,
    odds,
    sequence,
    vocabulary,
)
from tests.example_rules.data import (
    ASSIGN_FREE_MOVE,
    COUNTERCHARGE,
    DEFAULT_STANDS,
    MOST_STANDS,
    MOUNTED,
    MUSKETS,
    RULE,
    RULES_ID,
    SHORT_TITLE,
    STAND_OR_FIRE,
    STAND_SIZE,
    Advance,
    AssignFreeMove,
    ChangeFormation,
    Charge,
    ChargeDeclared,
    ChargeMet,
    Countercharge,
    DeclareGame,
    DeclareUnit,
    ExampleCode,
    FreeMoveAssigned,
    RespondToCharge,
    formation_of,
    game_data,
    piece,
)
from tests.example_rules.presentation import ExamplePresentation

COUNTERCHARGE_REACH = 6.0
"""A friend within this many inches of the charger (closest stands) may countercharge."""

ORDERS = ResponseTable(D10, {"unattached": frozenset({9, 10})})
"""A countercharge must be obeyed: a D10, refused on 9 or 0 (a command-response table in
the manner of Charge yr Pikes!; Declare Thee Sir has no countercharge of its own)."""

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "declare.toml"
"""The battle it is tested on."""


class UnitOrder(BaseModel):
    """A unit's stands and formation at the start (defaults: by kind, and line)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    stands: int = Field(default=0, ge=0, le=MOST_STANDS, strict=True)
    formation: Literal["line", "column", "hedgehog"] = "line"


class OrderOfBattle(BaseModel):
    """``[extensions."example-declare"]``: units by id."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    units: dict[str, UnitOrder] = {}


class ExampleDeclare(RuleSet):
    id: ClassVar[str] = RULES_ID
    GAME_DATA = DeclareGame
    title: ClassVar[str] = "Declare Thee Sir (example slice)"
    short_title: ClassVar[str] = SHORT_TITLE
    version: ClassVar[str] = "0.2"
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    BASES: ClassVar[dict[UnitKind, tuple[float, float]]] = {
        kind: footprint(LINE, DEFAULT_STANDS[kind], *STAND_SIZE[kind]) for kind in UnitKind
    }
    COMMANDS: ClassVar[tuple[str, ...]] = (
        "centre", "right", "left", "reserve", "artillery", "dragoons", "independent")
    COMMANDER_VALUES: ClassVar[range] = range(0, 3)
    SCENARIO_EXTENSION: ClassVar[type[BaseModel] | None] = OrderOfBattle
    SCENARIO_FILES: ClassVar[Mapping[str, str]] = {"declare": str(SCENARIO)}
    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = vocabulary.ACTION_KINDS
    DECISION_KINDS: ClassVar[tuple[DecisionKind, ...]] = vocabulary.DECISION_KINDS
    AI: ClassVar[AiSpec | None] = vocabulary.AI
    PANELS: ClassVar[tuple[PanelKind, ...]] = vocabulary.PANELS

    def presentation(self) -> ExamplePresentation:
        return ExamplePresentation(self)

    # --- set-up ----------------------------------------------------------------------------

    def order_of_battle(self, scenario: Scenario) -> OrderOfBattle:
        found = self.scenario_extension(scenario)
        assert isinstance(found, OrderOfBattle)
        return found

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        kinds = {u.id: UnitKind(u.type) for u in scenario.units}
        for uid, order in self.order_of_battle(scenario).units.items():
            where = f"extensions.{self.id}.units.{uid}"
            if uid not in kinds:
                problems.append((where, f"no unit {uid!r} in the scenario"))
            elif order.formation == HEDGEHOG.name and kinds[uid] is not UnitKind.FOOT:
                problems.append((f"{where}.formation", "only foot form hedgehog (Formations c)"))
        return problems

    def initial_state(self, scenario: Scenario) -> GameState:
        orders = self.order_of_battle(scenario).units
        units: dict[str, Unit] = {}
        for c in scenario.commanders:
            w, d = STAND_SIZE[UnitKind.COMMANDER]
            units[c.id] = Unit(c.id, c.side, UnitKind.COMMANDER, c.command, c.x, c.y, c.facing % 360.0,
                               w, d, name=c.name, own=DeclareUnit())
        for s in scenario.units:
            kind = UnitKind(s.type)
            order = orders.get(s.id, UnitOrder())
            stands = order.stands or DEFAULT_STANDS[kind]
            width, depth = footprint(FORMATIONS[order.formation], stands, *STAND_SIZE[kind])
            units[s.id] = Unit(s.id, s.side, kind, s.command, s.x, s.y, s.facing % 360.0, width, depth,
                               name=s.name, traits=tuple(s.traits),
                               own=DeclareUnit(formation=order.formation, stands_left=stands,
                                               stands_start=stands))
        sides = scenario.side_ids
        objectives = tuple(Objective(o.name, o.x, o.y, o.radius, o.side) for o in scenario.objectives)
        return GameState(sides=sides, turn=0, active=sides[0], phase="setup", units=units,
                         objectives=objectives, own=DeclareGame(turn_limit=scenario.turns))

    def begin(self, tx: Tx) -> None:
        sequence.begin(tx)

    # --- legality --------------------------------------------------------------------------

    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        if state.is_over:
            return [Violation(CoreCode.GAME_OVER, "the battle is over", RULE)]
        pending = state.pending
        answers = {AssignFreeMove: ASSIGN_FREE_MOVE, RespondToCharge: STAND_OR_FIRE,
                   Countercharge: COUNTERCHARGE}
        kind = answers.get(type(action))
        if pending is not None:
            if kind is None:
                return [self.awaited_first(state, RULE, "answer")]
            if pending.kind != kind:
                return [Violation(CoreCode.NOTHING_PENDING,
                                  f"the decision awaited now is {pending.kind.replace('_', ' ')}", RULE)]
            return self._answer_problems(state, action)
        if kind is not None:
            return [Violation(CoreCode.NOTHING_PENDING, "no decision is awaited", RULE)]
        activated = game_data(state).activated
        if isinstance(action, EndPhase):
            return [] if activated is not None else [
                Violation(CoreCode.WRONG_PHASE, "no unit is activated", RULE)]
        if not isinstance(action, ChangeFormation | Advance | Charge):
            return [Violation(CoreCode.UNKNOWN_ACTION, f"{self.named()} has no action {action.type!r}", RULE)]
        unit = state.units.get(action.unit)
        if unit is None:
            return [Violation(CoreCode.UNKNOWN_UNIT, f"no unit {action.unit!r}", RULE)]
        if unit.side != state.to_act:
            return [not_own(unit, state.to_act, RULE)]
        if action.unit != activated:
            return [Violation(ActivationCode.NOT_ACTIVATED,
                              f"{unit.label} is not activated; its card has not been drawn",
                              f"{RULE}, Game Play")]
        if isinstance(action, ChangeFormation):
            return self._formation_problems(table, state, unit, action.formation)
        if isinstance(action, Advance):
            return self._advance_problems(table, state, unit, action)
        return self._charge_problems(table, state, unit, action.target)

    def _answer_problems(self, state: GameState, action: Action) -> list[Violation]:
        pending = state.pending
        assert pending is not None
        if isinstance(action, AssignFreeMove):
            if action.unit not in pending.get("units", ()):
                return [Violation(ExampleCode.BAD_CHOICE,
                                  f"the free-move card goes to one of your units: "
                                  f"{_labels(state, pending['units'])}", RULE)]
            return []
        if isinstance(action, RespondToCharge):
            if action.choice not in ("stand", "fire"):
                return [Violation(ExampleCode.BAD_CHOICE, "answer stand or fire", RULE)]
            target = state.units[pending["target"]]
            if action.choice == "fire" and target.kind not in MUSKETS:
                return [Violation(ExampleCode.NO_MUSKETS, f"{target.label} has no muskets", f"{RULE}, Fire")]
            return []
        assert isinstance(action, Countercharge)
        if action.unit is not None and action.unit not in pending.get("eligible", ()):
            return [Violation(ExampleCode.BAD_CHOICE,
                              f"the units that may countercharge: {_labels(state, pending['eligible'])}",
                              RULE)]
        return []

    def _formation_problems(self, table: Battlefield, state: GameState, unit: Unit,
                            name: str) -> list[Violation]:
        rule = f"{RULE}, Formations"
        formation = FORMATIONS.get(name)
        if formation is None:
            return [Violation(ExampleCode.UNKNOWN_FORMATION,
                              f"no formation {name!r}; formations: {', '.join(FORMATIONS)}", rule)]
        if formation is HEDGEHOG and unit.kind is not UnitKind.FOOT:
            return [Violation(ExampleCode.FORMATION_NOT_ALLOWED, "only foot form hedgehog", rule)]
        if piece(unit).formation == name:
            return [Violation(ExampleCode.SAME_FORMATION, f"{unit.label} is already in {name}", rule)]
        return self._room_problems(table, state, reformed(unit, name), rule)

    def _room_problems(self, table: Battlefield, state: GameState, placed: Unit,
                       rule: str) -> list[Violation]:
        if _off_table(placed.base.corners(), table):
            return [Violation(MovementCode.OFF_TABLE, f"{placed.label} would leave the table", rule)]
        for other in state.iter_units():
            if other.id != placed.id and polygons_overlap(placed.base.corners(), other.base.corners()):
                return [Violation(MovementCode.COLLISION, f"{placed.label} would overlap {other.label}",
                                  rule)]
        return []

    def _advance_problems(self, table: Battlefield, state: GameState, unit: Unit,
                          action: Advance) -> list[Violation]:
        rule = f"{RULE}, Movement"
        points = [(unit.x, unit.y), *action.waypoints]
        if len(points) < 2 or path_length(points) < EPSILON:
            return [Violation(MovementCode.BAD_PATH, "give at least one point to advance to", rule)]
        most = most_move(unit)
        length = path_length(points)
        if length > most + EPSILON:
            return [Violation(MovementCode.TOO_FAR,
                              f"the path is {length:.1f}\" long; {unit.label} moves at most {most}\"", rule)]
        base = unit.base
        for a, b in itertools.pairwise(points):
            if math.dist(a, b) < EPSILON:
                continue
            if angle_between(bearing(a, b), unit.facing) > 45.0 + EPSILON:
                return [Violation(ExampleCode.OBLIQUE, "oblique movement is up to 45 degrees", rule)]
            end = base.moved_to(*b)
            if _off_table(end.corners(), table):
                return [Violation(MovementCode.OFF_TABLE, f"{unit.label} would leave the table", rule)]
            swept = swept_polygon(base, end)
            for other in state.iter_units():
                if other.id != unit.id and polygons_overlap(swept, other.base.corners()):
                    return [Violation(MovementCode.COLLISION, f"{unit.label} would run into {other.label}",
                                      rule)]
            base = end
        return []

    def _charge_problems(self, table: Battlefield, state: GameState, unit: Unit,
                         target_id: str) -> list[Violation]:
        rule = f"{RULE}, Melee a"
        target = state.units.get(target_id)
        if target is None or not target.in_play:
            return [Violation(CoreCode.UNKNOWN_UNIT, not_in_play(state, target_id), rule)]
        if target.side == unit.side:
            return [Violation(FightingCode.NOT_ENEMY, f"{target.label} is a friend", rule)]
        if unit.kind is UnitKind.ARTILLERY or target.kind is UnitKind.COMMANDER:
            return [Violation(CoreCode.CANNOT_ACT, "artillery cannot advance into melee, and "
                              "independent generals always evade", rule)]
        stands = combat_stands(unit)
        if not stands_in_arc(stands, target.base):
            return [Violation(FightingCode.NOT_IN_FRONT, f"{target.label} is not in front of {unit.label}",
                              rule)]
        gap = combat.distance(unit, target)
        if gap > most_move(unit) + EPSILON:
            return [Violation(FightingCode.OUT_OF_RANGE,
                              f"{target.label} is {gap:.1f}\" away; {unit.label} moves at most "
                              f"{most_move(unit)}\"", rule)]
        path = plan_slide(state, unit, heading=towards(unit.base, target.base), distance=gap + 1.0,
                          policy=Interpenetration.STOP, table=(table.width, table.depth))
        if path.stopped_by != target.id:
            blocker = state.units[path.stopped_by].label if path.stopped_by else "nothing"
            return [Violation(MovementCode.COLLISION,
                              f"{unit.label} cannot move directly at {target.label}: {blocker} is in the way",
                              rule)]
        return []

    # --- odds ------------------------------------------------------------------------------

    # No question words (ACTION_WORDS): the charge, its one dice-driven action, is asked about
    # before it is made and by ``tertia odds`` (its default word), but in play it is beyond
    # the budget a list of questions may spend, as Declare Thee Sir's charges are.
    ODDS_MEASURES: ClassVar[tuple[OddsMeasure, ...]] = odds.MEASURES

    def query(self, state: GameState, word: str | None, attacker: str, target: str,
              details: Mapping[str, Any] | None = None) -> tuple[GameState, Action]:
        """``charge``: the charge move, the test to close and the melee, the charger's card
        drawn (:func:`~tests.example_rules.odds.ready`). It takes no particulars."""
        if details:
            raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION, f"an odds question under {self.named()} "
                                           f"takes no {sorted(details)[0]!r}", RULE)])
        return odds.ready(state, word, attacker, target)

    def default_responses(self, state: GameState) -> list[Action]:
        return odds.default_responses(state)

    def odds_effects(self, before: GameState, after: GameState, events: Sequence[Event]
                     ) -> dict[str, dict[str, Any]]:
        return odds.effects(before, after, events)

    # --- resolution ------------------------------------------------------------------------

    def resolve(self, tx: Tx, action: Action) -> None:
        size = (tx.table.width, tx.table.depth)
        if isinstance(action, AssignFreeMove):
            side = tx.state.to_act
            tx.emit(DecisionMade(side=side, kind=ASSIGN_FREE_MOVE, choice="a unit, face down"))
            tx.emit(FreeMoveAssigned(side=side, unit=action.unit))
            if not tx.state.decisions:
                sequence.draw_next(tx)
        elif isinstance(action, RespondToCharge):
            pending = tx.state.pending
            assert pending is not None
            tx.emit(DecisionMade(side=pending.side, kind=STAND_OR_FIRE, choice=action.choice))
            if action.choice == "fire":
                combat.volley(tx, str(pending["target"]), str(pending["charger"]))
            self._after_answer(tx, size)
        elif isinstance(action, Countercharge):
            pending = tx.state.pending
            assert pending is not None
            tx.emit(DecisionMade(side=pending.side, kind=COUNTERCHARGE, choice=action.unit))
            if action.unit is not None:
                countercharge(tx, action.unit, str(pending["charger"]), size)
            self._after_answer(tx, size)
        elif isinstance(action, EndPhase):
            sequence.end_activation(tx)
        elif isinstance(action, ChangeFormation):
            unit = reformed(tx.state.units[action.unit], action.formation)
            tx.emit(UnitFormed(unit=unit.id, formation=action.formation, x=unit.x, y=unit.y,
                                 width=unit.width, depth=unit.depth))
            sequence.end_activation(tx)
        elif isinstance(action, Advance):
            advance(tx, action)
            sequence.end_activation(tx)
        elif isinstance(action, Charge):
            declare_charge(tx, action)

    def _after_answer(self, tx: Tx, size: tuple[float, float]) -> None:
        """Once every answer to a charge is in, it is fought and the activation ends."""
        if tx.state.decisions:
            return
        combat.fight_charge(tx, size)
        sequence.end_activation(tx)

    # --- hidden information ------------------------------------------------------------------

    def observed_state(self, table: Battlefield, state: GameState, side: str) -> GameState:
        """Each other side's free-move unit is hidden until its card is drawn."""
        g = game_data(state)
        secret = tuple((s, hidden("free move") if s != side else u) for s, u in g.free_move)
        if secret == g.free_move:
            return state
        return as_view(state.evolve(own=g.evolve(free_move=secret)), side)

    def sample_hidden(self, table: Battlefield, observation: GameState, side: str,
                      rng: random.Random) -> GameState:
        """A hidden free-move unit is any of that side's units in play."""
        g = game_data(observation)
        filled = tuple(
            (s, rng.choice(sequence.troops(observation, s)) if is_hidden(u) else u) for s, u in g.free_move
        )
        return without_view_mark(observation.evolve(own=g.evolve(free_move=filled)))

    def event_visible_to(self, event: Event, side: str) -> bool:
        return not isinstance(event, FreeMoveAssigned) or event.side == side


# --- procedures ---------------------------------------------------------------------------------


def _labels(state: GameState, unit_ids: Iterable[str]) -> str:
    """Pieces by name, in a list a player reads."""
    return ", ".join(state.units[u].label for u in unit_ids)


def most_move(unit: Unit) -> int:
    """The furthest a unit's movement dice could take it."""
    shift = {"column": 3, "hedgehog": -3}.get(piece(unit).formation, 0)
    return max(0, 6 * combat.move_dice(unit) + shift)


def combat_stands(unit: Unit) -> tuple[Base, ...]:
    return stand_bases(unit.x, unit.y, unit.facing, formation_of(unit), piece(unit).stands_left,
                       *STAND_SIZE[unit.kind])


def reformed(unit: Unit, name: str) -> Unit:
    """``unit`` in formation ``name``, its front edge where it was."""
    width, depth = footprint(FORMATIONS[name], piece(unit).stands_left, *STAND_SIZE[unit.kind])
    x, y = reformed_centre(unit.base, depth)
    return unit.evolve(formation=name, x=x, y=y, width=width, depth=depth)


def advance(tx: Tx, action: Advance) -> None:
    """Advance: roll the movement dice, then go as far along the path as they allow."""
    unit = tx.state.units[action.unit]
    allowance = float(combat.roll_move(tx, unit, "advance"))
    points = [(unit.x, unit.y), *action.waypoints]
    walked: list[tuple[float, float]] = [points[0]]
    left = allowance
    for a, b in itertools.pairwise(points):
        leg = math.dist(a, b)
        if left <= EPSILON or leg < EPSILON:
            continue
        if leg <= left:
            walked.append(b)
            left -= leg
        else:
            t = left / leg
            walked.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            left = 0.0
    if len(walked) > 1:
        tx.emit(UnitMoved(unit=unit.id, path=tuple(walked), facing=unit.facing, reason="advance"))


def declare_charge(tx: Tx, action: Charge) -> None:
    """The target's side answers (stand or fire) and, when a friend is near the charger,
    says whether it countercharges: both decisions wait at once, answered in order."""
    charger, target = tx.state.units[action.unit], tx.state.units[action.target]
    tx.emit(ChargeDeclared(unit=charger.id, target=target.id))
    tx.emit(DecisionAwaited(side=target.side, kind=STAND_OR_FIRE,
                            context={"charger": charger.id, "target": target.id}))
    eligible = sorted(
        u.id for u in tx.state.iter_troops(target.side)
        if u.id != target.id and u.kind in MOUNTED and combat.distance(u, charger) <= COUNTERCHARGE_REACH
    )
    if eligible:
        tx.emit(DecisionAwaited(side=target.side, kind=COUNTERCHARGE,
                                context={"charger": charger.id, "target": target.id, "eligible": eligible}))


def countercharge(tx: Tx, unit_id: str, charger_id: str, size: tuple[float, float]) -> None:
    """The order to countercharge must be obeyed (a D10 on the response table); the
    countercharger then moves its dice straight at the charger, and if it reaches it
    the charger fights it instead."""
    unit = tx.state.units[unit_id]
    response = roll_response(tx, ORDERS, "unattached", f"countercharge order: {unit.label}")
    if not response.obeyed:
        tx.emit(Narrated(text=f"{unit.label} does not answer the order to countercharge"))
        return
    charger = tx.state.units[charger_id]
    reach = combat.roll_move(tx, unit, "countercharge move")
    slide = plan_slide(tx.state, unit, heading=towards(unit.base, charger.base), distance=reach,
                       policy=Interpenetration.STOP, table=size)
    carry_out(tx, unit_id, slide, "countercharge")
    if slide.stopped_by == charger_id:
        tx.emit(ChargeMet(charger=charger_id, by=unit_id))


def _off_table(corners: tuple[tuple[float, float], ...], table: Battlefield) -> bool:
    return any(x < -EPSILON or y < -EPSILON or x > table.width + EPSILON or y > table.depth + EPSILON
               for x, y in corners)


__all__ = ["ExampleDeclare"]
