"""The measure ``benchmarks/idle_units.py`` reports: a unit's turns spent standing still
with no enemy near, counted from the positions as each turn began."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from tertia.core.state import GameState

from .benchmark_scripts import load_benchmark
from .d3_support import COMMANDS, foot, horse
from .support import P, R, make_game, unit


@pytest.fixture(scope="module")
def idle_units() -> ModuleType:
    return load_benchmark("idle_units")


def _at(state: GameState, turn: int, **places: tuple[float, float]) -> GameState:
    """``state`` in ``turn`` with the units named moved to the places given."""
    for uid, (x, y) in places.items():
        state = state.with_unit(state.units[uid].evolve(x=x, y=y))
    return state.evolve(turn=turn)


def _record(*states: GameState) -> Any:
    """A battle record of these positions, the first its start and the last its end."""
    return SimpleNamespace(initial_state=states[0], steps=[SimpleNamespace(state=s) for s in states[1:]],
                           final_state=states[-1])


def test_a_unit_standing_still_far_from_the_enemy_is_idle_and_one_moving_or_near_is_not(
        idle_units: ModuleType) -> None:
    """Turn 1: the far foot stand still 30" from the enemy (idle), the horse ride 6" in two
    moves (not idle), the near foot stand still 8" from the enemy (not idle), the gun
    stands (never counted). Turn 2: the far foot move 1" and the horse 3" (neither idle);
    the battle ends as turn 3 begins."""
    game = make_game([foot("far", P, 10, 5), horse("rider", P, 30, 5), foot("near", P, 60, 30),
                      unit("gun", P, "artillery", 40, 5), foot("enemy", R, 60, 41, 180)], rules=COMMANDS)
    start = game.ruleset.initial_state(game.scenario).evolve(turn=1)
    mid = _at(start, 1, rider=(30, 8))
    second = _at(mid, 2, rider=(30, 11))
    end = _at(second, 3, far=(10, 6), rider=(30, 14))
    idle, counted = idle_units.idle_turns(_record(start, mid, second, end), P, 12.0)
    assert dict(idle) == {"far": 1}
    assert counted == 6  # far, rider and near in each of two turns; the gun left out


def test_the_far_bound_is_measured_between_the_circles_about_the_bases(idle_units: ModuleType) -> None:
    """Bases 4" wide and 3" deep (half-diagonals 2.5"): centres 16" apart leave
    16 - 2 x 2.5 = 11" between the circles about them, within 12" (not idle) but beyond
    10" (idle)."""
    game = make_game([foot("f", P, 30, 20), foot("e", R, 30, 36, 180)], rules=COMMANDS)
    start = game.ruleset.initial_state(game.scenario).evolve(turn=1)
    record = _record(start, start.evolve(turn=2))
    assert dict(idle_units.idle_turns(record, P, 12.0)[0]) == {}
    assert dict(idle_units.idle_turns(record, P, 10.0)[0]) == {"f": 1}
