"""Questions of odds through the HTTP API (``POST /api/games/{id}/question``), answered
from the asking side's observation alone.

Charge yr Pikes! hides the values of the enemy's officers not yet called on (section 22)
and, with ``secret_deployment``, the enemy's pieces not yet seen. A side asking the odds
of its unit's fire, charge or morale test is told the rule set's odds worked out on its
own observation: an unrevealed officer's value rolled on his rank's line where it is read
(so averaged over it), a hidden piece not on the table, and naming a hidden piece
answered exactly as naming an id that does not exist.

- The answer equals the rule set's odds on the asker's observation, and the averaged
  chance is the mean over the rank's line of the chances under each value.
- Two games that differ only in an unrevealed value (or in where a hidden piece stands)
  give the asker byte-identical answers, though the true odds differ.
- Bad questions are refused in one line, never with a 500.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tertia.analysis.odds import Odds, odds
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes import secret_grades
from tertia.rulesets.charge_yr_pikes.ruleset import tables_of
from tertia.rulesets.charge_yr_pikes.values import unit_data
from tertia.web import games
from tertia.web.app import create_app
from tests.test_web_cyp_secrets import deployed_game
from tests.web_support import bearer, create, service

RULES = "charge-yr-pikes"
ASKER, OWNER = "royalist", "parliament"
SHOOTER, TARGET, OFFICER = "r-york-foot", "p-fairfax-foot", "p-rainsborough"
"""At Naseby: a royalist regiment of foot set 3" in front of a parliament one, which a
parliament brigadier (his value unrevealed) leads."""
GAP = 3.0
IN, E, NBL = "ineffective", "effective", "natural_born_leader"
HIDER = "r-guns-right"  # the battery deployed_game hides in Radway
"""At Edgehill with secret deployment: a royalist battery deployed into Radway, where
Parliament sees it only from within 12", at one of two places."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "g.sqlite3")) as c:
        yield c


def _put(c: TestClient, gid: str, state: GameState) -> None:
    """Make ``state`` the game's position now (a position built for the test)."""
    live = service(c).live(gid)
    with live.lock:
        live.states[-1] = state
        live._observed.clear()
        live._hides.clear()


def facing_game(c: TestClient, grade: str, *, morale: int | None = 2) -> dict[str, Any]:
    """A hotseat Naseby game (no secret deployment) with the royalist foot 3" in front of
    the parliament foot, the parliament brigadier of value ``grade`` leading it, his value
    not yet shown to the royalists; the parliament foot's morale ``morale``."""
    created = create(c, scenario="naseby", rules=RULES, mode="hotseat", seed=7,
                     options={"secret_deployment": False})
    state = service(c).live(created["id"]).state
    enemy = state.units[TARGET]
    if morale is not None:
        enemy = enemy.evolve(own=unit_data(enemy).evolve(morale=morale, morale_max=morale))
    foot = state.units[SHOOTER]
    foot = foot.evolve(x=enemy.x, y=enemy.y + enemy.depth / 2 + foot.depth / 2 + GAP, facing=180.0)
    officer = state.units[OFFICER]
    officer = officer.evolve(x=enemy.x, y=enemy.y, own=unit_data(officer).evolve(
        attached_to=TARGET, grade=grade, grade_secret=True))
    _put(c, created["id"], state.with_unit(enemy).with_unit(foot).with_unit(officer))
    assert secret_grades.is_secret_from(service(c).live(created["id"]).state.units[OFFICER], ASKER)
    return created


def ask(c: TestClient, created: dict[str, Any], side: str, body: Any) -> Any:
    return c.post(f"/api/games/{created['id']}/question", headers=bearer(created["tokens"][side]), json=body)


def engine_odds(game: Game, state: GameState, word: str, attacker: str, target: str) -> Odds:
    ready, question = game.ruleset.query(state, word, attacker, target)
    return odds(game, ready, question)


def _as_json(answer: Odds, side: str) -> dict[str, Any]:
    return dict(json.loads(json.dumps({**answer.to_dict(), "side": side})))


# --- the answer is the rule set's, on the asker's observation ---------------------------------


