"""A sentence that fails to tell one event never takes a game's view down: the entry says
it could not be told, the error is in the server's log, and the game plays on."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.core.narration import SENTENCES
from tertia.rulesets.larger_battles.events import OrderGiven
from tertia.web.app import create_app
from tests.web_support import bearer, create

UNTOLD_ORDER = "(this event could not be told: order_given)"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:
        yield c


@pytest.fixture
def failing_orders(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(narrator: object, e: object, dice: object) -> tuple[str, str]:
        raise KeyError("a sentence that fails")

    monkeypatch.setitem(SENTENCES, OrderGiven, boom)


def first_order(client: TestClient, base: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The side to act and an order it may give (larger-battles: every turn opens with orders)."""
    side = client.get(base + "/view", headers=bearer(tokens["parliament"])).json()["status"]["to_act"]
    view = client.get(base + "/view", headers=bearer(tokens[side])).json()
    return side, next(c["action"] for c in view["choices"] if c["kind"] == "give_order")


def lines(entry: dict[str, Any]) -> list[tuple[str, str]]:
    return [(line["kind"], line["text"]) for line in entry["lines"]]


@pytest.mark.usefixtures("failing_orders")
def test_a_failing_sentence_is_untold_and_the_view_answers(
        client: TestClient, caplog: pytest.LogCaptureFixture) -> None:
    game = create(client, mode="hotseat")
    base, tokens = f"/api/games/{game['id']}", game["tokens"]
    side, order = first_order(client, base, tokens)
    with caplog.at_level(logging.ERROR):
        acted = client.post(base + "/actions", json=order, headers=bearer(tokens[side]))
        assert acted.status_code == 200, acted.text
        assert ("untold", UNTOLD_ORDER) in lines(acted.json()["log"][0])
        for _ in range(3):  # and every view after it
            seen = client.get(base + "/view", headers=bearer(tokens[side]))
            assert seen.status_code == 200, seen.text
            assert ("untold", UNTOLD_ORDER) in lines(seen.json()["log"][1])
    faults = [r for r in caplog.records if r.levelno >= logging.ERROR and "order_given" in r.getMessage()]
    assert faults and faults[0].exc_info is not None and game["id"] in faults[0].getMessage()
    # The game plays on: the next action is taken and told as usual.
    end = client.post(base + "/actions", json={"type": "end_phase"}, headers=bearer(tokens[side]))
    assert end.status_code == 200, end.text
    replay = client.get(base + "/replay", params={"step": 2}, headers=bearer(tokens[side]))
    assert replay.status_code == 200
    assert ("untold", UNTOLD_ORDER) in lines(replay.json()["log"][1])
    assert all(kind != "untold" for kind, _ in lines(replay.json()["log"][2]))


def test_without_a_fault_nothing_is_untold(client: TestClient) -> None:
    game = create(client, mode="hotseat")
    base, tokens = f"/api/games/{game['id']}", game["tokens"]
    side, order = first_order(client, base, tokens)
    entry = client.post(base + "/actions", json=order, headers=bearer(tokens[side])).json()["log"][0]
    assert lines(entry) and all(kind != "untold" for kind, _ in lines(entry))
    assert any("order" in text.lower() for _, text in lines(entry))
