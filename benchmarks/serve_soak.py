"""Does the server's memory stay flat under many players for a long evening?

Starts ``tertia serve`` in a subprocess on a free port (or ``--port``) with a fresh
database, then runs ``--clients`` client threads for ``--minutes``, each behaving as the
page does: it creates a battle (a random built-in scenario and rule set; against the AI,
hotseat, or the AI against itself to watch), reads the table, the summary and the rule
set, reads the view and then the log from where it left off, long-polls ``/wait`` while
the other side moves, looks at units' cards, and when it holds the move makes one of the
actions offered (an order, an answer, a card order, the end of a phase, or a move dragged
a few inches after asking ``/validate``), thinking a moment between actions. When a battle
ends (or after ``--game-actions`` actions of its own) it starts another, and now and then
it reopens an old battle, long since dropped from the server's memory.

Every ``--every`` seconds the server's resident memory is sampled (psutil when installed,
else VmRSS from /proc). At the end the samples after ``--warmup-minutes`` are summed up:
the RSS at the end of the warm-up and at the end, the least-squares slope (MiB a minute),
the growth (the mean of the last three samples less that of the first three), and the
growth and slope over the second half. The script exits 1 when the growth exceeds
``--max-growth`` MiB or any answer was a 5xx.

``--tracemalloc`` runs the server under :mod:`tracemalloc` and prints the lines whose
allocations grew most between the end of the warm-up and the end.

Usage: python benchmarks/serve_soak.py [--clients 40] [--minutes 10] [--warmup-minutes 1]
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

SERVER_WRAPPER = """
import collections, gc, json, os, runpy, signal, sys, threading, tracemalloc, types
folder = os.environ["SOAK_TRACEMALLOC"]
if folder:
    tracemalloc.start(int(os.environ.get("SOAK_FRAMES", "12")))
    taken = []
    def snapshot(signum, frame):
        path = os.path.join(folder, f"snapshot-{len(taken)}.pickle")
        tracemalloc.take_snapshot().dump(path + ".part")
        os.replace(path + ".part", path)
        taken.append(path)
    signal.signal(signal.SIGUSR1, snapshot)
