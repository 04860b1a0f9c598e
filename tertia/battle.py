"""Fight a battle between players, keeping the whole record: the public entry point for
AI-against-AI play, simulations and replays."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from tertia.ai.player import NoLegalAction, Player
from tertia.core.actions import Action
from tertia.core.dice import Roll, SeededDice, derive_seed
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.narration import plural
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction

MAX_ACTIONS = 20_000
"""A battle that has not ended after this many actions is stopped as a failure."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action, what it caused, and the state after it."""

    side: str
    action: Action
    events: tuple[Event, ...]
    state: GameState


@dataclass
class BattleRecord:
    """Everything needed to replay and report a battle."""

    game: Game
    seed: int
    initial_state: GameState
    start_events: tuple[Event, ...]
    steps: list[Step] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    players: Mapping[str, str] = field(default_factory=dict)

    @property
    def final_state(self) -> GameState:
        return self.steps[-1].state if self.steps else self.initial_state

    @property
    def deployed(self) -> GameState:
        """The position before :attr:`start_events` (``initial_state`` is the one after
        them): where a telling of the whole battle starts."""
        return self.game.deployed()

    def iter_events(self) -> list[Event]:
        out = list(self.start_events)
        for s in self.steps:
            out.extend(s.events)
        return out


class BattleAborted(RuntimeError):
    """A player chose an illegal action or the battle did not end. For a battle that did
    not end within its ``max_actions``, :attr:`unfinished` is the battle so far (a record
    ``resume`` can go on from); None otherwise."""

    unfinished: BattleRecord | None = None


class BattleStopped(Exception):
    """A player stopped the battle before its end (a person who left it). :func:`fight_battle`
    sets :attr:`record` to the battle so far, which ``resume`` can go on from."""

    record: BattleRecord | None = None


def dice_seed(seed: int) -> int:
    return derive_seed(seed, "dice")


def player_seed(seed: int, side: str, resumed_at: int = 0) -> int:
    """A player's own stream: from the battle's seed, and for a battle resumed after
    ``resumed_at`` actions, from that point too (its choices before are in the record)."""
    if resumed_at:
        return derive_seed(seed, "player", side, "resumed", resumed_at)
    return derive_seed(seed, "player", side)


def fight_battle(
    game: Game,
    players: Mapping[str, Player],
    seed: int,
    *,
    on_step: Callable[[Step], None] | None = None,
    max_actions: int = MAX_ACTIONS,
    resume: Sequence[Action] = (),
) -> BattleRecord:
    """Play a battle to its end. Dice and each player's choices have separate seeded streams
    derived from ``seed``, so the same seed gives the same battle on any machine.

    ``resume``: the actions of a battle stopped part-way (:class:`BattleStopped`), taken
    again with the same dice before the players choose (``on_step`` is told of them too);
    the players go on from there.
    """
    with collector_paused():
        return _fight(game, players, seed, on_step, max_actions, resume)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused (and resumed after, if it was running).

    A battle makes no reference cycles: states, units, events and actions are values
    that refer only to what was made before them, so reference counting frees all that a
    battle drops (``tests/test_battle_cycles.py`` holds every rule set to it). The
    collector's passes over the many short-lived objects of a battle, and over the states
    its record keeps, find nothing, and cost a tenth to a sixth of the time.

    Resumed, the collector would at once pass over everything the battle left (its
    record) as new: what it holds is first handed to the oldest generation, which only
    the rare full collections look at (``gc.freeze`` then ``gc.unfreeze``; not while
    anything else keeps objects frozen)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if not gc.get_freeze_count():
            gc.freeze()
            gc.unfreeze()
        gc.enable()


def _fight(
    game: Game,
    players: Mapping[str, Player],
    seed: int,
    on_step: Callable[[Step], None] | None,
    max_actions: int,
    resume: Sequence[Action],
) -> BattleRecord:
    dice = SeededDice(dice_seed(seed))
    rngs = {side: random.Random(player_seed(seed, side, len(resume))) for side in players}
    state, start_events = game.start(dice)
    record = BattleRecord(
        game=game, seed=seed, initial_state=state, start_events=tuple(start_events),
        players={side: p.name for side, p in players.items()},
    )
    for done in resume:
        side = state.to_act
        try:
            state, events = game.apply(state, done, dice)
        except IllegalAction as exc:
            raise BattleAborted(f"the battle so far cannot be taken again: step {len(record.steps) + 1}: "
                                f"{exc}") from exc
        record.steps.append(Step(side=side, action=done, events=tuple(events), state=state))
        if on_step is not None:
            on_step(record.steps[-1])
    while not state.is_over:
        if len(record.steps) >= max_actions:
            overrun = BattleAborted(f"the battle did not end within {plural(max_actions, 'action')}")
            record.rolls = list(dice.log)
            overrun.unfinished = record
            raise overrun
        side = state.to_act
        try:
            action = players[side].choose(game, state, rngs[side])
        except NoLegalAction as exc:
            raise BattleAborted(f"{players[side].name}, playing {game.side_names[side]}, found no action to "
                                f"take: {exc}") from exc
        except BattleStopped as exc:
            record.rolls = list(dice.log)
            exc.record = record
            raise
        try:
            state, events = game.apply(state, action, dice)
        except IllegalAction as exc:
            raise BattleAborted(f"{players[side].name}, playing {game.side_names[side]}, chose an illegal "
                                f"action: {exc}") from exc
        step = Step(side=side, action=action, events=tuple(events), state=state)
        record.steps.append(step)
        if on_step is not None:
            on_step(step)
    record.rolls = list(dice.log)
    return record
