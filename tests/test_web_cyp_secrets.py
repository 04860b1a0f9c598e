"""Charge yr Pikes! through the HTTP API: nothing it hides reaches the other side.

Two secrets (``tertia/rulesets/charge_yr_pikes/observation.py``): the values of the enemy's
officers not yet revealed (section 22), and, with ``secret_deployment`` on, where the
enemy's hidden pieces stand and what they do (Set-up D, Sequence of play 3 B). At Edgehill
the royalists may deploy a battery into Radway and Parliament one into Little Kineton, towns
where the enemy sees them only from within 12".

- The difference test: two games with the same seed whose positions differ only in what
  side A may not see (the hidden piece deployed at another place in the town, every
  unrevealed enemy officer given another value, in the position and in the events that
  rolled it) give A's token byte-identical answers from every endpoint it may call.
- Each endpoint, with each side's token, is scanned for the secret values.
- Once revealed, the value does reach the enemy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.core.events import DiceRolled, Event
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes import concealment, secret_grades
from tertia.rulesets.charge_yr_pikes.values import unit_data
from tertia.web.app import create_app
from tests.web_support import bearer, create, service

RULES = "charge-yr-pikes"
HIDER = {"royalist": ("r-guns-right", [(22.5, 41.0), (24.5, 40.5)]),
         "parliament": ("p-guns-right", [(66.0, 4.0), (64.5, 3.5)])}
"""Per side, a piece it deploys into a town on its half, and two places there (the two
games of a difference test)."""
GRADES = ("ineffective", "effective", "natural_born_leader")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        yield c


def _other(side: str) -> str:
    return "royalist" if side == "parliament" else "parliament"


def deployed_game(c: TestClient, hider: str, place: int, seed: int = 7) -> dict[str, Any]:
    """A hotseat Edgehill game with secret deployment, ``hider``'s piece deployed at its
    place number ``place`` in the town, both sides done: the battle's first card."""
    created = create(c, scenario="edgehill", rules=RULES, mode="hotseat", seed=seed,
                     options={"secret_deployment": True})
    gid = created["id"]
    piece, places = HIDER[hider]
    for side in service(c).live(gid).state.sides:
        headers = bearer(created["tokens"][side])
        if side == hider:
            x, y = places[place]
            put = c.post(f"/api/games/{gid}/actions", headers=headers,
                         json={"type": "cyp_deploy", "unit": piece, "x": x, "y": y})
            assert put.status_code == 200, put.text
        done = c.post(f"/api/games/{gid}/actions", headers=headers, json={"type": "cyp_deployment_done"})
        assert done.status_code == 200, done.text
    live = service(c).live(gid)
    assert concealment.hidden_from(live.state, _other(hider)) == [piece]
    return created


def unrevealed(state: GameState, viewer: str) -> dict[str, str]:
    """The enemy officers whose value ``viewer`` may not see, and their values."""
    return {u.id: str(unit_data(u).grade) for u in state.units.values()
            if secret_grades.is_secret_from(u, viewer)}


def _regraded(event: Event, new: dict[str, str], viewer: str) -> Event:
    if isinstance(event, secret_grades.GradeRolled) and event.officer in new:
        return replace(event, grade=new[event.officer])
    if isinstance(event, DiceRolled) and event.purpose.startswith(secret_grades.ROLL) \
            and not event.purpose.startswith(f"{secret_grades.ROLL} ({viewer})"):
        return replace(event, value=7 - int(event.value))
    return event


def change_grades(c: TestClient, gid: str, viewer: str) -> None:
    """Give every officer whose value ``viewer`` may not see another value, in every
    position of the game and in the events (and dice) that rolled it."""
    live = service(c).live(gid)
    with live.lock:
        new = {oid: GRADES[(GRADES.index(g) + 1) % 3] for oid, g in unrevealed(live.state, viewer).items()}
        assert new

        def regrade(state: GameState) -> GameState:
            for oid, grade in new.items():
                state = state.with_unit(state.units[oid].evolve(own=unit_data(state.units[oid]).evolve(
                    grade=grade)))
            return state

        live.states[:] = [regrade(s) for s in live.states]
        live.start_events = tuple(_regraded(e, new, viewer) for e in live.start_events)
        live.steps[:] = [replace(step, events=tuple(_regraded(e, new, viewer) for e in step.events))
                         for step in live.steps]
        live._observed.clear()
        live._hides.clear()
        live._lines.clear()


