"""Charge yr Pikes!' scenarios: Naseby (1645) and Edgehill (1642) at tertia scale, both
built in."""

from __future__ import annotations

from pathlib import Path

import pytest

import tertia.scenarios
from tertia.ai.random_player import RandomPlayer
from tertia.core.scenario import Scenario
from tertia.io.scenario_file import ScenarioError, load_scenario
from tertia.rulesets.charge_yr_pikes.deployment import tertia_groups
from tertia.rulesets.charge_yr_pikes.points import places
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.scenarios import load_builtin
from tests.battles import fought

RULES = "charge-yr-pikes"
EDGEHILL = Path(tertia.scenarios.__file__).parent / "edgehill.toml"


def naseby() -> Scenario:
    return load_builtin("naseby", rules_id=RULES)


def edgehill() -> Scenario:
    return load_builtin("edgehill", rules_id=RULES)


BATTLES = {"naseby": (naseby, 1645), "edgehill": (edgehill, 1642)}


@pytest.mark.parametrize("name", BATTLES)
def test_the_scenario_is_valid_under_the_rule_set(name: str) -> None:
    scenario = BATTLES[name][0]()
    assert scenario.rules and RULES in scenario.rules
    assert scenario.sources and scenario.description and scenario.for_rules(RULES).notes
    assert ChargeYrPikes().scenario_problems(scenario.for_rules(RULES)) == []


@pytest.mark.parametrize("name", BATTLES)
def test_the_year_reads_through(name: str) -> None:
    make, year = BATTLES[name]
    state = ChargeYrPikes().initial_state(make().for_rules(RULES))
    assert game_data(state).year == year


@pytest.mark.parametrize("name", BATTLES)
def test_each_side_has_three_objectives_and_three_vital_points(name: str) -> None:
    state = ChargeYrPikes().initial_state(BATTLES[name][0]().for_rules(RULES))
    for side in state.sides:
        assert len(places(state, side, "objective")) == 3
        vital = places(state, side, "vital")
        assert len(vital) == 3 and [p.role for p in vital].count("retreat") == 1
        wagons = [u for u in state.iter_troops(side) if unit_data(u).troop == "wagons"]
        assert [p.role for p in vital].count("baggage") == (1 if wagons else 0)


@pytest.mark.parametrize("name", BATTLES)
def test_tertias_of_three_to_five_and_officers_of_rank(name: str) -> None:
    state = ChargeYrPikes().initial_state(BATTLES[name][0]().for_rules(RULES))
    for side in state.sides:
        groups = tertia_groups(state, side)
        assert groups and all(3 <= len(units) <= 5 for units in groups.values()), groups
        officers = [unit_data(u) for u in state.units.values() if u.side == side]
        ranks = [o.rank for o in officers if o.is_officer]
        assert ranks.count("army") == 1 and "wing" in ranks and "brigadier" in ranks


def test_naseby_order_of_battle() -> None:
    scenario = naseby()
    assert (scenario.table.width, scenario.table.depth) == (96, 60)
    names = " | ".join(u.name for u in scenario.units)
    for who in ("Okey's Dragoons", "Whalley", "Ireton", "Skippon", "Rupert", "Northern Horse",
                "Lifeguard of Foot", "Bluecoats", "Baggage Train", "New Model's Train"):
        assert who in names, who
    leaders = {c.id: c.name for c in scenario.commanders}
    for who in ("Fairfax", "Cromwell", "Ireton", "Skippon", "King Charles", "Rupert", "Astley", "Langdale"):
        assert any(who in n for n in leaders.values()), who
    state = ChargeYrPikes().initial_state(scenario)
    okey = [unit_data(u) for u in state.units.values() if u.id.startswith("p-okey-dragoons")]
    assert len(okey) == 3 and not any(d.mounted for d in okey)
    hedges = scenario.build_battlefield()
    dragoons = [u for u in scenario.units if u.id.startswith("p-okey-")]
    assert all(hedges.contains_point("field", (u.x, u.y)) for u in dragoons)
    terrain = {t.name: t.type for t in scenario.terrain}
    assert terrain["Sulby Hedges"] == "hedge" and terrain["Dust Hill"] == "hill"
    assert terrain["Mill Hill and Red Hill ridge"] == "hill" and "road" in terrain.values()


def test_edgehill_fields_its_own_order_of_battle_only_under_this_rule_set() -> None:
    scenario = edgehill()
    shared = load_builtin("edgehill")
    assert scenario.own_lists(RULES) == ("commanders", "units")
    assert len(scenario.units) > len(shared.units)
    assert {u.id for u in scenario.units} != {u.id for u in shared.units}
    for other in ("larger-battles", "d3-commands", "declare-thee-sir"):
        fielded = load_builtin("edgehill", rules_id=other)
        assert fielded.units == shared.units


def test_edgehill_without_the_rule_set_listed_is_refused_under_it() -> None:
    text = EDGEHILL.read_text(encoding="utf-8").replace(f', "{RULES}"]', "]", 1)
    with pytest.raises(ScenarioError, match="not written for rule set 'charge-yr-pikes'"):
        load_scenario(text, source_name="edgehill.toml", rules_id=RULES)


@pytest.mark.parametrize("name", BATTLES)
def test_random_players_fight_the_battle_to_its_end(name: str) -> None:
    """The battle as the random players' conformance playout fights it (fought once a run:
    tests/battles.py), on the order of battle written for this rule set."""
    record = fought(name, RULES, "random", 11)
    game = record.game
    assert game.scenario == BATTLES[name][0]().for_rules(RULES)
    assert isinstance(game.ruleset, ChargeYrPikes) and game.ruleset.options == ChargeYrPikes().options
    assert record.players == {s: RandomPlayer().name for s in game.scenario.side_ids}
    final = record.final_state
    assert final.is_over and final.result is not None
    assert 11 <= final.turn <= 16
    assert game_data(final).year == BATTLES[name][1]
