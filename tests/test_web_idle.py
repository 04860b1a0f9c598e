"""What a served game holds stays small: games idle too long leave memory (and come back
from the database as they were), past positions forget their memos, a game's history holds
few positions and works out the others exactly, a game keeps few views and log entries
ready (one view for both sides when nothing is hidden), the AI stops a battle nobody
watches and lists only its latest faults, the store remembers the tokens of a bounded
number of games, a long-poll on a game dropped from memory ends rather than watch a copy
no one changes, and malloc keeps few arenas."""

from __future__ import annotations

import platform
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.cli.serve_commands import fewer_malloc_arenas
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin
from tertia.web.ai_runner import ERRORS_KEPT, AiRunner
from tertia.web.app import create_app
from tertia.web.games import GameService
from tertia.web.live import CHECKPOINT, LOG_ENTRIES_KEPT, VIEWS_KEPT, WINDOW, History, Step
from tertia.web.store import DIGESTS_KEPT, GameRow, GameStore, token_digest
from tests.web_support import bearer, create, service, wait_until


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_games_idle_longer_than_the_limit_leave_memory_and_come_back_whole(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", idle_seconds=100)) as client:
        clock = Clock()
        service(client).idle_clock = clock
        games = [create(client, mode="hotseat", seed=n) for n in range(3)]
        first, _, last = games
        me = bearer(first["tokens"]["parliament"])
        before = client.get(f"/api/games/{first['id']}/view", headers=me).json()
        clock.now += 60
        client.get(f"/api/games/{last['id']}", headers=bearer(last["tokens"]["parliament"]))
        assert service(client).games_in_memory == 3
        clock.now += 50  # the first two were last asked for 110 s ago, the last 50 s ago
        client.get(f"/api/games/{last['id']}", headers=bearer(last["tokens"]["parliament"]))
        assert service(client).games_in_memory == 1
        again = client.get(f"/api/games/{first['id']}/view", headers=me).json()
        assert service(client).games_in_memory == 2
        assert (again["version"], again["state"], again["log"]) == (before["version"], before["state"],
                                                                   before["log"])


def test_a_past_position_forgets_what_was_asked_of_it(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        game = create(client, mode="hotseat")
        base = f"/api/games/{game['id']}"
        side, order = first_order(client, base, game["tokens"])
        me = bearer(game["tokens"][side])
        assert client.post(base + "/actions", json=order, headers=me).status_code == 200
        live = service(client).live(game["id"])
        past, now = live.states
        assert not past.cache and not past.measured
        client.get(base + "/view", headers=me)
        assert now.cache  # the current position keeps its memos (the choices were validated on it)


def test_a_wait_on_a_game_dropped_from_memory_ends(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        game = create(client, mode="hotseat")
        token = game["tokens"]["parliament"]
        threading.Timer(0.3, service(client).forget, args=(game["id"],)).start()
        began = time.monotonic()
        answer = client.get(f"/api/games/{game['id']}/wait", params={"version": 0, "timeout": 20},
                            headers=bearer(token))
        assert answer.status_code == 200 and answer.json()["changed"] is False
        assert time.monotonic() - began < 3


def version_of(client: TestClient, game: dict[str, Any]) -> int:
    return int(service(client).live(game["id"], asked=False).version)


def test_the_ai_stops_a_battle_nobody_watches_and_goes_on_when_asked(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.05)) as client:
        clock = Clock()
        service(client).idle_clock = clock
        game = create(client, mode="watch")
        wait_until(lambda: version_of(client, game) >= 3)
        clock.now += 61  # the spectator has gone
        time.sleep(0.3)
        stopped = version_of(client, game)
        time.sleep(0.5)
        assert version_of(client, game) == stopped
        assert client.get(f"/api/games/{game['id']}/view", headers=bearer(game["tokens"]["spectator"])
                          ).status_code == 200
        wait_until(lambda: version_of(client, game) > stopped + 2)


def test_a_game_asked_about_again_and_again_is_played_at_its_pace(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.2)) as client:
        game = create(client, mode="watch")
        wait_until(lambda: version_of(client, game) >= 1)
        start, began = version_of(client, game), time.monotonic()
        for _ in range(20):  # every change and every return of a spectator looks at it again
            service(client).on_change(game["id"])
        time.sleep(2.0)
        played = version_of(client, game) - start
        assert played <= (time.monotonic() - began) / 0.2 + 2


BATTLES = [("larger-battles", "skirmish"), ("charge-yr-pikes", "naseby"), ("declare-thee-sir", "edgehill")]


@pytest.mark.parametrize(("rules", "scenario"), BATTLES)
def test_a_history_holds_few_positions_and_works_out_the_others_exactly(rules: str, scenario: str) -> None:
    game = Game(get_ruleset(rules), load_builtin(scenario, rules_id=rules))
    dice = SeededDice(4)
    state, _ = game.start(dice)
    players, rng = {s: DoctrinePlayer() for s in state.sides}, random.Random(4)
    every: list[GameState] = [state]
    steps: list[Step] = []
    history = History([state], steps)
    while len(steps) < 2 * CHECKPOINT + WINDOW and not state.is_over:
        action = players[state.to_act].choose(game, state, rng)
        state, events = game.apply(state, action, dice)
        steps.append(Step(state.to_act, action, tuple(events), (), False))
        history.append(state)
        every.append(state)
    assert len(history) == len(every) > CHECKPOINT + WINDOW
    assert sum(held is not None for held in history._held) <= len(every) // CHECKPOINT + WINDOW + 1
    order = list(range(len(every)))
    random.Random(1).shuffle(order)
    for i in order:  # asked for in any order, each is the position the game went through
        assert history[i] == every[i], i
    assert list(history) == every and history[-1] is every[-1]
    for _ in range(WINDOW + 3):  # undone back past the positions it holds
        steps.pop()
        assert history.pop() == every.pop()
        assert history[-1] == every[-1]
    assert list(history) == every


def test_a_log_both_sides_see_alike_is_told_once(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        game = create(client, mode="hotseat")
        base = f"/api/games/{game['id']}"
        side, order = first_order(client, base, game["tokens"])
        acted = client.post(base + "/actions", json=order, headers=bearer(game["tokens"][side]))
        assert acted.status_code == 200
        logs = [client.get(base + "/view", headers=bearer(token)).json()["log"]
                for token in game["tokens"].values()]
        assert len(logs[0]) == len(logs[1]) == 2
        assert [e["lines"] for e in logs[0]] == [e["lines"] for e in logs[1]]
        assert len(service(client).live(game["id"])._lines) == 2  # not one per side


def test_a_game_keeps_few_views_and_log_entries_ready() -> None:
    games = GameService(GameStore(":memory:"))
    live, tokens = games.create("skirmish", "larger-battles", {}, 7, "hotseat", None)
    roles = {side: games.roles(live.row.id, tokens[side]) for side in live.sides}
    players, rng = {side: DoctrinePlayer() for side in live.sides}, random.Random(7)
    read = dict.fromkeys(live.sides, 0)
    while len(live.steps) < LOG_ENTRIES_KEPT + 10:
        side = live.state.to_act
        games.act(live.row.id, roles[side], players[side].choose(live.game, live.state, rng).to_dict())
        for viewer in live.sides:  # each side's page reads what is new, as the page does
            read[viewer] = games.view(live.row.id, roles[viewer], None, read[viewer])["log_total"]
    games.view(live.row.id, roles[side], None, 0)  # a page opened: the whole log
    assert len(live._lines) == LOG_ENTRIES_KEPT
    assert len(live._observed) == VIEWS_KEPT
    now, (first, second) = len(live.steps), live.sides
    assert live.observe(now, first) is live.observe(now, second)  # larger-battles hides nothing
    assert not live.hides_anything(first) and len(live._observed) == VIEWS_KEPT


def test_a_view_kept_for_one_side_is_never_shown_to_the_other() -> None:
    games = GameService(GameStore(":memory:"))
    live, _ = games.create("naseby", "charge-yr-pikes", {}, 7, "hotseat", None)
    first, second = live.sides
    assert live.hides_anything(first) and live.hides_anything(second)
    mine = live.observe(0, first)
    assert live.observe(0, second) is not mine and live.observe(0, second) != mine


def test_the_ai_lists_only_its_latest_faults() -> None:
    runner = AiRunner(GameService(GameStore(":memory:")), clock=lambda: 0.0)
    faults = ERRORS_KEPT + 5
    asked: list[str] = []

    def failing(game_id: str) -> float | None:
        asked.append(game_id)
        runner._stopping = len(asked) == faults  # the loop ends after the last
        raise RuntimeError(f"fault {len(asked)}")

    runner.play_one = failing  # type: ignore[method-assign]
    for n in range(faults):
        runner.schedule(f"g{n}")
    runner._run()  # on this thread: every game looked at once, each failing
    assert len(asked) == faults
    assert runner.errors == [f"g{n}: fault {n + 1}" for n in range(faults - ERRORS_KEPT, faults)]


def test_the_store_remembers_the_tokens_of_a_bounded_number_of_games() -> None:
    store = GameStore(":memory:")
    ids = [f"g{n}" for n in range(DIGESTS_KEPT + 5)]
    for game_id in ids:
        store.create_game(GameRow(id=game_id, created=0.0, scenario="skirmish", rules="larger-battles",
                                  options={}, seed=1, mode="hotseat", controllers={}, start_rolls=()),
                          {"parliament": token_digest(f"token of {game_id}")})
        assert store.match_token(game_id, f"token of {game_id}") == "parliament"
    assert len(store._digests) == DIGESTS_KEPT
    assert ids[0] not in store._digests  # the first forgotten, and read again when asked about
    assert store.match_token(ids[0], f"token of {ids[0]}") == "parliament"
    assert store.match_token(ids[0], "another token") is None
    assert len(store._digests) == DIGESTS_KEPT


def first_order(client: TestClient, base: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The side to act and an order it may give (larger-battles: every turn opens with orders)."""
    side = client.get(base + "/view", headers=bearer(tokens["parliament"])).json()["status"]["to_act"]
    view = client.get(base + "/view", headers=bearer(tokens[side])).json()
    return side, next(c["action"] for c in view["choices"] if c["kind"] == "give_order")


def test_the_server_keeps_few_malloc_arenas() -> None:
    """Under glibc the server asks malloc for two arenas (its threads' memory freed in one
    is then reused by the others); elsewhere it asks nothing."""
    assert fewer_malloc_arenas() is (sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc")
