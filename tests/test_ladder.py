"""``tertia ladder``: pairs of players on paired seeds, both ways round, rated by a
Bradley-Terry fit with intervals, with the win matrix and the VP margins."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tertia.analysis.sim import make_spec
from tertia.analysis.sim.ladder import ELO, Battle, Game, bradley_terry, ladder_specs, standings
from tertia.analysis.sim.stats import wilson
from tertia.analysis.sim.storage import read_rows
from tertia.cli.main import app
from tertia.rulesets import ruleset_ids
from tertia.scenarios import load_builtin

runner = CliRunner()
SKIRMISH = Battle("skirmish", "larger-battles")


def _ladder(*args: str) -> dict[str, Any]:
    found = runner.invoke(app, ["ladder", "--workers", "1", "--json", *args])
    assert found.exit_code == 0, found.output
    return dict(json.loads(found.stdout))


def test_two_players_fit_the_odds_their_games_show() -> None:
    """3 wins and a draw, and the prior's draw: 4 to 1, so 400·log10(4) points apart."""
    fit = bradley_terry(["a", "b"], [("a", "b", 1.0)] * 3 + [("b", "a", 0.5)])
    assert fit.ratings["a"] + fit.ratings["b"] == pytest.approx(0.0, abs=1e-9)
    assert fit.ratings["a"] - fit.ratings["b"] == pytest.approx(400 * math.log10(4.0), abs=1e-6)
    assert fit.ratings["a"] - fit.ratings["b"] == pytest.approx(ELO * math.log(4.0), abs=1e-6)


def test_even_results_rate_alike_and_more_games_narrow_the_interval() -> None:
    few = bradley_terry(["a", "b", "c"], [("a", "b", 0.5), ("b", "c", 0.5), ("c", "a", 0.5)])
    many = bradley_terry(["a", "b", "c"], [("a", "b", 0.5), ("b", "c", 0.5), ("c", "a", 0.5)] * 20)
    assert all(abs(r) < 1e-9 for r in few.ratings.values())
    assert many.half_widths["a"] < few.half_widths["a"] / 3


def test_a_player_who_always_wins_has_a_finite_rating_above_one_who_sometimes_does() -> None:
    results = [("a", "c", 1.0)] * 10 + [("b", "c", 1.0)] * 6 + [("c", "b", 1.0)] * 4 + [("a", "b", 1.0)] * 5
    fit = bradley_terry(["a", "b", "c"], results)
    assert fit.ratings["a"] > fit.ratings["b"] > fit.ratings["c"]
    assert all(math.isfinite(r) and math.isfinite(fit.half_widths[p]) for p, r in fit.ratings.items())


def test_the_matrix_and_margins_read_each_game_from_both_players_sides() -> None:
    games = [Game(SKIRMISH, 0, "a", "b", 1.0, 4, (0, 2)), Game(SKIRMISH, 0, "b", "a", 0.5, 0, (1, 1)),
             Game(SKIRMISH, 1, "a", "b", 0.0, -2, (3, 0)), Game(SKIRMISH, 1, "b", "a", 0.0, -6, (2, 0))]
    table = standings(["a", "b"], games)
    a_v_b, b_v_a = table["matrix"]["a"]["b"], table["matrix"]["b"]["a"]
    assert (a_v_b["wins"], a_v_b["draws"], a_v_b["losses"]) == (2, 1, 1)
    assert a_v_b["score"] == pytest.approx(2.5 / 4) and a_v_b["score"] + b_v_a["score"] == pytest.approx(1.0)
    assert 0.0 <= a_v_b["interval"]["low"] < a_v_b["score"] < a_v_b["interval"]["high"] <= 1.0
    (margin,) = table["margins"]
    assert (margin["player"], margin["against"], margin["seeds"]) == ("a", "b", 2)
    assert margin["vp_margin"]["estimate"] == pytest.approx(((4 + 0) / 2 + (-2 + 6) / 2) / 2)
    assert margin["units_lost"] == pytest.approx((0 + 1 + 3 + 0) / 4)
    assert margin["units_lost_against"] == pytest.approx((2 + 1 + 0 + 2) / 4)
    assert [r["player"] for r in table["ratings"]] == ["a", "b"]


def test_victory_points_of_different_rule_sets_are_never_pooled() -> None:
    """Each rule set counts victory points on its own scale: a margin row for each."""
    other = Battle("edgehill", "charge-yr-pikes")
    games = [Game(SKIRMISH, 0, "a", "b", 1.0, 4, (0, 2)), Game(SKIRMISH, 0, "b", "a", 0.0, -2, (1, 1)),
             Game(other, 0, "a", "b", 1.0, 120, (3, 0)), Game(other, 0, "b", "a", 0.0, -80, (2, 0))]
    margins = {m["rules"]: m for m in standings(["a", "b"], games)["margins"]}
    assert set(margins) == {"larger-battles", "charge-yr-pikes"}
    assert margins["larger-battles"]["vp_margin"]["estimate"] == pytest.approx((4 + 2) / 2)
    assert margins["charge-yr-pikes"]["vp_margin"]["estimate"] == pytest.approx((120 + 80) / 2)
    assert margins["charge-yr-pikes"]["seeds"] == 1


