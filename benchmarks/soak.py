"""Memory of a served game table over a long evening: does it stay flat?

Starts ``tertia serve --max-games 20`` in a subprocess on a free port with a fresh
database, then keeps ``--tables`` client threads busy for ``--minutes``: each creates a
hotseat skirmish, plays it through the HTTP API with the doctrine AI choosing both sides'
actions from the view, and starts another when it ends (or after ``--actions``). Far more
games are created than the server may hold, so its least recently used games are dropped
and rebuilt from the database when asked for again (every tenth request looks at an old
game). Every ``--every`` seconds the server's resident memory (VmRSS, from /proc) is
printed; at the end, the growth from the first sample after the warm-up to the last.

Usage: python benchmarks/soak.py [--minutes 10] [--tables 6] [--every 30]
"""

from __future__ import annotations

import argparse
import random
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

MAX_GAMES = 20


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Table(threading.Thread):
    """One client playing game after game until told to stop."""

    def __init__(self, url: str, seed: int, actions: int, stop: threading.Event,
                 finished: list[str], lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.url, self.seed, self.actions, self.stop_event = url, seed, actions, stop
        self.finished, self.lock = finished, lock
        self.requests = 0

    def run(self) -> None:
        game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
        rng = random.Random(self.seed)
        with httpx.Client(timeout=30) as client:
            while not self.stop_event.is_set():
                self.play_one(client, game, rng)

    def play_one(self, client: httpx.Client, game: Game, rng: random.Random) -> None:
        created: dict[str, Any] = client.post(self.url + "/api/games", json={
            "scenario": "skirmish", "mode": "hotseat", "seed": rng.randrange(2**31)}).json()
        base = f"{self.url}/api/games/{created['id']}"
        tokens = created["tokens"]
        players = {side: DoctrinePlayer() for side in tokens}
        for _ in range(self.actions):
            if self.stop_event.is_set():
                return
            self.look_back(client, rng)
            view = client.get(base + "/view", headers=_auth(next(iter(tokens.values())))).json()
            self.requests += 1
            if view["status"]["over"]:
                break
            side = view["status"]["to_act"]
            action = players[side].choose(game, GameState.from_dict(view["state"]), rng)
            client.post(base + "/actions", json=action.to_dict(), headers=_auth(tokens[side]))
            self.requests += 1
        with self.lock:
            self.finished.append(f"{created['id']}:{next(iter(tokens.values()))}")

    def look_back(self, client: httpx.Client, rng: random.Random) -> None:
        """Now and then, ask for a finished game, long since dropped from memory."""
        with self.lock:
            old = rng.choice(self.finished) if self.finished and rng.random() < 0.1 else None
        if old is not None:
            gid, token = old.split(":", 1)
            client.get(f"{self.url}/api/games/{gid}/view", headers=_auth(token))
            self.requests += 1


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between memory samples")
    parser.add_argument("--actions", type=int, default=150, help="actions at most per game")
    parser.add_argument("--warm-up", type=float, default=60.0, help="seconds before the first sample counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "games.sqlite3", None, "--max-games", str(MAX_GAMES)).start()
        assert server.process is not None
        pid = server.process.pid
        stop = threading.Event()
        finished: list[str] = []
        lock = threading.Lock()
        tables = [Table(server.url, i, args.actions, stop, finished, lock) for i in range(args.tables)]
        start = time.monotonic()
        samples: list[tuple[float, float, int, int]] = []
        try:
            for t in tables:
                t.start()
            print(f"{'minute':>7} {'RSS MiB':>8} {'games done':>10} {'requests':>9}")
            while (elapsed := time.monotonic() - start) < args.minutes * 60:
                time.sleep(min(args.every, max(0.0, args.minutes * 60 - elapsed)))
                elapsed = time.monotonic() - start
                sample = (elapsed / 60, rss_mib(pid), len(finished), sum(t.requests for t in tables))
                samples.append(sample)
                print(f"{sample[0]:7.1f} {sample[1]:8.1f} {sample[2]:10d} {sample[3]:9d}", flush=True)
        finally:
            stop.set()
            for t in tables:
                t.join(timeout=30)
            server.stop()
    counted = [s for s in samples if s[0] * 60 >= args.warm_up] or samples
    first, last = counted[0], counted[-1]
    print(f"after the warm-up: {first[1]:.1f} MiB at minute {first[0]:.1f}, {last[1]:.1f} MiB at minute "
          f"{last[0]:.1f} ({last[1] - first[1]:+.1f} MiB) with {last[2]} games played, "
          f"at most {MAX_GAMES} held in memory")


if __name__ == "__main__":
    main()
