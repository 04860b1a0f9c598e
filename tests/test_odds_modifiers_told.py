"""The odds tell each modifier as the narrative does (:func:`~tertia.rules.fighting.told_modifier`),
its value said once: ``tertia odds`` and the page's odds (the HTTP API's answers the page
shows) give "D3-1 for artillery", where the modifier recorded is "-1 D3-1 for artillery"
(the D3 a gun rolls under d3-commands); ``--json`` keeps the modifiers as recorded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tertia.cli.main import app
from tertia.rules.fighting import told_modifier
from tertia.web.app import create_app
from tertia.web.games import told_odds
from tests.web_support import bearer

RULES = "d3-commands"
GUN, TARGET = "r-guns-right", "p-meldrum-foot-1"
"""A battery at Edgehill and the foot it can bombard as the battle opens."""
RESTATED = "-1 D3-1 for artillery"


def _odds_text(*extra: str) -> str:
    args = ["odds", "tertia/scenarios/edgehill.toml", "--rules", RULES, "--attacker", GUN, "--target", TARGET,
            "--action", "bombard", *extra]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def test_tertia_odds_says_each_modifiers_value_once() -> None:
    recorded = json.loads(_odds_text("--json"))
    assert RESTATED in recorded["modifiers"]  # the record keeps the value and its reason
    lines = [line for line in _odds_text().splitlines() if line.startswith(("  attacker ", "  defender "))]
    assert lines == [*(f"  attacker {told_modifier(m)}" for m in recorded["modifiers"]),
                     *(f"  defender {told_modifier(m)}" for m in recorded["defender_modifiers"])]
    assert "  attacker D3-1 for artillery" in lines and not any("-1 D3-1" in line for line in lines), lines


def test_told_keeps_the_answer_but_its_modifiers() -> None:
    summary = {"target_hits": {"0": 1.0}}
    answer = {"modifiers": [RESTATED, "-1 target in cover (hedge)"],
              "defender_modifiers": ["-1 D3-1 for dragoons"], "summary": summary}
    assert told_odds(answer) == {"modifiers": ["D3-1 for artillery", "-1 target in cover (hedge)"],
                            "defender_modifiers": ["D3-1 for dragoons"], "summary": summary}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def test_the_pages_odds_say_each_modifiers_value_once(client: TestClient) -> None:
    """A question of odds put as the page puts it: the answer's modifiers are the engine's,
    told once each."""
    created = client.post("/api/games", json={"scenario": "edgehill", "rules": RULES, "mode": "hotseat",
                                              "seed": 3}).json()
    answer = client.post(f"/api/games/{created['id']}/question", json={"question": "bombard", "attacker": GUN,
                                                                        "target": TARGET},
                         headers=bearer(created["tokens"]["royalist"]))
    assert answer.status_code == 200, answer.text
    recorded = json.loads(_odds_text("--json"))  # the same bombardment as the battle opens
    assert RESTATED in recorded["modifiers"]
    shown = answer.json()
    assert shown["modifiers"] == [told_modifier(m) for m in recorded["modifiers"]]
    assert shown["defender_modifiers"] == [told_modifier(m) for m in recorded["defender_modifiers"]]
    assert "D3-1 for artillery" in shown["modifiers"] and RESTATED not in shown["modifiers"]
