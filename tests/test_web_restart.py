"""Kill the server mid-game with kill -9 and start it again: nothing acknowledged is lost,
and every game resumes where it was, the AI's included."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tertia.rulesets.larger_battles import LargerBattles
from tertia.web.app import create_app
from tertia.web.errors import ServiceError
from tertia.web.store import SCHEMA, GameStore
from tests.web_server import Server
from tests.web_support import bearer, create, wait_until


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


def _rows(db: Path) -> list[Any]:
    """Every row of the games database, to show that nothing in it changed."""
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
                for table in ("games", "tokens", "actions")]


def _tamper_start_dice(conn: sqlite3.Connection, gid: str) -> None:
    rolls = json.loads(conn.execute("SELECT start_rolls FROM games WHERE id = ?", (gid,)).fetchone()[0])
    rolls[0][0] = "a roll the rules never ask for"
    conn.execute("UPDATE games SET start_rolls = ? WHERE id = ?", (json.dumps(rolls), gid))


def _tamper_order(conn: sqlite3.Connection, gid: str) -> None:
    conn.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1",
                 (json.dumps({"type": "give_order", "target": "nowhere", "purpose": "move"}), gid))


def _tamper_extra_die(conn: sqlite3.Connection, gid: str) -> None:
    conn.execute("UPDATE actions SET rolls = ? WHERE game_id = ? AND seq = 1",
                 (json.dumps([["a die kept for nothing", "d6", 3]]), gid))


def _tamper_side(conn: sqlite3.Connection, gid: str) -> None:
    conn.execute("UPDATE actions SET side = CASE side WHEN 'royalist' THEN 'parliament' ELSE 'royalist' END "
                 "WHERE game_id = ? AND seq = 1", (gid,))


@pytest.mark.parametrize(("tamper", "reason"), [
    (_tamper_start_dice, "at the start: roll 1: the record has d6 for 'a roll the rules never ask for'"),
    (_tamper_order, "action 1 (give order by "),
    (_tamper_extra_die, "action 1 (give order by "),
    (_tamper_side, "action 1 (give order by "),
])
def test_a_saved_game_whose_record_no_longer_replays_is_refused_in_one_line(
        tmp_path: Path, tamper: Any, reason: str, caplog: pytest.LogCaptureFixture) -> None:
    """A saved game the engine can no longer replay (its dice, actions or turns differ from
    what the rules now ask) is a 409 naming the game and the reason, for its summary (the
    list of battles), its view and its actions; nothing is written to the database."""
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, watch_pace=0.0)) as client:
        created = create(client, mode="hotseat")
        gid = created["id"]
        tokens = {s: bearer(t) for s, t in created["tokens"].items()}
        side = client.get(f"/api/games/{gid}/view", headers=tokens["parliament"]).json()["status"]["to_act"]
        order = {"type": "give_order", "target": "centre", "purpose": "move"}
        assert client.post(f"/api/games/{gid}/actions", json=order, headers=tokens[side]).status_code == 200
    with sqlite3.connect(db) as conn:
        tamper(conn, gid)
    before = _rows(db)
    with TestClient(create_app(db, watch_pace=0.0), raise_server_exceptions=False) as client:
        me = tokens[side]
        for answer in (client.get(f"/api/games/{gid}", headers=me),
                       client.get(f"/api/games/{gid}/view", headers=me),
                       client.post(f"/api/games/{gid}/actions", json={"type": "end_phase"}, headers=me)):
            assert answer.status_code == 409, answer.text
            body = answer.json()
            assert body["code"] == "RECORD_DIVERGED"
            message = body["message"]
            assert message.startswith(f"game {gid!r} (Skirmish")
            assert "this battle's record no longer replays under this engine" in message
            assert reason in message and "\n" not in message
            if "by " in reason:
                assert "by Royalists" in message or "by Parliament" in message
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert _rows(db) == before


def test_the_ai_passes_over_a_saved_game_that_no_longer_replays(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    """A game awaiting the AI whose record no longer replays: after a restart the AI runner
    skips it without a fault, and the game's rows stay as they were."""
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, watch_pace=0.0)) as client:
        created = create(client, mode="watch")
        gid = created["id"]
    with sqlite3.connect(db) as conn:
        _tamper_start_dice(conn, gid)
    before = _rows(db)
    app = create_app(db, watch_pace=0.0)
    with TestClient(app) as client:
        runner = app.state.runner
        watcher = bearer(created["tokens"]["spectator"])
        answer = client.get(f"/api/games/{gid}", headers=watcher)
        assert answer.status_code == 409 and answer.json()["code"] == "RECORD_DIVERGED", answer.text
        with pytest.raises(ServiceError) as refused:  # what the runner's loop passes over
            runner.play_one(gid)
        assert refused.value.code == "RECORD_DIVERGED"
        runner.schedule(gid)
        wait_until(lambda: gid not in runner._queued)
        time.sleep(0.2)  # the runner's look at the game, begun as it left the queue
        assert runner.errors == []
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert _rows(db) == before
