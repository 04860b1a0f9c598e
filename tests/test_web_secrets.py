"""Hidden information through the API: a rule set that hides orders from the other side
and its own bookkeeping from both. Nothing hidden may reach a side by any endpoint."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient

from tertia.ai.doctrine import DoctrinePlayer
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.hidden import as_view, without_view_mark
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.rulesets.larger_battles import LargerBattles
from tertia.rulesets.larger_battles.events import OrderGiven
from tertia.scenarios import load_builtin
from tertia.web import games
from tertia.web.app import create_app
from tests.fact_support import fact_of
from tests.support import P, R, make_game, position, unit
from tests.web_support import bearer, create, doctrine_action, service


class SecretOrders(LargerBattles):
    """Larger battles where a side's orders are its own secret."""

    id: ClassVar[str] = "secret-orders"

    def observed_state(self, table: Battlefield, state: GameState, side: str) -> GameState:
        marks = state.marks if side == state.active else {
            k: v for k, v in state.marks.items() if not k.startswith("order")}
        return as_view(state.evolve(marks=marks), side)

    def sample_hidden(self, table: Battlefield, observation: GameState, side: str,
                      rng: random.Random) -> GameState:
        return without_view_mark(observation)  # the orders it cannot see: none given

    def event_visible_to(self, event: Event, side: str) -> bool:
        return not (isinstance(event, OrderGiven) and event.side != side)


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    real = games.build_game

    def build(scenario: str, rules: str, options: Any) -> Game:
        if rules == SecretOrders.id:
            return Game(SecretOrders(), load_builtin(scenario))
        return real(scenario, rules, options)

    monkeypatch.setattr(games, "build_game", build)
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        yield c


def test_orders_stay_secret_from_the_other_side(client: TestClient) -> None:
    created = create(client, mode="link", rules=SecretOrders.id)
    gid = created["id"]
    actor = service(client).live(gid).state.to_act
    other = "royalist" if actor == "parliament" else "parliament"
    mine, theirs = bearer(created["tokens"][actor]), bearer(created["tokens"][other])
    order = {"type": "give_order", "target": "right"}
    answer = client.post(f"/api/games/{gid}/actions", json=order, headers=mine)
    assert answer.status_code == 200
    live = service(client).live(gid)
    command = live.game.ruleset.presentation().command_label(live.state, "right") or "the right command"
    said = f"order{'s' if actor == 'parliament' else ''} {command}".lower()
    assert any(said in line["text"].lower() for line in answer.json()["log"][0]["lines"]), said
    # Every way the other side could learn of it.
    seen = [
        client.get(f"/api/games/{gid}/view", headers=theirs).text,
        client.get(f"/api/games/{gid}/replay?step=1", headers=theirs).text,
        client.get(f"/api/games/{gid}/units/p-horse", headers=theirs).text,
        client.get(f"/api/games/{gid}/units/r-horse", headers=theirs).text,
        client.get(f"/api/games/{gid}", headers=theirs).text,
    ]
    for text in seen:
        assert "ordered_move" not in text and said not in text.lower()
        assert f"{actor}:right" not in text, text[max(0, text.find(f"{actor}:right") - 300):][:400]
    view = json.loads(seen[0])
    assert view["status"]["summary"]["orders_left"] == 2
    assert view["log"][1]["lines"] == [] and view["log"][1]["action"] is None
    # The unit card of an enemy unit is only what the observation shows: worked out from
    # the side's own view, never the referee's position.
    live = service(client).live(gid)
    enemy = "r-horse" if actor == "parliament" else "p-horse"
    detail = client.get(f"/api/games/{gid}/units/{enemy}", headers=mine).json()
    observed = live.game.observed_state(live.state, actor)
    assert detail["report"] == \
        live.game.ruleset.presentation().piece(live.game.table, observed, enemy, actor).to_dict()
    # The order shows on the ordered pieces to their own side (card and view), and on
    # neither to the other side.
    ordered = [u.id for u in live.state.iter_troops(actor) if u.command == "right"]
    assert ordered
    own_view, their_view = client.get(f"/api/games/{gid}/view", headers=mine).json(), view
    for uid in ordered:
        assert fact_of(client.get(f"/api/games/{gid}/units/{uid}", headers=mine).json()["report"], "ordered")
        assert fact_of(own_view["pieces"][uid], "ordered")
        assert fact_of(client.get(f"/api/games/{gid}/units/{uid}", headers=theirs).json()["report"],
                       "ordered") is None
        assert fact_of(their_view["pieces"][uid], "ordered") is None
    # A hidden event closes the history to undo, and odds are not given on a hidden position.
    undo = client.post(f"/api/games/{gid}/undo", headers=mine)
    assert undo.status_code == 409 and undo.json()["code"] == "CANNOT_UNDO"
    # Odds that can be worked out from what the side sees are given.
    odds = client.post(f"/api/games/{gid}/odds", json={"type": "end_phase"}, headers=mine)
    assert odds.status_code == 200


class HiddenHits(LargerBattles):
    """Larger battles where each side sees the enemy's units without their hits."""

    id: ClassVar[str] = "hidden-hits"

    def observed_state(self, table: Battlefield, state: GameState, side: str) -> GameState:
        units = {uid: u if u.side == side else u.evolve(hits=0) for uid, u in state.units.items()}
        return state.evolve(units=units)


