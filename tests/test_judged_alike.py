"""A rule set that declares its secrets never bear on legality (``HIDDEN_NEVER_JUDGED``)
judges every action alike on a side's playable state and on the position itself, and the
game then validates a player's chosen action once."""

from __future__ import annotations

import random

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.lookup import proposer_for
from tertia.battle import fight_battle
from tertia.core.dice import SeededDice
from tertia.core.game import _JUDGED_ALIKE, Game
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import resolve_scenario

ALIKE = [r for r in ruleset_ids() if get_ruleset(r).HIDDEN_NEVER_JUDGED]


def test_d3_commands_and_charge_yr_pikes_declare_it() -> None:
    assert {"d3-commands", "charge-yr-pikes"} <= set(ALIKE)


@pytest.mark.parametrize("rules", ALIKE)
def test_every_proposal_is_judged_alike_on_the_playable_state(rules: str) -> None:
    game = Game(get_ruleset(rules), resolve_scenario("edgehill", rules_id=rules))
    propose = proposer_for(game.ruleset)
    rng = random.Random(3)
    dice = SeededDice(3)
    state, _ = game.start(dice)
    judged = 0
    for _ in range(150):
        if state.is_over:
            break
        view = game.ruleset.playable_state(game.table, state, state.to_act, state.step)
        proposals = propose(game, state, rng)
        for action in proposals:
            assert game.ruleset.validate(game.table, view, action) == \
                game.ruleset.validate(game.table, state, action), action
            judged += 1
        legal = [a for a in proposals if not game.ruleset.validate(game.table, state, a)]
        if not legal:
            break
        state, _ = game.apply(state, rng.choice(legal), dice)
    assert judged > 200


@pytest.mark.parametrize("rules", ALIKE)
def test_every_action_the_doctrine_tries_in_a_battle_is_judged_alike(rules: str) -> None:
    """A whole battle of the doctrine (secret deployment, officers' values and fire orders
    in play, under Charge yr Pikes!): each action judged on a playable state is judged
    again on the position it was made from, with the same answer."""
    ruleset = get_ruleset(rules)
    game = Game(ruleset, resolve_scenario("edgehill", rules_id=rules))
    validate = ruleset.validate
    judged = [0]

    def judging_both(table, state, action):  # type: ignore[no-untyped-def]
        found = validate(table, state, action)
        position = state.cache.get(_JUDGED_ALIKE)
        if position is not None:
            assert validate(table, position, action) == found, action
            judged[0] += 1
        return found

    ruleset.validate = judging_both  # type: ignore[method-assign]
    fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 1)
    assert judged[0] > 200


def test_the_chosen_action_is_validated_once() -> None:
    """The same battle, with and without the shared answers: the same actions, and fewer
    validations by about one an action (the player's own check of what it chose)."""
    calls: list[int] = []
    records = []
    for alike in (False, True):
        ruleset = get_ruleset("d3-commands")
        ruleset.HIDDEN_NEVER_JUDGED = alike  # type: ignore[misc]
        game = Game(ruleset, resolve_scenario("edgehill", rules_id="d3-commands"))
        validate = ruleset.validate
        count = [0]

        def counting(table, state, action, validate=validate, count=count):  # type: ignore[no-untyped-def]
            count[0] += 1
            return validate(table, state, action)

        ruleset.validate = counting  # type: ignore[method-assign]
        records.append(fight_battle(game, {side: DoctrinePlayer() for side in game.scenario.side_ids}, 2))
        calls.append(count[0])
    plain, shared = records
    assert [s.action for s in plain.steps] == [s.action for s in shared.steps]
    assert plain.final_state.state_hash() == shared.final_state.state_hash()
    assert calls[1] < calls[0] - len(plain.steps) // 3
