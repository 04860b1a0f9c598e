"""Optimistic concurrency: the game's version rises on every action and undo, survives a
restart, and ``If-Match`` makes a doubled or retried request apply once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from tertia.web.app import create_app
from tests.web_server import Server
from tests.web_support import bearer, create


def test_the_version_counts_actions_and_undos_and_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:
        created = create(client, mode="hotseat")
        gid = created["id"]
        view = client.get(f"/api/games/{gid}/view", headers=bearer(created["tokens"]["parliament"])).json()
        me = bearer(created["tokens"][view["status"]["to_act"]])
        url = f"/api/games/{gid}"
        seen = [view["version"]]
        order = {"type": "give_order", "target": "centre"}
        seen.append(client.post(f"{url}/actions", json=order, headers=me).json()["version"])
        seen.append(client.post(f"{url}/undo", headers=me).json()["version"])
        seen.append(client.post(f"{url}/actions", json=order, headers=me).json()["version"])
        assert seen == [0, 1, 2, 3], "apply, undo, apply never repeats a version"
    with TestClient(create_app(db)) as client:
        assert client.get(f"{url}/view", headers=me).json()["version"] == 3


def test_if_match_refuses_a_stale_version_with_the_current_one(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        created = create(client, mode="hotseat")
        gid = created["id"]
        view = client.get(f"/api/games/{gid}/view", headers=bearer(created["tokens"]["parliament"])).json()
        me = bearer(created["tokens"][view["status"]["to_act"]])
        url = f"/api/games/{gid}"
        order = {"type": "give_order", "target": "centre"}
        ok = client.post(f"{url}/actions", json=order, headers={**me, "If-Match": '"0"'})
        assert ok.status_code == 200 and ok.json()["version"] == 1
        again = client.post(f"{url}/actions", json=order, headers={**me, "If-Match": '"0"'})
        assert again.status_code == 409
        assert again.json()["code"] == "STALE_VERSION" and again.json()["version"] == 1
        stale_undo = client.post(f"{url}/undo", headers={**me, "If-Match": '"0"'})
        assert stale_undo.status_code == 409 and stale_undo.json()["code"] == "STALE_VERSION"
        assert client.post(f"{url}/undo", headers={**me, "If-Match": '"1"'}).status_code == 200
        bad = client.post(f"{url}/actions", json=order, headers={**me, "If-Match": "yesterday"})
        assert bad.status_code == 422 and bad.json()["code"] == "BAD_IF_MATCH"


def test_two_identical_actions_at_once_apply_once(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3").start()
    try:
        created = httpx.post(server.url + "/api/games", json={"scenario": "skirmish", "mode": "hotseat",
                                                               "seed": 4}).json()
        gid = created["id"]
        view = httpx.get(f"{server.url}/api/games/{gid}/view",
                         headers=bearer(created["tokens"]["parliament"])).json()
        me = bearer(created["tokens"][view["status"]["to_act"]])
        headers = {**me, "If-Match": f'"{view["version"]}"'}
        order = {"type": "end_phase"}

        def send(_: int) -> int:
            url = f"{server.url}/api/games/{gid}/actions"
            return httpx.post(url, json=order, headers=headers).status_code

        with ThreadPoolExecutor(max_workers=8) as pool:
            codes = list(pool.map(send, range(8)))
        assert sorted(codes) == [200] + [409] * 7
        after = httpx.get(f"{server.url}/api/games/{gid}/view", headers=me).json()
        assert after["version"] == view["version"] + 1 and after["status"]["step"] == 1
    finally:
        server.stop()
