"""One catalogue of scenarios (``tertia/scenarios/catalogue.py``): the built-ins and the
battles registered rule sets ship, named alike by the command line, the server and the
whole-battle tests; a plugin's battle is its rule set's default."""

from __future__ import annotations

import doctest
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

import tertia.scenarios.catalogue
from tertia.cli.common import default_scenario as cli_default
from tertia.cli.main import app
from tertia.io.scenario_file import ScenarioError
from tertia.rulesets import registered, ruleset_ids
from tertia.scenarios import builtin_names, load_builtin, resolve_scenario
from tertia.scenarios.catalogue import (
    default_scenario,
    load_named,
    scenario_catalogue,
    scenario_names,
    shipped_files,
    written_for,
)
from tertia.web.games import build_game, shipped_scenarios
from tertia.web.games import scenario_names as web_names
from tests.example_rules.ruleset import SCENARIO, ExampleDeclare

from .example_support import registered as example_registered

__all__ = ["example_registered"]

runner = CliRunner()
TITLE = "Declare: a brush in the lanes"


@pytest.fixture
def second(tmp_path: Path) -> Iterator[Path]:
    """A second plugin shipping a built-in's name, the example's name and a battle of its
    own (the example's, written for it); yields that battle's file."""
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(SCENARIO.read_text(encoding="utf-8").replace(
        'rules = ["example-declare"]', 'rules = ["example-second"]'), encoding="utf-8")

    class Second(ExampleDeclare):
        id: ClassVar[str] = "example-second"
        SCENARIO_FILES: ClassVar[Mapping[str, str]] = {
            "edgehill": str(lanes), "declare": str(lanes), "lanes": str(lanes)}

    with registered(Second):
        yield lanes


def test_doctests() -> None:
    failures, tried = doctest.testmod(tertia.scenarios.catalogue)
    assert tried > 0 and failures == 0


def test_without_plugins_the_catalogue_is_the_builtins() -> None:
    assert "example-declare" not in ruleset_ids()
    assert scenario_names() == builtin_names()
    assert [s.shipped_by for s in scenario_catalogue()] == [None] * len(builtin_names())
    assert default_scenario("d3-cards") == "edgehill" and default_scenario("larger-battles") == "edgehill"


def test_a_plugins_battle_joins_the_catalogue(example_registered: Any) -> None:
    assert scenario_names() == [*builtin_names(), "declare"]
    declare = scenario_catalogue()[-1]
    assert (declare.name, declare.title, declare.rules, declare.shipped_by) == (
        "declare", TITLE, ("example-declare",), "example-declare")
    assert [s.name for s in written_for("example-declare")] == ["declare"]
    assert default_scenario("example-declare") == cli_default("example-declare") == "declare"
    assert default_scenario("declare-thee-sir") == "edgehill"
    assert load_named("declare", rules_id="example-declare").name == TITLE
    assert resolve_scenario("declare").name == TITLE
    assert load_named("edgehill") is load_builtin("edgehill")


def test_the_server_names_the_same_catalogue(example_registered: Any) -> None:
    assert web_names("larger-battles") == scenario_names()
    assert [s.name for s in shipped_scenarios()] == ["declare"]
    assert build_game("declare", "example-declare", {}).scenario.name == TITLE


def test_the_first_claim_to_a_name_wins(example_registered: Any, second: Path) -> None:
    assert shipped_files() == {"declare": ("example-declare", SCENARIO), "lanes": ("example-second", second)}
    assert [s.name for s in written_for("example-second")] == ["lanes"]
    assert default_scenario("example-second") == "lanes"
    assert load_builtin("edgehill") is load_named("edgehill")


def test_an_unknown_name_lists_the_catalogue(example_registered: Any) -> None:
    with pytest.raises(ScenarioError) as info:
        resolve_scenario("marston_moor")
    assert str(info.value) == (
        "marston_moor: no such file, and no scenario of that name; "
        "scenarios: chalgrove, edgehill, naseby, roundway_down, skirmish, declare")
    with pytest.raises(ScenarioError) as info:
        load_named("marston_moor")
    assert str(info.value) == ("marston_moor: no scenario 'marston_moor'; "
                               "scenarios: chalgrove, edgehill, naseby, roundway_down, skirmish, declare")


def test_a_shipped_file_that_is_missing_is_named(tmp_path: Path) -> None:
    class Lost(ExampleDeclare):
        id: ClassVar[str] = "example-lost"
        SCENARIO_FILES: ClassVar[Mapping[str, str]] = {"lost": str(tmp_path / "lost.toml")}

    with registered(Lost):
        with pytest.raises(ScenarioError) as info:
            load_named("lost")
        assert str(info.value) == f"{tmp_path / 'lost.toml'}: scenario 'lost' shipped by rule set " \
                                  "'example-lost': no such file"
        listed = runner.invoke(app, ["scenarios"])
        assert listed.exit_code == 1
        assert "scenario 'lost' shipped by rule set 'example-lost': no such file" in listed.output
        fought = runner.invoke(app, ["battle", "--rules", "example-lost"])
        assert fought.exit_code == 1 and "no such file" in fought.output


def test_the_command_line_names_a_plugins_battle(example_registered: Any) -> None:
    fought = runner.invoke(app, ["battle", "--rules", "example-declare", "--seed", "2", "--json"])
    assert fought.exit_code == 0, fought.output
    assert json.loads(fought.output)["scenario"] == TITLE
    named = runner.invoke(app, ["battle", "--rules", "example-declare", "--scenario", "declare",
                                "--seed", "2", "--json"])
    assert json.loads(named.output)["final_hash"] == json.loads(fought.output)["final_hash"]
    checked = runner.invoke(app, ["validate", "declare"])
    assert checked.exit_code == 0, checked.output
    assert checked.output == "declare: valid (6 units, 2 commanders; checked under example-declare)\n"
    wrong = runner.invoke(app, ["battle", "--rules", "larger-battles", "--scenario", "declare"])
    assert wrong.exit_code == 1 and "not written for rule set 'larger-battles'" in wrong.output
    studied = runner.invoke(app, ["simulate", "--rules", "example-declare", "--games", "2", "--workers", "1",
                                  "--json"])
    assert studied.exit_code == 0, studied.output
    assert json.loads(studied.output.splitlines()[-1])["scenario"] == "declare"  # after the progress bar


def test_once_unregistered_the_plugins_battle_is_gone() -> None:
    with registered(ExampleDeclare):
        assert "declare" in scenario_names()
    assert "declare" not in scenario_names()
    with pytest.raises(ScenarioError):
        resolve_scenario("declare")
