"""Declare Thee Sir: a routing unit's stands, each fled its own way (Melee Chart notes,
5d: "Roll 2D6 for each unit stand"), stand on the table as pieces do: moves, routs,
pursuits, charges and rallies meet each of them, not only the colours (Movement: "Units
that move or rout through another unit cause a moral check"; friends are passed, enemies
stop). With scripted dice."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.events import StandsScattered
from tertia.core.geometry import Base, bearing, heading_vector, polygons_overlap
from tertia.core.reducer import reduce
from tertia.core.state import GameState
from tertia.rules.involuntary import Interpenetration, plan_slide, stands_on
from tertia.rules.movement import MovementCode
from tertia.rulesets.declare_thee_sir.events import Charge
from tertia.rulesets.declare_thee_sir.pushback import push_back
from tertia.rulesets.declare_thee_sir.rally import gathering_place
from tertia.rulesets.declare_thee_sir.reach import fire_distance
from tertia.rulesets.declare_thee_sir.rout import is_routing, pursue, rout
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.troops import ARTILLERY, HORSE, STAND_SIZES
from tertia.rulesets.declare_thee_sir.values import unit_data

from .dts_combat_support import A, B, dice_left, dts, state_of, table_with, tx_with
from .dts_support import P, R, activated, dts_game, unit


def apart(state: GameState, uid: str, *places: tuple[float, float]) -> GameState:
    """``uid`` routing, its stands fled to ``places`` (the first its colours)."""
    u = state.units[uid].evolve(routing=True)
    own = unit_data(u)
    return reduce(state.with_unit(u), StandsScattered(unit=uid, places=places, width=own.stand_width,
                                                      depth=own.stand_depth, gone=(False,) * len(places)))


def test_a_unit_apart_takes_up_each_of_its_stands_and_is_found_by_any() -> None:
    """The table a routing unit takes up is each of its stands; a question near a stand
    far from its colours finds it."""
    state = apart(state_of(dts("r", A, 20.0, 10.0, morale=0)), "r", (20.0, 10.0), (30.0, 20.0), (5.0, 5.0))
    r = state.units["r"]
    assert [(f.x, f.y) for f in r.footprints] == [(20.0, 10.0), (30.0, 20.0), (5.0, 5.0)]
    assert r.base == r.footprints[0] and r.reach > 14.0
    assert [u.id for u in state.near(30.0, 20.0, 30.0, 20.0, 0.0)] == ["r"]
    assert stands_on(state, Base(30.5, 20.0, 0.0, 1.5, 1.0), ())
    assert not stands_on(state, Base(25.0, 15.0, 0.0, 1.5, 1.0), ())


@pytest.mark.parametrize(("side", "to", "found"), [
    (R, 18.0, "run into"),  # an enemy's stand in the way stops the move
    (P, 18.0, None),  # a friend's is passed through
    (P, 15.0, "end on"),  # but not ended on
    (R, 12.0, None),  # short of it, nothing is met
])
def test_a_move_meets_each_stand_of_a_routing_unit_away_from_its_colours(
        side: str, to: float, found: str | None) -> None:
    """Movement: an enemy blocks a move, a friend may be passed through but not ended on,
    each stand of a routing unit as much as its colours, 20" off."""
    game = dts_game([unit("pf", P, "foot", 20, 6), unit("o", side, "foot", 40, 30, 180)])
    state = activated(game, "pf", "advance", {"open": 12, "difficult": 4})
    state = apart(state, "o", (40.0, 30.0), (20.0, 15.0))
    problems = [(v.code, v.message) for v in game.validate(state, Move(unit="pf", waypoints=((20.0, to),)))]
    assert problems == ([] if found is None else [(MovementCode.COLLISION, f"pf would {found} o")])


def test_a_fleeing_stand_is_stopped_by_an_enemys_routing_stand_in_its_way() -> None:
    """Melee Chart notes: each stand flees its 2D6 "away from foe"; an enemy stops it in
    contact (Movement), a stand of a routing enemy far from its colours as well: the left
    stand, whose way it lies in, stops at it; the others flee on."""
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0)
    other = dts("o", B, 40.0, 30.0, 180.0, morale=0)
    state = apart(state_of(foe, broken, other), "o", (40.0, 30.0), (18.3, 12.0))
    tx = tx_with(state, 8, 8, 8)
    rout(tx, "b", "f", "melee")
    assert [s.y for s in stands_of(tx.state.units["b"])] == [13.0, 10.0, 10.0] and dice_left(tx) == 0
    clear = tx_with(state_of(foe, broken, other), 8, 8, 8)
    rout(clear, "b", "f", "melee")
    assert [s.y for s in stands_of(clear.state.units["b"])] == [10.0, 10.0, 10.0]