# --- what a side may ask ---------------------------------------------------------------------


def _own_mover(c: TestClient, gid: str, side: str) -> str | None:
    from tertia.rulesets.charge_yr_pikes.values import game_data

    state = service(c).live(gid).state
    return next((u for u in game_data(state).moving if state.units[u].side == side), None)


def everything(c: TestClient, created: dict[str, Any], side: str, hidden_piece: str,
               places: list[tuple[float, float]]) -> dict[str, str]:
    """Every answer ``side``'s token gets from the game's endpoints (without changing it),
    by what was asked."""
    gid, headers = created["id"], bearer(created["tokens"][side])
    url = f"/api/games/{gid}"
    live = service(c).live(gid)
    steps = len(live.steps)
    answers: dict[str, Any] = {
        "summary": c.get(url, headers=headers),
        "view": c.get(f"{url}/view", headers=headers),
        "view from 0": c.get(f"{url}/view?log_from=0", headers=headers),
        "table": c.get(f"{url}/table", headers=headers),
        "wait": c.get(f"{url}/wait?version={live.version}&timeout=0", headers=headers),
        "wait old": c.get(f"{url}/wait?version=0&timeout=0", headers=headers),
        "undo": c.post(f"{url}/undo", headers=headers),
        "other side's view": c.get(f"{url}/view?side={_other(side)}", headers=headers),
        "other side's replay": c.get(f"{url}/replay?step={steps}&side={_other(side)}", headers=headers),
    }
    for step in range(steps + 1):
        answers[f"replay {step}"] = c.get(f"{url}/replay?step={step}", headers=headers)
    for uid in sorted(live.state.units):
        answers[f"unit {uid}"] = c.get(f"{url}/units/{uid}", headers=headers)
    mover = _own_mover(c, gid, side) or next(u.id for u in live.state.iter_units(side))
    questions: list[dict[str, Any]] = [
        {"type": "cyp_charge", "unit": mover, "target": hidden_piece},
        {"type": "cyp_fire", "unit": mover, "target": hidden_piece},
        {"type": "cyp_breakthrough", "unit": mover, "target": hidden_piece},
        {"type": "cyp_turn_to_meet", "unit": mover, "attacker": hidden_piece},
        {"type": "cyp_odds_question", "word": "charge", "unit": mover, "target": hidden_piece},
        {"type": "cyp_odds_question", "word": "morale", "unit": hidden_piece, "target": mover},
        {"type": "move", "unit": hidden_piece, "waypoints": [[36.0, 24.0]]},
        {"type": "end_phase"},
        *({"type": "move", "unit": mover, "waypoints": [list(p)]} for p in places),
    ]
    for officer in sorted(unrevealed(live.state, side)):
        questions.append({"type": "cyp_odds_question", "word": "charge", "unit": mover, "target": officer})
    for i, action in enumerate(questions):
        for what in ("validate", "odds", "actions"):
            if what == "actions" and action["type"] == "end_phase":
                continue
            answers[f"{what} {i} {action}"] = c.post(f"{url}/{what}", headers=headers, json=action)
    for key, response in answers.items():
        if key.startswith("actions"):
            assert response.status_code >= 400, f"{key} was applied: {response.text}"
    return {key: f"{r.status_code} {r.text}" for key, r in answers.items()}


def _same_game(text: str, created: dict[str, Any]) -> str:
    """An answer with what differs between two games anyway (their ids, when they were
    made) taken out."""
    text = text.replace(created["id"], "<game>")
    return re.sub(r'"created":[0-9.e+-]+', '"created":0', text)


# --- the difference test ---------------------------------------------------------------------


