"""Declare Thee Sir: the table's edge. The text's only way off the table is the rout's
("When routed off a table edge, a unit is removed from play"); a push-back over the edge
stops at it or removes the unit (option ``push_off_table``), and nothing else carries a
piece over it: a general his unit would carry off is left where he stood, a pursuer, an
evading caracole and a charger stop at it, a rallied unit gathers on the table."""

from __future__ import annotations

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.events import UnitRemoved
from tertia.core.geometry import EPSILON, Base, base_distance
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rulesets.declare_thee_sir.edge import MARGIN, room
from tertia.rulesets.declare_thee_sir.evasion import Evaded
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Charge, GeneralAttached
from tertia.rulesets.declare_thee_sir.fire import fire
from tertia.rulesets.declare_thee_sir.melee import fight
from tertia.rulesets.declare_thee_sir.pushback import PUSHED_OFF, push_back
from tertia.rulesets.declare_thee_sir.rally import rally_routing
from tertia.rulesets.declare_thee_sir.rout import pursue, rout
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

from .dts_combat_support import DEPTH, A, B, dts, state_of, tx_with
from .dts_support import P, R, activated, dts_game, unit


def on_the_table(piece: Unit, width: float = 48.0, depth: float = DEPTH) -> bool:
    return all(-EPSILON <= x <= width + EPSILON and -EPSILON <= y <= depth + EPSILON
               for x, y in piece.base.corners())


def near_the_north_edge(**readings: str) -> GameState:
    """An attacker facing north in contact with a good target whose rear is 2" from the
    north edge (its centre at 33.5, the table 36" deep)."""
    return state_of(dts("a", A, 24, 32.5, 0, morale=3), dts("t", B, 24, 33.5, 180, morale=2), **readings)


@pytest.mark.parametrize(("push", "y"), [(1, 34.5), (2, 35.5), (6, 35.5)])
def test_a_push_back_over_the_edge_stops_at_the_edge_by_default(push: int, y: float) -> None:
    """3 + 5 = 8 against a good target: PB1D6. Pushed 1 or 2 it goes the whole way (2 puts
    its rear on the edge); pushed 6 it stops at the edge, in play, facing its foe."""
    tx = tx_with(near_the_north_edge(), 3, 5, push)
    fought = fight(tx, "a", "t")
    t = tx.state.units["t"]
    assert fought.push is not None and not fought.push.removed
    assert t.in_play and t.y == pytest.approx(y, abs=1e-5) and on_the_table(t)
    assert fought.pushed_back == pytest.approx(y - 33.5, abs=1e-5)


@pytest.mark.parametrize(("push", "removed"), [(2, False), (3, True)])
def test_under_removed_a_push_over_the_edge_removes_the_unit_as_routed_off(push: int, removed: bool) -> None:
    """Option ``push_off_table`` ``removed``: pushed 2 its rear reaches the edge and it
    stays; pushed 3 it goes over and is removed from play as a unit routed off."""
    tx = tx_with(near_the_north_edge(push_off_table="removed"), 3, 5, push)
    fought = fight(tx, "a", "t")
    assert fought.push is not None and fought.push.removed is removed
    assert tx.state.units["t"].in_play is not removed
    assert (UnitRemoved(unit="t", reason="routed", detail=PUSHED_OFF) in tx.events) is removed


@pytest.mark.parametrize(("reading", "push", "in_play", "y"), [
    ("edge", 2, True, 35.5), ("edge", 4, True, 35.5),
    ("removed", 2, True, 35.5), ("removed", 4, False, 37.5)])
def test_artillery_pushes_to_the_edge_or_over_it_by_the_option(reading: str, push: int,
                                                              in_play: bool, y: float) -> None:
    """Fire b: "target is pushed back 1D6 in good order". A gun 15" off (range 18 + 1),
    4 + 5 = 9 against a good target: PB2D6, pushed the die's inches away from the gun."""
    state = state_of(dts("g", A, 24, 17, 0, troop="artillery", morale=2),
                     dts("t", B, 24, 33.5, 180, morale=2), push_off_table=reading)
    tx = tx_with(state, 1, 4, 5, push)
    shot = fire(tx, "g", "t")
    t = tx.state.units["t"]
    assert shot.push is not None and t.in_play is in_play and t.y == pytest.approx(y, abs=1e-5)
    assert t.facing == 180.0


