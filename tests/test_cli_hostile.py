"""Hostile files on the command line: broken scenarios and tampered game records, each
fed to the commands that read them. Every one is refused with exit status 1, one line a
problem naming the file, and no Python insides; nothing is written."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.cli.common import DEFAULT_RULES
from tertia.cli.main import app
from tertia.rulesets import ruleset_ids
from tests.cli_support import saved_record

runner = CliRunner()
TINY = (Path(__file__).parent / "scenarios" / "tiny.toml").read_text(encoding="utf-8")
INSIDES = ("Traceback", "File \"", "Error:", "Exception", "<class", "pydantic", "tomllib")


def terrain(kind: str, shape: str) -> str:
    return f'\n[[terrain]]\ntype = "{kind}"\n{shape}\n'


def _replace(old: str, new: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert old in text, old
        return text.replace(old, new, 1)
    return change


SCENARIOS: dict[str, Callable[[str], str] | bytes] = {
    "empty": lambda t: "",
    "binary": bytes(range(256)),
    "not utf-8": b'name = "\xff\xfe"\n',
    "unclosed string": _replace('name = "Tiny"', 'name = "Tiny'),
    "unclosed table": _replace("[table]", "[table"),
    "duplicate key": _replace("turns = 3", "turns = 3\nturns = 4"),
    "turns as text": _replace("turns = 3", 'turns = "three"'),
    "turns zero": _replace("turns = 3", "turns = 0"),
    "turns huge": _replace("turns = 3", "turns = 100000"),
    "turns float": _replace("turns = 3", "turns = 3.5"),
    "no table": _replace("[table]\nwidth = 24\ndepth = 24", ""),
    "width zero": _replace("width = 24", "width = 0"),
    "width negative": _replace("width = 24", "width = -24"),
    "width nan": _replace("width = 24", "width = nan"),
    "width inf": _replace("width = 24", "width = inf"),
    "width huge": _replace("width = 24", "width = 1e300"),
    "width over 1000": _replace("width = 24", "width = 5000"),
    "width as text": _replace("width = 24", 'width = "24"'),
    "one side": _replace('[[sides]]\nid = "royalist"\nedge = "north"', ""),
    "same edge": _replace('id = "royalist"\nedge = "north"', 'id = "royalist"\nedge = "south"'),
    "unknown edge": _replace('edge = "north"', 'edge = "east"'),
    "same side ids": _replace('id = "royalist"\nedge', 'id = "parliament"\nedge'),
    "unknown unit type": _replace('type = "foot"', 'type = "pikes"'),
    "unknown command": _replace('command = "centre"\nx = 12\ny = 6', 'command = "vanguard"\nx = 12\ny = 6'),
    "unit off table": _replace("x = 12\ny = 6", "x = 120\ny = 6"),
    "unit x nan": _replace("x = 12\ny = 6", "x = nan\ny = 6"),
    "unit unknown side": _replace('id = "p-foot"\nside = "parliament"', 'id = "p-foot"\nside = "scots"'),
    "duplicate unit id": _replace('id = "r-foot"', 'id = "p-foot"'),
    "overlapping units": _replace("x = 12\ny = 18", "x = 12\ny = 6.5"),
    "unknown field": _replace('name = "Tiny"', 'name = "Tiny"\ncolour = "red"'),
    "unknown unit field": _replace('type = "foot"', 'type = "foot"\nmorale = 7'),
    "ansi in name": _replace('name = "Tiny"', 'name = "Tiny\\u001b[31m"'),
    "bell in unit name": _replace('id = "p-foot"', 'id = "p-foot"\nname = "Foot\\u0007"'),
    "bidi override in name": _replace('name = "Tiny"', 'name = "Tiny\\u202e"'),
    "very long name": _replace('name = "Tiny"', 'name = "' + "T" * 500 + '"'),
    "empty id": _replace('id = "p-foot"', 'id = ""'),
    "misspelt trait": _replace('id = "p-foot"', 'id = "p-foot"\ntraits = ["impetous"]'),
    "two generals": _replace('[[commanders]]\nid = "p-cmd"',
                             '[[commanders]]\nid = "p-cmd2"\nside = "parliament"\ncommand = "centre"\n'
                             'general = true\nx = 4\ny = 2\n\n[[commanders]]\nid = "p-cmd"'),
    "deep nesting": lambda t: t + "\nsources = " + "[" * 5000 + "]" * 5000 + "\n",
    "degenerate polygon": lambda t: t + terrain("woods", "polygon = [[1, 1], [2, 2], [3, 3]]"),
    "polygon off table": lambda t: t + terrain("woods", "polygon = [[1, 1], [90, 1], [1, 9]]"),
    "crossing polygon": lambda t: t + terrain("woods", "polygon = [[1, 1], [5, 5], [5, 1], [1, 5]]"),
    "line without width": lambda t: t + terrain("road", "line = [[1, 1], [5, 5]]"),
    "unit in woods": lambda t: t + terrain("woods", "polygon = [[9, 4], [15, 4], [15, 8], [9, 8]]"),
    "unknown terrain": lambda t: t + terrain("volcano", "polygon = [[1, 1], [5, 1], [5, 5]]"),
    "not written for rules": _replace('rules = ["larger-battles"]', 'rules = ["d3-cards"]'),
    "unknown rule set": _replace('rules = ["larger-battles"]', 'rules = ["nope"]'),
    "two problems": _replace('type = "foot"', 'type = "pikes"'),  # each of two units
}


def scenario_file(tmp_path: Path, name: str) -> Path:
    change = SCENARIOS[name]
    path = tmp_path / "hostile.toml"
    if isinstance(change, bytes):
        path.write_bytes(change)
    else:
        path.write_text(change(TINY), encoding="utf-8")
    return path


def assert_refused(result: Any, path: Path, tmp_path: Path, before: set[Path]) -> None:
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert 1 <= len(lines) <= 51, result.output
    assert all(str(path) in line for line in lines), result.output
    assert not any(word in result.output for word in INSIDES), result.output
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert set(tmp_path.iterdir()) == before, "something was written"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_hostile_scenario_is_refused_by_validate(tmp_path: Path, name: str) -> None:
    path = scenario_file(tmp_path, name)
    before = set(tmp_path.iterdir())
    assert_refused(runner.invoke(app, ["validate", str(path), "--rules", "larger-battles"]), path, tmp_path,
                   before)


@pytest.mark.parametrize("name", ["binary", "unclosed table", "width over 1000", "same edge", "ansi in name",
                                  "misspelt trait", "deep nesting", "unit in woods", "unknown rule set",
                                  "two problems"])
def test_a_hostile_scenario_is_refused_by_battle_inspect_and_odds(tmp_path: Path, name: str) -> None:
    """Refused in lines that each name the file and begin "error:" (a rule set the file
    names and Tertia does not know: by its place in the file's list)."""
    path = scenario_file(tmp_path, name)
    before = set(tmp_path.iterdir())
    save = tmp_path / "game.json"
    for command in (["battle", "--scenario", str(path), "--save", str(save)], ["inspect", str(path)],
                    ["odds", str(path), "--attacker", "p-foot", "--target", "r-foot"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1, (command, result.output)
        assert not any(word in result.output for word in INSIDES), result.output
        lines = result.output.splitlines()
        assert lines and all(line.startswith(f"error: {path}: ") for line in lines), result.output
        if name == "unknown rule set":
            assert lines == [f"error: {path}: rules[0]: unknown rule set 'nope'; known: "
                             f"{', '.join(ruleset_ids())}"]
        assert set(tmp_path.iterdir()) == before


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return saved_record(tmp_path_factory.mktemp("record"), seed=8)


def _set(*keys: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node = data
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return change


def _drop(*keys: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node = data
        for key in keys[:-1]:
            node = node[key]
        del node[keys[-1]]
    return change


RECORDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "not a record": lambda d: d.clear(),
    "wrong format": _set("format", value="chess-pgn"),
    "future format": _set("format_version", value=99),
    "format version as text": _set("format_version", value="1"),
    "no format version": _drop("format_version"),
    "old rule-set version": _set("ruleset", "version", value="0.1"),
    "no rule-set version": _drop("ruleset", "version"),
    "unknown rule set": _set("ruleset", "id", value="chess"),
    "unknown option": _set("ruleset", "options", value={"queens": 2}),
    "option out of range": _set("ruleset", "options", value={"hit_limit_infantry": 0}),
    "option as a list": _set("ruleset", "options", value=[1]),
    "ruleset as text": _set("ruleset", value="larger-battles"),
    "scenario as text": _set("scenario", value="skirmish"),
    "scenario missing a table": _drop("scenario", "table"),
    "seed as text": _set("seed", value="8"),
    "seed as float": _set("seed", value=8.5),
    "seed changed": lambda d: d.update(seed=d["seed"] + 1),
    "no seed": _drop("seed"),
    "steps as object": _set("steps", value={}),
    "action unknown type": _set("steps", 0, "action", value={"type": "teleport"}),
    "action unknown field": lambda d: d["steps"][0]["action"].update(secret=1),
    "action as text": _set("steps", 0, "action", value="end_phase"),
    "steps cut short": lambda d: d.update(steps=d["steps"][:5]),
    "step as text": _set("steps", 0, value="end_phase"),
    "step unknown field": lambda d: d["steps"][0].update(secret=1),
    "step side changed": lambda d: d["steps"][0].update(side="nobody"),
    "step events as object": _set("steps", 0, "events", value={}),
    "step event as text": _set("steps", 0, "events", value=["marked"]),
    "step hash as number": _set("steps", 0, "hash", value=7),
    "no step hash": _drop("steps", 0, "hash"),
    "no steps": _drop("steps"),
    "no start": _drop("start"),
    "format 2 actions in a format 3 record": lambda d: d.update(
        actions=[{"side": s["side"], **s["action"]} for s in d.pop("steps")]),
    "rolls as object": _set("rolls", value={}),
    "roll value as text": lambda d: d["rolls"][0].update(value="3"),
    "roll value as float": lambda d: d["rolls"][0].update(value=3.5),
    "roll value off the die": lambda d: d["rolls"][0].update(value=7),
    "roll die changed": lambda d: d["rolls"][0].update(die="d10"),
    "roll purpose changed": lambda d: d["rolls"][0].update(purpose="luck"),
    "roll missing": lambda d: d["rolls"].pop(3),
    "roll extra": lambda d: d["rolls"].append({"purpose": "luck", "die": "d6", "value": 1}),
    "roll unknown field": lambda d: d["rolls"][0].update(weight=1),
    "final hash changed": _set("final_hash", value="0" * 64),
    "final hash as number": _set("final_hash", value=7),
    "result changed": lambda d: d["result"].update(winner="nobody"),
    "result as list": _set("result", value=[]),
    "unknown top field": _set("comment", value="hello"),
}


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_tampered_record_is_refused_by_replay(tmp_path: Path, record: dict[str, Any], name: str) -> None:
    data = json.loads(json.dumps(record))
    RECORDS[name](data)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = set(tmp_path.iterdir())
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code in (1, 3), result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and str(path) in lines[0], result.output
    assert not any(word in result.output for word in INSIDES), result.output
    assert set(tmp_path.iterdir()) == before


@pytest.mark.parametrize("content", [b"", b"\x00\x01", b"[1, 2]", b"{", b'"text"', b"null",
                                     b"[" * 100_000 + b"]" * 100_000])
def test_files_that_are_not_records_at_all(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    for command in (["replay", str(path)], ["inspect", str(path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1, result.output
        assert len(result.output.strip().splitlines()) == 1 and str(path) in result.output
        assert not any(word in result.output for word in INSIDES), result.output


EDGEHILL = (Path(__file__).parent.parent / "tertia" / "scenarios" / "edgehill.toml").read_text("utf-8")


@pytest.mark.parametrize("rules", [r for r in ruleset_ids() if r != DEFAULT_RULES])
def test_a_faulty_scenario_written_for_another_rule_set_is_refused_for_its_own_fault(
        tmp_path: Path, rules: str) -> None:
    """A scenario file with a problem, written for a rule set other than the default, is
    read under its own rule set when none is named: what is wrong with it is told, not
    that it is not written for larger-battles."""
    path = tmp_path / "faulty.toml"
    faulty = EDGEHILL + terrain("woods", "polygon = [[1, 1], [900, 1], [1, 9]]")
    own = re.sub(r"(?m)^rules = \[.*\]$", f'rules = ["{rules}"]', faulty, count=1)
    path.write_text(own, encoding="utf-8")
    for command in (["battle", "--scenario", str(path)], ["inspect", str(path)],
                    ["odds", str(path), "--attacker", "a", "--target", "b"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 1, (command, result.output)
        assert "is outside the" in result.output, (command, result.output)
        assert "not written for" not in result.output, (command, result.output)
