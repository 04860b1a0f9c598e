"""A move dropped onto an enemy, or just short of one, is offered again ending in contact
(the D3 rule sets' way into melee): the validate answer's ``contact`` suggestion."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.core.geometry import base_distance
from tertia.web.app import create_app
from tests.web_support import bearer, create, service

CROSSE = "p-crosse-horse"
LIFEGUARD = "r-lifeguard"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def crosse_facing_the_lifeguard(client: TestClient) -> tuple[str, dict[str, str]]:
    """Chalgrove, d3-cards, seed 11: Prince Rupert's Lifeguard rides to 4" from Crosse's
    Troop, then the phases are passed until Parliament's horse card is in play."""
    created = create(client, scenario="chalgrove", rules="d3-cards", mode="hotseat", seed=11)
    gid, tokens = created["id"], created["tokens"]
    moved = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens["royalist"]),
                        json={"type": "move", "unit": LIFEGUARD, "waypoints": [[25, 19]]})
    assert moved.status_code == 200, moved.text
    for _ in range(10):
        status = client.get(f"/api/games/{gid}", headers=bearer(tokens["parliament"])).json()["status"]
        if status["to_act"] == "parliament" and status["summary"]["active_card"] == "horse":
            return gid, bearer(tokens["parliament"])
        passed = client.post(f"/api/games/{gid}/actions", json={"type": "end_phase"},
                             headers=bearer(tokens[status["to_act"]]))
        assert passed.status_code == 200, passed.text
    raise AssertionError("Parliament's horse card never came")


def validate(client: TestClient, gid: str, me: dict[str, str], action: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(f"/api/games/{gid}/validate", json=action, headers=me)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


@pytest.mark.parametrize("dropped", [21.7, 22.08, 22.4])
def test_a_move_dropped_onto_or_just_short_of_an_enemy_is_offered_in_contact(
        client: TestClient, dropped: float) -> None:
    gid, me = crosse_facing_the_lifeguard(client)
    verdict = validate(client, gid, me, {"type": "move", "unit": CROSSE, "waypoints": [[25, dropped]]})
    if dropped < 22:
        assert "movement.COLLISION" in {v["code"] for v in verdict["violations"]}
    contact = verdict["contact"]
    assert contact["unit"] == LIFEGUARD and contact["name"] == "Prince Rupert's Lifeguard"
    assert contact["action"]["waypoints"] == contact["waypoints"]
    again = validate(client, gid, me, contact["action"])
    assert again["legal"], again
    assert "contact" not in again  # it touches already
    state = service(client).live(gid).state
    end = state.units[CROSSE].base.moved_to(*contact["waypoints"][-1])
    assert base_distance(end, state.units[LIFEGUARD].base) < 0.01


def test_a_suggestion_the_rules_refuse_is_not_offered(client: TestClient) -> None:
    """D3 moves in a straight line: a path with a corner ends in contact no more legally."""
    gid, me = crosse_facing_the_lifeguard(client)
    verdict = validate(client, gid, me, {"type": "move", "unit": CROSSE, "waypoints": [[25, 24], [25, 21.5]]})
    assert "movement.BAD_PATH" in {v["code"] for v in verdict["violations"]}
    assert "contact" not in verdict


@pytest.mark.parametrize("waypoints", [[[25, 24]], [[25, 23]], [[20, 22]], []])
def test_a_move_clear_of_any_enemy_is_offered_nothing(client: TestClient, waypoints: list[Any]) -> None:
    """Well short of the enemy (1"), in among friends, or no move at all."""
    gid, me = crosse_facing_the_lifeguard(client)
    verdict = validate(client, gid, me, {"type": "move", "unit": CROSSE, "waypoints": waypoints})
    assert "contact" not in verdict