def test_a_score_from_drawn_games_alone_has_a_wilson_interval() -> None:
    games = [Game(SKIRMISH, i, "a", "b", 0.5, 0, (0, 0)) for i in range(4)]
    interval = standings(["a", "b"], games)["matrix"]["a"]["b"]["interval"]
    assert interval == wilson(2, 4).as_dict()
    assert interval["low"] < 0.25 and interval["high"] > 0.75


def test_each_pair_is_seated_both_ways_round() -> None:
    battle = make_spec("skirmish", load_builtin("skirmish"), "larger-battles")
    specs = ladder_specs([battle], ["doctrine", "random", "baseline"])
    seatings = [dict(s.players) for s in specs]
    assert len(seatings) == 6
    assert {"parliament": "doctrine", "royalist": "random"} in seatings
    assert {"parliament": "random", "royalist": "doctrine"} in seatings
    with pytest.raises(ValueError, match="at least two different players"):
        ladder_specs([battle], ["doctrine", "doctrine"])


def test_the_ladder_rates_the_doctrine_above_the_random_player(tmp_path: Path) -> None:
    out, plots = tmp_path / "ladder.parquet", tmp_path / "plots"
    data = _ladder("--scenario", "skirmish", "--games", "6", "--out", str(out), "--plots", str(plots))
    assert data["players"] == ["doctrine", "random"] and data["games"] == 12 and data["failed"] == 0
    best, worst = data["ratings"]
    assert (best["player"], worst["player"]) == ("doctrine", "random") and best["low"] > worst["high"]
    assert data["matrix"]["doctrine"]["random"]["games"] == 12
    rows, metadata = read_rows(out)
    assert len(rows) == 12 and metadata["ladder"] == ["doctrine", "random"]
    by_seating: dict[str, list[int]] = {}
    for row in rows:
        by_seating.setdefault(str(row["player_parliament"]), []).append(int(row["seed"]))
    assert sorted(by_seating["doctrine"]) == sorted(by_seating["random"])  # the same seeds both ways
    assert (plots / "ladder.png").stat().st_size > 10_000
    assert _ladder("--scenario", "skirmish", "--games", "6")["ratings"] == data["ratings"]  # deterministic


def test_the_ladder_table_names_its_battle_on_one_line() -> None:
    found = runner.invoke(app, ["ladder", "--workers", "1", "--scenario", "skirmish", "--games", "1"])
    assert found.exit_code == 0, found.output
    assert "doctrine v random: Skirmish at the Ford (Larger Battles): 2 games" in found.stdout, found.stdout


def test_the_ladder_fights_every_rule_set() -> None:
    rules = [arg for r in ruleset_ids() for arg in ("--rules", r)]
    data = _ladder("--games", "1", *rules)
    assert [b["rules"] for b in data["battles"]] == list(ruleset_ids())
    assert data["games"] == 2 * len(ruleset_ids()) and data["failed"] == 0


@pytest.mark.parametrize(("args", "words"), [
    (["--player", "doctrine"], "a ladder needs at least two players"),
    (["--player", "doctrine", "--player", "doctrine-1", "--player", "baseline"],
     "--player: doctrine-1 and baseline are one player (baseline); name it once"),
    (["--player", "doctrine", "--player", "doctrine"], "--player: doctrine is named twice"),
    (["--player", "doctrine", "--player", "grandmaster"], "--player 'grandmaster': no player 'grandmaster'"),
    (["--scenario", "nowhere"], "nowhere"),
])
def test_a_bad_ladder_is_refused_in_one_line(args: list[str], words: str) -> None:
    found = runner.invoke(app, ["ladder", "--games", "2", *args])
    assert found.exit_code == 1 and words in found.output and found.output.count("\n") == 1, found.output


def test_battles_decided_are_counted_for_each_pair_on_each_battle_apart() -> None:
    """A game decided on the field (its rule set's ending) counts for its pair and battle,
    whichever side each player took; games whose rule set declares no endings are left out."""
    other = Battle("edgehill", "charge-yr-pikes")
    games = [Game(SKIRMISH, 0, "a", "b", 1.0, 4, (0, 2), True),
             Game(SKIRMISH, 0, "b", "a", 0.0, -2, (1, 1), False),
             Game(SKIRMISH, 1, "a", "b", 0.5, 0, (0, 0), True),
             Game(other, 0, "a", "b", 1.0, 120, (3, 0), False),
             Game(other, 1, "b", "a", 0.0, -80, (2, 0), None)]
    decided = {d["rules"]: d for d in standings(["a", "b"], games)["decided"]}
    assert decided["larger-battles"] | {"rate": None} == {
        "player": "a", "against": "b", "rules": "larger-battles", "scenario": "skirmish", "games": 3,
        "decided": 2, "rate": None}
    assert decided["larger-battles"]["rate"] == wilson(2, 3).as_dict()
    assert (decided["charge-yr-pikes"]["games"], decided["charge-yr-pikes"]["decided"]) == (1, 0)
    assert standings(["a", "b"], [Game(other, 1, "b", "a", 0.0, -80, (2, 0))])["decided"] == []
