"""The doctrine player under Declare Thee Sir: what it declares for the activated unit by
range, morale and the state of the unit (routing, pursuing, a general at large), how it
carries the declaration out (the charge after the rolled move, a way round friends, the
general's ride to a regiment), and that it beats the random player."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tertia.ai.players import make_player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.decision import Decision
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.declare_thee_sir.ai.doctrine import DtsDoctrine
from tertia.rulesets.declare_thee_sir.ai.doctrine2 import DtsDoctrine2
from tertia.rulesets.declare_thee_sir.ai.judgement import charge_worth, move_chance, reach_chance
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    ADVANCE_AND_FIRE,
    DEFER,
    FORMATION_CHANGE,
    LINE,
    RALLY,
    STAND_AND_FIRE,
)
from tertia.rulesets.declare_thee_sir.events import DECLARE, ChangeFormation, Charge, Declare, Fire
from tertia.rulesets.declare_thee_sir.generals import ATTACH_REACH
from tertia.rulesets.declare_thee_sir.ruleset import DISMOUNT, MOUNT
from tertia.rulesets.declare_thee_sir.sequence import options_for
from tertia.rulesets.declare_thee_sir.values import unit_data
from tertia.scenarios import load_builtin, resolve_scenario

from .dts_support import P, R, activated, dts_game, unit
from .support import commander


def declared(game: Game, state: GameState) -> Declare:
    choice = DtsDoctrine().choose(game, state, random.Random(1))
    assert isinstance(choice, Declare), choice
    return choice


def carried_out(game: Game, state: GameState) -> Action:
    choice = DtsDoctrine().choose(game, state, random.Random(1))
    assert game.is_legal(state, choice), game.validate(state, choice)
    return choice


def with_own(state: GameState, uid: str, **changes: Any) -> GameState:
    u = state.units[uid]
    return state.with_unit(u.evolve(own=unit_data(u).evolve(**changes)))


def foot_facing_foot(gap: float, depth: float = 48) -> Game:
    """Parliament's foot facing north and Royalist foot ``gap`` inches off, face to face."""
    return dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 11 + gap, 180)], depth=depth)


def horse_facing_foot(gap: float) -> Game:
    """Parliament's horse (stands 1.5" deep) facing north, Royalist foot ``gap`` inches off."""
    return dts_game([unit("ph", P, "horse", 24, 10, 0), unit("rf", R, "foot", 24, 10.75 + 0.5 + gap, 180)],
                    depth=48)


# --- fire by range ------------------------------------------------------------------------

@pytest.mark.parametrize(("gap", "option"), [
    (5.0, STAND_AND_FIRE),      # within 6": every volley reaches
    (10.0, STAND_AND_FIRE),     # 6" + a D6 of 4 or more: even odds
    (10.5, ADVANCE_AND_FIRE),   # one D6 pip short of even odds: a half move brings it in
    (12.5, ADVANCE),            # beyond even after a half move
])
def test_foot_fire_in_reach_advance_and_fire_just_beyond_and_advance_further(gap: float, option: str) -> None:
    game = foot_facing_foot(gap)
    assert declared(game, activated(game, "pf")).option == option


def test_a_volley_goes_at_a_target_fire_can_hurt_not_at_one_already_poor() -> None:
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("near", R, "foot", 24, 14, 180),
                     unit("far", R, "foot", 31, 16, 180)], depth=48)
    state = activated(game, "pf", STAND_AND_FIRE)
    assert carried_out(game, state) == Fire(unit="pf", target="near")
    shaken = with_own(state, "near", morale=0, morale_max=2)
    assert carried_out(game, shaken) == Fire(unit="pf", target="far")


def test_foot_whose_only_target_is_poor_do_not_stand_and_fire_at_it() -> None:
    game = foot_facing_foot(5.0)
    state = with_own(activated(game, "pf"), "rf", morale=0, morale_max=2)
    assert declared(game, state).option != STAND_AND_FIRE


@pytest.mark.parametrize(("gap", "option"), [(20.0, STAND_AND_FIRE), (30.0, DEFER)])
def test_guns_fire_at_what_they_reach_and_otherwise_wait(gap: float, option: str) -> None:
    game = dts_game([unit("pg", P, "artillery", 24, 5, 0), unit("rf", R, "foot", 24, 6.5 + gap, 180)],
                    depth=48)
    assert declared(game, activated(game, "pg")).option == option


def test_a_gun_turns_to_bear_on_an_enemy_in_reach_out_of_its_arc() -> None:
    flank = dts_game([unit("pg", P, "artillery", 24, 10, 0), unit("rf", R, "foot", 40, 10, 270)], depth=48)
    assert declared(flank, activated(flank, "pg")).option == ADVANCE
    turn = carried_out(flank, activated(flank, "pg", ADVANCE, {"open": 3, "difficult": 1}))
    assert isinstance(turn, Move) and turn.waypoints == () and turn.face_before == pytest.approx(90.0)
    beyond = dts_game([unit("pg", P, "artillery", 10, 10, 0), unit("rf", R, "foot", 45, 10, 270)],
                      width=60, depth=48)
    assert declared(beyond, activated(beyond, "pg")).option == DEFER


