"""The Declare Thee Sir rule set: set-up, what is legal, and how each action is carried out."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.actions import Action, EndPhase, Move
from tertia.core.ai_spec import AiSpec
from tertia.core.dice import D6
from tertia.core.events import DecisionMade, Event, GameDataChanged, UnitFormed, UnitMoved
from tertia.core.geometry import base_distance, bearing, heading_vector
from tertia.core.narration import side_does
from tertia.core.ruleset import OddsMeasure, OptionSpec, RuleSet, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, IllegalAction, Violation, not_in_play, not_own
from tertia.core.vocabulary import ActionKind, DecisionKind, PanelKind
from tertia.rules.codes import ActivationCode, FightingCode, MovementCode
from tertia.rules.fighting import no_target
from tertia.rules.involuntary import Interpenetration, facing_from_clear, piece_under, plan_slide, stands_on
from tertia.rules.movement import (
    MovePlan,
    iter_passing_violations,
    iter_table_violations,
    iter_terrain_violations,
    plan_move,
)
from tertia.rulesets.declare_thee_sir import (
    clauses,
    edge,
    evasion,
    forlorn,
    movement,
    odds,
    rally,
    readings,
    reform,
    rejoin,
    reports,
    rout,
    sequence,
    vocabulary,
    water,
)
from tertia.rulesets.declare_thee_sir.codes import DtsCode
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    ADVANCE_AND_FIRE,
    CARACOLE,
    DEFER,
    FORLORN_HOPE,
    FORMATION_CHANGE,
    LONG_MARCH,
    OPTIONS,
    RALLY,
    DtsGame,
    DtsUnit,
)
from tertia.rulesets.declare_thee_sir.events import (
    DECLARE,
    VOLLEYS,
    ChangeFormation,
    Charge,
    Declare,
    DragoonsMounted,
    Fire,
    MoveWorkedOut,
    ObstacleReached,
    OptionDeclared,
    VolleyFired,
)
from tertia.rulesets.declare_thee_sir.fire import fire
from tertia.rulesets.declare_thee_sir.generals import (
    ATTACH_REACH,
    attach,
    attached_generals,
    carried_generals,
    carry_generals,
    carry_reformed_generals,
)
from tertia.rulesets.declare_thee_sir.melee import SHORT_OF_TARGET, close_test, fight
from tertia.rulesets.declare_thee_sir.points import MoraleCheck, morale_check
from tertia.rulesets.declare_thee_sir.pushback import PushBack
from tertia.rulesets.declare_thee_sir.reach import fire_distance
from tertia.rulesets.declare_thee_sir.reform import DISMOUNT as DISMOUNT
from tertia.rulesets.declare_thee_sir.reform import MOUNT as MOUNT
from tertia.rulesets.declare_thee_sir.reform import reformed, shape_of
from tertia.rulesets.declare_thee_sir.scenario_table import DeclareTable, GeneralSpec, RegimentSpec
from tertia.rulesets.declare_thee_sir.troops import (
    GENERAL,
    STAND_SIZES,
    STANDS,
    StandSize,
)
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

MOVING_OPTIONS = (ADVANCE, ADVANCE_AND_FIRE)
RETIRE = "retire"
REST = "rest"

TERRAIN: frozenset[str] = frozenset({
    TerrainKind.WOODS, TerrainKind.TOWN, TerrainKind.FIELD, TerrainKind.MARSH, TerrainKind.LAKE,
    TerrainKind.HILL, TerrainKind.RIVER, TerrainKind.FORD, TerrainKind.BRIDGE, TerrainKind.ROAD,
    TerrainKind.HEDGE, TerrainKind.ENTRENCHMENT, TerrainKind.WALL, TerrainKind.FENCE,
    TerrainKind.STREAM, TerrainKind.PLOUGHED,
})
"""The ground the rule set gives a meaning: difficult (ploughed fields, marsh, woods, hill
steps), obstacles (walls, streams and, read with them, fences and hedges), roads, hard
cover (towns, walls, entrenchments), fields (open ground: a field's ``hedged`` border is
drawn, not played; a hedge that stops a unit is a ``hedge``), and water: no piece enters a
lake, nor a river except where a ford or bridge crosses it
(:mod:`~tertia.rulesets.declare_thee_sir.water`)."""

IMPASSABLE = (TerrainKind.LAKE,)


class DeclareTheeSir(RuleSet):
    id: ClassVar[str] = "declare-thee-sir"
    title: ClassVar[str] = "Declare Thee Sir (Rich Smethurst, MWAN #82, 1996)"
    short_title: ClassVar[str] = clauses.NAME
    version: ClassVar[str] = "1.1"
    GAME_DATA = DtsGame
    SCENARIO_EXTENSION = DeclareTable
    AI = AiSpec(proposer="tertia.rulesets.declare_thee_sir.ai.proposals:iter_proposals",
                doctrine="tertia.rulesets.declare_thee_sir.ai.doctrine2:DtsDoctrine2",
                baseline="tertia.rulesets.declare_thee_sir.ai.doctrine:DtsDoctrine")
    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = vocabulary.ACTION_KINDS
    DECISION_KINDS: ClassVar[tuple[DecisionKind, ...]] = vocabulary.DECISION_KINDS
    PANELS: ClassVar[tuple[PanelKind, ...]] = vocabulary.PANELS
    LEAST_SCORE: ClassVar[float | None] = 0.0
    """Points are only won (``victory.scores``): enemy units lost, objectives held."""
    TERRAIN_KINDS: ClassVar[frozenset[str]] = TERRAIN
    COMMANDER_VALUES: ClassVar[range] = range(0, 11)
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("army_breaks_at", 0.5, "fraction of an army's units routed off or destroyed that "
                   "breaks it and ends the battle (the text has no victory rule)", low=0.1, high=1.0),
        OptionSpec("objective_points", 2, "points for each scenario objective held when the battle "
                   "ends on points (a point is scored for each enemy unit lost)", low=0, high=100),
        OptionSpec("regain_to", "level", "how far a resting unit regains morale: to the top of the "
                   "level first rolled (good 2, excellent 4, as the text says) or to the points first "
                   "rolled (Rally d)", ("level", "points")),
        OptionSpec("capture", False, "optional rule c: capture a flag or an attached general on a "
                   "modified melee roll of 12 or more"),
        OptionSpec("caracole", False, "optional rule b: cavalry with firelocks may form a caracole, "
                   "which evades 1D6\" when meleed"),
        OptionSpec("forlorn_hope", False, "optional rule a: a regiment of foot may send a division of "
                   "musketeers out 1D6\" before it as a forlorn hope, and commanded musketeers may stand "
                   "in one (-1 to fire at it, +2 to melee it, -2 when it attacks)"),
        OptionSpec("event_cards", False, "a small event deck (not in the text, which describes none): "
                   "alarm, rumour of defeat, sermon and damp powder, one card each, shuffled in with "
                   "the unit cards every turn"),
        OptionSpec("forlorn_rejoin", rejoin.MARCH, "optional rule a: how a forlorn hope at poor morale, "
                   "routed, or whose regiment falls to poor rejoins it: it marches back on its own card "
                   "(march) or goes back into the ranks at once, wherever it stands (at_once)",
                   rejoin.REJOIN_CHOICES),
        *readings.SPECS,
    )
    BASES: ClassVar[Mapping[UnitKind, tuple[float, float]]] = {
        UnitKind.FOOT: (4.5, 1.0), UnitKind.COMMANDED_SHOT: (1.5, 1.0), UnitKind.DRAGOONS: (3.0, 1.0),
        UnitKind.HORSE: (4.5, 1.5), UnitKind.ARTILLERY: (1.5, 2.0), UnitKind.COMMANDER: (1.5, 1.5),
    }
    """Each troop type's footprint in line at the default stand sizes (scenario files that
    give no size are checked and placed with these)."""

    # --- set-up --------------------------------------------------------------------------

    def table_of(self, scenario: Scenario) -> DeclareTable:
        found = self.scenario_extension(scenario)
        return found if isinstance(found, DeclareTable) else DeclareTable()

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """The table names units and commanders the scenario has; hedgehog is for foot;
        a general is attached to a unit of his own side, and touches it where both are
        set up (Movement: he "moves with unit", so he starts beside it)."""
        table = self.table_of(scenario)
        units = {u.id: u for u in scenario.units}
        sides = {c.id: c.side for c in scenario.commanders}
        problems: list[tuple[str, str]] = []
        where = f"extensions.{self.id}"
        for i, r in enumerate(table.regiments):
            at = f"{where}.regiments[{i}]"
            if r.unit not in units:
                problems.append((f"{at}.unit", f"no unit {r.unit!r} in the scenario"))
            elif r.formation == "hedgehog" and units[r.unit].type not in ("foot", "commanded_shot"):
                problems.append((f"{at}.formation", f"only foot form hedgehog ({clauses.FORMATIONS} c)"))
            elif r.formation == CARACOLE and (units[r.unit].type != "horse" or not r.firelocks
                                              or not self.option("caracole")):
                problems.append((f"{at}.formation", "only cavalry with firelocks caracole, with the "
                                 f"option caracole on ({clauses.OPTIONAL} b)"))
            elif r.formation == FORLORN_HOPE and not self.option("forlorn_hope"):
                problems.append((f"{at}.formation", f"{r.unit} cannot start in forlorn hope: the option "
                                 f"forlorn_hope is off ({clauses.OPTIONAL} a)"))
            elif r.formation == FORLORN_HOPE and units[r.unit].type != "commanded_shot":
                problems.append((f"{at}.formation", f"{r.unit} cannot start in forlorn hope: only "
                                 "commanded musketeers do (a regiment of foot sends one out in play, "
                                 f"{clauses.OPTIONAL} a)"))
        for i, g in enumerate(table.generals):
            at = f"{where}.generals[{i}]"
            if g.commander not in sides:
                problems.append((f"{at}.commander", f"no commander {g.commander!r} in the scenario"))
            elif g.attached_to is not None and (g.attached_to not in units
                                                or units[g.attached_to].side != sides[g.commander]):
                problems.append((f"{at}.attached_to", f"no unit {g.attached_to!r} of the general's side"))
        if not problems:
            problems.extend(self._apart_problems(scenario, table))
        return problems

    def _apart_problems(self, scenario: Scenario, table: DeclareTable) -> list[tuple[str, str]]:
        """Attached generals set up away from their units (an attached general is carried
        with his unit from wherever he stands)."""
        state = self.initial_state(scenario)
        problems: list[tuple[str, str]] = []
        for i, g in enumerate(table.generals):
            if g.attached_to is None:
                continue
            gap = base_distance(state.units[g.commander].base, state.units[g.attached_to].base)
            if gap > ATTACH_REACH:
                problems.append((f"extensions.{self.id}.generals[{i}].attached_to",
                                 f"{g.commander} stands {gap:.1f}\" from {g.attached_to!r}: set him up "
                                 "touching the unit he is attached to"))
        return problems

    def piece_size(self, scenario: Scenario, piece_id: str, kind: UnitKind) -> tuple[float, float]:
        """A regiment's stands in its starting formation, at the battle's stand size."""
        table = self.table_of(scenario)
        if kind is UnitKind.COMMANDER:
            size = _stand_size(table, GENERAL)
            return size.width, size.depth
        return shape_of(_regiment(table, piece_id, kind.value), None)

    def initial_state(self, scenario: Scenario) -> GameState:
        table = self.table_of(scenario)
        generals = {g.commander: g for g in table.generals}
        units: dict[str, Unit] = {}
        for c in scenario.commanders:
            size = _stand_size(table, GENERAL)
            spec = generals.get(c.id, GeneralSpec(commander=c.id))
            units[c.id] = Unit(c.id, c.side, UnitKind.COMMANDER, c.command, c.x, c.y, c.facing % 360.0,
                               size.width, size.depth, name=c.name,
                               own=DtsUnit(troop=GENERAL, stand_width=size.width, stand_depth=size.depth,
                                           attached_to=spec.attached_to))
        for s in scenario.units:
            own = _regiment(table, s.id, s.type)
            width, depth = shape_of(own, own.formation)
            units[s.id] = Unit(s.id, s.side, UnitKind(s.type), s.command, s.x, s.y, s.facing % 360.0,
                               width, depth, name=s.name, traits=tuple(s.traits), own=own)
        objectives = tuple(Objective(o.name, o.x, o.y, o.radius, o.side) for o in scenario.objectives)
        return GameState(sides=scenario.side_ids, turn=0, active=scenario.side_ids[0], phase="setup",
                         units=units, objectives=objectives,
                         own=DtsGame(turn_limit=scenario.turns,
                                     edges={s.id: s.edge for s in scenario.sides},
                                     ending_objectives=tuple(o.name for o in scenario.objectives
                                                             if o.ends_game),
                                     readings=readings.chosen(self.options)))

    def begin(self, tx: Tx) -> None:
        sequence.begin(tx, self.options)

    # --- what a player is shown ----------------------------------------------------------

    def presentation(self) -> reports.DtsPresentation:
        return reports.DtsPresentation(self)

    def measure_move(self, table: Battlefield, state: GameState, action: Action) -> dict[str, Any] | None:
        return reports.measure_move(table, state, action)

    # --- legality --------------------------------------------------------------------------

    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        if state.is_over:
            return [Violation(CoreCode.GAME_OVER, "the battle is over", clauses.GAME_PLAY)]
        game = game_data(state)
        if isinstance(action, EndPhase):
            if game.activated is None or state.pending is not None:
                return [Violation(CoreCode.WRONG_PHASE, "first declare the activated unit's option",
                                  clauses.GAME_PLAY)]
            return []
        if not isinstance(action, Declare | ChangeFormation | Move | Fire | Charge):
            return [Violation(CoreCode.UNKNOWN_ACTION, f"{self.named()} has no action {action.type!r}",
                              clauses.GAME_PLAY)]
        unit = state.units.get(action.unit)
        if unit is None or not unit.in_play:
            return [Violation(CoreCode.UNKNOWN_UNIT, not_in_play(state, action.unit), clauses.GAME_PLAY)]
        if unit.side != state.to_act:
            return [not_own(unit, state.to_act, clauses.GAME_PLAY)]
        if action.unit != game.activated:
            return [Violation(ActivationCode.NOT_ACTIVATED,
                              f"{unit.label} is not activated: its card has not been drawn",
                              clauses.GAME_PLAY)]
        pending = state.pending
        if isinstance(action, Declare):
            if pending is None or pending.kind != DECLARE:
                return [Violation(CoreCode.NOTHING_PENDING, f"{unit.label}'s option is already declared",
                                  clauses.GAME_PLAY)]
            return self._declare_problems(table, state, unit, action, pending.get("options", ()))
        if pending is not None:
            return [Violation(CoreCode.PENDING_DECISION,
                              f"first declare {unit.label}'s option", clauses.GAME_PLAY)]
        if isinstance(action, ChangeFormation):
            return self._formation_problems(table, state, unit, action.formation)
        if isinstance(action, Fire):
            return self._fire_problems(table, state, unit, action.target)
        if isinstance(action, Charge):
            return self._charge_problems(table, state, unit, action.target)
        return self._move_problems(table, state, unit, action)

    def _declare_problems(self, table: Battlefield, state: GameState, unit: Unit, action: Declare,
                          open_to: Any) -> list[Violation]:
        """Game Play: one of the options open to the unit's commander
        (:func:`~tertia.rulesets.declare_thee_sir.sequence.declarable`); a formation change
        not open to a unit that keeps its order is refused saying what stands in the way."""
        if action.option not in OPTIONS:
            return [Violation(DtsCode.UNKNOWN_OPTION, f"no option {action.option!r}; options: "
                              f"{', '.join(OPTIONS)}", clauses.GAME_PLAY)]
        if action.option == FORMATION_CHANGE and action.option not in open_to and \
                FORMATION_CHANGE in sequence.options_for(unit):
            return [Violation(DtsCode.OPTION_NOT_OPEN, reform.why_none(table, state, unit, self.options),
                              clauses.GAME_PLAY)]
        if action.option not in open_to:
            return [Violation(DtsCode.OPTION_NOT_OPEN, f"{unit.label} may declare only: "
                              f"{', '.join(open_to)}", clauses.GAME_PLAY)]
        own = unit_data(unit)
        if own.routing or own.pursuing is not None:
            if action.how is not None:
                return [Violation(DtsCode.UNKNOWN_OPTION, "a routing or pursuing unit just rallies",
                                  clauses.RALLY)]
            return []
        if action.option == RALLY and action.how not in (REST, RETIRE):
            return [Violation(DtsCode.UNKNOWN_OPTION, "under Rally a unit rests or retires (how: rest or "
                              "retire)", clauses.RALLY)]
        if action.option != RALLY and action.how is not None:
            return [Violation(DtsCode.UNKNOWN_OPTION, "only Rally says how", clauses.GAME_PLAY)]
        return []

    def _formation_problems(self, table: Battlefield, state: GameState, unit: Unit,
                            name: str) -> list[Violation]:
        """Game Play option 1, once declared: the change itself is judged by
        :func:`~tertia.rulesets.declare_thee_sir.reform.problems`, as its declaration was."""
        if game_data(state).declared != FORMATION_CHANGE:
            return [Violation(DtsCode.NOT_DECLARED, f"{unit.label}'s commander did not declare a "
                              "formation change", clauses.GAME_PLAY)]
        return reform.problems(table, state, unit, name, self.options)

    def _move_problems(self, table: Battlefield, state: GameState, unit: Unit, action: Move
                       ) -> list[Violation]:
        game = game_data(state)
        declared = game.declared or ""
        rule = clauses.MOVEMENT
        if game.allowance is None:
            return [Violation(DtsCode.NOT_DECLARED, f"the commander of {unit.label} declared no move",
                              clauses.GAME_PLAY)]
        if game.moved:
            return [Violation(DtsCode.ALREADY_MOVED, f"{unit.label} has already moved", rule)]
        plan = plan_move(unit, action)
        found = movement.limit_of(table, plan, unit_data(unit), game.allowance)
        kind, limit = found.kind, found.inches
        retiring = declared.startswith(RALLY)
        if kind == "retrograde" and not retiring:
            return [Violation(DtsCode.REARWARD, "rearward movement is made under Rally (option 5)",
                              f"{rule}; {clauses.RALLY} a")]
        if plan.length > limit + 1e-6:
            return [Violation(DtsCode.TOO_FAR, f"{unit.label} may move {limit}\" ({kind.replace('_', ' ')} "
                              f"ground), not {plan.length:.1f}\"", rule)]
        problems = [*iter_table_violations(table, plan, rule),
                    *iter_terrain_violations(table, plan, IMPASSABLE, {TerrainKind.LAKE: rule}, rule),
                    *_carried_problems(table, state, plan)]
        if problems:
            return problems[:1]
        if not unit_data(unit).at_obstacle and movement.obstacle_crossed(table, plan) is not None:
            return [Violation(DtsCode.OBSTACLE, f"{unit.label} stops at the "
                              f"{movement.obstacle_crossed(table, plan)}: it crosses when next activated",
                              rule)]
        return _collision_problems(state, plan, rule)

    def _fire_problems(self, table: Battlefield, state: GameState, unit: Unit, target_id: str
                       ) -> list[Violation]:
        rule = clauses.FIRE
        game = game_data(state)
        if game.declared not in VOLLEYS:
            return [Violation(DtsCode.NOT_DECLARED, f"the commander of {unit.label} declared no fire",
                              clauses.GAME_PLAY)]
        if game.volleys <= 0:
            return [Violation(DtsCode.NO_VOLLEYS, f"{unit.label} has fired all its volleys", rule)]
        if unit_data(unit).routing:
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} is routing", rule)]
        if unit_data(unit).damp_powder:
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label}'s powder is damp: it may not fire this "
                              "activation", f"{clauses.GAME_PLAY} (event card: damp powder)")]
        absent = no_target(state, target_id, unit, rule)
        if absent:
            return absent
        target = state.units[target_id]
        if unit_data(target).is_general:
            return [Violation(DtsCode.GENERAL_TARGET, "a general is no target for fire", rule)]
        if fire_distance(table, state, unit, target) is None:
            return [Violation(FightingCode.NO_LINE_OF_SIGHT, f"no stand of {unit.label} sees "
                              f"{target.label} within its 45 degree arc", f"{rule}: direct fire at "
                              "visible targets with a 45 degree arc")]
        return []

    def _charge_problems(self, table: Battlefield, state: GameState, unit: Unit, target_id: str
                         ) -> list[Violation]:
        rule = clauses.MELEE
        game = game_data(state)
        if game.declared != ADVANCE:
            return [Violation(DtsCode.NOT_DECLARED, "a unit goes into melee under the advance option",
                              f"{rule} a")]
        if game.moved:
            return [Violation(DtsCode.ALREADY_MOVED, f"{unit.label} has already moved", rule)]
        own = unit_data(unit)
        if own.is_gun or own.is_general:
            return [Violation(CoreCode.CANNOT_ACT, "artillery and generals can't advance into melee",
                              f"{rule} a")]
        absent = no_target(state, target_id, unit, rule)
        if absent:
            return absent
        target = state.units[target_id]
        if unit_data(target).is_general and not evasion.independent(target):
            return [Violation(DtsCode.GENERAL_TARGET, f"{target.label} is attached to "
                              f"{unit_data(target).attached_to}: charge that unit", f"{rule} a")]
        path = charge_path(table, state, unit, target)
        if path.blocked_by is not None:
            message = f"{unit.label} cannot turn to face {target.label} without standing over " \
                f"{path.blocked_by}" if path.turning else \
                side_does(path.blocked_by, f"stand between {unit.label} and {target.label}")
            return [Violation(MovementCode.COLLISION, message, f"{rule} a: move directly at target unit")]
        if path.off_table:
            return [Violation(MovementCode.OFF_TABLE, f"{unit.label} would charge {target.label} partly off "
                              "the table", f"{rule} a: move directly at target unit")]
        if path.wet is not None:
            return [Violation(water.refusal_code(path.wet),
                              f"{unit.label} cannot charge {target.label} through the {path.wet}",
                              clauses.MOVEMENT)]
        if path.obstacle is not None:
            return [Violation(DtsCode.OBSTACLE, f"{unit.label} would stop at the {path.obstacle} short of "
                              f"{target.label}: it crosses when next activated", clauses.MOVEMENT)]
        limit = (game.allowance or {}).get("difficult" if path.difficult else "open", 0)
        if path.distance > limit + 1e-6:
            return [Violation(DtsCode.TOO_FAR, f"{target.label} is {path.distance:.1f}\" away; "
                              f"{unit.label} may move {limit}\"", clauses.MOVEMENT)]
        return []

    # --- odds ----------------------------------------------------------------------------

    ACTION_WORDS: ClassVar[tuple[str, ...]] = odds.WORDS
    ODDS_MEASURES: ClassVar[tuple[OddsMeasure, ...]] = odds.MEASURES

    def query(self, state: GameState, word: str | None, attacker: str, target: str,
              details: Mapping[str, Any] | None = None) -> tuple[GameState, Action]:
        """``fire`` is one volley, ``charge`` the test to close and the melee; the position
        is readied with the attacker's card drawn and the option declared
        (:func:`~tertia.rulesets.declare_thee_sir.odds.ready`). It takes no particulars."""
        if details:
            raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION, f"an odds question under {self.named()} "
                                           f"takes no {sorted(details)[0]!r}", clauses.GAME_PLAY)])
        return odds.ready(state, word, attacker, target)

    def odds_effects(self, before: GameState, after: GameState, events: Sequence[Event]
                     ) -> dict[str, dict[str, Any]]:
        return odds.effects(before, after, events)

    def describe_effects(self, state: GameState, effects: Mapping[str, Mapping[str, Any]]) -> str | None:
        return odds.describe(state, effects)

    # --- resolution ------------------------------------------------------------------------

    def resolve(self, tx: Tx, action: Action) -> None:
        if isinstance(action, Declare):
            self._declare(tx, action)
        elif isinstance(action, ChangeFormation):
            unit = tx.state.units[action.unit]
            if action.formation in (MOUNT, DISMOUNT):
                tx.emit(DragoonsMounted(unit=unit.id, mounted=action.formation == MOUNT))
            elif action.formation == FORLORN_HOPE and forlorn.sends_out(unit):
                forlorn.form(tx, unit.id)
            else:
                placed = reformed(unit, action.formation)
                tx.emit(UnitFormed(unit=unit.id, formation=action.formation, x=placed.x, y=placed.y,
                                   width=placed.width, depth=placed.depth))
                carry_reformed_generals(tx, unit, placed)  # "Attached generals move with unit"
            sequence.end_activation(tx, self.options)
        elif isinstance(action, Move):
            self._move(tx, action)
        elif isinstance(action, Fire):
            self._fire(tx, action)
        elif isinstance(action, Charge):
            self._charge(tx, action)
        elif isinstance(action, EndPhase):
            sequence.end_activation(tx, self.options)

    def _declare(self, tx: Tx, action: Declare) -> None:
        unit = tx.state.units[action.unit]
        own = unit_data(unit)
        tx.emit(DecisionMade(side=unit.side, kind=DECLARE, choice=action.option))
        tx.emit(OptionDeclared(unit=unit.id, option=action.option, how=action.how))
        if own.routing:
            self._routing(tx, unit.id, rallying=action.option == RALLY)
        elif own.pursuing is not None:
            self._pursuing(tx, unit.id, own.pursuing, rallying=action.option == RALLY)
        elif action.option in MOVING_OPTIONS or (action.option == RALLY and action.how == RETIRE):
            self._work_out_move(tx, unit, halve=action.option == ADVANCE_AND_FIRE)
        elif action.option == RALLY:
            rally.rest(tx, unit.id, str(self.option("regain_to")))
            sequence.end_activation(tx, self.options)
        elif action.option == DEFER:
            sequence.end_activation(tx, self.options)

    def _routing(self, tx: Tx, unit_id: str, *, rallying: bool) -> None:
        """Rally b, and the Melee Chart's note: "The routing unit will continue to rout each
        time it is activated unless it is rallied"."""
        if rallying and rally.rally_routing(tx, unit_id).rallied:
            return  # the rally move is the player's to place
        if not rallying:
            rout.rout(tx, unit_id, None, "routing")
        sequence.end_activation(tx, self.options)

    def _pursuing(self, tx: Tx, unit_id: str, target: str, *, rallying: bool) -> None:
        """Melee Chart notes: the pursuit goes on each activation until the pursuer beats its
        morale on 1D6 or the routers are gone; Rally c breaks it off on doubles."""
        if rallying and rally.break_pursuit(tx, unit_id).rallied:
            return
        routing = tx.state.units.get(target)
        if routing is None or not routing.in_play or rout.beats_morale(tx, unit_id):
            rout.stop_pursuing(tx, unit_id)
            # "The pursuing unit then stops, may change facing": a turn on the spot, no more.
            tx.emit(MoveWorkedOut(unit=unit_id, roll=0, modifiers=(), open=0, difficult=0))
            return
        rout.pursue(tx, unit_id, target)
        sequence.end_activation(tx, self.options)

    def _work_out_move(self, tx: Tx, unit: Unit, *, halve: bool) -> None:
        own = unit_data(unit)
        dice = movement.move_dice(own)
        if dice == 0:
            roll = movement.GENERAL_MOVE
        else:
            roll = sum(tx.roll(D6, f"movement: {unit.label}") for _ in range(dice))
        found = movement.work_out(roll, movement.modifiers(own), halve=halve,
                                  road=own.formation == LONG_MARCH,
                                  road_bonus=movement.road_bonus_in(tx.state))
        tx.emit(MoveWorkedOut(unit=unit.id, roll=roll, modifiers=found.modifiers, open=found.open_ground,
                              difficult=found.difficult, road=found.road))

    def _move(self, tx: Tx, action: Move) -> None:
        unit = tx.state.units[action.unit]
        plan = plan_move(unit, action)
        tx.emit(UnitMoved(unit=unit.id, path=plan.points, facing=plan.end.facing))
        tx.emit(GameDataChanged(key="moved", value=True))
        if unit_data(unit).is_general:
            self._attach(tx, unit.id)
        else:
            carry_generals(tx, unit, plan.end.x - unit.x, plan.end.y - unit.y, plan.end.facing)
            forlorn.carry(tx, unit, plan.end.x - unit.x, plan.end.y - unit.y, plan.end.facing)
        stopped = movement.at_obstacle(tx.table, plan.end.corners())
        if stopped != unit_data(unit).at_obstacle:
            tx.emit(ObstacleReached(unit=unit.id, reached=stopped))
        passed = passed_through(tx.state, plan)
        for friend in passed:  # one broken routs towards its own edge: it has no foe to flee
            self._carry_out_checks(tx, [morale_check(tx, friend, f"{unit.label} moved through it")], None)
        if passed and not unit_data(unit).is_general and tx.state.units[unit.id].in_play:
            # "... cause a moral check ... on each unit involved": the mover is involved too
            names = ", ".join(tx.state.units[f].label for f in passed)
            self._carry_out_checks(tx, [morale_check(tx, unit.id, f"moved through {names}")], None)
        moved = tx.state.units[unit.id]
        if game_data(tx.state).declared != ADVANCE_AND_FIRE or not game_data(tx.state).volleys \
                or not moved.in_play or unit_data(moved).routing:
            sequence.end_activation(tx, self.options)

    def _attach(self, tx: Tx, general_id: str) -> None:
        """Movement: a general "attached" to a unit moves with it; he attaches by ending his
        move touching one of his side's units, and detaches by moving off on his own."""
        general = tx.state.units[general_id]
        touching = sorted((u for u in tx.state.iter_troops(general.side)
                           if base_distance(general.base, u.base) <= ATTACH_REACH),
                          key=lambda u: (base_distance(general.base, u.base), u.id))
        joined = touching[0].id if touching else None
        if joined != unit_data(general).attached_to:
            attach(tx, general_id, joined)

    def _fire(self, tx: Tx, action: Fire) -> None:
        tx.emit(VolleyFired(unit=action.unit, target=action.target))
        result = fire(tx, action.unit, action.target)
        if result.push is not None:
            carry_generals_after(tx, result.push)
            self._carry_out_checks(tx, result.push.checks, action.unit)
        game = game_data(tx.state)
        if game.volleys == 0 and (game.moved or game.declared != ADVANCE_AND_FIRE):
            sequence.end_activation(tx, self.options)

    def _charge(self, tx: Tx, action: Charge) -> None:
        """Melee a-b: straight at the target, the test to close, the fight, and what follows
        it (push-backs, routs and the winner's pursuit). A general on his own, charged,
        evades and there is no melee; a caracole evades first (both in the evasion
        module)."""
        unit, target = tx.state.units[action.unit], tx.state.units[action.target]
        evaded = unit_data(target).is_general
        if evaded:
            self._carry_out_checks(tx, evasion.general_evades(tx, target.id, unit.id).checks, unit.id)
            target = tx.state.units[action.target]
        elif unit_data(target).formation == CARACOLE:
            inches = tx.roll(D6, f"caracole evades: {target.label}")
            evasion.caracole_evades(tx, target.id, unit.id, inches)
            target = tx.state.units[action.target]
        path = charge_path(tx.table, tx.state, unit, target)
        reach = float((game_data(tx.state).allowance or {}).get("difficult" if path.difficult else "open", 0))
        if evaded or path.blocked_by is not None or path.wet is not None or path.obstacle is not None \
                or path.off_table or path.distance > reach + 1e-6:
            self._fall_short(tx, unit, path, reach)
            return
        closed = close_test(tx, action.unit)
        # failing to close it halts an inch short, or where it stands if nearer (or just
        # clear of the target, where it would stand over it turned where it stood)
        short = max(min(path.distance, 0.0), path.distance - SHORT_OF_TARGET)
        went = path.distance if closed.passed else short
        if went != 0 or path.heading != unit.facing:
            dx, dy = heading_vector(path.heading)
            tx.emit(UnitMoved(unit=unit.id, path=((unit.x, unit.y), (unit.x + dx * went, unit.y + dy * went)),
                              facing=path.heading, reason="charge"))
            carry_generals(tx, unit, dx * went, dy * went, path.heading)
        tx.emit(GameDataChanged(key="moved", value=True))
        if closed.passed:
            result = fight(tx, action.unit, action.target, capture=bool(self.option("capture")))
            if result.push is not None:
                carry_generals_after(tx, result.push)
                self._carry_out_checks(tx, result.push.checks, action.unit)
            if result.target_routed and tx.state.units[action.target].in_play:
                rout.rout(tx, action.target, action.unit, "broken in melee")
                if tx.state.units[action.target].in_play and not result.attacker_routed:
                    rout.pursue(tx, action.unit, action.target)
            if result.attacker_routed and tx.state.units[action.unit].in_play:
                rout.rout(tx, action.unit, action.target, "broken in melee")
        sequence.end_activation(tx, self.options)

    def _fall_short(self, tx: Tx, unit: Unit, path: ChargePath, reach: float) -> None:
        """A charge whose target evaded: the attacker goes its whole move straight at it,
        halting an inch short (or at water, an obstacle or the table's edge in its way), and
        the activation ends. Pinned against the edge, or beside another piece, so that it
        cannot turn to face the target without standing over the edge or the piece, it
        stays as it is."""
        turned = unit.evolve(facing=path.heading)
        if not edge.on_table(tx.table, turned.base) or stands_on(
                tx.state, turned.base, {unit.id, *_carried_with(tx.state, unit)}, commanders=False):
            tx.emit(GameDataChanged(key="moved", value=True))
            sequence.end_activation(tx, self.options)
            return
        went, stopped = movement.ground_stop(tx.table, turned, path.heading,
                                             max(0.0, min(reach, path.distance - SHORT_OF_TARGET)))
        dx, dy = heading_vector(path.heading)
        tx.emit(UnitMoved(unit=unit.id, path=((unit.x, unit.y), (unit.x + dx * went, unit.y + dy * went)),
                          facing=path.heading, reason="charge"))
        carry_generals(tx, unit, dx * went, dy * went, path.heading)
        tx.emit(GameDataChanged(key="moved", value=True))
        if stopped != unit_data(unit).at_obstacle:
            tx.emit(ObstacleReached(unit=unit.id, reached=stopped))
        sequence.end_activation(tx, self.options)

    def _carry_out_checks(self, tx: Tx, checks: Sequence[MoraleCheck], foe: str | None) -> None:
        """Morale checks that broke a unit: it routs, away from ``foe`` (``None``: towards
        its own edge)."""
        for check in checks:
            if check.routed and tx.state.units[check.unit].in_play and \
                    not unit_data(tx.state.units[check.unit]).routing:
                rout.rout(tx, check.unit, foe, "failed a morale check")


