"""The example rule set reaches every front end from its own module: the command line
(``tertia battle``, ``tertia replay``) with ``TERTIA_RULESETS`` naming its plugin module,
and the HTTP API (create a game, act, read each side's view)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.web.app import create_app
from tests.example_rules.ruleset import SCENARIO

from .example_support import P, R, registered
from .web_support import bearer

__all__ = ["registered"]

ROOT = Path(__file__).resolve().parent.parent


def tertia(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TERTIA_RULESETS": "tests.example_rules.plugin", "TERTIA_PURE_PYTHON": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-m", "tertia", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_a_battle_from_the_command_line_replays(tmp_path: Path) -> None:
    record = tmp_path / "declare.json"
    fought = tertia("battle", "--rules", "example-declare", "--scenario", str(SCENARIO), "--seed", "4",
                    "--player", f"{P}=random", "--save", str(record))
    assert fought.returncode == 0, fought.stderr
    assert "Declare Thee Sir (example slice)" in fought.stdout
    assert "Record saved to" in fought.stdout
    saved = json.loads(record.read_text())
    assert saved["ruleset"]["id"] == "example-declare"
    assert {s["action"]["type"] for s in saved["steps"]} >= {"declare_assign_free_move"}
    replayed = tertia("replay", str(record))
    assert replayed.returncode == 0, replayed.stderr
    assert "replayed identically" in replayed.stdout
    summary = tertia("battle", "--rules", "example-declare", "--scenario", str(SCENARIO), "--seed", "4",
                     "--player", f"{P}=random", "--json")
    assert json.loads(summary.stdout)["final_hash"] == saved["final_hash"]


def test_without_the_plugin_the_rule_set_is_unknown() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TERTIA_RULESETS"}
    bare = subprocess.run([sys.executable, "-m", "tertia", "battle", "--rules", "example-declare",
                           "--scenario", str(SCENARIO)], capture_output=True, text=True, cwd=ROOT,
                          env={**env, "TERTIA_PURE_PYTHON": "1"}, timeout=300)
    assert bare.returncode != 0 and "unknown rule set 'example-declare'" in bare.stderr


@pytest.fixture
def client(tmp_path: Path, registered: Any) -> Any:
    with TestClient(create_app(tmp_path / "games.db")) as c:
        yield c


def test_the_catalogue_offers_the_battle_the_rule_set_ships(client: TestClient) -> None:
    listed = {s["name"]: s for s in client.get("/api/catalogue").json()["scenarios"]}
    assert listed["declare"]["rules"] == ["example-declare"]
    assert "edgehill" in listed and "example-declare" in {
        r["id"] for r in client.get("/api/catalogue").json()["rules"]}


def test_a_game_over_http(client: TestClient) -> None:
    served = client.get("/api/rules/example-declare")
    assert served.status_code == 200, served.text
    kinds = {k["type"] for k in served.json()["vocabulary"]["actions"]}
    assert kinds >= {"declare_charge", "declare_advance"}
    made = client.post("/api/games", json={"scenario": "declare", "rules": "example-declare",
                                           "mode": "hotseat", "seed": 5})
    assert made.status_code == 201, made.text
    game_id, tokens = made.json()["id"], made.json()["tokens"]
    assert set(tokens) == {P, R}

    def view(side: str) -> dict[str, Any]:
        seen = client.get(f"/api/games/{game_id}/view", params={"side": side},
                          headers=bearer(tokens[side]))
        assert seen.status_code == 200, seen.text
        return dict(seen.json())

    first = view(P)
    assert first["status"]["pending"]["kind"] == "assign_free_move"
    assert [d["kind"] for d in first["status"]["decisions"]] == ["assign_free_move", "assign_free_move"]
    refused = client.post(f"/api/games/{game_id}/actions", headers=bearer(tokens[P]),
                          json={"type": "declare_assign_free_move", "unit": "r-foot"})
    assert refused.status_code == 409 and "example-declare.BAD_CHOICE" in refused.text
    done = client.post(f"/api/games/{game_id}/actions", headers=bearer(tokens[P]),
                       json={"type": "declare_assign_free_move", "unit": "p-horse"})
    assert done.status_code == 200, done.text
    # Parliament's choice shows in its own view, and in the royalists' only as hidden.
    mine, theirs = view(P)["state"]["own"]["free_move"], view(R)["state"]["own"]["free_move"]
    assert mine == [[P, "p-horse"]]
    assert theirs == [[P, {"hidden": "free move"}]]
    told = view(R)["log"][-1]
    assert told["action"] is None and "p-horse" not in json.dumps(told)
    answered = client.post(f"/api/games/{game_id}/actions", headers=bearer(tokens[R]),
                           json={"type": "declare_assign_free_move", "unit": "r-horse"})
    assert answered.status_code == 200, answered.text
    status = view(P)["status"]
    assert status["pending"] is None and status["summary"]["card"]
