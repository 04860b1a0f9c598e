"""Every script in ``benchmarks/`` runs, in a smoke mode as small as it allows, so none
can rot between the days it is used (its figures are read from its real runs, never
here). A script added without a smoke run here fails the first test.

The scripts of the tests selected are started together, when the first of them begins
(:func:`runs`), each in a folder of its own; each test then waits for its script and
reads what it printed. Most of a smoke run is spent starting Python, a server or a pool
of workers, and waiting on them: together they take about as long as the longest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"

pytestmark = pytest.mark.xdist_group("benchmarks")
"""The module's tests on one worker (``--dist loadgroup``), which starts their scripts."""


def _mutants_listed(tmp: Path) -> list[str]:
    """The mutation run lists one row's mutants from a copy of the code (it refuses the
    checkout it is in as its working copy)."""
    for part in ("tertia", "docs"):
        shutil.copytree(ROOT / part, tmp / part, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return ["--rules", "declare-thee-sir", "--workdir", str(tmp), "--rows", "1", "--per-function", "1",
            "--list"]


SMOKE: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "army_size.py": (lambda _: ["--smoke"], "ms per action"),
    "battles.py": (lambda _: ["--games", "1"], "battles/s"),
    "decisions.py": (lambda _: ["--rules", "d3-cards", "--scenario", "chalgrove", "--games", "1"],
                     "the mean"),
    "clause_mutants.py": (_mutants_listed, "row 1:"),
    "compare.py": (lambda _: [str(ROOT), str(ROOT), "--rounds", "1", "--games", "1", "--rules", "d3-cards"],
                   "median x"),
    "idle_units.py": (lambda _: ["--rules", "d3-cards", "--scenario", "chalgrove", "--games", "1",
                                 "--workers", "1"], "idlest (turns a battle)"),
    "odds.py": (lambda _: ["--repeat", "1"], "outcomes; median"),
    "odds_estimates.py": (lambda _: ["--smoke"], "simulation within the estimate's interval"),
    "odds_questions.py": (lambda _: ["--smoke"], "asked"),
    "pikes_play.py": (lambda _: ["--scenario", "edgehill", "--games", "1", "--workers", "1"],
                      "battles in which a side held its objective"),
    "serve.py": (lambda _: ["--games", "1", "--actions", "4", "--ai-games", "1", "--think", "0"], "AI reply"),
    "serve_soak.py": (lambda _: ["--clients", "2", "--minutes", "0.02", "--warmup-minutes", "0.01",
                                 "--every", "0.25", "--think", "0.1", "--max-growth", "1000"],
                      "growth after the warm-up"),
    "simulate.py": (lambda _: ["--games", "2", "--workers", "1"], "games/s"),
    "soak.py": (lambda _: ["--minutes", "0.02", "--tables", "1", "--every", "0.4", "--warm-up", "0.2"],
                "after the warm-up"),
}
"""Each script's smallest run, and words its output must hold. The two soaks run for a
second or two, sampling the server's memory several times after a warm-up, their
players pausing little between actions."""


def test_every_benchmark_has_a_smoke_run() -> None:
    scripts = sorted(p.name for p in BENCHMARKS.glob("*.py") if not p.name.startswith("_"))
    assert scripts == sorted(SMOKE)


@dataclass(frozen=True)
class Run:
    """A script started with its smoke run's arguments, what it prints kept in files."""

    process: subprocess.Popen[bytes]
    out: Path
    err: Path


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Run]]:
    """The script of each test of this module selected for the session, started at once."""
    scripts = sorted({item.callspec.params["script"] for item in request.session.items
                      if getattr(item, "module", None) is request.module and hasattr(item, "callspec")})
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started: dict[str, Run] = {}
    try:
        for script in scripts:
            folder = tmp_path_factory.mktemp(script.removesuffix(".py"))
            arguments, _ = SMOKE[script]
            out, err = folder / "stdout.txt", folder / "stderr.txt"
            with out.open("wb") as stdout, err.open("wb") as stderr:
                process = subprocess.Popen([sys.executable, str(BENCHMARKS / script), *arguments(folder)],
                                           cwd=folder, env=env, stdout=stdout, stderr=stderr)
            started[script] = Run(process, out, err)
        yield started
    finally:
        for run in started.values():
            if run.process.poll() is None:
                run.process.kill()
            run.process.wait()


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_the_benchmark_runs(script: str, runs: dict[str, Run]) -> None:
    _, expected = SMOKE[script]
    run = runs[script]
    returncode = run.process.wait(timeout=600)
    stdout = run.out.read_text(errors="replace")
    assert returncode == 0, stdout[-2000:] + run.err.read_text(errors="replace")[-2000:]
    assert expected in stdout, stdout[-2000:]