# --- charges ------------------------------------------------------------------------------

def test_horse_charge_a_fresh_foe_in_reach_and_fire_at_one_known_excellent() -> None:
    game = horse_facing_foot(5.0)
    assert declared(game, activated(game, "ph")).option == ADVANCE
    steady = with_own(activated(game, "ph"), "rf", morale=4, morale_max=4)
    assert declared(game, steady).option == STAND_AND_FIRE


def test_horse_charge_only_when_the_rolled_move_reaches() -> None:
    game = horse_facing_foot(5.0)
    far_enough = activated(game, "ph", ADVANCE, {"open": 8, "difficult": 3})
    assert carried_out(game, far_enough) == Charge(unit="ph", target="rf")
    short = activated(game, "ph", ADVANCE, {"open": 3, "difficult": 1})
    move = carried_out(game, short)
    assert isinstance(move, Move)
    # it closes up, its front edge stopping just inside 3" of the foe's (at y = 15.75)
    assert move.waypoints[-1][1] + 0.75 == pytest.approx(15.75 - 2.98, abs=0.05)


def test_foot_go_in_with_push_of_pike_only_against_a_shaken_foe() -> None:
    game = foot_facing_foot(2.0)
    shaken = with_own(activated(game, "pf"), "rf", morale=0, morale_max=2)
    assert declared(game, shaken).option == ADVANCE
    steady = with_own(activated(game, "pf"), "rf", morale=2, morale_max=2)
    assert declared(game, steady).option == STAND_AND_FIRE


def test_an_attached_general_makes_foot_charge_a_steady_foe() -> None:
    """Melee c: +2 with a general attached to the attacker."""
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 13, 180)],
                    commanders=[commander("pg", P, 24, 8.75)],
                    table={"generals": [{"commander": "pg", "attached_to": "pf"}]}, depth=48)
    state = with_own(activated(game, "pf"), "rf", morale=2, morale_max=2)
    alone = with_own(state, "pg", attached_to=None)
    assert charge_worth(game, state, state.units["pf"], state.units["rf"]) > \
        charge_worth(game, alone, alone.units["pf"], alone.units["rf"])
    assert declared(game, state).option == ADVANCE
    assert declared(game, alone).option == STAND_AND_FIRE


def test_the_worth_of_a_charge_worked_by_hand() -> None:
    """An excellent attacker (4 points) at a poor target, no modifiers: it closes on 2+
    (5/6); the target routs on an unmodified 7 or a ROUT (9 and up), 16/36, each worth 3;
    it is pushed back on 5, 6 and 8, 14/36, each worth a quarter; the attacker loses a
    point on doubles (6/36) and on a HOLD (4 and less, 6/36)."""
    game = foot_facing_foot(2.0)
    state = with_own(activated(game, "pf"), "pf", morale=4, morale_max=4)
    state = with_own(state, "rf", morale=0, morale_max=2)
    by_hand = 5 / 6 * (16 / 36 * 3 + 14 / 36 * 0.25 - 12 / 36)
    assert charge_worth(game, state, state.units["pf"], state.units["rf"]) == pytest.approx(by_hand)


def test_the_chances_of_a_move_and_of_a_range_are_the_dice_s() -> None:
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    for inches in range(0, 14):
        assert move_chance(inches, 2) == pytest.approx(sum(t >= inches for t in two_d6) / 36)
        assert move_chance(inches - 0.5, 1) == pytest.approx(sum(r >= inches - 0.5 for r in range(1, 7)) / 6)
        assert reach_chance(6 + inches - 0.25, 6) == pytest.approx(
            sum(6 + r >= 6 + inches - 0.25 for r in range(1, 7)) / 6)


# --- morale and formations ----------------------------------------------------------------

def test_a_poor_unit_rests_when_unthreatened_and_falls_back_when_threatened() -> None:
    far = foot_facing_foot(28.0)
    state = with_own(activated(far, "pf"), "pf", morale=0, morale_max=2)
    assert (declared(far, state).option, declared(far, state).how) == (RALLY, "rest")
    near = foot_facing_foot(8.0)
    state = with_own(activated(near, "pf"), "pf", morale=0, morale_max=2)
    assert (declared(near, state).option, declared(near, state).how) == (RALLY, "retire")
    retiring = with_own(activated(near, "pf", "rally:retire", {"open": 4, "difficult": 2}), "pf",
                        morale=0, morale_max=2)
    move = carried_out(near, retiring)
    assert isinstance(move, Move) and move.waypoints[-1][1] < 10.0


