"""The command line with the D3 rule sets: battles deterministic by seed, saved and
replayed; odds of shooting, guns and melee; inspect; the rule sets and scenarios listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tertia.scenarios
from tertia.cli.common import default_scenario
from tertia.cli.main import app

from .fact_support import fact_of

runner = CliRunner()
BATTLES = [("edgehill", "d3-commands"), ("chalgrove", "d3-cards")]


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize(("scenario", "rules"), BATTLES)
def test_battles_are_deterministic_by_seed(scenario: str, rules: str) -> None:
    a = run("battle", "--scenario", scenario, "--rules", rules, "--seed", "7", "--json")
    b = run("battle", "--scenario", scenario, "--rules", rules, "--seed", "7", "--json")
    assert a[0] == 0 and a == b
    data = json.loads(a[1])
    assert data["ruleset"] == rules and data["reason"]
    c = json.loads(run("battle", "--scenario", scenario, "--rules", rules, "--seed", "8", "--json")[1])
    assert c["final_hash"] != data["final_hash"]


def test_a_d3_battle_narrates_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "chalgrove.json"
    code, out = run("battle", "--scenario", "chalgrove", "--rules", "d3-cards", "--seed", "3",
                    "--save", str(record), "--option", "weather=light-rain")
    assert code == 0, out
    assert "card drawn" in out and "Turn 1" in out
    assert run("replay", str(record))[0] == 0
    code, out = run("inspect", str(record), "--rules", "d3-cards", "--json")
    units = {u["id"]: u for u in json.loads(out)["units"]}
    dragoons = units["r-wentworth-dragoons-1"]
    ammunition, hits = fact_of(dragoons, "ammunition"), fact_of(dragoons, "hits")
    assert ammunition is not None and ammunition["words"].endswith(("marker", "markers")) and hits is not None
    rallies = fact_of(units["r-rupert"], "rallies_left")
    assert rallies is not None and rallies["limit"] == 4


def test_the_card_order_never_shows_in_the_narrative() -> None:
    code, out = run("battle", "--scenario", "edgehill", "--rules", "d3-commands", "--seed", "5")
    assert code == 0
    assert "cards face down" in out and "card_order" not in out


def test_inspect_a_d3_commands_scenario() -> None:
    code, out = run("inspect", "tertia/scenarios/edgehill.toml", "--rules", "d3-commands", "--json")
    assert code == 0
    units = {u["id"]: u for u in json.loads(out)["units"]}
    foot, dragoons = units["p-cessex-foot-1"], units["p-wardlawe-dragoons"]
    assert (fact_of(foot, "ammunition") or {}).get("value") == "yes"
    assert (fact_of(dragoons, "ammunition") or {}).get("value") == "never short"
    assert (fact_of(foot, "hits") or {}).get("limit") == 9
    assert (fact_of(foot, "card") or {}).get("value") == "centre"
    assert "r-rupert" not in units  # a single commander a side: the general
    result = runner.invoke(app, ["inspect", "tertia/scenarios/edgehill.toml", "--rules", "d3-commands"],
                           env={"COLUMNS": "250"})
    assert result.exit_code == 0 and "Hits 0 of 9" in result.output


@pytest.mark.parametrize(("rules", "attacker", "target", "word", "hits"), [
    ("d3-commands", "r-guns-right", "p-meldrum-foot-1", "bombard", {"0", "1", "2"}),
    ("d3-commands", "r-guns-right", "p-meldrum-foot-1", "shoot", {"0", "1", "2"}),
])
def test_odds_of_d3_shots(rules: str, attacker: str, target: str, word: str, hits: set[str]) -> None:
    code, out = run("odds", "tertia/scenarios/edgehill.toml", "--rules", rules, "--attacker", attacker,
                    "--target", target, "--action", word, "--json")
    assert code == 0, out
    data = json.loads(out)
    assert set(data["summary"]["target_hits"]) == hits
    assert abs(sum(data["summary"]["target_hits"].values()) - 1.0) < 1e-9
    assert "-1 D3-1 for artillery" in data["modifiers"]


def test_odds_refuse_particulars_the_rule_set_has_not() -> None:
    """Supports and encouraging commanders are larger-battles' particulars of an attack."""
    code, out = run("odds", "tertia/scenarios/edgehill.toml", "--rules", "d3-commands", "--attacker",
                    "r-guns-right", "--target", "p-meldrum-foot-1", "--support", "r-guns-left")
    assert code != 0 and out.strip().splitlines()[-1].endswith(
        "--support is not a particular of an action under D3 English Civil War Rules (18 September 2022)")


def test_odds_of_a_melee_and_a_refusal(tmp_path: Path) -> None:
    scenario = tmp_path / "melee.toml"
    scenario.write_text("""
name = "melee"
rules = ["d3-cards"]
[table]
width = 48
depth = 36
[[sides]]
id = "parliament"
edge = "south"
[[sides]]
id = "royalist"
edge = "north"
[[units]]
id = "a"
side = "royalist"
type = "horse"
command = "right"
traits = ["impetuous"]
x = 20
y = 13
facing = 180
[[units]]
id = "t"
side = "parliament"
type = "foot"
command = "centre"
x = 20
y = 10
""")
    code, out = run("odds", str(scenario), "--rules", "d3-cards", "--attacker", "a", "--target", "t",
                    "--action", "melee", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["summary"]["target_hits"] == pytest.approx({"1": 1 / 3, "2": 1 / 3, "3": 1 / 3})
    assert data["modifiers"] == ["+1 impetuous Horse", "-1 target is Infantry"]
    code, out = run("odds", str(scenario), "--rules", "d3-cards", "--attacker", "t", "--target", "a",
                    "--action", "bombard")
    assert code != 0 and "not artillery" in out


def test_the_rule_sets_are_listed_with_their_options() -> None:
    code, out = run("rules", "--json")
    assert code == 0
    rules = {r["id"]: r for r in json.loads(out)}
    assert {"d3-commands", "d3-cards"} <= set(rules)
    assert "solo_shuffle" in {o["name"] for o in rules["d3-commands"]["options"]}
    assert "rallies" in {o["name"] for o in rules["d3-cards"]["options"]}
    code, out = run("battle", "--rules", "d3-cards", "--scenario", "roundway_down")
    assert code != 0 and "not written for rule set" in out


def test_battle_picks_a_scenario_written_for_the_rule_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for rules in ("d3-cards", "d3-commands"):
        code, out = run("battle", "--rules", rules, "--seed", "1", "--json")
        assert code == 0 and json.loads(out)["scenario"].startswith("Edgehill"), out
    # Without Edgehill, the first built-in written for the rule set.
    listed = tertia.scenarios.rules_listed
    monkeypatch.setattr(tertia.scenarios, "rules_listed",
                        lambda name: () if name == "edgehill" else listed(name))
    assert default_scenario("d3-cards") == "chalgrove"
