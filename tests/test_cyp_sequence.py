"""Charge yr Pikes!' movement phase: officers' values rolled, the brigade cards turned
over one at a time, command response, then moves and formation changes on the card."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.activation.deck import group_card, special_card
from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.actions import GiveFreeMove, Reform
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_setup import scenario

GRADES = [4, 1]
"""k-gen (army) rolls 4: a natural born leader; k-brig (brigadier) rolls 1: ineffective."""
DECK = [group_card("k1", "king"), group_card("k2", "king"), special_card("officers_and_artillery", "king"),
        special_card("free_move", "king"), group_card("p1", "parl"),
        special_card("officers_and_artillery", "parl"), special_card("free_move", "parl")]


def _start(script: list[int], extension: dict[str, Any] | None = None) -> tuple[Game, GameState]:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario(extension))
    state, _ = game.start(ScriptedDice(script))
    return game, state


def test_officers_values_are_rolled_by_rank_at_the_start() -> None:
    # Section 22: "Army Commander IN E E NB NB NB", "Brigadier IN IN IN E E NB".
    _, state = _start([*GRADES, 1, 5])
    assert unit_data(state.units["k-gen"]).grade == "natural_born_leader"
    assert unit_data(state.units["k-brig"]).grade == "ineffective"


def test_without_grades_no_value_is_rolled() -> None:
    game = Game(ChargeYrPikes(secret_deployment=False, officer_grades=False), scenario())
    state, _ = game.start(ScriptedDice([1, 5]))
    assert unit_data(state.units["k-gen"]).grade is None


def test_a_tertia_that_passes_its_command_response_moves_on_its_card() -> None:
    # The first card (d7 = 1) is k1's; the general, within 8" of its foot, rolls 5 on the D10.
    _, state = _start([*GRADES, 1, 5])
    g = game_data(state)
    assert g.card == DECK[0] and g.moving == ("k-foot",)
    assert state.active == "king" and len(g.deck_left) == 6


def test_a_tertia_that_fails_does_not_move_and_the_next_card_is_turned() -> None:
    # k1's general (a natural born leader) rolls a 10, the text's 0: no move. The next card
    # (d6 = 4 of the six left) is Parliament's p1; its foot, with no officer, rolls 3.
    _, state = _start([*GRADES, 1, 10, 4, 3])
    g = game_data(state)
    assert g.card == group_card("p1", "parl") and g.moving == ("p-foot",)
    assert state.active == "parl"


def test_a_move_within_the_allowance_is_legal_and_a_longer_one_is_not() -> None:
    game, state = _start([*GRADES, 1, 5])
    # Foot regiments: "Normal 8"".
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 20.0),)))
    refused = game.validate(state, Move(unit="k-foot", waypoints=((30.0, 20.5),)))
    assert [v.code for v in refused] == [CypCode.TOO_FAR]
    assert "may move 8\"" in refused[0].message


def test_a_unit_not_on_the_card_may_not_move() -> None:
    game, state = _start([*GRADES, 1, 5])
    refused = game.validate(state, Move(unit="k-horse", waypoints=((50.0, 14.0),)))
    assert [v.code for v in refused] == [CypCode.NOT_MOVING]


def test_a_unit_changes_formation_at_the_end_of_its_move_and_not_twice() -> None:
    game, state = _start([*GRADES, 1, 5])
    state, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 18.0),)), ScriptedDice([]))
    assert game.validate(state, Move(unit="k-foot", waypoints=((30.0, 19.0),)))  # one move a card
    state, _ = game.apply(state, Reform(unit="k-foot", formation="column"), ScriptedDice([]))
    foot = state.units["k-foot"]
    assert unit_data(foot).formation == "column" and (foot.width, foot.depth) == (2.0, 3.0)
    # Its front edge stays where it was: 18 + 0.75 before, 17.25 + 1.5 after.
    assert foot.y + foot.depth / 2 == pytest.approx(18.75)
    assert game.validate(state, Reform(unit="k-foot", formation="line"))


def test_a_unit_that_changed_formation_instead_of_moving_may_not_move_on_the_card() -> None:
    """Formations B: a change of formation comes at the end of the move, or stands in for
    it; a unit that has reformed on this card has had its move, and one that has neither
    moved nor reformed may still move."""
    game, state = _start([*GRADES, 1, 5])
    step = Move(unit="k-foot", waypoints=((30.0, 13.0),))
    assert game.is_legal(state, step)  # neither moved nor reformed yet
    state, _ = game.apply(state, Reform(unit="k-foot", formation="column"), ScriptedDice([]))
    refused = game.validate(state, step)
    assert [v.code for v in refused] == [CypCode.ALREADY_MOVED]


@pytest.mark.parametrize(("formation", "legal"), [("square", True), ("deployed", False), ("routed", False)])
def test_foot_may_form_square_but_deploy_only_in_a_town(formation: str, legal: bool) -> None:
    game, state = _start([*GRADES, 1, 5])
    assert game.is_legal(state, Reform(unit="k-foot", formation=formation)) is legal


def test_ending_the_card_turns_over_the_next() -> None:
    game, state = _start([*GRADES, 1, 5])
    state, _ = game.apply(state, EndPhase(), ScriptedDice([1, 8, 3]))
    # k2's card (d6 = 1): its horse and dragoons are beyond the general's 8": each rolls
    # alone, "without officer" (fails on 0, 9, 8, 7): the horse 8 stays, the dragoons 3 go.
    g = game_data(state)
    assert g.card == DECK[1] and g.moving == ("k-drag",)


def test_the_free_move_card_lets_the_commander_in_chief_name_a_tertia() -> None:
    game, state = _start([*GRADES, 4])  # the fourth card: the king's free move
    assert state.pending is not None and state.pending.kind == "cyp_free_move"
    assert not game.is_legal(state, EndPhase())
    assert not game.is_legal(state, GiveFreeMove(tertia="p1"))
    state, _ = game.apply(state, GiveFreeMove(tertia="k1"), ScriptedDice([5]))
    assert game_data(state).moving == ("k-foot",) and state.pending is None


def test_a_unit_that_does_not_move_on_a_later_card_is_standing() -> None:
    # Movement 5 E: "If they do not move on the second (or third) move, they are treated
    # as 'Standing' for fire & morale regardless of any movement on earlier moves."
    game, state = _start([*GRADES, 1, 5])
    state, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 16.0),)), ScriptedDice([]))
    assert unit_data(state.units["k-foot"]).moved
    state, _ = game.apply(state, EndPhase(), ScriptedDice([3]))  # the king's free move card
    state, _ = game.apply(state, GiveFreeMove(tertia="k1"), ScriptedDice([5]))
    assert game_data(state).moving == ("k-foot",)
    state, _ = game.apply(state, EndPhase(), ScriptedDice([1, 8, 3]))
    assert not unit_data(state.units["k-foot"]).moved


def test_a_unit_that_moves_again_on_a_later_card_is_not_standing() -> None:
    # Movement 5 E, the other side: moving on the second move, it is moving still.
    game, state = _start([*GRADES, 1, 5])
    state, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 16.0),)), ScriptedDice([]))
    state, _ = game.apply(state, EndPhase(), ScriptedDice([3]))  # the king's free move card
    state, _ = game.apply(state, GiveFreeMove(tertia="k1"), ScriptedDice([5]))
    state, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 18.0),)), ScriptedDice([]))
    state, _ = game.apply(state, EndPhase(), ScriptedDice([1, 8, 3]))
    assert unit_data(state.units["k-foot"]).moved
