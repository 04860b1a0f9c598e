"""The frame both D3 rule sets are built on: the army on the table, activations of cards,
and the move, shoot and melee actions with their shared checks. Each rule set fills in
what is its own through the hooks at the end of :class:`D3RuleSet`."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from tertia.activation.command_cards import card_words
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.events import Event
from tertia.core.ruleset import OddsMeasure, OptionSpec, RuleSet, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, Objective, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, IllegalAction, Violation
from tertia.rules.codes import ActivationCode
from tertia.rules.fighting import Attack, Shoot
from tertia.rules.ground import SHIPPED_TERRAIN
from tertia.rules.hits import HIT_MEASURES, NO_HITS, HitsPiece
from tertia.rules.modifiers import Modifier
from tertia.rules.movement import plan_move
from tertia.rules.pieces import piece_problems
from tertia.rules.victory import WIPED_OUT
from tertia.rulesets.d3 import melee, movement, placement, shooting, weather
from tertia.rulesets.d3.clauses import ClauseBook
from tertia.rulesets.d3.contact import in_contact, in_passing
from tertia.rulesets.d3.data import D3Data, activation_of
from tertia.rulesets.d3.hits import check_routs
from tertia.rulesets.d3.presentation import D3Presentation
from tertia.rulesets.d3.troops import CLUBMEN, IMPETUOUS, has_muskets
from tertia.rulesets.d3.victory import end_game, scores, units_lost, wiped_out

ACTIVATION = "activation"

_ACTIVATED = "activated by the card"

COMMON_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("rout_after", 8,
               "a unit routs when it has more hits than this (Routing: 8; the author's first "
               "version said 6)", low=1, high=30),
    OptionSpec("royalist_horse_impetuous", False,
               "all Royalist Horse are impetuous (otherwise only Horse with the 'impetuous' trait)"),
    OptionSpec("weather", "fair", "the day's weather, or rolled on a D6 (1-3 fair, 4 light rain, "
               "5 heavy rain, 6 storm)", weather.OPTION_CHOICES),
    OptionSpec("clubmen", False,
               "allow Clubmen: foot with the 'clubmen' trait fight with D3-2, carry no muskets and "
               "always count as in cover when shot at (the author's suggestion)"),
    OptionSpec("infantry_in_melee", "foot",
               "which targets count as infantry for the melee modifier",
               ("foot", "foot-and-commanded-shot")),
    OptionSpec("charge_tolerance", 10.0,
               "degrees a charge's path may stray from straight ahead after its one turn",
               low=0, high=45),
    OptionSpec("forward_judged_from", movement.AFTER_START_PIVOT,
               "a shooter's move is forward if within 45 degrees of its facing after its pivot "
               "at the start (it may wheel, advance, then fire), or of its facing when its "
               "activation began", movement.FORWARD_FROM),
    OptionSpec("charge_fights_at_once", True,
               "a charge that makes contact fights its melee at once, as part of the move "
               "(the 2022 text: \"the effects of melee are determined immediately\"; the earlier "
               "text: \"charges are resolved by moving ... into combat\"); false: the charger fights "
               "with an Attack later in its activation, or not at all"),
)

BASES: Mapping[UnitKind, tuple[float, float]] = {
    UnitKind.FOOT: (4.0, 3.0),
    UnitKind.HORSE: (4.0, 3.0),
    UnitKind.DRAGOONS: (4.0, 3.0),
    UnitKind.COMMANDED_SHOT: (4.0, 3.0),
    UnitKind.ARTILLERY: (4.0, 3.0),
    UnitKind.COMMANDER: (2.0, 2.0),
}
"""Units on the 4" x 3" base of the d3-commands text (any size works, it says); a
commander on a 2" x 2" stand."""


class ShootingRules(Protocol):
    """A rule set's own shooting: its ranges, its checks, and how a shot is resolved."""

    def reach(self, table: Battlefield, state: GameState, unit: Unit) -> float: ...

    def problems(self, table: Battlefield, state: GameState, action: Shoot) -> list[Violation]: ...

    def resolve(self, tx: Tx, action: Shoot, options: Mapping[str, Any]) -> None: ...


