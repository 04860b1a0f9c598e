"""A question of odds through the HTTP API that leaves out the unit acted on, under every
registered rule set (the example plugin's included): answered for a word the rule set asks
of a unit alone (``ALONE_WORDS``: Charge yr Pikes!' morale test), refused in one line
naming the missing ``target`` for every other word, never with a message about the asking
unit itself (it is no enemy of its own side)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import default_scenario
from tertia.web.app import create_app
from tests.plugin_rules import with_plugins
from tests.web_support import bearer, create, service


def _rules() -> list[str]:
    with with_plugins():
        return [r for r in ruleset_ids() if get_ruleset(r).ACTION_WORDS]


RULES = _rules()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with with_plugins(), TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        yield c


@pytest.mark.parametrize("rules", RULES)
def test_a_question_without_its_target_names_what_is_missing(client: TestClient, rules: str) -> None:
    created = create(client, scenario=default_scenario(rules), rules=rules, mode="hotseat", seed=7)
    live = service(client).live(created["id"])
    side = live.state.to_act
    mine = next(u for u in live.state.iter_troops(side))
    ruleset = live.game.ruleset
    url = f"/api/games/{created['id']}/question"
    for word in (None, *ruleset.ACTION_WORDS):
        r = client.post(url, headers=bearer(created["tokens"][side]),
                        json={"question": word, "attacker": mine.id})
        if word in ruleset.ALONE_WORDS:
            assert r.status_code != 422 or r.json()["code"] != "NO_TARGET", r.text
            continue
        assert r.status_code == 422, (word, r.text)
        refusal = r.json()
        assert refusal["code"] == "NO_TARGET", (word, refusal)
        message = refusal["message"]
        assert "(target)" in message and ruleset.title in message and "\n" not in message
        assert mine.label not in message and mine.id not in message


@pytest.mark.parametrize("rules", RULES)
def test_a_question_at_a_friend_is_refused_as_no_enemy(client: TestClient, rules: str) -> None:
    """Asked about an attack on a piece of its own side, every rule set refuses it with the
    code that says so (``fighting.NOT_ENEMY``, not that no piece has that id), naming the
    friend: each of the side's troops asks each word, and a refusal that names the friend
    (not one the asking piece earns by itself, such as horse asked to bombard) carries
    that code."""
    created = create(client, scenario=default_scenario(rules), rules=rules, mode="hotseat", seed=7)
    live = service(client).live(created["id"])
    side = live.state.to_act
    troops = list(live.state.iter_troops(side))
    friend = troops[-1]
    ruleset = live.game.ruleset
    url = f"/api/games/{created['id']}/question"
    named = []
    for word in (w for w in ruleset.ACTION_WORDS if w not in ruleset.ALONE_WORDS):
        for mine in troops[:-1]:
            r = client.post(url, headers=bearer(created["tokens"][side]),
                            json={"question": word, "attacker": mine.id, "target": friend.id})
            refusal = r.json()
            assert r.status_code == 409, (word, refusal)
            if friend.label in refusal["message"] and mine.label not in refusal["message"]:
                named.append((word, refusal["code"]))
    assert named, "no question reached the friend"
    assert {code for _, code in named} == {"fighting.NOT_ENEMY"}, named
