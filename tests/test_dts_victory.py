"""Declare Thee Sir's victory (not in the text; the clause table's choice): an army breaks
when half its units are lost (option ``army_breaks_at``), an objective held as a turn ends
ends the battle when the scenario says so, and at the end points are scored for enemy
units lost and objectives held (option ``objective_points``)."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.events import GameEnded, TurnBegan, UnitRemoved
from tertia.core.game import Game
from tertia.core.reducer import reduce
from tertia.core.state import GameState
from tertia.rulesets.declare_thee_sir.events import Declare
from tertia.rulesets.declare_thee_sir.values import game_data

from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)
ENEMY = unit("rf", R, "foot", 20, 30, 180)


def mill(**values: Any) -> dict[str, Any]:
    """An objective about (20, 6), where ``pf`` stands."""
    return {"name": "the mill", "x": 20, "y": 6, "radius": 3, **values}


def turn_ends(game: Game, state: GameState | None = None) -> tuple[GameState, list[Any]]:
    """``pf`` defers with no card left: the turn ends."""
    state = state or activated(game, "pf")
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    return game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([1] * 4))


@pytest.mark.parametrize(("objective", "extra", "options", "held"), [
    (mill(ends_game=False), [], {}, 2),
    (mill(ends_game=False), [], {"objective_points": 3}, 3),
    (mill(ends_game=False), [unit("rx", R, "commanded_shot", 21, 8, 180)], {}, 0),  # contested
    (mill(ends_game=False, side=R), [], {}, 0),                                      # not Parliament's
    ({**mill(ends_game=False), "x": 30}, [], {}, 0),                                 # out of reach
])
def test_objectives_held_when_the_last_turn_ends_score_their_points(
        objective: dict[str, Any], extra: list[dict[str, Any]], options: dict[str, Any], held: int) -> None:
    game = dts_game([FOOT, ENEMY, *extra], objectives=[objective], turns=1, **options)
    after, events = turn_ends(game)
    end = events[-1]
    assert isinstance(end, GameEnded) and end.reason == "the last turn is over"
    assert end.breakdown[P] == {"enemy_units_lost": 0, "objectives_held": held}
    assert end.winner == (P if held else None)
    assert game.ruleset.presentation().summary(after)["score"][P] == held


def test_a_routing_unit_holds_nothing() -> None:
    game = dts_game([FOOT, ENEMY], objectives=[mill(ends_game=False)], turns=1)
    state = activated(game, "rf")
    state = state.with_unit(state.units["pf"].evolve(routing=True, morale=0, morale_max=2))
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    _, events = game.apply(state, Declare(unit="rf", option="defer"), ScriptedDice([]))
    assert events[-1].breakdown[P]["objectives_held"] == 0


@pytest.mark.parametrize(("objective", "ended"), [
    (mill(), True),                  # ends_game is true unless the scenario says otherwise
    (mill(ends_game=False), False),
    ({**mill(), "x": 30}, False),    # nobody holds it
])
def test_an_objective_that_ends_the_battle_ends_it_when_held_as_a_turn_ends(
        objective: dict[str, Any], ended: bool) -> None:
    game = dts_game([FOOT, ENEMY], objectives=[objective], turns=5)
    after, events = turn_ends(game)
    assert after.is_over is ended
    if ended:
        assert events[-1] == GameEnded(winner=P, score={P: 2, R: 0}, reason="the victors hold the mill",
                                       breakdown={P: {"enemy_units_lost": 0, "objectives_held": 2},
                                                  R: {"enemy_units_lost": 0, "objectives_held": 0}})
    else:
        assert any(isinstance(e, TurnBegan) and e.turn == 2 for e in events)


def test_each_side_holding_an_objective_that_ends_the_battle_ends_it_on_points() -> None:
    keep = {"name": "the keep", "x": 20, "y": 30, "radius": 3}
    game = dts_game([FOOT, ENEMY], objectives=[mill(), keep], turns=5)
    after, events = turn_ends(game)
    assert after.is_over and events[-1].reason == "each side holds an objective"
    assert events[-1].winner is None and events[-1].score == {P: 2, R: 2}


@pytest.mark.parametrize(("breaks_at", "lost", "broken"), [
    (0.5, 1, False), (0.5, 2, True), (0.25, 1, True), (1.0, 3, False), (1.0, 4, True)])
def test_the_share_of_units_lost_that_breaks_an_army_is_an_option(breaks_at: float, lost: int,
                                                                  broken: bool) -> None:
    royal = [unit(f"r{i}", R, "foot", 6 + 8 * i, 30, 180) for i in range(4)]
    game = dts_game([FOOT, *royal], army_breaks_at=breaks_at)
    state = activated(game, "pf")
    for i in range(lost):
        state = reduce(state, UnitRemoved(unit=f"r{i}", reason="routed"))
    state = state.evolve(own=game_data(state).evolve(deck_left=("unit:r3",)))
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([]))
    assert after.is_over is broken
    if broken:
        assert events[-1].winner == P and events[-1].reason == "the beaten army breaks"


def test_both_armies_breaking_together_end_the_battle_on_points() -> None:
    game = dts_game([FOOT, unit("pf2", P, "foot", 30, 6), ENEMY, unit("rf2", R, "foot", 30, 30, 180)])
    state = activated(game, "pf")
    for gone in ("pf2", "rf"):
        state = reduce(state, UnitRemoved(unit=gone, reason="routed"))
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([]))
    assert after.is_over and events[-1].reason == "both armies break" and events[-1].winner is None


def test_the_options_refuse_values_out_of_range() -> None:
    with pytest.raises(ValueError, match="objective_points"):
        dts_game([FOOT, ENEMY], objective_points=-1)
    with pytest.raises(ValueError, match="army_breaks_at"):
        dts_game([FOOT, ENEMY], army_breaks_at=0.0)


def test_the_summary_counts_each_sides_units_lost_and_scores_them() -> None:
    """Victory (the clause table's choice): points for enemy units lost; the summary a
    player reads gives each side's units lost so far (not the units it began with) and the
    score they make."""
    game = dts_game([FOOT, unit("pf2", P, "foot", 30, 6), ENEMY])
    state = reduce(activated(game, "rf"), UnitRemoved(unit="pf", reason="routed"))
    summary = game.ruleset.presentation().summary(state)
    assert summary["units_lost"] == {P: 1, R: 0}
    assert summary["score"] == {P: 0, R: 1}
    assert summary["activated"] == "rf"
