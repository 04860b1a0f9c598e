"""Declare Thee Sir's scenarios: Edgehill and Roundway Down load and validate under it, its
table in each is read (stands, firelocks, dragoons, attached generals, stand sizes), the
ground plays as the files say, and whole AI-against-AI battles end with a result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import BattleRecord, fight_battle
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState
from tertia.io.record import record_to_dict
from tertia.io.scenario_file import ScenarioError, check_scenario, load_scenario
from tertia.rules.movement import plan_move
from tertia.rulesets.declare_thee_sir.generals import ATTACH_REACH
from tertia.rulesets.declare_thee_sir.movement import kind_of_move
from tertia.rulesets.declare_thee_sir.ruleset import DeclareTheeSir
from tertia.rulesets.declare_thee_sir.values import unit_data
from tertia.scenarios import list_builtin, load_builtin

RULES = DeclareTheeSir.id
SCENARIOS = Path(__file__).resolve().parent.parent / "tertia" / "scenarios"


def game_of(name: str) -> Game:
    return Game(DeclareTheeSir(), load_builtin(name, rules_id=RULES))


def set_up(name: str) -> GameState:
    game = game_of(name)
    return game.ruleset.initial_state(game.scenario)


@pytest.mark.parametrize("name", ["edgehill", "roundway_down"])
def test_the_scenario_validates_under_declare_thee_sir(name: str) -> None:
    assert check_scenario(SCENARIOS / f"{name}.toml", RULES) == []
    assert RULES in load_builtin(name).rules


def test_roundway_down_is_a_built_in_written_for_declare_thee_sir() -> None:
    listing = {s.name: s for s in list_builtin()}
    roundway = listing["roundway_down"]
    assert roundway.title == "Roundway Down, 13 July 1643"
    assert roundway.rules == (RULES,)
    assert dict(roundway.units) == {"parliament": 12, "royalist": 8}
    scenario = load_builtin("roundway_down")
    assert scenario.sources and scenario.description and scenario.notes
    # A rule set it is not written for is refused by name.
    assert any(p.path == "rules" for p in check_scenario(SCENARIOS / "roundway_down.toml", "larger-battles"))


def test_roundway_down_orders_of_battle() -> None:
    scenario = load_builtin("roundway_down")
    names = " | ".join(u.name for u in scenario.units)
    for who in ("Byron", "Wilmot", "Prince Maurice", "Crawford", "Haselrig", "Waller's Foot",
                "Waller's Dragoons", "Forlorn Hope"):
        assert who in names, who
    general = {c.side: c.name for c in scenario.commanders if c.general}
    assert "Wilmot" in general["royalist"] and "Waller" in general["parliament"]
    assert {u.type for u in scenario.units if u.side == "royalist"} == {"horse", "artillery"}
    facing = {"parliament": 0.0, "royalist": 180.0}
    assert all(p.facing == facing[p.side] for p in (*scenario.units, *scenario.commanders))


def test_roundway_down_regiments_are_read_from_its_table() -> None:
    state = set_up("roundway_down")
    own = {uid: unit_data(u) for uid, u in state.units.items()}
    assert (own["p-haselrig-horse"].stands_left, own["p-haselrig-horse"].firelocks) == (3, True)
    assert all(own[u].firelocks for u in ("p-waller-horse", "p-left-horse", "p-right-horse-2"))
    assert (own["r-crawford-horse"].stands_left, own["r-crawford-horse"].firelocks) == (2, False)
    assert not any(o.firelocks for uid, o in own.items() if uid.startswith("r-"))
    assert own["p-dragoons"].mounted and own["p-dragoons"].stands_left == 2
    # Stands at the rule set's own size: three horse stands 1.5" square abreast, two of them 3".
    assert (state.units["r-wilmot-horse"].width, state.units["r-wilmot-horse"].depth) == (4.5, 1.5)
    assert (state.units["r-crawford-horse"].width, state.units["r-crawford-horse"].depth) == (3.0, 1.5)


def test_roundway_down_generals_start_with_their_regiments() -> None:
    state = set_up("roundway_down")
    attached = {g: unit_data(state.units[g]).attached_to
                for g in ("r-wilmot", "r-byron", "r-crawford", "p-waller", "p-haselrig")}
    assert attached == {"r-wilmot": "r-wilmot-horse", "r-byron": "r-byron-horse", "r-crawford": None,
                        "p-waller": "p-waller-horse", "p-haselrig": "p-haselrig-horse"}
    for general, regiment in attached.items():
        if regiment is not None:
            gap = base_distance(state.units[general].base, state.units[regiment].base)
            assert gap <= ATTACH_REACH, general
            # behind it: further from the enemy's edge than the regiment
            ahead = 1.0 if state.units[regiment].facing == 0.0 else -1.0
            assert (state.units[regiment].y - state.units[general].y) * ahead > 0, general


def test_a_general_attached_at_set_up_must_touch_his_unit() -> None:
    text = (SCENARIOS / "roundway_down.toml").read_text(encoding="utf-8")
    apart = text.replace('{ commander = "r-byron", attached_to = "r-byron-horse" },',
                         '{ commander = "r-crawford", attached_to = "r-crawford-horse" },')
    assert apart != text
    with pytest.raises(ScenarioError) as info:
        load_scenario(apart, source_name="apart.toml", rules_id=RULES)
    assert [(p.path, p.message) for p in info.value.problems] == [(
        'extensions.declare-thee-sir.generals[1].attached_to',
        "r-crawford stands 1.5\" from 'r-crawford-horse': set him up touching the unit he is attached to")]


def test_edgehill_regiments_are_read_from_its_table() -> None:
    state = set_up("edgehill")
    own = {uid: unit_data(u) for uid, u in state.units.items()}
    for squadron in ("p-ramsay-horse-1", "p-ramsay-horse-2", "p-ramsay-horse-3"):
        assert (own[squadron].stands_left, own[squadron].firelocks) == (2, True)
        assert state.units[squadron].width == 3.0
    assert (own["r-rupert-horse"].stands_left, own["r-rupert-horse"].firelocks) == (3, False)
    assert not any(own[d].mounted for d in ("r-usher-dragoons", "r-duncombe-dragoons", "p-wardlawe-dragoons"))
    # Foot stands 1.25" wide: a regiment of three divisions is 3.75" across, 1" deep.
    assert (state.units["p-ballard-foot-1"].width, state.units["p-ballard-foot-1"].depth) == (3.75, 1.0)
    assert own["p-ballard-foot-1"].stand_width == 1.25
    # The generals begin independent, at their posts.
    assert all(o.attached_to is None for o in own.values() if o.is_general)


def test_over_the_edge_of_the_down_is_difficult_ground() -> None:
    """The escarpment is hill steps (Movement: "each hill step up or across" is difficult
    terrain); along the top of the down the going is open."""
    game = game_of("roundway_down")
    horse = set_up("roundway_down").units["r-byron-horse-2"]  # at (14.5, 36), facing south
    own = unit_data(horse)
    along = plan_move(horse, Move(unit=horse.id, waypoints=((14.5, 30),)))
    # half right (43 degrees off its facing, so no flank move), over the edge near (8.3, 28.5)
    over = plan_move(horse, Move(unit=horse.id, waypoints=((7.5, 28.5),)))
    assert kind_of_move(game.table, along, own) == "open"
    assert kind_of_move(game.table, over, own) == "difficult"


# --- whole battles ---------------------------------------------------------------------


def battle(name: str, seed: int) -> BattleRecord:
    game = game_of(name)
    return fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, seed)


def test_roundway_down_is_fought_to_a_result_the_same_way_for_the_same_seed() -> None:
    first, again = battle("roundway_down", 1), battle("roundway_down", 1)
    assert first.final_state.is_over and first.final_state.result is not None
    assert json.dumps(record_to_dict(first)) == json.dumps(record_to_dict(again))
    assert first.final_state.state_hash() == again.final_state.state_hash()


def test_edgehill_under_declare_thee_sir_is_fought_to_a_result() -> None:
    record = battle("edgehill", 2)
    final = record.final_state
    assert final.is_over and final.result is not None
    assert final.turn >= 1 and len(record.steps) > 100
