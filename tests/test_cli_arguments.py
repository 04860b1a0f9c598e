"""Arguments refused before any work: outputs whose folder does not exist, a number of
games beyond the cap; ``tertia odds`` under rule options, with each rule set's words; and
every command's help in plain words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from tertia.analysis.sim.runner import MAX_GAMES, check_games
from tertia.cli.main import app
from tertia.cli.odds_commands import action_help
from tertia.core.narration import plural_verb
from tertia.core.ruleset import OptionSpec
from tertia.rulesets import ruleset_class, ruleset_ids
from tertia.scenarios.catalogue import written_for

runner = CliRunner()
README = Path(__file__).parent.parent / "README.md"
ODDS_FILE = str(Path(__file__).parent / "scenarios" / "odds.toml")
SHIPPED = ("larger-battles", "d3-commands", "d3-cards", "declare-thee-sir", "charge-yr-pikes")


def run(*args: str, columns: int = 200) -> tuple[int, str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(columns)})
    assert "Traceback" not in result.output
    return result.exit_code, result.output.strip()


def _nothing_fought(monkeypatch: pytest.MonkeyPatch) -> None:
    def fight(*args: object, **kwargs: object) -> None:
        raise AssertionError("a battle was fought")

    monkeypatch.setattr("tertia.cli.play_commands.fight_battle", fight)


@pytest.mark.parametrize("flag", ["--save", "--report"])
def test_an_output_in_a_missing_folder_is_refused_before_the_battle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flag: str
) -> None:
    _nothing_fought(monkeypatch)
    target = tmp_path / "no-such-folder" / "out.file"
    code, out = run("battle", "--scenario", "skirmish", flag, str(target))
    assert code == 1 and out.splitlines() == [f"error: {flag} {target}: no such directory {target.parent}"]
    assert list(tmp_path.iterdir()) == []


def test_an_output_under_a_file_is_refused_before_the_battle(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _nothing_fought(monkeypatch)
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    code, out = run("battle", "--scenario", "skirmish", "--save", str(blocker / "game.json"))
    assert code == 1 and len(out.splitlines()) == 1 and f"{blocker} is not a directory" in out
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


def test_outputs_in_a_folder_that_exists_are_written(tmp_path: Path) -> None:
    code, out = run("battle", "--scenario", "skirmish", "--seed", "1", "--json",
                    "--save", str(tmp_path / "g.json"), "--report", str(tmp_path / "g.html"))
    assert code == 0, out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.html", "g.json"]


def test_the_cap_on_games() -> None:
    check_games(MAX_GAMES)
    check_games(MAX_GAMES // 2, 2)
    with pytest.raises(ValueError, match="more than a run may fight"):
        check_games(MAX_GAMES + 1)
    with pytest.raises(ValueError, match="for 2 values is"):
        check_games(MAX_GAMES // 2 + 1, 2)


@pytest.mark.parametrize("command", [
    ["simulate", "--games", str(10**13)],
    ["simulate", "--games", str(MAX_GAMES + 1)],
    ["sweep", "--vary", "hit_limit_infantry=3,4", "--games", str(10**13)],
    ["sweep", "--vary", "hit_limit_infantry=3,4", "--games", str(MAX_GAMES // 2 + 1)],
    ["ladder", "--games", str(MAX_GAMES // 2 + 1)],
    ["ladder", "--player", "doctrine", "--player", "random", "--player", "baseline", "--games",
     str(MAX_GAMES // 6 + 1)],
])
def test_games_above_the_cap_are_refused_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 command: list[str]) -> None:
    def load(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was set up")

    monkeypatch.setattr("tertia.cli.studies.build_game", load)
    monkeypatch.setattr("tertia.cli.studies.run", load)
    plots = tmp_path / "plots"
    code, out = run(*command, "--plots", str(plots), "--out", str(tmp_path / "rows.parquet"))
    assert code == 1 and len(out.splitlines()) == 1, out
    assert out.startswith("error: --games ") and f"more than a run may fight (at most {MAX_GAMES:,})" in out
    assert list(tmp_path.iterdir()) == []


def test_the_cap_is_documented() -> None:
    readme = README.read_text(encoding="utf-8")
    simulate = next(line for line in readme.splitlines() if line.startswith("| `tertia simulate"))
    assert f"at most {MAX_GAMES:,}" in simulate
    for command in ("simulate", "sweep"):
        code, out = run(command, "--help")
        assert code == 0 and f"at most {MAX_GAMES:,}" in " ".join(out.replace("│", " ").split())


PYTHON_TYPE = re.compile(r"<[a-z][a-z_ ]*(\[[^\]]*\])?>|\b(list|tuple|dict)\[\w+\]")
COMMANDS = sorted(getattr(get_command(app), "commands", {}))


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_reads_in_plain_words(command: str) -> None:
    """No reStructuredText markup (``--rules``) and no Python type (<str>, <list[str]>)."""
    code, out = run(*command.split(), "--help")
    assert code == 0 and "Usage:" in out
    assert "``" not in out, out
    assert PYTHON_TYPE.search(out) is None, PYTHON_TYPE.search(out)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_unknown_option_is_refused_in_one_line_naming_the_help(command: str) -> None:
    """A command line the parser cannot use stops as every other error does: one line,
    exit 2, naming the option and the command whose help lists its options (no usage
    block, no frame)."""
    code, out = run(command, "--no-such-flag")
    assert code == 2 and out.splitlines() == [
        f"error: No such option: --no-such-flag (`tertia {command} --help` lists its options)"], out


@pytest.mark.parametrize(("args", "line"), [
    (("simulate",), "error: Missing option '--games' (`tertia simulate --help` lists its options)"),
    (("simulate", "--games", "many"), "error: Invalid value for '--games': "),
    (("fight",), "error: No such command 'fight' (`tertia --help` lists its commands)"),
])
def test_a_missing_option_a_bad_value_and_an_unknown_command_are_one_line(args: tuple[str, ...],
                                                                          line: str) -> None:
    code, out = run(*args)
    assert code == 2 and len(out.splitlines()) == 1 and out.startswith(line), out
    assert "╭" not in out and "Usage:" not in out


@pytest.mark.parametrize("command", COMMANDS)
def test_a_commands_help_flows_where_its_docstring_broke_a_line(command: str) -> None:
    """The help wraps to the terminal: a line break the source made inside a paragraph
    is a space, so no line of the description stops short mid-sentence."""
    found = getattr(get_command(app), "commands", {})[command]
    paragraphs = (found.help or "").split("\n\n")
    assert all("\n" not in p for p in paragraphs), found.help


def test_odds_takes_rule_options_for_a_scenario() -> None:
    attack = ["odds", ODDS_FILE, "--attacker", "p-foot", "--target", "r-foot", "--json"]
    plain = json.loads(run(*attack)[1])
    muskets = json.loads(run(*attack, "--option", "muskets_when_defending=true")[1])
    brittle = json.loads(run(*attack, "-o", "hit_limit_infantry=1")[1])
    assert plain["defender_modifiers"] == [] and muskets["defender_modifiers"]
    assert plain["summary"]["target_routed"] == 0 < brittle["summary"]["target_routed"]


@pytest.mark.parametrize(("option", "needle"), [
    ("queens=2", "Larger Battles has no option 'queens'"),
    ("hit_limit_infantry", "--option 'hit_limit_infantry': expected KEY=VALUE"),
    ("hit_limit_infantry=lots",
     "option hit_limit_infantry: expected a whole number from 1 to 20, got 'lots'"),
])
def test_odds_refuses_a_bad_option_in_one_line(option: str, needle: str) -> None:
    code, out = run("odds", ODDS_FILE, "--attacker", "p-foot", "--target", "r-foot", "--option", option)
    assert code == 1 and len(out.splitlines()) == 1 and needle in out, out


def _wrong_texts(spec: OptionSpec) -> list[str]:
    """Values given at the command line that ``spec`` does not take: a word for a number
    or a flag, a choice it does not offer, a number past its range."""
    wrong = ["nonesuch"] if spec.choices is not None or not isinstance(spec.default, str) else []
    if spec.high is not None:
        wrong.append(f"{spec.high + 1:g}")
    return wrong


@pytest.mark.parametrize("rules", ruleset_ids())
def test_a_bad_option_value_is_refused_naming_what_it_takes(rules: str) -> None:
    """Every option of every rule set, given a value it does not take, is refused before
    a battle in one line naming the option, what it takes (as the page says it: its
    choices, or its kind and range) and the value given."""
    scenario = written_for(rules)[0].name
    for spec in ruleset_class(rules).OPTIONS:
        for text in _wrong_texts(spec):
            code, out = run("battle", "--rules", rules, "--scenario", scenario, "--json",
                            "--option", f"{spec.name}={text}")
            assert code != 0 and len(out.strip().splitlines()) == 1, out
            assert f"option {spec.name}: expected {spec.expected()}, got " in out and text in out, out


def test_odds_on_a_record_keeps_the_records_options(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = run("battle", "--scenario", "skirmish", "--seed", "3", "--json", "--save", str(record),
                    "--option", "hit_limit_infantry=4")
    assert code == 0, out
    final = json.loads(out)
    assert final["options"]["hit_limit_infantry"] == 4
    ask = ["odds", str(record), "--attacker", "nobody", "--target", "r-foot"]
    code, out = run(*ask, "--option", "hit_limit_infantry=3")
    assert code == 1 and len(out.splitlines()) == 1, out
    assert f"--option hit_limit_infantry=3: {record} was played with hit_limit_infantry=4" in out
    code, out = run(*ask, "--option", "hit_limit_infantry=4")  # the same: on to the question
    assert code == 1 and "nobody" in out and "was played with" not in out
    code, out = run(*ask, "--option", "queens=1")
    assert code == 1 and "no option 'queens'" in out


def _edgehill_rule_sets() -> list[str]:
    return [rules for rules in ruleset_ids() if "edgehill" in {e.name for e in written_for(rules)}]


@pytest.mark.parametrize("rules", _edgehill_rule_sets())
def test_odds_refusals_agree_with_a_plural_name(rules: str) -> None:
    """A refusal that opens with a unit whose name is in the plural takes its verb in the
    plural, whichever of the rule set's words is asked: two of the King's dragoons at
    Edgehill, a friend and a far enemy."""
    verbs = []
    for attacker, target in (("Usher's", "Duncombe"), ("Usher's", "Wardlawe"), ("Wardlawe", "Usher's")):
        for word in ruleset_class(rules).ACTION_WORDS:
            code, out = run("odds", "edgehill", "--rules", rules, "--attacker", attacker, "--target", target,
                            "--action", word)
            for name in ("Usher's Dragoons", "Duncombe's Dragoons", "Wardlawe's Dragoons"):
                opening = f"error: {name} "
                if code == 1 and out.startswith(opening):
                    verbs.append(out[len(opening):].split()[0])
    assert verbs and [v for v in verbs if plural_verb(v) is not None] == [], verbs


def test_odds_lists_each_rule_sets_action_words() -> None:
    code, out = run("odds", "--help", columns=400)
    help_text = " ".join(out.replace("│", " ").split())
    assert code == 0 and action_help() in help_text
    readme = README.read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `tertia odds"))
    assert "[--option KEY=VALUE]" in row
    for rules in SHIPPED:
        words = ruleset_class(rules).ACTION_WORDS
        assert words and all(word in action_help() for word in words)
        listed = "\\|".join(words)
        assert re.search(rf"`{re.escape(listed)}` under [^;|]*`{re.escape(rules)}`", row), (rules, listed)
