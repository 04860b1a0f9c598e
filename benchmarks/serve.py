"""Round trips of the served game on loopback, with many games in play at once.

Starts ``tertia serve`` in a subprocess on a free port with a fresh database, then:

1. ``--games`` hotseat games (the skirmish) played at once by as many client threads,
   each choosing its side's actions with the doctrine AI from its own view: the time of
   every ``POST /actions`` (applied, saved, answered) and of every ``GET /view``, at the
   50th, 95th and 99th percentiles. Once with each player pausing ``--think`` seconds on
   average between actions (a busy evening: 20 tables, a move every half second at
   each), then with every player flat out (the server saturated).
2. ``--ai-games`` games against the AI: after the human side ends its turn, the time
   until the AI has played its whole turn and the page is told it is the human's move.

Usage: python benchmarks/serve.py [--games 20] [--actions 60] [--ai-games 8]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin
from tests.web_server import Server


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def report(label: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    if not ms:
        print(f"{label:<44} n=    0")
        return
    print(f"{label:<44} n={len(ms):>5}  p50 {percentile(ms, 50):7.1f} ms  p95 {percentile(ms, 95):7.1f} ms  "
          f"p99 {percentile(ms, 99):7.1f} ms  max {max(ms):7.1f} ms  mean {statistics.fmean(ms):6.1f} ms")


def play_hotseat(url: str, created: dict[str, Any], actions: int, seed: int, think: float,
                 posts: list[float], views: list[float], barrier: threading.Barrier) -> None:
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    players = {side: DoctrinePlayer() for side in created["tokens"]}
    rng = random.Random(seed)
    base = f"{url}/api/games/{created['id']}"
    with httpx.Client(timeout=30) as client:
        barrier.wait()
        for _ in range(actions):
            if think:
                time.sleep(rng.uniform(0.4, 1.6) * think)
            any_token = next(iter(created["tokens"].values()))
            t0 = time.perf_counter()
            view = client.get(base + "/view?log_from=100000",
                              headers={"Authorization": f"Bearer {any_token}"}).json()
            views.append(time.perf_counter() - t0)
            if view["status"]["over"]:
                return
            side = view["status"]["to_act"]
            state = GameState.from_dict(view["state"])
            action = players[side].choose(game, state, rng)
            t0 = time.perf_counter()
            r = client.post(base + "/actions", json=action.to_dict(),
                            headers={"Authorization": f"Bearer {created['tokens'][side]}"})
            posts.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text


def hotseat_round(url: str, args: argparse.Namespace, think: float) -> None:
    created = [httpx.post(url + "/api/games", json={"scenario": "skirmish", "mode": "hotseat",
                                                     "seed": i}).json() for i in range(args.games)]
    posts: list[float] = []
    views: list[float] = []
    barrier = threading.Barrier(args.games)
    threads = [
        threading.Thread(target=play_hotseat, args=(url, c, args.actions, i, think, posts, views, barrier))
        for i, c in enumerate(created)
    ]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    pace = f"each player acting every {think:g} s on average" if think else "every player flat out"
    print(f"{args.games} games in play at once, {pace}: {len(posts)} actions in {elapsed:.1f} s "
          f"({len(posts) / elapsed:.0f} actions/s)")
    report("  POST /actions (apply, save, answer)", posts)
    report("  GET /view", views)


def ai_reply_times(url: str, games: int) -> list[float]:
    times: list[float] = []
    with httpx.Client(timeout=30) as client:
        for i in range(games):
            created = client.post(url + "/api/games", json={
                "scenario": "skirmish", "mode": "ai", "side": "parliament", "seed": 100 + i}).json()
            base = f"{url}/api/games/{created['id']}"
            auth = {"Authorization": f"Bearer {created['tokens']['parliament']}"}
            for _turn in range(3):
                view = wait_for_us(client, base, auth)
                if view is None:
                    break
                for _ in range(3):  # end movement, bombardment and combat: the turn passes
                    client.post(base + "/actions", json={"type": "end_phase"}, headers=auth)
                t0 = time.perf_counter()
                if wait_for_us(client, base, auth) is None:
                    break
                times.append(time.perf_counter() - t0)
    return times


def wait_for_us(client: httpx.Client, base: str, auth: dict[str, str]) -> dict[str, Any] | None:
    """Wait, as the page does, until the game awaits us; ``None`` once it is over."""
    while True:
        view: dict[str, Any] = client.get(base + "/view?log_from=100000", headers=auth).json()
        if view["status"]["over"]:
            return None
        if view["status"]["your_turn"]:
            return view
        client.get(base + f"/wait?version={view['version']}&timeout=5", headers=auth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--actions", type=int, default=60, help="actions per hotseat game")
    parser.add_argument("--ai-games", type=int, default=8)
    parser.add_argument("--think", type=float, default=0.5,
                        help="a player's mean pause between actions in the paced round (s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "games.sqlite3").start()
        # The players' machines are elsewhere: their work here must not starve the server.
        os.nice(10)
        try:
            url = server.url
            for think in (args.think, 0.0):
                hotseat_round(url, args, think)
            replies = ai_reply_times(url, args.ai_games)
            report("AI reply: end of turn to your move again", replies)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
