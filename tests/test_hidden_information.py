"""One mechanism for what a side may not see (``tertia.core.hidden``): views refuse to be
played on, ``sample_hidden`` fills a view consistently, and two games that differ only in
what a side cannot see look the same to it everywhere (the difference test)."""

from __future__ import annotations

import itertools
import random

import pytest

from tertia.activation import command_cards as cards
from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import fight_battle
from tertia.core.actions import EndPhase
from tertia.core.game import Game
from tertia.core.hidden import HiddenInformation, is_hidden, view_of
from tertia.core.state import GameState
from tertia.io.narrative import narrate
from tertia.rulesets import get_ruleset
from tertia.rulesets.d3_commands.ai.proposals import iter_proposals
from tertia.scenarios import load_builtin


def _positions(seed: int) -> tuple[Game, list[GameState]]:
    """Every state of a d3-commands battle at which a side's card order is secret."""
    game = Game(get_ruleset("d3-commands"), load_builtin("edgehill"))
    record = fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, seed)
    states = [record.initial_state, *(s.state for s in record.steps)]
    secret = [s for s in states if any(isinstance(s.value(cards.order_key(side)), list | tuple)
                                       for side in s.sides)]
    return game, secret[:: max(1, len(secret) // 25)]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_view_cannot_be_played_on_but_a_sample_of_it_can(seed: int) -> None:
    game, states = _positions(seed)
    assert states
    for state in states:
        side = state.to_act
        view = game.observed_state(state, side)
        if view_of(view) is None:
            continue
        with pytest.raises(HiddenInformation, match=f"{side}'s view"):
            game.validate(view, EndPhase())
        sample = game.sample_hidden(view, side, random.Random(seed))
        assert view_of(sample) is None
        assert game.validate(sample, EndPhase()) == game.validate(state, EndPhase())
        # Consistent: the sample looks to the side exactly as the true state does.
        assert game.observed_state(sample, side) == view


def test_samples_range_over_every_order_of_the_unplayed_cards() -> None:
    game, states = _positions(3)
    state = next(s for s in states if any(
        len(cards.unplayed(s, side)) >= 3 for side in s.sides if side != s.to_act
        and isinstance(s.value(cards.order_key(side)), list | tuple)))
    viewer = state.to_act
    other = state.opponent(viewer)
    view = game.observed_state(state, viewer)
    assert is_hidden(view.value(cards.order_key(other)))
    seen = {tuple(cards.unplayed(game.sample_hidden(view, viewer, random.Random(i)), other))
            for i in range(3000)}
    unplayed = cards.unplayed(state, other)
    assert seen == set(itertools.permutations(unplayed))


def test_a_playable_state_is_the_sampled_view_built_in_one_step() -> None:
    game, states = _positions(1)
    for i, state in enumerate(states):
        for side in state.sides:
            composed = game.sample_hidden(game.observed_state(state, side), side, random.Random(i))
            assert game.playable_state(state, side, i) == composed


def test_a_playable_state_never_reads_the_order_it_replaces() -> None:
    game, states = _positions(2)
    for i, state in enumerate(states):
        viewer = state.to_act
        other = state.opponent(viewer)
        order = state.value(cards.order_key(other))
        if not isinstance(order, list | tuple) or len(cards.unplayed(state, other)) < 2:
            continue
        done = cards.played(state, other)
        rest = [c for c in order if c not in done]
        changed = state.with_values({cards.order_key(other): [*done, *reversed(rest)]})
        assert changed != state
        assert game.playable_state(changed, viewer, i) == game.playable_state(state, viewer, i)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_games_differing_only_in_a_secret_look_the_same_to_the_other_side(seed: int) -> None:
    game, states = _positions(seed)
    for state in states:
        for hider in state.sides:
            order = state.value(cards.order_key(hider))
            left = cards.unplayed(state, hider)
            if not isinstance(order, list) or len(left) < 2:
                continue
            twin_order = [*cards.played(state, hider), *reversed(left)]
            twin = state.with_values({cards.order_key(hider): twin_order})
            assert twin != state
            viewer = state.opponent(hider)
            # The view, and the view as JSON.
            assert game.observed_state(state, viewer) == game.observed_state(twin, viewer)
            assert game.observe(state, viewer) == game.observe(twin, viewer)
            # Refusals and their messages, for every action the viewer might try.
            if state.to_act == viewer:
                tried = [*iter_proposals(game, state, random.Random(seed)), EndPhase()]
                assert tried == [*iter_proposals(game, twin, random.Random(seed)), EndPhase()]
                for action in tried:
                    assert game.validate(state, action) == game.validate(twin, action)
            # What the viewer's player would do.
            if state.to_act == viewer:
                assert DoctrinePlayer().choose(game, state, random.Random(seed)) == \
                    DoctrinePlayer().choose(game, twin, random.Random(seed))


def test_the_log_a_side_reads_never_carries_the_others_order() -> None:
    game = Game(get_ruleset("d3-commands"), load_builtin("edgehill"))
    record = fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 5)
    for side in record.initial_state.sides:
        other = record.initial_state.opponent(side)
        seen = [e for e in record.iter_events() if game.ruleset.event_visible_to(e, side)]
        hidden_from_side = [e for e in record.iter_events() if not game.ruleset.event_visible_to(e, side)]
        assert hidden_from_side  # the check can fail: there are secrets to keep
        # The order's slot may be seen emptied at a new turn, never filled.
        assert all(getattr(e, "value", None) is None for e in seen
                   if getattr(e, "key", "") == cards.order_key(other))
        text = "\n".join(narrate(seen, record.initial_state))
        assert "card_order" not in text
