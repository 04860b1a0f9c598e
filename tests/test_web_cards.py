"""``d3-commands`` through the HTTP API against the AI: the secret ordering of the command
cards each turn, the card panel's data, and the activations that follow."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.web.app import create_app
from tests.web_support import bearer, create, doctrine_action, service, wait_until

RULES = "d3-commands"
ORDER = ["independent", "reserve", "centre", "left", "right"]
"""Parliament's order at Edgehill, unlike the order the cards are dealt in."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def _view(client: TestClient, gid: str, me: dict[str, str]) -> dict[str, Any]:
    response = client.get(f"/api/games/{gid}/view", headers=me)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _your_turn(client: TestClient, gid: str, me: dict[str, str]) -> dict[str, Any]:
    wait_until(lambda: _view(client, gid, me)["status"]["your_turn"], timeout=20)
    return _view(client, gid, me)


def test_ordering_the_cards_against_the_ai(client: TestClient) -> None:
    created = create(client, scenario="edgehill", rules=RULES, mode="ai", side="parliament", seed=5)
    gid, me = created["id"], bearer(created["tokens"]["parliament"])
    view = _your_turn(client, gid, me)
    assert view["status"]["pending"]["kind"] == "order_cards"
    cards = view["cards"]
    own, theirs = cards["sides"]["parliament"], cards["sides"]["royalist"]
    assert own["held"] == ["centre", "right", "left", "reserve", "independent"]
    assert own["order"] is None and own["left"] == 5 and not own["ordered"]
    assert "Ramsay's Wing (second line)" in own["units"]["left"]
    assert set(theirs) == {"left", "played", "ordered", "shuffled"} and theirs["left"] == 4
    [offer] = view["choices"]
    assert offer["action"] == {"type": "order_cards", "order": own["held"]}

    # The page asks whether an order is legal before laying it; bad orders are refused.
    url = f"/api/games/{gid}"
    checked = client.post(f"{url}/validate", json={"type": "order_cards", "order": ORDER}, headers=me).json()
    assert checked["legal"] and checked["violations"] == []
    for bad in (ORDER[:4], [*ORDER, "centre"], ["left"] * 5):
        refused = client.post(f"{url}/actions", json={"type": "order_cards", "order": bad}, headers=me)
        assert refused.status_code == 409, refused.text
        assert refused.json()["violations"][0]["code"] == "activation.BAD_CARD_ORDER"
    for malformed in (5, "centre", {"a": 1}, [None]):
        refused = client.post(f"{url}/actions", json={"type": "order_cards", "order": malformed}, headers=me)
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "BAD_ACTION" and "order" in refused.json()["message"]
    no_odds = client.post(f"{url}/odds", json={"type": "order_cards", "order": ORDER}, headers=me)
    assert no_odds.status_code == 422 and no_odds.json()["code"] == "NO_ODDS"
    laid = client.post(f"{url}/actions", json={"type": "order_cards", "order": ORDER}, headers=me)
    assert laid.status_code == 200, laid.text

    # The AI orders its own, the initiative is rolled, and our activations follow ours.
    view = _your_turn(client, gid, me)
    own = view["cards"]["sides"]["parliament"]
    assert view["status"]["phase"] == "activation" and own["order"] == ORDER
    assert own["played"] == ORDER[: len(own["played"])] and own["played"]
    assert view["cards"]["active"] == {"side": "parliament", "card": own["played"][-1]}
    assert view["cards"]["sides"]["royalist"]["ordered"]
    end = [c for c in view["choices"] if c["action"]["type"] == "end_phase"]
    assert end and end[0]["label"] == f"End the {own['played'][-1]} card's activation"

    # Play on as a bot would: every card of ours in our order, until turn 2 awaits our order.
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(2)
    played: list[str] = []
    for _ in range(400):
        view = _your_turn(client, gid, me)
        if view["status"]["turn"] == 2:
            break
        active = view["cards"]["active"]
        if active and active["side"] == "parliament" and active["card"] not in played:
            played.append(active["card"])
        side, action = doctrine_action(client, gid, players, rng)
        assert side == "parliament"
        answer = client.post(f"{url}/actions", json=action.to_dict(), headers=me)
        assert answer.status_code == 200, answer.text
    else:
        raise AssertionError("turn 1 never ended")
    assert played == [c for c in ORDER if c in played] and len(played) >= 3
    assert view["status"]["pending"]["kind"] == "order_cards"
    assert view["cards"]["sides"]["parliament"]["order"] is None
    assert client.app.state.runner.errors == []  # type: ignore[attr-defined]
    assert service(client).live(gid).state.turn == 2
