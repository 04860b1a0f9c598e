"""The command line's outputs and choices: files written into devices, pipes and links
rather than over them; the rule set a named scenario is fought under; a battle stopped at
``--max-actions`` told and kept; results and refusals in plain words."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tertia.cli.common import battle_choice, default_scenario
from tertia.cli.main import app
from tertia.io.record import load_record, replay
from tests.pipe_support import Drain
from tests.plugin_rules import with_plugins

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    """Exit code, standard output and standard error of ``tertia ARGS``."""
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, result.stdout, result.stderr


def is_pipe(path: Path) -> bool:
    return stat.S_ISFIFO(os.lstat(path).st_mode)


# --- outputs that are not regular files --------------------------------------------------


def test_battle_writes_its_record_into_a_pipe_and_its_report_through_a_link(tmp_path: Path) -> None:
    record_pipe, report_pipe, link = tmp_path / "record", tmp_path / "report", tmp_path / "report.html"
    os.mkfifo(record_pipe)
    os.mkfifo(report_pipe)
    link.symlink_to(report_pipe)
    with Drain(record_pipe) as record, Drain(report_pipe) as report:
        code, _, err = run("battle", "--scenario", "skirmish", "--seed", "5", "--json",
                           "--save", str(record_pipe), "--report", str(link))
    assert code == 0, err
    assert json.loads(record.got)["seed"] == 5
    assert report.got.startswith(b"<!DOCTYPE html>")
    assert is_pipe(record_pipe) and is_pipe(report_pipe) and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record", "report", "report.html"]


def test_simulate_writes_its_rows_into_a_pipe(tmp_path: Path) -> None:
    pipe = tmp_path / "rows.parquet"
    os.mkfifo(pipe)
    with Drain(pipe) as rows:
        code, _, err = run("simulate", "--games", "2", "--scenario", "skirmish", "--workers", "1",
                           "--json", "--out", str(pipe))
    assert code == 0, err
    assert pq.read_table(io.BytesIO(rows.got)).num_rows == 2
    assert is_pipe(pipe) and [p.name for p in tmp_path.iterdir()] == ["rows.parquet"]


def test_an_output_naming_a_directory_is_still_refused_in_one_line(tmp_path: Path) -> None:
    code, _, err = run("battle", "--scenario", "skirmish", "--report", str(tmp_path))
    assert code == 1 and err.strip() == f"error: --report {tmp_path}: is a directory; give a file name"


# --- the rule set a scenario is fought under ----------------------------------------------


def test_a_scenario_named_alone_is_fought_under_its_own_rule_set() -> None:
    assert battle_choice("chalgrove", None) == ("chalgrove", "d3-cards")
    assert battle_choice("naseby", None) == ("naseby", "charge-yr-pikes")
    assert battle_choice("edgehill", None) == ("edgehill", "larger-battles")  # written for it among others
    assert battle_choice(None, None) == ("edgehill", "larger-battles")
    assert battle_choice(None, "d3-cards") == (default_scenario("d3-cards"), "d3-cards")
    assert battle_choice("chalgrove", "larger-battles") == ("chalgrove", "larger-battles")  # refused later


def test_battle_fights_chalgrove_without_rules() -> None:
    code, out, err = run("battle", "--scenario", "chalgrove", "--seed", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["ruleset"] == "d3-cards"


def test_rules_named_against_the_scenario_are_still_refused_in_one_line() -> None:
    code, _, err = run("battle", "--scenario", "chalgrove", "--rules", "larger-battles")
    assert code == 1 and "not written for rule set 'larger-battles'" in err and err.count("\n") == 1


def test_simulate_and_sweep_fight_a_scenario_under_its_own_rule_set() -> None:
    code, out, err = run("simulate", "--games", "1", "--scenario", "chalgrove", "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["rules"] == "d3-cards"
    code, out, err = run("sweep", "--vary", "rout_after=8,6", "--games", "1", "--scenario", "chalgrove",
                         "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["rules"] == "d3-cards"


def test_the_ladder_fights_each_scenario_under_its_own_rule_set() -> None:
    code, out, err = run("ladder", "--games", "1", "--scenario", "chalgrove", "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["battles"] == [{"scenario": "chalgrove", "rules": "d3-cards"}]


@pytest.mark.parametrize("command", ["battle", "simulate", "sweep"])
def test_the_rules_help_gives_the_default(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert "default: the scenario's own" in " ".join(result.output.split())


# --- a battle stopped at --max-actions ---------------------------------------------------


def test_a_battle_stopped_at_max_actions_is_told_saved_and_can_be_gone_on_with(tmp_path: Path) -> None:
    mid, report = tmp_path / "mid.json", tmp_path / "mid.html"
    code, out, err = run("battle", "--scenario", "skirmish", "--seed", "5", "--max-actions", "30",
                         "--save", str(mid), "--report", str(report))
    assert code == 2
    assert "The battle begins" in out and "Turn 2" in out  # the narrative so far
    assert "Victory to" not in out and "A drawn battle" not in out
    assert err.count("\n") == 1
    assert err.startswith("error: the battle did not end within 30 actions (stopped after 30 actions, "
                          "at turn 2); the battle so far is saved to")
    assert f"To go on: tertia battle --resume {mid}" in err
    assert report.read_text().startswith("<!DOCTYPE html>")
    loaded = load_record(mid)
    result = replay(loaded)
    assert result.ok and result.steps == 30
    assert result.final_state is not None and not result.final_state.is_over
    code, out, err = run("battle", "--resume", str(mid), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["actions"] > 30 and summary["finished"] is True


def test_a_battle_stopped_at_max_actions_with_json_prints_the_battle_so_far(tmp_path: Path) -> None:
    """As the narrative and the report tell the battle so far, the object gives it: not
    finished, no winner, the actions taken; the exit status still says it stopped."""
    code, out, err = run("battle", "--scenario", "skirmish", "--max-actions", "5", "--json")
    summary = json.loads(out)
    assert code == 2 and summary["finished"] is False and summary["winner"] is None
    assert summary["actions"] == 5 and out.count("\n") == 1
    assert summary["players"] == {"parliament": "doctrine", "royalist": "doctrine"}
    assert err.startswith("error: the battle did not end within 5 actions (stopped after 5 actions, ")
    assert "nothing was saved" in err and err.count("\n") == 1


def test_simulate_lists_a_failed_game_in_words(tmp_path: Path) -> None:
    code, out, _ = run("simulate", "--games", "1", "--scenario", "skirmish", "--workers", "1",
                       "--max-actions", "5")
    assert code == 2
    failed = [line.strip() for line in out.splitlines() if line.strip().startswith("game 0, seed ")]
    assert len(failed) == 1 and failed[0].endswith(": the battle did not end within 5 actions"), out
    assert "BattleAborted" not in out


# --- words ----------------------------------------------------------------------------


def test_a_battle_of_one_turn_says_one_turn() -> None:
    with with_plugins():
        code, out, err = run("battle", "--rules", "example-declare", "--seed", "4")
    assert code == 0, err
    assert "Victory to Parliament after 1 turn: a side has no units left." in out


def test_simulate_puts_the_mean_score_apart_from_the_wins() -> None:
    code, out, err = run("simulate", "--games", "2", "--scenario", "skirmish", "--workers", "1")
    assert code == 0, err
    won = [line for line in out.splitlines() if " won " in line and "│" in line]
    assert won and all("score" not in line for line in won)
    assert "Victory points at the end, mean over all 2 games: Parliament " in out