@pytest.mark.parametrize("hider", ["royalist", "parliament"])
def test_what_a_side_cannot_see_changes_nothing_it_is_told(client: TestClient, hider: str) -> None:
    """The enemy (``viewer``) of ``hider`` is told the same in two games that differ in
    where ``hider``'s hidden piece stands and in the values of its unrevealed officers."""
    viewer = _other(hider)
    piece, places = HIDER[hider]
    first = deployed_game(client, hider, 0)
    second = deployed_game(client, hider, 1)
    change_grades(client, second["id"], viewer)
    one, two = service(client).live(first["id"]), service(client).live(second["id"])
    assert one.state.units[piece].x != two.state.units[piece].x  # the games do differ ...
    assert unrevealed(one.state, viewer) != unrevealed(two.state, viewer)
    # ... and what the hider sees of them differs too: the check can fail.
    mine = [everything(client, g, hider, piece, places) for g in (first, second)]
    assert _same_game(mine[0]["view"], first) != _same_game(mine[1]["view"], second)
    told = [everything(client, g, viewer, piece, places) for g in (first, second)]
    assert told[0].keys() == told[1].keys()
    differ = [k for k in told[0] if _same_game(told[0][k], first) != _same_game(told[1][k], second)]
    assert differ == [], {k: _first_difference(_same_game(told[0][k], first), _same_game(told[1][k], second))
                          for k in differ}


def _first_difference(one: str, two: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(one, two, strict=False)) if a != b), min(len(one), len(two)))
    return f"{one[max(0, at - 150):at + 100]!r} / {two[max(0, at - 150):at + 100]!r}"


# --- the secret values, looked for in every answer ---------------------------------------------


def secrets_in(text: str, state: GameState, viewer: str, piece: str) -> list[str]:
    """What ``text`` shows of ``viewer``'s enemy's secrets: an unrevealed officer's value
    beside his id or name, or the hidden ``piece``'s place."""
    found: list[str] = []
    data = json.loads(text.split(" ", 1)[1])
    secret = unrevealed(state, viewer)
    hidden = state.units[piece]
    coordinates = {f"{hidden.x:g}", f"{hidden.y:g}", repr(hidden.x), repr(hidden.y)}

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            ident = value.get("id", value.get("unit", value.get("officer")))
            if ident in secret and value.get("grade") == secret[ident]:
                found.append(f"{ident}'s grade in {value}")
            own = value.get("own")
            if ident in secret and isinstance(own, dict) and own.get("grade") == secret[ident]:
                found.append(f"{ident}'s grade in {own}")
            facts = value.get("facts")  # a piece's card: its facts
            if ident in secret and isinstance(facts, list):
                found.extend(f"{ident}'s grade in {f}" for f in facts
                             if isinstance(f, dict) and _reads_grade(f, secret[ident]))
            if ident == piece:
                shown = {str(value.get(k)) for k in ("x", "y")} | {json.dumps(value.get("path"))}
                found.extend(f"{piece} at {c}" for c in coordinates if c in shown or any(
                    c in s for s in shown))
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            for oid, grade in secret.items():
                label = state.units[oid].label
                if (oid in value or label in value) and grade.replace("_", " ") in value.lower():
                    found.append(f"{label}'s value in {value!r}")
            said = value.replace(repr(piece), "")  # a refusal may repeat the id the asker named
            if said not in (piece, hidden.label) and (piece in said or hidden.label in said):
                found.append(f"{piece} named in {value!r}")

    walk(data)
    return found


def _reads_grade(fact: dict[str, Any], grade: str) -> bool:
    """Does a card's fact show the officer's value ``grade``?"""
    said = {str(fact.get(k, "")).replace("_", " ").lower() for k in ("value", "words")}
    return fact.get("key") == "grade" and grade.replace("_", " ") in said


@pytest.mark.parametrize("hider", ["royalist", "parliament"])
def test_no_answer_holds_a_secret(client: TestClient, hider: str) -> None:
    viewer = _other(hider)
    piece, places = HIDER[hider]
    created = deployed_game(client, hider, 0)
    state = service(client).live(created["id"]).state
    told = everything(client, created, viewer, piece, places)
    leaks = {k: secrets_in(t, state, viewer, piece) for k, t in told.items()
             if t.split(" ", 1)[1].startswith(("{", "["))}
    assert {k: v for k, v in leaks.items() if v} == {}
    # The scan can fail: the hider's own answers show its piece and its officers' values,
    # in the state and on each officer's card.
    own = everything(client, created, hider, piece, places)
    assert secrets_in(own["view"], state, viewer, piece)
    cards = json.loads(own["view"].split(" ", 1)[1])["pieces"]
    secret = unrevealed(state, viewer)
    assert secret
    assert all(any(_reads_grade(f, grade) for f in cards[oid]["facts"]) for oid, grade in secret.items())
    # The viewer's cards of those officers say only that the value is not yet shown.
    theirs = json.loads(told["view"].split(" ", 1)[1])["pieces"]
    for oid in secret:
        grade = next((f for f in theirs[oid]["facts"] if f["key"] == "grade"), None)
        assert grade is not None and grade["value"] == "not yet shown"


