"""Declare Thee Sir, Unit Compositions and Game Play: the deck, the declaration, and the
options that move or reform a unit; the victory default."""

from __future__ import annotations

import pytest

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.events import DiceRolled, GameEnded, UnitRemoved
from tertia.core.reducer import reduce
from tertia.core.violations import IllegalAction
from tertia.rulesets.declare_thee_sir.events import (
    DECLARE,
    ChangeFormation,
    Declare,
    MoveWorkedOut,
    UnitActivated,
)
from tertia.rulesets.declare_thee_sir.sequence import full_deck
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)
HORSE = unit("ph", P, "horse", 30, 6)
GUN = unit("pg", P, "artillery", 10, 6)
ENEMY = unit("rf", R, "foot", 20, 30, 180)
GENERAL = {"id": "pc", "side": P, "command": "centre", "x": 40, "y": 3, "general": True}


def codes(game, state, action) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in game.validate(state, action)]


def test_a_card_for_each_unit_and_general_two_for_horse() -> None:
    """Unit Compositions: foot, a battery and a general one card each; cavalry two."""
    game = dts_game([FOOT, HORSE, GUN, ENEMY], commanders=[GENERAL])
    state = game.ruleset.initial_state(game.scenario)
    assert full_deck(state) == ("unit:pc", "unit:pf", "unit:pg", "unit:ph", "unit:ph#2", "unit:rf")
    # Three stands of foot, one gun, three of horse (the scenario may say two), one general.
    stands = {uid: unit_data(u).stands_left for uid, u in state.units.items()}
    assert stands == {"pc": 1, "pf": 3, "pg": 1, "ph": 3, "rf": 3}


def test_dragoons_and_commanded_shot_have_a_card_each_and_facings_are_read_round_the_compass() -> None:
    """Unit Compositions: "(One card)" for each unit but cavalry; dragoons and commanded
    musketeers, whom the list does not name, one each (row 4's reading). A general's or a
    unit's facing of a full turn or more is read round the compass (370 is 10)."""
    general = {**GENERAL, "facing": 370}
    game = dts_game([unit("pd", P, "dragoons", 20, 6), unit("ps", P, "commanded_shot", 30, 6),
                     unit("rf", R, "foot", 20, 30, 540)], commanders=[general])
    state = game.ruleset.initial_state(game.scenario)
    assert full_deck(state) == ("unit:pc", "unit:pd", "unit:ps", "unit:rf")
    assert (state.units["pc"].facing, state.units["rf"].facing) == (10.0, 180.0)


def test_cards_are_drawn_at_random_and_the_unit_drawn_awaits_its_declaration() -> None:
    """Game Play: "As cards are drawn ... units are activated. When a unit is activated, the
    units immediate commander ... declare[s] one of the following six options"."""
    game = dts_game([FOOT, HORSE, ENEMY])
    state, events = game.start(ScriptedDice([3]))  # the third of unit:pf, unit:ph, unit:ph#2, unit:rf
    draws = [e for e in events if isinstance(e, DiceRolled)]
    assert [(d.die, d.value) for d in draws] == [("d4", 3)]
    assert game_data(state).activated == "ph" and state.to_act == P
    assert state.pending is not None and state.pending.kind == DECLARE
    assert state.pending["options"] == ["formation_change", "advance", "advance_and_fire",
                                        "stand_and_fire", "rally", "defer"]


def test_a_general_moves_or_waits() -> None:
    game = dts_game([FOOT, ENEMY], commanders=[GENERAL])
    state = activated(game, "pc")
    assert state.pending is not None and state.pending["options"] == ["advance", "defer"]
    assert codes(game, state, Declare(unit="pc", option="stand_and_fire")) == [
        "declare-thee-sir.OPTION_NOT_OPEN"]


