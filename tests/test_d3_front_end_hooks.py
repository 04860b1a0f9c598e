"""The rule-set hooks front ends use, for the D3 rule sets: a move against its
allowance, the distances drawn around a unit, and the events each side may see."""

from __future__ import annotations

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import SeededDice
from tertia.core.events import GameDataChanged, PhaseBegan
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin


def edgehill() -> Game:
    return Game(get_ruleset("d3-commands"), load_builtin("edgehill"))


def test_a_move_is_measured_against_its_allowance_less_its_pivots() -> None:
    game = edgehill()
    state = game.ruleset.initial_state(game.scenario)
    straight = game.ruleset.measure_move(game.table, state, Move(unit="p-cessex-foot-1",
                                                                waypoints=((25, 16),)))
    assert straight == {"length": 4.0, "allowance": 6.0, "rule": "D3 (2022): Movement"}
    turned = game.ruleset.measure_move(game.table, state, Move(unit="p-cessex-foot-1", waypoints=((25, 14),),
                                                               face_before=30.0))
    assert turned is not None and turned["allowance"] == 3.0 and "pivoting" in turned["rule"]
    assert game.ruleset.measure_move(game.table, state, EndPhase()) is None


def test_overlays_show_ranges_and_the_command_rules() -> None:
    game = edgehill()
    state = game.ruleset.initial_state(game.scenario)
    foot = game.ruleset.presentation().overlays(game.table, state, "p-cessex-foot-1")
    assert sorted(z["radius"] for z in foot["zones"]) == [6.0, 12.0]
    assert foot["arcs"][0]["reach"] == 12.0 and foot["arcs"][0]["half_angle"] == 45.0
    guns = game.ruleset.presentation().overlays(game.table, state, "r-guns-right")
    assert guns["arcs"][0]["reach"] == 24.0 and guns["sight"]
    dragoons = game.ruleset.presentation().overlays(game.table, state, "p-wardlawe-dragoons")
    assert [z["radius"] for z in dragoons["zones"]] == [12.0]
    cards = Game(get_ruleset("d3-cards"), load_builtin("chalgrove"))
    start = cards.ruleset.initial_state(cards.scenario)
    assert cards.ruleset.presentation().overlays(cards.table, start, "r-wentworth-dragoons-1")["zones"] == []


def test_events_hide_only_the_other_sides_card_order() -> None:
    game = edgehill()
    secret = GameDataChanged(key="card_order:parliament", value=["right", "centre"])
    assert not game.ruleset.event_visible_to(secret, "royalist")
    assert game.ruleset.event_visible_to(secret, "parliament")
    assert game.ruleset.event_visible_to(PhaseBegan(phase="orders"), "royalist")
    state, events = game.start(SeededDice(1))
    assert all(game.ruleset.event_visible_to(e, s) for e in events for s in state.sides)
