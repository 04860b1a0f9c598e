"""Charge yr Pikes! movement (section 5, Terrain 16): allowances by troop type and the
formation a unit starts in, road columns, charge moves, ground that costs inches or dice,
passing through friends, and keeping to the tertia."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.geometry import base_distance, polygons_overlap
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.core.violations import CoreCode
from tertia.rules.codes import MovementCode
from tertia.rules.movement import plan_move
from tertia.rulesets.charge_yr_pikes import disorder, movement
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.events import ChargeMade
from tertia.rulesets.charge_yr_pikes.phases import FIRE_STEPS, STANDING_FIRE, shooters
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.troops import FOOT, TROOPS
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_setup import scenario

T = default_tables()
K1_MOVES = [4, 1, 1, 5]  # grades; k1's card first; the general rolls 5: k-foot moves


def _game(terrain: list[dict[str, Any]] | None = None, extension: dict[str, Any] | None = None
          ) -> tuple[Game, GameState]:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario(extension, terrain))
    state, _ = game.start(ScriptedDice(K1_MOVES))
    return game, state


@pytest.mark.parametrize(("formation", "on_road", "inches"), [
    ("line", False, 8.0), ("line", True, 8.0), ("column", True, 12.0), ("column", False, 8.0),
    ("square", False, 4.0)])
def test_the_formation_at_the_start_sets_the_move(formation: str, on_road: bool, inches: float) -> None:
    # Foot Regiments: Normal 8", Square 4", Road Col. 12"; "the unit must spend its entire
    # movement marching on the road".
    assert movement.allowance(T, CypUnit.of(FOOT, formation=formation), on_road=on_road) == inches


def test_horse_have_no_square_and_disorder_halves_a_move() -> None:
    assert movement.allowance(T, CypUnit.of(TROOPS["horse"], formation="square"), on_road=False) is None
    assert movement.allowance(T, CypUnit.of(FOOT, disordered=True), on_road=False) == 4.0


@pytest.mark.parametrize(("troop", "disordered", "reach"), [
    ("horse", False, 32.0), ("horse", True, 8.0), ("lobsters", False, 24.0), ("foot", False, 8.0)])
def test_charge_moves_are_not_for_the_disordered(troop: str, disordered: bool, reach: float) -> None:
    # "Charge movement distances* may not be used if the unit is disordered, use normal
    # movement distances instead" (and disorder halves that); foot have no charge move.
    own = CypUnit.of(TROOPS[troop], disordered=disordered)
    assert movement.charge_allowance(T, own) == reach


def test_dismounted_dragoons_move_as_musketeers() -> None:
    on_foot = CypUnit.of(TROOPS["dragoons"], mounted=False)
    assert movement.allowance(T, on_foot, on_road=False) == 10.0
    assert movement.allowance(T, CypUnit.of(TROOPS["dragoons"]), on_road=False) == 16.0


HEDGE = {"type": "hedge", "line": [[20.0, 15.0], [40.0, 15.0]], "width": 0.2}
TOWN = {"type": "town", "polygon": [[26.0, 16.0], [34.0, 16.0], [34.0, 24.0], [26.0, 24.0]]}


def test_crossing_a_hedge_costs_foot_2_inches() -> None:
    game, state = _game([HEDGE])
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 18.0),)))  # 6" + 2"
    refused = game.validate(state, Move(unit="k-foot", waypoints=((30.0, 18.5),)))
    assert [v.code for v in refused] == [CypCode.TOO_FAR] and "less 2\" for the ground" in refused[0].message


def test_a_town_costs_foot_a_d6_rolled_as_they_move_and_they_stop_short() -> None:
    # "Towns cause FOOT to lose one D6 of movement when the foot moves into, out of, or within them."
    game, state = _game([TOWN])
    after, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 20.0),)), ScriptedDice([5]))
    assert after.units["k-foot"].y == pytest.approx(15.0)  # 8" less 5": 3" of the 8"
    after, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 14.0),)), ScriptedDice([1]))
    assert after.units["k-foot"].y == pytest.approx(14.0)  # 2" asked for; 7" were left


def test_a_move_the_ground_stops_short_on_a_friend_is_cut_back_clear_of_it() -> None:
    # Formations C: "Units can move freely through friendly units as long as they do not
    # end their move intermingled." The town's D6 (5) would leave the foot at y 15, on the
    # horse standing at 15.5 (the end the player placed, 20, was clear): it is cut back a
    # quarter inch at a time, to 14, clear of the horse.
    game, state = _game([TOWN])
    state = state.with_unit(state.units["k-horse"].evolve(x=30.0, y=15.5, facing=0.0))
    after, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 20.0),)), ScriptedDice([5]))
    foot, horse = after.units["k-foot"], after.units["k-horse"]
    assert foot.y == pytest.approx(14.0) and not polygons_overlap(foot.base.corners(), horse.base.corners())


def test_guns_may_not_enter_woods() -> None:
    woods = {"type": "woods", "polygon": [[26.0, 16.0], [34.0, 16.0], [34.0, 24.0], [26.0, 24.0]]}
    game, state = _game([woods], {"regiments": [{"unit": "k-foot", "troop": "artillery", "gun": "galloper"}]})
    refused = game.validate(state, Move(unit="k-foot", waypoints=((30.0, 16.0),)))
    assert [v.code for v in refused] == [MovementCode.IMPASSABLE]


def test_a_unit_passes_through_a_friend_but_does_not_end_on_it() -> None:
    # Formations C: "Units can move freely through friendly units as long as they do not
    # end their move intermingled." The brigadier k-brig stands at (30, 8) behind the foot.
    game, state = _game()
    friend = state.units["k-horse"].evolve(x=30.0, y=15.0)
    state = state.with_unit(friend)
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 19.0),)))
    refused = game.validate(state, Move(unit="k-foot", waypoints=((30.0, 15.5),)))
    assert [v.code for v in refused] == [MovementCode.COLLISION] and "end on" in refused[0].message


def test_an_enemy_blocks_the_way() -> None:
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=16.0))
    refused = game.validate(state, Move(unit="k-foot", waypoints=((30.0, 19.0),)))
    assert [v.code for v in refused] == [MovementCode.COLLISION] and "run into" in refused[0].message


def test_an_enemy_midway_along_a_sideways_move_blocks_it() -> None:
    """Formations C: an enemy in the way blocks a move wherever along the path it stands:
    the foot sidestep 8" west, clear of everything; with an enemy regiment turned end-on
    halfway along (clear of both the start and the end) the same move runs into it."""
    game, state = _game()
    step = Move(unit="k-foot", waypoints=((22.0, 12.0),))
    assert game.is_legal(state, step)
    state = state.with_unit(state.units["p-foot"].evolve(x=26.0, y=12.0, facing=90.0))
    refused = game.validate(state, step)
    assert [v.code for v in refused] == [MovementCode.COLLISION] and "run into" in refused[0].message


def test_a_unit_may_not_leave_its_tertia_unless_an_officer_leads_it() -> None:
    # Tertias A: "all units within 6" of one another. No unit may leave its tertia unless
    # accompanied by a general". A regiment of horse of k1 stands at (20, 12).
    game, state = _game()
    state = state.with_unit(state.units["k-horse"].evolve(command="k1", x=20.0))
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 15.0),)))  # 5.2" from the horse
    refused = game.validate(state, Move(unit="k-foot", waypoints=((34.0, 12.0),)))  # 8.9"
    assert [v.code for v in refused] == [CypCode.LEAVES_TERTIA]
    led = state.with_unit(state.units["k-brig"].evolve(own=state.units["k-brig"].own.evolve(
        attached_to="k-foot")))
    assert game.is_legal(led, Move(unit="k-foot", waypoints=((34.0, 12.0),)))


def test_a_charge_goes_straight_at_its_target_and_halts_1_inch_away() -> None:
    # 12 A: "Attacker moves units directly towards the target unit(s) and halts 1" away."
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=19.0))
    after, events = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    foot, enemy = after.units["k-foot"], after.units["p-foot"]
    assert base_distance(foot.base, enemy.base) == pytest.approx(1.0)
    made = [e for e in events if isinstance(e, ChargeMade)]
    assert [(m.attacker, m.target, m.fatigued) for m in made] == [("k-foot", "p-foot", 0)]
    assert game_data(after).charges[0][:2] == ("k-foot", "p-foot")


def test_a_charger_that_turned_where_it_stands_would_stand_over_its_target_halts_1_inch_away() -> None:
    # 12 A: "Attacker moves units directly towards the target unit(s) and halts 1" away."
    # The enemy foot stands beside and ahead of k-foot at an angle: turned to face it where
    # it stands, k-foot would stand over it, so it goes straight back until 1" from it.
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=31.5, y=13.6, facing=180.0))
    path = charge_path(game.table, state, state.units["k-foot"], state.units["p-foot"])
    assert path.blocked_by is None and path.distance < 0
    after, _ = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    foot, enemy = after.units["k-foot"], after.units["p-foot"]
    assert foot.facing == pytest.approx(path.heading)
    assert base_distance(foot.base, enemy.base) == pytest.approx(1.0)


def test_a_charge_beyond_its_reach_costs_a_man_an_inch() -> None:
    # Special rules B: "lose 1 man to fatigue for every inch of movement till they stop 1" from the enemy".
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=24.5))  # 9.5" to go, foot reach 8"
    _, events = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    assert [e.fatigued for e in events if isinstance(e, ChargeMade)] == [2]


def test_a_piece_in_the_way_stops_a_charge() -> None:
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=24.0))
    state = state.with_unit(state.units["k-horse"].evolve(x=30.0, y=18.0))
    refused = game.validate(state, Charge(unit="k-foot", target="p-foot"))
    assert [v.code for v in refused] == [MovementCode.COLLISION] and "in the way" in refused[0].message
    assert game.validate(state, Charge(unit="k-foot", target="k-horse"))  # a friend is no target


def test_a_gun_that_has_fired_may_pivot_but_never_move_again() -> None:
    # Artillery 9: "Once they fire for the first time, the horses and limbers have gone to
    # the rear. The guns cannot move again for the rest of the game."
    game, state = _game()
    gun = state.units["k-foot"].evolve(troop="artillery", gun="field", pike=0, shot=0, men=3)
    state = state.with_unit(gun)
    fired = state.with_unit(state.units["k-foot"].evolve(gun_fired=True))
    assert [v.code for v in game.validate(fired, Move(unit="k-foot", waypoints=((30.0, 14.0),)))] == \
        [CoreCode.CANNOT_ACT]
    assert game.is_legal(fired, Move(unit="k-foot", face_before=30.0))
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 14.0),)))


def test_crossing_a_hedge_disorders_and_open_ground_does_not() -> None:
    # Disorder (17, lost list; chosen): crossing an obstacle disorders a unit.
    game, state = _game([HEDGE])
    after, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 17.0),)), ScriptedDice([]))
    assert unit_data(after.units["k-foot"]).disordered
    game, state = _game()
    after, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 17.0),)), ScriptedDice([]))
    assert not unit_data(after.units["k-foot"]).disordered


@pytest.mark.parametrize(("piece", "disordered"), [("k-foot", True), ("k-brig", False)])
def test_a_hedge_disorders_troops_but_not_an_officer(piece: str, disordered: bool) -> None:
    # Disorder (17, chosen) is a unit's loss of its ranks; a mounted officer has none.
    game, state = _game([HEDGE])
    tx = Tx(game.table, state, ScriptedDice([]))
    unit = state.units[piece]
    plan = plan_move(unit, Move(unit=piece, waypoints=((unit.x, 17.0),)))
    disorder.after_move(tx, T, piece, plan)
    assert unit_data(tx.state.units[piece]).disordered is disordered


def test_a_disordered_unit_that_halts_on_its_card_dresses_its_ranks() -> None:
    # Chosen removal: a disordered unit whose tertia passed and which does not move on the
    # card is no longer disordered (nor falling back); one that moves stays disordered.
    game, state = _game()
    shaken = state.with_unit(state.units["k-foot"].evolve(disordered=True, falling_back=True))
    after, _ = game.apply(shaken, EndPhase(), ScriptedDice([1, 8, 3]))
    own = unit_data(after.units["k-foot"])
    assert not own.disordered and not own.falling_back
    moved, _ = game.apply(shaken, Move(unit="k-foot", waypoints=((30.0, 14.0),)), ScriptedDice([]))
    after, _ = game.apply(moved, EndPhase(), ScriptedDice([1, 8, 3]))
    assert unit_data(after.units["k-foot"]).disordered


def test_a_charging_unit_does_not_fire_but_its_target_may() -> None:
    # 12 A: "Attacking units cannot fire ... but takes any defending fire".
    game, state = _game()
    state = state.with_unit(state.units["p-foot"].evolve(x=30.0, y=19.0))
    after, _ = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    assert "k-foot" not in {u.id for step in FIRE_STEPS for u in shooters(after, "king", step)}
    assert "p-foot" in {u.id for u in shooters(after, "parl", STANDING_FIRE)}