def test_only_the_activated_unit_declares_and_only_an_option_of_the_six() -> None:
    game = dts_game([FOOT, HORSE, ENEMY])
    state = activated(game, "pf")
    assert codes(game, state, Declare(unit="ph", option="advance")) == ["activation.NOT_ACTIVATED"]
    assert codes(game, state, Declare(unit="pf", option="charge")) == ["declare-thee-sir.UNKNOWN_OPTION"]
    assert codes(game, state, Declare(unit="pf", option="rally")) == ["declare-thee-sir.UNKNOWN_OPTION"]
    assert codes(game, state, Declare(unit="pf", option="rally", how="rest")) == []
    assert codes(game, state, Move(unit="pf", waypoints=((20, 8),))) == ["core.PENDING_DECISION"]


def test_advance_rolls_the_move_before_the_unit_is_placed() -> None:
    """Movement: foot 1D6; the move is rolled when the option is declared, and shown."""
    game = dts_game([FOOT, HORSE, ENEMY])
    state, events = game.apply(activated(game, "pf"), Declare(unit="pf", option="advance"),
                               ScriptedDice([4]))
    worked = [e for e in events if isinstance(e, MoveWorkedOut)]
    assert worked == [MoveWorkedOut(unit="pf", roll=4, modifiers=(), open=4, difficult=2, road=None)]
    assert state.pending is None and game_data(state).allowance == {"open": 4, "difficult": 2}


def test_horse_rolls_two_dice_and_advance_and_fire_halves_rounding_up() -> None:
    game = dts_game([FOOT, HORSE, ENEMY])
    state, events = game.apply(activated(game, "ph"), Declare(unit="ph", option="advance_and_fire"),
                               ScriptedDice([4, 3]))
    assert next(e for e in events if isinstance(e, MoveWorkedOut)).open == 4  # 7 halved, rounded up
    assert game_data(state).volleys == 1  # and one volley of fire


def test_a_placed_move_may_not_exceed_its_allowance() -> None:
    game = dts_game([FOOT, HORSE, ENEMY])
    state = activated(game, "pf", "advance", {"open": 4, "difficult": 2})
    assert codes(game, state, Move(unit="pf", waypoints=((20, 10),))) == []
    assert codes(game, state, Move(unit="pf", waypoints=((20, 10.5),))) == ["declare-thee-sir.TOO_FAR"]
    assert codes(game, state, Move(unit="pf", waypoints=((21.5, 7.5),))) == []  # oblique, 2.1"
    assert codes(game, state, Move(unit="pf", waypoints=((23, 6),))) == ["declare-thee-sir.TOO_FAR"]  # flank
    assert codes(game, state, Move(unit="pf", waypoints=((22, 6),))) == []  # flank, 2"


def test_rearward_movement_only_under_rally() -> None:
    """Movement: "For retrograde movement use game play option 5 (Rally)"."""
    game = dts_game([FOOT, HORSE, ENEMY])
    back = Move(unit="pf", waypoints=((20, 3),))
    assert codes(game, activated(game, "pf", "advance", {"open": 4, "difficult": 2}), back) == [
        "declare-thee-sir.REARWARD"]
    assert codes(game, activated(game, "pf", "rally:retire", {"open": 4, "difficult": 2}), back) == []
    assert codes(game, activated(game, "pf", "rally:rest"), back) == ["declare-thee-sir.NOT_DECLARED"]


def test_a_retiring_move_is_held_to_the_rolled_allowance() -> None:
    """Game Mechanics II: rearward movement under option 5 "is handled at the same rates as
    forward movement": the 4" rolled may be retired in full, and half an inch more is refused."""
    game = dts_game([FOOT, HORSE, ENEMY])
    retiring = activated(game, "pf", "rally:retire", {"open": 4, "difficult": 2})
    assert codes(game, retiring, Move(unit="pf", waypoints=((20, 2),))) == []
    assert codes(game, retiring, Move(unit="pf", waypoints=((20, 1.5),))) == ["declare-thee-sir.TOO_FAR"]


def test_moving_ends_the_activation_and_draws_the_next_card() -> None:
    game = dts_game([FOOT, HORSE, ENEMY])
    state = activated(game, "pf", "advance", {"open": 4, "difficult": 2})
    state = state.evolve(own=game_data(state).evolve(deck_left=("unit:rf",)))
    state, _ = game.apply(state, Move(unit="pf", waypoints=((20, 9),)), ScriptedDice([]))
    assert state.units["pf"].y == 9 and game_data(state).activated == "rf" and state.to_act == R