@dataclass(frozen=True, slots=True)
class ChargePath:
    """A charge "directly at target unit": the heading from the attacker's centre to the
    target's, how far it goes before touching the target, whether the way is difficult
    ground, the piece in the way, if any, the water it would enter (a lake, or a river
    away from its fords and bridges), the obstacle that would stop it short, and whether
    turning to face the target or reaching it would put the attacker over the table's
    edge; ``turning``: the piece in the way keeps it from turning to face the target
    (it would stand over that piece, or over the target with that piece behind it)."""

    heading: float
    distance: float
    difficult: bool
    blocked_by: str | None = None
    turning: bool = False
    wet: str | None = None
    obstacle: str | None = None
    off_table: bool = False


def charge_path(table: Battlefield, state: GameState, unit: Unit, target: Unit) -> ChargePath:
    """The attacker turns to face the target's centre and goes straight until it touches
    something: the charge reaches the target only if that is the target. Its attached
    generals go with it, turning as it turns, and are never in its way.

    Remembered while no piece moves, arrives or leaves (``GameState.remember``), for the
    same attacker, target and attached generals: the doctrine asks before it declares and
    again as it charges, and the charge itself follows the same path."""
    generals = attached_generals(state, unit.id)
    key = (_CHARGE_PATH, unit.id, target.id)
    held: _HeldPath | None = state.recall(key, unit)
    if held is not None and held[0] is table and held[1] is unit and held[2] is target and \
            len(held[3]) == len(generals) and all(a is b for a, b in zip(held[3], generals, strict=True)):
        return held[4]
    found = _charge_path(table, state, unit, target, generals)
    state.remember(key, unit, math.inf, (table, unit, target, generals, found))
    return found


