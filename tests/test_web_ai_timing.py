"""The AI's timing tells the person playing against it nothing the rules hide.

The runner (:mod:`tertia.web.ai_runner`) works an AI action out, then publishes it at a
fixed cadence while anything is hidden from the person: ``quantum`` after the game's last
change, or the first later multiple. These tests drive the runner by hand on an injected
clock; the AI's "thinking" advances the clock by an amount that depends on its secrets
(where its hidden battery stands), as a slow search over its hidden pieces would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes import concealment
from tertia.rulesets.charge_yr_pikes.concealment import Deploy, DeploymentDone
from tertia.web.ai_runner import AiRunner
from tertia.web.games import GameService
from tertia.web.store import GameStore

RULES = "charge-yr-pikes"
QUANTUM = 2.0
PERSON, AI = "parliament", "royalist"
BATTERY = "r-guns-right"
PLACES = [(22.5, 41.0), (24.5, 40.5)]
"""Two places in Radway for the AI's battery, hidden from the person (as in
tests/test_web_cyp_secrets.py)."""


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Slow:
    """The doctrine AI, its thinking time set by ``cost`` of the true position (it wraps
    the player: a compiled class takes no subclass from a test)."""

    def __init__(self, clock: Clock, cost: Callable[[GameState], float]) -> None:
        self.player = DoctrinePlayer()
        self.clock, self.cost = clock, cost
        self.spent: list[float] = []

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Any:
        action = self.player.choose(game, state, rng)
        self.spent.append(self.cost(state))
        self.clock.now += self.spent[-1]
        return action


def _battery_cost(state: GameState) -> float:
    """Longer the further east the hidden battery stands (under the quantum)."""
    return 0.05 * state.units[BATTERY].x


def setup(tmp_path: Path, name: str, *, options: dict[str, Any], quantum: float = QUANTUM, pace: float = 0.0,
          scenario: str = "edgehill", cost: Callable[[GameState], float] = _battery_cost
          ) -> tuple[GameService, AiRunner, Clock, str, Slow]:
    clock = Clock()
    service = GameService(GameStore(tmp_path / f"{name}.sqlite3"))
    runner = AiRunner(service, pace=pace, quantum=quantum, clock=clock)
    live, _ = service.create(scenario, RULES, options, 7, "ai", PERSON)
    slow = Slow(clock, cost)
    live.players[AI], live.rngs[AI] = slow, random.Random(1)
    return service, runner, clock, live.row.id, slow


def person_acts(service: GameService, clock: Clock, gid: str, player: DoctrinePlayer, rng: random.Random
                ) -> None:
    live = service.live(gid)
    clock.now += 0.7  # the person thinks
    action = player.choose(live.game, live.state, rng)
    service.act(gid, frozenset({PERSON}), action.to_dict())


def ai_acts(service: GameService, runner: AiRunner, clock: Clock, gid: str) -> tuple[float, bool]:
    """One AI action worked out and published: the time from the game's last change to
    its publication, and whether it waited for the cadence."""
    live = service.live(gid)
    version, changed = live.version, live.changed_at
    assert changed is not None
    runner.play_one(gid)
    waited = runner.due(gid) is not None
    while (due := runner.due(gid)) is not None:
        assert live.version == version  # worked out, not yet seen
        assert service.view(gid, frozenset({PERSON}), None, 0)["version"] == version
        clock.now = due
        runner.play_one(gid)
    assert live.version == version + 1
    return round(clock.now - changed, 9), waited


def play(service: GameService, runner: AiRunner, clock: Clock, gid: str, ai_actions: int, own: bool = False
         ) -> list[Any]:
    """Play until the AI has made ``ai_actions`` actions, the person by the doctrine on its
    own view; the AI's publication times (and, with ``own``, whether the AI had made the
    game's last change)."""
    person, rng = DoctrinePlayer(), random.Random(3)
    out: list[Any] = []
    while len(out) < ai_actions:
        live = service.live(gid)
        assert not live.state.is_over
        if live.controller(live.state.to_act) == "ai":
            after_own = live.steps[-1].side == AI
            timed = ai_acts(service, runner, clock, gid)
            out.append((*timed, after_own) if own else timed)
        else:
            person_acts(service, clock, gid, person, rng)
    return out


