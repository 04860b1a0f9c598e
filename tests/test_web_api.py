"""The HTTP API: every endpoint, and every refusal (tokens, sides, malformed bodies)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.analysis.odds import odds as engine_odds
from tertia.core.actions import EndPhase, action_from_dict
from tertia.rules.fighting import Attack
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import load_named, scenario_catalogue
from tertia.web.app import create_app
from tests.fact_support import fact_of
from tests.plugin_rules import with_plugins
from tests.web_support import bearer, create, doctrine_action, service, wait_until


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def refusal(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"code", "message", "rule"}
    assert body["message"] and "Traceback" not in response.text
    if code is not None:
        assert body["code"] == code, body
    return dict(body)


# --- creating games -------------------------------------------------------------------------


def test_each_mode_gives_one_token_per_human_side(client: TestClient) -> None:
    assert set(create(client, mode="hotseat")["tokens"]) == {"parliament", "royalist"}
    assert set(create(client, mode="link")["tokens"]) == {"parliament", "royalist"}
    ai = create(client, mode="ai", side="royalist")
    assert set(ai["tokens"]) == {"royalist"}
    assert ai["links"]["royalist"].endswith(ai["tokens"]["royalist"])
    assert set(create(client, mode="watch")["tokens"]) == {"spectator"}


def test_tokens_are_stored_only_as_hashes(client: TestClient, tmp_path: Path) -> None:
    created = create(client, mode="link")
    raw = (tmp_path / "games.sqlite3").read_bytes()
    wal = tmp_path / "games.sqlite3-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    for token in created["tokens"].values():
        assert token.encode() not in raw


@pytest.mark.parametrize(("body", "code"), [
    ({"scenario": "nowhere"}, "UNKNOWN_SCENARIO"),
    ({"scenario": "/etc/passwd"}, "UNKNOWN_SCENARIO"),
    ({"rules": "chess"}, "UNKNOWN_RULES"),
    ({"options": {"hit_limit_infantry": 0}}, "BAD_OPTION"),
    ({"options": {"no_such_option": 1}}, "BAD_OPTION"),
    ({"mode": "ai"}, "NO_SIDE"),
    ({"mode": "ai", "side": "martians"}, "UNKNOWN_SIDE"),
    ({"mode": "solitaire"}, "BAD_REQUEST"),
    ({"seed": -1}, "BAD_REQUEST"),
    ({"colour": "red"}, "BAD_REQUEST"),
])
def test_bad_new_games_are_refused_clearly(client: TestClient, body: dict[str, Any], code: str) -> None:
    refusal(client.post("/api/games", json={"scenario": "skirmish", **body}), 422, code)


def test_a_malformed_field_is_refused_in_words(client: TestClient) -> None:
    """The field and the reason, as a scenario file's problems read, not pydantic's words."""
    def refused(extra: dict[str, Any]) -> str:
        body = refusal(client.post("/api/games", json={"scenario": "skirmish", **extra}), 422, "BAD_REQUEST")
        return str(body["message"])

    assert refused({"seed": -1}) == "seed: must be at least 0, got -1"
    assert refused({"colour": "red"}) == "colour: unknown field 'colour'"


def test_malformed_json_and_oversized_bodies(client: TestClient) -> None:
    json_type = {"Content-Type": "application/json"}
    body = refusal(client.post("/api/games", content=b"{not json", headers=json_type), 422, "BAD_REQUEST")
    assert "JSON" in body["message"]
    refusal(client.post("/api/games", content=b"x" * 100_000, headers={"Content-Type": "application/json"}),
            413, "TOO_LARGE")


# --- who may see and do what ----------------------------------------------------------------


def test_missing_wrong_and_foreign_tokens(client: TestClient) -> None:
    a = create(client, mode="link")
    b = create(client, mode="link")
    url = f"/api/games/{a['id']}/view"
    response = client.get(url)
    refusal(response, 401, "NO_TOKEN")
    assert response.headers["WWW-Authenticate"] == "Bearer"
    refusal(client.get(url, headers={"Authorization": "Basic abc"}), 401, "NO_TOKEN")
    refusal(client.get(url, headers=bearer("not-a-token")), 403, "BAD_TOKEN")
    refusal(client.get(url, headers=bearer(b["tokens"]["parliament"])), 403, "BAD_TOKEN")
    refusal(client.get("/api/games/unknown-game/view", headers=bearer("x")), 404, "NOT_FOUND")
    refusal(client.get("/api/games/bad$id/view", headers=bearer("x")), 404, "NOT_FOUND")
    refusal(client.get("/api/games/" + "x" * 65 + "/view", headers=bearer("x")), 422, "BAD_REQUEST")
    refusal(client.get("/api/nothing/here"), 404, "NOT_FOUND")


def test_every_game_endpoint_needs_a_token(client: TestClient) -> None:
    gid = create(client, mode="hotseat")["id"]
    for method, path in [("GET", ""), ("GET", "/view"), ("GET", "/table"), ("POST", "/actions"),
                         ("POST", "/validate"), ("POST", "/odds"), ("POST", "/undo"),
                         ("GET", "/units/p-foot-1"), ("GET", "/replay"), ("GET", "/wait?timeout=0")]:
        body = {"type": "end_phase"} if method == "POST" else None
        response = client.request(method, f"/api/games/{gid}{path}", json=body)
        refusal(response, 401, "NO_TOKEN")
        response = client.request(method, f"/api/games/{gid}{path}", json=body, headers=bearer("wrong"))
        refusal(response, 403, "BAD_TOKEN")


def test_a_side_cannot_act_for_or_look_as_the_other(client: TestClient) -> None:
    created = create(client, mode="link")
    gid = created["id"]
    to_act = service(client).live(gid).state.to_act
    other = "royalist" if to_act == "parliament" else "parliament"
    theirs = bearer(created["tokens"][other])
    refused = refusal(client.post(f"/api/games/{gid}/actions", json={"type": "end_phase"}, headers=theirs),
                      403, "NOT_YOUR_TURN")
    name = service(client).live(gid).side_names()[to_act]
    assert name != to_act and refused["message"] == f"the game awaits {name}, not you"
    refusal(client.post(f"/api/games/{gid}/validate", json={"type": "end_phase"}, headers=theirs),
            403, "NOT_YOUR_TURN")
    refusal(client.post(f"/api/games/{gid}/odds", json={"type": "end_phase"}, headers=theirs),
            403, "NOT_YOUR_TURN")
    refusal(client.get(f"/api/games/{gid}/view?side={to_act}", headers=theirs), 403, "NOT_YOUR_SIDE")
    refusal(client.get(f"/api/games/{gid}/replay?side={to_act}", headers=theirs), 403, "NOT_YOUR_SIDE")
    assert client.get(f"/api/games/{gid}/view", headers=theirs).json()["side"] == other
    assert client.get(f"/api/games/{gid}/units/p-foot-1", headers=theirs).json()["actions"] == []
    refusal(client.post(f"/api/games/{gid}/undo", headers=theirs), 409, "CANNOT_UNDO")


def test_a_spectator_watches_but_never_acts(client: TestClient) -> None:
    created = create(client, mode="watch")
    spectator = bearer(created["tokens"]["spectator"])
    gid = created["id"]
    assert client.get(f"/api/games/{gid}/view?side=royalist", headers=spectator).json()["side"] == "royalist"
    refusal(client.post(f"/api/games/{gid}/actions", json={"type": "end_phase"}, headers=spectator),
            403, "NOT_A_PLAYER")
    wait_until(lambda: service(client).live(gid).state.is_over, timeout=30)
    view = client.get(f"/api/games/{gid}/view", headers=spectator).json()
    assert view["status"]["over"] and view["status"]["result"]["reason"]


# --- playing --------------------------------------------------------------------------------


def _hotseat(client: TestClient) -> tuple[str, dict[str, dict[str, str]]]:
    created = create(client, mode="hotseat", seed=3)
    return created["id"], {s: bearer(t) for s, t in created["tokens"].items()}


def test_view_gives_the_observation_status_choices_and_log(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    to_act = service(client).live(gid).state.to_act
    view = client.get(f"/api/games/{gid}/view", headers=tokens[to_act]).json()
    assert view["side"] == to_act and view["status"]["your_turn"]
    assert view["status"]["summary"]["orders_left"] == 2
    assert {"turn", "phase", "active", "to_act", "can_undo"} <= set(view["status"])
    assert any(c["action"]["type"] == "end_phase" for c in view["choices"])
    assert view["log"][0]["lines"][-1]["text"].startswith("Turn 1")
    assert {u["id"] for u in view["state"]["units"]} >= {"p-foot-1", "r-foot-1"}
    later = client.get(f"/api/games/{gid}/view?log_from=1", headers=tokens[to_act]).json()
    assert later["log"] == [] and later["log_total"] == 1
    table = client.get(f"/api/games/{gid}/table", headers=tokens[to_act]).json()
    assert table["width"] == 48 and any(t["kind"] == "river" for t in table["terrain"])
    summary = client.get(f"/api/games/{gid}", headers=tokens[to_act]).json()
    assert summary["game"]["mode"] == "hotseat" and summary["status"]["turn"] == 1
    assert summary["game"]["options"] == dict(service(client).live(gid).game.ruleset.options)
    assert summary["game"]["options"]["hit_limit_infantry"] == 3  # none chosen: the rule's own


@pytest.mark.parametrize(("rules", "scenario", "text", "rule"), [
    ("larger-battles", "edgehill", "12", None),
    ("charge-yr-pikes", "edgehill", "11–16", "section 19 D"),
])
def test_the_status_gives_the_last_turn_by_the_rule_sets_clock(client: TestClient, rules: str, scenario: str,
                                                              text: str, rule: str | None) -> None:
    """The page's "Turn 1 of ..." reads the status's last turn: the scenario's turns
    where they end the battle, Charge yr Pikes!'s darkness (10 turns and a D6) where they
    do not, with the rule."""
    created = create(client, scenario=scenario, rules=rules, mode="hotseat")
    me = bearer(created["tokens"]["royalist"])
    view = client.get(f"/api/games/{created['id']}/view", headers=me).json()
    last = view["status"]["last_turn"]
    assert last["text"] == text
    assert (last["rule"] is None) if rule is None else (rule in last["rule"])


def test_actions_apply_refuse_and_are_saved(client: TestClient, tmp_path: Path) -> None:
    gid, tokens = _hotseat(client)
    side = service(client).live(gid).state.to_act
    me = tokens[side]
    order = {"type": "give_order", "target": "centre"}
    answer = client.post(f"/api/games/{gid}/actions", json=order, headers=me)
    assert answer.status_code == 200, answer.text
    assert answer.json()["events"][0]["type"] == "order_given"
    assert answer.json()["status"]["summary"]["orders_left"] == 1
    body = refusal(client.post(f"/api/games/{gid}/actions", json={"type": "give_order", "target": "centre"},
                               headers=me), 409, "larger-battles.ALREADY_ORDERED")
    assert body["rule"].startswith("Larger Battles") and body["violations"]
    refusal(client.post(f"/api/games/{gid}/actions", json={"type": "fly"}, headers=me), 422, "BAD_ACTION")
    refusal(client.post(f"/api/games/{gid}/actions", json=[1, 2], headers=me), 422, "BAD_ACTION")
    refusal(client.post(f"/api/games/{gid}/actions", content=b"", headers=me), 422, "BAD_REQUEST")
    refusal(client.post(f"/api/games/{gid}/actions", content=b"{]", headers=me), 422, "BAD_JSON")
    move = {"type": "move", "unit": "p-foot-1"}
    refusal(client.post(f"/api/games/{gid}/actions", json={**move, "waypoints": "north"}, headers=me),
            422, "BAD_ACTION")
    refusal(client.post(f"/api/games/{gid}/actions", json={**move, "waypoints": [[1e308, 5]]}, headers=me),
            409)
    refusal(client.post(f"/api/games/{gid}/actions", content=b"{" + b" " * 70_000 + b"}", headers=me),
            413, "TOO_LARGE")
    saved = service(client).store.load_game(gid)
    assert saved is not None and [a.action["type"] for a in saved[1]] == ["give_order"]


def test_validate_measures_moves_without_applying(client: TestClient) -> None:
    created = create(client, mode="ai", side="parliament", seed=3)
    gid, me = created["id"], bearer(created["tokens"]["parliament"])
    wait_until(lambda: service(client).live(gid).state.to_act == "parliament")
    client.post(f"/api/games/{gid}/actions", json={"type": "give_order", "target": "centre"}, headers=me)
    unit = service(client).live(gid).state.units["p-foot-1"]
    near = {"type": "move", "unit": "p-foot-1", "waypoints": [[unit.x, unit.y + 2]]}
    verdict = client.post(f"/api/games/{gid}/validate", json=near, headers=me).json()
    assert verdict["legal"] and verdict["measure"]["allowance"] == 6.0
    assert abs(verdict["measure"]["length"] - 2.0) < 1e-9
    far = {"type": "move", "unit": "p-foot-1", "waypoints": [[unit.x, unit.y + 20]]}
    verdict = client.post(f"/api/games/{gid}/validate", json=far, headers=me).json()
    assert not verdict["legal"] and verdict["violations"][0]["code"] == "movement.TOO_FAR"
    assert service(client).live(gid).state.units["p-foot-1"].y == unit.y
    detail = client.get(f"/api/games/{gid}/units/p-foot-1", headers=me).json()
    hits = fact_of(detail["report"], "hits")
    assert hits is not None and hits["limit"] == 3
    assert any(a.get("kind") == "move" and a["allowance"] == 6.0 for a in detail["actions"])
    assert detail["overlays"]["zones"][0]["radius"] == 3.0
    enemy = client.get(f"/api/games/{gid}/units/r-foot-1", headers=me).json()
    assert enemy["actions"] == []
    refusal(client.get(f"/api/games/{gid}/units/nobody", headers=me), 404, "NOT_FOUND")


def test_undo_takes_back_until_a_die_is_rolled(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    side = service(client).live(gid).state.to_act
    me = tokens[side]
    refusal(client.post(f"/api/games/{gid}/undo", headers=me), 409, "CANNOT_UNDO")
    client.post(f"/api/games/{gid}/actions", json={"type": "give_order", "target": "centre"}, headers=me)
    client.post(f"/api/games/{gid}/actions", json={"type": "give_order", "target": "right"}, headers=me)
    assert client.get(f"/api/games/{gid}/view", headers=me).json()["status"]["can_undo"]
    undone = client.post(f"/api/games/{gid}/undo", headers=me).json()
    assert undone["undone"]["target"] == "right" and undone["status"]["summary"]["orders_left"] == 1
    saved = service(client).store.load_game(gid)
    assert saved is not None and len(saved[1]) == 1
    view = client.get(f"/api/games/{gid}/view", headers=me).json()
    assert view["log_total"] == 2


def test_a_battle_through_the_api_with_odds_dice_and_undo_barriers(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    players: dict[str, Any] = {}
    rng = random.Random(5)
    checked_odds = False
    for _ in range(3000):
        live = service(client).live(gid)
        if live.state.is_over:
            break
        side, action = doctrine_action(client, gid, players, rng)
        if isinstance(action, Attack) and not checked_odds:
            result = client.post(f"/api/games/{gid}/odds", json=action.to_dict(), headers=tokens[side]).json()
            expected = engine_odds(live.game, live.state, action).to_dict()
            assert result["summary"] == expected["summary"] and result["modifiers"]
            assert abs(sum(o["probability"] for o in result["outcomes"]) - 1) < 1e-9
            checked_odds = True
        answer = client.post(f"/api/games/{gid}/actions", json=action.to_dict(), headers=tokens[side])
        assert answer.status_code == 200, answer.text
        if any(e["type"] == "dice_rolled" for e in answer.json()["events"]):
            refusal(client.post(f"/api/games/{gid}/undo", headers=tokens[side]), 409, "CANNOT_UNDO")
    assert checked_odds
    live = service(client).live(gid)
    assert live.state.is_over
    me = tokens["parliament"]
    refusal(client.post(f"/api/games/{gid}/odds", json={"type": "end_phase"}, headers=me), 409, "GAME_OVER")
    total = len(live.steps)
    frame = client.get(f"/api/games/{gid}/replay?step=0&side=royalist", headers=me).json()
    assert frame["steps"] == total and frame["side"] == "royalist" and len(frame["log"]) == 1
    last = client.get(f"/api/games/{gid}/replay?step={total}", headers=me).json()
    assert last["state"] == live.game.observe(live.state, last["side"])
    refusal(client.get(f"/api/games/{gid}/replay?step={total + 1}", headers=me), 422, "BAD_STEP")


def test_an_unknown_action_type_lists_only_this_rule_sets_actions(client: TestClient) -> None:
    created = create(client, scenario="chalgrove", rules="d3-cards", mode="hotseat")
    gid = created["id"]
    side = service(client).live(gid).state.to_act
    me = bearer(created["tokens"][side])
    served = {k["type"] for k in client.get("/api/rules/d3-cards").json()["vocabulary"]["actions"]}
    for path in ("actions", "validate", "odds"):
        body = refusal(client.post(f"/api/games/{gid}/{path}", json={"type": "teleport"}, headers=me),
                       422, "BAD_ACTION")
        message = body["message"]
        head, _, listed = message.partition("; its actions: ")
        assert head == "D3 ECW Wargaming Rules (earlier version) has no action 'teleport'", message
        assert set(listed.split(", ")) == served and "cyp_breakthrough" not in message
    # An action of another rule set's (registered once that rule set is loaded) is refused
    # by this one's rules, as any action they do not allow.
    get_ruleset("larger-battles")
    verdict = client.post(f"/api/games/{gid}/validate", json={"type": "give_order", "target": "centre"},
                          headers=me).json()
    assert "core.UNKNOWN_ACTION" in {v["code"] for v in verdict["violations"]}


@pytest.mark.parametrize(("extra", "field"), [
    ({"waypoints": [[20, 20, 7]]}, "waypoints[0]"),
    ({"waypoints": [[20]]}, "waypoints[0]"),
    ({"waypoints": [[20, True]]}, "waypoints[0]"),
    ({"waypoints": [[20, 20], "north"]}, "waypoints[1]"),
    ({"face_after": 1e300}, "face_after"),
    ({"face_before": -361}, "face_before"),
    ({"face_after": "north"}, "face_after"),
    ({"speed": 3}, "'speed'"),
])
def test_a_malformed_move_is_refused_naming_the_field(client: TestClient, extra: dict[str, Any],
                                                        field: str) -> None:
    gid, tokens = _hotseat(client)
    live = service(client).live(gid)
    side = live.state.to_act
    me = tokens[side]
    assert client.post(f"/api/games/{gid}/actions", json={"type": "give_order", "target": "centre"},
                       headers=me).status_code == 200
    unit = next(u for u in live.state.iter_troops(side) if u.command == "centre")
    move = {"type": "move", "unit": unit.id, "waypoints": [[unit.x, unit.y]], **extra}
    for path in ("actions", "validate"):
        body = refusal(client.post(f"/api/games/{gid}/{path}", json=move, headers=me), 422, "BAD_ACTION")
        assert field in body["message"] and "\n" not in body["message"], body["message"]
    assert service(client).live(gid).state.units[unit.id] == unit
    saved = service(client).store.load_game(gid)
    assert saved is not None and [a.action["type"] for a in saved[1]] == ["give_order"]


def test_unknown_fields_are_refused_in_nested_and_planned_actions(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    side = service(client).live(gid).state.to_act
    me = tokens[side]
    declared = {"type": "declare_attacks", "attacks": [{"attacker": "p-foot-1", "target": "r-foot-1",
                                                        "flank": True}]}
    body = refusal(client.post(f"/api/games/{gid}/validate", json=declared, headers=me), 422, "BAD_ACTION")
    assert body["message"].startswith("attacks[0]: ") and "'flank'" in body["message"]
    end = refusal(client.post(f"/api/games/{gid}/actions", json={"type": "end_phase", "now": 1}, headers=me),
                  422, "BAD_ACTION")
    assert end["message"] == "an action of type 'end_phase' has no field 'now' (it takes none)"
    planned = '[{"attacker": "p-foot-1", "target": "r-foot-1", "flank": true}]'
    unit = client.get(f"/api/games/{gid}/units/p-foot-1", params={"planned": planned}, headers=me)
    plan = refusal(unit, 422, "BAD_ACTION")
    assert plan["message"].startswith("planned[0]: ") and "'flank'" in plan["message"]


def test_odds_refuse_illegal_and_diceless_questions(client: TestClient) -> None:
    gid, tokens = _hotseat(client)
    side = service(client).live(gid).state.to_act
    me = tokens[side]
    body = refusal(client.post(f"/api/games/{gid}/odds", json={"type": "attack", "attacker": "p-foot-1",
                                                               "target": "r-foot-1"}, headers=me), 409)
    assert body["code"] in ("core.WRONG_PHASE", "core.NOT_YOUR_UNIT")
    refusal(client.post(f"/api/games/{gid}/odds", json={"type": "bombard"}, headers=me), 422, "BAD_ACTION")


def test_the_ai_replies_and_the_page_hears_of_it(client: TestClient) -> None:
    created = create(client, mode="ai", side="parliament", seed=11)
    gid, me = created["id"], bearer(created["tokens"]["parliament"])
    wait_until(lambda: service(client).live(gid).state.to_act == "parliament")
    version = client.get(f"/api/games/{gid}/view", headers=me).json()["version"]
    assert client.get(f"/api/games/{gid}/wait?version={version}&timeout=0.2", headers=me).json() == {
        "version": version, "changed": False}
    turn = service(client).live(gid).state.turn
    for _ in range(3):
        client.post(f"/api/games/{gid}/actions", json=EndPhase().to_dict(), headers=me)
    waited = client.get(f"/api/games/{gid}/wait?version={version}&timeout=5", headers=me).json()
    assert waited["changed"]
    wait_until(lambda: service(client).live(gid).state.to_act == "parliament", timeout=5)
    live = service(client).live(gid)
    assert live.state.turn == turn + 1 or live.state.first_side == "royalist"
    assert any(s.side == "royalist" for s in live.steps)
    assert client.app.state.runner.errors == []  # type: ignore[attr-defined]


def test_openapi_page_and_catalogue(client: TestClient) -> None:
    assert "swagger-ui" in client.get("/docs").text
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/view", "/api/games/{game_id}/actions"} <= set(paths)
    catalogue = client.get("/api/catalogue").json()
    assert "skirmish" in [s["name"] for s in catalogue["scenarios"]]
    assert catalogue["rules"][0]["options"]
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert "Content-Security-Policy" in page.headers
    assert client.get("/static/js/app.js").status_code == 200


def test_the_catalogue_and_the_table_tell_each_battle_as_its_rule_set_draws_it_up(client: TestClient) -> None:
    """Every scenario of the catalogue is served with its story and, by rule set, how its
    order of battle is drawn up (a rule set's own order of battle its own notes); a game's
    table gives the same for the rule set it is played under."""
    with with_plugins():
        served = client.get("/api/catalogue").json()["scenarios"]
        for s in served:
            for rules in (r for r in s["rules"] if r in ruleset_ids()):
                played = load_named(s["name"], rules_id=rules)
                assert s["description"] == played.description, s["name"]
                assert s["notes_by_rules"][rules] == played.notes, (s["name"], rules)
                created = create(client, scenario=s["name"], rules=rules, mode="hotseat", seed=1)
                token = next(iter(created["tokens"].values()))
                table = client.get(f"/api/games/{created['id']}/table", headers=bearer(token)).json()
                assert (table["description"], table["notes"]) == (played.description, played.notes)
    edgehill = next(s for s in served if s["name"] == "edgehill")
    assert edgehill["notes_by_rules"]["d3-cards"] != edgehill["notes_by_rules"]["larger-battles"]


def test_the_catalogue_names_each_scenarios_sides_as_the_scenario_does(client: TestClient) -> None:
    """Every scenario of the catalogue (a rule set's own battle among them) is served with
    its sides' ids and their names by id: the scenario's own names, as a game names them."""
    with with_plugins():
        served = client.get("/api/catalogue").json()["scenarios"]
        entries = scenario_catalogue()
        assert [s["name"] for s in served] == [e.name for e in entries]
        assert any(e.shipped_by for e in entries)
        for s, entry in zip(served, entries, strict=True):
            names = load_named(entry.name, rules_id=entry.shipped_by).side_names()
            assert s["sides"] == list(names), s["name"]
            assert s["side_names"] == names, s["name"]
    # The names are the scenario's own, not its ids in words.
    edgehill = next(s for s in served if s["name"] == "edgehill")
    assert edgehill["side_names"]["royalist"] == "Royalists (King Charles I)"


def test_a_saved_game_resumes_with_the_same_dice(tmp_path: Path) -> None:
    """Play on with and without a restart in the middle: the same actions give the same
    battle, dice included."""
    def play(db: Path, restart_at: int | None) -> str:
        created: dict[str, Any] = {}
        players: dict[str, Any] = {}
        rng = random.Random(2)
        actions: list[dict[str, Any]] = []
        for phase in ("before", "after"):
            with TestClient(create_app(db)) as c:
                if phase == "before":
                    created = create(c, mode="hotseat", seed=21)
                gid = created["id"]
                tokens = {s: bearer(t) for s, t in created["tokens"].items()}
                while not service(c).live(gid).state.is_over:
                    if phase == "before" and restart_at is not None and len(actions) == restart_at:
                        break
                    side, action = doctrine_action(c, gid, players, rng)
                    assert c.post(f"/api/games/{gid}/actions", json=action.to_dict(),
                                  headers=tokens[side]).status_code == 200
                    actions.append(action.to_dict())
                if service(c).live(gid).state.is_over:
                    return service(c).live(gid).state.state_hash()
        raise AssertionError("the battle did not end")

    assert play(tmp_path / "a.sqlite3", None) == play(tmp_path / "b.sqlite3", 40)
    assert action_from_dict({"type": "end_phase"}) == EndPhase()


def test_an_options_help_names_its_choices_as_the_form_lists_them(client: TestClient) -> None:
    """The new-game form lists a choice with spaces ("at once"); its help names it so, and
    names no rule set by its id."""
    for rules in ruleset_ids():
        for option in client.get(f"/api/rules/{rules}").json()["options"]:
            spaced = [str(c) for c in option["choices"] or () if "_" in str(c)]
            assert not any(f"({c})" in option["help"] for c in spaced), option
            assert not any(f"{r}:" in option["help"] for r in ruleset_ids()), option
    [rejoin] = [o for o in client.get("/api/rules/declare-thee-sir").json()["options"]
                if o["name"] == "forlorn_rejoin"]
    assert "(at once)" in rejoin["help"]