def test_the_answer_is_the_rule_sets_odds_on_the_askers_observation(client: TestClient) -> None:
    created = facing_game(client, IN)
    live = service(client).live(created["id"])
    game, state = live.game, live.state
    view = game.observed_state(state, ASKER)
    for word in ("fire", "morale"):
        answer = ask(client, created, ASKER, {"question": word, "attacker": SHOOTER, "target": TARGET})
        assert answer.status_code == 200, answer.text
        assert answer.json() == _as_json(engine_odds(game, view, word, SHOOTER, TARGET), ASKER)
    # ... which is not the true position's: the brigadier is ineffective, and the asker has
    # not seen it.
    answer = ask(client, created, ASKER, {"question": "fire", "attacker": SHOOTER, "target": TARGET})
    true = engine_odds(game, state, "fire", SHOOTER, TARGET)
    assert answer.json() != _as_json(true, ASKER)
    assert answer.json()["summary"]["target_passed"] > float(true.summary["target_passed_exact"])


def test_the_unrevealed_value_is_averaged_over_his_ranks_line(client: TestClient) -> None:
    # Section 22: the brigadier's value is rolled on the brigadier line; the odds the
    # enemy is told are the mean, over the line's six faces, of the odds under each value.
    created = facing_game(client, IN)
    live = service(client).live(created["id"])
    game, state = live.game, live.state
    answer = ask(client, created, ASKER, {"question": "fire", "attacker": SHOOTER, "target": TARGET}).json()
    line = tables_of(state).officer_grades["brigadier"]
    officer = state.units[OFFICER]

    def passed(grade: str) -> Fraction:
        graded = state.with_unit(officer.evolve(own=unit_data(officer).evolve(grade=grade)))
        return Fraction(engine_odds(game, graded, "fire", SHOOTER, TARGET).summary["target_passed_exact"])

    by_grade = {g: passed(g) for g in set(line)}
    assert len(set(by_grade.values())) == 3  # each value changes the target's test
    mean = sum((by_grade[g] for g in line), Fraction(0)) / len(line)
    assert answer["summary"]["target_passed"] == float(mean)
    assert answer["summary"]["target_passed"] != float(by_grade[IN])
    assert any("proves to be" in o["description"] for o in answer["outcomes"])


def test_two_games_differing_only_in_an_unrevealed_value_give_the_enemy_the_same_odds(
        client: TestClient) -> None:
    """The difference test on the odds: an ineffective and a natural born brigadier."""
    games_ = {grade: facing_game(client, grade) for grade in (IN, NBL)}
    bodies = [{"question": "fire", "attacker": SHOOTER, "target": TARGET},
              {"question": "morale", "attacker": SHOOTER, "target": TARGET},
              {"question": "morale", "attacker": SHOOTER},
              {"attacker": SHOOTER, "target": TARGET},
              {"question": "fire", "attacker": SHOOTER, "target": OFFICER}]
    told = {grade: [ask(client, g, ASKER, b).text for b in bodies] for grade, g in games_.items()}
    assert told[IN] == told[NBL]
    assert all('"outcomes"' in t for t in told[IN][:4])
    assert '"NOT_FOUND"' not in told[IN][4]  # an officer, no target of fire: the rules say so
    # The games do differ where it shows: in the true odds, and to the brigadier's own side.
    truth = {grade: engine_odds(service(client).live(g["id"]).game, service(client).live(g["id"]).state,
                                "fire", SHOOTER, TARGET).summary["target_passed_exact"]
             for grade, g in games_.items()}
    assert truth[IN] != truth[NBL]
    own = {grade: ask(client, g, OWNER, {"question": "morale", "attacker": TARGET, "target": SHOOTER}).text
           for grade, g in games_.items()}
    assert own[IN] != own[NBL]


def test_the_owner_is_told_the_odds_with_its_own_officers_value(client: TestClient) -> None:
    created = facing_game(client, NBL)
    live = service(client).live(created["id"])
    answer = ask(client, created, OWNER, {"question": "morale", "attacker": TARGET, "target": SHOOTER})
    assert answer.status_code == 200, answer.text
    true = engine_odds(live.game, live.state, "morale", TARGET, SHOOTER)
    assert answer.json() == _as_json(true, OWNER)
    assert not any("proves to be" in o["description"] for o in answer.json()["outcomes"])


# --- hidden pieces ------------------------------------------------------------------------------


def hidden_game(c: TestClient, place: int) -> dict[str, Any]:
    """Edgehill with secret deployment, the royalist battery deployed in Radway at place
    number ``place``, both sides done: the battle's first card."""
    return deployed_game(c, ASKER, place)


