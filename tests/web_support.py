"""Helpers for the web tests: an app on a temporary database, games, and bearer headers."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.actions import Action
from tertia.core.scenario import Scenario
from tertia.scenarios.catalogue import load_named
from tertia.web import games as web_games
from tertia.web.app import create_app
from tertia.web.games import GameService


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("scenario", "skirmish")
    if body.get("mode") != "link":
        body.setdefault("seed", 7)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def service(client: TestClient) -> GameService:
    found: GameService = client.app.state.service  # type: ignore[attr-defined]
    return found


def doctrine_action(client: TestClient, game_id: str, players: dict[str, DoctrinePlayer],
                    rng: random.Random) -> tuple[str, Action]:
    """The side the game awaits and the doctrine AI's choice for it (used to drive games
    through the HTTP API as a bot would)."""
    live = service(client).live(game_id)
    with live.lock:
        state = live.state
        side = state.to_act
        player = players.setdefault(side, DoctrinePlayer())
        return side, player.choose(live.game, state, rng)


def wait_until(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


def panel_sections(view: dict[str, Any], name: str) -> dict[str, dict[str, Any]] | None:
    """The sections of the view's panel ``name`` by key (None when the rule set has no such
    panel), as the page draws them."""
    found = [p for p in view["panels"] if p["name"] == name]
    if not found:
        return None
    return {sec["key"]: sec for sec in found[0]["sections"]}


@contextmanager
def serving_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    change: Callable[[Scenario], Scenario]) -> Iterator[TestClient]:
    """The server on a temporary database, every battle it builds from a scenario
    ``change`` has changed (its sides renamed, say)."""
    monkeypatch.setattr(web_games, "load_named", lambda name, *, rules_id=None: change(
        load_named(name, rules_id=rules_id)))
    web_games._game.cache_clear()
    try:
        with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as client:
            yield client
    finally:
        web_games._game.cache_clear()