@pytest.mark.parametrize(("hits", "status"), [(0, 200), (2, 409)])
def test_odds_that_hang_on_a_secret_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                hits: int, status: int) -> None:
    board = make_game([unit("pf", P, "foot", 10, 10, 0), unit("rf", R, "foot", 10, 14, 180)])
    game = Game(HiddenHits(), board.scenario)
    monkeypatch.setattr(games, "build_game", lambda scenario, rules, options: game)
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        created = create(c, mode="link")
        live = service(c).live(created["id"])
        with live.lock:  # the position of an attack, the target with hits its enemy cannot see
            ready = position(game, phase="combat", active=P)
            live.states[-1] = ready.with_unit(ready.units["rf"].evolve(hits=hits))
            live._observed.clear()
            live._hides.clear()
        answer = c.post(f"/api/games/{created['id']}/odds", headers=bearer(created["tokens"][P]),
                        json={"type": "attack", "attacker": "pf", "target": "rf"})
        assert answer.status_code == status, answer.text
        if status == 409:
            assert answer.json()["code"] == "HIDDEN_INFORMATION"


# --- d3-commands: the secret order of the command cards --------------------------------------

CARD_ORDER = ["independent", "reserve", "centre", "left", "right"]
"""Parliament's order: no two neighbours in it are neighbours in the dealt or sorted order."""


def _json_leaks(data: Any, order: list[str], played: int) -> list[str]:
    """Where ``data`` shows a card of ``order`` not yet played in its place: any list
    holding two neighbours of the order, the second unplayed, or any text naming them
    one after the other."""
    pairs = [(order[i], order[i + 1]) for i in range(max(0, played - 1), len(order) - 1)]
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            found.extend(f"{a}, {b} in {value}" for a, b in pairs
                         if any(value[i:i + 2] == [a, b] for i in range(len(value) - 1)))
            for v in value:
                walk(v)
        elif isinstance(value, str):
            found.extend(f"{a}, {b} in {value!r}" for a, b in pairs if f"{a}, {b}" in value)

    walk(data)
    return found


def test_the_card_order_never_reaches_the_other_side(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        created = create(c, scenario="edgehill", rules="d3-commands", mode="link")
        gid = created["id"]
        p, r = bearer(created["tokens"]["parliament"]), bearer(created["tokens"]["royalist"])
        url = f"/api/games/{gid}"
        laid = c.post(f"{url}/actions", json={"type": "order_cards", "order": CARD_ORDER}, headers=p)
        assert laid.status_code == 200
        # The check can fail: parliament's own view shows its order.
        assert _json_leaks(c.get(f"{url}/view", headers=p).json(), CARD_ORDER, 0)

        def royalist_sees(played: int) -> None:
            step = len(service(c).live(gid).steps)
            answers = [c.get(f"{url}/view", headers=r).json(), c.get(url, headers=r).json(),
                       c.get(f"{url}/replay?step={step}", headers=r).json(),
                       c.get(f"{url}/units/p-balfour-horse", headers=r).json()]
            view = answers[0]
            if view["status"]["your_turn"]:
                answers.append(c.post(f"{url}/odds", json={"type": "end_phase"}, headers=r).json())
                for choice in view["choices"]:
                    asked = c.post(f"{url}/odds", json=choice["action"], headers=r)
                    assert asked.status_code in (200, 409, 422), asked.text
                    answers.append(asked.json())
            assert view["state"]["own"]["card_order"]["parliament"] == {"hidden": "card order"}
            [cards] = [p for p in view["panels"] if p["name"] == "command-cards"]
            [theirs] = [sec for sec in cards["sections"] if sec["key"] == "other-cards"]
            assert [i.get("id") for i in theirs["items"] if i["state"] != "back"] == CARD_ORDER[:played]
            assert all(not i["text"] and "id" not in i for i in theirs["items"] if i["state"] == "back")
            for answer in answers:
                assert _json_leaks(answer, CARD_ORDER, played) == []

        royalist_sees(0)
        ordered = c.post(f"{url}/actions", json={"type": "order_cards",
                                                 "order": ["centre", "right", "left", "independent"]},
                         headers=r)
        assert ordered.status_code == 200
        # Both sides play on, ending each activation after one unit's shot or move, and the
        # royalists look at every step until turn 2.
        players: dict[str, DoctrinePlayer] = {}
        rng = random.Random(4)
        for _ in range(400):
            state = service(c).live(gid).state
            if state.turn == 2:
                break
            played = len(state.value("cards_played:parliament", ()))
            royalist_sees(played)
            side, action = doctrine_action(c, gid, players, rng)
            answer = c.post(f"{url}/actions", json=action.to_dict(), headers=p if side == "parliament" else r)
            assert answer.status_code == 200, answer.text
            if side == "parliament":
                continue
            now = len(service(c).live(gid).state.value("cards_played:parliament", ()))
            assert _json_leaks(answer.json(), CARD_ORDER, now) == []
        else:
            raise AssertionError("turn 1 never ended")
