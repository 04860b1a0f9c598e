"""Exact odds under Declare Thee Sir: a volley and a charge asked about in a position as it
stands, their distributions against hand counts and a seeded sample of the engine, and
the refusal of an action whose routs have too many branches to list."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tertia.analysis.enumerate import TooManyBranches
from tertia.analysis.odds import Odds, chance_outcomes, odds
from tertia.cli.main import app
from tertia.cli.prompt_player import odds_lines
from tertia.core.actions import Action
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.narration import percent
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rules.morale import morale_of
from tertia.rulesets.declare_thee_sir.events import Charge, Fire
from tertia.rulesets.declare_thee_sir.odds import describe
from tertia.rulesets.declare_thee_sir.ruleset import DeclareTheeSir
from tertia.rulesets.declare_thee_sir.values import game_data
from tertia.scenarios.catalogue import load_named
from tertia.web import games as web_games
from tertia.web.app import create_app
from tests.web_support import bearer, create, service

from .dts_support import P, R, dts_game, unit

runner = CliRunner()
SAMPLES = 1500


def sixth(*weights: int) -> Fraction:
    """A 1D6 morale roll's chances: 1 = 1 point, 2-3 = 2, 4-5 = 3, 6 = 4."""
    return sum((Fraction(w, 6) for w in weights), Fraction(0))


def with_morale(state: GameState, **points: int) -> GameState:
    for uid, p in points.items():
        state = state.with_unit(state.units[uid].evolve(morale=p, morale_max=p))
    return state


def volley(target_points: int | None = 2, *, general: bool = False, **options: Any
           ) -> tuple[Game, GameState, Action]:
    """Foot facing north at (24, 10) and a regiment of foot 3" off (edge to edge) facing it:
    always in range (6" + 1D6), no modifier; the target's points given, or untested."""
    commanders = [{"id": "g", "side": R, "command": "centre", "x": 24, "y": 16}] if general else []
    table = {"generals": [{"commander": "g", "attached_to": "t"}]} if general else None
    game = dts_game([unit("f", P, "foot", 24, 10, 0), unit("t", R, "foot", 24, 14, 180)],
                    commanders=commanders, table=table, **options)
    state = with_morale(game.ruleset.initial_state(game.scenario), f=3)
    if target_points is not None:
        state = with_morale(state, t=target_points)
    ready, action = game.ruleset.query(state, "fire", "f", "t")
    return game, ready, action


def charge(y: float = 14, **options: Any) -> tuple[Game, GameState, Action]:
    """Foot of excellent morale (3 points) at (24, ``y``) facing a body of commanded shot
    (one stand, good: 2 points) 3" off, front to front: no modifier, nobody behind the
    target."""
    game = dts_game([unit("a", P, "foot", 24, y, 0), unit("t", R, "commanded_shot", 24, y + 4, 180)],
                    **options)
    state = with_morale(game.ruleset.initial_state(game.scenario), a=3, t=2)
    ready, action = game.ruleset.query(state, "charge", "a", "t")
    return game, ready, action


@functools.cache
def charge_odds() -> Odds:
    """The odds of :func:`charge`, worked out once for the tests that read them (on one
    worker: :data:`READS_CHARGE_ODDS`)."""
    return odds(*charge())


READS_CHARGE_ODDS = pytest.mark.xdist_group("dts-charge-odds")
"""The tests reading :func:`charge_odds`, kept on one worker (``--dist loadgroup``)."""


def exact(game: Game, state: GameState, action: Action, key: str) -> Any:
    return odds(game, state, action).summary[f"{key}_exact"]


# --- readying the position --------------------------------------------------------------------


def test_a_volley_is_asked_with_the_card_drawn_and_stand_and_fire_declared() -> None:
    game, ready, action = volley()
    own = game_data(ready)
    assert action == Fire(unit="f", target="t")
    assert (own.activated, own.declared, own.volleys, ready.pending, ready.to_act) == (
        "f", "stand_and_fire", 2, None, P)
    assert game.validate(ready, action) == []


def test_a_charge_is_asked_under_advance_with_the_most_the_move_dice_give() -> None:
    """Movement: foot move 1D6, so the best roll is 6" (2" through difficult ground)."""
    game, ready, action = charge()
    own = game_data(ready)
    assert action == Charge(unit="a", target="t")
    assert (own.declared, dict(own.allowance or {}), own.moved) == ("advance", {"open": 6, "difficult": 2},
                                                                      False)
    assert game.validate(ready, action) == []


