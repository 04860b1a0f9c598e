"""The example rule set's commands run exactly as ``docs/architecture.md`` ("Adding a rule
set") writes them: the installed ``tertia`` script, from the checkout, with
``TERTIA_RULESETS=tests.example_rules.plugin`` and nothing else. The plugin's battle is its
default scenario, ``tertia scenarios`` lists it, and simulations fight it."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "architecture.md"
SCRIPT = Path(sys.executable).parent / "tertia"
PLUGIN = "TERTIA_RULESETS=tests.example_rules.plugin"
TITLE = "Declare: a brush in the lanes"

pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason=f"no installed tertia script at {SCRIPT}")


def documented() -> list[list[str]]:
    """The example's commands in the guide's shell blocks, as argument lists after ``tertia``."""
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(encoding="utf-8"), flags=re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines()]
    return [shlex.split(line.removeprefix(f"{PLUGIN} tertia")) for line in lines
            if line.startswith(f"{PLUGIN} tertia ")]


def tertia(*args: str, plugin: str = "tests.example_rules.plugin") -> subprocess.CompletedProcess[str]:
    """The script run in the checkout as a person would run it: the plugin named in the
    environment, no import path set up for it."""
    env = {**os.environ, "TERTIA_RULESETS": plugin, "TERTIA_PURE_PYTHON": "1", "COLUMNS": "200"}
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=600)


def test_the_guide_shows_the_commands_tested_here() -> None:
    assert documented() == [
        ["battle", "--rules", "example-declare"],
        ["battle", "--rules", "example-declare", "--json"],
        ["scenarios"],
        ["simulate", "--rules", "example-declare", "--games", "4"],
    ]


def test_the_battle_is_told_on_the_plugins_own_scenario() -> None:
    told = tertia(*documented()[0])
    assert told.returncode == 0, told.stderr
    assert f"{TITLE} — Declare Thee Sir (example slice)" in told.stdout
    assert "Edgehill" not in told.stdout
    assert re.search(r"(Victory to \w+|A drawn battle) after \d+ turns", told.stdout), told.stdout


def test_the_battle_as_json() -> None:
    fought = tertia(*documented()[1])
    assert fought.returncode == 0, fought.stderr
    summary = json.loads(fought.stdout)
    assert summary["ruleset"] == "example-declare" and summary["scenario"] == TITLE
    assert summary["actions"] > 0 and summary["reason"]
    named = tertia("battle", "--rules", "example-declare", "--scenario", "declare", "--json")
    assert json.loads(named.stdout)["final_hash"] == summary["final_hash"]


STORY = ("A fictional meeting in the lanes: a few companies of foot and a troop of horse a side, each sent "
         "to hold the crossroads before the other.")
DRAWN_UP = "Foot of three stands and horse of two a side, as the example rule set fields them."
"""The example battle's story and notes (``tests/scenarios/declare.toml``)."""


def test_the_scenarios_listed_include_the_plugins() -> None:
    listed = tertia(*documented()[2])
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if " declare " in line)
    assert TITLE in row and "example-declare" in row and "rule set example-declare" in row
    assert "edgehill" in listed.stdout
    rows = {r["name"]: r for r in json.loads(tertia("scenarios", "--json").stdout)}
    assert rows["declare"] == {"name": "declare", "title": TITLE, "rules": ["example-declare"],
                               "units": {"parliament": 3, "royalist": 3},
                               "units_by_rules": {"example-declare": {"parliament": 3, "royalist": 3}},
                               "shipped_by": "example-declare", "description": STORY,
                               "notes_by_rules": {"example-declare": DRAWN_UP}}
    assert rows["edgehill"]["shipped_by"] is None


def test_a_simulation_of_the_plugins_battle() -> None:
    studied = tertia(*documented()[3])
    assert studied.returncode == 0, studied.stderr
    assert f"{TITLE} — Example slice: 4 games" in studied.stdout
    assert "4 games in" in studied.stdout
    # One deck of both sides' cards decides who acts: no side moves first to measure.
    assert "First-mover advantage: not measured" in studied.stdout


def test_a_plugin_that_cannot_be_imported_stops_any_command_in_one_line() -> None:
    for args in (["scenarios"], ["battle", "--rules", "example-declare"], ["rules"]):
        stopped = tertia(*args, plugin="tests.example_rules.no_such_module")
        assert stopped.returncode == 1, args
        assert stopped.stderr.strip().splitlines() == [
            "error: TERTIA_RULESETS: cannot import 'tests.example_rules.no_such_module': "
            "No module named 'tests.example_rules.no_such_module'"], stopped.stderr
