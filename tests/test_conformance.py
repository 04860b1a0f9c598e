"""Conformance: seeded random and doctrine playouts of every built-in scenario under every
rule set it suits. At each step the chosen action validates, the state round-trips
through JSON, and at the end the record replays to the same final hash; the same seed
gives the same game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.player import Player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.actions import Action, action_from_dict
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.record import parse_record, record_to_dict, replay
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import list_builtin, load_builtin


def cases() -> list[tuple[str, str]]:
    out = []
    for sc in list_builtin():
        for rules in sc.rules or ruleset_ids():
            if rules in ruleset_ids():
                out.append((sc.name, rules))
    return out


class Checked:
    """Wraps a player: every action it proposes must validate and survive JSON."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        action = self.inner.choose(game, state, rng)
        assert game.validate(state, action) == [], f"{self.name} proposed an illegal {action}"
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
        text = json.dumps(state.to_dict())
        assert GameState.from_dict(json.loads(text)).state_hash() == state.state_hash()
        return action


def play(name: str, rules: str, kind: str, seed: int) -> Any:
    game = Game(get_ruleset(rules), load_builtin(name))
    make = DoctrinePlayer if kind == "doctrine" else RandomPlayer
    players = {side: Checked(make()) for side in game.scenario.side_ids}
    return fight_battle(game, players, seed)


@pytest.mark.parametrize(("name", "rules"), cases())
@pytest.mark.parametrize("kind", ["doctrine", "random"])
def test_playout_conforms(name: str, rules: str, kind: str) -> None:
    record = play(name, rules, kind, seed=11)
    final = record.final_state
    assert final.is_over and final.result is not None
    data = json.loads(json.dumps(record_to_dict(record)))
    result = replay(parse_record(data))
    assert result.ok, result.message
    assert result.final_hash == final.state_hash()


@pytest.mark.parametrize(("name", "rules"), cases()[:1])
def test_same_seed_same_game(name: str, rules: str) -> None:
    a = play(name, rules, "doctrine", seed=5)
    b = play(name, rules, "doctrine", seed=5)
    assert [s.action for s in a.steps] == [s.action for s in b.steps]
    assert a.final_state.state_hash() == b.final_state.state_hash()


def test_a_tampered_record_diverges() -> None:
    name, rules = cases()[0]
    record = play(name, rules, "doctrine", seed=3)
    data = record_to_dict(record)
    for roll in data["rolls"]:
        if roll["die"] == "d6" and roll["purpose"].startswith("combat"):
            roll["value"] = 7 - roll["value"]
            break
    else:
        data["rolls"][-1]["purpose"] = "something else"
    assert not replay(parse_record(data)).ok