def test_a_unit_already_activated_under_its_option_keeps_its_rolled_move() -> None:
    game, ready, _ = charge()
    rolled = ready.evolve(own=game_data(ready).evolve(allowance={"open": 4, "difficult": 2}))
    again, _ = game.ruleset.query(rolled, None, "a", "t")
    assert game_data(again).allowance == {"open": 4, "difficult": 2}


@pytest.mark.parametrize(("word", "attacker", "needle"), [
    ("shoot", "f", "no action 'shoot'"), ("fire", "nobody", "there is no unit 'nobody'")])
def test_unknown_words_and_units_are_refused_by_name(word: str, attacker: str, needle: str) -> None:
    game, ready, _ = volley()
    with pytest.raises(IllegalAction, match=needle):
        game.ruleset.query(ready, word, attacker, "t")
    with pytest.raises(IllegalAction, match="takes no 'supports'"):
        game.ruleset.query(ready, "fire", "f", "t", {"supports": ("x",)})


# --- a volley ---------------------------------------------------------------------------------


def test_a_volley_at_a_good_target_by_hand() -> None:
    """Fire c: 2D6, doubles or a 7 take a point: 6 + 6 = 12 of the 36 throws. Then the sum
    on the chart for the target's level after it: a good target (2 points) left at 1 is
    still good, and ROUTs on 11+: of the 12, only 6-6; of the 24 others, 5-6 and 6-5. So
    one point on 11 + 2 = 13 throws, two on 1 (6-6), none on 22."""
    game, state, action = volley(2)
    lost = exact(game, state, action, "target_morale_lost")
    assert lost == {"0": Fraction(22, 36), "1": Fraction(13, 36), "2": Fraction(1, 36)}
    result = odds(game, state, action)
    assert result.summary["target_broken_exact"] == 0 and result.summary["general_killed_exact"] == 0
    assert sum((o.probability for o in result.outcomes), Fraction(0)) == 1


def test_the_untested_targets_morale_is_a_chance_node_of_the_volley() -> None:
    """Morale: an untested target's points are rolled when it is first fired upon (1D6:
    1 = 1, 2-3 = 2, 4-5 = 3, 6 = 4). By hand, the points lost for each:

    - 1 point (good): doubles or a 7 (12) take it; else 11 ROUTs (2): one point 14/36;
    - 2 points (good): 22/36 none, 13/36 one, 1/36 two (as above);
    - 3 or 4 points (excellent): doubles or a 7 (12) take one, and only 6-6 of them reads
      a ROUT at the level left; the excellent column ROUTs on 12 alone, a double: none
      24/36, one 11/36, two 1/36.

    None: (22 + 2*22 + 2*24 + 24) / 216 = 138/216; two: (2*1 + 2*1 + 1) / 216 = 5/216."""
    game, state, action = volley(None)
    lost = exact(game, state, action, "target_morale_lost")
    assert lost == {"0": Fraction(138, 216), "1": Fraction(73, 216), "2": Fraction(5, 216)}
    assert lost["0"] == sixth(1, 2) * Fraction(22, 36) + sixth(2, 1) * Fraction(24, 36)
    shown = odds(game, state, action).outcomes
    assert any("proves to have 4 morale points" in o.description for o in shown)


@pytest.mark.parametrize("reading", ["while_attached", "first_roll"])
def test_an_untested_targets_general_adds_his_point_to_those_first_rolled(reading: str) -> None:
    """Morale: with a general attached the target's die gives one point more (up to 4):
    2 points on a 1 (good), else 3 or 4 (excellent). The points lost are counted from
    those, his among them, whichever way his point is kept (option ``general_point``), and
    a general killed by fire was the point lost: nothing more. By the volley's hand counts
    (above): none (22 + 5*24) / 216, one (13 + 5*11) / 216, two (1 + 5*1) / 216."""
    game, state, action = volley(None, general=True, general_point=reading)
    lost = exact(game, state, action, "target_morale_lost")
    assert lost == {"0": Fraction(142, 216), "1": Fraction(68, 216), "2": Fraction(6, 216)}


