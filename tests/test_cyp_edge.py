"""Charge yr Pikes!: no piece in play stands off the table. Its ways off the table take a
piece out of play (routed off, plundering off the enemy's edge); everything else stops on
it: an officer moved to safety, horse plundering at a baggage train by the edge, a charge,
a move cut short before its last turn."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.state import Unit
from tertia.core.terrain import Battlefield
from tertia.rules.codes import MovementCode
from tertia.rules.involuntary import on_table
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.attached import to_safety
from tertia.rulesets.charge_yr_pikes.plunder import AT_TRAIN, plunder_path, ride_off
from tertia.rulesets.charge_yr_pikes.values import unit_data

from .cyp_melee_support import DEPTH, WIDTH, officer, piece, state_of, tx_with
from .test_cyp_movement import _game

TABLE = (WIDTH, DEPTH)


@pytest.mark.parametrize(("gap", "place"), [(1.0, (30.0, 0.5)), (0.0, (27.5, 0.75))])
def test_an_officer_moved_to_safety_behind_a_friend_at_the_edge_goes_beside_it(
        gap: float, place: tuple[float, float]) -> None:
    """4 F: "to the nearest friendly unit or place of safety", read as just behind it. Its
    rear an inch from the south edge, he fits behind it; its rear on the edge, he goes to
    its left, wholly on the table."""
    friend = piece("f", "parl", "foot", 30.0, 0.0)
    friend = friend.evolve(y=friend.depth / 2 + gap)
    tx = tx_with(state_of(friend, officer("eo", "parl", None, x=40.0, y=20.0)))
    to_safety(tx, "eo")
    eo = tx.state.units["eo"]
    assert (eo.x, eo.y) == pytest.approx(place) and on_table(eo.base, TABLE)


@pytest.mark.parametrize(("x", "place"), [(2.0, (4.5, 0.75)), (30.0, (27.5, 0.75))])
def test_an_officer_with_no_room_beside_a_friend_in_a_corner_goes_to_its_other_side(
        x: float, place: tuple[float, float]) -> None:
    """Its rear on the south edge and its left on the west edge, he goes to its right;
    away from the corner, to its left as before."""
    friend = piece("f", "parl", "foot", x, 0.0)
    tx = tx_with(state_of(friend.evolve(y=friend.depth / 2), officer("eo", "parl", None, x=40.0, y=20.0)))
    to_safety(tx, "eo")
    assert (tx.state.units["eo"].x, tx.state.units["eo"].y) == pytest.approx(place)


def test_an_officer_with_no_room_about_a_friend_still_ends_on_the_table() -> None:
    """On a table no wider than the friend, neither behind it nor beside it is on the table:
    he stands as near behind it as the table allows."""
    friend = piece("f", "parl", "foot", 2.0, 0.0)
    tx = tx_with(state_of(friend.evolve(y=friend.depth / 2), officer("eo", "parl", None, x=2.0, y=20.0)),
                 table=Battlefield(width=friend.width, depth=DEPTH))
    to_safety(tx, "eo")
    eo = tx.state.units["eo"]
    assert eo.y == pytest.approx(0.5, abs=1e-5) and on_table(eo.base, (friend.width, DEPTH))


def horse_at(y: float) -> Unit:
    return piece("h", "king", "horse", 20.0, y)


def wagons_at(y: float) -> Unit:
    gun = piece("w", "parl", "artillery", 50.0, y)
    return gun.evolve(own=unit_data(gun).evolve(troop="wagons", gun=None))


@pytest.mark.parametrize(("y", "moved_in"), [(40.0, False), (46.5, True)])
def test_horse_plundering_at_a_train_by_the_edge_stay_on_the_table(y: float, moved_in: bool) -> None:
    """21 B: "they will head for the train ... and remain there plundering". Riding along
    the north edge to wagons on it, the horse turned side on would hang over the edge: they
    halt beside the wagons, wholly on the table; riding up from inside, where the ride ends."""
    state = state_of(horse_at(y), wagons_at(y + 4.0 if not moved_in else y), turn=3)
    path, at_train = plunder_path(state, state.units["h"], TABLE, "north")
    tx = tx_with(state)
    ride_off(tx, "h")
    h = tx.state.units["h"]
    assert at_train and unit_data(h).plundering == AT_TRAIN and h.in_play and on_table(h.base, TABLE)
    assert ((h.x, h.y) != pytest.approx(path[-1])) is moved_in
    if moved_in:
        assert max(py for _, py in h.base.corners()) == pytest.approx(DEPTH, abs=1e-5)


@pytest.mark.parametrize(("target_y", "refused"), [(1.0, True), (6.0, False)])
def test_a_charge_that_would_halt_partly_off_the_table_is_refused(target_y: float, refused: bool) -> None:
    """12 A: "Attacker moves units directly towards the target unit(s) and halts 1" away":
    a charge along the south edge at a unit standing on it would halt side on, over the
    edge; at a unit further in, it halts on the table."""
    game, state = _game()
    state = state.with_unit(state.units["k-foot"].evolve(x=30.0, y=1.0))
    for officer_id, x in (("k-brig", 20.0), ("k-gen", 14.0)):  # out of the way
        state = state.with_unit(state.units[officer_id].evolve(x=x, y=20.0))
    state = state.with_unit(state.units["p-foot"].evolve(x=38.0, y=target_y, facing=270.0))
    codes = [v.code for v in game.validate(state, Charge(unit="k-foot", target="p-foot"))]
    assert (MovementCode.OFF_TABLE in codes) is refused
    assert codes == ([MovementCode.OFF_TABLE] if refused else [])


@pytest.mark.parametrize(("roll", "at", "facing"), [(6, 1.821903, 0.0), (1, 7.0, 90.0)])
def test_a_move_cut_short_before_its_last_turn_keeps_its_facing_by_the_edge(roll: int, at: float,
                                                                            facing: float) -> None:
    """Terrain: a town costs foot a D6 "as they move". Foot an inch from the south edge move
    6" north through a town and then face east; a 6 for the town stops them 0.8" on, where
    facing east would swing them over the edge: they keep facing north. A 1 lets them
    finish the move and turn."""
    town = {"type": "town", "polygon": [[26.0, 0.0], [34.0, 0.0], [34.0, 10.0], [26.0, 10.0]]}
    game, state = _game([town])
    state = state.with_unit(state.units["k-foot"].evolve(y=1.0))
    state = state.with_unit(state.units["k-brig"].evolve(x=20.0, y=8.0))
    move = Move(unit="k-foot", waypoints=((30.0, 7.0),), face_after=90.0)
    assert game.validate(state, move) == []
    after, _ = game.apply(state, move, ScriptedDice([roll]))
    foot = after.units["k-foot"]
    assert (foot.y, foot.facing) == (pytest.approx(at), facing) and on_table(foot.base, TABLE)
