"""The Declare Thee Sir rule set: set-up, what is legal, and how each action is carried out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from tertia.core.actions import Action, Move
from tertia.core.dice import D6
from tertia.core.events import DecisionMade, UnitFormed, UnitMoved
from tertia.core.geometry import polygons_overlap
from tertia.core.ruleset import OptionSpec, RuleSet, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import ActivationCode, MovementCode
from tertia.rules.formations import COLUMN, HEDGEHOG, LINE, Formation, footprint, reformed_centre
from tertia.rules.movement import (
    MovePlan,
    iter_table_violations,
    iter_terrain_violations,
    plan_move,
)
from tertia.rulesets.declare_thee_sir import clauses, movement, sequence
from tertia.rulesets.declare_thee_sir.codes import DtsCode
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    ADVANCE_AND_FIRE,
    DEFER,
    FORMATION_CHANGE,
    FORMATION_NAMES,
    LONG_MARCH,
    OPTIONS,
    RALLY,
    DtsGame,
    DtsUnit,
    game_data,
    unit_data,
)
from tertia.rulesets.declare_thee_sir.events import (
    DECLARE,
    ChangeFormation,
    Declare,
    EndActivation,
    MoveWorkedOut,
    ObstacleReached,
    OptionDeclared,
)
from tertia.rulesets.declare_thee_sir.scenario_table import DeclareTable, GeneralSpec, RegimentSpec
from tertia.rulesets.declare_thee_sir.troops import (
    ARTILLERY,
    GENERAL,
    STAND_SIZES,
    STANDS,
    StandSize,
)

SHAPES: dict[str, Formation] = {"line": LINE, "long_march": COLUMN, "hedgehog": HEDGEHOG}
"""Formations a: "multiple stand units in side contact"; b: "arranged front to rear"; c:
"compact", two stands abreast (:mod:`tertia.rules.formations`)."""

MOVING_OPTIONS = (ADVANCE, ADVANCE_AND_FIRE)
RETIRE = "retire"
REST = "rest"

TERRAIN: frozenset[str] = frozenset({
    TerrainKind.WOODS, TerrainKind.TOWN, TerrainKind.FIELD, TerrainKind.MARSH, TerrainKind.LAKE,
    TerrainKind.HILL, TerrainKind.RIVER, TerrainKind.FORD, TerrainKind.BRIDGE, TerrainKind.ROAD,
    TerrainKind.HEDGE, TerrainKind.ENTRENCHMENT, TerrainKind.WALL, TerrainKind.FENCE,
    TerrainKind.STREAM, TerrainKind.PLOUGHED,
})
"""The ground the text gives a meaning: difficult (ploughed fields, marsh, woods, hill
steps), obstacles (walls, streams and, read with them, fences and hedges), roads, hard
cover (towns, walls, entrenchments); fields are open ground whose hedges are obstacles,
lakes and rivers (away from fords and bridges) cannot be entered."""

IMPASSABLE = (TerrainKind.LAKE,)


class DeclareTheeSir(RuleSet):
    id: ClassVar[str] = "declare-thee-sir"
    title: ClassVar[str] = "Declare Thee Sir (Rich Smethurst, MWAN #82, 1996)"
    version: ClassVar[str] = "1.0"
    GAME_DATA = DtsGame
    SCENARIO_EXTENSION = DeclareTable
    TERRAIN_KINDS: ClassVar[frozenset[str]] = TERRAIN
    COMMANDER_VALUES: ClassVar[range] = range(0, 11)
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("army_breaks_at", 0.5, "fraction of an army's units routed off or destroyed that "
                   "breaks it and ends the battle (the text has no victory rule)", low=0.1, high=1.0),
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
        a general is attached to a unit of his own side."""
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
        for i, g in enumerate(table.generals):
            at = f"{where}.generals[{i}]"
            if g.commander not in sides:
                problems.append((f"{at}.commander", f"no commander {g.commander!r} in the scenario"))
            elif g.attached_to is not None and (g.attached_to not in units
                                                or units[g.attached_to].side != sides[g.commander]):
                problems.append((f"{at}.attached_to", f"no unit {g.attached_to!r} of the general's side"))
        return problems

    def initial_state(self, scenario: Scenario) -> GameState:
        table = self.table_of(scenario)
        regiments = {r.unit: r for r in table.regiments}
        generals = {g.commander: g for g in table.generals}
        sizes: dict[str, StandSize] = {t: StandSize(s.width, s.depth) for t, s in table.stands.items()}
        units: dict[str, Unit] = {}
        for c in scenario.commanders:
            size = sizes.get(GENERAL, STAND_SIZES[GENERAL])
            spec = generals.get(c.id, GeneralSpec(commander=c.id))
            units[c.id] = Unit(c.id, c.side, UnitKind.COMMANDER, c.command, c.x, c.y, c.facing % 360.0,
                               size.width, size.depth, name=c.name,
                               own=DtsUnit(troop=GENERAL, stand_width=size.width, stand_depth=size.depth,
                                           attached_to=spec.attached_to))
        for s in scenario.units:
            regiment = regiments.get(s.id, RegimentSpec(unit=s.id))
            size = sizes.get(s.type, STAND_SIZES[s.type])
            own = DtsUnit(troop=s.type, stands_total=regiment.stands or STANDS[s.type],
                          stand_width=size.width, stand_depth=size.depth, formation=regiment.formation,
                          firelocks=regiment.firelocks, mounted=regiment.mounted and s.type == "dragoons")
            width, depth = shape_of(own, own.formation)
            units[s.id] = Unit(s.id, s.side, UnitKind(s.type), s.command, s.x, s.y, s.facing % 360.0,
                               width, depth, name=s.name, traits=tuple(s.traits), own=own)
        objectives = tuple(Objective(o.name, o.x, o.y, o.radius, o.side) for o in scenario.objectives)
        return GameState(sides=scenario.side_ids, turn=0, active=scenario.side_ids[0], phase="setup",
                         units=units, objectives=objectives,
                         own=DtsGame(turn_limit=scenario.turns,
                                     edges={s.id: s.edge for s in scenario.sides}))

    def begin(self, tx: Tx) -> None:
        sequence.begin(tx)

    # --- legality --------------------------------------------------------------------------

    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        if state.is_over:
            return [Violation(CoreCode.GAME_OVER, "the battle is over", clauses.GAME_PLAY)]
        game = game_data(state)
        if not isinstance(action, Declare | ChangeFormation | Move | EndActivation):
            return [Violation(CoreCode.UNKNOWN_ACTION, f"{self.id} has no action {action.type!r}",
                              clauses.GAME_PLAY)]
        unit = state.units.get(action.unit)
        if unit is None or not unit.in_play:
            return [Violation(CoreCode.UNKNOWN_UNIT, f"no unit {action.unit!r} in play", clauses.GAME_PLAY)]
        if unit.side != state.to_act:
            return [Violation(CoreCode.NOT_YOUR_UNIT, f"{unit.label} is not yours", clauses.GAME_PLAY)]
        if action.unit != game.activated:
            return [Violation(ActivationCode.NOT_ACTIVATED,
                              f"{unit.label} is not activated: its card has not been drawn",
                              clauses.GAME_PLAY)]
        pending = state.pending
        if isinstance(action, Declare):
            if pending is None or pending.kind != DECLARE:
                return [Violation(CoreCode.NOTHING_PENDING, f"{unit.label}'s option is already declared",
                                  clauses.GAME_PLAY)]
            return self._declare_problems(unit, action, pending.get("options", ()))
        if pending is not None:
            return [Violation(CoreCode.PENDING_DECISION,
                              f"first declare {unit.label}'s option", clauses.GAME_PLAY)]
        if isinstance(action, EndActivation):
            return []
        if isinstance(action, ChangeFormation):
            return self._formation_problems(table, state, unit, action.formation)
        return self._move_problems(table, state, unit, action)

    def _declare_problems(self, unit: Unit, action: Declare, open_to: Any) -> list[Violation]:
        if action.option not in OPTIONS:
            return [Violation(DtsCode.UNKNOWN_OPTION, f"no option {action.option!r}; options: "
                              f"{', '.join(OPTIONS)}", clauses.GAME_PLAY)]
        if action.option not in open_to:
            return [Violation(DtsCode.OPTION_NOT_OPEN, f"{unit.label} may declare only: "
                              f"{', '.join(open_to)}", clauses.GAME_PLAY)]
        if action.option == RALLY and action.how not in (REST, RETIRE):
            return [Violation(DtsCode.UNKNOWN_OPTION, "under Rally a unit rests or retires (how: rest or "
                              "retire)", clauses.RALLY)]
        if action.option != RALLY and action.how is not None:
            return [Violation(DtsCode.UNKNOWN_OPTION, "only Rally says how", clauses.GAME_PLAY)]
        return []

    def _formation_problems(self, table: Battlefield, state: GameState, unit: Unit,
                            name: str) -> list[Violation]:
        rule = clauses.FORMATIONS
        if game_data(state).declared != FORMATION_CHANGE:
            return [Violation(DtsCode.NOT_DECLARED, f"{unit.label}'s commander did not declare a "
                              "formation change", clauses.GAME_PLAY)]
        own = unit_data(unit)
        if name not in FORMATION_NAMES:
            return [Violation(DtsCode.UNKNOWN_FORMATION, f"no formation {name!r}; formations: "
                              f"{', '.join(FORMATION_NAMES)}", rule)]
        if name == "hedgehog" and own.troop not in ("foot", "commanded_shot"):
            return [Violation(DtsCode.FORMATION_NOT_ALLOWED, "hedgehog is for infantry only", f"{rule} c")]
        if own.formation == name:
            return [Violation(DtsCode.SAME_FORMATION, f"{unit.label} is already in {name.replace('_', ' ')}",
                              rule)]
        return _room_problems(table, state, reformed(unit, name), rule)

    def _move_problems(self, table: Battlefield, state: GameState, unit: Unit, action: Move
                       ) -> list[Violation]:
        game = game_data(state)
        declared = game.declared or ""
        rule = clauses.MOVEMENT
        if declared not in MOVING_OPTIONS and declared != f"{RALLY}:{RETIRE}":
            return [Violation(DtsCode.NOT_DECLARED, f"{unit.label}'s commander declared no move",
                              clauses.GAME_PLAY)]
        if game.moved:
            return [Violation(DtsCode.ALREADY_MOVED, f"{unit.label} has already moved", rule)]
        plan = plan_move(unit, action)
        kind = movement.kind_of_move(table, plan, unit_data(unit))
        if plan.turned and kind != "retrograde":
            kind = "difficult"  # a turn on the spot is a move to a flank
        retiring = declared == f"{RALLY}:{RETIRE}"
        if kind == "retrograde" and not retiring:
            return [Violation(DtsCode.REARWARD, "rearward movement is made under Rally (option 5)",
                              f"{rule}; {clauses.RALLY} a")]
        allowance = game.allowance or {}
        limit = allowance.get("road" if kind == "road" else "difficult" if kind == "difficult" else "open", 0)
        if kind == "retrograde":
            limit = allowance.get("open", 0)
        if plan.length > limit + 1e-6:
            return [Violation(DtsCode.TOO_FAR, f"{unit.label} may move {limit}\" ({kind.replace('_', ' ')} "
                              f"ground), not {plan.length:.1f}\"", rule)]
        problems = [*iter_table_violations(table, plan, rule),
                    *iter_terrain_violations(table, plan, IMPASSABLE, {TerrainKind.LAKE: rule}, rule)]
        if problems:
            return problems[:1]
        if not unit_data(unit).at_obstacle and movement.obstacle_crossed(table, plan) is not None:
            return [Violation(DtsCode.OBSTACLE, f"{unit.label} stops at the "
                              f"{movement.obstacle_crossed(table, plan)}: it crosses when next activated",
                              rule)]
        return _collision_problems(state, plan, rule)

    # --- resolution ------------------------------------------------------------------------

    def resolve(self, tx: Tx, action: Action) -> None:
        if isinstance(action, Declare):
            self._declare(tx, action)
        elif isinstance(action, ChangeFormation):
            unit = tx.state.units[action.unit]
            placed = reformed(unit, action.formation)
            tx.emit(UnitFormed(unit=unit.id, formation=action.formation, x=placed.x, y=placed.y,
                               width=placed.width, depth=placed.depth))
            sequence.end_activation(tx, self.options)
        elif isinstance(action, Move):
            self._move(tx, action)
        elif isinstance(action, EndActivation):
            sequence.end_activation(tx, self.options)

    def _declare(self, tx: Tx, action: Declare) -> None:
        unit = tx.state.units[action.unit]
        tx.emit(DecisionMade(side=unit.side, kind=DECLARE, choice=action.option))
        tx.emit(OptionDeclared(unit=unit.id, option=action.option, how=action.how))
        if action.option in MOVING_OPTIONS or (action.option == RALLY and action.how == RETIRE):
            self._work_out_move(tx, unit, halve=action.option == ADVANCE_AND_FIRE)
        elif action.option == DEFER:
            sequence.end_activation(tx, self.options)

    def _work_out_move(self, tx: Tx, unit: Unit, *, halve: bool) -> None:
        own = unit_data(unit)
        dice = movement.move_dice(own)
        if dice == 0:
            roll = movement.GENERAL_MOVE
        else:
            roll = sum(tx.roll(D6, f"movement: {unit.label}") for _ in range(dice))
        found = movement.work_out(roll, movement.modifiers(own), halve=halve,
                                  road=own.formation == LONG_MARCH)
        tx.emit(MoveWorkedOut(unit=unit.id, roll=roll, modifiers=found.modifiers, open=found.open_ground,
                              difficult=found.difficult, road=found.road))

    def _move(self, tx: Tx, action: Move) -> None:
        unit = tx.state.units[action.unit]
        plan = plan_move(unit, action)
        tx.emit(UnitMoved(unit=unit.id, path=plan.points, facing=plan.end.facing))
        stopped = movement.at_obstacle(tx.table, plan.end.corners())
        if stopped != unit_data(unit).at_obstacle:
            tx.emit(ObstacleReached(unit=unit.id, reached=stopped))
        if game_data(tx.state).declared != ADVANCE_AND_FIRE:
            sequence.end_activation(tx, self.options)