def test_a_general_with_the_target_falls_on_a_one_when_the_volley_takes_a_point() -> None:
    """Fire d: one D6 when the volley took any point (14/36 at a good target); a 1 kills
    the general: 14/36 * 1/6 = 7/108. He is a commander lost too."""
    game, state, action = volley(2, general=True)
    result = odds(game, state, action)
    assert result.summary["general_killed_exact"] == Fraction(7, 108)
    assert result.summary["commander_lost_exact"] == Fraction(7, 108)
    assert any("is killed" in o.description for o in result.outcomes)


# --- a charge ---------------------------------------------------------------------------------

CLOSES = Fraction(5, 6)
"""Melee a: excellent morale closes on 2+."""


def two_dice(total: int) -> Fraction:
    return Fraction(6 - abs(total - 7), 36)


@READS_CHARGE_ODDS
def test_a_charge_by_hand() -> None:
    """Melee a-d. The attacker closes on 2+ (5/6); failing, nothing more happens. It rolls
    2D6 against a good target (HOLD to 6, PB1D6 7-8, PB2D6 9-10, ROUT 11+):

    - the target loses a point on a 7 (6 throws) and on a ROUT (3): 9/36; it is broken on
      the ROUTs alone (it had 2 points, so it is never caught at poor): 3/36;
    - the attacker loses one for doubles and one for a HOLD: two on 1-1, 2-2, 3-3 (3),
      one on the other doubles (3) and on the 12 other throws of 6 or less: 15/36;
    - the push-back: 1D6 on 7-8 (11 throws), 2D6 on 9-10 (7 throws), straight back over
      open ground, so k inches on 11/36 * 1/6 (k up to 6) + 7/36 * P(2D6 = k)."""
    s = charge_odds().summary
    assert s["target_morale_lost_exact"] == {"0": 1 - CLOSES * Fraction(9, 36), "1": CLOSES * Fraction(9, 36)}
    assert s["attacker_morale_lost_exact"] == {"0": 1 - CLOSES + CLOSES * Fraction(18, 36),
                                               "1": CLOSES * Fraction(15, 36), "2": CLOSES * Fraction(3, 36)}
    assert s["target_broken_exact"] == CLOSES * Fraction(3, 36)
    assert s["attacker_broken_exact"] == 0 and s["attacker_routed_exact"] == 0
    pushes = s["target_pushed_back_exact"]
    assert pushes["0"] == 1 - CLOSES * Fraction(18, 36)
    for k in range(1, 13):
        by_hand = CLOSES * (Fraction(11, 36) * Fraction(int(k <= 6), 6) + Fraction(7, 36) * two_dice(k))
        assert pushes[str(k)] == by_hand, k
    assert s["flag_captured_exact"] == 0  # the capture option is off


def test_a_capture_by_hand() -> None:
    """Optional Rules c: only 6-6 makes 12 (1/36); then the attacker's 2D6 must beat the
    target's 2D6 + its points after the fight (2, less the ROUT's point: 1). Two 2D6 differ
    by 2 or more one way in (1296 - 146 - 2*140) / 2 = 435 of 1296 (146 ties, 140 each way
    by one). With no general, the flag is taken. The fight is set against the target's
    table edge, so that the broken target flees off it whatever its 2D6 and is not pursued
    (else its flight and the pursuit are more branches than are walked)."""
    game, state, action = charge(30.5, capture=True)
    s = odds(game, state, action).summary
    assert s["flag_captured_exact"] == CLOSES * Fraction(1, 36) * Fraction(435, 1296)
    assert s["general_captured_exact"] == 0


# --- the engine agrees ------------------------------------------------------------------------


def agrees(successes: int, n: int, p: Fraction) -> bool:
    """Within 3.3 standard deviations of the exact expectation (about a 0.1% false alarm)."""
    sd = math.sqrt(n * float(p) * (1 - float(p)))
    return abs(successes - n * float(p)) <= 3.3 * max(sd, 1e-9)


def sample(game: Game, state: GameState, action: Action, predicate: Callable[[GameState], bool],
           seed: int = 5) -> int:
    dice = SeededDice(seed)
    return sum(bool(predicate(game.apply(state, action, dice)[0])) for _ in range(SAMPLES))


