"""Two games of Charge yr Pikes! played side by side that differ only in what one side
(the viewer) cannot see: what the viewer is told of each, step by step.

The viewer's game AI plays both games, each with its own copy of the same random stream;
the other side (the hider) is played by its AI in the first game, and its actions are
played again in the second (a hook may change them, as a move of a piece standing
elsewhere). At every step the viewer's observation, its log (the events it may see and
their narrative, told as the server tells them) and its AI's choice must be the same in
both games, until a hook says the secret has been shown.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tertia.core.actions import Action, Move
from tertia.core.dice import Distribution
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.hidden import view_of
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.io.narrative import Narrator
from tertia.rulesets.charge_yr_pikes import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine
from tertia.rulesets.charge_yr_pikes.concealment import Deploy, DeploymentDone, deploying
from tertia.scenarios import load_builtin

RULES_ID = "charge-yr-pikes"

Counterpart = Callable[[GameState, GameState, Action], Action | None]
"""The hider's action in the second game, given the two positions and its action in the
first (None: it has none there, and the walk ends)."""
Settle = Callable[[GameState, tuple[GameState, GameState], tuple[list[Event], list[Event]]], GameState | None]
"""After a step, given the second game's position before it, the positions after it and
its events in each game: None to go on, or a second position to play the step again from
(a secret shown in the step, made the same in both games)."""
Over = Callable[[Sequence[Event], Sequence[Event]], bool]
"""Given the events of a step in each game: has the secret been shown (the walk ends
before comparing the step's log)?"""


class PurposeDice:
    """Seeded dice whose every roll is drawn by the seed, its purpose and how many rolls
    of that purpose came before: a roll the viewer cannot see (a hidden unit's command
    response "without officer", say) leaves the rolls that follow it as they were. One
    stream shared by every roll would shift them all, so two games that differ only in a
    secret would roll otherwise everywhere after the first roll the secret adds."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.counts: dict[str, int] = {}

    def roll(self, dist: Distribution, purpose: str) -> int:
        n = self.counts.get(purpose, 0)
        self.counts[purpose] = n + 1
        r = random.Random(f"{self.seed}|{purpose}|{n}").randrange(dist.total_weight)
        for face, weight in dist.outcomes:
            if r < weight:
                return face
            r -= weight
        return dist.outcomes[-1][0]


def game_of(scenario: str | Scenario, *, secret_deployment: bool = True, officer_grades: bool = True) -> Game:
    """A game of a built-in scenario (or ``scenario``) with the options given explicitly."""
    built = load_builtin(scenario) if isinstance(scenario, str) else scenario
    return Game(ChargeYrPikes(secret_deployment=secret_deployment, officer_grades=officer_grades), built)


def misty_naseby(open_ground: int = 24) -> Scenario:
    """Naseby on a misty morning: open ground is seen only within ``open_ground`` inches
    (the scenario's replacement of ``[visibility] open``). Naseby has no wood or town, and
    the whole field is within the 72" of a clear day; in the mist both armies start unseen
    and are placed as they come within sight of each other."""
    from tertia.rulesets.charge_yr_pikes.tables import default_tables

    scenario = load_builtin("naseby")
    ext = dict(scenario.extensions[RULES_ID])
    vis = default_tables().visibility.model_dump()
    ext["tables"] = {**ext.get("tables", {}), "visibility": {**vis, "open": open_ground}}
    return scenario.model_copy(update={"extensions": {**scenario.extensions, RULES_ID: ext}})


def deployed(game: Game, seed: int, deploys: Sequence[Deploy] = ()) -> GameState:
    """The battle's opening: each side deploys (``deploys`` are made by the side whose
    pieces they move) and says it is done."""
    dice = PurposeDice(seed)
    state, _ = game.start(dice)
    while (side := deploying(state)) is not None:
        for d in deploys:
            if state.units[d.unit].side == side:
                state, _ = game.apply(state, d, dice)
        state, _ = game.apply(state, DeploymentDone(), dice)
    return state


# --- what a side is told ----------------------------------------------------------------------


def told(game: Game, before: GameState, events: Sequence[Event], side: str) -> tuple[list[dict[str, Any]],
                                                                                    list[str]]:
    """The events of a step ``side`` may see, and their narrative as the server tells it
    (a narrator following the position the step began from)."""
    shown = [e for e in events if game.ruleset.event_visible_to(e, side)]
    names = {s.id: (s.name or s.id) for s in game.scenario.sides}
    lines = [f"{n.kind}: {n.text}" for n in Narrator(before, side_names=names).entries(shown)]
    return [e.to_dict() for e in shown], lines


def observation(game: Game, state: GameState, side: str) -> GameState:
    """``side``'s observation of ``state``, checked stable: observing twice gives the same,
    and observing the observation changes nothing."""
    view = game.observed_state(state, side)
    assert game.observed_state(state, side) == view
    assert game.observed_state(view, side) == view
    assert view_of(view) in (None, side)
    return view


def seen_units(game: Game, state: GameState, side: str) -> dict[str, dict[str, Any]]:
    """The pieces in ``side``'s observation as the server sends it (:meth:`Game.observe`),
    by id."""
    seen = game.observe(state, side)
    assert seen == game.observe(game.observed_state(state, side), side)
    return {u["id"]: u for u in seen["units"]}


def assert_alike(game: Game, one: GameState, two: GameState, side: str, *, fully: bool = False) -> None:
    """``side`` sees the same of ``one`` and ``two``; ``fully``: its observations checked
    stable too, the same as the server sends them, and it plays on the same sample of each
    (its AI's choices, compared at each of its steps, are made on that sample)."""
    if not fully:
        assert game.observed_state(one, side) == game.observed_state(two, side)
        return
    assert observation(game, one, side) == observation(game, two, side)
    assert game.observe(one, side) == game.observe(two, side)
    assert game.playable_state(one, side, one.step) == game.playable_state(two, side, two.step)


# --- a walk along two games ---------------------------------------------------------------------


def same_action(one: GameState, two: GameState, action: Action) -> Action | None:
    return action


def moved_alike(piece: str) -> Counterpart:
    """The hider's actions, a move of ``piece`` shifted by the difference between where it
    stands in the two games (where that move is legal; else as given)."""

    def counterpart(one: GameState, two: GameState, action: Action) -> Action | None:
        if isinstance(action, Move) and action.unit == piece:
            dx = two.units[piece].x - one.units[piece].x
            dy = two.units[piece].y - one.units[piece].y
            return Move(unit=piece, waypoints=tuple((x + dx, y + dy) for x, y in action.waypoints),
                        face_before=action.face_before, face_after=action.face_after)
        return action

    return counterpart


@dataclass
class Walk:
    """Where a walk along two games ended, and why."""

    game: Game
    viewer: str
    one: GameState
    two: GameState
    steps: int = 0
    """Steps compared."""
    choices: int = 0
    """Of which the viewer's AI chose."""
    ended: str = "limit"
    """"limit", "over" (the game ended), "shown" (the secret was shown: ``events`` are
    the last step's in each game, from ``before``), "apart" (the hider's action has no
    counterpart legal in the second game)."""
    before: tuple[GameState, GameState] | None = None
    events: tuple[list[Event], list[Event]] = field(default_factory=lambda: ([], []))
    settled: int = 0
    """Steps played again from a settled second position."""


def walk(game: Game, one: GameState, two: GameState, viewer: str, seed: int, limit: int, *,
         counterpart: Counterpart = same_action, over: Over | None = None,
         settle: Settle | None = None) -> Walk:
    """Play ``one`` and ``two`` side by side for up to ``limit`` steps, asserting at each
    that ``viewer`` is told the same of both (see the module)."""
    dice = (PurposeDice(seed), PurposeDice(seed))
    mine = (CypDoctrine(), CypDoctrine())
    rngs = (random.Random(seed), random.Random(seed))
    theirs, their_rng = CypDoctrine(), random.Random(seed + 1000)
    out = Walk(game, viewer, one, two)
    while out.steps < limit:
        assert one.is_over == two.is_over
        if one.is_over:
            out.ended = "over"
            break
        assert_alike(game, one, two, viewer, fully=out.steps % 5 == 0)
        if one.to_act == viewer:
            action = mine[0].choose(game, one, rngs[0])
            assert mine[1].choose(game, two, rngs[1]) == action
            assert rngs[0].getstate() == rngs[1].getstate()
            other: Action | None = action
            out.choices += 1
        else:
            action = theirs.choose(game, one, their_rng)
            other = counterpart(one, two, action)
            if other is None or not game.is_legal(two, other):
                out.ended = "apart"
                break
        saved = copy.deepcopy(dice[1])
        after_one, events_one = game.apply(one, action, dice[0])
        after_two, events_two = game.apply(two, other, dice[1])
        if settle is not None:
            again = settle(two, (after_one, after_two), (events_one, events_two))
            if again is not None:
                dice = (dice[0], saved)
                after_two, events_two = game.apply(again, other, dice[1])
                two = again
                out.settled += 1
        if over is not None and over(events_one, events_two):
            out.ended, out.before, out.events = "shown", (one, two), (events_one, events_two)
            out.one, out.two = after_one, after_two
            return out
        log_one, log_two = told(game, one, events_one, viewer), told(game, two, events_two, viewer)
        assert log_one == log_two, (out.steps, action, other, _first_difference(log_one, log_two))
        one, two = after_one, after_two
        out.one, out.two = one, two
        out.steps += 1
    return out


def _first_difference(one: tuple[list[Any], list[str]], two: tuple[list[Any], list[str]]) -> str:
    for name, a, b in (("line", one[1], two[1]), ("event", one[0], two[0])):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return f"{name} {i}: {x!r} / {y!r}"
        if len(a) != len(b):
            return f"{name}s: {a[len(b):]!r} / {b[len(a):]!r}"
    return "none"
