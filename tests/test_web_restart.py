"""Kill the server mid-game with kill -9 and start it again: nothing acknowledged is lost,
and every game resumes where it was, the AI's included."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tertia.rulesets.larger_battles import LargerBattles
from tertia.web.app import create_app
from tertia.web.store import SCHEMA, GameStore
from tests.web_server import Server
from tests.web_support import bearer, create


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_kill_9_mid_game_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db).start()
    try:
        created = httpx.post(server.url + "/api/games", json={
            "scenario": "skirmish", "mode": "hotseat", "seed": 4}).json()
        ai = httpx.post(server.url + "/api/games", json={
            "scenario": "skirmish", "mode": "ai", "side": "parliament", "seed": 9}).json()
        gid = created["id"]
        tokens = {s: _auth(t) for s, t in created["tokens"].items()}
        view = httpx.get(f"{server.url}/api/games/{gid}/view", headers=tokens["parliament"]).json()
        side = view["status"]["to_act"]
        me = tokens[side]
        url = f"{server.url}/api/games/{gid}/actions"
        assert httpx.post(url, json={"type": "give_order", "target": "centre"}, headers=me).status_code == 200
        unit = next(u for u in view["state"]["units"] if u["side"] == side and u["command"] == "centre"
                    and u["kind"] == "foot")
        step = 1.5 if side == "parliament" else -1.5
        move = {"type": "move", "unit": unit["id"], "waypoints": [[unit["x"], unit["y"] + step]]}
        assert httpx.post(url, json=move, headers=me).status_code == 200
        assert httpx.post(url, json={"type": "end_phase"}, headers=me).status_code == 200
        before = httpx.get(f"{server.url}/api/games/{gid}/view", headers=me).json()
        # The AI game: hand the move to the AI (if it is ours), then kill the server at once.
        ai_me = _auth(ai["tokens"]["parliament"])
        ai_url = f"{server.url}/api/games/{ai['id']}"
        if httpx.get(ai_url + "/view", headers=ai_me).json()["status"]["to_act"] == "parliament":
            for _ in range(3):
                httpx.post(ai_url + "/actions", json={"type": "end_phase"}, headers=ai_me)
        server.kill()

        server.start()
        after = httpx.get(f"{server.url}/api/games/{gid}/view", headers=me).json()
        assert after["state"] == before["state"]
        assert after["status"]["step"] == 3 and after["status"]["phase"] == "bombardment"
        assert [e["lines"] for e in after["log"]] == [e["lines"] for e in before["log"]]
        moved = next(u for u in after["state"]["units"] if u["id"] == unit["id"])
        assert abs(moved["y"] - (unit["y"] + step)) < 1e-9
        # Play goes on after the restart.
        assert httpx.post(url, json={"type": "end_phase"}, headers=me).status_code == 200
        # The AI game resumes: the AI finishes its turn and hands the move back.
        deadline = time.monotonic() + 10
        while True:
            status = httpx.get(ai_url + "/view", headers=ai_me).json()["status"]
            if status["to_act"] == "parliament" and status["step"] > 3:
                break
            assert time.monotonic() < deadline, status
            time.sleep(0.1)
    finally:
        server.stop()


def test_a_game_begun_under_another_rule_set_version_is_not_resumed(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, watch_pace=0.0)) as client:
        created = create(client, mode="hotseat")
        gid, token = created["id"], created["tokens"]["parliament"]
        assert client.get(f"/api/games/{gid}/view", headers=bearer(token)).status_code == 200
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET rules_version = '0.9' WHERE id = ?", (gid,))
    with TestClient(create_app(db, watch_pace=0.0)) as client:
        response = client.get(f"/api/games/{gid}/view", headers=bearer(token))
        assert response.status_code == 409 and response.json()["code"] == "OLD_RULES_VERSION"
        message = response.json()["message"]
        assert "larger-battles 0.9" in message and f"larger-battles {LargerBattles.version}" in message


def test_a_database_from_before_rule_set_versions_is_read_as_version_1_0(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA.replace(",\n    rules_version TEXT NOT NULL DEFAULT '1.0'", ""))
        assert "rules_version" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        conn.execute(
            "INSERT INTO games (id, created, updated, scenario, rules, options, seed, mode, "
            "controllers, start_rolls) VALUES ('g', 0, 0, 'skirmish', 'larger-battles', '{}', 1, "
            "'hotseat', '{}', '[]')"
        )
    store = GameStore(db)
    try:
        loaded = store.load_game("g")
        assert loaded is not None and loaded[0].rules_version == "1.0"
    finally:
        store.close()


@pytest.mark.parametrize(("scenario", "rules", "options"), [
    ("skirmish", "larger-battles", {}),
    ("edgehill", "d3-commands", {}),
    ("edgehill", "d3-commands", {"solo_shuffle": "both"}),
    ("chalgrove", "d3-cards", {}),
])
def test_every_rule_set_resumes_after_kill_9(tmp_path: Path, scenario: str, rules: str,
                                             options: dict[str, Any]) -> None:
    """A game the AI plays on both sides, killed mid-game: after the restart it loads, shows
    the same position, and play goes on."""
    server = Server(tmp_path / "games.sqlite3", None, "--watch-pace", "0.02").start()
    try:
        created = httpx.post(server.url + "/api/games", json={
            "scenario": scenario, "rules": rules, "options": options, "mode": "watch", "seed": 3}).json()
        view_url = f"{server.url}/api/games/{created['id']}/view"
        watcher = _auth(created["tokens"]["spectator"])
        deadline = time.monotonic() + 30
        while httpx.get(view_url, headers=watcher).json()["status"]["step"] < 12:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        server.kill()
        server.start()
        first = httpx.get(view_url, headers=watcher)
        assert first.status_code == 200, first.text
        step = first.json()["status"]["step"]
        assert step >= 12
        deadline = time.monotonic() + 30
        while httpx.get(view_url, headers=watcher).json()["status"]["step"] <= step:
            assert time.monotonic() < deadline, "play did not go on after the restart"
            time.sleep(0.05)
    finally:
        server.stop()