def test_enemies_block_a_move_friends_may_be_passed_but_not_ended_on() -> None:
    """Movement: "Units that move or rout through another unit cause a moral check": a
    move may pass through a friend, not stop on one, and never through an enemy."""
    game = dts_game([FOOT, unit("pf2", P, "foot", 20, 8.5), unit("rf", R, "foot", 20, 12, 180)])
    state = activated(game, "pf", "advance", {"open": 6, "difficult": 2})
    assert codes(game, state, Move(unit="pf", waypoints=((20, 11),))) == []
    assert codes(game, state, Move(unit="pf", waypoints=((20, 8.5),))) == ["movement.COLLISION"]
    assert codes(game, state, Move(unit="pf", waypoints=((24, 10),))) == []
    assert codes(game, state, Move(unit="pf", waypoints=((20, 11.8),))) == ["movement.COLLISION"]


def test_an_obstacle_stops_the_unit_until_its_next_activation() -> None:
    """Movement: "When a unit encounters an obstacle ... it stops. When next activated, the
    unit moves without penalty"."""
    wall = {"type": "wall", "line": [[0, 8.2], [48, 8.2]], "width": 0.4}
    game = dts_game([FOOT, ENEMY], terrain=[wall])
    state = activated(game, "pf", "advance", {"open": 6, "difficult": 2})
    assert codes(game, state, Move(unit="pf", waypoints=((20, 10),))) == ["declare-thee-sir.OBSTACLE"]
    state, _ = game.apply(state, Move(unit="pf", waypoints=((20, 7.45),)), ScriptedDice([1]))
    assert unit_data(state.units["pf"]).at_obstacle
    again = activated(game, "pf", "advance", {"open": 6, "difficult": 2})
    again = again.with_unit(state.units["pf"])
    assert codes(game, again, Move(unit="pf", waypoints=((20, 10),))) == []


def test_formation_changes_keep_the_front_and_change_the_footprint() -> None:
    """Formations: line "in side contact", long march "front to rear" (a gun turned
    sideways), hedgehog for infantry only."""
    game = dts_game([FOOT, HORSE, GUN, ENEMY])
    state = activated(game, "pf", "formation_change")
    assert (state.units["pf"].width, state.units["pf"].depth) == (4.5, 1.0)
    after, _ = game.apply(state.evolve(own=game_data(state).evolve(deck_left=("unit:rf",))),
                          ChangeFormation(unit="pf", formation="long_march"), ScriptedDice([]))
    column = after.units["pf"]
    assert (column.width, column.depth, column.y + column.depth / 2) == (1.5, 3.0, 6.5)
    assert unit_data(column).formation == "long_march"
    gun = activated(game, "pg", "formation_change")
    turned, _ = game.apply(gun.evolve(own=game_data(gun).evolve(deck_left=("unit:rf",))),
                           ChangeFormation(unit="pg", formation="long_march"), ScriptedDice([]))
    assert (turned.units["pg"].width, turned.units["pg"].depth) == (2.0, 1.5)
    horse = activated(game, "ph", "formation_change")
    assert codes(game, horse, ChangeFormation(unit="ph", formation="hedgehog")) == [
        "declare-thee-sir.FORMATION_NOT_ALLOWED"]
    assert codes(game, state, ChangeFormation(unit="pf", formation="hedgehog")) == []
    assert codes(game, state, ChangeFormation(unit="pf", formation="line")) == [
        "declare-thee-sir.SAME_FORMATION"]
    advancing = activated(game, "pf", "advance")
    assert codes(game, advancing, ChangeFormation(unit="pf", formation="hedgehog")) == [
        "declare-thee-sir.NOT_DECLARED"]


