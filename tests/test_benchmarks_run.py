"""Every script in ``benchmarks/`` runs, in a smoke mode as small as it allows, so none
can rot between the days it is used (its figures are read from its real runs, never
here). A script added without a smoke run here fails the first test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


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
    "clause_mutants.py": (_mutants_listed, "row 1:"),
    "compare.py": (lambda _: [str(ROOT), str(ROOT), "--rounds", "1", "--games", "1"], "median x"),
    "odds.py": (lambda _: ["--repeat", "1"], "outcomes; median"),
    "odds_questions.py": (lambda _: ["--smoke"], "asked"),
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


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_the_benchmark_runs(script: str, tmp_path: Path) -> None:
    arguments, expected = SMOKE[script]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *arguments(tmp_path)], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert expected in done.stdout, done.stdout[-2000:]
