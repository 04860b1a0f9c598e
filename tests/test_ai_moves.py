"""Candidate moves (:mod:`tertia.ai.moves`): what a player proposes before the rules judge."""

from __future__ import annotations

import pytest

from tertia.ai.moves import MIN_STEP, move_towards
from tertia.core.game import Game
from tertia.core.geometry import Point
from tertia.core.state import GameState

from .support import P, counting_legality, make_game, position, unit


def _unordered_horse() -> tuple[Game, GameState, Point]:
    """larger-battles: a regiment of horse with no order to move (Orders), open ground
    ahead: the way is clear, yet the rules refuse it any step."""
    game = make_game([unit("h", P, "horse", 36, 10), unit("e", "royalist", "foot", 36, 40, 180.0)])
    return game, position(game), (36.0, 20.0)


@pytest.mark.parametrize("shorter", [4.0, 1.0])
def test_a_line_whose_least_step_is_refused_is_not_put_to_the_rules_again_at_a_shorter_reach(
        shorter: float) -> None:
    """A unit with no order: its whole move and its least step are refused, so
    :func:`move_towards` (``least_first``) finds no way; asked again along the same line at
    a shorter reach it answers the same without asking the rules."""
    game, state, goal = _unordered_horse()
    horse = state.units["h"]
    asked = counting_legality(game)
    assert move_towards(game, state, horse, goal, 8.0, least_first=True) is None
    assert len(asked) == 2  # the whole move, then the least step
    asked.clear()
    assert move_towards(game, state, horse, goal, shorter, least_first=True) is None
    assert asked == []


@pytest.mark.parametrize("change", ["longer", "goal", "face", "plain"])
def test_a_barred_line_is_asked_again_for_a_longer_reach_another_line_or_without_least_first(
        change: str) -> None:
    """What was found barred answers only the same line at no greater reach: a longer
    move, another goal, a pivot first, or a search without ``least_first`` is put to the
    rules anew."""
    game, state, goal = _unordered_horse()
    horse = state.units["h"]
    asked = counting_legality(game)
    assert move_towards(game, state, horse, goal, 6.0, least_first=True) is None
    asked.clear()
    reach, aim, face, least_first = 6.0, goal, None, True
    if change == "longer":
        reach = 8.0
    elif change == "goal":
        aim = (40.0, 20.0)
    elif change == "face":
        face = 10.0
    else:
        least_first = False
    assert move_towards(game, state, horse, aim, reach, face=face, least_first=least_first) is None
    assert len(asked) >= 2 and all(a.unit == "h" for a in asked)  # type: ignore[attr-defined]


def test_a_way_clear_for_less_than_the_least_step_stays_barred_at_a_shorter_reach() -> None:
    """A regiment of horse touching a friend ahead: its way is clear for less than
    :data:`~tertia.ai.moves.MIN_STEP`, so no move is proposed, at any reach; the second
    time the position's memo answers, and the rules are asked nothing either time."""
    game = make_game([unit("h", P, "horse", 36, 10), unit("f", P, "foot", 36, 10),
                      unit("e", "royalist", "foot", 36, 40, 180.0)])
    state = position(game, orders=(("h", "move"),))
    horse, friend = state.units["h"], state.units["f"]
    state = state.with_unit(friend.evolve(y=horse.y + (horse.depth + friend.depth) / 2))
    asked = counting_legality(game)
    for reach in (8.0, 3.0, MIN_STEP):
        assert move_towards(game, state, horse, (36.0, 30.0), reach, least_first=True) is None
    assert asked == []
    assert any(key[0] == "barred line" for key in state.cache if isinstance(key, tuple))