census_file = os.environ["SOAK_CENSUS"]
if census_file:
    counted = []
    shared = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
              types.CodeType, threading.Lock().__class__, threading.RLock().__class__)
    def deep_size(root, seen=None):
        # Bytes of the objects reached from root, but for shared ones (types, functions,
        # modules, locks, a game's rule set and table).
        from tertia.core.game import Game
        seen = set() if seen is None else seen
        total, stack = 0, [root]
        while stack:
            o = stack.pop()
            if id(o) in seen or isinstance(o, (*shared, Game)):
                continue
            seen.add(id(o))
            total += sys.getsizeof(o)
            stack.extend(gc.get_referents(o))
        return total
    def memory_census():
        # Where the process's memory is: Python's own allocator (its arenas and the bytes
        # in use in them) and the C library's malloc (in use, free in its heaps, mapped).
        found = {"threads (count)": threading.active_count()}
        try:
            import ctypes
            class MallInfo2(ctypes.Structure):
                _fields_ = [(n, ctypes.c_size_t) for n in (
                    "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
                    "fordblks", "keepcost")]
            libc = ctypes.CDLL("libc.so.6")
            libc.mallinfo2.restype = MallInfo2
            info = libc.mallinfo2()
            found.update({"malloc: in use": info.uordblks, "malloc: free in its heaps": info.fordblks,
                          "malloc: mapped blocks": info.hblkhd})
        except (OSError, AttributeError):
            pass
        import tempfile
        with tempfile.TemporaryFile() as f:
            saved = os.dup(2)
            os.dup2(f.fileno(), 2)
            try:
                sys._debugmallocstats()
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            f.seek(0)
            text = f.read().decode(errors="replace")
        for line in text.splitlines():
            name, _, value = line.partition("=")
            name = name.strip("# ").strip()
            if name in ("arenas allocated current", "bytes in allocated blocks", "bytes in available blocks"):
                number = int(value.strip().replace(",", ""))
                found[f"pymalloc: {name}" + (" (count)" if "arenas" in name else "")] = number
            if "unused pools" in name:
                found["pymalloc: bytes in unused pools"] = int(value.strip().replace(",", ""))
        # The resident memory by kind of mapping (Linux): the heap malloc grows by brk, the
        # other anonymous memory (Python's arenas, malloc's other arenas and the large
        # blocks it maps, threads' stacks), and files (the interpreter, libraries).
        try:
            resident = collections.Counter()
            kind = None
            with open("/proc/self/smaps") as f:
                for line in f:
                    head = line.split()
                    if "-" in head[0] and not head[0].endswith(":"):
                        path = head[5] if len(head) > 5 else ""
                        kind = "heap" if path == "[heap]" else "files" if path.startswith("/") else \
                            "other" if path else "anonymous"
                    elif head[0] == "Rss:":
                        resident[kind] += int(head[1]) * 1024
            found.update({f"rss: {name}": value for name, value in resident.items()})
        except OSError:
            pass
        return found
    def census(signum, frame):
        # Never into the server's own code: a fault here is printed, and an empty census written.
        try:
            counts = counted_now()
        except Exception:
            import traceback
            traceback.print_exc()
            counts = {}
        path = f"{census_file}-{len(counted)}"
        with open(path + ".part", "w") as f:
            json.dump(counts, f)
        os.replace(path + ".part", path)
        counted.append(path)
    def counted_now():
        memory = memory_census()  # first: the census's own lists and sets are large
        objects = gc.get_objects()
        kinds = collections.Counter(type(o).__qualname__ for o in objects)
        caches = {}
        for o in objects:
            if type(o).__name__ == "_lru_cache_wrapper":
                name = getattr(o, "__qualname__", None) or repr(getattr(o, "__wrapped__", o))
                caches[f"{getattr(o, '__module__', '?')}.{name}"] = o.cache_info().currsize
            if type(o).__name__ == "GameService":
                caches["GameService.games_in_memory"] = len(o._live)
                caches["GameService.asked"] = len(o._asked)
        held = collections.Counter()
        for o in objects:
            if type(o).__name__ == "_lru_cache_wrapper" and o.cache_info().currsize:
                name = getattr(o, "__qualname__", None) or "?"
                held[f"cache {getattr(o, '__module__', '?')}.{name}"] += deep_size(o)
            if type(o).__name__ == "GameService":
                for live in list(o._live.values()):
                    seen = set()
                    now = live.states[-1]
                    parts = {"memos of the current position":
                                 (now.cache, now.measured, now.rosters, now.selected),
                             "steps (actions and events)": live.steps,
                             "positions held": live.states._held,
                             "positions worked out again": live.states._remade,
                             "observations": live._observations, "observations as JSON": live._observed,
                             "log entries told": live._lines, "AI players": (live.players, live.rngs),
                             "rest of the game": live}
                    for part, root in parts.items():
                        held[f"games: {part}"] += deep_size(root, seen)
                    held["games: steps played (count)"] += len(live.steps)
        for module_name, module in list(sys.modules.items()):
            if module_name.startswith("tertia"):
                for attribute, value in list(vars(module).items()):
                    if type(value) in (dict, list, set) and len(value) > 100 and attribute[:2] != "__":
                        held[f"module {module_name}.{attribute}"] += deep_size(value)
        from tertia.core.game import Game
        seen = set()
        for o in objects:
            if type(o) is Game:
                held["rule sets and tables of the games made (shared by games)"] += deep_size(vars(o), seen)
                held["rule sets and tables (count)"] += 1
        held.update(memory)
        # Every other object the garbage collector's reach, by type: what the server holds
        # outside the games.
        every = set()
        for o in objects:
            if type(o).__name__ == "GameService":
                for live in list(o._live.values()):
                    deep_size(live, every)
        stack = list(objects)
        while stack:
            o = stack.pop()
            if id(o) not in every:
                every.add(id(o))
                held[f"outside the games: {type(o).__qualname__}"] += sys.getsizeof(o)
                stack.extend(gc.get_referents(o))
        del every, stack
        held["gc: objects tracked (count)"] = len(objects)
        del objects
        return {"kinds": dict(kinds.most_common(200)), "caches": caches, "held": dict(held)}
    signal.signal(signal.SIGUSR2, census)