_CHARGE_PATH = "declare-thee-sir charge path"
_HeldPath = tuple[Battlefield, Unit, Unit, list[Unit], ChargePath]
"""What a position remembers of a charge's path: the table, the attacker, the target and
the attacker's attached generals, as they were, and the path."""


def _charge_path(table: Battlefield, state: GameState, unit: Unit, target: Unit, generals: list[Unit]
                 ) -> ChargePath:
    heading = bearing(unit.base.centre, target.base.centre)
    turned = unit.evolve(facing=heading)
    ignore = {g.id for g in generals}
    size = (table.width, table.depth)
    # Turned where it stands it may stand over the target: then it faces it from just clear
    # of it, a little behind where it stood (the charge's distance less than 0).
    facing = facing_from_clear(state, turned, target, size, ignore)
    back = facing.back
    if facing.blocked_by is not None:
        return ChargePath(heading, -back, False, state.units[facing.blocked_by].label, turning=True)
    # It touches the target at the latest as its centre reaches the target's: a slide that
    # far (and an inch) meets whatever stands in the way, and looks no further.
    reach = math.dist(facing.start.centre, target.base.centre) + 1.0
    slide = plan_slide(state, turned, heading=heading, distance=reach,
                       policy=Interpenetration.STOP, table=size, ignore=ignore, base=facing.start)
    stopper = slide.stopped_by
    if stopper != target.id:
        return ChargePath(heading, slide.distance - back, False,
                          state.units[stopper].label if stopper is not None else "the table edge")
    plan = plan_move(turned, Move(unit=unit.id, waypoints=(slide.end.centre,)))
    difficult = movement.kind_of_move(table, plan, unit_data(unit)) == "difficult"
    off_table = not (edge.on_table(table, turned.base) and edge.on_table(table, plan.end))
    distance = slide.distance - back
    return ChargePath(heading, distance, difficult, wet=water.wet(table, plan.swept()),
                      obstacle=_obstacle_in_the_way(table, turned, heading, distance),
                      off_table=off_table)


