"""The dice seed never leaves the server while a game is in progress: from it and the dice
already shown a player could predict every die to come (and the d3-cards deck)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.dice import WIDE_SEED, derive_seed
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.rulesets.d3_commands.ai.doctrine import D3CommandsDoctrine
from tertia.scenarios import load_builtin
from tertia.web.app import create_app
from tests.web_support import bearer, create, doctrine_action, service


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def seeds_shown(client: TestClient, gid: str, token: str) -> list[object]:
    headers = bearer(token)
    return [
        client.get(f"/api/games/{gid}/view", headers=headers).json()["game"]["seed"],
        client.get(f"/api/games/{gid}", headers=headers).json()["game"]["seed"],
        client.get(f"/api/games/{gid}/replay", params={"step": 0}, headers=headers).json()["game"]["seed"],
    ]


def test_the_seed_is_shown_to_nobody_until_the_game_is_over(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=21)
    gid = created["id"]
    tokens = created["tokens"]
    for token in tokens.values():
        assert seeds_shown(client, gid, token) == [None, None, None]
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(1)
    while not service(client).live(gid).state.is_over:
        side, action = doctrine_action(client, gid, players, rng)
        assert client.post(f"/api/games/{gid}/actions", json=action.to_dict(),
                           headers=bearer(tokens[side])).status_code == 200
    for token in tokens.values():
        assert seeds_shown(client, gid, token) == [21, 21, 21]


def test_link_games_draw_a_128_bit_secret_seed_and_refuse_a_chosen_one(client: TestClient,
                                                                        tmp_path: Path) -> None:
    response = client.post("/api/games", json={"scenario": "skirmish", "mode": "link", "seed": 5})
    assert response.status_code == 422 and response.json()["code"] == "SEED_NOT_ALLOWED"
    created = create(client, mode="link")
    live = service(client).live(created["id"])
    assert live.row.seed >= 2**127 > WIDE_SEED
    assert derive_seed(live.row.seed, "dice").bit_length() > 64
    # The seed survives the database and the game resumes from it.
    with TestClient(create_app(tmp_path / "games.sqlite3")) as again:
        assert service(again).live(created["id"]).row.seed == live.row.seed


def test_the_ai_draws_its_secret_card_order_from_its_own_stream() -> None:
    game = Game(get_ruleset("d3-commands"), load_builtin("edgehill"))
    state = game.ruleset.initial_state(game.scenario)
    held = ("centre", "independent", "left", "reserve", "right")
    orders = {D3CommandsDoctrine.card_order(state, "parliament", held, random.Random(i)) for i in range(40)}
    assert len(orders) > 3, "the order is a function of what the enemy can see"
    same = D3CommandsDoctrine.card_order(state, "parliament", held, random.Random(7))
    assert same == D3CommandsDoctrine.card_order(state, "parliament", held, random.Random(7))
    assert sorted(same) == sorted(held)