def _pieces(c: TestClient, created: dict[str, Any]) -> tuple[str, str]:
    """A parliament regiment of foot, its morale rating made 3 (a failed test falls back,
    never routs: its odds are quick to walk), and the royalist foot nearest it that it sees."""
    state = service(c).live(created["id"]).state
    mine = next(u for u in state.iter_units(OWNER) if unit_data(u).troop == "foot")
    _put(c, created["id"], state.with_unit(mine.evolve(own=unit_data(mine).evolve(morale=3, morale_max=3))))
    seen = [u for u in state.iter_units(ASKER) if unit_data(u).troop == "foot" and unit_data(u).placed]
    near = min(seen, key=lambda u: (u.x - mine.x) ** 2 + (u.y - mine.y) ** 2)
    return mine.id, near.id


def _unknown(text: str, uid: str) -> str:
    return text.replace(repr(uid), "<unit>")


def test_a_hidden_piece_is_answered_as_an_unknown_unit(client: TestClient) -> None:
    created = hidden_game(client, 0)
    mine, _ = _pieces(client, created)
    for role in ("target", "attacker"):
        found = {}
        for uid in (HIDER, "r-nobody"):
            body = {"question": "fire", "attacker": mine, "target": uid} if role == "target" else \
                {"question": "morale", "attacker": uid, "target": mine}
            r = ask(client, created, OWNER, body)
            found[uid] = (r.status_code, _unknown(r.text, uid))
        assert found[HIDER] == found["r-nobody"]
        assert found[HIDER][0] == 404 and '"NOT_FOUND"' in found[HIDER][1]
    # The battery's own side sees it, and asks of it like any other piece (its rating made
    # 9: it passes, and no rout's tests are walked).
    state = service(client).live(created["id"]).state
    gun = state.units[HIDER]
    gun = gun.evolve(own=unit_data(gun).evolve(morale=9, morale_max=9))
    _put(client, created["id"], state.with_unit(gun))
    r = ask(client, created, ASKER, {"question": "morale", "attacker": HIDER})
    assert r.status_code == 200, r.text


def test_where_a_hidden_piece_stands_changes_no_answer_to_the_enemy(client: TestClient) -> None:
    first, second = hidden_game(client, 0), hidden_game(client, 1)
    one, two = service(client).live(first["id"]), service(client).live(second["id"])
    assert one.state.units[HIDER].x != two.state.units[HIDER].x
    mine, theirs = _pieces(client, first)
    assert _pieces(client, second) == (mine, theirs)
    bodies = [{"question": "morale", "attacker": mine, "target": theirs},
              {"question": "morale", "attacker": mine},
              {"question": "fire", "attacker": mine, "target": theirs},
              *({"question": w, "attacker": mine, "target": HIDER} for w in ("fire", "charge", "morale")),
              {"question": "morale", "attacker": HIDER, "target": mine}]
    told = [[ask(client, g, OWNER, b) for b in bodies] for g in (first, second)]
    assert [(r.status_code, r.text) for r in told[0]] == [(r.status_code, r.text) for r in told[1]]
    assert [r.status_code for r in told[0]] == [200, 200, 409, 404, 404, 404, 404]
    seen = engine_odds(one.game, one.game.observed_state(one.state, OWNER), "morale", mine, theirs)
    assert told[0][0].json() == _as_json(seen, OWNER)  # answered on the observation


# --- refusals -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"question": "volley", "attacker": SHOOTER, "target": TARGET}, 422, "UNKNOWN_WORD"),
    ({"question": "fire", "target": TARGET}, 422, "BAD_REQUEST"),
    ({"question": "fire", "attacker": 3, "target": TARGET}, 422, "BAD_REQUEST"),
    ({"question": "fire", "attacker": SHOOTER, "target": TARGET, "supports": []}, 422, "BAD_REQUEST"),
    ({"question": "fire", "attacker": SHOOTER, "target": TARGET, "details": {"supports": ["r-page-foot"]}},
     422, "BAD_DETAIL"),
    ({"question": "fire", "attacker": SHOOTER, "target": TARGET, "details": {"x": {"y": 1}}}, 422,
     "BAD_REQUEST"),
    ([SHOOTER, TARGET], 422, "BAD_REQUEST"),
    ({"question": "fire", "attacker": TARGET, "target": SHOOTER}, 409, "core.NOT_YOUR_UNIT"),
    ({"question": "fire", "attacker": SHOOTER, "target": "nobody"}, 404, "NOT_FOUND"),
    ({"question": "ball", "attacker": SHOOTER, "target": TARGET}, 409, "core.CANNOT_ACT"),
    ({"question": "fire", "attacker": SHOOTER, "target": "p-whalley-horse"}, 409,
     "charge-yr-pikes.fire.OUT_OF_ARC"),
    ({"question": "morale", "attacker": "r-king"}, 409, "core.CANNOT_ACT"),
])
def test_a_bad_question_is_refused_in_one_line(client: TestClient, body: Any, status: int, code: str) -> None:
    created = facing_game(client, IN)
    r = ask(client, created, ASKER, body)
    assert r.status_code == status, r.text
    refusal = r.json()
    assert refusal["code"] == code and refusal["message"] and "\n" not in refusal["message"]


