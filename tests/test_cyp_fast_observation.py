"""Charge yr Pikes!' observation built fast, and exactly as the slow way builds it.

A player builds its side's observation before every decision
(:func:`tertia.ai.observation.playable_view`). ``observation.observed`` returns the state
itself at once when nothing of it is secret from the side (``observation.hides_from``, one
pass over the pieces, kept on the state), and ``observation.playable`` draws hidden
officers' values in one step when they (and fire orders) are all that is hidden. Over
whole battles, with and without secret deployment and officers' values, both give at
every position, for each side, exactly what the three secrets' own functions composed
give.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import Step, fight_battle
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes import concealment, observation, secret_grades, secret_orders
from tertia.rulesets.charge_yr_pikes.values import unit_data
from tertia.scenarios import load_builtin

RULES = "charge-yr-pikes"


def slow_observed(game: Game, state: GameState, side: str) -> GameState:
    """The three secrets hidden one after the other, each scanning every piece."""
    state = secret_orders.hide(state, side)
    state = secret_grades.hide(state, side)
    return concealment.hide(game.table, state, side)


def check(game: Game, state: GameState, seen: Counter[str]) -> None:
    for side in state.sides:
        slow = slow_observed(game, state, side)
        hides = observation.hides_from(state, side)
        assert hides == (slow is not state)
        fast = game.observed_state(state, side)
        assert fast == slow
        assert (fast is state) == (not hides)
        sampled = game.sample_hidden(slow, side, random.Random(state.step))
        assert game.playable_state(state, side, state.step) == sampled
        seen["nothing hidden" if not hides else "something hidden"] += 1
        seen["orders"] += secret_orders.hides_from(state, side)
        seen["grades"] += any(secret_grades.is_secret_from(u, side) for u in state.units.values())
        seen["pieces"] += bool(concealment.hidden_from(state, side))


@pytest.mark.parametrize(("scenario", "options", "secrets"), [
    ("edgehill", {"secret_deployment": True, "officer_grades": True}, ("orders", "grades", "pieces")),
    ("naseby", {"secret_deployment": False, "officer_grades": True}, ("orders", "grades")),
    ("naseby", {"secret_deployment": False, "officer_grades": False}, ("orders",)),
])
def test_the_fast_observation_is_the_slow_one_over_whole_battles(
        scenario: str, options: dict[str, Any], secrets: tuple[str, ...]) -> None:
    game = Game(get_ruleset(RULES, **options), load_builtin(scenario, rules_id=RULES))
    seen: Counter[str] = Counter()

    def on_step(step: Step) -> None:
        check(game, step.state, seen)

    record = fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 3, on_step=on_step)
    check(game, record.initial_state, seen)
    assert record.steps[-1].state.is_over
    for secret in secrets:  # each secret was met, and positions hiding nothing too
        assert seen[secret] > 0, secret
    assert seen["something hidden"] > 0
    if not options["officer_grades"]:  # the fast path's own case: nothing hidden at all
        assert seen["grades"] == 0 and seen["nothing hidden"] > 0


def test_officers_values_drawn_in_one_step_never_read_the_true_ones() -> None:
    """Two positions differing only in an unrevealed officer's value give the side that
    may not see it the same playable position."""
    game = Game(get_ruleset(RULES, secret_deployment=False), load_builtin("naseby", rules_id=RULES))
    state, _ = game.start(SeededDice(5))
    side = state.sides[0]
    officer = next(u for u in state.units.values() if secret_grades.is_secret_from(u, side))
    other = next(g for g in ("ineffective", "effective", "natural_born_leader")
                 if g != unit_data(officer).grade)
    changed = state.with_unit(officer.evolve(grade=other))
    assert changed != state
    assert game.playable_state(changed, side, 9) == game.playable_state(state, side, 9)


def test_with_units_is_with_unit_in_turn_and_keeps_the_memos() -> None:
    game = Game(get_ruleset(RULES, secret_deployment=False), load_builtin("naseby", rules_id=RULES))
    state, _ = game.start(SeededDice(5))
    list(state.iter_units())  # the selections remembered
    officers = [u for u in state.units.values() if unit_data(u).grade is not None][:3]
    changed = [u.evolve(grade="effective") for u in officers]
    one_by_one = state
    for unit in changed:
        one_by_one = one_by_one.with_unit(unit)
    together = state.with_units(changed)
    assert together == one_by_one != state
    assert together.measured is state.measured and together.rosters is state.rosters
    assert list(together.iter_units()) == list(one_by_one.iter_units())
    assert [u for u in together.iter_units() if u.id == officers[0].id] == [changed[0]]
    moved = [officers[0].evolve(x=officers[0].x + 1.0)]  # a move: one at a time, memos cut
    assert state.with_units(moved) == state.with_unit(moved[0])
    assert state.with_units([]) is state
