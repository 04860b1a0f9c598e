"""What every rule set provides, and the transaction its procedures write events through."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar, cast

from pydantic import BaseModel

from tertia.core.actions import Action
from tertia.core.ai_spec import AiSpec
from tertia.core.dice import D6, Dice, Distribution, RollsAgain, SettlesApart
from tertia.core.events import DiceRolled, Event
from tertia.core.hidden import view_of
from tertia.core.model_errors import shown_value
from tertia.core.narration import humanise
from tertia.core.presentation import Presentation
from tertia.core.reducer import reduce
from tertia.core.ruledata import RuleData
from tertia.core.scenario import Scenario
from tertia.core.state import GameState, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, Violation, side_named
from tertia.core.vocabulary import ActionKind, DecisionKind, PanelKind


@dataclass(frozen=True)
class OptionSpec:
    """A rule-set parameter players may set: a variant, a house rule or an interpretation."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    low: float | None = None
    high: float | None = None

    def coerce(self, raw: Any) -> Any:
        """Parse a value (possibly a string from the command line) to this option's type;
        refused naming what the option takes (:meth:`expected`) and the value given."""
        kind = type(self.default)
        if isinstance(raw, str) and kind is not str:
            raw = self._parsed(raw.strip().lower(), raw)
        if kind is bool and not isinstance(raw, bool):
            raise self._refusal(raw)
        if kind in (int, float) and (isinstance(raw, bool) or not isinstance(raw, int | float)):
            raise self._refusal(raw)
        if kind is int and isinstance(raw, float) and not raw.is_integer():
            raise self._refusal(raw)
        value = kind(raw)
        if kind is float and not math.isfinite(value):
            raise self._refusal(raw)
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise self._refusal(raw)
        if self.choices is not None and value not in self.choices:
            raise self._refusal(raw)
        return value

    def _parsed(self, text: str, raw: str) -> Any:
        """A value given as text (the command line's) read as the option's kind."""
        if type(self.default) is bool:
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise self._refusal(raw)
        try:
            return type(self.default)(text)
        except ValueError:
            raise self._refusal(raw) from None

    def _refusal(self, raw: Any) -> ValueError:
        return ValueError(f"option {self.name}: expected {self.expected()}, got {shown_value(raw)}")

    def expected(self) -> str:
        """What the option takes, in words: one of its choices, else its kind within its
        range ("a whole number from 1 to 20")."""
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        words = OPTION_KIND_WORDS.get(type(self.default), "a value")
        if self.low is not None and self.high is not None:
            return f"{words} from {self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"{words} of at least {self.low:g}"
        if self.high is not None:
            return f"{words} of at most {self.high:g}"
        return words


OPTION_KIND_WORDS: Mapping[type, str] = {
    bool: "true or false", int: "a whole number", float: "a number", str: "text"}
"""An option's kind (its default's type) in words."""


@dataclass(frozen=True)
class OddsMeasure:
    """A value of a rule set's own that odds report (:func:`tertia.analysis.odds.odds`):
    a ``count`` (its change for the target and for the attacker, as a distribution under
    ``target_<key>`` and ``attacker_<key>``), a ``unit_flag`` (the chance ``fields[0]`` is
    set on the target and on the attacker, under ``target_<key>`` and ``attacker_<key>``)
    or a ``flag`` (the chance any of ``fields`` changes on any unit, under ``<key>``).
    ``label`` is how front ends name it (the key's words when empty). A ``unit_flag`` with
    ``routs`` set means the unit routs: each side's count of units routed counts it
    (:mod:`tertia.analysis.answer`), as it counts a unit that leaves play routed."""

    key: str
    kind: Literal["count", "flag", "unit_flag"]
    fields: tuple[str, ...]
    label: str = ""
    routs: bool = False

    @property
    def title(self) -> str:
        return self.label or self.key.replace("_", " ")


OddsParty = Literal["target", "attacker"]
"""A unit an odds answer measures, by its part in the action."""
ODDS_PARTIES: tuple[OddsParty, ...] = ("target", "attacker")
"""The parties an action with a target has."""


class ActionOver(BaseException):
    """Raised by :meth:`Tx.action_over` in a resolution asked to end with its action."""


Decided = TypeVar("Decided")


