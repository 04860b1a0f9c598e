"""The simulate and sweep commands: JSON keys, Parquet and PNG outputs, failures reported
with their seeds, Ctrl-C keeping finished games, and one-line errors for bad input."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.analysis.sim import games as sim_games
from tertia.analysis.sim import local as sim_local
from tertia.analysis.sim.games import ChunkResult, GameSpec, Job, game_seed
from tertia.analysis.sim.storage import read_rows
from tertia.battle import BattleRecord, fight_battle
from tertia.cli.main import app
from tertia.cli.simulate_commands import FAILED_GAMES_EXIT
from tertia.cli.studies import fmt

runner = CliRunner()
SMALL = ("--scenario", "skirmish", "--seed", "5", "--workers", "1")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(*args: str) -> tuple[int, str, str]:
    """Exit code, standard output, and everything printed (standard error included)."""
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.output


def assert_png(path: Path) -> None:
    from matplotlib.image import imread

    assert path.read_bytes().startswith(PNG_SIGNATURE)
    height, width = imread(path).shape[:2]
    assert width > 100 and height > 100


def test_simulate_json_has_the_documented_keys(tmp_path: Path) -> None:
    code, stdout, _ = run("simulate", *SMALL, "--games", "4", "--json")
    assert code == 0
    data = json.loads(stdout)
    for key in ("games", "wins", "draws", "win_rate", "mean_turns", "seconds", "games_per_second",
                "failed", "first_mover", "loss_rate", "seed", "workers", "backend", "interrupted"):
        assert key in data, key
    assert data["games"] == 4 and data["failed"] == 0 and data["interrupted"] is False
    assert sum(data["wins"].values()) + data["draws"] == 4
    assert set(data["win_rate"]) == {"parliament", "royalist"}
    for interval in data["win_rate"].values():
        assert set(interval) == {"estimate", "low", "high"}
        assert 0 <= interval["low"] <= interval["estimate"] <= interval["high"] <= 1


def test_simulate_writes_parquet_rows_and_plots(tmp_path: Path) -> None:
    out, plots = tmp_path / "games.parquet", tmp_path / "plots"
    code, stdout, _ = run("simulate", *SMALL, "--games", "4", "--option", "hit_limit_infantry=4",
                          "--out", str(out), "--plots", str(plots))
    assert code == 0
    assert "win" in stdout and "Rows written" in stdout
    rows, metadata = read_rows(out)
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    assert [r["seed"] for r in rows] == [game_seed(5, i) for i in range(4)]
    assert all('"hit_limit_infantry": 4' in r["options"] and r["ruleset_version"] for r in rows)
    assert metadata["master_seed"] == 5 and metadata["sides"] == ["parliament", "royalist"]
    for name in ("win_rates.png", "game_length.png", "scores.png"):
        assert_png(plots / name)


def test_simulate_text_names_the_winner_rates_and_speed() -> None:
    code, stdout, _ = run("simulate", *SMALL, "--games", "3")
    assert code == 0
    assert "Parliament won" in stdout and "First-mover" in stdout and "games/s" in stdout


def test_a_failing_game_is_reported_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    bad_seed = game_seed(5, 1)

    def flaky(game: Any, players: Any, seed: int, **kw: Any) -> BattleRecord:
        if seed == bad_seed:
            raise RuntimeError("no such hedge")
        return fight_battle(game, players, seed, **kw)

    monkeypatch.setattr(sim_games, "fight_battle", flaky)
    code, stdout, _ = run("simulate", *SMALL, "--games", "3", "--json")
    assert code == FAILED_GAMES_EXIT != 0
    data = json.loads(stdout)
    assert data["failed"] == 1 and data["games"] == 3
    assert data["errors"][0]["seed"] == bad_seed and "no such hedge" in data["errors"][0]["error"]
    code, stdout, _ = run("simulate", *SMALL, "--games", "3")
    assert code == FAILED_GAMES_EXIT
    assert "1 game failed" in stdout and str(bad_seed) in stdout


def test_ctrl_c_keeps_the_finished_games(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = sim_games.run_chunk

    def interrupted_at_game_2(specs: list[GameSpec], seed: int, jobs: tuple[Job, ...]) -> ChunkResult:
        if any(index == 2 for _, index in jobs):
            raise KeyboardInterrupt
        return real(specs, seed, jobs)

    monkeypatch.setattr(sim_local, "run_chunk", interrupted_at_game_2)
    out = tmp_path / "games.parquet"
    code, stdout, _ = run("simulate", *SMALL, "--games", "5", "--json", "--out", str(out))
    assert code == 130
    data = json.loads(stdout)
    assert data["interrupted"] is True and data["games"] == 2 and data["requested"] == 5
    assert [r["index"] for r in read_rows(out)[0]] == [0, 1]


def test_sweep_pairs_seeds_and_reports_effects(tmp_path: Path) -> None:
    out, plots = tmp_path / "sweep.parquet", tmp_path / "plots"
    code, stdout, _ = run("sweep", *SMALL, "--games", "3", "--vary", "hit_limit_infantry=3,5",
                          "--json", "--out", str(out), "--plots", str(plots))
    assert code == 0
    data = json.loads(stdout)
    assert data["vary"] == "hit_limit_infantry" and data["values"] == [3, 5] and data["baseline"] == 3
    base, other = data["results"]
    assert base["effect"] is None and base["games"] == other["games"] == 3
    assert other["effect"]["paired_games"] == 3
    assert set(other["effect"]["win_rate_difference"]) == {"parliament", "royalist"}
    rows, metadata = read_rows(out)
    assert metadata["vary"] == "hit_limit_infantry"
    by_value = {v: [r["seed"] for r in rows if r["vary"] == v] for v in ("3", "5")}
    assert by_value["3"] == by_value["5"] == [game_seed(5, i) for i in range(3)]
    assert_png(plots / "sweep.png")


def test_sweep_text_shows_both_tables() -> None:
    code, stdout, _ = run("sweep", *SMALL, "--games", "2", "--vary", "hit_limit_cavalry=2,3")
    assert code == 0
    assert "Effect against hit_limit_cavalry=2" in stdout and "paired by seed" in stdout


def test_sweep_text_gives_draws_as_a_rate_with_its_interval() -> None:
    args = ("sweep", *SMALL, "--games", "2", "--vary", "hit_limit_cavalry=2,3")
    code, stdout, _ = run(*args)
    assert code == 0
    data = json.loads(run(*args, "--json")[1])
    lines = stdout.splitlines()
    header = re.split(r"\s{2,}", next(line for line in lines if "drawn" in line).strip())
    drawn = 2 + len(data["results"][0]["wins"])
    assert header[drawn] == "drawn, rate [95% CI]"
    for result in data["results"]:
        row = next(line for line in lines if line.split()[:1] == [str(result["value"])])
        cells = re.split(r"\s{2,}", row.strip())
        assert cells[drawn] == fmt(result["draw_rate"])
        assert isinstance(result["draws"], int)


def test_the_ray_backend_without_ray_is_one_clean_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    code, _, output = run("simulate", *SMALL, "--games", "2", "--backend", "ray")
    assert code == 1 and "pip install 'tertia[ray]'" in output and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1, output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("simulate", "--games", "2", "--option", "hit_limit_infantry=lots"), "hit_limit_infantry"),
        (("simulate", "--games", "2", "--option", "no_such_option=1"), "no_such_option"),
        (("simulate", "--games", "2", "--scenario", "atlantis"), "atlantis"),
        (("simulate", "--games", "2", "--rules", "chess"), "chess"),
        (("simulate", "--games", "2", "--backend", "cloud"), "--backend"),
        (("simulate", "--games", "2", "--address", "10.0.0.5:6379"), "--backend ray"),
        (("ladder", "--games", "2", "--player", "doctrine", "--player", "random", "--address", "ray://x"),
         "--backend ray"),
        (("simulate", "--games", "0"), "--games"),
        (("simulate", "--games", "2", "--workers", "0"), "--workers"),
        (("simulate", "--games", "2", "--seed", "-3"), "--seed"),
        (("simulate", "--games", "2", "--max-actions", "0"), "--max-actions"),
        (("simulate", "--games", "2", "--out", "/no/such/dir/g.parquet"), "no such directory"),
        (("sweep", "--games", "2", "--vary", "hit_limit_infantry=3"), "at least two values"),
        (("sweep", "--games", "2", "--vary", "hit_limit_infantry"), "KEY=V1,V2"),
        (("sweep", "--games", "2", "--vary", "hit_limit_infantry=3,x"), "hit_limit_infantry"),
        (("sweep", "--games", "2", "--vary", "hit_limit_infantry=3,03"), "not all different"),
        (("sweep", "--games", "2", "--vary", "hit_limit_infantry=3,4", "--option", "hit_limit_infantry=2"),
         "set it in one place"),
    ],
)
def test_bad_input_is_one_clean_line(args: tuple[str, ...], needle: str) -> None:
    code, _, output = run(*args)
    assert code == 1, output
    assert "Traceback" not in output and needle in output
    assert len(output.strip().splitlines()) == 1, output


UNWRITABLE = Path("/proc")
"""A folder no one may make a file in, the superuser included, whatever its permissions say."""


@pytest.mark.skipif(not UNWRITABLE.is_dir(), reason="no /proc on this system")
@pytest.mark.parametrize("command", [
    ("simulate",), ("sweep", "--vary", "hit_limit_infantry=3,4"), ("ladder", "--scenario", "skirmish"),
])
@pytest.mark.parametrize("output", [
    ("--out", str(UNWRITABLE / "games.parquet")), ("--plots", str(UNWRITABLE)),
])
def test_an_output_that_cannot_be_written_is_refused_before_any_game(
        command: tuple[str, ...], output: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tertia.cli import studies

    def no_games(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was fought")

    monkeypatch.setattr(studies, "run", no_games)
    code, _, output_text = run(*command, "--games", "2", "--workers", "1", *output)
    assert code == 1, output_text
    assert "Traceback" not in output_text and f"{output[0]} {output[1]}: cannot write in" in output_text
    assert len(output_text.strip().splitlines()) == 1, output_text


@pytest.mark.parametrize("command", [
    ("simulate",), ("sweep", "--vary", "hit_limit_infantry=3,4"), ("ladder", "--scenario", "skirmish"),
])
@pytest.mark.parametrize("existing", ["file", "device"])
def test_plots_that_name_a_file_or_a_device_are_refused_as_no_folder(
        command: tuple[str, ...], existing: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--plots`` names a folder: a file or a device there (``/dev/null``) is said to be
    no folder, not that a folder "cannot be created" because the file exists."""
    from tertia.cli import studies

    def no_games(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was fought")

    monkeypatch.setattr(studies, "run", no_games)
    path = tmp_path / "plots.png" if existing == "file" else Path(os.devnull)
    if existing == "file":
        path.write_bytes(b"")
    code, _, output = run(*command, "--games", "2", "--workers", "1", "--plots", str(path))
    assert code == 1, output
    assert f"--plots {path}: is not a folder" in output and "File exists" not in output, output
    assert len(output.strip().splitlines()) == 1, output


def test_a_plot_that_cannot_be_written_after_all_is_one_clean_line(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    from tertia.analysis.sim import plots

    def full(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(plots, "_save", full)
    for command in (("simulate",), ("sweep", "--vary", "hit_limit_infantry=3,4")):
        code, _, output = run(*command, *SMALL, "--games", "1", "--plots", str(tmp_path))
        assert code == 1, output
        assert "Traceback" not in output and f"--plots {tmp_path}: cannot write: No space left" in output


def test_without_a_scenario_the_rule_set_picks_its_own() -> None:
    """Edgehill, the default, is written for d3-cards too."""
    code, stdout, _ = run("simulate", "--rules", "d3-cards", "--games", "1", "--workers", "1", "--json")
    assert code == 0, stdout
    assert json.loads(stdout)["scenario"] == "edgehill"


def test_out_may_not_overwrite_the_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "mine.toml"
    original = (Path(__file__).parent / "scenarios" / "tiny.toml").read_text()
    scenario.write_text(original)
    code, _, stderr = run("simulate", "--scenario", str(scenario), "--games", "1", "--out", str(scenario))
    assert code == 1 and "is the scenario being played" in stderr
    assert scenario.read_text() == original


def test_the_progress_rate_agrees_with_the_summary() -> None:
    """Both are games over seconds since the start (not Rich's estimate over the last few
    seconds, which a slow first game or a fast last one pulls far away)."""
    import re

    code, stdout, everything = run("simulate", *SMALL, "--games", "8")
    assert code == 0
    summary = float(re.search(r"\(([0-9.]+) games/s", stdout).group(1))  # type: ignore[union-attr]
    shown = [float(v) for v in re.findall(r"([0-9.]+) games/s", everything.replace(stdout, ""))]
    assert shown, everything
    assert abs(shown[-1] - summary) <= 0.25 * summary, (shown, summary)


@pytest.mark.parametrize(("rules", "scenario", "vary"), [
    ("declare-thee-sir", "roundway_down", "army_breaks_at=0.3,0.5"),
    ("charge-yr-pikes", "naseby", "officer_grades=true,false"),
])
def test_the_stand_rule_sets_simulate_and_sweep(rules: str, scenario: str, vary: str) -> None:
    """The doctrine players fight a battle written for the rule set, for a summary and for
    a sweep of one of its options."""
    given = ("--rules", rules, "--scenario", scenario, "--seed", "3", "--workers", "1")
    code, stdout, output = run("simulate", *given, "--games", "2", "--json")
    assert code == 0, output
    data = json.loads(stdout)
    assert data["rules"] == rules and data["completed"] == 2 and data["failed"] == 0
    assert sum(data["wins"].values()) + data["draws"] == 2
    assert data["first_mover"] is None  # the cards decide who acts: no side moves first
    code, stdout, output = run("simulate", *given, "--games", "1")
    assert code == 0, output
    assert "First-mover advantage: not measured; no side moves first" in stdout
    assert "moving first" not in stdout
    code, stdout, output = run("sweep", *given, "--games", "1", "--vary", vary)
    assert code == 0, output
    assert vary.split("=")[0] in stdout and "paired by seed" in stdout


def test_the_first_movers_games_are_those_with_a_winner_not_those_decided_on_the_field() -> None:
    """"Decided" is the summary's word for a battle ended on the field; the first-mover line
    counts the games either side won, the turn limit's too, and says so."""
    code, out, _ = run("simulate", "--scenario", "skirmish", "--games", "4", "--workers", "1", "--seed", "1")
    assert code == 0, out
    [line] = [line for line in out.splitlines() if line.startswith("First-mover advantage")]
    assert "with a winner" in line and "decided" not in line, line