@pytest.mark.parametrize(("push", "carried"), [(2, True), (3, False)])
def test_a_general_his_unit_would_carry_over_the_edge_is_left_where_he_stood(push: int,
                                                                           carried: bool) -> None:
    """Movement: "Attached generals move with unit or are left stationary". The royal foot,
    its general touching its rear, is pushed back towards the north edge: 2" puts his rear
    on the edge and he goes with it; 3" would carry him over, so he stays, on his own."""
    general = {"id": "rc", "side": R, "command": "centre", "x": 20, "y": 33.25, "general": True}
    game = dts_game([unit("pf", P, "foot", 20, 24), unit("rf", R, "foot", 20, 32, 180)],
                    commanders=[general], turns=1,
                    table={"generals": [{"commander": "rc", "attached_to": "rf"}]})
    state = activated(game, "pf", "advance", {"open": 7, "difficult": 3})
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    state = state.with_unit(state.units["pf"].evolve(morale=3, morale_max=3))
    state = state.with_unit(state.units["rf"].evolve(morale=2, morale_max=2))
    # close 2 (excellent needs 2+); fight 3 + 4 = 7: a point off, PB1D6 for good morale
    after, events = game.apply(state, Charge(unit="pf", target="rf"), ScriptedDice([2, 3, 4, push]))
    rc = after.units["rc"]
    assert after.units["rf"].y == 32 + push
    assert (rc.y, unit_data(rc).attached_to) == ((35.25, "rf") if carried else (33.25, None))
    assert (GeneralAttached(general="rc", unit=None) in events) is not carried
    assert on_the_table(rc)


@pytest.mark.parametrize(("flight", "carried"), [(2, True), (3, False)])
def test_a_general_the_colours_would_carry_over_the_edge_is_left_where_he_stood(flight: int,
                                                                                carried: bool) -> None:
    """A regiment down to its colours routs south towards the edge, its general beside it
    and half an inch back: fleeing 2 he goes with it; fleeing 3 the colours stay on the
    table but he would go over, and stays where he stood, on his own."""
    foe = dts("f", B, 20.0, 6.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 4.0, 0.0, morale=0, stands=1)
    general = dts("g", A, 21.5, 3.5, 0.0, troop="general", attached_to="b")
    tx = tx_with(state_of(foe, broken, general), flight)
    rout(tx, "b", "f", "melee")
    g = tx.state.units["g"]
    assert tx.state.units["b"].in_play and tx.state.units["b"].y == 4.0 - flight
    assert (g.y, unit_data(g).attached_to) == ((1.5, "b") if carried else (3.5, None))


@pytest.mark.parametrize(("router_x", "reached"), [(0.75, False), (2.75, True)])
def test_a_pursuer_stops_at_the_table_edge(router_x: float, reached: bool) -> None:
    """A regiment of horse pursues a stand fleeing along the west edge, 4.75" off: going
    straight at it half left, its left flank would cross the edge, so it stops there; with
    room, its 6 reaches the stand (4.75" off edge to edge, further along the line it
    goes), which flees a further 2D6."""
    pursuer = dts("w", B, router_x + 2.0, 16.0, 180.0, troop="horse", morale=3)
    router = dts("r", A, router_x, 10.0, 0.0, morale=0, stands=1).evolve(routing=True)
    tx = tx_with(state_of(pursuer, router), 6, 5)
    found = pursue(tx, "w", "r")
    w = tx.state.units["w"]
    assert (found.reached is not None) is reached and on_the_table(w)
    if reached:  # it goes on until it touches the stand, 4.86" along its half-left line
        assert found.distance == pytest.approx(4.863, abs=1e-3)
        assert base_distance(w.base, router.base) == pytest.approx(0.0, abs=1e-6)
    else:
        assert found.distance == pytest.approx(1.196, abs=1e-3)


@pytest.mark.parametrize(("at", "roll", "went"), [(30.5, 3, 3.0), (33.5, 3, 1.0)])
def test_an_evading_caracole_stops_at_the_table_edge(at: float, roll: int, went: float) -> None:
    """Optional Rules b: "the carole formation will first evade 1D6 inches away": 3" away
    from the foot charging it from the south, unless the north edge stops it sooner."""
    horse = unit("rh", R, "horse", 20, at, 180)
    game = dts_game([unit("pf", P, "foot", 20, at - 8.5), horse], turns=1, caracole=True,
                    table={"regiments": [{"unit": "rh", "firelocks": True, "formation": "caracole"}]})
    state = activated(game, "pf", "advance", {"open": 7, "difficult": 3})
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    after, events = game.apply(state, Charge(unit="pf", target="rh"), ScriptedDice([roll]))
    evaded = next(e for e in events if isinstance(e, Evaded))
    assert evaded.distance == pytest.approx(went, abs=1e-5)
    assert after.units["rh"].y == pytest.approx(at + went, abs=1e-5) and on_the_table(after.units["rh"])


@pytest.mark.parametrize(("target_x", "codes"), [(0.75, ["movement.OFF_TABLE"]), (4.0, [])])
def test_a_charge_that_would_end_partly_off_the_table_is_refused(target_x: float, codes: list[str]) -> None:
    """Melee a: "move directly at target unit": foot going half left at commanded shot
    standing at the west edge would reach it with its left flank over the edge."""
    game = dts_game([unit("pf", P, "foot", 5.0, 10, 0), unit("rf", R, "commanded_shot", target_x, 16, 180)])
    state = activated(game, "pf", "advance", {"open": 9, "difficult": 3})
    assert [v.code for v in game.validate(state, Charge(unit="pf", target="rf"))] == codes


