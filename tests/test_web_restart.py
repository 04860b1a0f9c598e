"""Kill the server mid-game with kill -9 and start it again: nothing acknowledged is lost,
and every game resumes where it was, the AI's included."""

from __future__ import annotations

import time
from pathlib import Path

import httpx

from tests.web_server import Server


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
