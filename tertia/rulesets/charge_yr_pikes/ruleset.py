"""Charge yr Pikes! (Jackson Gamers, Jay Stribling; 5th edition 1986, revised 2003): the
rule set. Under construction: the movement phase plays (cards, command response, moves
and formation changes); fire, close combat, morale and the army phases are written in
their own modules and joined to the sequence as they are finished."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tertia.core.actions import Action, EndPhase, Move
from tertia.core.ai_spec import AiSpec
from tertia.core.dice import D6
from tertia.core.events import DecisionMade, Event, UnitFormed, UnitMoved
from tertia.core.geometry import Polygon, base_distance, is_within
from tertia.core.ruleset import OddsMeasure, OddsParty, OptionSpec, RuleSet, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import (
    CoreCode,
    IllegalAction,
    Violation,
    no_piece_of,
    side_named,
    side_whose,
)
from tertia.core.vocabulary import ActionKind, DecisionKind, PanelKind
from tertia.rules.codes import MovementCode
from tertia.rules.fighting import no_target
from tertia.rules.formations import reformed_centre
from tertia.rules.involuntary import on_table, placed_on_table, stands_on
from tertia.rules.movement import (
    MovePlan,
    iter_passing_violations,
    iter_room_violations,
    iter_table_violations,
    plan_move,
)
from tertia.rulesets.charge_yr_pikes import (  # noqa: F401  (narration: the log's sentences)
    artillery,
    attached,
    bonus,
    commanded,
    concealment,
    disorder,
    dragoons,
    front_rank,
    movement,
    musketry,
    narration,
    observation,
    odds,
    phases,
    plunder,
    points,
    reaction,
    reports,
    secret_grades,
    sequence,
    shove,
    vocabulary,
)
from tertia.rulesets.charge_yr_pikes.actions import (
    FIRE_KINDS,
    FREE_MOVE,
    Breakthrough,
    Charge,
    FireOrder,
    GiveFreeMove,
    JoinFrontRank,
    LeaveFrontRank,
    MoraleToMove,
    Mount,
    Reform,
    TurnToMeet,
)
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers
from tertia.rulesets.charge_yr_pikes.cards import tertia_label_in, tertias
from tertia.rulesets.charge_yr_pikes.charge import charge_fatigue
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path, charge_swept
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.concealment import Deploy, DeploymentDone
from tertia.rulesets.charge_yr_pikes.data import COLUMN, DEPLOYED, LINE, SQUARE, UNSEEN, CypGame, CypUnit
from tertia.rulesets.charge_yr_pikes.deployment import TERTIA_SPAN, deployment_problems
from tertia.rulesets.charge_yr_pikes.events import ChargeMade, FireOrdered, MovedOnCard, change
from tertia.rulesets.charge_yr_pikes.facing import is_flank_or_rear
from tertia.rulesets.charge_yr_pikes.layout import StandSize, footprint_of
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.charge_yr_pikes.setup import pieces, undetached
from tertia.rulesets.charge_yr_pikes.tables import Tables, TablesError, tables_of, tables_with
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.rulesets.charge_yr_pikes.victory import CUT_BACK

MOVEMENT_RULE = "Movement 5"
FORMATIONS_RULE = "Formations 3"


def _no_tertia_to_move(state: GameState, tertia: str) -> str:
    """Why ``tertia`` is no tertia of the side to act that may take the free move, in words:
    by its card's name (the order of battle, which both sides know), the other side's or
    with no unit in play to move; an id no tertia has as it was typed."""
    side = state.to_act
    own = tertia_label_in(state, tertia, side)
    if own is not None:
        return f"{own} has no unit in play to move"
    foe = tertia_label_in(state, tertia, state.opponent(side))
    if foe is not None:
        return f"{foe} is {side_whose(state.opponent(side))}, not {side_whose(side)}"
    return f"no tertia {tertia!r} of {side_named(side)} to move"


class ChargeYrPikes(RuleSet):
    id: ClassVar[str] = "charge-yr-pikes"
    title: ClassVar[str] = "Charge yr Pikes! (Jackson Gamers, 5th edition 1986, revised 2003)"
    short_title: ClassVar[str] = vocabulary.TITLE
    version: ClassVar[str] = "1.6"
    GAME_DATA = CypGame
    SCENARIO_EXTENSION = PikesTable
    AI = AiSpec(proposer="tertia.rulesets.charge_yr_pikes.ai.proposals:iter_proposals",
                doctrine="tertia.rulesets.charge_yr_pikes.ai.doctrine2:CypDoctrine2",
                baseline="tertia.rulesets.charge_yr_pikes.ai.doctrine:CypDoctrine")
    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = vocabulary.ACTION_KINDS
    _ACTION_TYPES: ClassVar[frozenset[str]] = frozenset(k.type for k in vocabulary.ACTION_KINDS)
    DECISION_KINDS: ClassVar[tuple[DecisionKind, ...]] = vocabulary.DECISION_KINDS
    PANELS: ClassVar[tuple[PanelKind, ...]] = vocabulary.PANELS
    LEAST_SCORE: ClassVar[float | None] = 0.0
    """A side's score is the enemy's casualties in figures (``victory``)."""
    TERRAIN_KINDS: ClassVar[frozenset[str]] = frozenset(TerrainKind)
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("officer_grades", True, "section 22: each officer's value (Ineffective, Effective, "
                   "Natural Born Leader) is rolled by rank at the start; off, officers command, "
                   "rally and fight by their rank's line of the tables"),
        OptionSpec("secret_deployment", True, "Set-up D, Sequence of play B: the armies deploy in secret "
                   "before the first turn, and pieces the enemy cannot see stay hidden until seen; off, "
                   "the battle starts from the scenario's positions with every piece on the table"),
    )

    # --- set-up --------------------------------------------------------------------------

    def table_of(self, scenario: Scenario) -> PikesTable:
        found = self.scenario_extension(scenario)
        return found if isinstance(found, PikesTable) else PikesTable()

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """The table names pieces the scenario has, and its replacement tables fit."""
        table = self.table_of(scenario)
        units = {u.id for u in scenario.units}
        commanders = {c.id for c in scenario.commanders}
        where = f"extensions.{self.id}"
        problems: list[tuple[str, str]] = []
        for i, r in enumerate(table.regiments):
            if r.unit not in units:
                problems.append((f"{where}.regiments[{i}].unit", f"no unit {r.unit!r} in the scenario"))
        for i, o in enumerate(table.officers):
            if o.commander not in commanders:
                problems.append((f"{where}.officers[{i}].commander",
                                 f"no commander {o.commander!r} in the scenario"))
            elif o.attached_to is not None and o.attached_to not in units:
                problems.append((f"{where}.officers[{i}].attached_to", f"no unit {o.attached_to!r}"))
        problems.extend(commanded.detachment_problems(table, where, undetached(scenario, table)))
        try:
            tables_with(table.tables)
        except TablesError as e:
            problems.append((f"{where}.{str(e).split(':', 1)[0]}", str(e).split(": ", 1)[1]))
        if not problems:
            problems.extend(points.scenario_problems(scenario, table, tables_with(table.tables)))
            problems.extend(deployment_problems(scenario.build_battlefield(), self.initial_state(scenario)))
        return problems

    def piece_size(self, scenario: Scenario, piece_id: str, kind: UnitKind) -> tuple[float, float]:
        placed = self._pieces_of(scenario)[piece_id]
        return placed.width, placed.depth

    def _pieces_of(self, scenario: Scenario) -> dict[str, Unit]:
        """The scenario's pieces as set up, worked out once for all the pieces a scenario
        check sizes one by one."""
        kept: tuple[Scenario, dict[str, Unit]] | None = getattr(self, "_placed", None)
        if kept is None or kept[0] is not scenario:
            kept = (scenario, pieces(scenario, self.table_of(scenario)))
            self._placed = kept
        return kept[1]

    def initial_state(self, scenario: Scenario) -> GameState:
        table = self.table_of(scenario)
        objectives = tuple(Objective(o.name, o.x, o.y, o.radius, o.side) for o in scenario.objectives)
        wings = {o.commander: tuple(o.commands) for o in table.officers if o.commands}
        tables = tables_with(table.tables)
        return GameState(sides=scenario.side_ids, turn=0, active=scenario.side_ids[0], phase="setup",
                         units=pieces(scenario, table), objectives=objectives,
                         own=CypGame(turn_limit=tables.victory.turns_before_darkness,
                                     tables=dict(table.tables), wings=wings,
                                     edges={s.id: s.edge for s in scenario.sides},
                                     points=points.points_entry(table), year=table.year))

    def begin(self, tx: Tx) -> None:
        before, mark = tx.state, len(tx.events)
        sequence.begin(tx, tables_of(tx.state), self.options)
        concealment.after_action(tx, tables_of(tx.state), before, mark)

    # --- what a player is shown ----------------------------------------------------------

    def presentation(self) -> reports.CypPresentation:
        return reports.CypPresentation(self)

    # --- legality --------------------------------------------------------------------------

    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        if state.is_over:
            return [Violation(CoreCode.GAME_OVER, "the battle is over", "Sequence of play 3")]
        state = concealment.as_seen_by(state, state.to_act)  # judged on what the side may see
        if isinstance(action, odds.Question):
            return self._question_problems(table, state, action)
        if concealment.deploying(state) is not None or isinstance(action, Deploy | DeploymentDone):
            return concealment.deploy_problems(table, state, action)
        if action.type not in self._ACTION_TYPES:
            return [Violation(CoreCode.UNKNOWN_ACTION, f"{self.named()} has no action {action.type!r}",
                              "Sequence of play 3")]
        pending = state.pending
        if pending is not None and pending.kind == FREE_MOVE:
            if not isinstance(action, GiveFreeMove):
                return [Violation(CoreCode.WRONG_PHASE, "the commander-in-chief must first name the "
                                  "tertia that takes the free move", "Sequence of play 3 A")]
            if action.tertia not in tertias(state, state.to_act):
                return [Violation(CypCode.NOT_MOVING, _no_tertia_to_move(state, action.tertia),
                                  "Sequence of play 3 A")]
            return []
        if isinstance(action, GiveFreeMove):
            return [Violation(CoreCode.WRONG_PHASE, "no free move card is in play", "Sequence of play 3 A")]
        if game_data(state).step == bonus.BONUS_MOVES:
            return self._bonus_problems(table, state, action)
        if game_data(state).step is not None:
            return self._order_problems(table, state, action)
        if isinstance(action, FireOrder):
            return [Violation(CoreCode.WRONG_PHASE, "fire orders are given in the fire steps",
                              "Sequence of play 3 C-E")]
        if isinstance(action, EndPhase):
            return [] if game_data(state).card is not None else [
                Violation(CypCode.NO_CARD, "no card is in play", "Sequence of play 3 A")]
        if isinstance(action, JoinFrontRank | LeaveFrontRank):
            return front_rank.problems(state, action)
        if isinstance(action, Move | Reform | Charge | Mount | MoraleToMove | TurnToMeet):
            unit = state.units.get(action.unit)
            if unit is None or not unit.in_play or unit.side != state.active:
                return [Violation(CoreCode.UNKNOWN_UNIT,
                                  no_piece_of(state, action.unit, state.active, unseen=UNSEEN),
                                  MOVEMENT_RULE)]
            if unit.id not in game_data(state).moving:
                return [Violation(CypCode.NOT_MOVING, f"{unit.label} may not move on this card "
                                  "(not on it, or it failed its command response)", f"{MOVEMENT_RULE} A")]
            charged = reaction.problems(table, state, unit, action)
            if charged or isinstance(action, MoraleToMove | TurnToMeet):
                return charged
            if isinstance(action, Move):
                return self._move_problems(table, state, unit, action)
            if isinstance(action, Charge):
                return self._charge_problems(table, state, unit, action.target)
            if isinstance(action, Mount):
                return self._mount_problems(table, state, unit, action.mounted)
            return self._reform_problems(table, state, unit, action.formation)
        return [Violation(CoreCode.WRONG_PHASE, f"{action.type} is not an action of this rule set now",
                          "Sequence of play 3")]

    def _bonus_problems(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        """Sequence I: bonus moves and breakthroughs (:mod:`.bonus`), each then judged as a
        move or a charge."""
        found = bonus.problems(table, state, action, tables_of(state))
        if found or not isinstance(action, Move | Breakthrough):
            return found
        unit = state.units[action.unit]
        if isinstance(action, Move):
            return self._move_problems(table, state, unit, action)
        return self._charge_problems(table, state, unit, action.target)

    def _order_problems(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        """In a fire step a side gives fire orders, then ends them (``EndPhase``)."""
        step = game_data(state).step or ""
        rule = "Sequence of play 3 C-E"
        if isinstance(action, EndPhase):
            return []
        if not isinstance(action, FireOrder):
            return [Violation(CoreCode.WRONG_PHASE,
                              f"only fire orders are given now ({step.replace('_', ' ')})", rule)]
        named = state.units[action.unit].label if action.unit in state.units else repr(action.unit)
        if not phases.is_shooter(state, action.unit, step):
            return [Violation(CoreCode.CANNOT_ACT, f"{named} may not fire in this step", rule)]
        if any(o[0] == action.unit for o in game_data(state).orders):
            return [Violation(CoreCode.ALREADY_ACTED, f"{named} has its order already", rule)]
        if action.kind not in FIRE_KINDS:
            return [Violation(CoreCode.CANNOT_ACT,
                              f"no kind of fire {action.kind!r} ({', '.join(FIRE_KINDS)})", rule)]
        own = unit_data(state.units[action.unit])
        tables = tables_of(state)
        if own.gun == "galloper":
            if action.kind != "galloper":
                return [Violation(CoreCode.CANNOT_ACT, "a galloper gun fires as a galloper", rule)]
            return musketry.galloper_problems(table, state, action.unit, action.target, tables,
                                              phases.galloper_aim(state, action.unit))
        if own.is_gun:
            if action.kind not in ("ball", "canister"):
                return [Violation(CoreCode.CANNOT_ACT, "a gun fires ball or canister", rule)]
            return artillery.artillery_problems(table, state, action.unit, action.target, action.kind, tables)
        if action.kind != "musket":
            return [Violation(CoreCode.CANNOT_ACT, f"{named} fires muskets", rule)]
        if own.troop == "dragoons" and not dragoons.may_act(own):
            return [Violation(CoreCode.ALREADY_ACTED, f"{named} have done what dragoons may this "
                              "turn (two of mount or dismount, move, fire)", "Dragoons 18")]
        return musketry.musketry_problems(table, state, action.unit, action.target, tables)

    def _move_problems(self, table: Battlefield, state: GameState, unit: Unit, action: Move
                       ) -> list[Violation]:
        own = unit_data(unit)
        if unit.id in game_data(state).moved_on_card or unit.id in game_data(state).reformed:
            return [Violation(CypCode.ALREADY_MOVED, f"{unit.label} has already moved on this card",
                              MOVEMENT_RULE)]
        led = state.units.get(own.attached_to or "") if own.is_officer else None
        if led is not None:
            return [Violation(CypCode.IN_FRONT_RANK, f"{unit.label} is in the front rank of {led.label} "
                              "and moves with it", "Close combat A")]
        bonus_move = game_data(state).step == bonus.BONUS_MOVES  # 12 I: a move of its own
        if own.troop == "dragoons" and not dragoons.may_act(own) and not bonus_move:
            return [Violation(CoreCode.ALREADY_ACTED, f"{unit.label} have done what dragoons may this "
                              "turn (two of mount or dismount, move, fire)", "Dragoons 18")]
        plan = plan_move(unit, action)
        if own.gun_fired and plan.length > 1e-9:
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} has fired: its horses and limbers have "
                              "gone to the rear and it may only pivot", "Artillery 9")]
        tables = tables_of(state)
        on_road = own.formation == COLUMN and table.path_on_road(plan.points)
        inches = movement.allowance(tables, own, on_road=on_road)
        if inches is None:
            return [Violation(CypCode.NO_SUCH_MOVE, f"{unit.label} has no move in {own.formation}",
                              f"{MOVEMENT_RULE}, movement table")]
        costs = movement.ground_costs(table, tables, own, plan)
        if costs.barred is not None:
            return [Violation(MovementCode.IMPASSABLE, f"{unit.label} cannot enter the {costs.barred}",
                              "Terrain 16")]
        measured = movement.measured_length(plan, own.formation)
        if measured + costs.inches > inches + 1e-6:
            extra = f" less {costs.inches}\" for the ground" if costs.inches else ""
            return [Violation(CypCode.TOO_FAR, f"{unit.label} may move {inches:g}\"{extra}, not "
                              f"{measured:.1f}\" (measured from {_measured_from(own.formation)})",
                              f"{MOVEMENT_RULE} B")]
        crossed = _not_in_the_way(state, unit)
        problems = [*iter_table_violations(table, plan, MOVEMENT_RULE),
                    *iter_passing_violations(state, plan, f"{FORMATIONS_RULE} C", crossed)]
        if problems:
            return problems[:1]
        if own.gun == "galloper":
            led = state.units.get(own.attached_to or "")
            if led is not None and not attached.touches(led.base, plan.end):
                return [Violation(CypCode.GALLOPER_APART, f"{unit.label} must end touching {led.label}, "
                                  "the unit it is attached to", "Artillery: galloper guns")]
        size = (table.width, table.depth)
        router = shove.without_room(state, unit, plan.end, [plan.end.corners()], size)
        if router is not None:
            return [Violation(MovementCode.COLLISION, f"{unit.label} would end on {router.label}, with no "
                              "room to shove it aside", "Routing 15 A")]
        return _tertia_problems(state, unit, plan)

    def _charge_problems(self, table: Battlefield, state: GameState, unit: Unit, target_id: str
                         ) -> list[Violation]:
        rule = "Close combat 12 A"
        if unit.id in game_data(state).moved_on_card or unit.id in game_data(state).reformed:
            return [Violation(CypCode.ALREADY_MOVED, f"{unit.label} has already moved on this card", rule)]
        own = unit_data(unit)
        if own.is_officer or own.is_gun or own.troop == "wagons":
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} does not charge", rule)]
        if not plunder.may_charge(state, unit.id):
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} came back from plundering this turn and "
                              "may not attack into close combat", "Baggage plunder D")]
        if own.troop == "dragoons" and own.acts and game_data(state).step != bonus.BONUS_MOVES:
            return [Violation(CoreCode.ALREADY_ACTED, f"{unit.label} have acted this turn: a charge "
                              "occupies the entire turn", "Dragoons 18 A")]
        absent = no_target(state, target_id, unit, rule, UNSEEN)
        if absent:
            return absent
        target = state.units[target_id]
        if unit_data(target).is_officer:
            return [Violation(CoreCode.UNKNOWN_UNIT, f"{target.label} is an officer, no unit to charge",
                              rule)]
        if own.troop == "dragoons" and own.mounted and not unit_data(target).routed and \
                not is_flank_or_rear(unit.base, target.base, all_round=unit_data(target).formation == SQUARE):
            return [Violation(CoreCode.CANNOT_ACT, f"mounted dragoons charge only the flank or rear of "
                              f"{target.label}, or a routed unit", "Dragoons 18 C")]
        path = charge_path(table, state, unit, target)
        if path.blocked_by is not None:
            return [Violation(MovementCode.COLLISION, f"{path.blocked_by} is in the way of "
                              f"{unit.label}'s charge at {target.label}", rule)]
        if path.off_table:
            return [Violation(MovementCode.OFF_TABLE, f"{unit.label} would charge {target.label} partly "
                              "off the table", rule)]
        swept = charge_swept(unit, path)
        router = shove.without_room(state, unit, swept.end, swept.swept(), (table.width, table.depth))
        if router is not None:
            return [Violation(MovementCode.COLLISION, f"{router.label} is in the way of {unit.label}'s "
                              "charge, with no room to shove it aside", "Routing 15 A")]
        return []

    def _mount_problems(self, table: Battlefield, state: GameState, unit: Unit, mounted: bool
                        ) -> list[Violation]:
        rule = "Dragoons 18"
        own = unit_data(unit)
        if own.troop != "dragoons":
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} are no dragoons", rule)]
        if own.mounted == mounted:
            return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} are already "
                              f"{'mounted' if mounted else 'on foot'}", rule)]
        if own.remounted or not dragoons.may_act(own):
            return [Violation(CoreCode.ALREADY_ACTED, f"{unit.label} have done what dragoons may this "
                              "turn (two of mount or dismount, move, fire; not one twice)", rule)]
        placed = dragoons.remounted(unit, mounted)
        led = set(attached.sharing_fate(state, unit.id))
        return list(iter_room_violations(table, state, placed, rule, led))

    def _reform_problems(self, table: Battlefield, state: GameState, unit: Unit, formation: str
                         ) -> list[Violation]:
        own = unit_data(unit)
        rule = f"{FORMATIONS_RULE} A, B"
        if unit.id in game_data(state).reformed:
            return [Violation(CypCode.ALREADY_REFORMED, f"{unit.label} has already changed formation "
                              "on this card", rule)]
        if formation == own.formation:
            return [Violation(CypCode.SAME_FORMATION, f"{unit.label} is already in {formation}", rule)]
        allowed = _formations_for(table, tables_of(state), unit)
        if formation not in allowed:
            return [Violation(CypCode.FORMATION_NOT_ALLOWED, f"{unit.label} may not form {formation} "
                              f"(it may form {', '.join(allowed) or 'nothing else'})", rule)]
        placed = reformed(state, unit, formation)
        led = set(attached.sharing_fate(state, unit.id))
        return list(iter_room_violations(table, state, placed, rule, led))

    # --- what each side may see ------------------------------------------------------------

    def observed_state(self, table: Battlefield, state: GameState, side: str) -> GameState:
        return observation.observed(table, state, side)

    def sample_hidden(self, table: Battlefield, observation_: GameState, side: str, rng: random.Random
                      ) -> GameState:
        return observation.sampled(table, observation_, side, rng)

    def playable_state(self, table: Battlefield, state: GameState, side: str, seed: int) -> GameState:
        return observation.playable(table, state, side, seed)

    HIDDEN_NEVER_JUDGED: ClassVar[bool] = True
    """:meth:`validate` judges the side to act's actions on what it may see
    (:func:`~.concealment.as_seen_by`), and reads none of what its playable state
    changes besides (:mod:`.observation`): the enemy's pieces not placed come off the table
    there, alike from the position and from the sample (their order of battle kept, the
    rest as a piece fresh on the table), so that only their officers' values differ; an
    officer's value (section 22) is read only by the rolls it is called on for (command
    response, morale, close combat, plunder), never in judging an action; the game's notes
    of hidden pieces (moving on the card, moved, reformed, places) are read only for the
    acting piece, which is in play and so not hidden from its side; the other side's fire
    orders are not read, only whether the acting unit has its own (the side giving orders
    is the side to act). An odds question is left out: it is asked only of a position
    readied for it, which no player plays on (one naming a hidden piece is refused on
    both, if for different reasons). ``tests/test_judged_alike.py`` holds every action
    the doctrine tries in whole battles to it."""

    def event_visible_to(self, event: Event, side: str) -> bool:
        return observation.visible_to(event, side)

    def may_reveal(self, table: Battlefield, state: GameState, side: str) -> bool:
        """While any enemy piece is hidden from ``side`` (its view shows which are), any
        action of its may place one, or show by placing none that none is near: the
        action may not be taken back (an officer's value is shown only with a die, which
        closes the history anyway)."""
        return bool(concealment.hidden_from(state, side))

    # --- odds --------------------------------------------------------------------------------

    ACTION_WORDS: ClassVar[tuple[str, ...]] = odds.WORDS
    GUN_WORDS: ClassVar[tuple[str, ...]] = odds.GUN_WORDS
    ALONE_WORDS: ClassVar[tuple[str, ...]] = (odds.MORALE,)
    ODDS_MEASURES: ClassVar[tuple[OddsMeasure, ...]] = odds.MEASURES

    def odds_parties(self, action: Action) -> tuple[OddsParty, ...]:
        """A morale test (11) is the unit's alone: the enemy it faces loses nothing by it."""
        if isinstance(action, odds.Question) and action.word == odds.MORALE:
            return ("attacker",)
        return super().odds_parties(action)

    def query(self, state: GameState, word: str | None, attacker: str, target: str,
              details: Mapping[str, Any] | None = None) -> tuple[GameState, Action]:
        """``fire`` (``ball``, ``canister``) is the attacker's fire worked out at its fire
        step, ``charge`` its charge and the close combat, ``morale`` its morale test; the
        position is readied for the question (:func:`~tertia.rulesets.charge_yr_pikes.odds.ready`).
        It takes no particulars. Asked of a side's observation, an enemy officer's value it
        cannot see is a die still to roll, so the odds average over it
        (:func:`~tertia.rulesets.charge_yr_pikes.secret_grades.as_dice`), and an enemy
        piece it cannot see is off the table, as when its actions are judged
        (:func:`~tertia.rulesets.charge_yr_pikes.concealment.unseen_off_table`)."""
        if details:
            raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION, f"an odds question under {self.named()} "
                                           f"takes no {sorted(details)[0]!r}", odds.RULE)])
        seen = secret_grades.as_dice(concealment.unseen_off_table(state))
        return odds.ready(seen, word, attacker, target, tables_of(state))

    def odds_effects(self, before: GameState, after: GameState, events: Sequence[Event]
                     ) -> dict[str, dict[str, Any]]:
        return odds.effects(before, after, events)

    def describe_effects(self, state: GameState, effects: Mapping[str, Mapping[str, Any]]) -> str | None:
        return odds.describe(state, effects)

    def _question_problems(self, table: Battlefield, state: GameState, question: odds.Question
                           ) -> list[Violation]:
        """An odds question is asked only of a position readied for it; there the action it
        stands for must be one the rules allow."""
        if not odds.asked(state, question):
            return [Violation(CoreCode.UNKNOWN_ACTION, f"{question.type} is asked only of a position "
                              "readied for it (an odds query)", odds.RULE)]
        unit, target = state.units.get(question.unit), state.units.get(question.target)
        if unit is None or target is None or not unit.in_play or not target.in_play:
            return [Violation(CoreCode.UNKNOWN_UNIT, "no such unit in play", odds.RULE)]
        if question.word == odds.MORALE:
            if unit_data(unit).is_officer:
                return [Violation(CoreCode.CANNOT_ACT, f"{unit.label} is an officer: officers take no "
                                  "morale tests", "Morale 11")]
            return []
        if question.word == odds.CHARGE:
            if odds.made(state, unit.id, target.id):
                return []
            return self._charge_problems(table, state, unit, target.id)
        unordered = state.evolve(own=game_data(state).evolve(orders=()))
        return self._order_problems(table, unordered, FireOrder(unit.id, target.id, question.kind))

    def _answer(self, tx: Tx, tables: Tables, question: odds.Question) -> None:
        if question.word == odds.MORALE:
            odds.morale(tx, tables, question)
        elif question.word == odds.CHARGE:
            if not odds.made(tx.state, question.unit, question.target):
                self._charge(tx, tables, Charge(unit=question.unit, target=question.target))
            odds.close_combat(tx, tables, self.options)
        else:
            odds.fire(tx, tables)

    # --- resolution ------------------------------------------------------------------------

    def resolve(self, tx: Tx, action: Action) -> None:
        before, mark = tx.state, len(tx.events)
        self._resolve(tx, action)
        concealment.after_action(tx, tables_of(tx.state), before, mark)

    def _resolve(self, tx: Tx, action: Action) -> None:
        tables = tables_of(tx.state)
        if isinstance(action, odds.Question):
            self._answer(tx, tables, action)
            return
        if isinstance(action, Deploy):
            concealment.deploy(tx, action)
            return
        if isinstance(action, DeploymentDone):
            if concealment.deployment_done(tx, tables):
                sequence.start_turn(tx, tables, 1, self.options)
            return
        if isinstance(action, FireOrder | Move | Reform | Mount | Charge | Breakthrough):
            what = "fire" if isinstance(action, FireOrder) else \
                "charge" if isinstance(action, Charge | Breakthrough) else "move"
            concealment.place_to_act(tx, tables, action.unit, what)
        elif isinstance(action, JoinFrontRank | LeaveFrontRank):
            concealment.place_to_act(tx, tables, action.officer, "move")
        if game_data(tx.state).step == bonus.BONUS_MOVES:
            self._bonus(tx, tables, action)
            return
        if game_data(tx.state).step is not None:
            if isinstance(action, FireOrder):
                tx.emit(FireOrdered(unit=action.unit, target=action.target, kind=action.kind,
                                    side=tx.state.units[action.unit].side))
            elif isinstance(action, EndPhase):
                phases.orders_done(tx, tables, self.options)
                if game_data(tx.state).step is None:  # the turn's later phases are over
                    sequence.next_turn(tx, tables, self.options)
            return
        if isinstance(action, GiveFreeMove):
            card = game_data(tx.state).card or ""
            side = tx.state.to_act
            tx.emit(DecisionMade(side=side, kind=FREE_MOVE, choice=action.tertia))
            sequence.respond_for(tx, tables, card, action.tertia,
                                 [u for u in tx.state.iter_troops(side) if u.command == action.tertia
                                  and not unit_data(u).is_gun], graded=bool(self.option("officer_grades")))
            if not game_data(tx.state).moving:
                sequence.end_card(tx, tables, self.options)
        elif isinstance(action, Move):
            start = (tx.state.units[action.unit].x, tx.state.units[action.unit].y)
            self._move(tx, tables, action)
            reaction.after_move(tx, action.unit, start)
        elif isinstance(action, MoraleToMove):
            reaction.test_to_move(tx, tables, action.unit, action.purpose)
        elif isinstance(action, TurnToMeet):
            reaction.turn(tx, action.unit, action.attacker)
        elif isinstance(action, Reform):
            before = tx.state.units[action.unit].base
            placed = reformed(tx.state, tx.state.units[action.unit], action.formation)
            tx.emit(UnitFormed(unit=placed.id, formation=action.formation, x=placed.x, y=placed.y,
                               width=placed.width, depth=placed.depth))
            attached.keep_gallopers(tx, placed.id, before)
            tx.emit(MovedOnCard(unit=placed.id, moved=False))
        elif isinstance(action, Charge):
            self._charge(tx, tables, action)
        elif isinstance(action, Mount):
            before = tx.state.units[action.unit].base
            placed = dragoons.remounted(tx.state.units[action.unit], action.mounted)
            tx.emit(UnitFormed(unit=placed.id, formation=unit_data(placed).formation, x=placed.x,
                               y=placed.y, width=placed.width, depth=placed.depth))
            attached.keep_gallopers(tx, placed.id, before)
            new = unit_data(placed)
            change(tx, placed.id, "mount" if action.mounted else "dismount", mounted=new.mounted,
                   men=new.men, holders=new.holders, per_stand=new.per_stand, stand_width=new.stand_width,
                   stand_depth=new.stand_depth, other_stand=new.other_stand, remounted=True,
                   moved=True, acts=new.acts)
        elif isinstance(action, JoinFrontRank | LeaveFrontRank):
            front_rank.apply(tx, action)
        elif isinstance(action, EndPhase):
            sequence.end_card(tx, tables, self.options)

    def _bonus(self, tx: Tx, tables: Tables, action: Action) -> None:
        """Sequence I: a bonus move or breakthrough (12 I, J), or the end of a side's
        bonus orders."""
        if isinstance(action, EndPhase):
            phases.bonus_done(tx, tables, self.options)
            if game_data(tx.state).step is None and not tx.state.is_over:
                sequence.next_turn(tx, tables, self.options)
            return
        if isinstance(action, Move):
            self._move(tx, tables, action)
        elif isinstance(action, Breakthrough):
            self._charge(tx, tables, Charge(unit=action.unit, target=action.target))
        else:
            return
        tx.emit(bonus.BonusSpent(units=(action.unit,)))

    def _charge(self, tx: Tx, tables: Tables, action: Charge) -> None:
        unit, target = tx.state.units[action.unit], tx.state.units[action.target]
        # Laid out on what the side sees: troops hidden in the way stop it short (below).
        path = charge_path(tx.table, concealment.as_seen_by(tx.state, unit.side), unit, target)
        reach = movement.charge_allowance(tables, unit_data(unit))
        full = ((unit.x, unit.y), path.end)
        points = concealment.stop_short(tx, unit, full, path.heading)
        if points != full:  # stopped by troops hidden in its way: a move, no charge made
            tx.emit(UnitMoved(unit=unit.id, path=points, facing=path.heading, reason="charge"))
            self._carry_officers(tx, unit, points[-1][0] - unit.x, points[-1][1] - unit.y)
            attached.keep_gallopers(tx, unit.id, unit.base)
            change(tx, unit.id, "charges", moved=True, acts=dragoons.ACTS)
            tx.emit(MovedOnCard(unit=unit.id))
            return
        tx.emit(UnitMoved(unit=unit.id, path=full, facing=path.heading, reason="charge"))
        self._carry_officers(tx, unit, path.end[0] - unit.x, path.end[1] - unit.y)
        attached.keep_gallopers(tx, unit.id, unit.base)
        _clear_the_way(tx, unit.id, charge_swept(unit, path).swept())
        change(tx, unit.id, "charges", moved=True, acts=dragoons.ACTS)
        tx.emit(MovedOnCard(unit=unit.id))
        tired = charge_fatigue(tx, unit.id, max(0.0, path.length - reach))
        tx.emit(ChargeMade(attacker=unit.id, target=target.id, x=unit.x, y=unit.y, facing=unit.facing,
                           fatigued=tired.men))

    def _move(self, tx: Tx, tables: Tables, action: Move) -> None:
        unit = tx.state.units[action.unit]
        own = unit_data(unit)
        plan = plan_move(unit, action)
        on_road = own.formation == COLUMN and tx.table.path_on_road(plan.points)
        inches = movement.allowance(tables, own, on_road=on_road) or 0.0
        costs = movement.ground_costs(tx.table, tables, own, plan)
        lost = sum(tx.roll(D6, f"ground: {unit.label}") for _ in range(costs.dice))
        left = inches - costs.inches - lost
        points = _short_of_pieces(tx.state, unit, plan, max(0.0, left))
        points = concealment.stop_short(tx, unit, points, plan.end.facing)
        facing = plan.end.facing
        if points[-1] != plan.points[-1] and not on_table(plan.end.moved_to(*points[-1]),
                                                          (tx.table.width, tx.table.depth)):
            facing = plan.after_pivot.facing  # stopped short where its last turn would cross the edge
        tx.emit(UnitMoved(unit=unit.id, path=points, facing=facing))
        self._carry_officers(tx, unit, points[-1][0] - unit.x, points[-1][1] - unit.y)
        attached.keep_gallopers(tx, unit.id, unit.base)
        done = plan_move(unit, Move(unit=unit.id, waypoints=points[1:], face_before=action.face_before,
                                    face_after=action.face_after))
        attached.officers_in_the_way(tx, unit.id, done.swept())
        shove.shove_aside(tx, unit.id, [done.end.corners()])
        change(tx, unit.id, "moves", moved=True, acts=own.acts + 1)
        tx.emit(MovedOnCard(unit=unit.id))
        disorder.after_move(tx, tables, unit.id, done)

    @staticmethod
    def _carry_officers(tx: Tx, unit: Unit, dx: float, dy: float) -> None:
        """Officers in the unit's front rank go where it goes (Tertias and officers 4 D). One
        so carried past the table's edge (his unit ended its move with him beyond its side
        there) stays on the table at the edge, with his unit, as one carried in a rout or a
        fall back does (:func:`~.attached.carry`)."""
        size = (tx.table.width, tx.table.depth)
        for officer in front_rank_officers(tx.state, unit.id):
            end = placed_on_table(officer.base.moved_to(officer.x + dx, officer.y + dy), size)
            tx.emit(UnitMoved(unit=officer.id, facing=officer.facing, reason="with its unit",
                              path=((officer.x, officer.y), end.centre)))