def test_a_pursuer_beside_the_stand_it_pursues_faces_it_from_just_clear_and_reaches_it() -> None:
    """"If it contacts a routing unit stand, the routing stand is moved a further 2D6": a
    pursuer that, turned where it stands, would stand over the stand it pursues faces it
    from just clear (in contact), and the stand flees 2D6 more; the pursuer stands on no
    stand of it."""
    pursuer = dts("w", B, 20.0, 20.0, 180.0, troop=HORSE, morale=3)
    router = dts("r", A, 22.0, 22.0, 0.0, troop=HORSE, morale=0, stands=2)
    state = apart(state_of(pursuer, router), "r", (20.6, 21.6), (24.0, 27.0))
    heading = bearing((20.0, 20.0), (20.6, 21.6))
    turned = pursuer.base.moved_to(20.0, 20.0, heading)
    assert polygons_overlap(turned.corners(), state.units["r"].base.corners())  # the case
    tx = tx_with(state, 3, 7)
    found = pursue(tx, "w", "r")
    after = tx.state.units["r"]
    assert found.reached == 0 and dice_left(tx) == 0
    dx, dy = heading_vector(heading)
    assert (after.x, after.y) == pytest.approx((20.6 + 7 * dx, 21.6 + 7 * dy))
    w = tx.state.units["w"]
    assert w.facing == pytest.approx(heading)
    assert not any(polygons_overlap(w.base.corners(), f.corners(), 0.01) for f in after.footprints)
    assert not any(polygons_overlap(w.base.corners(), f.corners(), 0.01) for f in state.units["r"].footprints)


def test_a_charge_whose_turn_would_stand_over_a_friend_is_refused() -> None:
    """Melee a: "move directly at target unit"; a charger that cannot turn to face its
    target without standing over a friend beside it (a friend its charge would leave
    behind) cannot charge it. Without the friend there, the charge is made."""
    units = [unit("ph", P, "horse", 20, 10, 0), unit("rf", R, "foot", 28, 10, 270)]
    game = dts_game([*units, unit("pf", P, "foot", 17.5, 8.0, 0)])
    state = activated(game, "ph", "advance", {"open": 12, "difficult": 4})
    assert [(v.code, v.message) for v in game.validate(state, Charge(unit="ph", target="rf"))] == [
        (MovementCode.COLLISION, "ph cannot turn to face rf without standing over pf")]
    alone = dts_game(units)
    assert alone.validate(activated(alone, "ph", "advance", {"open": 12, "difficult": 4}),
                          Charge(unit="ph", target="rf")) == []


def test_a_routing_unit_pushed_back_flees_the_inches_stand_by_stand() -> None:
    """PB1D6 / PB2D6: "pushed back that many inches in good order": a routing unit, its
    stands apart, has no order to keep: each of its stands flees the inches straight away
    from the foe, through friends and stopped by enemies, as a rout moves them."""
    foe = dts("f", B, 20.0, 24.0, 180.0, morale=3)
    router = dts("r", A, 20.0, 20.0, 0.0, morale=0)
    state = apart(state_of(foe, router), "r", (20.0, 22.0), (14.0, 22.0), (26.0, 22.0))
    tx = tx_with(state)
    push = push_back(tx, "r", "f", 4.0, face_foe=True, reason="pushed back in melee")
    assert push.fled and dice_left(tx) == 0
    after = tx.state.units["r"]
    places = [c for f in after.footprints for c in (f.x, f.y)]
    assert places == pytest.approx([20.0, 18.0, 14.0, 18.0, 26.0, 18.0])
    assert after.base == after.footprints[0] and is_routing(after)