def test_a_seeded_sample_of_volleys_agrees_with_the_exact_odds() -> None:
    game, state, action = volley(None)
    exact_lost = exact(game, state, action, "target_morale_lost")

    def lost_one_or_more(s: GameState) -> bool:
        t = s.units["t"]
        return (morale_of(t) or 0) < (getattr(t.own, "morale_max", 0) or 0)

    assert agrees(sample(game, state, action, lost_one_or_more), SAMPLES, 1 - exact_lost["0"])


@READS_CHARGE_ODDS
def test_a_seeded_sample_of_charges_agrees_with_the_exact_odds() -> None:
    game, state, action = charge()
    result = charge_odds()
    broken = sample(game, state, action, lambda s: bool(getattr(s.units["t"].own, "routing", False)))
    assert agrees(broken, SAMPLES, result.summary["target_broken_exact"])
    def pushed_far(s: GameState) -> bool:
        t = s.units["t"]
        return t.in_play and not getattr(t.own, "routing", False) and t.y - 18 > 6.5

    far = sample(game, state, action, pushed_far, seed=6)
    assert agrees(far, SAMPLES, sum((p for k, p in result.summary["target_pushed_back_exact"].items()
                                     if float(k) > 6.5), Fraction(0)))


# --- the odds end with the action -------------------------------------------------------------


@READS_CHARGE_ODDS
def test_the_next_card_is_no_part_of_a_charges_odds() -> None:
    """The charge ends the activation and the next card is drawn (Game Play): with a deck
    of cards left the odds are the same, and no branch draws one."""
    game, state, action = charge()
    full = game_data(state).evolve(deck_left=tuple(f"unit:{u}" for u in ("a", "t", "a#2", "t#2")))
    dealt = odds(game, state.evolve(own=full), action)
    assert dealt.outcomes == charge_odds().outcomes


def test_a_rout_of_many_stands_is_refused_not_guessed() -> None:
    """A regiment of three stands broken in melee flees 2D6 a stand and is pursued: more
    branches than the enumerator walks. It says so."""
    game = dts_game([unit("a", P, "foot", 24, 14, 0), unit("t", R, "foot", 24, 18, 180)])
    state = with_morale(game.ruleset.initial_state(game.scenario), a=3, t=0)
    ready, action = game.ruleset.query(state, "charge", "a", "t")
    with pytest.raises(TooManyBranches):
        odds(game, ready, action, max_leaves=2000)
    with pytest.raises(TooManyBranches, match=r"more work than a question may cost") as refused:
        odds(game, ready, action, budget=50)
    assert refused.value.walked is not None and 0 < refused.value.walked < 1


def test_a_rout_of_many_stands_is_a_chance_node_refused_within_a_budget() -> None:
    """The same rout asked of ``chance_outcomes``, as a search asks it: refused within the
    budget rather than walked for minutes."""
    game = dts_game([unit("a", P, "foot", 24, 14, 0), unit("t", R, "foot", 24, 18, 180)])
    state = with_morale(game.ruleset.initial_state(game.scenario), a=3, t=0)
    ready, action = game.ruleset.query(state, "charge", "a", "t")
    with pytest.raises(TooManyBranches, match=r"more work than a question may cost"):
        chance_outcomes(game, ready, action, budget=50)


# --- the command line and the page ------------------------------------------------------------

EDGEHILL = str(Path(__file__).resolve().parent.parent / "tertia" / "scenarios" / "edgehill.toml")
GUN_SHOT = ["odds", EDGEHILL, "--rules", "declare-thee-sir", "--attacker", "p-guns-left",
            "--target", "r-rupert-horse"]


def test_tertia_odds_gives_a_volley_on_edgehill() -> None:
    """Parliament's left guns at Prince Rupert's horse, some 20" off: 18" + 1D6 reaches
    it on a 3 or more."""
    result = runner.invoke(app, [*GUN_SHOT, "--json"])
    assert result.exit_code == 0, result.output
    body = json.loads(result.output)
    s = body["summary"]
    assert body["rules"] == "declare-thee-sir" and body["action"]["type"] == "dts_fire"
    assert {"target_morale_lost", "target_pushed_back", "target_broken", "attacker_broken",
            "flag_captured", "general_captured", "general_killed"} <= set(s)
    assert sum(o["probability"] for o in body["outcomes"]) == pytest.approx(1)
    assert [m["key"] for m in body["measures"]][:2] == ["morale_lost", "pushed_back"]
    text = runner.invoke(app, GUN_SHOT)
    assert text.exit_code == 0 and "morale points lost on" in text.output


