"""The play commands: battle, replay, inspect and rules."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tertia
from tertia.cli.main import app
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import default_scenario, scenario_files

from .fact_support import fact_of
from .plugin_rules import with_plugins

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def test_battle_json_has_the_documented_keys() -> None:
    code, out = run("battle", "--scenario", "skirmish", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("ruleset", "scenario", "seed", "winner", "turns", "score", "units_lost"):
        assert key in data
    assert data["ruleset"] == "larger-battles" and data["seed"] == 4
    assert set(data["score"]) == set(data["units_lost"]) == {"parliament", "royalist"}


def test_battle_is_deterministic_by_seed() -> None:
    a = json.loads(run("battle", "--scenario", "skirmish", "--seed", "9", "--json")[1])
    b = json.loads(run("battle", "--scenario", "skirmish", "--seed", "9", "--json")[1])
    assert a == b


def test_battle_narrative_names_turns_and_the_result() -> None:
    code, out = run("battle", "--scenario", "skirmish", "--seed", "2")
    assert code == 0
    assert "Turn 1" in out and ("Victory to" in out or "drawn" in out)
    # The verdict gives its reason after a colon, as the report does, its own aside intact.
    assert "after 8 turns: the turn limit (8) was reached." in out


def test_save_then_replay_prints_the_final_hash(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = run("battle", "--scenario", "skirmish", "--seed", "3", "--json", "--save", str(record))
    assert code == 0
    final_hash = json.loads(out)["final_hash"]
    code, out = run("replay", str(record))
    assert code == 0
    assert out.strip().splitlines()[-1] == final_hash


def test_charge_yr_pikes_fights_edgehill_by_default_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = run("battle", "--rules", "charge-yr-pikes", "--seed", "2", "--json", "--save", str(record))
    assert code == 0, out
    data = json.loads(out)
    assert data["ruleset"] == "charge-yr-pikes" and data["scenario"].startswith("Edgehill")
    assert data["winner"] is None or data["reason"].endswith(" victory")  # its degree, section 19 F
    code, replayed = run("replay", str(record))
    assert code == 0
    assert replayed.strip().splitlines()[-1] == data["final_hash"]


def test_replay_reports_the_first_divergence(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run("battle", "--scenario", "skirmish", "--seed", "3", "--json", "--save", str(record))
    data = json.loads(record.read_text())
    data["rolls"][len(data["rolls"]) // 2]["die"] = "d10"
    record.write_text(json.dumps(data))
    code, out = run("replay", str(record))
    assert code != 0 and "diverged" in out


def test_replay_of_a_damaged_file_is_one_clean_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\x00\xff garbage")
    code, out = run("replay", str(bad))
    assert code == 1 and "Traceback" not in out and len(out.strip().splitlines()) == 1


SKIRMISH = Path(tertia.__file__).parent / "scenarios" / "skirmish.toml"


@pytest.mark.parametrize("name", ["skirmish.toml", "skirmish.json", "my skirmish.json"])
def test_replay_of_a_scenario_says_how_to_fight_it(tmp_path: Path, name: str) -> None:
    scenario = tmp_path / name
    scenario.write_bytes(SKIRMISH.read_bytes())
    code, out = run("replay", str(scenario))
    assert code == 1 and "Traceback" not in out and len(out.strip().splitlines()) == 1, out
    assert f"{scenario}: a scenario, not a battle record" in out and "not valid JSON" not in out
    advice = out.strip().split("to fight it: ", 1)[1]
    assert advice.startswith("tertia battle --scenario ")
    assert shlex.split(advice)[3:] == [str(scenario)]
    code, fought = run("battle", *shlex.split(advice)[2:], "--seed", "1", "--json")
    assert code == 0 and json.loads(fought)["scenario"].startswith("Skirmish")


@pytest.mark.parametrize(("content", "needle"), [
    (b'name = "x"\n', "not valid JSON"),
    (b"{", "not valid JSON"),
    (b"{}", "not a Tertia game record"),
])
def test_replay_of_other_files_that_are_not_records_keeps_its_reasons(
    tmp_path: Path, content: bytes, needle: str
) -> None:
    path = tmp_path / "other.json"
    path.write_bytes(content)
    code, out = run("replay", str(path))
    assert code == 1 and len(out.strip().splitlines()) == 1 and needle in out, out
    assert "scenario" not in out


def test_inspect_reads_a_scenario_named_like_a_record(tmp_path: Path) -> None:
    scenario = tmp_path / "skirmish.json"
    scenario.write_bytes(SKIRMISH.read_bytes())
    code, out = run("inspect", str(scenario), "--json")
    assert code == 0, out
    assert json.loads(out)["units"]


@pytest.mark.parametrize("rules", ["larger-battles", "d3-commands"])
def test_a_record_from_another_rule_set_version_is_refused(tmp_path: Path, rules: str) -> None:
    record = tmp_path / "game.json"
    run("battle", "--scenario", "edgehill", "--rules", rules, "--seed", "3", "--json", "--save", str(record))
    data = json.loads(record.read_text())
    current = data["ruleset"]["version"]
    code, _ = run("replay", str(record))
    assert code == 0
    data["ruleset"]["version"] = "0.9"
    record.write_text(json.dumps(data))
    code, out = run("replay", str(record))
    assert code == 1 and len(out.strip().splitlines()) == 1
    assert f"{rules} 0.9" in out and f"{rules} {current}" in out and "ruleset.version" in out
    del data["ruleset"]["version"]
    record.write_text(json.dumps(data))
    code, out = run("replay", str(record))
    assert code == 1 and "ruleset.version is missing" in out


def test_report_is_written(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    code, _ = run("battle", "--scenario", "skirmish", "--seed", "1", "--json", "--report", str(report))
    assert code == 0
    html = report.read_text()
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html
    assert " to inflict a hit" in html  # the odds each attack had, computed by the command


def test_inspect_json_gives_hit_limits() -> None:
    code, out = run("inspect", "tertia/scenarios/skirmish.toml", "--rules", "larger-battles", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "larger-battles" and "hits" in {f["key"] for f in data["facts"]}
    troops = [u for u in data["units"] if u["kind"] != "commander"]
    assert troops and all({"id", "side", "kind", "facts"} <= set(u) for u in troops)
    hits = [fact_of(u, "hits") for u in troops]
    assert all(h is not None and h["value"] == 0 and h["limit"] is not None for h in hits)
    foot = next(u for u in troops if u["kind"] == "foot")
    assert (fact_of(foot, "hits") or {}).get("limit", 0) >= 3


def test_inspect_a_saved_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run("battle", "--scenario", "skirmish", "--seed", "5", "--json", "--save", str(record))
    code, out = run("inspect", str(record), "--rules", "larger-battles", "--json")
    assert code == 0 and json.loads(out)["units"]


def test_rules_json_lists_options_with_defaults() -> None:
    code, out = run("rules", "--json")
    assert code == 0
    rules = {r["id"]: r for r in json.loads(out)}
    options = {o["name"]: o["default"] for o in rules["larger-battles"]["options"]}
    assert options["hit_limit_infantry"] == 3


def test_bad_options_are_one_line_errors() -> None:
    code, out = run("battle", "--scenario", "skirmish", "--option", "hit_limit_infantry=lots")
    assert code == 1 and "hit_limit_infantry" in out and "Traceback" not in out


def test_rules_table_lists_every_rule_set_and_option() -> None:
    result = runner.invoke(app, ["rules"], env={"COLUMNS": "400"})
    code, out = result.exit_code, result.output
    assert code == 0, out
    for d in json.loads(run("rules", "--json")[1]):
        assert d["id"] in out
        for option in d["options"]:
            assert option["name"] in out
            for choice in option["choices"] or ():
                assert str(choice) in out


def at_width(monkeypatch: pytest.MonkeyPatch, *args: str, width: int = 80) -> str:
    """What a command prints to a terminal ``width`` columns wide."""
    screen = io.StringIO()
    monkeypatch.setattr("tertia.cli.common.out", Console(file=screen, width=width, force_terminal=True,
                                                         color_system=None, highlight=False, markup=False))
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return screen.getvalue()


def test_the_rules_table_keeps_every_option_name_whole_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = at_width(monkeypatch, "rules")
    assert "…" not in shown
    assert max(len(line) for line in shown.splitlines()) <= 80
    for d in json.loads(run("rules", "--json")[1]):
        for option in d["options"]:
            assert re.search(rf"^│ {re.escape(option['name'])} +│", shown, re.MULTILINE), option["name"]


def test_a_rule_set_without_options_says_so_under_its_whole_title() -> None:
    """The example plugin declares no option: its title stays on one line, and it says it
    has none, where an empty table folded the title to the width of its header."""
    with with_plugins():
        result = runner.invoke(app, ["rules"], env={"COLUMNS": "200"})
        d = get_ruleset("example-declare").describe()
    assert d["options"] == []
    lines = result.output.splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("example-declare — "))
    assert lines[title] == f"example-declare — {d['title']} (version {d['version']})"
    assert lines[title + 1] == "  no options"


def widest(*args: str, columns: int) -> int:
    """The widest line a command prints when ``COLUMNS`` gives ``columns``."""
    result = runner.invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return max(len(line) for line in result.output.splitlines())


@pytest.mark.parametrize("columns", [60, 200])
def test_rules_and_inspect_fold_to_the_width_columns_gives(columns: int) -> None:
    """Every table keeps within the width ``COLUMNS`` gives, as the help and the odds do,
    for each registered rule set (its default battle) and the example plugin."""
    with with_plugins():
        assert widest("rules", columns=columns) <= columns
        for rules in ruleset_ids():
            assert widest("inspect", default_scenario(rules), "--rules", rules, columns=columns) <= columns


def test_the_catalogue_knows_each_named_scenarios_file() -> None:
    for name, file in scenario_files().items():
        assert file.is_file() and file.stem == name


@pytest.mark.parametrize(("args", "flag"), [
    (("battle", "--scenario", "skirmish"), "--save"),
    (("battle",), "--report"),  # the default battle, named by no one
    (("simulate", "--games", "1", "--workers", "1"), "--out"),
])
def test_no_output_may_overwrite_a_scenario_offered_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], flag: str) -> None:
    """A scenario named (or the default) is a file too: an output naming it would
    destroy it. A stand-in takes the built-in's place in the catalogue, so that a
    failure here writes over the stand-in, not the installed battle."""
    stand_in = tmp_path / "skirmish.toml"
    stand_in.write_text("kept")
    monkeypatch.setattr(tertia.scenarios, "builtin_files", lambda: {"skirmish": stand_in})
    code, out = run(*args, flag, str(stand_in))
    assert code == 1 and "is the file of the scenario 'skirmish'; choose another file" in out
    assert stand_in.read_text() == "kept"


def test_save_and_report_may_not_name_one_file_or_the_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "mine.toml"
    original = (Path(__file__).parent / "scenarios" / "tiny.toml").read_text()
    scenario.write_text(original)
    same = tmp_path / "out.txt"
    code, out = run("battle", "--scenario", str(scenario), "--save", str(same), "--report", str(same))
    assert code == 1 and "both name" in out and not same.exists()
    for flag in ("--save", "--report"):
        code, out = run("battle", "--scenario", str(scenario), flag, str(scenario))
        assert code == 1 and "is the scenario being played" in out
        assert scenario.read_text() == original


def test_a_save_that_cannot_be_written_leaves_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "missing-folder" / "game.json"
    code, out = run("battle", "--scenario", "skirmish", "--save", str(target))
    assert code == 1 and "no such directory" in out and len(out.strip().splitlines()) == 1
    assert list(tmp_path.rglob("*")) == []


def test_max_actions_stops_a_battle_with_exit_2() -> None:
    code, out = run("battle", "--scenario", "skirmish", "--max-actions", "5")
    assert code == 2 and "did not end within 5 actions" in out


@pytest.mark.parametrize("rules", ruleset_ids())
def test_the_narrative_names_the_options_played_beside_the_rule_set(rules: str) -> None:
    """A battle fought with an option changed says so under its heading, in the words the
    report uses; one fought with the defaults names none."""
    switch = next(o for o in get_ruleset(rules).describe()["options"] if isinstance(o["default"], bool))
    flipped = str(not switch["default"]).lower()
    option = f"{switch['name']}={flipped}"
    code, out = run("battle", "--rules", rules, "--max-actions", "1", "--option", option)
    heading = out.splitlines()[:2]
    assert code == 2 and heading[1] == f"Options: {switch['name'].replace('_', ' ')}: "\
        f"{'yes' if flipped == 'true' else 'no'}", out
    code, out = run("battle", "--rules", rules, "--max-actions", "1")
    assert code == 2 and "Options:" not in out, out


@pytest.mark.parametrize("columns", [60, 200])
def test_the_heading_names_the_battle_and_rule_set_whole_at_any_width(columns: int) -> None:
    """The narrative's heading is never cut short to fit: the scenario and the rule set's
    full title, under every registered rule set and the example plugin."""
    with with_plugins():
        for rules in ruleset_ids():
            game_title = get_ruleset(rules).title
            result = runner.invoke(app, ["battle", "--rules", rules, "--max-actions", "1"],
                                   env={"COLUMNS": str(columns)})
            assert result.exit_code == 2, result.output
            assert game_title in " ".join(result.output.split()), (rules, result.output[:300])
            assert "…" not in result.output.splitlines()[0]


def test_version() -> None:
    code, out = run("--version")
    assert code == 0 and out.strip() == f"tertia {tertia.__version__}"


@pytest.mark.parametrize("command", ["battle", "replay", "inspect", "odds", "rules", "validate",
                                     "scenarios", "simulate", "sweep", "serve"])
def test_help_names_values_not_python_types(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "160"})
    assert result.exit_code == 0
    assert "<bool>" not in result.output and "<list" not in result.output


def test_a_piped_narrative_keeps_each_entry_on_one_line() -> None:
    code, out = run("battle", "--scenario", "skirmish", "--seed", "2")
    assert code == 0
    lines = out.splitlines()
    assert max(map(len, lines)) > 100
    attacks = [line for line in lines if " attacks " in line and "takes a hit" in line]
    assert attacks and all(line.rstrip().endswith("]") for line in attacks)


def test_inspect_takes_the_rule_set_from_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    run("battle", "--rules", "d3-cards", "--scenario", "chalgrove", "--seed", "5", "--json",
        "--save", str(record))
    code, out = run("inspect", str(record), "--json")
    assert code == 0, out
    assert json.loads(out)["units"]
    code, out = run("inspect", str(record), "--rules", "larger-battles")
    assert code == 1 and "played under d3-cards, not larger-battles" in out
    code, out = run("inspect", str(record))
    assert code == 0 and "Chalgrove Field" in out and "D3 ECW" in out
