"""The Ray backend on a local Ray: the same rows as the local backend for the same seed.

Ray starts once for this module (and in one test worker only: the tests share an xdist
group); the backend joins the running Ray rather than starting its own.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from tertia.analysis.sim.games import GameSpec, make_spec
from tertia.analysis.sim.runner import run
from tertia.cli.main import app
from tertia.scenarios import load_builtin

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.xdist_group("ray")

SEED = 23
GAMES = 6


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    return make_spec("skirmish", load_builtin("skirmish"), "larger-battles")


def test_ray_gives_the_same_rows_as_the_local_backend(local_ray: None, spec: GameSpec) -> None:
    on_ray = run([spec], GAMES, SEED, workers=2, backend="ray")
    assert on_ray.stopped is None and on_ray.backend == "ray"
    assert ray.is_initialized()  # joined the running Ray and left it running
    local = run([spec], GAMES, SEED, workers=1)
    assert on_ray.rows == local.rows
    assert [r["index"] for r in on_ray.rows[0]] == list(range(GAMES))


def test_ray_sweep_matches_local_through_the_command_line(local_ray: None) -> None:
    args = ["sweep", "--scenario", "skirmish", "--games", "3", "--seed", str(SEED), "--workers", "2",
            "--vary", "hit_limit_infantry=3,4", "--json"]
    runner = CliRunner()
    on_ray = runner.invoke(app, [*args, "--backend", "ray"])
    local = runner.invoke(app, [*args, "--backend", "local"])
    assert on_ray.exit_code == local.exit_code == 0, on_ray.output
    a, b = json.loads(on_ray.stdout), json.loads(local.stdout)
    assert a["backend"] == "ray" and b["backend"] == "local"
    for key in ("wins", "draws", "win_rate", "turns", "effect", "first_mover", "loss_rate"):
        assert [r[key] for r in a["results"]] == [r[key] for r in b["results"]], key
