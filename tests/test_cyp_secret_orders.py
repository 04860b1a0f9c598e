"""Charge yr Pikes!' fire orders, given in secret (Sequence of play C-E): until a fire
step is worked out a side sees none of the other side's orders, in its view or its log;
the fire itself is seen by both."""

from __future__ import annotations

import random
from functools import cache

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import BattleRecord, fight_battle
from tertia.core.events import DiceRolled
from tertia.core.game import Game
from tertia.core.hidden import view_of
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.actions import FireOrder
from tertia.rulesets.charge_yr_pikes.events import FireOrdered
from tertia.rulesets.charge_yr_pikes.values import game_data
from tertia.scenarios import load_builtin


@cache
def _battle() -> BattleRecord:
    """Naseby fought by the doctrine players, officers' values off (the other secret)."""
    game = Game(ChargeYrPikes(secret_deployment=False, officer_grades=False), load_builtin("naseby"))
    return fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 1)


def _ordering() -> tuple[Game, GameState, str]:
    """The first position in which the second side is to give its orders in a fire step
    the first side has given orders in, and that first side."""
    record = _battle()
    for step in record.steps:
        state = step.state
        g = game_data(state)
        if g.step is not None and g.orders and g.step_side is not None:
            givers = {state.units[o[0]].side for o in g.orders}
            if givers and g.step_side not in givers:
                return record.game, state, givers.pop()
    raise AssertionError("no fire step with the first side's orders given")


def test_the_other_side_sees_none_of_the_orders_given() -> None:
    game, state, giver = _ordering()
    other = state.opponent(giver)
    theirs = game.observed_state(state, other)
    assert game_data(theirs).orders == () and view_of(theirs) == other
    assert game_data(game.observed_state(state, giver)).orders == game_data(state).orders


def test_two_positions_differing_only_in_the_orders_look_alike_to_the_other_side() -> None:
    game, state, giver = _ordering()
    other = state.opponent(giver)
    g = game_data(state)
    changed = state.evolve(own=g.evolve(orders=g.orders[:-1]))
    assert changed != state
    assert game.observed_state(changed, other) == game.observed_state(state, other)


def test_the_sides_own_orders_stay_and_it_plays_on_a_sample_of_its_view() -> None:
    game, state, giver = _ordering()
    other = state.opponent(giver)
    playable = game.playable_state(state, other, 1)
    assert view_of(playable) is None and game_data(playable).orders == ()
    assert playable == game.sample_hidden(game.observed_state(state, other), other, random.Random(1))


def test_an_order_is_out_of_the_other_sides_log_and_the_fire_in_both() -> None:
    game, state, giver = _ordering()
    other = state.opponent(giver)
    ordered = FireOrdered(unit="u", target="t", kind="musket", side=giver)
    assert game.ruleset.event_visible_to(ordered, giver)
    assert not game.ruleset.event_visible_to(ordered, other)
    record = _battle()
    fired = [e for s in record.steps for e in s.events
             if isinstance(e, DiceRolled) and e.purpose.startswith(("musketry", "ball", "canister"))]
    assert fired and all(game.ruleset.event_visible_to(e, side) for e in fired[:20] for side in state.sides)


def test_the_order_names_the_side_that_gave_it() -> None:
    record = _battle()
    orders = [(s.action, e) for s in record.steps for e in s.events if isinstance(e, FireOrdered)]
    assert orders
    for action, event in orders:
        assert isinstance(action, FireOrder)
        assert event.side == record.initial_state.units[action.unit].side