sys.argv = ["tertia", *sys.argv[1:]]
runpy.run_module("tertia", run_name="__main__")
"""
"""How the server is started: ``python -m tertia`` with, under ``--tracemalloc``, a
snapshot dumped on each SIGUSR1, and under ``--census`` on each SIGUSR2 a count of objects
by type, of the entries of every cache, and of the bytes the games held in memory hold
(by part), the caches, the engine's module-level tables, the rule sets and tables, and
everything else (by type), beside what Python's allocator and malloc hold and the resident
memory by kind of mapping."""

WAIT_SECONDS = 20
"""The page's long-poll."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_reader(pid: int) -> Callable[[], float]:
    """A function giving the process's resident memory in MiB."""
    try:
        process = importlib.import_module("psutil").Process(pid)
        return lambda: float(process.memory_info().rss) / 2**20
    except ImportError:
        status = Path(f"/proc/{pid}/status")

        def from_proc() -> float:
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
            raise RuntimeError("no VmRSS in " + str(status))

        return from_proc


@dataclass
class Tally:
    """What the clients did, shared between them."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    games: int = 0
    actions: int = 0
    finished: int = 0
    server_errors: int = 0
    failures: list[str] = field(default_factory=list)
    old: list[tuple[str, str]] = field(default_factory=list)
    """Games created so far (id, token), to reopen one now and then."""

    def count(self, response: httpx.Response) -> httpx.Response:
        with self.lock:
            self.requests += 1
            if response.status_code >= 500:
                self.server_errors += 1
                if len(self.failures) < 10:
                    self.failures.append(f"{response.request.method} {response.request.url.path}: "
                                         f"{response.status_code} {response.text[:200]}")
        return response


class Player(threading.Thread):
    """One browser: battle after battle until told to stop."""

    def __init__(self, url: str, number: int, args: argparse.Namespace, tally: Tally,
                 combos: list[tuple[str, str, list[str]]], stop: threading.Event) -> None:
        super().__init__(daemon=True, name=f"player-{number}")
        self.url, self.args, self.tally, self.combos, self.stop_event = url, args, tally, combos, stop
        self.rng = random.Random(number)
        self.client = httpx.Client(base_url=url, timeout=WAIT_SECONDS + 30)

    def run(self) -> None:
        try:
            while not self.stop_event.is_set():
                try:
                    self.one_battle()
                except httpx.HTTPError as exc:
                    if self.stop_event.is_set():
                        return
                    with self.tally.lock:
                        if len(self.tally.failures) < 10:
                            self.tally.failures.append(f"{self.name}: {exc!r}")
                    time.sleep(1)
        finally:
            self.client.close()

    # --- requests --------------------------------------------------------------------------

    def get(self, path: str, token: str | None = None, **params: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.tally.count(self.client.get(path, params=params, headers=headers))

    def post(self, path: str, body: Any, token: str | None = None,
             version: int | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if version is not None:
            headers["If-Match"] = f'"{version}"'
        return self.tally.count(self.client.post(path, json=body, headers=headers))

    def think(self) -> None:
        self.stop_event.wait(self.rng.uniform(0, 2 * self.args.think))

    # --- a battle --------------------------------------------------------------------------

    def one_battle(self) -> None:
        if self.tally.old and self.rng.random() < 0.15:
            self.reopen()
        scenario, rules, sides = self.rng.choice(self.combos)
        mode = self.rng.choices(["ai", "hotseat", "watch"], weights=[5, 3, 2])[0]
        body: dict[str, Any] = {"scenario": scenario, "rules": rules, "mode": mode,
                                "seed": self.rng.randrange(2**31)}
        if mode == "ai":
            body["side"] = self.rng.choice(sides)
        created = self.post("/api/games", body)
        if created.status_code != 201:
            return
        game = created.json()
        tokens: dict[str, str] = game["tokens"]
        base = f"/api/games/{game['id']}"
        with self.tally.lock:
            self.tally.games += 1
            self.tally.old.append((game["id"], next(iter(tokens.values()))))
        first = next(iter(tokens.values()))
        self.get(base + "/table", first)
        self.get(base, first)
        self.get(f"/api/rules/{rules}")
        self.play(base, tokens)

    def play(self, base: str, tokens: dict[str, str]) -> None:
        token = next(iter(tokens.values()))
        view = self.get(base + "/view", token, log_from=0).json()
        count = view["log_total"]
        acted = unchanged = looks = 0
        while not self.stop_event.is_set() and looks < 4 * self.args.game_actions:
            looks += 1
            status = view["status"]
            if status["over"]:
                with self.tally.lock:
                    self.tally.finished += 1
                self.get(base + "/replay", token, step=self.rng.randint(0, status["step"]))
                return
            to_act = status["to_act"]
            if to_act in tokens:
                if acted >= self.args.game_actions:
                    return  # the player leaves this battle for another
                token = tokens[to_act]
                if self.act(base, token, view):
                    acted += 1
                self.think()
            else:
                waited = self.get(base + "/wait", token, version=view["version"], timeout=WAIT_SECONDS)
                if waited.status_code != 200:
                    return
                unchanged = 0 if waited.json()["changed"] else unchanged + 1
                if unchanged >= 3:
                    return  # nothing moves: a game stalled, or the watcher has seen enough
            answer = self.get(base + "/view", token, log_from=count)
            if answer.status_code != 200:
                return
            view = answer.json()
            count = view["log_total"]
            if self.rng.random() < 0.3:
                self.look_at_a_unit(base, token, view)

    def act(self, base: str, token: str, view: dict[str, Any]) -> bool:
        """Make one of the actions offered: of the prompt's, or on a unit's card."""
        offers = [*view["choices"], *self.look_at_a_unit(base, token, view, own=True)]
        if not offers:
            return False
        offer = self.rng.choice(offers)
        action: dict[str, Any] = dict(offer["action"])
        if offer.get("interaction") == "drag":
            moved = self.dragged(base, token, view, action)
            if moved is None:
                return False
            action = moved
        for name, choices in (offer.get("options") or {}).items():
            if choices and action.get(name) in (None, []) and self.rng.random() < 0.5:
                action[name] = self.rng.choice(choices)
        answer = self.post(base + "/actions", action, token, view["version"])
        if answer.status_code in (409, 422) and offer["kind"] != "end_phase":
            # Refused (a field the offer left open, say): end the phase instead when the
            # prompt offers it, as a player would.
            ends = [c for c in view["choices"] if c["kind"] == "end_phase"]
            if ends:
                answer = self.post(base + "/actions", ends[0]["action"], token, view["version"])
        if answer.status_code == 200:
            with self.tally.lock:
                self.tally.actions += 1
            return True
        return False

    def dragged(self, base: str, token: str, view: dict[str, Any],
                action: dict[str, Any]) -> dict[str, Any] | None:
        """A move dragged a few inches, validated as the page does while dragging."""
        unit = next((u for u in view["state"]["units"] if u["id"] == action.get("unit")), None)
        if unit is None:
            return None
        for _ in range(3):
            reach = self.rng.uniform(1, 6)
            heading = self.rng.uniform(0, 2 * math.pi)
            x = unit["x"] + reach * math.sin(heading)
            y = unit["y"] + reach * math.cos(heading)
            moved = {**action, "waypoints": [[round(x, 2), round(y, 2)]]}
            verdict = self.post(base + "/validate", moved, token)
            if verdict.status_code == 200 and verdict.json().get("legal"):
                return moved
        return None

    def look_at_a_unit(self, base: str, token: str, view: dict[str, Any],
                       own: bool = False) -> list[dict[str, Any]]:
        """Click a unit (one's own when ``own``): its card and the actions open to it."""
        units = [u for u in view["state"]["units"]
                 if not u.get("removed") and (not own or u.get("side") == view["status"]["to_act"])]
        if not units:
            return []
        unit = self.rng.choice(units)
        answer = self.get(f"{base}/units/{unit['id']}", token)
        if answer.status_code != 200:
            return []
        actions: list[dict[str, Any]] = answer.json().get("actions", [])
        return actions

    def reopen(self) -> None:
        """Open an old battle again, as a player coming back to it would."""
        with self.tally.lock:
            game_id, token = self.rng.choice(self.tally.old)
        base = f"/api/games/{game_id}"
        self.get(base, token)
        self.get(base + "/table", token)
        self.get(base + "/view", token, log_from=0)


def start_server(port: int, db: Path, snapshots: Path | None, census: Path | None,
                 options: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SOAK_TRACEMALLOC": str(snapshots or ""), "SOAK_CENSUS": str(census or "")}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER_WRAPPER, "serve", "--port", str(port), "--db", str(db), *options],
        env=env, stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server stopped at once (exit {process.returncode})")
        try:
            if httpx.get(url + "/api/catalogue", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not answer within a minute")


def snapshot(process: subprocess.Popen[bytes], folder: Path, index: int) -> Path:
    """Ask the server for a tracemalloc snapshot and wait for it to be written."""
    path = folder / f"snapshot-{index}.pickle"
    process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 300
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    return path


def take_census(process: subprocess.Popen[bytes], base: Path, index: int) -> dict[str, Any]:
    """Ask the server to count its objects and caches; the counts."""
    path = Path(f"{base}-{index}")
    process.send_signal(signal.SIGUSR2)
    deadline = time.monotonic() + 120
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    found: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {}
    return found


def report_census(counts: list[dict[str, Any]], top: int = 25) -> None:
    first, last = counts[0], counts[-1]
    held = [c.get("held", {}) for c in counts]
    names = sorted({name for h in held for name in h})

    def row(name: str) -> str:
        values = [h.get(name, 0) for h in held]
        shown = [f"{v:7d}" if name.endswith("(count)") else f"{v / 2**20:7.2f}" for v in values]
        return f"  {' '.join(shown)}  {name}"

    print("\nwhat the server holds (MiB, or a count) at the end of the warm-up and each minute after:")
    outside = "outside the games: "
    small = 2**17  # a module's table of less than 128 KiB is not shown
    for name in names:
        if not name.startswith(outside) and not (name[:7] == "module " and held[-1].get(name, 0) < small):
            print(row(name))
    grown = sorted((n for n in names if n.startswith(outside)),
                   key=lambda n: held[0].get(n, 0) - held[-1].get(n, 0))
    before, after = (sum(h.get(n, 0) for n in grown) / 2**20 for h in (held[0], held[-1]))
    print(f"  everything else the server holds, by type: {before:.2f} MiB, then {after:.2f} MiB; "
          f"grown most (top {top // 2}):")
    for name in grown[:top // 2]:
        print(row(name))
    print("caches (entries) at the end of the warm-up and at the end:")
    before, after = first.get("caches", {}), last.get("caches", {})
    for name in sorted(set(before) | set(after)):
        if before.get(name) != after.get(name) or name.startswith(("tertia", "GameService")):
            print(f"  {before.get(name, 0):8d} {after.get(name, 0):8d}  {name}")
    kinds = {k: last.get("kinds", {}).get(k, 0) - first.get("kinds", {}).get(k, 0)
             for k in set(first.get("kinds", {})) | set(last.get("kinds", {}))}
    print(f"objects the garbage collector tracks, grown most by type (top {top}):")
    for name, grown in sorted(kinds.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {grown:+9d}  {name}")


def report_growth(first: Path, last: Path, top: int = 25) -> None:
    import tracemalloc

    before, after = tracemalloc.Snapshot.load(str(first)), tracemalloc.Snapshot.load(str(last))
    grown = after.compare_to(before, "filename")
    print(f"\ntraced memory after the warm-up {sum(s.size_diff for s in grown) / 2**20:+.2f} MiB; "
          f"by file (top {top}):")
    for stat in grown[:top]:
        where = stat.traceback[0].filename
        print(f"{stat.size_diff / 2**20:+8.2f} MiB {stat.count_diff:+8d} blocks  {where}")
    print(f"\nallocations that grew most after the warm-up (top {top}):")
    for stat in after.compare_to(before, "traceback")[:top]:
        print(f"{stat.size_diff / 2**20:+8.2f} MiB {stat.count_diff:+8d} blocks")
        for line in stat.traceback.format(limit=6):
            print("    " + line)


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of ``(x, y)`` points (0 with fewer than two)."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return 0.0 if var == 0 else sum((x - mx) * (y - my) for x, y in points) / var


def combinations(url: str) -> list[tuple[str, str, list[str]]]:
    """Every (scenario, rule set, sides) the catalogue offers."""
    catalogue = httpx.get(url + "/api/catalogue", timeout=30).json()
    return [(s["name"], rules, list(s["sides"])) for s in catalogue["scenarios"] for rules in s["rules"]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=40, help="players at once")
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the run after the warm-up")
    parser.add_argument("--warmup-minutes", type=float, default=1.0, help="minutes before memory counts")
    parser.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between memory samples")
    parser.add_argument("--think", type=float, default=0.5, help="mean pause between a player's actions (s)")
    parser.add_argument("--game-actions", type=int, default=60,
                        help="actions a player makes in a battle before leaving it for another")
    parser.add_argument("--max-growth", type=float, default=20.0,
                        help="MiB the server may grow after the warm-up before the run fails")
    parser.add_argument("--max-games", type=int, default=None,
                        help="games the server holds in memory at most (default: tertia serve's)")
    parser.add_argument("--tracemalloc", action="store_true",
                        help="run the server under tracemalloc and show where memory grew")
    parser.add_argument("--census", action="store_true",
                        help="count the server's objects by type and its caches' entries at the end of the "
                             "warm-up and at the end")
    args = parser.parse_args()
    port = args.port or free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="tertia-soak-") as tmp:
        snapshots = Path(tmp) if args.tracemalloc else None
        census = Path(tmp) / "census" if args.census else None
        options = [] if args.max_games is None else ["--max-games", str(args.max_games)]
        server = start_server(port, Path(tmp) / "games.sqlite3", snapshots, census, options)
        counts: list[dict[str, Any]] = []
        rss = rss_reader(server.pid)
        tally, stop = Tally(), threading.Event()
        players = [Player(url, n, args, tally, combinations(url), stop) for n in range(args.clients)]
        warmup = args.warmup_minutes * 60
        total = warmup + args.minutes * 60
        samples: list[tuple[float, float]] = []
        taken: list[Path] = []
        start = time.monotonic()
        print(f"{'s':>6} {'RSS MiB':>8} {'games':>6} {'over':>5} {'actions':>8} {'requests':>9} {'5xx':>4}")
        try:
            for p in players:
                p.start()
            while (elapsed := time.monotonic() - start) < total:
                time.sleep(min(args.every, total - elapsed))
                elapsed = time.monotonic() - start
                try:
                    memory = rss()
                except (OSError, RuntimeError):
                    memory = math.nan
                if server.poll() is not None:
                    print(f"the server stopped (exit {server.returncode})")
                    return 1
                if snapshots is not None and not taken and elapsed >= warmup:
                    taken.append(snapshot(server, snapshots, 0))
                if census is not None and elapsed >= warmup + 60 * len(counts):
                    counts.append(take_census(server, census, len(counts)))
                samples.append((elapsed, memory))
                with tally.lock:
                    print(f"{elapsed:6.0f} {samples[-1][1]:8.1f} {tally.games:6d} {tally.finished:5d} "
                          f"{tally.actions:8d} {tally.requests:9d} {tally.server_errors:4d}", flush=True)
            if snapshots is not None:
                taken.append(snapshot(server, snapshots, 1))
            if census is not None:
                counts.append(take_census(server, census, len(counts)))
        finally:
            stop.set()
            for p in players:
                p.join(timeout=WAIT_SECONDS + 5)
            began = time.monotonic()
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
            print(f"the server stopped {time.monotonic() - began:.1f} s after SIGTERM")
        if len(taken) == 2 and all(p.exists() for p in taken):
            report_growth(taken[0], taken[1])
        if len(counts) >= 2:
            report_census(counts)
    counted = [(t / 60, m) for t, m in samples if t >= warmup] or [(t / 60, m) for t, m in samples]
    head = sum(m for _, m in counted[:3]) / len(counted[:3])
    tail = sum(m for _, m in counted[-3:]) / len(counted[-3:])
    growth = tail - head
    peak = max(m for _, m in counted)
    print(f"\nRSS at the end of the warm-up {counted[0][1]:.1f} MiB (minute {counted[0][0]:.1f}), at the "
          f"end {counted[-1][1]:.1f} MiB (minute {counted[-1][0]:.1f}); peak {peak:.1f} MiB")
    print(f"growth after the warm-up {growth:+.1f} MiB (mean of the last 3 samples less the first 3), "
          f"slope {slope(counted):+.2f} MiB/min; {tally.games} games, {tally.finished} finished, "
          f"{tally.actions} actions, {tally.requests} requests, {tally.server_errors} answers 5xx")
    later = counted[len(counted) // 2:]
    print(f"over the second half after the warm-up (from minute {later[0][0]:.1f}): "
          f"{later[-1][1] - later[0][1]:+.1f} MiB, slope {slope(later):+.2f} MiB/min")
    for failure in tally.failures:
        print("  " + failure)
    failed = growth > args.max_growth or tally.server_errors > 0
    if failed:
        print(f"FAILED: growth above {args.max_growth:g} MiB or answers 5xx")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