def test_a_rallied_line_among_scattered_stands_forms_up_to_two_widths_off() -> None:
    """Rally b: "When the unit is reassembled around its colors": a line (4.5" by 1") whose
    every place within one width along its front or to its rear has a fled stand on it
    forms clear of them all, the least way off within two widths: 5.5" to its rear."""
    flag = dts("b", A, 20.0, 18.0, 0.0, morale=2, stands=1)
    other = dts("o", B, 40.0, 30.0, 0.0, morale=0)
    crowd = [(14.0 + 1.5 * i, 13.5 + j) for i in range(9) for j in range(6)]  # x 13.25-26.75, y 13-18.5
    state = apart(state_of(flag, other), "o", (40.0, 30.0), *crowd)
    line = Base(20.0, 18.0, 0.0, 4.5, 1.0)
    placed = gathering_place(table_with(), state, flag, line)
    assert (placed.x, placed.y) == (20.0, 12.5) and not stands_on(state, placed, ("b",))


def test_a_stand_apart_blocks_sight_and_fire() -> None:
    """Fire: "direct fire at visible targets"; a unit's base blocks the line, and so does a
    routing unit's stand far from its colours."""
    firer = dts("p", A, 20.0, 10.0, 0.0, morale=3)
    target = dts("t", B, 20.0, 20.0, 180.0, morale=3)
    other = dts("o", B, 40.0, 30.0, 0.0, morale=0, stands=4)
    state = state_of(firer, target, other)
    assert fire_distance(table_with(), state, firer, target) == pytest.approx(9.0)
    screened = apart(state, "o", (40.0, 30.0), (18.5, 15.0), (20.0, 15.0), (21.5, 15.0))
    assert fire_distance(table_with(), screened, firer, target) is None


def test_a_slide_passes_a_friends_stands_as_one_unit() -> None:
    """A slide through two stands of one friend, apart, passes that friend once (one morale
    check, "each unit involved") and goes on until clear of the second."""
    mover = dts("m", A, 20.0, 10.0, 0.0, morale=3, stands=1)
    friend = dts("f", A, 40.0, 30.0, 0.0, morale=0)
    state = apart(state_of(mover, friend), "f", (40.0, 30.0), (20.0, 12.0), (20.0, 14.0))
    slide = plan_slide(state, state.units["m"], heading=0.0, distance=3.5,
                       policy=Interpenetration.PASS_FRIENDS, table=(48.0, 36.0))
    assert slide.passed_through == ("f",) and slide.distance == pytest.approx(5.0)


@pytest.mark.parametrize("routing", [True, False])
def test_a_pursuer_reaching_a_quarry_that_has_rallied_halts_in_contact(routing: bool) -> None:
    """"If it contacts a routing unit stand, the routing stand is moved a further 2D6": a
    quarry that has rallied has no routing stand, so the pursuer halts in contact with it
    and nothing flees; one still routing flees its 2D6."""
    winner = dts("w", B, 20.0, 20.0, 180.0, morale=3)
    quarry = dts("r", A, 20.0, 16.0, 0.0, morale=1, stands=1).evolve(routing=routing)
    tx = tx_with(state_of(winner, quarry), *((4, 6) if routing else (4,)))
    found = pursue(tx, "w", "r")
    assert dice_left(tx) == 0 and found.distance == pytest.approx(3.0)
    assert (found.reached, tx.state.units["r"].y) == ((0, 10.0) if routing else (None, 16.0))
    assert (tx.state.units["r"].stands == ()) is not routing


def test_a_gun_in_long_march_flees_turned_sideways_as_it_stood() -> None:
    """Formations b: in long march "Artillery turned sideways"; a limbered gun broken flees
    in the shape it stood in, as wide as a gun's stand is deep, and stands where that shape
    was cleared to stand."""
    size = STAND_SIZES[ARTILLERY]
    assert size.width != size.depth  # else the case shows nothing
    gun = dts("g", A, 20.0, 18.0, 0.0, troop=ARTILLERY, formation="long_march", morale=0)
    foe = dts("f", B, 20.0, 22.0, 180.0, morale=3)
    tx = tx_with(state_of(foe, gun), 5)
    rout(tx, "g", "f", "melee")
    fled = tx.state.units["g"]
    assert is_routing(fled) and dice_left(tx) == 0 and fled.y == 13.0
    assert (fled.stands[0].width, fled.stands[0].depth) == (size.depth, size.width)
