"""`tertia serve` stops within a second of SIGTERM, long-polls pending or not."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tertia.web.app import create_app
from tests.web_server import Server
from tests.web_support import bearer, create

PROMPT = 1.5
"""Seconds from SIGTERM to the process's end allowed (a long-poll waits up to 25)."""


def test_sigterm_ends_the_server_promptly_with_long_polls_pending(tmp_path: Path) -> None:
    server = Server(tmp_path / "games.sqlite3").start()
    assert server.process is not None
    try:
        created = httpx.post(server.url + "/api/games",
                             json={"scenario": "skirmish", "mode": "hotseat", "seed": 3}).json()
        token = next(iter(created["tokens"].values()))
        game_url = f"{server.url}/api/games/{created['id']}"
        wait_url = game_url + "/wait"
        version = httpx.get(game_url, headers=bearer(token)).json()["version"]
        answers: list[Any] = []

        def poll() -> None:
            try:
                answers.append(httpx.get(wait_url, params={"version": version, "timeout": 25},
                                         headers=bearer(token), timeout=30).status_code)
            except httpx.HTTPError as exc:
                answers.append(exc)

        polls = [threading.Thread(target=poll) for _ in range(3)]
        for p in polls:
            p.start()
        time.sleep(1.0)  # the polls are all waiting on the server now
        assert answers == []
        began = time.monotonic()
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise AssertionError("the server was still running 10 s after SIGTERM") from None
        took = time.monotonic() - began
        assert took < PROMPT, f"the server took {took:.2f} s to stop"
        for p in polls:
            p.join(timeout=5)
        # Each long-poll was answered (unchanged), not left to run out or cut off.
        assert answers == [200, 200, 200]
    finally:
        server.kill()


def test_a_pending_wait_answers_at_once_when_the_app_stops(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3")
    with TestClient(app) as client:
        game = create(client, mode="hotseat")
        token = next(iter(game["tokens"].values()))
        threading.Timer(0.3, app.state.stopping.set).start()
        began = time.monotonic()
        answer = client.get(f"/api/games/{game['id']}/wait", params={"version": 0, "timeout": 20},
                            headers=bearer(token))
        assert answer.status_code == 200 and answer.json() == {"version": 0, "changed": False}
        assert time.monotonic() - began < 2.0