# --- helpers ---------------------------------------------------------------------------------


def _not_in_the_way(state: GameState, unit: Unit) -> set[str]:
    """Pieces a unit's own move may cross or end on: its front-rank officers and
    gallopers (they go with it), enemy officers in no front rank (moved to safety, 4 F)
    and routed friends (shoved aside on its path's end, 15 A)."""
    return {*attached.sharing_fate(state, unit.id),
            *attached.lone_enemy_officers(state, unit.side),
            *_routed(state, unit.side)}


def _routed(state: GameState, side: str) -> tuple[str, ...]:
    """``side``'s routed troops, found once for a state (every move judged asks)."""
    key = (_ROUTED, side)
    found: tuple[str, ...] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = tuple(u.id for u in state.iter_troops(side) if unit_data(u).routed)
    return found


_ROUTED = "cyp routed troops"


def _clear_the_way(tx: Tx, unit_id: str, areas: list[Polygon]) -> None:
    """After a unit's own move over ``areas``: enemy officers on it go to safety (4 F) and
    routed friends are shoved aside (15 A)."""
    attached.officers_in_the_way(tx, unit_id, areas)
    shove.shove_aside(tx, unit_id, areas)


def _tertia_problems(state: GameState, unit: Unit, plan: MovePlan) -> list[Violation]:
    """Tertias A: "all units within 6" of one another. No unit may leave its tertia
    unless accompanied by a general or due to poor morale": a unit that ends its move more
    than 6" from every other unit of its tertia leaves it (a unit alone in its tertia, or
    led by an officer in its front rank, may). Poor morale's moves (falling back, routs)
    are never refused for it, and a unit they left beyond 6" has left already: it may
    make any move that ends no farther from its nearest tertia-mate than it began."""
    own = unit_data(unit)
    if own.is_officer or own.is_gun or front_rank_officers(state, unit.id):
        return []
    mates = [u for u in _tertia_troops(state, unit.side, unit.command) if u.id != unit.id]
    if not mates or any(is_within(plan.end, m.base, TERTIA_SPAN, tolerance=1e-9) for m in mates):
        return []
    now = min(base_distance(unit.base, m.base) for m in mates)
    if min(base_distance(plan.end, m.base) for m in mates) <= now + 1e-9:
        return []
    away = f" and farther than the {now:.1f}\" it stands" if now > TERTIA_SPAN + 1e-9 else ""
    return [Violation(CypCode.LEAVES_TERTIA, f"{unit.label} would end more than 6\" from every other "
                      f"unit of its tertia ({unit.command}){away}", "Tertias and officers 4 A")]