def test_tertia_odds_says_in_one_line_when_a_question_is_too_large() -> None:
    result = runner.invoke(app, ["odds", EDGEHILL, "--rules", "declare-thee-sir", "--attacker",
                                 "r-guns-right", "--target", "p-cessex-foot-2", "--budget", "100"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "no exact odds for this action: more work than a question may cost" in lines[0]
    assert "(--budget 100; a larger budget walks further, at more cost)" in lines[0]


def test_tertia_odds_shows_a_refusals_estimates_as_a_table_above_its_line() -> None:
    """In the terminal a refused question's chances are a table (each with the estimate,
    its interval and the bounds proved), the refusal still one error line beneath."""
    result = runner.invoke(app, ["odds", EDGEHILL, "--rules", "declare-thee-sir", "--attacker",
                                 "r-guns-right", "--target", "p-cessex-foot-2", "--budget", "2000"])
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("error: no exact odds for this action:")
    table = result.stdout
    assert "Not exact:" in table and "the rest estimated from" in table and "draws" in table
    for column in ("chance", "about", "95% interval", "proved between"):
        assert column in table
    assert "Charles Essex" in table and "broken" in table


def test_tertia_odds_json_tells_a_refusal_as_data_beside_its_line() -> None:
    """With --json a refused question also prints what its line tells, as data: the chance
    walked, the draws made from the rest, and each chance of each party with the bounds
    proved and the estimate and its interval, which lies within them."""
    result = runner.invoke(app, ["odds", EDGEHILL, "--rules", "declare-thee-sir", "--attacker",
                                 "r-guns-right", "--target", "p-cessex-foot-2", "--budget", "2000", "--json"])
    assert result.exit_code == 1
    told = json.loads(next(line for line in result.output.splitlines() if line.startswith("{")))
    assert told["exact"] is False and told["refused"].startswith("more work than a question may cost")
    assert 0 < told["walked"] < 1 and told["draws"] >= 50 and told["chances"]
    for chance in told["chances"]:
        assert chance["party"] in ("target", "attacker")
        assert chance["unit"] in ("r-guns-right", "p-cessex-foot-2")
        (proved_low, proved_high), (low, high) = chance["proved"], chance["interval"]
        assert proved_low - 1e-9 <= low <= chance["estimate"] <= high <= proved_high + 1e-9
        assert f"{chance['words']} {percent(chance['estimate'], 1)}" in told["refused"]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", watch_pace=0.0)) as c:
        yield c


def test_the_pages_odds_of_a_volley_and_a_refusal_too_large(client: TestClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the API: defer every unit drawn until parliament's left guns are, declare
    stand and fire, ask the odds of a volley (the engine's own), then ask again with no
    time to walk the branches: refused in one line."""
    created = create(client, mode="hotseat", scenario="edgehill", rules="declare-thee-sir")
    gid, tokens = created["id"], created["tokens"]
    live = service(client).live(gid)
    for _ in range(60):
        activated = game_data(live.state).activated
        if activated == "p-guns-left":
            break
        side = live.state.to_act
        answer = client.post(f"/api/games/{gid}/actions", headers=bearer(tokens[side]),
                             json={"type": "dts_declare", "unit": activated, "option": "defer"})
        assert answer.status_code == 200, answer.text
    assert game_data(live.state).activated == "p-guns-left"
    me = bearer(tokens[P])
    declared = client.post(f"/api/games/{gid}/actions", headers=me,
                           json={"type": "dts_declare", "unit": "p-guns-left", "option": "stand_and_fire"})
    assert declared.status_code == 200, declared.text
    shot = {"type": "dts_fire", "unit": "p-guns-left", "target": "r-rupert-horse"}
    body = client.post(f"/api/games/{gid}/odds", headers=me, json=shot).json()
    assert body == odds(live.game, live.state, Fire(unit="p-guns-left", target="r-rupert-horse")).to_dict()
    monkeypatch.setattr(web_games, "ODDS_BUDGET", 1)
    refused = client.post(f"/api/games/{gid}/odds", headers=me, json=shot)
    assert refused.status_code == 422 and refused.json()["code"] == "TOO_MANY_BRANCHES"
    assert "\n" not in refused.json()["message"]
    assert "the branches walked" in refused.json()["message"]  # what they prove, or that nothing showed
    told = refused.json()["told"]  # and the same as data, with no work left to draw from the rest
    assert told["draws"] == 0 and all("estimate" not in c and len(c["proved"]) == 2 for c in told["chances"])
    # Were anything hidden from the side, the bounds worked out on the whole position
    # would not be told.
    monkeypatch.setattr(web_games.LiveGame, "hides_anything", lambda self, side: True)
    secret = client.post(f"/api/games/{gid}/odds", headers=me, json=shot)
    assert secret.status_code == 422 and secret.json()["code"] == "TOO_MANY_BRANCHES"
    assert secret.json()["message"] == "this action has too many outcomes to list exactly"
    assert "told" not in secret.json()


def test_a_player_at_the_prompt_sees_the_chance_of_any_point_lost() -> None:
    """The odds shown before the dice at the command-line prompt: 14/36 (39%) that the good
    target loses any point (see the hand count above), in the rule set's own measure."""
    game, state, action = volley(2)
    lines = odds_lines(game, state, action)
    assert lines[0] == "  Odds: 39% chance of any morale points lost: t"
    assert not any("hit" in line for line in lines)


def test_a_player_at_the_prompt_sees_what_a_refused_question_proves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Odds too dear to walk within the budget are refused at the prompt in one line that
    gives what the branches walked prove, as the odds command and the page give it."""
    import tertia.cli.prompt_player as prompt

    game, state, action = volley(2)
    monkeypatch.setattr(prompt, "ODDS_BUDGET", 10)
    lines = odds_lines(game, state, action)
    assert len(lines) == 1 and lines[0].startswith("  (too many outcomes to list exactly: more work than")
    assert "the branches walked" in lines[0] or "none showed in the branches walked" in lines[0]


def test_a_player_at_the_prompt_sees_a_refused_questions_estimates(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the walked branches bound some chance, the prompt gives how much was walked
    exactly, then each chance about so much, with its interval and the bounds proved,
    each piece by its name."""
    import tertia.cli.prompt_player as prompt

    game = Game(DeclareTheeSir(), load_named("edgehill", rules_id="declare-thee-sir"))
    start = game.start(SeededDice(1))[0]
    state, action = game.ruleset.query(start, "fire", "r-guns-right", "p-cessex-foot-2", {})
    monkeypatch.setattr(prompt, "ODDS_BUDGET", 2000)
    lines = odds_lines(game, state, action)
    assert lines[0].startswith("  Not exact (too many outcomes): ") and "draws" in lines[0]
    name = state.units["p-cessex-foot-2"].label
    assert len(lines) > 1 and all(line.startswith("    about ") and "; proved " in line for line in lines[1:])
    assert any(name in line for line in lines[1:])


def test_an_outcome_is_told_by_the_units_names_and_the_points_they_prove_to_have() -> None:
    """The odds tell each outcome in the rule set's words: an untested unit "proves to have"
    its points (one point, or several), a unit loses or gains points with the level it is
    left at, each named as players know it; a unit gone from the state by its id."""
    game = dts_game([unit("pf", P, "foot", 20, 6), unit("rf", R, "foot", 20, 14, 180)])
    state = game.ruleset.initial_state(game.scenario)
    pf, rf = state.units["pf"].label, state.units["rf"].label
    assert describe(state, {"rf": {"morale_max": 1, "morale_lost": 1, "morale": 0}}) == (
        f"{rf} proves to have 1 morale point; {rf} loses 1 morale point (now 0, poor)")
    assert describe(state, {"rf": {"morale_max": 3, "morale_lost": 2, "morale": 1}}) == (
        f"{rf} proves to have 3 morale points; {rf} loses 2 morale points (now 1, good)")
    assert describe(state, {"pf": {"morale_max": 2, "morale_lost": -1, "morale": 3}}) == (
        f"{pf} proves to have 2 morale points; {pf} gains 1 morale point (now 3, excellent)")
    assert describe(state, {"gone": {"removed": "routed"}}) == "gone routs off the table"
    assert describe(state, {"rf": {}}) == "no effect"
