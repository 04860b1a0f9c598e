"""Declare Thee Sir through the HTTP API, as the page uses it: the declaration and its 30
seconds in the vocabulary, the card drawn and the deck in the view, the options as the
prompt's buttons, the rolled move on the drag offer and the ruler, and routs and
push-backs in the log as moves, stand by stand."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.activation.deck import read_card
from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.events import StandsGathered, StandsScattered, UnitMoved
from tertia.rulesets.declare_thee_sir.rout import rout
from tertia.web.app import create_app
from tertia.web.traces import moves_of
from tests.dts_combat_support import A, B, dts, state_of, tx_with
from tests.fact_support import fact_of
from tests.web_support import bearer, create, doctrine_action, panel_sections, service

RULES = "declare-thee-sir"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def hotseat(client: TestClient, seed: int = 2) -> tuple[str, dict[str, dict[str, str]]]:
    created = create(client, scenario="edgehill", rules=RULES, mode="hotseat", seed=seed)
    return created["id"], {s: bearer(t) for s, t in created["tokens"].items()}


def view_of(client: TestClient, gid: str, headers: dict[str, str], log_from: int = 0) -> dict[str, Any]:
    answer = client.get(f"/api/games/{gid}/view?log_from={log_from}", headers=headers)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def awaiting(client: TestClient, gid: str, tokens: dict[str, dict[str, str]]) -> tuple[str, dict[str, Any]]:
    side = service(client).live(gid).state.to_act
    return side, view_of(client, gid, tokens[side])


def test_the_declaration_is_timed_by_the_page_and_the_deck_has_a_panel(client: TestClient) -> None:
    served = client.get(f"/api/rules/{RULES}").json()["vocabulary"]
    declare = next(d for d in served["decisions"] if d["kind"] == "declare")
    assert declare["time_limit"] == 30 and declare["on_time_out"] == {"option": "defer"}
    assert declare["rule"] == "Declare Thee Sir: A) Game Play"
    assert [p["name"] for p in served["panels"]] == ["deck"]
    other = client.get("/api/rules/d3-cards").json()["vocabulary"]
    assert all(d["time_limit"] is None and d["on_time_out"] == {} for d in other["decisions"])


def test_the_view_shows_the_card_drawn_and_the_cards_left(client: TestClient) -> None:
    gid, tokens = hotseat(client)
    side, view = awaiting(client, gid, tokens)
    state = view["state"]
    pending = view["status"]["pending"]
    deck = panel_sections(view, "deck")
    assert deck is not None
    units = {u["id"]: u for u in state["units"]}
    [active] = deck["deck-active"]["items"]
    assert active["unit"] == pending["unit"] == view["status"]["summary"]["activated"]
    assert active["side"] == side == units[pending["unit"]]["side"] and active["state"] == "active"
    assert active["text"] == f"Card drawn: {units[pending['unit']]['name']} (yours)"
    left = len(state["own"]["deck_left"])
    counted = deck["deck-count"]["items"][0]["text"]
    assert counted.startswith(f"{left} cards left to draw this turn: ")
    for s in tokens:
        mine = [c for c in state["own"]["deck_left"] if units[read_card(c).name]["side"] == s]
        shown = deck.get(f"deck-left-{s}")
        assert len(mine) == (len(shown["items"]) if shown else 0)
        assert shown is None or (shown["open"] is False and shown["title"].endswith(f": {len(mine)} to come"))
    # Nothing in the deck is secret: the other side sees the same cards.
    other = next(s for s in tokens if s != side)
    theirs = panel_sections(view_of(client, gid, tokens[other]), "deck")
    assert theirs is not None
    assert theirs["deck-active"]["items"][0]["text"] == active["text"].removesuffix(" (yours)")
    assert {k: v for k, v in theirs.items() if k != "deck-active"} == {
        k: v for k, v in deck.items() if k != "deck-active"}


def test_the_options_are_buttons_and_the_rolled_move_is_offered_before_the_unit_is_placed(
        client: TestClient) -> None:
    gid, tokens = hotseat(client, seed=3)
    side, view = awaiting(client, gid, tokens)
    uid = view["status"]["pending"]["unit"]
    name = next(u["name"] for u in view["state"]["units"] if u["id"] == uid)
    labels = {c["label"]: c["action"] for c in view["choices"]}
    assert f"{name}: advance and fire" in labels and f"{name}: defer" in labels
    assert all(a["type"] == "dts_declare" and a["unit"] == uid for a in labels.values())
    report = client.get(f"/api/games/{gid}/units/{uid}", headers=tokens[side]).json()["report"]
    morale = fact_of(report, "morale")
    assert morale is not None and morale["value"] == "untested" and morale["text"] == "Morale: untested"

    answer = client.post(f"/api/games/{gid}/actions", json=labels[f"{name}: advance"], headers=tokens[side])
    assert answer.status_code == 200, answer.text
    view = view_of(client, gid, tokens[side])
    rolled = view["state"]["own"]["allowance"]
    assert view["status"]["summary"]["declared"] == "advance"
    detail = client.get(f"/api/games/{gid}/units/{uid}", headers=tokens[side]).json()
    drag = next(a for a in detail["actions"] if a["interaction"] == "drag")
    assert drag["allowance"] == rolled["open"]
    assert drag["allowances"]["over open ground"] == rolled["open"]
    assert drag["allowances"]["through difficult ground or to a flank"] == rolled["difficult"]
    unit = next(u for u in view["state"]["units"] if u["id"] == uid)
    ahead = [unit["x"], unit["y"] + (1.0 if unit["facing"] == 0 else -1.0)]
    probe = {"type": "move", "unit": uid, "waypoints": [ahead]}
    checked = client.post(f"/api/games/{gid}/validate", json=probe, headers=tokens[side]).json()
    assert checked["measure"]["length"] == pytest.approx(1.0)
    assert checked["measure"]["allowance"] in (rolled["open"], rolled["difficult"])
    assert checked["measure"]["ground"] in drag["allowances"]


def test_routs_and_push_backs_reach_the_log_as_moves_stand_by_stand(client: TestClient) -> None:
    gid, tokens = hotseat(client, seed=1)
    players: dict[str, DoctrinePlayer] = {}
    rng = random.Random(1)
    scattered = pushed = None
    for _ in range(600):
        live = service(client).live(gid)
        if live.state.is_over:
            break
        side, action = doctrine_action(client, gid, players, rng)
        answer = client.post(f"/api/games/{gid}/actions", json=action.to_dict(), headers=tokens[side])
        assert answer.status_code == 200, answer.text
        entry = answer.json()["log"][0]
        reasons = {m["reason"] for m in entry["moves"]}
        if "scattered" in reasons and scattered is None:
            scattered = (entry, service(client).live(gid).state)  # where the stands fled to
        if any(r.startswith("pushed back") for r in reasons) and pushed is None:
            pushed = entry
        if scattered and pushed:
            break
    assert scattered is not None, "no unit routed"
    assert pushed is not None, "no unit was pushed back"
    entry, after = scattered
    last: dict[tuple[str, int], Any] = {}  # a stand scattered again (pursued) ends its last flight
    for m in (m for m in entry["moves"] if m["reason"] == "scattered"):
        assert len(m["path"]) == 2 and isinstance(m["stand"], int)
        last[(m["unit"], m["stand"])] = m
    for (unit_id, index), m in last.items():
        fled = after.units[unit_id]
        if fled.stands:  # still on the table: the path ends where that stand now stands
            stand = fled.stands[index]
            assert m["path"][1] == pytest.approx([stand.x, stand.y], abs=1e-5)
    assert all(len(m["path"]) >= 2 for m in pushed["moves"])


def test_each_stand_is_traced_from_where_it_stood() -> None:
    """A rout of stands scatters them from the unit (its centre, which is all the page
    knows of a unit together); fleeing on, each goes from its own place; gathered, the
    unit goes from its flag to where it stands together."""
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0)
    before = state_of(foe, broken)
    first = StandsScattered(unit="b", places=((18.5, 13.0), (20.0, 9.0), (21.5, 11.0)), width=1.5, depth=1.0)
    again = StandsScattered(unit="b", places=((18.5, 7.0), (20.0, 9.0), (21.5, 5.0)), width=1.5, depth=1.0)
    gathered = StandsGathered(unit="b", x=19.0, y=8.0, facing=0.0, width=4.5, depth=1.0)
    events = [first, again, gathered]
    moves = moves_of(before, events, events)
    assert moves == [
        {"unit": "b", "path": [[20.0, 18.0], [18.5, 13.0]], "reason": "scattered", "stand": 0},
        {"unit": "b", "path": [[20.0, 18.0], [20.0, 9.0]], "reason": "scattered", "stand": 1},
        {"unit": "b", "path": [[20.0, 18.0], [21.5, 11.0]], "reason": "scattered", "stand": 2},
        {"unit": "b", "path": [[18.5, 13.0], [18.5, 7.0]], "reason": "scattered", "stand": 0},
        {"unit": "b", "path": [[21.5, 11.0], [21.5, 5.0]], "reason": "scattered", "stand": 2},
        {"unit": "b", "path": [[18.5, 7.0], [19.0, 8.0]], "reason": "gathered"},
    ]
    # What the viewer may not see is not drawn; the position still follows every event.
    assert moves_of(before, events, [gathered]) == [moves[-1]]
    moved = UnitMoved(unit="b", path=((20.0, 18.0), (20.0, 15.0)), facing=0.0, reason="pushed back in melee")
    assert moves_of(before, [moved], [moved]) == [
        {"unit": "b", "path": [[20.0, 18.0], [20.0, 15.0]], "reason": "pushed back in melee"}]


def test_a_scripted_rout_reaches_the_trace_stand_by_stand() -> None:
    """The rules' own rout (2D6 a stand, scripted 5, 9, 7 straight away from the foe):
    every stand that fled has its path, from the unit to the place it reached."""
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0)
    before = state_of(foe, broken)
    tx = tx_with(before, 5, 9, 7)
    rout(tx, "b", "f", "melee")
    paths = [m["path"] for m in moves_of(before, tx.events, tx.events) if m["reason"] == "scattered"]
    assert [p[0] for p in paths] == [[20.0, 18.0]] * 3
    assert [round(p[1][1], 6) for p in paths] == [13.0, 9.0, 11.0]