@pytest.mark.parametrize(("flight", "x"), [(2, 2.5), (3, 2.25)])
def test_a_unit_rallied_by_the_edge_gathers_wholly_on_the_table(flight: int, x: float) -> None:
    """Rally b: the stands reassemble about the colours, in line. Fled west 2", the line
    about the colours (at 2.5) fits; fled 3", it would hang over the edge, so it forms
    beside the colours with its left on the edge."""
    foe = dts("f", B, 11.0, 18.0, 270.0, morale=3)
    tx = tx_with(state_of(foe, dts("b", A, 6.0, 18.0, 0.0, morale=2)), flight, flight, flight, 4, 4)
    rout(tx, "b", "f", "melee")
    assert tx.state.units["b"].x == pytest.approx(4.5 - flight)
    assert rally_routing(tx, "b").rallied
    b = tx.state.units["b"]
    assert b.x == pytest.approx(x, abs=1e-5) and (b.width, b.depth) == (4.5, 1.0) and on_the_table(b)


@pytest.mark.parametrize(("x", "turns"), [(0.5, False), (5.0, True)])
def test_a_unit_pinned_against_the_edge_keeps_its_facing(x: float, turns: bool) -> None:
    """Melee: "pushed back ... in good order facing the foe". A regiment facing east along
    the west edge, attacked from the north-east, cannot turn to face its foe without
    standing over the edge: it keeps its facing and, with no room behind it, stays put.
    Further in, it turns and is pushed its 2"."""
    state = state_of(dts("a", A, x + 2.5, 14, 225, morale=3), dts("t", B, x, 10, 90, morale=2))
    tx = tx_with(state, 3, 5, 2)
    fought = fight(tx, "a", "t")
    t = tx.state.units["t"]
    assert on_the_table(t) and fought.push is not None
    assert (t.facing != 90.0, fought.pushed_back) == ((True, pytest.approx(2.0)) if turns else (False, 0.0))


@pytest.mark.parametrize(("heading", "x", "y", "most"), [
    (0.0, 10.0, 33.0, 2.0), (90.0, 45.0, 10.0, 2.0), (180.0, 10.0, 3.0, 2.0), (270.0, 3.0, 10.0, 2.0),
    (0.0, 10.0, 10.0, 25.0),
])
def test_the_room_to_each_edge_is_measured_from_the_base_to_that_edge(heading: float, x: float, y: float,
                                                                      most: float) -> None:
    """A piece moved without its commander's choosing stops at the edge, a hair inside it:
    a base 4" by 2" has 2" to the edge it is 2" from, whichever edge that is (north, east,
    south, west), and 25" to the north edge from the middle of the table."""
    base = Base(x, y, 0.0, 4.0, 2.0) if heading in (0.0, 180.0) else Base(x, y, 90.0, 4.0, 2.0)
    assert room(base, heading, Battlefield(width=48, depth=36)) == pytest.approx(most - MARGIN, abs=1e-9)


@pytest.mark.parametrize(("push", "y"), [(6, 34.0), (1, 34.0), (0.25, 33.75)])
def test_a_push_back_short_of_a_friend_at_the_edge_stops_a_quarter_inch_at_a_time(push: float,
                                                                                y: float) -> None:
    """Pushed back "in good order" towards the north edge with a friend standing at it
    (its front at 34.6), the target could pass the friend only by going over the edge: it
    is cut back a quarter inch at a time until it stops short of the friend, its rear at
    34.5; a push that falls short of the friend goes its whole way."""
    state = near_the_north_edge().with_unit(dts("f2", B, 24, 35.1, 180, morale=2))
    tx = tx_with(state, table=None)
    pushed = push_back(tx, "t", "a", push, face_foe=True, reason="pushed back")
    t = tx.state.units["t"]
    assert t.in_play and on_the_table(t) and not pushed.slide.passed_through
    assert t.y == pytest.approx(min(y, 33.5 + push), abs=1e-5)


@pytest.mark.parametrize(("y", "refused"), [(35.0, True), (34.0, False)])
def test_a_forlorn_hope_that_would_stand_off_the_table_is_refused(y: float, refused: bool) -> None:
    """Optional Rules a: the division forms "in line ... in front of the regiment"; a
    formation change its commander places may not leave the table: with the regiment's front
    half an inch from the north edge there is no room for a division an inch deep; an inch
    further back there is, just (its front on the edge)."""
    game = dts_game([unit("pf", P, "foot", 20, y), unit("rf", R, "foot", 20, 6, 0)], forlorn_hope=True)
    state = activated(game, "pf", "formation_change")
    messages = [v.message for v in game.validate(state, ChangeFormation(unit="pf", formation="forlorn_hope"))]
    label = state.units["pf"].label
    assert messages == ([f"{label}'s forlorn hope would stand off the table"] if refused else [])
