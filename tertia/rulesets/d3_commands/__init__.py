"""D3 English Civil War Rules, updated 18 September 2022 (engine id ``d3-commands``).

Commands activated by secretly ordered command cards and an initiative roll; units of
the active command move, shoot and melee; D3 hits accumulate until a unit routs on
exceeding eight; a 6" cohesion rule for each command and a 12" rule near the enemy.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

from tertia.activation import command_cards as cards
from tertia.core.actions import Action, Move
from tertia.core.ai_spec import AiSpec
from tertia.core.events import Event
from tertia.core.geometry import Base
from tertia.core.presentation import redeclared
from tertia.core.ruleset import OptionSpec, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import Violation
from tertia.core.vocabulary import ActionKind, DecisionKind, PanelKind
from tertia.rules.hits import piece
from tertia.rulesets.d3 import placement, weather
from tertia.rulesets.d3.base import COMMON_OPTIONS, D3RuleSet, MeleeRules, ShootingRules
from tertia.rulesets.d3.movement import MoveRules, breaks_charge_turn, is_judged
from tertia.rulesets.d3.presentation import AMMUNITION, D3Presentation
from tertia.rulesets.d3.victory import UNDEPLOYED
from tertia.rulesets.d3_commands import clauses, commander, deployment, organisation, sequence, vocabulary
from tertia.rulesets.d3_commands import melee as melee_rules
from tertia.rulesets.d3_commands import movement as own_movement
from tertia.rulesets.d3_commands import shooting as own_shooting
from tertia.rulesets.d3_commands.data import D3CommandsData
from tertia.rulesets.d3_commands.organisation import COHESION_RADIUS, cohesion_group, command_card

HAS_AMMUNITION, OUT_OF_AMMUNITION, NEVER_SHORT = "yes", "out", "never short"
AMMUNITION_WORDS = (HAS_AMMUNITION, OUT_OF_AMMUNITION, NEVER_SHORT)
"""A unit's ammunition as d3-commands tells it: foot and guns have it until they run
out; dragoons and commanded shot never run short."""


class D3CommandsPresentation(D3Presentation):
    """d3-commands' pieces: ammunition had, run out or never short (its cards are the
    scenario's commands, named by it)."""

    FACTS = redeclared(D3Presentation.FACTS, replace(AMMUNITION, words=AMMUNITION_WORDS))


