"""Helpers for the web tests: an app on a temporary database, games, and bearer headers."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.actions import Action
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