def shape_of(own: DtsUnit, formation: str) -> tuple[float, float]:
    """A unit's footprint (width, depth) in ``formation``: its stands laid out by the
    formation (Formations a-c); a gun in long march is turned sideways (b)."""
    if own.troop == ARTILLERY and formation == LONG_MARCH:
        return own.stand_depth, own.stand_width
    return footprint(SHAPES[formation], own.stands_total, own.stand_width, own.stand_depth)


def reformed(unit: Unit, formation: str) -> Unit:
    """``unit`` in ``formation``, its front edge where it was."""
    width, depth = shape_of(unit_data(unit), formation)
    x, y = reformed_centre(unit.base, depth)
    return unit.evolve(x=x, y=y, width=width, depth=depth, formation=formation)


def _room_problems(table: Battlefield, state: GameState, placed: Unit, rule: str) -> list[Violation]:
    if not table.inside_table(placed.base.corners()):
        return [Violation(MovementCode.OFF_TABLE, f"{placed.label} would leave the table", rule)]
    for other in state.iter_units():
        if other.id != placed.id and polygons_overlap(placed.base.corners(), other.base.corners()):
            return [Violation(MovementCode.COLLISION, f"{placed.label} would overlap {other.label}", rule)]
    return []


def _collision_problems(state: GameState, plan: MovePlan, rule: str) -> list[Violation]:
    """Enemies block a move; a friend may be passed through (Movement: "Units that move or
    rout through another unit cause a moral check") but not ended on."""
    mover = plan.unit
    end = plan.end.corners()
    areas = plan.swept()
    for other in state.iter_units():
        if other.id == mover.id:
            continue
        corners = other.base.corners()
        if other.side != mover.side and any(polygons_overlap(a, corners) for a in areas):
            return [Violation(MovementCode.COLLISION, f"{mover.label} would run into {other.label}", rule)]
        if polygons_overlap(end, corners):
            return [Violation(MovementCode.COLLISION, f"{mover.label} would end on {other.label}", rule)]
    return []