def _tertia_troops(state: GameState, side: str, tertia: str) -> tuple[Unit, ...]:
    """``side``'s troops of ``tertia`` in play, guns left out; found once for a state
    (every move judged asks)."""
    key = (_TERTIA_TROOPS, side, tertia)
    found: tuple[Unit, ...] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = tuple(u for u in state.iter_troops(side) if u.command == tertia
                                         and not unit_data(u).is_gun)
    return found


_TERTIA_TROOPS = "cyp tertia troops"


def _measured_from(formation: str) -> str:
    """Words for a unit's reference point (Movement 5 B)."""
    return "its centre" if formation in movement.MEASURED_FROM_CENTRE else "the centre of its front"


def _formations_for(table: Battlefield, tables: Tables, unit: Unit) -> tuple[str, ...]:
    """What a unit may form (Formations A): guns, wagons and officers none; a square only
    troops with a square move (foot, highlanders); deployed only in a town or works."""
    own = unit_data(unit)
    if own.is_officer or own.is_gun or own.troop == "wagons":
        return ()
    found = [LINE, COLUMN]
    if movement.line_of(tables, own).square is not None:
        found.append(SQUARE)
    if any(table.overlaps(k, unit.base.corners()) for k in (TerrainKind.TOWN, TerrainKind.ENTRENCHMENT)
           if table.has(k)):
        found.append(DEPLOYED)
    return tuple(found)