# --- what the server answers about hidden things -------------------------------------------


def test_a_hidden_piece_is_answered_as_an_unknown_one(client: TestClient) -> None:
    created = deployed_game(client, "royalist", 0)
    url = f"/api/games/{created['id']}/units"
    p, r = bearer(created["tokens"]["parliament"]), bearer(created["tokens"]["royalist"])
    hidden = client.get(f"{url}/r-guns-right", headers=p)
    unknown = client.get(f"{url}/r-no-such-gun", headers=p)
    assert (hidden.status_code, hidden.json()["code"]) == (404, "NOT_FOUND")
    assert hidden.json()["message"].replace("r-guns-right", "?") == \
        unknown.json()["message"].replace("r-no-such-gun", "?")
    assert client.get(f"{url}/r-guns-left", headers=p).status_code == 200  # placed: known
    own = client.get(f"{url}/r-guns-right", headers=r)
    assert own.status_code == 200 and own.json()["report"]["id"] == "r-guns-right"


def _a_step_forward(client: TestClient, created: dict[str, Any], side: str) -> dict[str, Any]:
    gid = created["id"]
    mover = _own_mover(client, gid, side)
    assert mover is not None
    unit = service(client).live(gid).state.units[mover]
    ahead = 0.5 if side == "parliament" else -0.5
    moved = client.post(f"/api/games/{gid}/actions", headers=bearer(created["tokens"][side]),
                        json={"type": "move", "unit": mover, "waypoints": [[unit.x, unit.y + ahead]]})
    assert moved.status_code == 200, moved.text
    assert not service(client).live(gid).steps[-1].rolls  # a move rolls no die
    return dict(moved.json()["status"])


@pytest.mark.parametrize("secret_deployment", [True, False])
def test_no_undo_while_an_enemy_piece_is_hidden(client: TestClient, secret_deployment: bool) -> None:
    """A side that could take back a move after seeing whether it placed a hidden enemy
    piece would probe for it: while its view shows an enemy piece hidden, no move is
    taken back. Unrevealed officers' values alone do not close it (only a die shows one)."""
    if secret_deployment:
        created = deployed_game(client, "royalist", 0)
    else:
        created = create(client, scenario="edgehill", rules=RULES, mode="hotseat", seed=7,
                         options={"secret_deployment": False})
    side = service(client).live(created["id"]).state.to_act
    assert side == "parliament"
    status = _a_step_forward(client, created, side)
    assert status["can_undo"] is (not secret_deployment)
    undo = client.post(f"/api/games/{created['id']}/undo", headers=bearer(created["tokens"][side]))
    assert undo.status_code == (409 if secret_deployment else 200), undo.text


def test_a_revealed_value_reaches_the_enemy(client: TestClient) -> None:
    """An officer whose value was read for a roll the enemy saw (his tertia's command
    response) shows it to the enemy, in its view and its log; one not yet called on does
    not."""
    created = create(client, scenario="edgehill", rules=RULES, mode="hotseat", seed=7,
                         options={"secret_deployment": False})
    gid = created["id"]
    live = service(client).live(gid)
    for _ in range(6):
        revealed = [u for u in live.state.units.values() if unit_data(u).is_officer
                    and unit_data(u).grade is not None and not unit_data(u).grade_secret
                    and any(isinstance(e, secret_grades.GradeRevealed) and e.officer == u.id
                            for s in [live.start_events, *(st.events for st in live.steps)] for e in s)]
        if revealed:
            break
        _a_step_forward(client, created, live.state.to_act)
        client.post(f"/api/games/{gid}/actions", headers=bearer(created["tokens"][live.state.to_act]),
                    json={"type": "end_phase"})
    officer = revealed[0]
    enemy = _other(officer.side)
    view = client.get(f"/api/games/{gid}/view", headers=bearer(created["tokens"][enemy])).json()
    shown = next(u for u in view["state"]["units"] if u["id"] == officer.id)
    assert shown["own"]["grade"] == unit_data(officer).grade
    lines = [line["text"] for entry in view["log"] for line in entry["lines"]]
    value = unit_data(officer).grade.replace("_", " ")
    assert any(officer.label in t and value in t.lower() for t in lines), lines
    still = unrevealed(live.state, enemy)
    assert still  # and those not called on stay hidden
    assert all(next(u for u in view["state"]["units"] if u["id"] == oid)["own"]["grade"] != grade
               for oid, grade in still.items())
    # The officers' cards in the enemy's view say the same: the value shown, or not yet.
    card = next(f for f in view["pieces"][officer.id]["facts"] if f["key"] == "grade")
    assert _reads_grade(card, str(unit_data(officer).grade))
    for oid in still:
        card = next(f for f in view["pieces"][oid]["facts"] if f["key"] == "grade")
        assert card["value"] == "not yet shown"


