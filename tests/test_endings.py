"""How a battle ended, as each rule set declares it (``Presentation.ENDINGS``): every
registered rule set, the example plugin's included, names its endings, tells a decision
from the turn limit or darkness, and knows the reason each of its battles ends with."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tertia.ai.players import make_player
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.core.presentation import Ending, Presentation
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import load_named, written_for
from tests.plugin_rules import with_plugins


def _rules() -> list[str]:
    with with_plugins():
        return list(ruleset_ids())


RULES = _rules()


@pytest.fixture(autouse=True)
def _plugins() -> Iterator[None]:
    with with_plugins():
        yield


class _Declared(Presentation):
    ENDINGS = (Ending("won outright", "the victors", decided=True),
               Ending("time ran out", "the last turn", decided=False))


def test_an_ending_is_known_by_how_the_reason_opens_and_none_otherwise() -> None:
    shows = _Declared(get_ruleset(RULES[0]))
    assert shows.ending({"reason": "the victors hold the ford"}) == _Declared.ENDINGS[0]
    assert shows.ending({"reason": "the last turn is over"}) == _Declared.ENDINGS[1]
    assert shows.ending({"reason": "a side has no units left"}) is None
    assert shows.ending({"winner": "a"}) is None
    assert shows.ending(None) is None


@pytest.mark.parametrize("rules", RULES)
def test_every_rule_set_declares_a_decision_and_an_end_by_time(rules: str) -> None:
    endings = get_ruleset(rules).presentation().ENDINGS
    assert {e.decided for e in endings} == {True, False}, endings
    assert len({e.name for e in endings}) == len(endings)
    for i, later in enumerate(endings):  # the first that fits is taken: none hides a later one
        assert not any(later.opens.startswith(e.opens) for e in endings[:i]), later


@pytest.mark.parametrize("rules", RULES)
def test_a_battle_fought_out_ends_in_a_declared_way(rules: str) -> None:
    scenario = load_named(written_for(rules)[0].name, rules_id=rules)
    game = Game(get_ruleset(rules), scenario)
    record = fight_battle(game, {side: make_player("doctrine") for side in scenario.side_ids}, 1)
    result = record.final_state.result
    assert result is not None
    assert game.ruleset.presentation().ending(result) is not None, result["reason"]
