"""Charge yr Pikes!' Horse and Foot cards (``[cards] by_arm``; Dragoons 18 B: "When using
move cards divided into 'Horse' or 'foot' cards, dragoons may move on either type of move
cards"): dealt, drawn and played."""

from __future__ import annotations

from tertia.activation.deck import group_card, special_card
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.cards import brigade_deck, moved_by
from tertia.rulesets.charge_yr_pikes.plunder import RETURNING
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.sequence import arm_card
from tertia.rulesets.charge_yr_pikes.tables import Cards, default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_melee_support import DEPTH, dice_left, piece, state_of, tx_with
from .test_cyp_command import _state
from .test_cyp_setup import scenario

BY_ARM = Cards(by_arm=True)
HORSE, FOOT = special_card("horse", "king"), special_card("foot", "king")
ARMS = {"tables": {"cards": {"by_arm": True}}}


def _ids(state: GameState, card: str) -> list[str]:
    return [u.id for u in moved_by(state, card)]


def test_by_arm_each_army_has_a_horse_and_a_foot_card_for_the_arms_it_has() -> None:
    _, state = _state()
    assert brigade_deck(state, BY_ARM) == (
        HORSE, FOOT, special_card("officers_and_artillery", "king"), special_card("free_move", "king"),
        # Parliament has foot only: no Horse card.
        special_card("foot", "parl"), special_card("officers_and_artillery", "parl"),
        special_card("free_move", "parl"),
    )


def test_the_tertia_cards_are_dealt_unless_the_club_deals_by_arm() -> None:
    _, state = _state()
    assert HORSE not in brigade_deck(state, default_tables().cards)
    assert default_tables().cards.by_arm is False


def test_the_horse_card_moves_horse_the_foot_card_foot_and_dragoons_either() -> None:
    _, state = _state({"officers": [{"commander": "k-brig", "rank": "brigadier", "attached_to": "k-foot"}]})
    assert _ids(state, HORSE) == ["k-horse", "k-drag"]
    # The officer in the foot's front rank goes with it; the field gun stays on the
    # Officers & Artillery card.
    assert _ids(state, FOOT) == ["k-brig", "k-foot", "k-drag"]


def test_a_galloper_goes_on_its_units_arm_card() -> None:
    _, state = _state({"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                                      "attached_to": "k-horse"}]})
    assert _ids(state, HORSE) == ["k-horse", "k-drag", "k-gun"]
    assert "k-gun" not in _ids(state, FOOT)


def test_dragoons_that_moved_or_mounted_this_turn_wait_for_no_other_card() -> None:
    _, state = _state()
    drag = state.units["k-drag"]
    moved = state.with_unit(drag.evolve(own=unit_data(drag).evolve(moved=True)))
    remounted = state.with_unit(drag.evolve(own=unit_data(drag).evolve(remounted=True)))
    assert "k-drag" not in _ids(moved, FOOT) and "k-drag" not in _ids(remounted, HORSE)
    assert "k-horse" in _ids(moved, HORSE)  # the horse are no dragoons: on their card always


def test_the_horse_card_is_drawn_and_its_units_test_and_move() -> None:
    # The officers' grades (4, 1), then the first of seven cards: king's Horse card. The
    # horse and dragoons of k2 are beyond every officer's 8": each rolls without officer.
    game = Game(ChargeYrPikes(secret_deployment=False), scenario(ARMS))
    state, _ = game.start(ScriptedDice([4, 1, 1, 5, 10]))
    g = game_data(state)
    assert g.card == HORSE and g.moving == ("k-horse",)  # the dragoons rolled a 0: no move
    assert game.is_legal(state, Move(unit="k-horse", waypoints=((50.0, 16.0),)))
    assert not game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 16.0),)))


def test_dragoons_that_did_not_move_on_the_horse_card_test_again_on_the_foot_card() -> None:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario(ARMS))
    dice = ScriptedDice([4, 1, 1, 5, 10, 1, 5, 5])  # Horse card; then the first card left: Foot
    state, _ = game.start(dice)
    state, _ = game.apply(state, EndPhase(), dice)
    g = game_data(state)
    assert g.card == FOOT and set(g.moving) == {"k-foot", "k-drag"} and dice.remaining == 0


def test_horse_back_from_plunder_come_back_on_the_horse_card() -> None:
    # 21 C: "Cavalry returns next move on its card": with Horse and Foot cards, the Horse.
    h = piece("h", "king", "horse", 30.0, 36.0)
    h = h.evolve(removed="plundering", own=unit_data(h).evolve(
        plundering=RETURNING, plunder_x=30.0, plunder_y=DEPTH, plunder_turn=3))
    state = state_of(h, turn=4)
    foot = tx_with(state)
    arm_card(foot, default_tables(), FOOT, graded=True)
    assert not foot.state.units["h"].in_play
    back = tx_with(state, 3)  # re-enters at its exit point
    arm_card(back, default_tables(), HORSE, graded=True)
    assert back.state.units["h"].in_play and game_data(back.state).moving == ("h",)
    assert dice_left(back) == 0


def test_each_armys_horse_come_back_on_its_own_horse_card() -> None:
    # 21 C for the second army as for the first: Parliament's Horse card brings back
    # Parliament's horse, and the King's Horse card does not.
    h = piece("p", "parl", "horse", 30.0, 12.0, facing=180.0)
    h = h.evolve(removed="plundering", own=unit_data(h).evolve(
        plundering=RETURNING, plunder_x=30.0, plunder_y=0.0, plunder_turn=3))
    state = state_of(h, turn=4)
    kings = tx_with(state, 3)
    arm_card(kings, default_tables(), HORSE, graded=True)
    assert not kings.state.units["p"].in_play
    back = tx_with(state, 3)
    arm_card(back, default_tables(), special_card("horse", "parl"), graded=True)
    assert back.state.units["p"].in_play and game_data(back.state).moving == ("p",)


def test_a_battle_dealt_by_arm_is_fought_to_its_end() -> None:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario(ARMS))
    record = fight_battle(game, {s: RandomPlayer() for s in game.scenario.side_ids}, 5)
    played = {e.card for s in record.steps for e in s.events if type(e).__name__ == "CardPlayed"}
    assert record.final_state.result is not None and {HORSE, FOOT} <= played


def _plundering(state: GameState, *units: str) -> GameState:
    for unit_id in units:
        u = state.units[unit_id]
        state = state.with_unit(u.evolve(removed="plundering", own=unit_data(u).evolve(
            plundering=RETURNING, plunder_x=u.x, plunder_y=DEPTH, plunder_turn=1)))
    return state


def test_the_card_of_horse_away_plundering_is_dealt_for_their_return() -> None:
    # 21 C: "Cavalry returns next move on its card": k2's horse and dragoons are away.
    _, state = _state()
    away = _plundering(state, "k-horse", "k-drag")
    assert group_card("k2", "king") in brigade_deck(away, default_tables().cards)
    assert HORSE in brigade_deck(away, BY_ARM)
    gone = state.with_unit(state.units["k-horse"].evolve(removed="destroyed"))
    gone = gone.with_unit(gone.units["k-drag"].evolve(removed="routed off"))
    assert group_card("k2", "king") not in brigade_deck(gone, Cards())
    assert HORSE not in brigade_deck(gone, BY_ARM)