class MeleeRules(Protocol):
    """A rule set's own melee modifiers."""

    def modifiers(
        self, table: Battlefield, state: GameState, attacker: Unit, target: Unit,
        options: Mapping[str, Any],
    ) -> list[Modifier]: ...


def army_commander(scenario: Scenario, side: str) -> str | None:
    """"Each army has a single Commander": the side's general, else its first commander."""
    mine = [c for c in scenario.commanders if c.side == side]
    general = next((c for c in mine if c.general), None)
    chosen = general or (mine[0] if mine else None)
    return chosen.id if chosen else None


def is_royalist_side(scenario: Scenario, side: str) -> bool:
    spec = scenario.side(side)
    return "royal" in spec.id.lower() or "royal" in spec.name.lower()


class D3RuleSet(RuleSet):
    """Shared by ``d3-commands`` and ``d3-cards``."""

    CLAUSES: ClassVar[ClauseBook]
    PURSUIT_FROM: ClassVar[int]
    SHOOTING: ClassVar[ShootingRules]
    MELEE: ClassVar[MeleeRules]
    PRESENTATION: ClassVar[type[D3Presentation]] = D3Presentation
    """What the rule set shows of its pieces: the shared facts, with its own words for them."""
    BASES: ClassVar[Mapping[UnitKind, tuple[float, float]]] = BASES
    LEAST_SCORE: ClassVar[float | None] = 0.0
    """Points are only won (``d3.victory``): enemy units out of play, the enemy commander,
    objectives held."""
    ACTION_WORDS: ClassVar[tuple[str, ...]] = ("melee", "shoot", "bombard")
    GUN_WORDS: ClassVar[tuple[str, ...]] = ("bombard",)
    COMMANDER_IN_TOWN: ClassVar[bool]
    """Whether the commander may stand in a town."""
    GAME_DATA: ClassVar[type[D3Data]] = D3Data

    # --- set-up ------------------------------------------------------------------------------

    def initial_state(self, scenario: Scenario) -> GameState:
        units: dict[str, Unit] = {}
        w, d = self.base_size(UnitKind.COMMANDER)
        for c in scenario.commanders:
            if c.id != army_commander(scenario, c.side):
                continue
            units[c.id] = Unit(
                id=c.id, side=c.side, kind=UnitKind.COMMANDER, command=c.command,
                x=c.x, y=c.y, facing=c.facing % 360.0, width=c.width or w, depth=c.depth or d,
                name=c.name, own=HitsPiece(general=True, value=c.value),
            )
        for s in scenario.units:
            kind = UnitKind(s.type)
            uw, ud = self.base_size(kind)
            units[s.id] = Unit(
                id=s.id, side=s.side, kind=kind, command=s.command, x=s.x, y=s.y,
                facing=s.facing % 360.0, width=s.width or uw, depth=s.depth or ud,
                name=s.name, traits=tuple(s.traits), own=NO_HITS,
            )
        sides = scenario.side_ids
        objectives = tuple(
            Objective(name=o.name, x=o.x, y=o.y, radius=o.radius, side=o.side)
            for o in scenario.objectives
        )
        return GameState(
            sides=sides, turn=0, active=sides[0], phase="setup", units=units, objectives=objectives,
            own=self.GAME_DATA(
                turn_limit=scenario.turns,
                edges={s.id: s.edge for s in scenario.sides},
                royalist_sides=tuple(s for s in sides if is_royalist_side(scenario, s)),
                weather=weather.FAIR,
            ),
        )

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Traits: ``impetuous`` only on Horse, ``clubmen`` only on Foot and only with the
        ``clubmen`` option; then every piece on the table where the rule set allows it."""
        return [*self._trait_problems(scenario), *self._placement_problems(scenario)]

    def _placement_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Pieces deployed on ground their rule set forbids (Terrain Effects), and the rule
        set's own :meth:`position_problems`; pieces not yet deployed are not checked."""
        table = scenario.build_battlefield()
        state = self.initial_state(scenario)
        found = placement.ground_problems(table, state, self.CLAUSES,
                                          commander_in_town=self.COMMANDER_IN_TOWN)
        found.extend(self.position_problems(table, state))
        labels = {u.id: f"units[{i}] {u.id!r}" for i, u in enumerate(scenario.units)}
        labels.update({c.id: f"commanders[{i}] {c.id!r}" for i, c in enumerate(scenario.commanders)})
        return [(labels[uid], message) for uid, message in found]

    COMMANDS: ClassVar[tuple[str, ...]] = (
        "centre", "right", "left", "reserve", "artillery", "dragoons", "independent")
    COMMANDER_VALUES: ClassVar[range] = range(0, 3)
    TERRAIN_KINDS: ClassVar[frozenset[str]] = SHIPPED_TERRAIN
    ODDS_MEASURES: ClassVar[tuple[OddsMeasure, ...]] = HIT_MEASURES
    TRAITS: ClassVar[frozenset[str]] = frozenset({IMPETUOUS, CLUBMEN})

    def _trait_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        for i, u in enumerate(scenario.units):
            where = f"units[{i}] {u.id!r}.traits"
            if IMPETUOUS in u.traits and u.type != "horse":
                problems.append((where, f"only Horse can be impetuous, not {u.type} "
                                        f"({self.CLAUSES.melee})"))
            if CLUBMEN in u.traits:
                if not self.option("clubmen"):
                    problems.append((where, "Clubmen are an optional troop type: set the option "
                                            "clubmen=true"))
                elif u.type != "foot":
                    problems.append((where, f"Clubmen are foot, not {u.type}"))
        return problems

    # --- play --------------------------------------------------------------------------------

    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        c = self.CLAUSES
        if state.is_over:
            return [Violation(CoreCode.GAME_OVER, "the battle is over", c.sequence)]
        special = self.validate_special(table, state, action)
        if special is not None:
            return special
        if state.pending is not None:
            return [self.awaited_first(state, c.sequence)]
        if state.phase != ACTIVATION:
            return [Violation(CoreCode.WRONG_PHASE,
                              f"units act when their card is played, not in the {state.phase} phase",
                              c.activation)]
        match action:
            case EndPhase():
                return []
            case Move():
                return self._unit_problems(state, (action.unit,)) or self._move_problems(
                    table, state, action)
            case Shoot():
                return self._unit_problems(state, (action.unit,), (action.target,)) or (
                    self._shot_problems(table, state, action))
            case Attack():
                return self._unit_problems(state, (action.attacker,), (action.target,)) or (
                    melee.validate_melee(state, action, c)
                    or self.melee_problems(table, state, action))
        return [Violation(CoreCode.UNKNOWN_ACTION,
                          f"{type(action).__name__} is not an action of {self.id}", c.sequence)]

    def surely_refused(self, table: Battlefield, state: GameState, action: Action) -> bool:
        """A move that ends touching an enemy after a turn no charge may make is illegal
        whatever else ``validate`` finds first (:func:`movement.breaks_charge_turn`)."""
        return isinstance(action, Move) and movement.is_judged(state, action) and (
            movement.breaks_charge_turn(state, action))

    def _unit_problems(
        self, state: GameState, own: tuple[str, ...], others: tuple[str, ...] = ()
    ) -> list[Violation]:
        c = self.CLAUSES
        found = piece_problems(state, own, others, c.sequence)
        if found:
            return found
        for uid in own:
            u = state.units[uid]
            if not self.is_activated(state, u):
                card = self.active_card(state)
                in_play = ("no card is in play" if card is None
                           else f"the card in play is the {card_words(card).lower()} card")
                return [Violation(ActivationCode.NOT_ACTIVATED, f"{u.label} is not activated: {in_play}",
                                  c.activation)]
        return []

    def _move_problems(self, table: Battlefield, state: GameState, action: Move) -> list[Violation]:
        found = movement.validate_move(table, state, action, self.move_rules())
        if found:
            return found
        return self.move_problems(table, state, action)

    def _shot_problems(self, table: Battlefield, state: GameState, action: Shoot) -> list[Violation]:
        unit = state.units[action.unit]
        found = self.shot_problems(table, state, action)
        if found:
            return found
        return shooting.validate_shot(table, state, action, self.CLAUSES,
                                      self.shot_reach(table, state, unit))

    def resolve(self, tx: Tx, action: Action) -> None:
        if not self.resolve_special(tx, action):
            match action:
                case EndPhase():
                    self.end_activation(tx)
                case Move():
                    moved, touched = movement.resolve_move(tx, action, self.move_rules())
                    touched = [t for t in touched if not in_passing(tx.state, moved.id, t.id)]
                    if touched:
                        self.on_contact(tx, moved, touched)
                    if self.charge_fights_at_once():
                        self._fight_charge(tx, moved.id)
                case Shoot():
                    self.resolve_shot(tx, action)
                case Attack():
                    self._fight(tx, action)
        self.after_action(tx)

    def _fight(self, tx: Tx, action: Attack) -> None:
        attacker = tx.state.units[action.attacker]
        target = tx.state.units[action.target]
        mods = self.melee_modifiers(tx.table, tx.state, attacker, target)
        melee.fight(tx, action, mods, self.options, pursuit_from=self.PURSUIT_FROM,
                    pursuit_rule=self.CLAUSES.melee)

    def _fight_charge(self, tx: Tx, unit_id: str) -> None:
        """A unit that has just charged home fights the unit it charged at once."""
        target = melee.charged_home(tx.state, unit_id)
        if target is not None:
            self._fight(tx, Attack(attacker=unit_id, target=target))

    def after_action(self, tx: Tx) -> None:
        """Routs at once; a side with nothing left ends the battle."""
        if tx.state.is_over:
            return
        check_routs(tx, self.options)
        self.after_losses(tx)
        gone = wiped_out(tx.state)
        if gone is not None and tx.state.phase != "deployment":
            end_game(tx, WIPED_OUT)

    # --- activation --------------------------------------------------------------------------

    def active_card(self, state: GameState) -> str | None:
        act = activation_of(state)
        return None if not act else str(act["card"])

    def is_activated(self, state: GameState, unit: Unit) -> bool:
        act = activation_of(state)
        return act is not None and act["side"] == unit.side and self.card_of(unit) == act["card"]

    def activated_units(self, state: GameState) -> list[Unit]:
        """The active side's units the card in play activates (:meth:`is_activated`), in
        play order; the card read once for them all."""
        act = activation_of(state)
        if act is None or act["side"] != state.active:
            return []
        side, card = state.active, act["card"]
        # a piece's card is fixed by its kind or command, which it keeps all game: the
        # pieces a card activates are sifted once, and only a piece coming into play tested
        return list(state.pieces_where((_ACTIVATED, id(self), side, card),
                                       lambda u: u.side == side and self.card_of(u) == card, fixed=True))

    # --- odds --------------------------------------------------------------------------------

    def query(
        self,
        state: GameState,
        word: str | None,
        attacker: str,
        target: str,
        details: Mapping[str, Any] | None = None,
    ) -> tuple[GameState, Action]:
        """``melee`` is a unit's D3 against an enemy in contact, ``shoot`` its muskets (or a
        gun's shot), ``bombard`` a gun's shot. The position is readied with the attacker's
        card in play and nothing yet done this activation."""
        problems = self._unit_problems(state, (), (attacker, target))
        if problems:
            raise IllegalAction(problems)
        unit = state.units[attacker]
        is_gun = unit.kind is UnitKind.ARTILLERY
        if word is None:  # its usual action: horse (no muskets) have no shot to ask about
            shoots = has_muskets(unit) and not in_contact(unit, state.units[target])
            word = "bombard" if is_gun else "shoot" if shoots else "melee"
        if word not in self.ACTION_WORDS:
            raise IllegalAction([Violation(CoreCode.UNKNOWN_ACTION,
                                           f"{self.title} has no action {word!r}; its actions: "
                                           f"{', '.join(self.ACTION_WORDS)}", self.CLAUSES.sequence)])
        if word == "bombard" and not is_gun:
            raise IllegalAction([Violation(CoreCode.CANNOT_ACT, f"{unit.label} is not artillery",
                                           self.CLAUSES.shooting)])
        ready = state.evolve(
            phase=ACTIVATION, active=unit.side, decisions=(), result=None, marks={},
        ).with_values({ACTIVATION: {"side": unit.side, "card": self.card_of(unit)}})
        if word == "melee":
            return ready, Attack(attacker=attacker, target=target)
        return ready, Shoot(unit=attacker, target=target)

    # --- reports -----------------------------------------------------------------------------

    def measure_move(
        self, table: Battlefield, state: GameState, action: Action
    ) -> dict[str, Any] | None:
        """The move's length against its allowance (movement, pivots, storm)."""
        if not isinstance(action, Move) or action.unit not in state.units:
            return None
        plan = plan_move(state.units[action.unit], action)
        limit, rule = movement.allowance(state, plan, self.move_rules())
        return {"length": plan.length, "allowance": max(0.0, limit), "rule": rule}

    def presentation(self) -> D3Presentation:
        return self.PRESENTATION(self)

    def position(self, state: GameState) -> dict[str, Any]:
        """The position in brief (``D3Presentation.summary``): the score so far (Victory),
        units lost, the weather and the card in play (``active_card``, ``None`` between
        activations; its ``words``' ``card_in_play``: as players call it, "left flank",
        which the action ending its activation names, and ``card_names``, by which a
        front end showing ``active_card`` names it so too)."""
        card = self.active_card(state)
        named = None if card is None else card_words(card).lower()
        return {"score": scores(state), "units_lost": {s: units_lost(state, s) for s in state.sides},
                "weather": weather.weather(state), "active_card": card,
                "card_names": {} if card is None else {card: card_words(card).lower()},
                "words": {"card_in_play": named}}

    # --- hooks for each rule set -------------------------------------------------------------

    @abstractmethod
    def card_of(self, unit: Unit) -> str:
        """The card that activates ``unit``."""

    @abstractmethod
    def move_rules(self) -> movement.MoveRules: ...

    def shot_reach(self, table: Battlefield, state: GameState, unit: Unit) -> float:
        """The longest range ``unit`` may shoot at now."""
        return self.SHOOTING.reach(table, state, unit)

    def resolve_shot(self, tx: Tx, action: Shoot) -> None:
        self.SHOOTING.resolve(tx, action, self.options)

    def melee_modifiers(
        self, table: Battlefield, state: GameState, attacker: Unit, target: Unit
    ) -> list[Modifier]:
        return self.MELEE.modifiers(table, state, attacker, target, self.options)

    @abstractmethod
    def on_contact(self, tx: Tx, mover: Unit, touched: list[Unit]) -> None:
        """A move brought ``mover`` into contact with ``touched`` (enemy troops or the
        commander)."""

    @abstractmethod
    def end_activation(self, tx: Tx) -> None:
        """The active side has finished with its card."""

    def validate_special(
        self, table: Battlefield, state: GameState, action: Action
    ) -> list[Violation] | None:
        """The rule set's own actions (card orders, rallies ...): their violations, or None
        when ``action`` is not one of them."""
        return None

    def resolve_special(self, tx: Tx, action: Action) -> bool:
        """Carry out one of the rule set's own actions; False when ``action`` is not one."""
        return False

    def charge_fights_at_once(self) -> bool:
        """Whether a charge that makes contact fights its melee as part of the move (option
        ``charge_fights_at_once``)."""
        return bool(self.option("charge_fights_at_once"))

    def move_problems(self, table: Battlefield, state: GameState, action: Move) -> list[Violation]:
        """Movement rules of the rule set's own, after the shared checks pass."""
        return []

    def shot_problems(self, table: Battlefield, state: GameState, action: Shoot) -> list[Violation]:
        """Shooting rules of the rule set's own (ammunition, guns that moved), checked first."""
        return self.SHOOTING.problems(table, state, action)

    def melee_problems(self, table: Battlefield, state: GameState, action: Attack) -> list[Violation]:
        return []

    def position_problems(self, table: Battlefield, state: GameState) -> list[tuple[str, str]]:
        """(piece id, reason) for each piece the rule set's own rules forbid where a
        scenario deploys it."""
        return []

    def after_losses(self, tx: Tx) -> None:
        """After units may have left play (a command's card leaves the deck ...)."""

    def ammunition_report(self, state: GameState, unit: Unit) -> dict[str, Any]:
        return {}

    def commander_report(self, state: GameState, unit: Unit) -> dict[str, Any]:
        return {}

    def zones(self, state: GameState, unit: Unit) -> list[dict[str, Any]]:
        return []

    def event_visible_to(self, event: Event, side: str) -> bool:
        return True
