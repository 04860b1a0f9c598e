"""The rule-set hooks front ends use: visible events, move measures, unit overlays."""

from __future__ import annotations

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import SeededDice
from tertia.core.events import PhaseBegan
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.actions import GiveOrder
from tertia.scenarios import load_builtin


def _skirmish() -> Game:
    return Game(get_ruleset("larger-battles"), load_builtin("skirmish"))


def test_every_event_is_visible_in_larger_battles() -> None:
    game = _skirmish()
    assert game.ruleset.event_visible_to(PhaseBegan(phase="movement"), "royalist")


def test_measure_move_gives_length_and_allowance() -> None:
    game = _skirmish()
    state, _ = game.start(SeededDice(1))
    straight = game.ruleset.measure_move(game.table, state, Move(unit="p-foot-1", waypoints=((18, 14),)))
    assert straight is not None
    assert straight["length"] == 4.0 and straight["allowance"] == 6.0
    turned = game.ruleset.measure_move(
        game.table, state, Move(unit="p-foot-1", waypoints=((18, 12),), face_after=45))
    assert turned is not None and turned["allowance"] == 3.0 and "Turning" in turned["rule"]
    assert game.ruleset.measure_move(game.table, state, EndPhase()) is None
    assert game.ruleset.measure_move(game.table, state, GiveOrder(target="centre")) is None


def test_unit_overlays_name_their_rules() -> None:
    game = _skirmish()
    state, _ = game.start(SeededDice(1))
    foot = game.ruleset.presentation().overlays(game.table, state, "p-foot-1")
    assert [z["radius"] for z in foot["zones"]] == [3.0]
    assert foot["arcs"][0]["half_angle"] == 45.0
    guns = game.ruleset.presentation().overlays(game.table, state, "p-guns")
    assert guns["arcs"][0]["reach"] == 24.0
    assert {s["target"] for s in guns["sight"]} >= {"r-foot-2"}
    general = game.ruleset.presentation().overlays(game.table, state, "p-general")
    assert sorted(z["radius"] for z in general["zones"]) == [3.0, 12.0]