class Tx:
    """A resolution in progress: procedures read ``state`` and emit events through it.

    Each emitted event is reduced at once, so later steps see its effect; dice rolls are
    events too, so the log shows every die with its purpose.
    """

    def __init__(self, table: Battlefield, state: GameState, dice: Dice, *,
                 ends_with_action: bool = False) -> None:
        self.table = table
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        self.ends_with_action = ends_with_action

    def action_over(self) -> None:
        """The action's own consequences are done; what the rules do next (draw the next
        card, say) is the play that follows it. A resolution made for the action's odds
        (``ends_with_action``) stops here (:class:`ActionOver`), so the odds are of the
        action alone and the next draw is not walked as part of it."""
        if self.ends_with_action:
            raise ActionOver

    def emit(self, event: Event) -> None:
        self.state = reduce(self.state, event)
        self.events.append(event)

    def roll(self, dist: Distribution, purpose: str) -> int:
        value = self.dice.roll(dist, purpose)
        self.emit(DiceRolled(purpose=purpose, die=dist.name, value=value))
        return value

    def roll_off(self, purpose: str, bonus: Mapping[str, int] | None = None) -> str:
        """Each side rolls a D6 (for ``"<purpose>: <side>"``) and adds its ``bonus``; the
        higher wins, and ties are rolled again."""
        a, b = self.state.sides
        extra = bonus or {}

        def attempt() -> str | None:
            ra = self.roll(D6, f"{purpose}: {a}") + extra.get(a, 0)
            rb = self.roll(D6, f"{purpose}: {b}") + extra.get(b, 0)
            return None if ra == rb else (a if ra > rb else b)

        return self.roll_until_decided(attempt)

    def roll_until_decided(self, attempt: Callable[[], Decided | None]) -> Decided:
        """Run ``attempt``, which rolls dice and returns None when the rules say to roll
        again ("re-rolling ties"), until it decides. Every die is rolled and logged;
        exact odds (:class:`~tertia.core.dice.RollsAgain`) take the attempt once,
        conditioned on its deciding."""
        # the dice's methods looked for, not the protocols checked (slow): play asks it
        counting = cast(RollsAgain, self.dice) if hasattr(self.dice, "attempt_begins") else None
        while True:
            mark = counting.attempt_begins() if counting is not None else 0
            decided = attempt()
            if decided is not None:
                return decided
            if counting is not None:
                counting.attempt_rolled_again(mark)

    def apart(self, procedure: Callable[..., Decided], *args: object) -> Decided:
        """``procedure(self, *args)``: a step of the rules whose outcome depends only on the
        position it starts in and ``args`` (plain values), and whose dice nothing after it
        reads (a morale check: what it did to the unit, and what it returns, is all that
        follows from it). In play it simply runs. Exact odds
        (:class:`~tertia.core.dice.SettlesApart`) work its outcomes out once for each
        position it starts in and walk one branch for each distinct outcome, checking as
        they go that the step is such a step, and walking it as any other where it is not."""
        if hasattr(self.dice, "settle_apart"):
            return cast(SettlesApart, self.dice).settle_apart(self, procedure, args)
        return procedure(self, *args)


