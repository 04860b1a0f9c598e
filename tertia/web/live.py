"""A game in play on the server: its states, the dice that continue it, and its history.

A live game is rebuilt from its saved rows by replaying every action with the logged
dice, while the seeded dice draw the same dice beside them with the distributions the
rules ask for (:class:`~tertia.core.dice.SeedCheckedDice`), so play continues exactly as
it would have without the restart.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tertia.ai.player import Player
from tertia.ai.players import DEFAULT_PLAYER, make_player
from tertia.battle import dice_seed, player_seed
from tertia.core.actions import Action, BadActionData, action_from_dict
from tertia.core.dice import DiceDivergence, Roll, SeedCheckedDice, SeededDice
from tertia.core.events import DecisionAwaited, DiceRolled, Event
from tertia.core.game import Game
from tertia.core.memo import Memo
from tertia.core.reducer import reduce
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.io.narrative import NarrativeLine, Narrator, decision_key
from tertia.io.safe_narration import tell_safely
from tertia.web.store import ActionRow, GameRow
from tertia.web.traces import moves_of

log = logging.getLogger("tertia.web")


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action with what it caused."""

    side: str
    action: Action
    events: tuple[Event, ...]
    rolls: tuple[Roll, ...]
    barrier: bool


@dataclass(frozen=True, slots=True)
class Prepared:
    """An action worked out on ``before`` (its dice drawn), not yet part of the game."""

    before: GameState
    step: Step
    after: GameState


Key = tuple[int, str]
Value = TypeVar("Value")