# --- the difference test along a stretch of play ------------------------------------------------

UNSEEN_STEP = (-1.0, 0.5)
"""How far the hidden battery moves within its town, unseen, in both games."""


def _post(c: TestClient, created: dict[str, Any], action: dict[str, Any]) -> None:
    side = service(c).live(created["id"]).state.to_act
    done = c.post(f"/api/games/{created['id']}/actions", headers=bearer(created["tokens"][side]), json=action)
    assert done.status_code == 200, done.text


def _passing(state: GameState, tertia: str | None = None) -> dict[str, Any]:
    """The action that lets play go on: the free move given (to ``tertia`` if it may take
    it), else the side's phase or orders ended."""
    pending = state.pending
    if pending is not None and pending.kind == "cyp_free_move":
        tertias = list(pending.context["tertias"])
        return {"type": "cyp_give_free_move", "tertia": tertia if tertia in tertias else tertias[0]}
    return {"type": "end_phase"}


def _play_on(c: TestClient, games: list[dict[str, Any]], until: Any, tertia: str | None = None) -> None:
    """Let play go on alike in ``games`` until ``until(state)`` holds in the first."""
    for _ in range(80):
        state = service(c).live(games[0]["id"]).state
        if until(state):
            return
        for created in games:
            _post(c, created, _passing(service(c).live(created["id"]).state, tertia))
    raise AssertionError("play did not come to the moment looked for")


def _moving(piece: str) -> Any:
    from tertia.rulesets.charge_yr_pikes.values import game_data

    return lambda state: piece in game_data(state).moving and state.to_act == state.units[piece].side


def _told(c: TestClient, games: list[dict[str, Any]], viewer: str, piece: str,
          places: list[tuple[float, float]]) -> list[str]:
    """The answers that differ between what ``viewer``'s token is told of the two games."""
    told = [everything(c, g, viewer, piece, places) for g in games]
    assert told[0].keys() == told[1].keys()
    return [k for k in told[0] if _same_game(told[0][k], games[0]) != _same_game(told[1][k], games[1])]


@pytest.mark.parametrize(("hider", "seed"), [("royalist", 7), ("parliament", 3)])
def test_what_a_side_cannot_see_changes_nothing_it_is_told_along_play(client: TestClient, hider: str,
                                                                      seed: int) -> None:
    """Two games whose hidden battery was deployed at two places in the town, compared at
    every endpoint at several moments: after the hider moves the battery unseen (each from
    where it stands), after the enemy moves, and after the turn's fire steps. (Officers'
    values are left alike: one shown to the enemy by a command response would part the
    games, as it should; the rule set's difference tests give the games his value then.)"""
    viewer = _other(hider)
    piece, places = HIDER[hider]
    games = [deployed_game(client, hider, i, seed) for i in (0, 1)]
    lives = [service(client).live(g["id"]) for g in games]
    moments = 0
    # The hider's battery moves within its town, unseen, from its two places.
    _play_on(client, games, _moving(piece))
    for created, live in zip(games, lives, strict=True):
        gun = live.state.units[piece]
        _post(client, created, {"type": "move", "unit": piece,
                                "waypoints": [[gun.x + UNSEEN_STEP[0], gun.y + UNSEEN_STEP[1]]]})
    assert concealment.hidden_from(lives[0].state, viewer) == [piece]
    assert lives[0].state.units[piece].x != lives[1].state.units[piece].x
    differ = _told(client, games, viewer, piece, places)
    assert differ == [], differ
    moments += 1
    # The enemy moves a unit of its own.
    _play_on(client, games,
             lambda s: s.to_act == viewer and _own_mover(client, games[0]["id"], viewer) is not None)
    for created in games:
        _a_step_forward(client, created, viewer)
    differ = _told(client, games, viewer, piece, places)
    assert differ == [], differ
    moments += 1
    # The turn's fire steps are worked out.
    from tertia.rulesets.charge_yr_pikes.phases import FIRE_STEPS

    _play_on(client, games, lambda s: s.phase in FIRE_STEPS)
    _play_on(client, games, lambda s: s.phase not in FIRE_STEPS)
    assert concealment.hidden_from(lives[0].state, viewer) == [piece]
    differ = _told(client, games, viewer, piece, places)
    assert differ == [], differ
    moments += 1
    # The hider sees the difference: the comparison can fail.
    views = [client.get(f"/api/games/{g['id']}/view", headers=bearer(g["tokens"][hider])).text for g in games]
    assert _same_game(views[0], games[0]) != _same_game(views[1], games[1])
    assert moments == 3


