"""What the server holds is bounded: games in memory, each game's cached observations and
log entries; it answers only to its own host names and does not wait for ever on a slow body."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tertia.web.app import create_app
from tertia.web.limits import LOCAL_HOSTS, BodyLimit
from tertia.web.live import OBSERVATIONS_KEPT, Recent
from tests.web_support import bearer, create, service


def test_500_games_with_a_limit_of_20_in_memory(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", max_games=20)) as client:
        games = []
        most = 0
        for i in range(500):
            created = create(client, mode="hotseat", seed=i)
            gid = created["id"]
            url = f"/api/games/{gid}"
            view = client.get(f"{url}/view", headers=bearer(created["tokens"]["parliament"])).json()
            me = bearer(created["tokens"][view["status"]["to_act"]])
            order = {"type": "give_order", "target": "centre"}
            answer = client.post(f"{url}/actions", json=order, headers=me)
            assert answer.status_code == 200, answer.text
            games.append((gid, me))
            most = max(most, service(client).games_in_memory)
        assert most == 20
        # A game long out of memory is rebuilt from the database when asked for.
        gid, me = games[0]
        assert client.get(f"/api/games/{gid}/view", headers=me).json()["status"]["step"] == 1
        assert service(client).games_in_memory == 20


def test_a_live_games_caches_keep_only_the_most_recent() -> None:
    cache: Recent[int] = Recent(3)
    made: list[tuple[int, str]] = []

    def make(key: tuple[int, str]) -> int:
        made.append(key)
        return key[0]

    for step in (1, 2, 3, 1, 4, 2):
        key = (step, "a")
        cache.get_or_make(key, lambda key=key: make(key))  # type: ignore[misc]
    assert list(cache) == [(1, "a"), (4, "a"), (2, "a")]
    assert made == [(1, "a"), (2, "a"), (3, "a"), (4, "a"), (2, "a")]
    assert OBSERVATIONS_KEPT <= 64


def test_only_the_servers_own_host_names_are_answered(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", allowed_hosts=LOCAL_HOSTS)
    with TestClient(app, base_url="http://localhost:8000") as client:
        assert client.get("/api/catalogue").status_code == 200
        assert client.get("/api/catalogue", headers={"Host": "[::1]:8000"}).status_code == 200
        refused = client.get("/api/catalogue", headers={"Host": "evil.example:8000"})
        assert refused.status_code == 400 and refused.json()["code"] == "BAD_HOST"
        assert "evil.example" in refused.json()["message"]


def test_a_body_that_trickles_in_is_refused() -> None:
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app never sees a body that did not arrive")

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(10)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    limit = BodyLimit(app, seconds=0.05)
    asyncio.run(limit({"type": "http", "method": "POST", "headers": []}, receive, send))
    assert sent[0]["status"] == 408 and b"TOO_SLOW" in sent[1]["body"]