HELD_WITHIN = 1.0
"""An obstacle this close before the target (along the charge) is one the target holds:
the melee is across it, and the charge is not stopped short (the target is "behind hard
cover" if the obstacle is a wall)."""


def _obstacle_in_the_way(table: Battlefield, unit: Unit, heading: float, distance: float) -> str | None:
    """Movement: "When a unit encounters an obstacle ... it stops": the obstacle a charge
    would meet before it comes within :data:`HELD_WITHIN` of its target (none when the
    attacker stopped at it last time, and crosses it now)."""
    if unit_data(unit).at_obstacle or distance <= HELD_WITHIN:
        return None
    return movement.obstacle_crossed(table, movement.straight(unit, heading, distance - HELD_WITHIN))


def carry_generals_after(tx: Tx, push: PushBack) -> None:
    """A unit pushed back in good order takes its attached general with it (a routing
    unit's stands took him as they fled)."""
    if push.fled:
        return
    slide = push.slide
    unit = tx.state.units[push.unit]
    carry_generals(tx, unit, slide.end.x - slide.start.x, slide.end.y - slide.start.y)


def passed_through(state: GameState, plan: MovePlan) -> list[str]:
    """The friends a move passed through (Movement: each takes a morale check, and then the
    mover, unless a general); a forlorn hope going with its regiment is not passed."""
    areas = plan.swept()
    carried = _carried_with(state, plan.unit)
    return [o.id for o in state.iter_troops(plan.unit.side)
            if o.id != plan.unit.id and o.id not in carried
            and any(plan.may_touch(f) for f in o.footprints) and any(o.overlaps(a) for a in areas)]


