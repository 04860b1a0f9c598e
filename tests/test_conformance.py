"""Conformance: seeded random and doctrine playouts of every registered rule set (the
example plugin's too, :mod:`tests.plugin_rules`) on every scenario of the catalogue
written for it, built in or shipped by a rule set. At each step the chosen action
validates, the state round-trips through JSON, and after every action no piece in play
stands off the table; at the end the record replays to the same final hash; the same
seed gives the same game.

The playouts are fought once a run (:mod:`tests.battles`, where other tests read them
too) and their steps checked as they were taken: each action against the position it
was chosen in, each position as the player of the side to act was asked in it
(:class:`Checked`, :func:`checked_steps`)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.player import Player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import BattleRecord, Step, fight_battle
from tertia.core.actions import Action, action_from_dict
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState, Stand, Unit
from tertia.io.record import parse_record, record_to_dict, replay
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import load_named, scenario_catalogue
from tests.battles import fought
from tests.plugin_rules import with_plugins
from tests.table_checks import colours_astray, off_the_table, overlapping, table_problems


def cases() -> list[tuple[str, str]]:
    """(scenario, rule set): each registered rule set, with the plugins', and each scenario
    written for it (one written for none suits any)."""
    with with_plugins():
        catalogue = scenario_catalogue()
        return [(sc.name, rules) for rules in ruleset_ids() for sc in catalogue
                if not sc.rules or rules in sc.rules]


@pytest.fixture(autouse=True)
def plugins() -> Iterator[None]:
    """Records of the plugins' battles replay only while their rule sets are registered."""
    with with_plugins():
        yield


ROUND_TRIP_EVERY = 8
"""Positions written to JSON and read back: every eighth, and each one a phase begins."""


class Checked:
    """Wraps a player: every action it proposes must validate and survive JSON, and the
    positions it is asked in (every :data:`ROUND_TRIP_EVERY`-th, and the first of each
    phase) must too."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.phase: str | None = None

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        action = self.inner.choose(game, state, rng)
        check_choice(game, state, action, self.name, self.phase)
        self.phase = state.phase
        return action


def check_choice(game: Game, state: GameState, action: Action, player: str, phase: str | None) -> None:
    """What :class:`Checked` checks of ``action``, chosen by ``player`` in ``state``, the
    last position that player was asked in being of ``phase``."""
    assert game.validate(state, action) == [], f"{player} proposed an illegal {action}"
    assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    if state.step % ROUND_TRIP_EVERY == 0 or state.phase != phase:
        text = json.dumps(state.to_dict())
        assert GameState.from_dict(json.loads(text)).state_hash() == state.state_hash()


def checked_steps(record: BattleRecord) -> None:
    """The checks :class:`Checked` and the table check after every action make as a battle
    is fought, made on each step of one fought (in its order, each side's player asked in
    the positions it was asked in)."""
    game = record.game
    phases: dict[str, str | None] = dict.fromkeys(game.scenario.side_ids)
    before = record.initial_state
    for step in record.steps:
        assert step.side == before.to_act
        check_choice(game, before, step.action, record.players[step.side], phases[step.side])
        phases[step.side] = before.phase
        problems = table_problems(game, step.state)
        assert problems == [], f"after {step.action} (step {step.state.step}): {'; '.join(problems)}"
        before = step.state


def play(name: str, rules: str, kind: str, seed: int) -> Any:
    with with_plugins():
        game = Game(get_ruleset(rules), load_named(name))
        make = DoctrinePlayer if kind == "doctrine" else RandomPlayer
        players = {side: Checked(make()) for side in game.scenario.side_ids}

        def on_table_after(step: Step) -> None:
            problems = table_problems(game, step.state)
            assert problems == [], f"after {step.action} (step {step.state.step}): {'; '.join(problems)}"

        return fight_battle(game, players, seed, on_step=on_table_after)


def test_every_registered_rule_set_plays_a_scenario_of_its_own() -> None:
    with with_plugins():
        assert {rules for _, rules in cases()} == set(ruleset_ids())
    assert ("declare", "example-declare") in cases()


@pytest.mark.parametrize(("name", "rules"), cases())
@pytest.mark.parametrize("kind", ["doctrine", "random"])
def test_playout_conforms(name: str, rules: str, kind: str) -> None:
    record = fought(name, rules, kind, 11)
    checked_steps(record)
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


def test_the_table_check_finds_a_piece_or_a_stand_over_the_edge() -> None:
    """The check after every action is no empty one: a piece a hair inside the edge passes,
    one a tenth of an inch over it, or a stand of it kept apart, is named."""
    with with_plugins():
        name, rules = next(c for c in cases() if c[1] == "declare-thee-sir")
        game = Game(get_ruleset(rules), load_named(name))
        state, _ = game.start(SeededDice(1))
    piece = next(u for u in state.iter_units() if u.in_play)
    inside = piece.evolve(x=piece.x - min(x for x, _ in piece.base.corners()))
    assert off_the_table(game, state.with_unit(inside)) == []
    over = inside.evolve(x=inside.x - 0.1)
    assert off_the_table(game, state.with_unit(over)) == [f"{piece.id} at ({over.x:.2f}, {over.y:.2f})"]
    apart = inside.evolve(stands=(Stand(inside.x, inside.y, inside.facing, 1.0, 1.0),
                                  Stand(-0.4, inside.y, inside.facing, 1.0, 1.0)))
    assert off_the_table(game, state.with_unit(apart)) == [f"{piece.id} at ({inside.x:.2f}, {inside.y:.2f})"]
    lost = Stand(-0.4, inside.y, inside.facing, 1.0, 1.0, "off the table")
    gone = apart.evolve(stands=(apart.stands[0], lost))
    assert off_the_table(game, state.with_unit(gone)) == []


def test_the_table_check_finds_pieces_standing_on_each_other() -> None:
    """Pieces touching pass; one a tenth of an inch onto another is named with it; a general
    standing on his troops is no fault. A unit whose stands stand apart is judged by each
    stand, not by each on another of its own; and it stands where its colours do."""
    with with_plugins():
        name, rules = next(c for c in cases() if c[1] == "declare-thee-sir")
        game = Game(get_ruleset(rules), load_named(name))
        state, _ = game.start(SeededDice(1))
    a, b = [u.evolve(facing=0.0) for u in state.iter_units() if u.in_play and not u.is_commander][:2]
    general = next(u for u in state.iter_units() if u.in_play and u.is_commander)

    def alone(*pieces: Unit) -> GameState:
        return state.evolve(units={u.id: u for u in pieces})

    a = a.evolve(x=20.0, y=20.0)
    touching = b.evolve(x=a.x + (a.width + b.width) / 2, y=a.y)
    assert overlapping(alone(a, touching)) == []
    onto = touching.evolve(x=touching.x - 0.1)
    assert overlapping(alone(a, onto)) == [f"{a.id} and {b.id}"]
    assert overlapping(alone(a, general.evolve(x=a.x, y=a.y))) == []
    # a unit whose stands stand apart: each stand counts, but its own stands on each other
    stand = Stand(a.x, a.y, 0.0, 1.5, 1.0)
    far = b.evolve(x=40.0, y=30.0, width=1.5, depth=1.0,
                   stands=(Stand(40.0, 30.0, 0.0, 1.5, 1.0), stand, stand))
    assert overlapping(alone(a, far)) == [f"{a.id} and {b.id}"]
    assert overlapping(alone(a.evolve(x=10.0), far)) == []
    assert colours_astray(alone(far)) == [] and colours_astray(alone(far.evolve(x=39.0))) == [b.id]
