"""Charge yr Pikes!: what is never in the way of a unit's own move or charge. Enemy
officers not in a front rank are moved to safety (Tertias and officers 4 F); routed
friends are shoved aside (Routing 15 A)."""

from __future__ import annotations

from tertia.core.actions import Action, Move
from tertia.core.geometry import bases_overlap
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.data import ROUTED
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_melee_support import dice_left, officer, piece, state_of, table_with, tx_with

RULES = ChargeYrPikes(secret_deployment=False)


def _mover() -> Unit:
    return piece("k", "king", "foot", 30.0, 10.0)


def _on_card(*units: Unit) -> GameState:
    state = state_of(*units).evolve(phase="movement")
    return state.evolve(own=game_data(state).evolve(card="group:t-k:king", moving=("k",)))


def _done(state: GameState, action: Action) -> GameState:
    tx = tx_with(state)
    RULES.resolve(tx, action)
    assert dice_left(tx) == 0
    return tx.state


def _routed(ident: str, x: float, y: float) -> Unit:
    return piece(ident, "king", "foot", x, y, formation=ROUTED, routed_turn=1)


FAR_FRIEND = piece("pf", "parl", "foot", 50.0, 40.0, facing=180.0)
STEP = Move(unit="k", waypoints=((30.0, 16.0),))


def test_an_enemy_officer_on_a_units_path_is_moved_to_safety() -> None:
    # 4 F: "A general which is not in the front rank of a unit may not be over-run or
    # captured by any enemy unit. He is merely moved to the nearest friendly unit".
    state = _on_card(_mover(), officer("o", "parl", None, x=30.0, y=13.0), FAR_FRIEND)
    assert RULES.validate(table_with(), state, STEP) == []
    after = _done(state, STEP)
    # Just behind his nearest friend, facing as it faces.
    assert (after.units["o"].x, after.units["o"].y) == (50.0, 41.25) and after.units["k"].y == 16.0


def test_an_enemy_officer_in_a_front_rank_is_in_the_way() -> None:
    state = _on_card(_mover(), officer("o", "parl", "pf", x=30.0, y=13.0), FAR_FRIEND)
    refused = RULES.validate(table_with(), state, STEP)
    assert [v.message for v in refused] == ["k would run into o"]


def test_a_friendly_officer_is_not_moved_for_a_unit_ending_on_him() -> None:
    state = _on_card(_mover(), officer("ko", "king", None, x=30.0, y=16.0), FAR_FRIEND)
    assert [v.message for v in RULES.validate(table_with(), state, STEP)] == ["k would end on ko"]


def test_an_enemy_officer_on_a_charges_path_is_moved_to_safety() -> None:
    enemy = piece("e", "parl", "foot", 30.0, 24.0, facing=180.0)
    state = _on_card(_mover(), enemy, officer("o", "parl", None, x=30.0, y=16.0))
    charge = Charge(unit="k", target="e")
    assert RULES.validate(table_with(), state, charge) == []
    after = _done(state, charge)
    assert (after.units["o"].x, after.units["o"].y) == (30.0, 25.25)  # behind the foot charged
    assert game_data(after).charges[0][:2] == ("k", "e")


def test_a_routed_friend_where_a_unit_ends_its_move_is_shoved_aside() -> None:
    # 15 A: "If any unit attempts to move through a routed friendly unit it may do so and
    # the routed unit is simply shoved out of the way."
    state = _on_card(_mover(), _routed("r", 31.0, 16.0), FAR_FRIEND)
    assert RULES.validate(table_with(), state, STEP) == []
    after = _done(state, STEP)
    r = after.units["r"]
    # Square to the mover's facing, the shorter way: 3" to the east, just clear of it.
    assert (r.x, r.y) == (34.0, 16.0) and not bases_overlap(r.base, after.units["k"].base)
    assert unit_data(r).routed


def test_a_friend_not_routed_is_not_shoved() -> None:
    state = _on_card(_mover(), piece("f", "king", "foot", 31.0, 16.0), FAR_FRIEND)
    assert [v.message for v in RULES.validate(table_with(), state, STEP)] == ["k would end on f"]


def test_a_routed_friend_with_no_room_either_side_stops_the_move() -> None:
    narrow = Battlefield(width=8.0, depth=48.0, features=())
    state = _on_card(_mover().evolve(x=4.0), _routed("r", 4.0, 16.0))
    refused = RULES.validate(narrow, state, Move(unit="k", waypoints=((4.0, 16.0),)))
    assert [v.message for v in refused] == ["k would end on r, with no room to shove it aside"]


def test_a_charge_shoves_a_routed_friend_on_its_path_aside() -> None:
    enemy = piece("e", "parl", "foot", 30.0, 30.0, facing=180.0)
    state = _on_card(_mover(), enemy, _routed("r", 29.0, 18.0))
    charge = Charge(unit="k", target="e")
    assert RULES.validate(table_with(), state, charge) == []
    after = _done(state, charge)
    r = after.units["r"]
    assert (r.x, r.y) == (26.0, 18.0) and after.units["k"].y == 27.5  # 1" short of the enemy


def test_a_friend_not_routed_on_a_charges_path_stops_it() -> None:
    enemy = piece("e", "parl", "foot", 30.0, 30.0, facing=180.0)
    state = _on_card(_mover(), enemy, piece("f", "king", "foot", 29.0, 18.0))
    refused = RULES.validate(table_with(), state, Charge(unit="k", target="e"))
    assert [v.message for v in refused] == ["f is in the way of k's charge at e"]