def hidden_battery_game(tmp_path: Path, place: int) -> tuple[GameService, AiRunner, Clock, str, Slow]:
    """Edgehill with secret deployment: the AI's battery deployed into Radway at place
    ``place`` (hidden from the person), both sides done."""
    game = setup(tmp_path, f"g{place}", options={"secret_deployment": True, "officer_grades": True})
    service, _, _, gid, _ = game
    live = service.live(gid)
    x, y = PLACES[place]
    service.act(gid, frozenset({PERSON}), {"type": "cyp_deployment_done"})
    for action in (Deploy(unit=BATTERY, x=x, y=y), DeploymentDone()):
        with live.lock:
            service.apply(live, AI, action)
    assert concealment.hidden_from(live.state, PERSON) == [BATTERY]
    return game


def test_two_games_differing_only_in_what_the_person_cannot_see_publish_at_the_same_times(
        tmp_path: Path) -> None:
    games = [hidden_battery_game(tmp_path, place) for place in (0, 1)]
    times = [play(service, runner, clock, gid, 8) for service, runner, clock, gid, _ in games]
    spent = [g[4].spent for g in games]
    assert len(spent[0]) == len(spent[1]) == 8
    assert all(a < b for a, b in zip(*spent, strict=True))  # the AI took longer with its battery further east
    assert times[0] == times[1]
    assert all(t == (QUANTUM, True) for t in times[0])
    played = [[(s.side, s.action) for s in g[0].live(g[3]).steps[2:]] for g in games]
    assert played[0] == played[1]  # the same battle after the battery's deployment


def test_a_decision_overrunning_the_quantum_is_published_at_the_next_multiple(tmp_path: Path) -> None:
    service, runner, clock, gid, _ = hidden_battery_game_with_cost(tmp_path, 1.5 * QUANTUM)
    assert play(service, runner, clock, gid, 2) == [(2 * QUANTUM, True)] * 2


def hidden_battery_game_with_cost(tmp_path: Path, seconds: float
                                  ) -> tuple[GameService, AiRunner, Clock, str, Slow]:
    game = hidden_battery_game(tmp_path, 0)
    game[4].cost = lambda state: seconds
    return game


def test_the_pause_between_the_ai_s_actions_comes_before_the_cadence(tmp_path: Path) -> None:
    service, runner, clock, gid, _ = hidden_battery_game(tmp_path, 0)
    runner.pace = 0.5
    kinds = set()
    for took, waited, after_own in play(service, runner, clock, gid, 8, own=True):
        assert (took, waited) == ((0.5 if after_own else 0.0) + QUANTUM, True)
        kinds.add(after_own)
    assert kinds == {True, False}


@pytest.mark.parametrize("quantum", [QUANTUM, 0.0])
def test_a_game_that_hides_nothing_from_the_person_is_not_slowed(tmp_path: Path, quantum: float) -> None:
    service, runner, clock, gid, _ = setup(
        tmp_path, "open", options={"secret_deployment": False, "officer_grades": False}, scenario="naseby",
        quantum=quantum, cost=lambda state: 0.25)
    live = service.live(gid)
    open_actions = 0
    for _ in range(12):
        while live.controller(live.state.to_act) != "ai":
            person_acts(service, clock, gid, DoctrinePlayer(), random.Random(3))
        secret = live.hides_in(live.state, PERSON)
        took, waited = ai_acts(service, runner, clock, gid)
        if not secret and not live.hides_in(live.state, PERSON):
            assert (took, waited) == (0.25, False)  # published as soon as it was ready
            open_actions += 1
        else:  # a fire order of the AI's, hidden until the step is worked out
            assert (took, waited) == ((QUANTUM, True) if quantum else (0.25, False))
    assert open_actions > 0


def test_an_action_worked_out_for_a_game_dropped_from_memory_is_worked_out_again(tmp_path: Path) -> None:
    service, runner, clock, gid, _ = hidden_battery_game(tmp_path, 0)
    while service.live(gid).controller(service.live(gid).state.to_act) != "ai":
        person_acts(service, clock, gid, DoctrinePlayer(), random.Random(3))
    before = service.live(gid).version
    runner.play_one(gid)
    assert runner.due(gid) is not None
    service.forget(gid)
    clock.now = runner.due(gid) or 0.0
    assert runner.play_one(gid) == 0.0  # dropped, to be looked at again
    assert service.live(gid).version == before and runner.due(gid) is None