def test_a_column_forms_line_near_the_enemy_and_marches_on_when_far() -> None:
    table = {"regiments": [{"unit": "pf", "formation": "long_march"}]}
    near = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 25, 180)], table=table,
                    depth=48)
    assert declared(near, activated(near, "pf")).option == FORMATION_CHANGE
    reform = activated(near, "pf", FORMATION_CHANGE)
    assert carried_out(near, reform) == ChangeFormation(unit="pf", formation=LINE)
    far = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 40, 180)], table=table,
                   depth=48)
    assert declared(far, activated(far, "pf")).option == ADVANCE


def test_a_hedgehog_stays_formed_while_enemy_horse_are_near() -> None:
    table = {"regiments": [{"unit": "pf", "formation": "hedgehog"}]}
    horse = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rh", R, "horse", 24, 25, 180)], table=table,
                     depth=48)
    assert declared(horse, activated(horse, "pf")).option != FORMATION_CHANGE
    foot = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 25, 180)], table=table,
                    depth=48)
    assert declared(foot, activated(foot, "pf")).option == FORMATION_CHANGE
    reform = activated(foot, "pf", FORMATION_CHANGE)
    assert carried_out(foot, reform) == ChangeFormation(unit="pf", formation=LINE)


@pytest.mark.parametrize(("mounted", "gap", "option", "change"), [
    (True, 8.0, FORMATION_CHANGE, DISMOUNT),   # near the enemy: get down to fire
    (True, 25.0, ADVANCE, None),               # far: ride on
    (False, 25.0, FORMATION_CHANGE, MOUNT),    # on foot, far: mount to ride
    (False, 8.0, STAND_AND_FIRE, None),        # on foot, near: fire
])
def test_dragoons_mount_to_move_and_dismount_to_fire(mounted: bool, gap: float, option: str,
                                                      change: str | None) -> None:
    game = dts_game([unit("pd", P, "dragoons", 24, 10, 0), unit("rf", R, "foot", 24, 11 + gap, 180)],
                    table={"regiments": [{"unit": "pd", "mounted": mounted}]}, depth=48)
    assert declared(game, activated(game, "pd")).option == option
    if change is not None:
        assert carried_out(game, activated(game, "pd", FORMATION_CHANGE)) == \
            ChangeFormation(unit="pd", formation=change)


# --- routs and pursuits --------------------------------------------------------------------

def test_a_routing_unit_tries_to_rally() -> None:
    game = foot_facing_foot(20.0)
    routing = with_own(activated(game, "pf"), "pf", routing=True, morale=1)
    assert declared(game, routing).option == RALLY


def test_a_pursuer_breaks_off_near_a_table_edge_and_pursues_elsewhere() -> None:
    game = dts_game([unit("pf", P, "horse", 24, 3, 180), unit("rf", R, "foot", 24, 30, 180)])
    near_edge = with_own(activated(game, "pf"), "pf", pursuing="rf", morale=2)
    assert declared(game, near_edge).option == RALLY
    inland = near_edge.with_unit(near_edge.units["pf"].evolve(y=18.0))
    assert declared(game, inland).option == DEFER


def test_a_pursuer_whose_quarry_is_gone_rallies() -> None:
    game = dts_game([unit("pf", P, "horse", 24, 18, 180), unit("rf", R, "foot", 24, 30, 180),
                     unit("rg", R, "foot", 10, 30, 180)])
    state = with_own(activated(game, "pf"), "pf", pursuing="rf", morale=2)
    gone = state.with_unit(state.units["rf"].evolve(removed="routed"))
    assert declared(game, state).option == DEFER
    assert declared(game, gone).option == RALLY


def test_a_pursuer_that_stopped_turns_to_face_the_enemy() -> None:
    game = dts_game([unit("pf", P, "horse", 24, 18, 180), unit("rf", R, "foot", 24, 30, 180)])
    stopped = activated(game, "pf", DEFER, {"open": 0, "difficult": 0})
    turn = carried_out(game, stopped)
    assert isinstance(turn, Move) and turn.waypoints == () and turn.face_before == pytest.approx(0.0)


# --- friends in the way --------------------------------------------------------------------

def test_a_friend_in_front_is_gone_round_not_waited_behind() -> None:
    """A friend 1.5" ahead overlapping an inch of the frontage: straight on, the unit would
    gain 1.5" and stop; obliquely to the left it clears him and goes its whole move."""
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("pf2", P, "foot", 27.5, 12.5, 0),
                     unit("rf", R, "foot", 24, 40, 180)], depth=48)
    assert declared(game, activated(game, "pf")).option == ADVANCE
    move = carried_out(game, activated(game, "pf", ADVANCE, {"open": 4, "difficult": 2}))
    assert isinstance(move, Move)
    end = move.waypoints[-1]
    assert end[0] < 24.0 and math.dist((24, 10), end) == pytest.approx(4.0, abs=0.01)
    assert math.dist(end, (24, 40)) < math.dist((24, 10), (24, 40)) - 2.0