def reformed(state: GameState, unit: Unit, formation: str) -> Unit:
    """``unit`` in ``formation``, its front edge where it was."""
    own: CypUnit = unit_data(unit).evolve(formation=formation)
    width, depth = footprint_of(own, formation, StandSize(own.stand_width, own.stand_depth))
    x, y = reformed_centre(unit.base, depth)
    return unit.evolve(x=x, y=y, width=width, depth=depth, formation=formation)


def _short_of_pieces(state: GameState, unit: Unit, plan: MovePlan, inches: float
                     ) -> tuple[tuple[float, float], ...]:
    """The path of a move that may go ``inches`` (measured as its formation measures,
    :func:`~.movement.slide_within`): the whole path when it reaches its end, else cut short,
    and cut back :data:`~.victory.CUT_BACK` at a time until it ends on no piece (Formations C: "as
    long as they do not end their move intermingled"; the end the player placed was judged
    clear, the one the ground's dice leave it at was not)."""
    own = unit_data(unit)
    points = _cut(plan.points, movement.slide_within(plan, own.formation, inches))
    if points[-1] == plan.points[-1]:
        return points  # the end the player placed, judged clear
    crossed = {unit.id, *_not_in_the_way(state, unit)}
    while inches > 0.0 and stands_on(state, plan.end.moved_to(*points[-1]), crossed):
        inches = max(0.0, inches - CUT_BACK)
        points = _cut(plan.points, movement.slide_within(plan, own.formation, inches))
    return points


def _cut(points: tuple[tuple[float, float], ...], length: float) -> tuple[tuple[float, float], ...]:
    """The path ``points`` cut short after ``length`` inches."""
    out = [points[0]]
    left = length
    for a, b in itertools.pairwise(points):
        leg = math.dist(a, b)
        if leg <= left + 1e-9:
            out.append(b)
            left -= leg
            continue
        if left > 1e-9:
            t = left / leg
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
        break
    return tuple(out)