def test_a_body_that_is_not_json_and_a_missing_token_are_refused(client: TestClient) -> None:
    created = facing_game(client, IN)
    url = f"/api/games/{created['id']}/question"
    r = client.post(url, headers={**bearer(created["tokens"][ASKER]), "Content-Type": "application/json"},
                    content=b"{fire")
    assert r.status_code == 422 and "\n" not in r.json()["message"]
    assert client.post(url, json={"attacker": SHOOTER}).status_code == 401


def test_too_many_branches_for_the_work_allowed_are_refused_in_one_line(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    created = facing_game(client, IN, morale=None)
    monkeypatch.setattr(games, "ODDS_BUDGET", 1)
    r = ask(client, created, ASKER, {"question": "charge", "attacker": SHOOTER, "target": TARGET})
    assert r.status_code == 422, r.text
    refusal = r.json()
    assert refusal["code"] == "TOO_MANY_BRANCHES"
    assert "more work than a question may cost" in refusal["message"]
    assert "\n" not in refusal["message"]


# --- the words, the schema, the other rule sets ----------------------------------------------------


def test_the_rules_description_offers_the_words(client: TestClient) -> None:
    from tertia.rulesets.charge_yr_pikes.odds import WORDS

    described = client.get(f"/api/rules/{RULES}").json()["questions"]
    assert described == {"words": list(WORDS), "gun_words": ["ball", "canister"], "not_for_guns": [],
                         "alone_words": ["morale"], "details": {}}
    listed = {r["id"]: r["questions"] for r in client.get("/api/catalogue").json()["rules"]}
    assert listed[RULES] == described
    assert listed["larger-battles"]["details"].keys() == {"supports", "commander", "defender_commander"}


def test_the_openapi_schema_shows_the_question(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    post = schema["paths"]["/api/games/{game_id}/question"]["post"]
    ref = post["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    fields = schema["components"]["schemas"][ref]
    assert set(fields["properties"]) == {"question", "attacker", "target", "details"}
    assert fields["required"] == ["attacker"]


def test_another_rule_sets_words_are_answered_the_same_way(client: TestClient) -> None:
    # Declare Thee Sir hides nothing: the answer is its odds on the position itself.
    created = create(client, scenario="edgehill", rules="declare-thee-sir", mode="hotseat", seed=7)
    live = service(client).live(created["id"])
    side = live.state.to_act
    mine = next(u for u in live.state.iter_units(side) if not u.is_commander)
    enemy = min((u for u in live.state.iter_units(live.state.opponent(side)) if not u.is_commander),
                key=lambda u: (u.x - mine.x) ** 2 + (u.y - mine.y) ** 2)
    r = ask(client, created, side, {"question": "fire", "attacker": mine.id, "target": enemy.id})
    assert r.status_code == 200, r.text
    assert r.json() == _as_json(engine_odds(live.game, live.state, "fire", mine.id, enemy.id), side)
    assert ask(client, created, side, {"question": "ball", "attacker": mine.id, "target": enemy.id}).json()[
        "code"] == "UNKNOWN_WORD"


def test_a_question_asked_of_an_enemy_unit_names_its_side_as_the_game_does(client: TestClient) -> None:
    """Asking the odds of an enemy unit is refused naming the side it belongs to as the game
    names it, never by its id."""
    created = facing_game(client, IN)
    names = {s["id"]: s["name"] for s in client.get(f"/api/games/{created['id']}", headers=bearer(
        created["tokens"][ASKER])).json()["game"]["sides"]}
    r = ask(client, created, ASKER, {"question": "fire", "attacker": TARGET, "target": SHOOTER})
    assert r.status_code == 409 and r.json()["code"] == "core.NOT_YOUR_UNIT", r.text
    message = r.json()["message"]
    assert names[OWNER] != OWNER and f"belongs to {names[OWNER]}:" in message, message
    assert f"belongs to {OWNER}" not in message