class RuleSet(ABC):
    """A rule set: immutable id, version and options, with its procedures.

    Subclasses declare ``id``, ``title``, ``version``, ``OPTIONS`` and ``BASES`` and
    implement the abstract methods. ``validate`` is the single source of truth for
    legality; ``resolve`` is only called on actions it accepts.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    short_title: ClassVar[str] = ""
    """A few words naming it where room is short (a plot's title, a table's); the title
    when empty."""
    version: ClassVar[str]
    OPTIONS: ClassVar[tuple[OptionSpec, ...]] = ()
    BASES: ClassVar[Mapping[UnitKind, tuple[float, float]]] = {}
    GAME_DATA: ClassVar[type[RuleData] | None] = None
    """The record of game-wide values it keeps (``GameState.own``), declared once: its
    set-up state holds one, and every value its events write is one of its fields
    (:class:`~tertia.core.ruledata.RuleData`, ``GameState.value``)."""

    @classmethod
    def named(cls) -> str:
        """Its name for a reader where room is short: :attr:`short_title`, else the title."""
        return cls.short_title or cls.title

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.OPTIONS}
        values = {o.name: o.default for o in self.OPTIONS}
        for name, raw in options.items():
            if name not in known:
                listed = ", ".join(sorted(known)) or "none"
                raise ValueError(f"{self.named()} has no option {name!r}; its options: {listed}")
            values[name] = known[name].coerce(raw)
        self.options: Mapping[str, Any] = values

    def option(self, name: str) -> Any:
        return self.options[name]

    def base_size(self, kind: UnitKind) -> tuple[float, float]:
        """Default (frontage, depth) of a base of this kind under this rule set."""
        return self.BASES[kind]

    def piece_size(self, scenario: Scenario, piece_id: str, kind: UnitKind) -> tuple[float, float]:
        """(frontage, depth) of the scenario's piece ``piece_id`` when the file gives it no
        size: the kind's :meth:`base_size`, unless the rule set's own table in the scenario
        shapes the piece (stands and their size, say)."""
        return self.base_size(kind)

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "version": self.version,
            "options": [
                {"name": o.name, "default": o.default, "value": self.options[o.name],
                 "help": o.help, "choices": list(o.choices) if o.choices else None}
                for o in self.OPTIONS
            ],
            "vocabulary": self.vocabulary(),
        }

    # --- what front ends and players are told (declarations; the defaults declare nothing) --

    ACTION_KINDS: ClassVar[tuple[ActionKind, ...]] = ()
    """Every action the rule set's ``validate`` accepts, as front ends offer it: label,
    fields, whether its odds are shown first (:class:`~tertia.core.vocabulary.ActionKind`)."""

    DECISION_KINDS: ClassVar[tuple[DecisionKind, ...]] = ()
    """The decisions it awaits (``state.pending["kind"]``), each with its prompt, the
    action that answers it and the panel that shows it."""

    PANELS: ClassVar[tuple[PanelKind, ...]] = ()
    """The panels a front end shows beside the table for it (orders, command cards, the
    deck, deployment ...)."""

    LEAST_SCORE: ClassVar[float | None] = None
    """The least score a side can have at the end of a battle (None: no least, as where
    points are lost as well as won): the floor of the interval of a side's mean score in
    a study (``tertia simulate``)."""

    AI: ClassVar[AiSpec | None] = None
    """Its computer players (the random player's proposer, the doctrine), resolved by
    ``tertia.ai``; ``None``: no computer player can play it."""

    def vocabulary(self) -> dict[str, Any]:
        """The declarations above as JSON-ready data, for front ends."""
        return {
            "actions": [k.to_dict() for k in self.ACTION_KINDS],
            "decisions": [d.to_dict() for d in self.DECISION_KINDS],
            "panels": [p.to_dict() for p in self.PANELS],
            "facts": self.presentation().describe(),
        }

    def action_kind(self, action_type: str) -> ActionKind | None:
        """The declared kind of actions of ``action_type``; ``None`` if undeclared."""
        return next((k for k in self.ACTION_KINDS if k.type == action_type), None)

    def decision_kind(self, kind: str) -> DecisionKind | None:
        """The declared decision of ``kind`` (``state.pending["kind"]``); ``None`` if undeclared."""
        return next((d for d in self.DECISION_KINDS if d.kind == kind), None)

    def awaited_first(self, state: GameState, rule: str, verb: str = "decide") -> Violation:
        """The refusal of anything but the answer while ``state`` awaits a decision: the
        side that must ``verb`` first (named as the battle names it) and what, as the rule
        set declares the decision ("Parliament (Earl of Essex) must first decide:
        encourage the defence")."""
        pending = state.pending
        if pending is None:
            raise ValueError("no decision is awaited")
        declared = self.decision_kind(pending.kind)
        what = humanise(pending.kind) if declared is None else declared.label.lower()
        return Violation(CoreCode.PENDING_DECISION, f"{side_named(pending.side)} must first {verb}: {what}",
                         rule)

    def presentation(self) -> Presentation:
        """What it shows of its pieces and its position (the facts each piece shows, the
        distances drawn round it, the card that activates it, the position in brief, its
        names for commands), for every front end: :class:`~tertia.core.presentation.
        Presentation`, or the rule set's own subclass of it."""
        return Presentation(self)

    # --- procedures ------------------------------------------------------------------------

    @abstractmethod
    def initial_state(self, scenario: Scenario) -> GameState:
        """The position as deployed, before any die is rolled. ``scenario`` is the battle
        as this rule set fights it (:meth:`Scenario.for_rules
        <tertia.core.scenario.Scenario.for_rules>`, which :class:`~tertia.core.game.Game`
        and the scenario checks apply), so its ``units`` and ``commanders`` are the rule
        set's own order of battle where the file gives one."""

    @abstractmethod
    def begin(self, tx: Tx) -> None:
        """Start the battle (who moves first, the first turn)."""

    @abstractmethod
    def validate(self, table: Battlefield, state: GameState, action: Action) -> list[Violation]:
        """Every reason ``action`` is illegal now; empty when it is legal."""

    def surely_refused(self, table: Battlefield, state: GameState, action: Action) -> bool:
        """A cheap test that :meth:`validate` finds ``action`` illegal: True only when it
        does (False says nothing). :meth:`Game.is_legal <tertia.core.game.Game.is_legal>`
        asks it first, so a reason cheap to judge that ``validate`` reports after dearer
        ones spares a player's search for a legal action the dearer ones."""
        return False

    @abstractmethod
    def resolve(self, tx: Tx, action: Action) -> None:
        """Carry out a legal action, emitting events through ``tx``."""

    TRAITS: ClassVar[frozenset[str]] = frozenset()
    """Unit traits (a scenario's ``traits`` list) this rule set knows."""

    COMMANDS: ClassVar[tuple[str, ...]] = ()
    """The commands (groups) a scenario's pieces may belong to under this rule set; empty
    for any name."""

    TERRAIN_KINDS: ClassVar[frozenset[str]] = frozenset(TerrainKind)
    """The kinds of terrain this rule set gives a meaning; a scenario placing another is
    refused when played under it."""

    COMMANDER_VALUES: ClassVar[range] = range(0, 11)
    """The values a scenario's commanders may have under this rule set."""

    SCENARIO_FILES: ClassVar[Mapping[str, str]] = {}
    """Battles the rule set ships beside itself, by name: a TOML file's path for each. Front
    ends that name only scenarios they know (the server) offer these under this rule set
    beside the built-in ones, so a rule set from a plugin can bring its own battles."""

    SCENARIO_EXTENSION: ClassVar[type[BaseModel] | None] = None
    """The pydantic model of this rule set's table in a scenario's ``extensions`` (its own
    troop classes, regiments, supplies ...), or None when it takes none. The table's
    ``order_of_battle`` (its own commanders and units) is the core's
    (:meth:`Scenario.for_rules <tertia.core.scenario.Scenario.for_rules>`) and never
    reaches the model, so the model may not declare a field of that name. A model with
    ``table_problems`` (:class:`~tertia.core.table_checks.CheckedTable`) also checks the
    pieces its table names against the battle, with the scenario's other checks."""

    SCENARIO_TOP_LEVEL: ClassVar[tuple[str, ...]] = ()
    """Fields of its table that scenario files may also write at the top level, as files
    written before the table existed do (larger-battles' ``[[supplies]]``)."""

    def scenario_extension(self, scenario: Scenario) -> BaseModel | None:
        """This rule set's table of ``scenario``, validated (raises pydantic's
        ValidationError); None when the rule set takes no table."""
        if self.SCENARIO_EXTENSION is None:
            return None
        return self.SCENARIO_EXTENSION.model_validate(scenario.extension(self.id))

    def scenario_problems(self, scenario: Scenario) -> list[tuple[str, str]]:
        """Problems this rule set finds in a scenario beyond the file format, as
        (field path, message) pairs: command make-up, deployment distances and the like."""
        return []

    ACTION_WORDS: ClassVar[tuple[str, ...]] = ()
    """The rule set's own words for its dice-driven actions (``melee``, ``shoot`` ...)."""

    GUN_WORDS: ClassVar[tuple[str, ...]] = ()
    """Those of :attr:`ACTION_WORDS` only artillery may be asked (``bombard``, a battery's
    ``ball``): front ends offer them for guns alone."""

    NOT_FOR_GUNS: ClassVar[tuple[str, ...]] = ()
    """Those of :attr:`ACTION_WORDS` artillery is never asked (a gun that may not attack
    is asked no ``melee``): front ends leave them out for guns."""

    ALONE_WORDS: ClassVar[tuple[str, ...]] = ()
    """Those of :attr:`ACTION_WORDS` asked of a unit alone, the target left out (a morale
    test with no enemy causing it); every other question names the unit acted on."""

    def query(
        self,
        state: GameState,
        word: str | None,
        attacker: str,
        target: str,
        details: Mapping[str, Any] | None = None,
    ) -> tuple[GameState, Action]:
        """For "what are my odds" questions about a position as it stands: the action the
        rule set's ``word`` names, and the position readied for it (the attacker's side to
        act, in the phase the action belongs to). ``details`` are the rule set's own
        particulars of the action (its :attr:`QUERY_DETAILS`). Raises ``IllegalAction`` for
        an unknown unit or a word the rule set does not use; legality is then
        ``validate``'s."""
        raise NotImplementedError(f"{self.id} does not answer odds queries yet")

    ODDS_MEASURES: ClassVar[tuple[OddsMeasure, ...]] = ()
    """What odds report beyond who leaves play: the rule set's own outcome summary keys."""

    def odds_parties(self, action: Action) -> tuple[OddsParty, ...]:
        """Whose measures an answer about ``action`` gives: the target's and the
        attacker's, unless the action has no target (a unit's morale test, whose "target"
        is only the enemy it faces)."""
        return ODDS_PARTIES

    def odds_effects(
        self, before: GameState, after: GameState, events: Sequence[Event]
    ) -> dict[str, dict[str, Any]]:
        """Per unit, values of the rule set's own that one way an action can go gave it,
        read from the position before and after and the events between (points lost, a
        push-back's length ...): odds add them to the fields the action changed, for
        :attr:`ODDS_MEASURES` and :meth:`describe_effects` to read."""
        return {}

    def describe_effects(self, state: GameState, effects: Mapping[str, Mapping[str, Any]]) -> str | None:
        """One outcome of an action in the rule set's words (``effects`` as odds gather
        them, ``state`` the position before), or None for the common wording of hits and
        losses."""
        return None

    QUERY_DETAILS: ClassVar[Mapping[str, str]] = {}
    """The particulars an odds question may give under this rule set, each with what it
    means (larger-battles: ``supports``, ``commander``, ``defender_commander``)."""

    def query_responses(self, state: GameState, details: Mapping[str, Any]) -> list[Action] | None:
        """The other side's answers an odds question names in its ``details`` (a defending
        commander, say), or None to let :meth:`default_responses` answer."""
        return None

    def default_responses(self, state: GameState) -> list[Action]:
        """Answers the other side would give by default to a pending decision (used when
        computing odds); empty when there is nothing pending."""
        return []

    def observed_state(self, table: Battlefield, state: GameState, side: str) -> GameState:
        """The position as ``side`` may see it. Nothing is hidden unless a rule set
        overrides this: the one place a rule set hides things (players, the page and
        :meth:`observe` all see through it)."""
        return state

    def sample_hidden(
        self, table: Battlefield, observation: GameState, side: str, rng: random.Random
    ) -> GameState:
        """A full state consistent with ``side``'s ``observation``: every value hidden from
        it sampled from what it could be, everything it sees kept (for search AIs; see
        :mod:`tertia.core.hidden`). A rule set that hides values overrides this."""
        if view_of(observation) is None:
            return observation
        raise NotImplementedError(f"{self.id} hides values but cannot sample them")

    HIDDEN_NEVER_JUDGED: ClassVar[bool] = False
    """True when nothing the rule set hides from a side bears on whether an action is
    legal (its ``validate`` never reads a hidden value, and reads nothing else that
    :meth:`playable_state` changes): an action judged on a side's playable state is then
    judged alike on the position itself, and :class:`~tertia.core.game.Game` takes the
    answer it already has rather than validate the same action again."""

    def playable_state(self, table: Battlefield, state: GameState, side: str, seed: int) -> GameState:
        """``side``'s observation of ``state`` with its hidden values sampled by a stream
        seeded with ``seed``: what a player tries actions on. The composition of
        :meth:`observed_state` and :meth:`sample_hidden`; a rule set may override it to
        build the same state in one step, reading only what ``side`` may see (a test holds
        the two equal). The stream is made only when something is hidden."""
        view = self.observed_state(table, state, side)
        if view_of(view) is None:
            return view
        return self.sample_hidden(table, view, side, random.Random(seed))

    def observe(self, table: Battlefield, state: GameState, side: str) -> dict[str, Any]:
        """What ``side`` may see, as JSON-ready data: :meth:`observed_state`, serialised."""
        return self.observed_state(table, state, side).to_dict()

    # --- what front ends may ask (optional; the defaults say nothing) ---------------------

    def event_visible_to(self, event: Event, side: str) -> bool:
        """May ``side`` see ``event`` in its log? A rule set with secrets (a command-card
        order, untested morale, hidden units) hides the events that carry them from the
        other side. Nothing is hidden unless a rule set overrides this."""
        return True

    def may_reveal(self, table: Battlefield, state: GameState, side: str) -> bool:
        """Might an action of ``side``'s in ``state`` show it something hidden from it (an
        enemy piece it comes into sight of)? Then the action may not be taken back: a side
        that could would probe for what is hidden, learning even from nothing being shown.
        Answered from what ``side`` may know (its view shows that something is hidden),
        so a refused undo tells it nothing. Nothing is revealed unless a rule set says so."""
        return False

    def measure_move(
        self, table: Battlefield, state: GameState, action: Action
    ) -> dict[str, Any] | None:
        """For a front end's ruler: a proposed move's ``length`` and the ``allowance`` it
        is measured against, with the ``rule`` that sets it; ``None`` when not a move.
        A rule set whose allowance hangs on the ground may add the ``ground`` the path
        counts as and ``allowances``, the inches over each kind of ground; one whose rules
        may yet undo a legal move adds ``warnings`` (each a ``message`` and its ``rule``)."""
        return None
