"""The rule sets' vocabulary through the HTTP API: served whole (every action type a rule
set's ``validate`` recognises, and nothing else), the choices and unit offers built from
it (a d3-cards commander's rally among them, with its odds), d3-cards' deck panel, and
odds refused for the kinds declared without them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.activation.command_cards import card_words
from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.actions import ACTION_TYPES, Action
from tertia.core.narration import possessive
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.web.app import create_app
from tests.fact_support import fact_of
from tests.web_support import bearer, create, doctrine_action, panel_sections, service

SCENARIOS = {"larger-battles": "skirmish", "d3-commands": "edgehill", "d3-cards": "chalgrove",
             "declare-thee-sir": "edgehill", "charge-yr-pikes": "naseby"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def hotseat(client: TestClient, rules: str, seed: int = 2) -> tuple[str, dict[str, dict[str, str]]]:
    created = create(client, scenario=SCENARIOS[rules], rules=rules, mode="hotseat", seed=seed)
    return created["id"], {s: bearer(t) for s, t in created["tokens"].items()}


def view(client: TestClient, gid: str, tokens: dict[str, dict[str, str]]) -> dict[str, Any]:
    to_act = service(client).live(gid).state.to_act
    answer = client.get(f"/api/games/{gid}/view", headers=tokens[to_act])
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def placeholder(name: str) -> dict[str, Any]:
    """An action of type ``name`` with its required fields filled in with placeholders."""
    cls = ACTION_TYPES[name]
    filler = {"str": "nobody", "float": 0.0, "int": 0, "bool": False}
    data: dict[str, Any] = {"type": name}
    for f in fields(cls):
        if f.default is MISSING and f.default_factory is MISSING:
            data[f.name] = filler[str(f.type).split(" ")[0]]
    return data


def test_each_rule_set_serves_its_vocabulary(client: TestClient) -> None:
    catalogue = client.get("/api/catalogue").json()
    for rules in ruleset_ids():
        answer = client.get(f"/api/rules/{rules}")
        assert answer.status_code == 200, answer.text
        served = answer.json()["vocabulary"]
        assert served == get_ruleset(rules).vocabulary()
        assert next(r for r in catalogue["rules"] if r["id"] == rules)["vocabulary"] == served
        for kind in served["actions"]:
            assert {"type", "label", "phrase", "fields", "dice_driven", "odds", "interaction"} <= set(kind)
    cards = client.get("/api/rules/d3-cards").json()["vocabulary"]
    rally = next(k for k in cards["actions"] if k["type"] == "rally")
    assert rally["dice_driven"] and rally["odds"] and rally["interaction"] == "aim"
    assert [f["name"] for f in rally["fields"]] == ["commander", "unit"]
    assert rally["subject"] == "commander" and rally["target"] == "unit"
    assert [p["name"] for p in cards["panels"]] == ["deck"]


def test_an_unknown_rule_set_is_a_one_line_404(client: TestClient) -> None:
    answer = client.get("/api/rules/chess")
    assert answer.status_code == 404
    body = answer.json()
    assert body["code"] == "NOT_FOUND" and "\n" not in body["message"] and "d3-cards" in body["message"]
    assert client.get("/api/rules/" + "x" * 65).status_code == 422


@pytest.mark.parametrize("rules", ruleset_ids())
def test_the_served_vocabulary_is_complete(client: TestClient, rules: str) -> None:
    """Every registered action type, put to the game's /validate in open play: those the
    rule set recognises (refused for any reason but UNKNOWN_ACTION, or legal) are exactly
    those its served vocabulary declares."""
    gid, tokens = hotseat(client, rules)
    for _ in range(2):  # d3-commands: both sides lay their cards; declare-thee-sir declares
        pending = view(client, gid, tokens)["status"]["pending"]
        if not pending:
            break
        offer = view(client, gid, tokens)["choices"][0]  # declare-thee-sir: its first option
        side = service(client).live(gid).state.to_act
        laid = client.post(f"/api/games/{gid}/actions", json=offer["action"], headers=tokens[side])
        assert laid.status_code == 200, laid.text
    assert view(client, gid, tokens)["status"]["pending"] is None
    side = service(client).live(gid).state.to_act
    recognised = set()
    for name, cls in ACTION_TYPES.items():
        if cls is Action:
            continue
        verdict = client.post(f"/api/games/{gid}/validate", json=placeholder(name), headers=tokens[side])
        assert verdict.status_code == 200, verdict.text
        if "core.UNKNOWN_ACTION" not in {v["code"] for v in verdict.json()["violations"]}:
            recognised.add(name)
    served = client.get(f"/api/rules/{rules}").json()["vocabulary"]
    assert {k["type"] for k in served["actions"]} == recognised


def test_choices_are_built_from_the_vocabulary(client: TestClient) -> None:
    gid, tokens = hotseat(client, "larger-battles")
    choices = view(client, gid, tokens)["choices"]
    labels = {c["label"] for c in choices}
    assert "End the movement phase" in labels
    # An order to move for each of the side's commands: one with no commander by its name.
    state = service(client).live(gid).state
    commands = {u.command for u in state.units.values() if u.side == state.to_act}
    orders = {label for label in labels if label.startswith("Order ") and label.endswith(" command to move")}
    assert len(orders) == len(commands) and "Order the dragoons command to move" in orders
    assert all({"kind", "interaction", "dice_driven"} <= set(c) for c in choices)
    gid, tokens = hotseat(client, "d3-cards")
    [end] = view(client, gid, tokens)["choices"]
    card = view(client, gid, tokens)["status"]["summary"]["words"]["card_in_play"]
    assert end["label"] == f"End the {card} card's activation" and end["kind"] == "end_phase"


def test_a_command_is_named_by_its_own_sides_commander(client: TestClient) -> None:
    """The side to act orders its own commands, each named by its own commander ("Sir
    Edmund Verney's command"), never by the enemy's commander of the command of that name."""
    gid, tokens = hotseat(client, "larger-battles")
    labels = {c["label"] for c in view(client, gid, tokens)["choices"]}
    state = service(client).live(gid).state
    for u in state.units.values():
        if u.is_commander:
            order = f"Order {possessive(u.label, person=True)} command to move"
            assert (order in labels) is (u.side == state.to_act), (order, labels)


def test_d3_cards_shows_its_deck_to_each_side(client: TestClient) -> None:
    gid, tokens = hotseat(client, "d3-cards")
    live = service(client).live(gid)
    to_act = live.state.to_act
    seen = {s: client.get(f"/api/games/{gid}/view", headers=tokens[s]).json() for s in live.sides}
    mine = panel_sections(seen[to_act], "deck")
    assert mine is not None and panel_sections(seen[to_act], "command-cards") is None
    left = {s: [i["text"] for i in mine[f"deck-left-{s}"]["items"]] for s in live.sides}
    drawn = mine["deck-drawn"]["items"]
    count = sum(map(len, left.values()))
    assert count + len(drawn) == 10
    assert mine["deck-count"]["items"][0]["text"] == f"{count} cards left to draw this turn."
    active = card_words(seen[to_act]["status"]["summary"]["active_card"])
    assert drawn[-1] == {"text": active, "side": to_act, "state": "active",
                         "title": f"{live.side_names()[to_act]} {active.lower()}: in play"}
    assert mine["deck-active"]["items"][0]["text"] == f"In play: your {active.lower()} card"
    assert left[to_act].count(active) == 0  # each side holds one card of each type
    other = next(s for s in live.sides if s != to_act)
    theirs = panel_sections(seen[other], "deck")
    assert theirs is not None  # nothing in the deck is secret: the same but for whose card it is
    assert theirs["deck-active"]["items"][0]["text"] == (
        f"In play: {possessive(live.side_names()[to_act])} {active.lower()} card")
    assert {k: v for k, v in theirs.items() if k != "deck-active"} == {
        k: v for k, v in mine.items() if k != "deck-active"}
    lb, lb_tokens = hotseat(client, "larger-battles")
    assert {p["name"] for p in view(client, lb, lb_tokens)["panels"]} & {"deck", "command-cards"} == set()
    dc, dc_tokens = hotseat(client, "d3-commands")
    assert panel_sections(view(client, dc, dc_tokens), "command-cards") is not None
    assert panel_sections(view(client, dc, dc_tokens), "deck") is None


def play_until_rally(client: TestClient, gid: str, tokens: dict[str, dict[str, str]]) -> tuple[str, Action]:
    """Both sides played by the doctrine through the API until one would rally."""
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(2)
    for _ in range(300):
        side, action = doctrine_action(client, gid, players, rng)
        if action.type == "rally":
            return side, action
        answer = client.post(f"/api/games/{gid}/actions", json=action.to_dict(), headers=tokens[side])
        assert answer.status_code == 200, answer.text
    raise AssertionError("no commander rallied")


def hits_of(card: dict[str, Any]) -> int:
    """The hits a piece's card shows."""
    hits = fact_of(card, "hits")
    assert hits is not None, card
    return int(hits["value"])


def test_a_commanders_rally_is_offered_with_its_odds(client: TestClient) -> None:
    gid, tokens = hotseat(client, "d3-cards")
    side, rally = play_until_rally(client, gid, tokens)
    data = rally.to_dict()
    url, me = f"/api/games/{gid}", tokens[side]
    before = hits_of(client.get(f"{url}/units/{data['unit']}", headers=me).json()["report"])
    offers = client.get(f"{url}/units/{data['commander']}", headers=me).json()["actions"]
    offer = next(o for o in offers if o["kind"] == "rally" and o["target"] == data["unit"])
    assert offer["action"] == data and offer["dice_driven"] and offer["interaction"] == "aim"
    assert offer["label"].endswith(" rallies " + service(client).live(gid).state.units[data["unit"]].label)
    odds = client.post(f"{url}/odds", json=data, headers=me)
    assert odds.status_code == 200, odds.text
    assert any("recovers" in o["description"] for o in odds.json()["outcomes"])
    assert abs(sum(o["probability"] for o in odds.json()["outcomes"]) - 1.0) < 1e-9
    done = client.post(f"{url}/actions", json=data, headers=me)
    assert done.status_code == 200, done.text
    after = hits_of(client.get(f"{url}/units/{data['unit']}", headers=me).json()["report"])
    assert after <= before
    again = client.get(f"{url}/units/{data['commander']}", headers=me).json()["actions"]
    assert not any(o["kind"] == "rally" for o in again)  # one rally an activation


def test_odds_are_refused_for_kinds_declared_without_them(client: TestClient) -> None:
    gid, tokens = hotseat(client, "d3-commands")
    side = service(client).live(gid).state.to_act
    [offer] = view(client, gid, tokens)["choices"]
    refused = client.post(f"/api/games/{gid}/odds", json=offer["action"], headers=tokens[side])
    assert refused.status_code == 422 and refused.json()["code"] == "NO_ODDS"
    assert refused.json()["rule"] == get_ruleset("d3-commands").action_kind("order_cards").rule  # type: ignore[union-attr]
    deploy = client.post(f"/api/games/{gid}/odds", json=placeholder("deploy"), headers=tokens[side])
    assert deploy.status_code == 422 and deploy.json()["code"] == "NO_ODDS"
    lb, lb_tokens = hotseat(client, "larger-battles")
    lb_side = service(client).live(lb).state.to_act
    asked = client.post(f"/api/games/{lb}/odds", json={"type": "end_phase"}, headers=lb_tokens[lb_side])
    assert asked.status_code == 200, asked.text


def test_a_plan_for_a_rule_set_that_makes_nothing_together_is_refused(client: TestClient) -> None:
    gid, tokens = hotseat(client, "d3-cards")
    side = service(client).live(gid).state.to_act
    unit = next(u.id for u in service(client).live(gid).state.iter_troops(side))
    planned = {"planned": '[{"attacker": "a", "target": "b"}]'}
    answer = client.get(f"/api/games/{gid}/units/{unit}", params=planned, headers=tokens[side])
    assert answer.status_code == 422 and answer.json()["code"] == "BAD_ACTION"
    assert "makes no actions together" in answer.json()["message"]
    empty = client.get(f"/api/games/{gid}/units/{unit}", params={"planned": "[]"}, headers=tokens[side])
    assert empty.status_code == 200
