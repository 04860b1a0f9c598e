"""What each rule set declares of its facts' values (``FactSpec.words``, ``FactSpec.most``)
holds of every value its pieces show: over the start and the first actions of a battle
its AI fights, every word shown is one it declares and every number (a count's limit too)
is at most its declared largest, for a referee and for each side. Every registered rule set
is checked, the example plugin's among them, so a rule set added later is too."""

from __future__ import annotations

import contextlib

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import BattleAborted, fight_battle
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.presentation import Fact, FactKind, FactSpec
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import default_scenario, load_named
from tests.plugin_rules import with_plugins

with with_plugins():
    RULES = ruleset_ids()

ACTIONS = 400
"""How far into each battle the positions are taken."""
EVERY = 20
"""A position is looked at after every this many actions."""


def outside(fact: Fact, spec: FactSpec) -> list[str]:
    """How ``fact`` goes beyond its declaration ``spec``: a word not among its ``words``, a
    value or limit above its ``most``."""
    found = []
    if spec.words is not None and isinstance(fact.value, str) and fact.value not in spec.words:
        found.append(f"{spec.key} shows {fact.value!r}, not among {spec.words}")
    if spec.most is not None:
        for name, number in (("value", fact.value), ("limit", fact.limit)):
            if isinstance(number, int | float) and not isinstance(number, bool) and number > spec.most:
                found.append(f"{spec.key} shows a {name} of {number}, above its most of {spec.most:g}")
    return found


def _positions(game: Game, seed: int = 3) -> list[GameState]:
    """The start of a battle the AI fights and a position every :data:`EVERY` actions."""
    states: list[GameState] = []
    players = {side: DoctrinePlayer() for side in game.scenario.side_ids}
    # Not over within ACTIONS actions (BattleAborted): the positions so far are enough.
    with contextlib.suppress(BattleAborted):
        fight_battle(game, players, seed, max_actions=ACTIONS, on_step=lambda step: states.append(step.state))
    return [game.start(SeededDice(seed))[0], *states[EVERY - 1::EVERY]]


@pytest.mark.parametrize("rules", RULES)
def test_every_value_shown_is_within_its_declaration(rules: str) -> None:
    with with_plugins():
        game = Game(get_ruleset(rules), load_named(default_scenario(rules), rules_id=rules))
        shows = game.ruleset.presentation()
        checked = 0
        problems: set[str] = set()
        for state in _positions(game):
            for viewer in (None, *state.sides):
                seen = state if viewer is None else game.observed_state(state, viewer)
                for uid in seen.units:
                    for fact, spec in shows.piece(game.table, seen, uid, viewer).facts:
                        problems.update(f"{uid}: {problem}" for problem in outside(fact, spec))
                        checked += spec.words is not None or spec.most is not None
    assert not problems, f"{rules}: " + "; ".join(sorted(problems))
    assert checked, f"{rules}: no piece showed a fact with declared words or a largest number"


@pytest.mark.parametrize(("fact", "spec", "problems"), [
    (Fact("order", "column"), FactSpec("order", "Order", FactKind.WORD, words=("line", "column")), 0),
    (Fact("order", "wedge"), FactSpec("order", "Order", FactKind.WORD, words=("line", "column")), 1),
    (Fact("morale", 3, words="3 points"), FactSpec("morale", "Morale", FactKind.WORD, most=3), 0),
    (Fact("hits", 2, limit=5), FactSpec("hits", "Hits", FactKind.COUNT, most=4), 1),
    (Fact("hits", 6, limit=5), FactSpec("hits", "Hits", FactKind.COUNT, most=4), 2),
    (Fact("hits", 9, limit=5), FactSpec("hits", "Hits", FactKind.COUNT), 0),
])
def test_a_value_beyond_its_declaration_is_found(fact: Fact, spec: FactSpec, problems: int) -> None:
    """The check above finds a word not declared and a number (or limit) above the largest."""
    assert len(outside(fact, spec)) == problems
