"""ECW Rules for Larger Battles (engine id ``larger-battles``).

IGO-UGO with two orders a player turn; movement, bombardment, combat and routing phases;
opposed-D6 combat within 3"; hit limits raised by cover, rivers and support.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

from tertia.core.actions import Action, EndPhase, Move
from tertia.core.ai_spec import AiSpec
from tertia.core.geometry import Base, base_distance
from tertia.core.ruleset import OddsMeasure, OptionSpec, RuleSet, Tx
from tertia.core.scenario import CommanderSpec, Scenario, UnitSpec
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, IllegalAction, Violation
from tertia.core.vocabulary import ActionKind, DecisionKind, PanelKind
from tertia.rules.fighting import Attack
from tertia.rules.ground import SHIPPED_TERRAIN
from tertia.rules.hits import HIT_MEASURES, NO_HITS, HitsPiece
from tertia.rules.movement import ground_under, plan_move
from tertia.rules.pieces import piece_problems
from tertia.rulesets.larger_battles import clauses, sequence, vocabulary
from tertia.rulesets.larger_battles.actions import Bombard, DeclareAttacks, Encourage, GiveOrder
from tertia.rulesets.larger_battles.bombardment import validate_bombard
from tertia.rulesets.larger_battles.combat import (
    DECLARED,
    declared_attacks,
    find_declared,
    unfought_problems,
    validate_declaration,
    validate_declared,
    validate_encourage,
)
from tertia.rulesets.larger_battles.commanders import DEPLOY_RADIUS
from tertia.rulesets.larger_battles.events import LargerBattlesData, OrderGiven, Supply
from tertia.rulesets.larger_battles.ground import IMPASSABLE
from tertia.rulesets.larger_battles.movement import (
    allowance,
    resolve_move,
    validate_move,
)
from tertia.rulesets.larger_battles.orders import is_ordered, order_key, orders_left, validate_order
from tertia.rulesets.larger_battles.presentation import MOST_BASE_HIT_LIMIT, LargerBattlesPresentation
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.resolution import (
    declare_attacks,
    make_attack,
    resolve_bombard,
    resolve_encourage,
    settle,
)
from tertia.rulesets.larger_battles.routing import (
    reassess,
)
from tertia.rulesets.larger_battles.scenario_table import LargerBattlesTable, SupplySpec

SUPPLY_SPACING = 12.0
SUPPLY_EDGE_DISTANCE = 3.0
COMMAND_TYPES = {"centre", "right", "left", "reserve"}


SUPPLIES_TABLE = "extensions.larger-battles.supplies"
"""Where a scenario file keeps the supply bases (older files: ``supplies``)."""


class LargerBattles(RuleSet):
    id: ClassVar[str] = "larger-battles"
    title: ClassVar[str] = "ECW Rules for Larger Battles"
    short_title: ClassVar[str] = clauses.PREFIX
    version: ClassVar[str] = "1.1"
    GAME_DATA = LargerBattlesData
    SCENARIO_EXTENSION = LargerBattlesTable
    SCENARIO_TOP_LEVEL = ("supplies",)
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("hit_limit_infantry", 3, "hits at which infantry rout (Routing Units)", low=1,
                   high=MOST_BASE_HIT_LIMIT),
        OptionSpec("hit_limit_cavalry", 2, "hits at which cavalry rout", low=1, high=MOST_BASE_HIT_LIMIT),
        OptionSpec("hit_limit_dragoons", 2, "hits at which dragoons rout", low=1, high=MOST_BASE_HIT_LIMIT),
        OptionSpec("hit_limit_artillery", 1, "hits at which artillery is lost", low=1,
                   high=MOST_BASE_HIT_LIMIT),
        OptionSpec(
            "dragoon_cover", "hedged-fields-and-towns",
            "where dragoons gain +1 hit limit: the Routing text (hedged fields, towns) or the "
            "Terrain text (any field or broken ground, towns)",
            ("hedged-fields-and-towns", "fields-broken-and-towns"),
        ),
        OptionSpec("directly_away_tolerance", 15.0,
                   "degrees a move may stray from directly away when within 3\" of the enemy",
                   low=0, high=90),
        OptionSpec(
            "slide", "free",
            "which way a unit may slide without pivoting: any way (the text is silent) or only "
            "within 45 degrees of its front",
            ("free", "forward-arc-only"),
        ),
        OptionSpec("bombard_needs_line_of_sight", True,
                   "guns cannot fire through woods, towns or other units"),
        OptionSpec("muskets_when_defending", False,
                   "infantry with ammunition add 1 when defending too (the text says attacking)"),
        OptionSpec(
            "cavalry_bonus", "literal",
            "when cavalry add 1: attacking (not pike-armed infantry) or defending (literal); "
            "defending too but not against pikes (not-against-pikes); attacking only",
            ("literal", "not-against-pikes", "attacking-only"),
        ),
        OptionSpec(
            "lone_flanker", "no-hits",
            "a unit attacking a flank or rear with no frontal attack to support takes no hits "
            "(the author's ruling), or fights normally",
            ("no-hits", "fights-normally"),
        ),
        OptionSpec(
            "dragoon_cover_while", "holding",
            "dragoons that attack or support out of cover lose it for that player turn "
            "(holding), or keep it whenever they are there (always)",
            ("holding", "always"),
        ),
        OptionSpec("defender_may_encourage", True,
                   "a defending commander within 3\" may encourage the attacked unit"),
        OptionSpec("general_loss_also_counts_as_commander", False,
                   "losing the commander-general costs 4 + 2 points rather than 4"),
    )
    COMMANDS: ClassVar[tuple[str, ...]] = (
        "centre", "right", "left", "reserve", "artillery", "dragoons", "independent")
    COMMANDER_VALUES: ClassVar[range] = range(0, 3)
    TERRAIN_KINDS: ClassVar[frozenset[str]] = SHIPPED_TERRAIN
    ODDS_MEASURES: ClassVar[tuple[OddsMeasure, ...]] = HIT_MEASURES
    BASES: ClassVar[dict[UnitKind, tuple[float, float]]] = {
        UnitKind.FOOT: (4.0, 2.0),
        UnitKind.HORSE: (4.0, 2.0),
        UnitKind.DRAGOONS: (4.0, 2.0),
        UnitKind.COMMANDED_SHOT: (4.0, 2.0),
        UnitKind.ARTILLERY: (3.0, 2.0),
        UnitKind.COMMANDER: (2.0, 2.0),
    }
    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = vocabulary.ACTION_KINDS
    DECISION_KINDS: ClassVar[tuple[DecisionKind, ...]] = vocabulary.DECISION_KINDS
    PANELS: ClassVar[tuple[PanelKind, ...]] = vocabulary.PANELS
    AI = AiSpec(proposer="tertia.rulesets.larger_battles.ai.proposals:iter_proposals",
                doctrine="tertia.rulesets.larger_battles.ai.doctrine2:LargerBattlesDoctrine2",
                baseline="tertia.rulesets.larger_battles.ai.doctrine:LargerBattlesDoctrine")

    # --- set-up ------------------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> GameState:
        units: dict[str, Unit] = {}
        for c in scenario.commanders:
            w, d = self.base_size(UnitKind.COMMANDER)
            units[c.id] = Unit(
                id=c.id, side=c.side, kind=UnitKind.COMMANDER, command=c.command,
                x=c.x, y=c.y, facing=c.facing % 360.0, width=c.width or w, depth=c.depth or d,
                name=c.name, own=HitsPiece(general=c.general, value=c.value),
            )
        for s in scenario.units:
            kind = UnitKind(s.type)
            w, d = self.base_size(kind)
            units[s.id] = Unit(
                id=s.id, side=s.side, kind=kind, command=s.command, x=s.x, y=s.y,
                facing=s.facing % 360.0, width=s.width or w, depth=s.depth or d,
                name=s.name, traits=tuple(s.traits), own=NO_HITS,
            )
        supplies = tuple(
            Supply(id=sp.id or f"{sp.side}-supply-{i + 1}", side=sp.side, x=sp.x, y=sp.y, name=sp.name)
            for i, sp in enumerate(self.table_of(scenario).supplies)
        )
        objectives = tuple(
            Objective(name=o.name, x=o.x, y=o.y, radius=o.radius, side=o.side)
            for o in scenario.objectives
        )
        sides = scenario.side_ids
        return GameState(
            sides=sides, turn=0, active=sides[0], phase="setup", units=units,
            objectives=objectives,
            own=LargerBattlesData(
                supplies=supplies,
                turn_limit=scenario.turns,
                first=scenario.first,
                edges={s.id: s.edge for s in scenario.sides},
                objective_ends={o.name: o.ends_game for o in scenario.objectives},
            ),
        )

    def begin(self, tx: Tx) -> None:
        sequence.begin(tx, tx.state.value("first"))

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Organising Your Army and Supplies, checked on a scenario."""
        problems: list[tuple[str, str]] = []
        kinds: dict[tuple[str, str], set[str]] = {}
        for i, u in enumerate(scenario.units):
            where = f"units[{i}] {u.id!r}.command"
            word = profile(UnitKind(u.type)).word
            if u.type == "dragoons" and u.command != "dragoons":
                problems.append((where, f"dragoons belong to the dragoons command, not {u.command!r} "
                                        f"({clauses.ORGANISATION})"))
            elif u.type == "artillery" and u.command != "artillery":
                problems.append((where, f"artillery belongs to the artillery command, not "
                                        f"{u.command!r} ({clauses.ORGANISATION})"))
            elif u.command in COMMAND_TYPES:
                kinds.setdefault((u.side, u.command), set()).add(word)
            elif u.type not in ("dragoons", "artillery"):
                problems.append((where, f"{u.type} must be in the centre, a flank or the reserve, "
                                        f"not {u.command!r} ({clauses.ORGANISATION})"))
        for (side, command), words in sorted(kinds.items()):
            if len(words) > 1:
                problems.append((f"units (side {side!r}, command {command!r})",
                                 f"a command must be all infantry or all cavalry, not "
                                 f"{' and '.join(sorted(words))} ({clauses.ORGANISATION})"))
        leaders = {(c.side, c.command): c for c in scenario.commanders}
        for i, spec in enumerate(scenario.commanders):
            if not spec.general and spec.command not in COMMAND_TYPES:
                problems.append((f"commanders[{i}] {spec.id!r}.command",
                                 f"commanders are assigned to the flank, centre and reserve "
                                 f"commands, not {spec.command!r} ({clauses.UNASSIGNED})"))
        for i, u in enumerate(scenario.units):
            if u.command not in COMMAND_TYPES:
                continue
            c = leaders.get((u.side, u.command))
            if c is None:
                continue
            gap = base_distance(self._deployed_base(u), self._deployed_base(c))
            if gap > DEPLOY_RADIUS + 1e-6:
                problems.append((f"units[{i}] {u.id!r}",
                                 f"deployed {gap:.1f}\" from its commander {c.id!r}; units must "
                                 f"deploy within 12\" ({clauses.DEPLOYMENT})"))
        problems.extend(self._supply_problems(scenario))
        problems.extend(self._ground_problems(scenario))
        return problems

    def table_of(self, scenario: Scenario) -> LargerBattlesTable:
        """The scenario's ``[extensions."larger-battles"]`` table (empty when it has none)."""
        found = self.scenario_extension(scenario)
        return found if isinstance(found, LargerBattlesTable) else LargerBattlesTable()

    def _supply_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Supplies: each army's (at most three) bases along its own table edge, 12" apart,
        on the table."""
        problems: list[tuple[str, str]] = []
        by_side: dict[str, list[tuple[int, SupplySpec]]] = {}
        edges = {s.id: s.edge for s in scenario.sides}
        for i, s in enumerate(self.table_of(scenario).supplies):
            where = f"{SUPPLIES_TABLE}[{i}]" + (f" {s.id!r}" if s.id else "")
            if s.side not in edges:
                problems.append((f"{where}.side", f"unknown side {s.side!r}; known: {', '.join(edges)}"))
            elif not (0 <= s.x <= scenario.table.width and 0 <= s.y <= scenario.table.depth):
                problems.append((where, f"({s.x:g}, {s.y:g}) is off the {scenario.table.width:g}\" x "
                                        f"{scenario.table.depth:g}\" table"))
            else:
                by_side.setdefault(s.side, []).append((i, s))
        for side, items in by_side.items():
            if len(items) > 3:
                problems.append((f"{SUPPLIES_TABLE} (side {side!r})",
                                 f"an army has 3 supply bases, not {len(items)} ({clauses.SUPPLIES})"))
            for i, s in items:
                edge_y = 0.0 if edges.get(side) == "south" else scenario.table.depth
                if abs(s.y - edge_y) > SUPPLY_EDGE_DISTANCE:
                    problems.append((f"{SUPPLIES_TABLE}[{i}]", f"supply bases go along the army's own "
                                     f"table edge (within {SUPPLY_EDGE_DISTANCE:g}\"; y = {s.y:g}) "
                                     f"({clauses.SUPPLIES})"))
            for (i, s), (_, t) in ((a, b) for n, a in enumerate(items) for b in items[n + 1:]):
                if math.hypot(s.x - t.x, s.y - t.y) < SUPPLY_SPACING - 1e-6:
                    problems.append((f"{SUPPLIES_TABLE}[{i}]", f"supply bases must be 12\" apart "
                                     f"({clauses.SUPPLIES})"))
        return problems

    def _deployed_base(self, spec: UnitSpec | CommanderSpec) -> Base:
        """A scenario piece's base, the rule set's size unless the scenario gives one."""
        kind = UnitKind(spec.type) if isinstance(spec, UnitSpec) else UnitKind.COMMANDER
        w, d = self.base_size(kind)
        return Base(spec.x, spec.y, spec.facing, spec.width or w, spec.depth or d)

    def _ground_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Terrain 1, 4 and 6: no piece may stand in woods, marsh or a lake, or in a river
        away from a ford or bridge, so none may be deployed there either."""
        table = scenario.build_battlefield()
        pieces: list[tuple[str, UnitSpec | CommanderSpec]] = [
            *((f"commanders[{i}] {c.id!r}", c) for i, c in enumerate(scenario.commanders)),
            *((f"units[{i}] {u.id!r}", u) for i, u in enumerate(scenario.units)),
        ]
        problems: list[tuple[str, str]] = []
        for where, spec in pieces:
            corners = self._deployed_base(spec).corners()
            kind = ground_under(table, corners, IMPASSABLE)
            if kind is None:
                continue
            river = kind is TerrainKind.RIVER
            ground = "a river away from a ford or bridge" if river else str(kind)
            named = [f.name for f in table.features if f.kind is kind]
            names = [named[n] for n in table.features_overlapping(kind, corners) if named[n]]
            where_named = f" ({', '.join(names)})" if names else ""
            clause = clauses.RIVERS if river else IMPASSABLE[kind]
            problems.append((where, f"deployed in {ground}{where_named}, where no unit may "
                                    f"stand ({clause})"))
        return problems

    # --- play --------------------------------------------------------------------------------

    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        if state.is_over:
            return [Violation(CoreCode.GAME_OVER, "the battle is over", clauses.SEQUENCE)]
        if state.pending is not None:
            if isinstance(action, Encourage):
                return validate_encourage(state, action)
            return [self.awaited_first(state, clauses.COMBAT)]
        match action:
            case EndPhase():
                return unfought_problems(state)
            case GiveOrder():
                return validate_order(state, action)
            case Move():
                return self._unit_problems(state, (action.unit,)) or validate_move(
                    table, state, action, self.options)
            case Bombard():
                return self._unit_problems(state, (action.gun,), (action.target,)) or (
                    validate_bombard(table, state, action, self.options))
            case Attack() if state.is_marked(DECLARED, state.active):
                return validate_declared(state, action)
            case Attack():
                return self._declaration_problems(table, state, (action,))
            case DeclareAttacks():
                return self._declaration_problems(table, state, action.attacks)
            case Encourage():
                return validate_encourage(state, action)
        return [Violation(CoreCode.UNKNOWN_ACTION,
                          f"{type(action).__name__} is not an action of {self.id}", clauses.SEQUENCE)]

    def _declaration_problems(
        self, table: Battlefield, state: GameState, attacks: tuple[Attack, ...]
    ) -> list[Violation]:
        """All the phase's attacks together; a lone ``Attack`` declares just itself."""
        for a in attacks:
            problems = self._unit_problems(state, (a.attacker,), (a.target,))
            if problems:
                return problems
        return validate_declaration(table, state, attacks, self.options)

    @staticmethod
    def _unit_problems(
        state: GameState, own: tuple[str, ...], others: tuple[str, ...] = ()
    ) -> list[Violation]:
        return piece_problems(state, own, others, clauses.SEQUENCE)

    def resolve(self, tx: Tx, action: Action) -> None:
        match action:
            case EndPhase():
                sequence.end_phase(tx, self.options)
            case GiveOrder():
                key = order_key(tx.state, tx.state.active, action.target)
                assert key is not None
                tx.emit(OrderGiven(side=tx.state.active, target=key, purpose=action.purpose))
            case Move():
                resolve_move(tx, action, self.options)
                reassess(tx, self.options)
            case Bombard():
                resolve_bombard(tx, action)
                reassess(tx, self.options)
            case Attack():
                if not tx.state.is_marked(DECLARED, tx.state.active):
                    declare_attacks(tx, (action,), self.options)
                if find_declared(declared_attacks(tx.state), action) is not None:
                    make_attack(tx, action, self.options)
                settle(tx, self.options)
            case DeclareAttacks():
                declare_attacks(tx, action.attacks, self.options)
            case Encourage():
                resolve_encourage(tx, action, self.options)
                settle(tx, self.options)

    ACTION_WORDS: ClassVar[tuple[str, ...]] = ("melee", "bombard")
    SHOOT = "shoot"
    """Asked as under the D3 rule sets: a gun's shot is its bombardment; a unit's shooting is
    part of its melee (Combat), which the refusal says."""
    GUN_WORDS: ClassVar[tuple[str, ...]] = ("bombard",)
    NOT_FOR_GUNS: ClassVar[tuple[str, ...]] = ("melee",)
    """Guns bombard; they make no attack (Combat)."""
    QUERY_DETAILS: ClassVar[Mapping[str, str]] = {
        "supports": "the supporting units",
        "commander": "the attacker's encouraging commander",
        "defender_commander": "the defender's encouraging commander",
    }

    def query_responses(self, state: GameState, details: Mapping[str, Any]) -> list[Action] | None:
        """A ``defender_commander`` named in the question encourages the defence."""
        if details.get("defender_commander") is None:
            return None
        return [Encourage(commander=str(details["defender_commander"]))]

    def query(
        self,
        state: GameState,
        word: str | None,
        attacker: str,
        target: str,
        details: Mapping[str, Any] | None = None,
    ) -> tuple[GameState, Action]:
        """``melee`` is the combined shooting-and-melee combat; for a gun ``shoot`` and
        ``bombard`` mean the same. Mid-way through the attacker's player turn (a game
        record), the turn's marks stay: see :meth:`_ready`."""
        given = dict(details or {})
        unknown = sorted(set(given) - set(self.QUERY_DETAILS))
        if unknown:
            raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION, f"an attack has no {unknown[0]!r}; "
                                           f"it takes {', '.join(self.QUERY_DETAILS)}", clauses.COMBAT)])
        supports = tuple(given.get("supports") or ())
        commander = given.get("commander")
        problems = self._unit_problems(state, (), (attacker, target))
        if problems:
            raise IllegalAction(problems)
        unit = state.units[attacker]
        is_gun = unit.kind is UnitKind.ARTILLERY
        word = word or ("bombard" if is_gun else "melee")
        if word not in (*self.ACTION_WORDS, self.SHOOT):
            raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION,
                                           f"{self.title} has no action {word!r}; its actions: "
                                           f"{', '.join(self.ACTION_WORDS)}", clauses.SEQUENCE)])
        if word in (self.SHOOT, "bombard") and is_gun:
            ready = self._ready(state, unit.side, "bombardment")
            if not is_ordered(ready, unit, "bombard") and orders_left(ready) > 0:
                ready = ready.evolve(marks={
                    **ready.marks,
                    "ordered_bombard": (*ready.marked("ordered_bombard"), unit.id),
                    "orders": (*ready.marked("orders"), unit.id),
                })
            return ready, Bombard(gun=attacker, target=target)
        if word == "bombard":
            raise IllegalAction([Violation(CoreCode.CANNOT_ACT, f"{unit.label} is not artillery",
                                           clauses.BOMBARDMENT)])
        if word == self.SHOOT:
            raise IllegalAction([Violation(
                CoreCode.CANNOT_ACT,
                f"{self.title} combines shooting and melee in one combat phase: ask for melee",
                clauses.COMBAT)])
        ready = self._ready(state, unit.side, "combat")
        return ready, Attack(attacker=attacker, target=target, supports=supports, commander=commander)

    def _ready(self, state: GameState, side: str, phase: str) -> GameState:
        """The position readied for an action of ``side`` in ``phase``. In ``side``'s own
        player turn, with that phase not yet past, the turn goes on: its marks stay (who has
        moved, fought, supported, encouraged or bombarded, the orders given), so the answer
        is what the game itself would allow. Otherwise it is ``side``'s next player turn,
        with nothing yet done in it."""
        ongoing = (
            state.active == side and state.phase in sequence.PHASES and not state.is_over
            and sequence.PHASES.index(state.phase) <= sequence.PHASES.index(phase)
        )
        if ongoing and state.pending is not None:
            raise IllegalAction([self.awaited_first(state, clauses.COMBAT)])
        marks = dict(state.marks) if ongoing else {}
        return state.evolve(phase=phase, active=side, decisions=(), result=None, marks=marks)

    def default_responses(self, state: GameState) -> list[Action]:
        """A pending defence is answered, by default, with no defending commander."""
        if state.pending is not None and state.pending.get("kind") == "encourage":
            return [Encourage(commander=None)]
        return []

    # --- reports -----------------------------------------------------------------------------

    def measure_move(
        self, table: Battlefield, state: GameState, action: Action
    ) -> dict[str, Any] | None:
        """The move's length against its allowance (Movement, Roads, Turning, Hills)."""
        if not isinstance(action, Move) or action.unit not in state.units:
            return None
        plan = plan_move(state.units[action.unit], action)
        limit, rule = allowance(table, state, plan, self.options)
        return {"length": plan.length, "allowance": limit, "rule": rule}

    def presentation(self) -> LargerBattlesPresentation:
        return LargerBattlesPresentation(self)