class D3Commands(D3RuleSet):
    GAME_DATA = D3CommandsData
    id: ClassVar[str] = "d3-commands"
    PRESENTATION = D3CommandsPresentation
    title: ClassVar[str] = "D3 English Civil War Rules (18 September 2022)"
    short_title: ClassVar[str] = clauses.PREFIX
    version: ClassVar[str] = "1.1"
    CLAUSES = clauses.BOOK
    PURSUIT_FROM: ClassVar[int] = 5
    SHOOTING: ClassVar[ShootingRules] = own_shooting
    MELEE: ClassVar[MeleeRules] = melee_rules
    COMMANDER_IN_TOWN: ClassVar[bool] = True
    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = vocabulary.ACTION_KINDS
    DECISION_KINDS: ClassVar[tuple[DecisionKind, ...]] = vocabulary.DECISION_KINDS
    PANELS: ClassVar[tuple[PanelKind, ...]] = vocabulary.PANELS
    AI = AiSpec(proposer="tertia.rulesets.d3_commands.ai.proposals:iter_proposals",
                doctrine="tertia.rulesets.d3_commands.ai.doctrine2:D3CommandsDoctrine2",
                baseline="tertia.rulesets.d3_commands.ai.doctrine:D3CommandsDoctrine")
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = (
        *COMMON_OPTIONS,
        OptionSpec("commander_values", "0-1-2",
                   "what a commander of value 0 (poor), 1 (average) and 2 (veteran) adds to the "
                   "initiative roll", tuple(sequence.VALUE_SCALES)),
        OptionSpec("solo_shuffle", "none",
                   "solo games: shuffle the command cards of the side on this table edge instead "
                   "of ordering them", ("none", "south", "north", "both")),
        OptionSpec("solo_veteran", True, "a side whose cards are shuffled has a veteran commander"),
        OptionSpec("pivot_cost", 3.0, "inches of movement a pivot costs", low=0, high=12),
        OptionSpec("pivot_cost_each", True,
                   "a pivot at the start and one at the end each cost (else one cost a move)"),
        OptionSpec("toward_tolerance", 45.0,
                   "degrees a move within 12\" of the enemy may stray from straight at an enemy unit",
                   low=0, high=90),
        OptionSpec("away_tolerance", 15.0,
                   "degrees a move within 12\" of the enemy may stray from directly away",
                   low=0, high=90),
        OptionSpec("flee_hits", "each unit",
                   "when the commander flees, each unit rolls its own D3-1, or one roll for all",
                   ("each unit", "one roll")),
        OptionSpec("deployment", "scenario",
                   "the scenario's set deployment, or the deployment procedure",
                   ("scenario", "procedure")),
        OptionSpec("deployment_zone", 16.0,
                   "inches from its own table edge a side deploys within (deployment procedure)",
                   low=1, high=48),
    )

    # --- set-up ------------------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> GameState:
        state = super().initial_state(scenario)
        if self.option("deployment") != "procedure":
            return state
        units = {uid: u.evolve(removed=UNDEPLOYED) for uid, u in state.units.items()}
        return state.evolve(units=units)

    def begin(self, tx: Tx) -> None:
        weather.settle_weather(tx, str(self.option("weather")))
        if self.option("deployment") == "procedure" and deployment.begin(tx):
            return
        sequence.start_turn(tx, 1, self.options)

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Commands (make-up, the 6" rule as deployed) and the shared trait checks."""
        bases: dict[str, Base] = {}
        for u in scenario.units:
            w, d = self.base_size(UnitKind(u.type))
            bases[u.id] = Base(u.x, u.y, u.facing, u.width or w, u.depth or d)
        return [*organisation.scenario_problems(scenario, bases), *super().scenario_problems(scenario)]

    # --- the rule set's own actions ----------------------------------------------------------

    def validate_special(
        self, table: Battlefield, state: GameState, action: Action
    ) -> list[Violation] | None:
        if isinstance(action, cards.OrderCards):
            return cards.validate_order(state, action, clauses.CARDS)
        if isinstance(action, deployment.Deploy):
            return deployment.validate(table, state, action, deployment.zone_of(self.options))
        return None

    def resolve_special(self, tx: Tx, action: Action) -> bool:
        if isinstance(action, cards.OrderCards):
            sequence.after_order(tx, action, self.options)
            return True
        if isinstance(action, deployment.Deploy):
            if not deployment.resolve(tx, action):
                sequence.start_turn(tx, 1, self.options)
            return True
        return False

    # --- hooks -------------------------------------------------------------------------------

    def card_of(self, unit: Unit) -> str:
        return "commander" if unit.is_commander else command_card(unit.command)

    def move_rules(self) -> MoveRules:
        return MoveRules(
            clauses=clauses.BOOK, pivot_cost=float(self.option("pivot_cost")),
            pivot_cost_each=bool(self.option("pivot_cost_each")), straight_line=False,
            commanders_move=False, towns_closed_to_others=True, one_unit_per_town=False,
            charge_limit="face", charge_tolerance=float(self.option("charge_tolerance")),
            max_pivots=2, forward_from=str(self.option("forward_judged_from")),
        )

    def surely_refused(self, table: Battlefield, state: GameState, action: Action) -> bool:
        """A move the 12" rule refuses is illegal whatever else ``validate`` finds first
        (its every path reports some reason then, the 12" rule's at the last); so is one
        the shared rules refuse as a charge (:meth:`D3RuleSet.surely_refused`)."""
        return isinstance(action, Move) and is_judged(state, action) and (
            own_movement.breaks_near_enemy_rule(state, action, self.options)
            or breaks_charge_turn(state, action))

    def move_problems(self, table: Battlefield, state: GameState, action: Move) -> list[Violation]:
        return own_movement.near_enemy_problems(state, action, self.options) or (
            own_movement.cohesion_problems(state, action))

    def measure_move(self, table: Battlefield, state: GameState, action: Action) -> dict[str, Any] | None:
        """The shared measure, warned where the 6" rule would move the unit back."""
        measured = super().measure_move(table, state, action)
        if measured is not None and isinstance(action, Move) and is_judged(state, action):
            warning = own_movement.cohesion_warning(state, action)
            if warning is not None:
                measured["warnings"] = [warning]
        return measured

    def on_contact(self, tx: Tx, mover: Unit, touched: list[Unit]) -> None:
        """Commanders: an enemy unit moving into contact with the commander alone makes him
        flee."""
        if mover.is_commander:
            return
        for other in touched:
            if other.is_commander and other.in_play and commander.is_alone(tx, other):
                commander.flee(tx, other, mover, self.options)

    def end_activation(self, tx: Tx) -> None:
        sequence.end_activation(tx, self.impassable_for, self.options)

    def after_losses(self, tx: Tx) -> None:
        if tx.state.phase not in ("deployment", "setup"):
            sequence.prune_cards(tx)

    @staticmethod
    def impassable_for(unit: Unit) -> tuple[str, ...]:
        return placement.closed_ground(unit, commander_in_town=False)

    # --- hidden information and reports ------------------------------------------------------

    def observed_state(self, table: Battlefield, state: GameState, side: str) -> GameState:
        """Everything but the other side's card order, which shows only as cards left."""
        return cards.hide_orders(state, side)

    def sample_hidden(
        self, table: Battlefield, observation: GameState, side: str, rng: random.Random
    ) -> GameState:
        """The other side's card order, unseen, as a random order of the cards it has
        yet to play."""
        return cards.sample_orders(observation, rng)

    HIDDEN_NEVER_JUDGED: ClassVar[bool] = True
    """The one secret, the other side's card order, is read only when a card is turned
    over (``command_cards.unplayed``, in resolving an action), never in judging one."""

    def playable_state(self, table: Battlefield, state: GameState, side: str, seed: int) -> GameState:
        """The other side's card order replaced by a sample, as :meth:`sample_hidden`
        draws it, without building the view first (players ask before every action)."""
        return cards.resample_orders(state, side, seed)

    def event_visible_to(self, event: Event, side: str) -> bool:
        return not cards.carries_secret(event, side)

    def ammunition_report(self, state: GameState, unit: Unit) -> dict[str, Any]:
        if unit.kind in own_shooting.CHECK_AMMUNITION:
            return {"ammunition": OUT_OF_AMMUNITION if piece(unit).out_of_ammo else HAS_AMMUNITION}
        if unit.kind in (UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT):
            return {"ammunition": NEVER_SHORT}
        return {"ammunition": "n/a"}

    def zones(self, state: GameState, unit: Unit) -> list[dict[str, Any]]:
        if unit.is_commander:
            return []
        zones = [{"kind": "enemy", "radius": own_movement.NEAR,
                  "label": "12\": stay, advance on the enemy or move directly away",
                  "rule": clauses.NEAR_ENEMY}]
        if cohesion_group(unit) is not None:
            zones.append({"kind": "cohesion", "radius": COHESION_RADIUS,
                          "label": "6\": keep within reach of the command", "rule": clauses.COHESION})
        return zones

    def position(self, state: GameState) -> dict[str, Any]:
        out = super().position(state)
        out["cards_left"] = {s: cards.cards_left(state, s) for s in state.sides}
        return out
