"""A side the scenario gives no name is named alike everywhere, under every registered
rule set (the example plugin's too): by its id in words ("Royalist" for ``royalist``), as
the game names it (:attr:`Game.side_names <tertia.core.game.Game.side_names>`), in the
scenario's own names, the command line's narrative, the report, and the HTTP API's table,
game and log, never by its bare id.

Each rule set's default battle is fought with its sides' names taken out. A new rule set
is covered without editing this file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tertia.cli.main import app
from tertia.core.game import Game
from tertia.core.narration import default_side_name
from tertia.core.scenario import Scenario
from tertia.rulesets import get_ruleset
from tertia.scenarios.catalogue import default_scenario, load_named, shipped_files
from tests.plugin_rules import every_rule_set
from tests.web_support import bearer, serving_changed

RULE_SETS = every_rule_set()


pytestmark = pytest.mark.usefixtures("plugins_registered")


def unnamed(scenario: Scenario) -> Scenario:
    """``scenario`` with no name for any side."""
    sides = tuple(s.model_copy(update={"name": ""}) for s in scenario.sides)
    return scenario.model_copy(update={"sides": sides})


def unnamed_text(name: str) -> str:
    """The TOML of the scenario ``name`` (built in or shipped by a rule set) with no name
    for any side."""
    shipped = shipped_files()
    path = shipped[name][1] if name in shipped else files("tertia.scenarios") / f"{name}.toml"
    out: list[str] = []
    in_sides = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            in_sides = line.strip() == "[[sides]]"
        if not (in_sides and re.match(r"\s*name\s*=", line)):
            out.append(line)
    return "\n".join(out) + "\n"


def bare_ids(text: str, sides: tuple[str, ...]) -> list[str]:
    """The side ids ``text`` holds as words of their own, as written (a name in words
    starts with a capital: "Royalist")."""
    return [m.group(0) for m in re.finditer(r"\b(?:" + "|".join(map(re.escape, sides)) + r")\b", text)]


def battle(rules: str) -> Game:
    return Game(get_ruleset(rules), unnamed(load_named(default_scenario(rules), rules_id=rules)))


@pytest.mark.parametrize("rules", RULE_SETS)
def test_an_unnamed_side_is_named_alike_by_its_scenario_and_its_game(rules: str) -> None:
    game = battle(rules)
    sides = game.scenario.side_ids
    expected = {side: default_side_name(side) for side in sides}
    assert all(expected[side] != side for side in sides), expected  # else nothing here could fail
    assert game.scenario.side_names() == expected
    assert game.side_names == expected


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_narrative_and_the_report_name_an_unnamed_side_as_the_game_does(rules: str,
                                                                           tmp_path: Path) -> None:
    """``tertia battle`` on the battle written out with no side's name: its narrative and
    its report name each side in words, never by its id."""
    scenario = default_scenario(rules)
    file = tmp_path / f"{scenario}.toml"
    file.write_text(unnamed_text(scenario), encoding="utf-8")
    report = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["battle", "--scenario", str(file), "--rules", rules, "--seed", "3",
                                      "--max-actions", "40", "--report", str(report)],
                                env={"COLUMNS": "200"})
    assert result.exit_code in (0, 2), result.output
    game = battle(rules)
    sides = game.scenario.side_ids
    assert bare_ids(result.output, sides) == [], result.output
    assert any(name in result.output for name in game.side_names.values()), result.output
    html = report.read_text(encoding="utf-8")
    shown = re.sub(r"<[^>]*>", " ", html[html.index("<body"):])
    assert bare_ids(shown, sides) == []
    assert all(name in shown for name in game.side_names.values())


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The server, every battle it builds with no side's name."""
    with serving_changed(tmp_path, monkeypatch, unnamed) as served:
        yield served


@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_page_names_an_unnamed_side_as_the_game_does(client: TestClient, rules: str) -> None:
    """The table the page draws, the game it lists and the log beside the map name each
    side as the game does."""
    created = client.post("/api/games", json={"scenario": default_scenario(rules), "rules": rules,
                                              "mode": "hotseat", "seed": 3})
    assert created.status_code == 201, created.text
    gid, tokens = created.json()["id"], created.json()["tokens"]
    me = bearer(next(iter(tokens.values())))
    game = battle(rules)
    table = client.get(f"/api/games/{gid}/table", headers=me).json()
    assert {s["id"]: s["name"] for s in table["sides"]} == game.side_names
    view = client.get(f"/api/games/{gid}/view", headers=me).json()
    assert {s["id"]: s["name"] for s in view["game"]["sides"]} == game.side_names
    log = "\n".join(line["text"] for entry in view["log"] for line in entry["lines"])
    assert bare_ids(log, game.scenario.side_ids) == [], log
