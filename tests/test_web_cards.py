"""``d3-commands`` through the HTTP API against the AI: the secret ordering of the command
cards each turn, the card panel's data, and the activations that follow."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.activation.command_cards import card_words
from tertia.ai.doctrine import DoctrinePlayer
from tertia.web.app import create_app
from tests.web_support import bearer, create, doctrine_action, service, wait_until

RULES = "d3-commands"
ORDER = ["independent", "reserve", "centre", "left", "right"]
"""Parliament's order at Edgehill, unlike the order the cards are dealt in."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # The AI's actions published at once: the cards are tested here, not the cadence that
    # keeps the AI's timing from telling secrets (tests/test_web_ai_timing.py).
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0, ai_quantum=0.0)) as c:
        yield c


def _view(client: TestClient, gid: str, me: dict[str, str]) -> dict[str, Any]:
    response = client.get(f"/api/games/{gid}/view", headers=me)
    assert response.status_code == 200, response.text
    return dict(response.json())


def _your_turn(client: TestClient, gid: str, me: dict[str, str]) -> dict[str, Any]:
    wait_until(lambda: _view(client, gid, me)["status"]["your_turn"], timeout=20)
    return _view(client, gid, me)


def card_panel(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The command-card panel's sections by key, and its labels under ``"labels"``."""
    [panel] = [p for p in view["panels"] if p["name"] == "command-cards"]
    return {**{sec["key"]: sec for sec in panel["sections"]}, "labels": panel["labels"]}


def own_order(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The viewer's laid cards as its panel shows them, first first."""
    section = card_panel(view)["own-order"]
    assert section["style"] == "ordered", section
    return list(section["items"])


def in_play(view: dict[str, Any]) -> str | None:
    """The viewer's own card in play, if any."""
    return next((i["id"] for i in own_order(view) if i.get("state") == "active"), None)


def test_ordering_the_cards_against_the_ai(client: TestClient) -> None:
    created = create(client, scenario="edgehill", rules=RULES, mode="ai", side="parliament", seed=5)
    gid, me = created["id"], bearer(created["tokens"]["parliament"])
    view = _your_turn(client, gid, me)
    assert view["status"]["pending"]["kind"] == "order_cards"
    panel = card_panel(view)
    held = list(panel["labels"])
    assert held == ["centre", "right", "left", "reserve", "independent"]
    assert [i["text"] for i in panel["own-order"]["items"]] == ["Your cards are not laid yet."]
    assert "Ramsay's Wing (second line)" in panel["labels"]["left"]["title"].split("\n")
    assert panel["labels"]["left"]["note"].endswith("units")
    theirs = panel["other-cards"]
    assert [i["state"] for i in theirs["items"]] == ["back"] * 4 and theirs["title"].endswith("not laid yet")
    assert all(not i["text"] for i in theirs["items"])  # face down: no card named
    [offer] = view["choices"]
    assert offer["action"] == {"type": "order_cards", "order": held}

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
    items = own_order(view)
    assert view["status"]["phase"] == "activation" and [i["id"] for i in items] == ORDER
    states = [i["state"] for i in items]
    done = states.index("active") + 1
    assert states == ["played"] * (done - 1) + ["active"] + ["waiting"] * (len(ORDER) - done)
    now = in_play(view)
    assert now == ORDER[done - 1]
    assert card_panel(view)["active-command"]["items"][0]["text"].startswith("Active: your ")
    assert "face down" in card_panel(view)["other-cards"]["title"]
    end = [c for c in view["choices"] if c["action"]["type"] == "end_phase"]
    assert end and end[0]["label"] == f"End the {card_words(now).lower()} card's activation"

    # Play on as a bot would: every card of ours in our order, until turn 2 awaits our order.
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(2)
    played: list[str] = []
    for _ in range(400):
        view = _your_turn(client, gid, me)
        if view["status"]["turn"] == 2:
            break
        now = in_play(view) if card_panel(view)["own-order"]["style"] == "ordered" else None
        if now is not None and now not in played:
            played.append(now)
        side, action = doctrine_action(client, gid, players, rng)
        assert side == "parliament"
        answer = client.post(f"{url}/actions", json=action.to_dict(), headers=me)
        assert answer.status_code == 200, answer.text
    else:
        raise AssertionError("turn 1 never ended")
    assert played == [c for c in ORDER if c in played] and len(played) >= 3
    assert view["status"]["pending"]["kind"] == "order_cards"
    assert card_panel(view)["own-order"]["style"] == "lines"
    assert client.app.state.runner.errors == []  # type: ignore[attr-defined]
    assert service(client).live(gid).state.turn == 2


def test_a_watched_game_names_the_side_its_panel_shows_where_a_player_reads_you(client: TestClient) -> None:
    """Watching the AI play both sides, the panel is not "yours": it is headed by the
    side seen, and its cards are that side's."""
    created = create(client, scenario="edgehill", rules=RULES, mode="watch", seed=5)
    gid, eye = created["id"], bearer(created["tokens"]["spectator"])
    wait_until(lambda: bool(_view(client, gid, eye)["status"]["turn"]), timeout=20)
    view = _view(client, gid, eye)
    own = card_panel(view)["own-order"]
    name = next(s["name"] for s in view["game"]["sides"] if s["id"] == view["side"])
    assert own["title"] == name and "(you)" not in own["title"]
    assert all("Your" not in i["text"] for i in own["items"])
    played = create(client, scenario="edgehill", rules=RULES, mode="ai", side="parliament", seed=5)
    mine = card_panel(_your_turn(client, played["id"], bearer(played["tokens"]["parliament"])))["own-order"]
    assert mine["title"].endswith("(you)")
