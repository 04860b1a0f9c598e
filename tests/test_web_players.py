"""The served game's opponent, by name: offered in the catalogue, chosen when a game is
created, kept with the game, and the one that plays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin
from tertia.web.app import create_app
from tests.web_support import bearer, create, service, wait_until


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def _actions(client: TestClient, gid: str) -> list[dict[str, Any]]:
    saved = service(client).store.load_game(gid)
    assert saved is not None
    return [dict(a.action) for a in saved[1]]


@pytest.mark.parametrize("on_trial", [False, True])
def test_the_catalogue_offers_every_player_by_name(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                                   on_trial: bool) -> None:
    """Every registered player, by name; ``doctrine-2`` only while a rule set has an
    edition on trial (elsewhere it plays the doctrine, offered already)."""
    from tertia.core.ai_spec import AiSpec

    if on_trial:
        ruleset = get_ruleset("d3-cards")
        spec = ruleset.AI
        assert spec is not None
        monkeypatch.setattr(type(ruleset), "AI", AiSpec(spec.proposer, spec.doctrine, spec.baseline,
                                                        second_edition="tertia.ai.random_player:RandomPlayer"))
    players = client.get("/api/catalogue").json()["players"]
    assert [p["name"] for p in players][:3] == ["doctrine", "baseline", "random"]
    assert ("doctrine-2" in [p["name"] for p in players]) is on_trial
    assert [p["name"] for p in players if p["default"]] == ["doctrine"]
    assert all(p["title"] for p in players)


@pytest.mark.parametrize("opponent", ["random", "doctrine"])
def test_a_watched_game_is_played_by_the_opponent_named(client: TestClient, opponent: str) -> None:
    """The server's sides play as ``tertia battle`` with the same players and seed does,
    action for action."""
    created = create(client, mode="watch", seed=5, opponent=opponent)
    gid = created["id"]
    wait_until(lambda: service(client).live(gid).state.is_over, timeout=60)
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    record = fight_battle(game, {side: make_player(opponent) for side in game.scenario.side_ids}, 5)
    assert _actions(client, gid) == [step.action.to_dict() for step in record.steps]
    meta = client.get(f"/api/games/{gid}", headers=bearer(created["tokens"]["spectator"])).json()
    assert {s["player"] for s in meta["game"]["sides"]} == {opponent}


def test_against_the_ai_the_opponent_is_kept_with_the_game(client: TestClient, tmp_path: Path) -> None:
    created = create(client, mode="ai", side="royalist", opponent="doctrine-1")
    gid, token = created["id"], created["tokens"]["royalist"]
    sides = client.get(f"/api/games/{gid}", headers=bearer(token)).json()["game"]["sides"]
    assert {s["id"]: s["player"] for s in sides} == {"parliament": "baseline", "royalist": None}
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as again:  # the server restarted
        sides = again.get(f"/api/games/{gid}", headers=bearer(token)).json()["game"]["sides"]
        assert {s["id"]: s["player"] for s in sides} == {"parliament": "baseline", "royalist": None}


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"mode": "ai", "side": "royalist", "opponent": "grandmaster"}, "UNKNOWN_PLAYER",
     "no player 'grandmaster'; players: doctrine, baseline, random"),
    ({"mode": "hotseat", "opponent": "random"}, "NO_OPPONENT", "a hotseat game has no side the server plays"),
    ({"mode": "ai", "side": "royalist", "opponent": 3}, "BAD_REQUEST", "opponent"),
])
def test_a_bad_opponent_is_refused_in_one_line(client: TestClient, body: dict[str, Any], code: str,
                                                words: str) -> None:
    response = client.post("/api/games", json={"scenario": "skirmish", **body})
    assert response.status_code == 422, response.text
    refusal = response.json()
    assert refusal["code"] == code and words in refusal["message"] and "\n" not in refusal["message"]


def test_a_game_whose_opponent_is_no_longer_known_is_refused_in_one_line(tmp_path: Path) -> None:
    """A game against a player a package registered, resumed on a server without it: a
    clear refusal naming the player, never a game that hangs waiting for the AI."""
    from tertia.ai import players as registry
    from tertia.ai.players import register_player
    from tertia.ai.random_player import RandomPlayer

    register_player("visitor", "a player from a package", RandomPlayer)
    try:
        with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as first:
            created = create(first, mode="ai", side="royalist", opponent="visitor")
    finally:
        del registry._REGISTRY["visitor"]
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as again:
        response = again.get(f"/api/games/{created['id']}", headers=bearer(created["tokens"]["royalist"]))
    assert response.status_code == 409, response.text
    refusal = response.json()
    assert refusal["code"] == "UNKNOWN_PLAYER" and "'visitor'" in refusal["message"]
    assert "\n" not in refusal["message"]
