"""Hostile bodies and queries get 422 with ``{"code", "message", "rule"}`` and nothing of
Python's insides; a 500, should one ever happen, carries the security headers too."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.core.actions import ACTION_TYPES
from tertia.web.app import SECURITY_HEADERS, create_app
from tests.plugin_rules import with_plugins
from tests.web_support import bearer, create

INTERNALS = ("Traceback", "ValueError", "OverflowError", "RecursionError", "sys.set_int_max_str_digits",
             "File \"")


@pytest.fixture
def game(tmp_path: Path) -> Iterator[tuple[TestClient, str, dict[str, str]]]:
    with TestClient(create_app(tmp_path / "games.sqlite3"), raise_server_exceptions=False) as client:
        created = create(client, mode="hotseat")
        view = client.get(f"/api/games/{created['id']}/view",
                          headers=bearer(created["tokens"]["parliament"])).json()
        yield client, created["id"], bearer(created["tokens"][view["status"]["to_act"]])


def refused(response: Any, code: str) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert set(body) >= {"code", "message", "rule"} and body["code"] == code, body
    assert not any(word in body["message"] for word in INTERNALS), body["message"]


MOVE = '{{"type": "move", "unit": "r-foot-1", "waypoints": [[{x}, 30]]}}'


@pytest.mark.parametrize(("body", "code"), [
    (MOVE.format(x="1e400"), "BAD_NUMBER"),
    (MOVE.format(x="-1e400"), "BAD_NUMBER"),
    (MOVE.format(x="9" * 5000), "BAD_NUMBER"),
    (MOVE.format(x="1" + "0" * 400), "BAD_NUMBER"),
    (MOVE.format(x="NaN"), "BAD_NUMBER"),
    (MOVE.format(x="Infinity"), "BAD_NUMBER"),
    ('{"type": "move", "unit": ' + "[" * 30_000 + "]" * 30_000 + "}", "BAD_JSON"),
    ('{"type": "end_phase"', "BAD_JSON"),
    (b'{"type": "\xff"}', "BAD_JSON"),
    ("[1, 2]", "BAD_ACTION"),
    ("", "BAD_REQUEST"),
])
def test_hostile_action_bodies(game: tuple[TestClient, str, dict[str, str]], body: str | bytes,
                               code: str) -> None:
    client, gid, me = game
    response = client.post(f"/api/games/{gid}/actions", content=body,
                           headers={**me, "Content-Type": "application/json"})
    refused(response, code)
    # Nothing changed.
    assert client.get(f"/api/games/{gid}/view", headers=me).json()["status"]["step"] == 0


@pytest.mark.parametrize("body", [
    {"scenario": "skirmish", "options": {"hit_limit_infantry": 3.5}},
    {"scenario": "skirmish", "seed": 3.0},
    {"scenario": "skirmish", "seed": "3"},
    {"scenario": "skirmish", "seed": True},
    {"scenario": "skirmish", "mode": 1},
    '{"scenario": "skirmish", "seed": 1e400}',
    '{"scenario": "skirmish", "seed": ' + "9" * 5000 + "}",
    '{"scenario": ' + "[" * 30_000 + "]" * 30_000 + "}",
])
def test_hostile_new_games(game: tuple[TestClient, str, dict[str, str]], body: Any) -> None:
    client = game[0]
    if isinstance(body, str):
        response = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    else:
        response = client.post("/api/games", json=body)
    assert response.status_code == 422, response.text
    message = response.json()["message"]
    assert not any(word in message for word in INTERNALS), message


@pytest.mark.parametrize(("body", "content_type", "message"), [
    ('{"scenario": "skirmish"}', "text/plain",
     "the body is not JSON: send a JSON object with Content-Type: application/json"),
    ("[1, 2]", "application/json", "the body must be a JSON object"),
    ('"skirmish"', "application/json", "the body must be a JSON object"),
])
def test_a_new_game_body_that_is_no_json_object_is_refused_in_words(
        game: tuple[TestClient, str, dict[str, str]], body: str, content_type: str, message: str) -> None:
    """Not Python's spelling of what came (``b'{...'``), nor a scenario file's (a table)."""
    response = game[0].post("/api/games", content=body, headers={"Content-Type": content_type})
    refused(response, "BAD_REQUEST")
    assert response.json()["message"] == message


def test_a_new_game_without_a_body_is_refused_in_words(game: tuple[TestClient, str, dict[str, str]]) -> None:
    """No body at all is a bad request, told as such, not a fault."""
    refused(game[0].post("/api/games"), "BAD_REQUEST")
    assert game[0].post("/api/games").json()["message"] == "the request needs a JSON body"


def test_hostile_queries(game: tuple[TestClient, str, dict[str, str]]) -> None:
    client, gid, me = game
    refused(client.get(f"/api/games/{gid}/units/r-foot-1", params={"planned": "[" * 3000 + "]" * 3000},
                       headers=me), "BAD_JSON")
    refused(client.get(f"/api/games/{gid}/units/r-foot-1", params={"planned": "[1e999]"}, headers=me),
            "BAD_NUMBER")
    for path, key in ((f"/api/games/{gid}/replay", "step"), (f"/api/games/{gid}/wait", "version")):
        refused(client.get(path, params={key: "9" * 5000}, headers=me), "BAD_REQUEST")


def test_an_unexpected_fault_is_a_500_with_the_security_headers(
    game: tuple[TestClient, str, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, gid, me = game
    from tertia.web import games

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a fault")

    monkeypatch.setattr(games.GameService, "table", broken)
    response = client.get(f"/api/games/{gid}/table", headers=me)
    assert response.status_code == 500 and response.json()["code"] == "INTERNAL"
    assert "a fault" not in response.text
    for header, value in SECURITY_HEADERS.items():
        assert response.headers.get(header) == value


def test_an_action_missing_a_field_is_refused_naming_it(tmp_path: Path) -> None:
    """Under every registered rule set, an action of each of its kinds sent without a field
    it cannot do without is refused naming that field, never with the words of Python's
    constructor."""
    with TestClient(create_app(tmp_path / "games.sqlite3"), raise_server_exceptions=False) as client:
        catalogue = client.get("/api/catalogue").json()
        for rules in catalogue["rules"]:
            scenario = next(s["name"] for s in catalogue["scenarios"] if rules["id"] in s["rules"])
            created = create(client, scenario=scenario, rules=rules["id"], mode="hotseat")
            tokens = created["tokens"]
            view = client.get(f"/api/games/{created['id']}/view", headers=bearer(next(iter(tokens.values()))))
            me = bearer(tokens[view.json()["status"]["to_act"]])
            for kind in client.get(f"/api/rules/{rules['id']}").json()["vocabulary"]["actions"]:
                if not [f for f in fields(ACTION_TYPES[kind["type"]]) if f.default is MISSING
                        and f.default_factory is MISSING]:
                    continue
                for path in ("actions", "validate", "odds"):
                    response = client.post(f"/api/games/{created['id']}/{path}", json={"type": kind["type"]},
                                           headers=me)
                    refused(response, "BAD_ACTION")
                    message = response.json()["message"]
                    assert "needs the field" in message and "__init__" not in message, message


PYTHON_WORDS = ("None", "True", "False", ".bool", " int", " float", "expected str")
"""Python's spellings of JSON's values and types, and pydantic's name for a union's member."""


def _wrong_values(default: Any) -> list[Any]:
    """JSON values an option of ``default``'s kind does not take: null, a list, a table,
    the other kinds, and a number far out of any range."""
    values: list[Any] = [None, [], {}, 1e308]
    values += [True] if not isinstance(default, bool) else [3, "perhaps"]
    return values + ([4] if isinstance(default, str) else [])


def test_a_new_games_option_of_the_wrong_kind_is_refused_naming_what_it_takes(tmp_path: Path) -> None:
    """Under every registered rule set, each option sent a value it does not take is refused
    as ``BAD_OPTION`` in one short line naming the option, what it takes (its choices, or
    its kind and range) and the value in JSON's words: never a union member's path
    (``options.x.bool``), the wrong kind ("expected true or false" for a number) or
    Python's spelling (``None``, ``True``, ``int``)."""
    with with_plugins(), TestClient(create_app(tmp_path / "games.sqlite3"),
                                    raise_server_exceptions=False) as client:
        catalogue = client.get("/api/catalogue").json()
        for rules in catalogue["rules"]:
            scenario = next(s["name"] for s in catalogue["scenarios"] if rules["id"] in s["rules"])
            for option in rules["options"]:
                for value in _wrong_values(option["default"]):
                    response = client.post("/api/games", json={"scenario": scenario, "rules": rules["id"],
                                                                "options": {option["name"]: value}})
                    refused(response, "BAD_OPTION")
                    message = response.json()["message"]
                    assert message.startswith(f"option {option['name']}: expected "), message
                    assert "\n" not in message and len(message) < 300, message
                    assert not any(word in message for word in PYTHON_WORDS), message
                    if option["choices"] is not None:
                        assert all(str(c) in message for c in option["choices"]), message
                # A value the option takes is still taken, as text too (as the command line gives it).
                for value in (option["default"], str(option["default"]).lower()):
                    response = client.post("/api/games", json={"scenario": scenario, "rules": rules["id"],
                                                                "options": {option["name"]: value}})
                    assert response.status_code == 201, (option["name"], value, response.text)


def test_a_missing_value_is_told_as_json_writes_it(game: tuple[TestClient, str, dict[str, str]]) -> None:
    """``null`` where text belongs is named ``null``, as the client wrote it."""
    client = game[0]
    response = client.post("/api/games", json={"scenario": None})
    refused(response, "BAD_REQUEST")
    assert response.json()["message"] == "scenario: expected text, got null"
    response = client.post("/api/games", json={"scenario": "skirmish", "mode": None})
    assert response.json()["message"].startswith("mode: unknown mode null;")