def test_a_unit_boxed_in_by_friends_waits() -> None:
    front = [unit(f"pf{i}", P, "foot", x, 11.0 + 0.02, 0) for i, x in enumerate((19.5, 24.0, 28.5))]
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), *front, unit("rf", R, "foot", 24, 40, 180)], depth=48)
    assert declared(game, activated(game, "pf")).option == DEFER
    open_game = dts_game([unit("pf", P, "foot", 24, 10, 0), front[0], unit("rf", R, "foot", 24, 40, 180)],
                         depth=48)
    assert declared(open_game, activated(open_game, "pf")).option == ADVANCE


# --- generals ------------------------------------------------------------------------------

def test_a_general_at_large_rides_to_join_a_regiment_of_horse_and_then_stays() -> None:
    game = dts_game([unit("pf", P, "foot", 14, 10, 0), unit("ph", P, "horse", 30, 10, 0),
                     unit("rf", R, "foot", 24, 40, 180)],
                    commanders=[commander("pg", P, 24, 4)], depth=48)
    assert declared(game, activated(game, "pg")).option == ADVANCE
    ride = activated(game, "pg", ADVANCE, {"open": 9, "difficult": 3})
    move = carried_out(game, ride)
    after, _ = game.apply(ride, move, SeededDice(1))
    general, horse = after.units["pg"], after.units["ph"]
    assert unit_data(general).attached_to == "ph"
    assert general.y < horse.y  # behind the horse, not before it
    assert base_distance(general.base, horse.base) <= ATTACH_REACH
    again = activated(game, "pg")
    assert declared(game, with_own(again, "pg", attached_to="ph")).option == DEFER


def test_a_general_with_no_regiment_to_join_waits() -> None:
    """He never joins a battery (it neither charges nor closes)."""
    game = dts_game([unit("pa", P, "artillery", 24, 10, 0), unit("rf", R, "foot", 24, 40, 180)],
                    commanders=[commander("pg", P, 24, 4)], depth=48)
    assert declared(game, activated(game, "pg")).option == DEFER


# --- the doctrine against the random player --------------------------------------------------

def test_the_doctrine_beats_the_random_player_more_often_than_not() -> None:
    game = Game(get_ruleset("declare-thee-sir"), load_builtin("roundway_down"))
    sides = game.scenario.side_ids
    wins = 0
    for seed in range(4):
        doctrine_side = sides[seed % 2]
        players = {s: DtsDoctrine() if s == doctrine_side else RandomPlayer() for s in sides}
        result = fight_battle(game, players, seed).final_state.result or {}
        wins += result.get("winner") == doctrine_side
    assert wins >= 3, wins


def test_an_activation_with_nothing_to_do_ends() -> None:
    game = foot_facing_foot(20.0)
    done = activated(game, "pf", STAND_AND_FIRE)
    assert carried_out(game, done) == EndPhase()


@pytest.mark.parametrize("edition", [DtsDoctrine, DtsDoctrine2])
@pytest.mark.parametrize(("gap", "fire"), [(5.0, STAND_AND_FIRE), (10.5, ADVANCE_AND_FIRE)])
def test_a_unit_whose_powder_is_damp_declares_no_fire(edition: type[DtsDoctrine], gap: float,
                                                      fire: str) -> None:
    # Event card damp powder (option event_cards): the unit may not fire on its next activation.
    game = foot_facing_foot(gap)
    dry = activated(game, "pf")
    damp = with_own(dry, "pf", damp_powder=True)
    damp = damp.evolve(decisions=(Decision(P, DECLARE, {"unit": "pf",
                                                        "options": list(options_for(damp.units["pf"]))}),))
    assert edition().choose(game, dry, random.Random(1)) == Declare(unit="pf", option=fire)
    choice = edition().choose(game, damp, random.Random(1))
    assert isinstance(choice, Declare) and choice.option not in (STAND_AND_FIRE, ADVANCE_AND_FIRE)
    assert game.is_legal(damp, choice), game.validate(damp, choice)


def test_the_doctrine_plays_whole_battles_with_the_event_cards() -> None:
    # Every edition and the random player, both sides, seeds whose battles the damp powder card
    # once ended with a declaration of fire the rules refuse.
    game = Game(get_ruleset("declare-thee-sir", event_cards=True),
                resolve_scenario("edgehill", rules_id="declare-thee-sir"))
    for name in ("doctrine", "baseline", "random"):
        for seed in (0, 1):
            record = fight_battle(game, {side: make_player(name) for side in game.scenario.side_ids}, seed)
            assert record.final_state.is_over