def _carried_with(state: GameState, unit: Unit) -> set[str]:
    """The pieces that move with ``unit``: its attached generals, its forlorn hope and the
    forlorn hope's attached generals."""
    hopes = [f.id for f in forlorn.carried(state, unit, 0.0, 0.0, unit.facing)]
    return {g.id for piece in (unit.id, *hopes) for g in attached_generals(state, piece)} | set(hopes)


def _stand_size(table: DeclareTable, troop: str) -> StandSize:
    """A troop type's stand at the battle's scale: the scenario's, else the default."""
    given = table.stands.get(troop)  # type: ignore[call-overload]
    return STAND_SIZES[troop] if given is None else StandSize(given.width, given.depth)


def _regiment(table: DeclareTable, unit_id: str, troop: str) -> DtsUnit:
    """A unit's values at the start, from the scenario's table and its troop type."""
    regiment = next((r for r in table.regiments if r.unit == unit_id), RegimentSpec(unit=unit_id))
    size = _stand_size(table, troop)
    return DtsUnit(troop=troop, stands_left=regiment.stands or STANDS[troop],
                   stand_width=size.width, stand_depth=size.depth, formation=regiment.formation,
                   firelocks=regiment.firelocks, mounted=regiment.mounted and troop == "dragoons")


def _carried_problems(table: Battlefield, state: GameState, plan: MovePlan) -> list[Violation]:
    """Optional Rules a: a regiment's move carries its forlorn hope, which must stay on the
    table and off every other piece; Generals: its attached generals and its forlorn hope's
    "move with unit", and must stay on the table too."""
    unit = plan.unit
    dx, dy = plan.end.x - unit.x, plan.end.y - unit.y
    hopes = forlorn.carried(state, unit, dx, dy, plan.end.facing)
    going = [*carried_generals(state, unit, dx, dy, plan.end.facing),
             *(g for hope in hopes
               for g in carried_generals(state, state.units[hope.id], dx, dy, hope.facing))]
    for general in going:
        if not table.inside_table(general.base.corners()):
            return [Violation(MovementCode.OFF_TABLE, f"{general.label} would be carried off the table",
                              f"{clauses.MOVEMENT} (attached generals move with unit)")]
    rule = f"{clauses.OPTIONAL} a"
    carried = _carried_with(state, unit)
    for moved in hopes:
        corners = moved.base.corners()
        if not table.inside_table(corners):
            return [Violation(MovementCode.OFF_TABLE, f"{moved.label} would be carried off the table",
                              rule)]
        wet = water.wet(table, (corners,))
        if wet is not None:
            return [Violation(MovementCode.IMPASSABLE, f"{moved.label} would be carried into the {wet}",
                              rule)]
        other = piece_under(state, moved.base, {unit.id, *carried})
        if other is not None:
            return [Violation(MovementCode.COLLISION, f"{moved.label} would be carried onto {other.label}",
                              rule)]
    return []


def _collision_problems(state: GameState, plan: MovePlan, rule: str) -> list[Violation]:
    """Enemies block a move; a friend may be passed through (Movement: "Units that move or
    rout through another unit cause a moral check") but not ended on."""
    return list(iter_passing_violations(state, plan, rule, _carried_with(state, plan.unit)))