class Recent(OrderedDict[Key, Value]):
    """A cache that keeps only its ``limit`` most recently used entries."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def get_or_make(self, key: Key, make: Callable[[], Value]) -> Value:
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = self[key] = make()
        while len(self) > self.limit:
            self.popitem(last=False)
        return value


OBSERVATIONS_KEPT = 4
"""Observations (whole positions as a side sees them) a live game keeps ready: the
current position as each side sees it, and a couple more for replay. Most of an
observation is shared with the position it is made from (its pieces), so they are small;
any other is worked out again."""
VIEWS_KEPT = 1
"""Observations as JSON-ready data a live game keeps ready: the last asked for (one for
both sides when the rule set hides nothing from either), which a view asks for several
times over (its state, status and secrecy) and a page again until the game changes. Each
is a large tree of values (a Charge yr Pikes! battle's is some 170 KiB) that every game
held in memory keeps, made again in 0.1 to 2 ms (pure Python) when another is asked for:
four a game held 15 MiB in the 64 games of 40 players (``benchmarks/serve_soak.py``), one
holds a quarter of that."""
LOG_ENTRIES_KEPT = 32
"""Narrated log entries a live game keeps ready (one for both sides when they see the same
events); older ones are told again when asked for. A page asks for the entries after the
last it has, a few at a time, so the latest are the ones asked for again (by the other
side, and by the page after an action); a whole log (a page opened, a replay) is told
again, in 8 to 56 ms for 200 entries (pure Python), little more than it takes with every
entry's lines kept, since half the work is done either way. An entry's lines take about
1.2 KiB, so a game keeps some 40 KiB, reached in its first minute of play; 256 took a
game's first 256 actions to fill, to 300 KiB."""
CHECKPOINT = 64
"""A game's history holds every ``CHECKPOINT``-th position (and the last :data:`WINDOW`).
A position is some 5 to 15 KiB beside the one before it, so the positions a game holds
grow by 0.1 to 0.25 KiB an action (16 held four times as many: a 200-action Charge yr
Pikes! battle's positions took 270 KiB, now 190 KiB), and working one out again reduces
the events of at most 63 actions (a millisecond on average in a Charge yr Pikes! battle,
pure Python)."""
WINDOW = 8
"""The latest positions a game's history always holds: those the page asks about."""
REMADE_KEPT = 16
"""Positions worked out again that a game's history keeps for a while (a whole log read
from its start walks them in order)."""


class History:
    """Every position of a game, the start first, holding only some of them: every
    :data:`CHECKPOINT`-th and the last :data:`WINDOW`. Any other is worked out again when
    asked for, from the nearest one before it, by reducing the events of the actions
    between (the events are the only thing that changes a position, so it is the same
    position). Positions are most of what a game holds, and a long battle makes thousands.

    ``steps`` is the game's list of actions (``steps[k]`` leads from position ``k`` to
    ``k + 1``), read as it grows."""

    def __init__(self, states: Iterable[GameState], steps: Sequence[Step]) -> None:
        self._steps = steps
        self._held: list[GameState | None] = []
        self._remade: OrderedDict[int, GameState] = OrderedDict()
        for state in states:
            self.append(state)

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[GameState]:
        return (self[i] for i in range(len(self._held)))

    def __getitem__(self, index: int) -> GameState:
        i = range(len(self._held))[index]
        held = self._held[i]
        if held is not None:
            return held
        if i in self._remade:
            self._remade.move_to_end(i)
            return self._remade[i]
        start = i - 1
        while self._held[start] is None and start not in self._remade:
            start -= 1
        found = self._held[start]
        state = found if found is not None else self._remade[start]
        for k in range(start, i):
            state = replayed(state, self._steps[k].events)
            self._remember(k + 1, state)
        return state

    def __setitem__(self, index: int | slice, value: Any) -> None:
        """Replace one position (those after it are then worked out from it), or all of
        them with ``[:]``."""
        self._remade.clear()
        if isinstance(index, slice):
            if index != slice(None):
                raise TypeError("a game's history is replaced whole or one position at a time")
            self._held = list(value)
        else:
            self._held[range(len(self._held))[index]] = value

    def append(self, state: GameState) -> None:
        self._held.append(state)
        old = len(self._held) - 1 - WINDOW
        if old > 0 and old % CHECKPOINT:
            self._held[old] = None

    def pop(self) -> GameState:
        """Remove the last position (the one before it is held from now on)."""
        last = self[-1]
        self._held.pop()
        self._remade.pop(len(self._held), None)
        if self._held and self._held[-1] is None:
            self._held[-1] = self[-1]
        return last

    def _remember(self, index: int, state: GameState) -> None:
        self._remade[index] = state
        while len(self._remade) > REMADE_KEPT:
            self._remade.popitem(last=False)


def replayed(before: GameState, events: Sequence[Event]) -> GameState:
    """The position after an action, from the one before it and the events it caused (as
    :meth:`Game.apply <tertia.core.game.Game.apply>` made it)."""
    state = before
    for event in events:
        state = reduce(state, event)
    return state.evolve(step=before.step + 1)


@dataclass
class LiveGame:
    """A game held in memory between requests. Guard every use with ``lock``."""

    row: GameRow
    game: Game
    dice: SeededDice
    initial: GameState
    start_events: tuple[Event, ...]
    states: History
    steps: list[Step]
    lock: threading.RLock = field(default_factory=threading.RLock)
    version: int = 0
    """The saved counter (:attr:`GameRow.version`): one up for every action and undo."""
    changed_at: float | None = None
    """When the version last changed, by the AI runner's clock (``None``: not since the
    game was loaded)."""
    players: dict[str, Player] = field(default_factory=dict)
    rngs: dict[str, random.Random] = field(default_factory=dict)
    used_at: float = 0.0
    """When a request last asked for the game (by the service's clock for idleness)."""
    _lines: Recent[tuple[NarrativeLine, ...]] = field(default_factory=lambda: Recent(LOG_ENTRIES_KEPT))
    """Each entry's narrative lines (:meth:`told`), kept with their events for the
    decisions they await or answer."""
    _observations: Recent[GameState] = field(default_factory=lambda: Recent(OBSERVATIONS_KEPT))
    _observed: Recent[dict[str, Any]] = field(default_factory=lambda: Recent(VIEWS_KEPT))
    _hides: Recent[bool] = field(default_factory=lambda: Recent(OBSERVATIONS_KEPT))

    # --- building --------------------------------------------------------------------------

    @classmethod
    def start(cls, row: GameRow, game: Game) -> LiveGame:
        """A new game: the opening procedure with fresh seeded dice."""
        dice = SeededDice(dice_seed(row.seed))
        state, events = game.start(dice)
        row = GameRow(**{**_fields(row), "start_rolls": tuple(dice.log)})
        steps: list[Step] = []
        return cls(row=row, game=game, dice=dice, initial=game.ruleset.initial_state(game.scenario),
                   start_events=tuple(events), states=History([state], steps), steps=steps)

    @classmethod
    def rebuild(cls, row: GameRow, game: Game, actions: Sequence[ActionRow]) -> LiveGame:
        """A saved game replayed from its rows with their own dice; :class:`ReplayFailed`
        when the record no longer replays under this engine (an action it no longer reads
        or allows, a side acting out of turn, dice other than those the rules ask for):
        nothing is changed then, in memory or in the store."""
        every_roll = [*row.start_rolls, *(r for a in actions for r in a.rolls)]
        replay = SeedCheckedDice(every_roll, dice_seed(row.seed), strict=False)
        names = game.scenario.side_names()
        where = "at the start"
        try:
            state, events = game.start(replay)
            _check_dice(len(replay.log), len(row.start_rolls))
            steps: list[Step] = []
            states = History([state], steps)
            for number, a in enumerate(actions, start=1):
                where = f"action {number} (by {names.get(a.side, a.side)})"
                action = action_from_dict(a.action)
                where = f"action {number} ({action.type.replace('_', ' ')} by {names.get(a.side, a.side)})"
                if a.side != state.to_act:
                    raise ReplayFailed(f"it was taken by {names.get(a.side, a.side)}, but the rules "
                                       f"now await {names.get(state.to_act, state.to_act)}")
                before = state
                rolled = len(replay.log)
                state, happened = game.apply(before, action, replay)
                _check_dice(len(replay.log) - rolled, len(a.rolls))
                steps.append(Step(a.side, action, tuple(happened), a.rolls, a.barrier))
                states.append(state)
                forget_memos(before)
        except REPLAY_FAILURES as exc:
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise ReplayFailed(f"{where}: {reason}") from exc
        if replay.mismatches:
            log.warning("game %s: %d logged dice differ from its seed's", row.id, replay.mismatches)
        return cls(row=row, game=game, dice=replay.seeded, version=row.version,
                   initial=game.ruleset.initial_state(game.scenario), start_events=tuple(events),
                   states=states, steps=steps)

    # --- queries ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def sides(self) -> tuple[str, str]:
        return self.state.sides

    def controller(self, side: str) -> str:
        return str(self.row.controllers.get(side, "human"))

    def side_names(self) -> dict[str, str]:
        return self.game.scenario.side_names()

    def player_name(self, side: str) -> str | None:
        """The player the server plays ``side`` with (``None``: a person plays it)."""
        if self.controller(side) != "ai":
            return None
        return str(self.row.players.get(side, DEFAULT_PLAYER))

    def player(self, side: str) -> tuple[Player, random.Random]:
        if side not in self.players:
            self.players[side] = make_player(self.player_name(side) or DEFAULT_PLAYER)
            self.rngs[side] = random.Random(player_seed(self.row.seed, side))
        return self.players[side], self.rngs[side]

    def observation(self, step: int, side: str) -> GameState:
        """``side``'s observation of the position after ``step`` actions (0: the start),
        worked out once for the pieces, panels and summary a view shows."""
        return self._observations.get_or_make(
            (step, side), lambda: self.game.observed_state(self.states[step], side))

    def observe(self, step: int, side: str) -> dict[str, Any]:
        """:meth:`observation`, as JSON-ready data: one copy for every side the rule set
        hides nothing from (its observation is the position itself)."""
        seen = self.observation(step, side)
        shared = seen is self.states[step]
        return self._observed.get_or_make((step, "" if shared else side), seen.to_dict)

    def hides_anything(self, side: str) -> bool:
        """Does the rule set keep anything of the current position from ``side``?"""
        now = len(self.steps)
        if self.observation(now, side) is self.state:
            return False
        return self._hides.get_or_make((now, side), lambda: self.observe(now, side) != self.state.to_dict())

    def visible(self, events: Sequence[Event], side: str) -> list[Event]:
        rules = self.game.ruleset
        return [e for e in events if rules.event_visible_to(e, side)]

    def _entry(self, index: int) -> tuple[GameState, Sequence[Event], Step | None]:
        """Log entry ``index``'s position before it, its events and its step (none for
        the opening, entry 0)."""
        if index == 0:
            return self.initial, self.start_events, None
        step = self.steps[index - 1]
        return self.states[index - 1], step.events, step

    def told(self, index: int, side: str) -> tuple[NarrativeLine, ...]:
        """The narrative lines of log entry ``index`` (0 is the opening, then one per
        action) as ``side`` may read them. An event whose telling fails is one line of
        kind ``untold`` (:mod:`tertia.io.safe_narration`)."""
        before, events, _ = self._entry(index)
        shown = self.visible(events, side)
        where = f"game {self.row.id}, log entry {index}"

        def tell() -> tuple[NarrativeLine, ...]:
            narrator = Narrator.for_rules(self.game.ruleset, before, side_names=self.side_names())
            return tuple(tell_safely(narrator, shown, where=where))

        # Told once for both sides when each sees every event of it.
        return self._lines.get_or_make((index, side if len(shown) < len(events) else ""), tell)

    def log_entry(self, index: int, side: str) -> dict[str, Any]:
        """Entry ``index`` of the log as ``side`` may read it (:meth:`told`), with the
        dice shown to that side. A line telling a decision awaited carries its key in
        ``awaits``, and a choice made the key of the decision it ``answers``: the page
        then drops the awaited line where only decisions were told since, as the battle's
        narrative does (:func:`tertia.io.narrative.awaited_by`)."""
        before, events, step = self._entry(index)
        shown = self.visible(events, side)
        lines = self.told(index, side)
        words = Narrator.for_rules(self.game.ruleset, side_names=self.side_names())  # dice in words
        after = self.states[index]
        try:
            moves = moves_of(before, events, shown)
        except Exception:  # the table then draws no trace for this entry; the game plays on
            log.exception("could not trace the moves of game %s, log entry %s", self.row.id, index)
            moves = []
        return {
            "index": index,
            "side": step.side if step is not None else None,
            "action": step.action.to_dict() if step is not None and step.side == side else None,
            "turn": after.turn,
            "phase": after.phase,
            "lines": [_line(n) for n in lines],
            "moves": moves,
            "dice": [
                {"purpose": words.purpose(e.purpose), "die": e.die, "value": e.value}
                for e in shown if isinstance(e, DiceRolled)
            ],
        }

    # --- changes ---------------------------------------------------------------------------

    def apply(self, side: str, action: Action) -> Step:
        """Apply a validated action with the game's dice (the caller persists it)."""
        return self.commit(self.prepare(side, action))

    def prepare(self, side: str, action: Action) -> Prepared:
        """Work out a validated action with the game's dice without making it part of the
        game yet: nothing anyone may read changes until :meth:`commit`. Only the game's one
        writer at the time may call it (the AI runner, while the game awaits the AI: no
        action or undo of a person's can come in between)."""
        before = len(self.dice.log)
        rules = self.game.ruleset
        was = self.state
        probing = rules.may_reveal(self.game.table, was, side)
        state, events = self.game.apply(was, action, self.dice)
        rolls = tuple(self.dice.log[before:])
        hidden = any(not rules.event_visible_to(e, s) for e in events for s in state.sides)
        step = Step(side, action, tuple(events), rolls, bool(rolls) or hidden or probing)
        return Prepared(was, step, state)

    def commit(self, prepared: Prepared) -> Step:
        """Make a prepared action part of the game (one version up)."""
        if self.state is not prepared.before:
            raise RuntimeError("the game changed after the action was worked out")
        self.states.append(prepared.after)
        self.steps.append(prepared.step)
        self.version += 1
        forget_memos(prepared.before)
        return prepared.step

    def hides_in(self, state: GameState, side: str) -> bool:
        """Does the rule set keep anything of ``state`` from ``side``?"""
        return self.game.observed_state(state, side) != state

    def pop(self) -> Step:
        """Remove the last action (never one that rolled a die: the dice stay in step)."""
        step = self.steps.pop()
        assert not step.rolls
        self.states.pop()
        index = len(self.steps) + 1
        for key in [k for k in (*self._lines, *self._observed, *self._observations, *self._hides)
                    if k[0] >= index]:
            self._lines.pop(key, None)
            self._observations.pop(key, None)
            self._observed.pop(key, None)
            self._hides.pop(key, None)
        self.version += 1
        return step

    def status_word(self) -> str:
        return "over" if self.state.is_over else "playing"


class ReplayFailed(Exception):
    """A saved game's record that no longer replays under this engine: the message says
    where (the start, or which action) and why, in one line."""


REPLAY_FAILURES: tuple[type[Exception], ...] = (ReplayFailed, DiceDivergence, IllegalAction, BadActionData)
"""What replaying a saved record raises when the engine has changed under it: dice the
rules no longer ask for (:class:`~tertia.core.dice.DiceDivergence`), an action they no
longer allow or read."""


def _check_dice(rolled: int, recorded: int) -> None:
    """The rules rolled as many dice as the record kept for this step (else the dice of
    every later step would be read for other rolls)."""
    if rolled != recorded:
        raise ReplayFailed(f"the rules now roll {rolled} dice here, the record kept {recorded}")


def forget_memos(state: GameState) -> None:
    """Drop what a position no longer current remembers of the questions asked of it (every
    action validated on it, distances measured, lists of pieces): a past position is only
    observed, told and replayed from now on, and a game keeps every one of them for as long
    as it is held in memory. They are worked out again should the position be current
    once more (after an undo)."""
    state.cache.clear()
    state.measured = Memo()
    state.rosters = ({}, {}, {})
    state.places = ({}, {}, {})
    state.selected = ({}, {}, {})
    state.sieves = {}
    state.grid = None


def _fields(row: GameRow) -> Mapping[str, Any]:
    return {name: getattr(row, name) for name in GameRow.__slots__}


def _line(told: NarrativeLine) -> dict[str, str]:
    """A narrative line as the page reads it, with the decision it awaits or answers."""
    line = {"text": told.text, "kind": told.kind}
    key = decision_key(told.event)
    if key is not None:
        line["awaits" if isinstance(told.event, DecisionAwaited) else "answers"] = key
    return line