def test_defer_ends_the_activation_and_a_spent_deck_ends_the_turn() -> None:
    game = dts_game([FOOT, ENEMY])
    state = activated(game, "pf")
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([1]))
    activations = [e for e in events if isinstance(e, UnitActivated)]
    assert after.turn == 2 and len(activations) == 1  # the deck was gathered and shuffled again
    assert game_data(after).deck_left and len(game_data(after).deck_drawn) == 1


def test_the_card_of_a_unit_gone_from_play_activates_nothing_and_the_next_is_drawn() -> None:
    """Game Play: "As cards are drawn ... units are activated": a unit routed off the table
    this turn still has its card in the deck; drawn, it activates nothing, and the next
    card is drawn."""
    game = dts_game([FOOT, HORSE, GUN, ENEMY])  # one unit of three lost: the army stands
    state = reduce(activated(game, "pf"), UnitRemoved(unit="ph", reason="routed"))
    state = state.evolve(own=game_data(state).evolve(deck_left=("unit:ph", "unit:rf")))
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([1, 1]))
    assert [e.unit for e in events if isinstance(e, UnitActivated)] == ["rf"]
    assert game_data(after).activated == "rf" and after.to_act == R


def test_the_last_turn_ends_the_battle_on_points() -> None:
    game = dts_game([FOOT, ENEMY], turns=1)
    state = activated(game, "pf", "advance", {"open": 3, "difficult": 1})
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    after, events = game.apply(state, EndPhase(), ScriptedDice([]))
    assert isinstance(events[-1], GameEnded) and after.is_over
    assert events[-1].reason == "the last turn is over" and events[-1].winner is None


@pytest.mark.parametrize(("lost", "broken"), [(1, False), (2, True)])
def test_an_army_breaks_when_half_its_units_are_lost(lost: int, broken: bool) -> None:
    """Victory (not in the text; option army_breaks_at, default one half)."""
    royal = [unit(f"r{i}", R, "foot", 6 + 8 * i, 30, 180) for i in range(4)]
    game = dts_game([FOOT, *royal])
    state = activated(game, "pf")
    for i in range(lost):
        state = reduce(state, UnitRemoved(unit=f"r{i}", reason="routed"))
    state = state.evolve(own=game_data(state).evolve(deck_left=("unit:r3",)))
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([]))
    assert after.is_over is broken
    if broken:
        assert events[-1] == GameEnded(winner=P, score={P: 2, R: 0}, reason="the beaten army breaks",
                                       breakdown={P: {"enemy_units_lost": 2, "objectives_held": 0},
                                                  R: {"enemy_units_lost": 0, "objectives_held": 0}})


def test_a_general_in_place_of_a_unit_is_not_counted_and_the_option_declared_is_refused_twice() -> None:
    game = dts_game([FOOT, ENEMY], commanders=[GENERAL])
    state, _ = game.apply(activated(game, "pf"), Declare(unit="pf", option="advance"), ScriptedDice([2]))
    with pytest.raises(IllegalAction, match="already declared"):
        game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([]))


def test_dragoons_mount_and_dismount_as_a_formation_change() -> None:
    """Movement and Fire tell mounted dragoons (2D6, 3" + 1D6) from dismounted ones (1D6,
    6" + 1D6); mounting or dismounting is a formation change."""
    game = dts_game([unit("pd", P, "dragoons", 20, 6), ENEMY, FOOT | {"x": 30}],
                    table={"regiments": [{"unit": "pd", "mounted": False}]})
    state = activated(game, "pd", "formation_change")
    assert not unit_data(state.units["pd"]).mounted
    assert codes(game, state, ChangeFormation(unit="pd", formation="dismount")) == [
        "declare-thee-sir.SAME_FORMATION"]
    after, _ = game.apply(state.evolve(own=game_data(state).evolve(deck_left=("unit:rf",))),
                          ChangeFormation(unit="pd", formation="mount"), ScriptedDice([]))
    assert unit_data(after.units["pd"]).is_mounted
    foot = activated(game, "pf", "formation_change")
    assert codes(game, foot, ChangeFormation(unit="pf", formation="mount")) == [
        "declare-thee-sir.FORMATION_NOT_ALLOWED"]
