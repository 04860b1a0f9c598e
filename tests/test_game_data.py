"""Each rule set declares the game-wide values it keeps, once (``RuleSet.GAME_DATA``):
its set-up state holds one record of them, every value its events write is one of its
fields (a per-side field written as ``"<field>:<side>"``), and rules read them through
``GameState.value``; nothing it keeps is left in the free-form ``extra``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from tertia.core.events import GameDataChanged
from tertia.core.game import Game
from tertia.core.ruledata import RuleData, per_side
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset, ruleset_class, ruleset_ids
from tertia.scenarios import load_builtin
from tests.golden import GoldenCase, fight, golden_cases
from tests.plugin_rules import PLUGINS

SHIPPED = ("larger-battles", "d3-commands", "d3-cards")


def one_battle_each() -> list[GoldenCase]:
    """A golden battle of each shipped rule set. The example plugin's values are written by
    its own events' handlers (``tests/example_rules/data.py``), not ``GameDataChanged``."""
    plugins = {cls.id for cls in PLUGINS}
    seen: dict[str, GoldenCase] = {}
    for case in golden_cases():
        if case.rules not in plugins:
            seen.setdefault(case.rules, case)
    return list(seen.values())


@pytest.mark.parametrize("rules", SHIPPED)
def test_every_shipped_rule_set_declares_its_game_data(rules: str) -> None:
    assert set(SHIPPED) <= set(ruleset_ids())
    data = ruleset_class(rules).GAME_DATA
    assert data is not None and issubclass(data, RuleData)
    scenario = load_builtin("edgehill")
    state = Game(get_ruleset(rules), scenario).ruleset.initial_state(scenario)
    assert isinstance(state.own, data)
    assert state.extra == {}
    assert state.value("turn_limit") == scenario.turns


@pytest.mark.parametrize("case", one_battle_each(), ids=lambda c: c.id)
def test_a_whole_battle_keeps_every_value_in_its_declaration(case: GoldenCase) -> None:
    record = fight(case)
    data = record.game.ruleset.GAME_DATA
    assert data is not None
    keys = {e.key for step in record.steps for e in step.events if isinstance(e, GameDataChanged)}
    assert keys and all(data.keeps(k) for k in keys), sorted(k for k in keys if not data.keeps(k))
    for index, step in enumerate(record.steps):
        assert step.state.extra == {}
        # Every position a game-wide value changed in, and every eighth besides.
        if index % 8 == 0 or any(isinstance(e, GameDataChanged) for e in step.events):
            again = GameState.from_dict(json.loads(json.dumps(step.state.to_dict())))
            assert again == step.state
            assert again.state_hash() == step.state.state_hash()


@dataclass(frozen=True, slots=True)
class Tallies(RuleData):
    type: ClassVar[str] = "test_game_data_tallies"
    weather: str | None = None
    rallies: Mapping[str, Any] = per_side()


def a_state(own: RuleData | None) -> GameState:
    return GameState(sides=("p", "r"), turn=1, active="p", phase="play", units={}, own=own)


def test_a_value_not_declared_is_refused_naming_it() -> None:
    with pytest.raises(KeyError, match="Tallies keeps no 'wether'"):
        a_state(Tallies()).with_values({"wether": "rain"})
    with pytest.raises(KeyError, match="keeps no 'weather:p'"):
        a_state(Tallies()).with_values({"weather:p": "rain"})


def test_values_are_written_and_read_where_they_are_declared() -> None:
    state = a_state(Tallies()).with_values({"weather": "rain", "rallies:p": 2})
    assert isinstance(state.own, Tallies)
    assert (state.own.weather, state.own.rallies, state.extra) == ("rain", {"p": 2}, {})
    assert (state.value("weather"), state.value("rallies:p"), state.value("rallies:r", 0)) == ("rain", 2, 0)


def test_without_a_declaration_values_stay_in_extra_and_hash_alike() -> None:
    loose = a_state(None).with_values({"weather": "rain", "rallies:p": 2})
    declared = a_state(Tallies()).with_values({"weather": "rain", "rallies:p": 2})
    assert loose.extra == {"weather": "rain", "rallies:p": 2} and loose.value("rallies:p") == 2
    assert loose.state_hash() == declared.state_hash()
    assert loose.state_hash() != declared.with_values({"rallies:r": 1}).state_hash()


def test_lists_are_kept_as_tuples_so_a_state_equals_itself_read_back() -> None:
    state = a_state(Tallies()).with_values({"rallies:p": [["a", 1], ["b", 2]]})
    assert state.value("rallies:p") == (("a", 1), ("b", 2))
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
