"""Run a study: ``games`` games of each variant on the chosen backend, rows sorted by
variant and game index.

>>> from tertia.scenarios import load_builtin
>>> spec = make_spec("skirmish", load_builtin("skirmish"), "larger-battles")
>>> run([spec], games=2, master_seed=7).rows[0][1]["index"]
1
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tertia.analysis.sim.games import GameSpec, Job, Row, make_spec
from tertia.analysis.sim.local import InProcessPool, ProcessPool
from tertia.analysis.sim.scheduler import Progress, run_jobs

Backend = Literal["local", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "ray")
MAX_SEED = 2**63 - 1
MAX_GAMES = 1_000_000
"""The most games one run fights, every variant's together. A run keeps every game's row
in memory (about a kilobyte each) and lists its games before the first is fought; a
million games take some four hours at the 76 a second two cores manage on Edgehill,
and narrow a 95% interval on a win rate to a tenth of a percentage point."""

__all__ = ["BACKENDS", "MAX_GAMES", "Backend", "Study", "check_arguments", "check_games", "make_spec", "run"]


@dataclass
class Study:
    """What a run produced: per variant, its rows in game-index order."""

    specs: list[GameSpec]
    master_seed: int
    requested: int
    """Games asked for per variant."""
    rows: list[list[Row]]
    seconds: float
    workers: int
    """Workers that fought (fewer than asked when there were fewer games; a cluster's CPUs)."""
    backend: Backend
    stopped: str | None = None
    """``"interrupted"`` after Ctrl-C, a message if a worker was lost, else ``None``."""

    @property
    def games_played(self) -> int:
        return sum(len(r) for r in self.rows)

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0


def jobs_for(variants: int, games: int) -> list[Job]:
    """Every (variant, index) pair, game by game, so that a run stopped early has the
    same seeds fought under every variant."""
    return [(v, i) for i in range(games) for v in range(variants)]


def check_games(games: int, variants: int = 1) -> None:
    """Raise ``ValueError`` with a one-line reason unless ``games`` a variant, for
    ``variants`` variants, is at least one and at most :data:`MAX_GAMES` in all."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if games * variants > MAX_GAMES:
        total = "" if variants == 1 else f" for {variants} values is {games * variants:,} games,"
        raise ValueError(f"--games {games}:{total} more than a run may fight (at most {MAX_GAMES:,})")


def check_arguments(games: int, workers: int, master_seed: int, backend: str, variants: int = 1,
                    address: str | None = None) -> None:
    """Raise ``ValueError`` with a one-line reason for arguments no run can use (a Ray
    cluster's ``address`` only with the ``ray`` backend: the local one would ignore it)."""
    check_games(games, variants)
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    if not 0 <= master_seed <= MAX_SEED:
        raise ValueError(f"--seed must be between 0 and {MAX_SEED}, not {master_seed}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError(f"--address {address} names a Ray cluster to join: give it with --backend ray "
                         f"(the {backend} backend joins none)")


def run(
    specs: Sequence[GameSpec],
    games: int,
    master_seed: int,
    *,
    workers: int = 1,
    backend: Backend = "local",
    address: str | None = None,
    on_rows: Progress | None = None,
) -> Study:
    """Fight ``games`` games of every spec with seeds derived from ``master_seed``.

    The rows depend only on the specs, ``master_seed`` and ``games``: never on
    ``workers``, ``backend`` or the order batches finish in. Raises ``ValueError`` for
    impossible arguments and :class:`~tertia.analysis.sim.ray_backend.RayUnavailable`
    when the Ray backend cannot start.
    """
    if not specs:
        raise ValueError("nothing to simulate: no variants")
    check_arguments(games, workers, master_seed, backend, len(specs), address)
    start = time.perf_counter()
    jobs = jobs_for(len(specs), games)
    if backend == "ray":
        from tertia.analysis.sim.ray_backend import RayPool

        ray_pool = RayPool(specs, master_seed, workers, address)
        workers = ray_pool.slots
        outcome = run_jobs(ray_pool, jobs, on_rows)
    elif workers == 1 or len(jobs) == 1:
        workers = 1
        outcome = run_jobs(InProcessPool(specs, master_seed), jobs, on_rows)
    else:
        workers = min(workers, len(jobs))
        outcome = run_jobs(ProcessPool(specs, master_seed, workers), jobs, on_rows)
    seconds = time.perf_counter() - start
    rows: list[list[Row]] = [[] for _ in specs]
    for variant, row in outcome.rows:
        rows[variant].append(row)
    for variant_rows in rows:
        variant_rows.sort(key=lambda r: int(r["index"]))
    return Study(list(specs), master_seed, games, rows, seconds, workers, backend, outcome.stopped)