# --- a hidden piece revealed by moving into sight ------------------------------------------------

HORSE, IN_RADWAY = "r-lifeguard-horse", (22.5, 41.0)
"""A royalist regiment of horse deployed into Radway, where Parliament cannot see it."""


@pytest.mark.parametrize(("where", "seen"), [((21.0, 41.5), False), ((22.5, 35.0), True)])
def test_a_hidden_piece_moving_into_sight_is_placed_where_it_stands(client: TestClient,
                                                                    where: tuple[float, float],
                                                                    seen: bool) -> None:
    """The horse moves on its card, posted to the API: out of Radway into the open
    (Parliament sees it at once) or within the town (Parliament sees nothing)."""
    created = create(client, scenario="edgehill", rules=RULES, mode="hotseat", seed=7,
                     options={"secret_deployment": True})
    gid, url = created["id"], f"/api/games/{created['id']}"
    royal, parl = bearer(created["tokens"]["royalist"]), bearer(created["tokens"]["parliament"])
    _post(client, created, {"type": "cyp_deployment_done"})
    _post(client, created, {"type": "cyp_deploy", "unit": HORSE, "x": IN_RADWAY[0], "y": IN_RADWAY[1]})
    _post(client, created, {"type": "cyp_deployment_done"})
    live = service(client).live(gid)
    _play_on(client, [created], _moving(HORSE), tertia=live.state.units[HORSE].command)
    label = live.state.units[HORSE].label

    def parliament_told() -> tuple[dict[str, Any], list[list[str]]]:
        view = client.get(f"{url}/view?log_from=0", headers=parl).json()
        shown = next(u for u in view["state"]["units"] if u["id"] == HORSE)
        return shown, [[line["text"] for line in entry["lines"]] for entry in view["log"]]

    shown, log = parliament_told()
    assert shown.get("removed") == concealment.UNPLACED
    assert not any(label in line for lines in log for line in lines)  # nothing showed it before
    assert client.get(f"{url}/units/{HORSE}", headers=parl).status_code == 404
    moved = client.post(f"{url}/actions", headers=royal,
                        json={"type": "move", "unit": HORSE, "waypoints": [list(where)]})
    assert moved.status_code == 200, moved.text
    true = live.state.units[HORSE]
    assert (true.x, true.y) == where
    shown, after = parliament_told()
    assert after[:len(log)] == log  # what it was told before stands
    if seen:
        assert (shown["x"], shown["y"], shown["facing"]) == (true.x, true.y, true.facing)
        assert shown.get("removed") is None
        placed = f"{label} is placed on the table: it comes into sight of Parliament"
        assert any(placed in line for line in after[-1])
        report = client.get(f"{url}/units/{HORSE}", headers=parl)
        assert report.status_code == 200 and report.json()["report"]["id"] == HORSE
    else:
        assert shown.get("removed") == concealment.UNPLACED and (shown["x"], shown["y"]) == (0.0, 0.0)
        assert not any(label in line for lines in after for line in lines)
        assert client.get(f"{url}/units/{HORSE}", headers=parl).status_code == 404
    # The royalists see their horse where it stands either way.
    own = client.get(f"{url}/view", headers=royal).json()
    mine = next(u for u in own["state"]["units"] if u["id"] == HORSE)
    assert (mine["x"], mine["y"]) == where
