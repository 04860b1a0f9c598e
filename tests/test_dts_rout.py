"""Declare Thee Sir: routs stand by stand, pursuit, and rallies (Melee Chart notes, 5d;
Rally, 6), with scripted dice."""

from __future__ import annotations

import pytest

from tertia.core.events import StandsScattered, UnitRemoved
from tertia.core.geometry import Base, base_distance
from tertia.rules.casualties import StandsLost
from tertia.rulesets.declare_thee_sir.rally import (
    break_pursuit,
    gathering_place,
    rally_routing,
    rest,
    rolls_allowed,
)
from tertia.rulesets.declare_thee_sir.rout import beats_morale, is_routing, pursue, pursued_by, rout
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.troops import FOOT, GENERAL
from tertia.rulesets.declare_thee_sir.values import unit_data

from .dts_combat_support import A, B, dice_left, dts, state_of, table_with, tx_with


def test_each_stand_flees_its_own_2d6_straight_away_from_the_foe() -> None:
    """"Roll 2D6 for each unit stand and move that many inches away from foe"."""
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0)
    tx = tx_with(state_of(foe, broken), 5, 9, 7)
    flight = rout(tx, "b", "f", "melee")
    assert flight.rolls == (5, 9, 7) and dice_left(tx) == 0
    assert is_routing(tx.state.units["b"])
    ys = [s.y for s in stands_of(tx.state.units["b"])]
    assert ys == [13.0, 9.0, 11.0]  # each straight south, away from the foe to the north
    assert tx.state.units["b"].y == 13.0  # the unit stands where its flag stands


def test_a_stand_over_the_edge_is_lost_and_with_the_last_the_unit() -> None:
    """"When routed off a table edge, a unit is removed from play"."""
    foe = dts("f", B, 20.0, 6.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 4.0, 0.0, morale=0)
    tx = tx_with(state_of(foe, broken), 2, 12, 4)
    flight = rout(tx, "b", "f", "melee")
    assert [s.off_table for s in flight.slides] == [False, True, True]
    assert StandsLost(unit="b", stands=2, cause="routed off the table") in tx.events
    assert unit_data(tx.state.units["b"]).stands_left == 1 and tx.state.units["b"].in_play
    assert len(stands_of(tx.state.units["b"])) == 1
    again = tx_with(tx.state, 6)
    assert rout(again, "b", None, "routing").removed
    assert UnitRemoved(unit="b", reason="routed", detail="off the table") in again.events


def test_a_rout_goes_on_towards_the_units_own_edge() -> None:
    """"The routing unit will continue to rout each time it is activated": with no foe to
    flee, towards its own (south) edge."""
    broken = dts("b", A, 20.0, 18.0, 90.0, morale=0)
    tx = tx_with(state_of(broken, dts("f", B, 40.0, 30.0, morale=2)), 4, 4, 4)
    before = stands_of(broken)
    rout(tx, "b", None, "routing")
    after = stands_of(tx.state.units["b"])
    assert [(a.x, a.y + 4.0) for a in after] == [(b.x, b.y) for b in before]


def test_friends_the_routers_pass_through_check_morale_and_generals_do_not() -> None:
    """Movement: units that "rout through another unit cause a moral check (one musketry
    roll) on each unit involved": the friend, then the routing unit; "General stands don't
    check for morale points"."""
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0, stands=1)
    friend = dts("p", A, 20.0, 15.0, 0.0, morale=3)
    general = dts("g", A, 20.0, 12.0, 0.0, troop="general")
    tx = tx_with(state_of(foe, broken, friend, general), 8, 1, 2, 3, 4)  # flight 8; checks 1, 2 and 3, 4
    flight = rout(tx, "b", "f", "melee")
    assert [(c.unit, c.dice) for c in flight.checks] == [("p", (1, 2)), ("b", (3, 4))]
    assert set(flight.slides[0].passed_through) == {"p", "g"} and dice_left(tx) == 0
    alone = tx_with(state_of(foe, broken, general), 8)
    assert rout(alone, "b", "f", "melee").checks == () and dice_left(alone) == 0, "a general alone: none"


@pytest.mark.parametrize(("points", "breaks"), [(0, True), (1, False)])
def test_a_friend_the_routers_break_routs_in_turn_to_its_own_edge(points: int, breaks: bool) -> None:
    """Morale: "A unit with poor morale that loses another point to ... a morale check
    routs". Doubles at poor break the friend, whose three stands flee 3" each towards its
    own (south) edge; with a point to lose, doubles cost the point and it stands."""
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0, stands=1)
    friend = dts("p", A, 20.0, 15.0, 0.0, morale=points)
    tx = tx_with(state_of(foe, broken, friend), 8, 2, 2, 1, 2, *((3, 3, 3) if breaks else ()))
    flight = rout(tx, "b", "f", "melee")
    assert [c.unit for c in flight.checks] == ["p", "b"] and flight.checks[0].routed is breaks
    assert is_routing(tx.state.units["p"]) is breaks and dice_left(tx) == 0
    assert tx.state.units["p"].y == (12.0 if breaks else 15.0)


def test_the_pursuer_follows_1d6_and_a_stand_it_reaches_flees_2d6_more() -> None:
    """"The victorious attacking unit will pursue the routing unit 1D6. If it contacts a
    routing unit stand, the routing stand is moved a further 2D6"."""
    winner = dts("w", B, 20.0, 20.0, 180.0, morale=3)
    router = dts("r", A, 20.0, 16.0, 0.0, morale=0, stands=1).evolve(routing=True)
    short = tx_with(state_of(winner, router), 2)
    found = pursue(short, "w", "r")
    assert (found.roll, found.reached, pursued_by(short.state.units["w"])) == (2, None, "r")
    assert short.state.units["w"].y == 18.0
    caught = tx_with(state_of(winner, router), 4, 6)  # 4 reaches the stand 3" off; it flees 6
    found = pursue(caught, "w", "r")
    assert found.reached == 0 and caught.state.units["r"].y == 10.0
    assert base_distance(caught.state.units["w"].base, router.base) == pytest.approx(0.0)


@pytest.mark.parametrize(("roll", "stops"), [(3, False), (4, True)])
def test_the_pursuit_stops_when_the_pursuer_beats_its_morale(roll: int, stops: bool) -> None:
    """"until it beats its current morale point total on 1D6 (3 morale points needs a 4+)"."""
    tx = tx_with(state_of(dts("w", B, 20.0, 20.0, morale=3)), roll)
    assert beats_morale(tx, "w") is stops


@pytest.mark.parametrize(("dice", "broken_off", "move"), [((4, 4), True, 8), ((3, 4), False, 0),
                                                          ((1, 1), True, 2)])
def test_a_pursuer_breaks_off_on_doubles_and_moves_their_sum(dice: tuple[int, int], broken_off: bool,
                                                             move: int) -> None:
    """Rally c: "Units which break pursuit also rally on 2D6 doubles, and use the dice sum as
    movement allowance"; without doubles the pursuit goes on."""
    pursuer = dts("w", B, 20.0, 20.0, morale=3).evolve(pursuing="b")
    tx = tx_with(state_of(pursuer, dts("b", A, 20.0, 10.0, morale=0).evolve(routing=True)), *dice)
    attempt = break_pursuit(tx, "w")
    assert attempt.rallied is broken_off and attempt.move == move and dice_left(tx) == 0
    assert pursued_by(tx.state.units["w"]) == (None if broken_off else "b")
    assert tx.state.value("allowance") == ({"open": move, "difficult": -(-move // 3)} if broken_off else None)


@pytest.mark.parametrize(("points", "general_at", "rolls"), [
    (0, None, 1), (2, None, 2), (3, None, 3), (3, 2.5, 4), (3, 4.0, 3),
])
def test_a_routing_unit_rolls_once_a_morale_level_and_once_more_for_a_general_nearby(
        points: int, general_at: float | None, rolls: int) -> None:
    """Rally b: poor 1, good 2, excellent 3 rolls; one more for a friendly general within 3"."""
    units = [dts("b", A, 20.0, 10.0, morale=points)]
    if general_at is not None:
        units.append(dts("g", A, 20.0, 10.5 + 0.75 + general_at, troop="general"))
    assert rolls_allowed(state_of(*units), units[0]) == rolls


def test_doubles_rally_the_unit_on_its_colours_with_the_sum_to_move() -> None:
    """Rally b: "Doubles rally the routing unit ... Use the sum of the doubles to begin rally
    move"."""
    foe = dts("f", B, 20.0, 30.0, 180.0, morale=3)
    tx = tx_with(state_of(foe, dts("b", A, 20.0, 18.0, morale=2)), 6, 6, 6, 2, 5, 4, 4)
    rout(tx, "b", "f", "melee")
    attempt = rally_routing(tx, "b")
    assert attempt.rolls == ((2, 5), (4, 4)) and attempt.rallied and attempt.move == 8
    unit = tx.state.units["b"]
    assert not is_routing(unit) and unit.stands == () and (unit.width, unit.depth) == (4.5, 1.0)
    assert tx.state.value("allowance") == {"open": 8, "difficult": 3}


@pytest.mark.parametrize(("others", "at"), [
    ((), (20.0, 18.0)),  # room about the colours: there
    (((A, 22.5, 18.0, FOOT),), (20.0, 17.0)),  # a friend on its right: an inch back clears it
    (((B, 22.5, 18.0, FOOT),), (20.0, 17.0)),  # an enemy alike
    (((A, 22.5, 18.0, FOOT), (A, 20.0, 16.8, FOOT)), (18.0, 18.0)),  # one behind too: 2" left
    (((A, 20.0, 18.0, GENERAL),), (20.0, 18.0)),  # a general on the colours is not in the way
])
def test_a_rallied_line_gathers_the_least_way_off_clear_of_every_piece(
        others: tuple[tuple[str, float, float, str], ...], at: tuple[float, float]) -> None:
    """Rally b: "When the unit is reassembled around its colors": the line (4.5" by 1")
    about the colours at (20, 18), facing north, never ends on another piece: where one
    stands in the way it forms the least way off, along its front or to its rear."""
    flag = dts("b", A, 20.0, 18.0, 0.0, morale=2, stands=1)
    pieces = [dts(f"o{i}", side, x, y, 0.0, troop=troop, morale=None if troop == GENERAL else 3)
              for i, (side, x, y, troop) in enumerate(others)]
    line = Base(20.0, 18.0, 0.0, 4.5, 1.0)
    placed = gathering_place(table_with(), state_of(flag, *pieces), flag, line)
    assert (placed.x, placed.y) == pytest.approx(at) and placed.facing == 0.0


def test_without_doubles_the_flag_flees_the_last_roll_and_each_stand_its_own() -> None:
    """Rally b: "Routing units failing to rally use the last dice roll as continued rout
    movement for the flag stand. Then roll 2D6 for each routing unit stand's movement"."""
    foe = dts("f", B, 20.0, 30.0, 180.0, morale=3)
    tx = tx_with(state_of(foe, dts("b", A, 20.0, 18.0, morale=2)), 6, 6, 6, 2, 5, 1, 3, 7, 9)
    rout(tx, "b", "f", "melee")
    before = [s.y for s in stands_of(tx.state.units["b"])]
    attempt = rally_routing(tx, "b")
    assert attempt.rolls == ((2, 5), (1, 3)) and not attempt.rallied and dice_left(tx) == 0
    after = [s.y for s in stands_of(tx.state.units["b"])]
    assert [b - a for a, b in zip(after, before, strict=True)] == [4.0, 7.0, 9.0]
    assert isinstance(tx.events[-1], StandsScattered) and is_routing(tx.state.units["b"])


@pytest.mark.parametrize(("first", "now", "regain_to", "after"), [
    (3, 2, "level", 3), (3, 3, "level", 4), (3, 3, "points", 3), (2, 1, "level", 2), (2, 2, "level", 2),
])
def test_resting_regains_a_point_on_doubles_up_to_the_original_level(
        first: int, now: int, regain_to: str, after: int) -> None:
    """Rally d: "Doubles regain one morale point ... up to its original morale level (good =
    2, excellent = 4)"; the option ``regain_to`` reads it as the points first rolled."""
    tx = tx_with(state_of(dts("u", A, 20.0, 10.0, morale=now, morale_max=first)), 3, 3)
    assert rest(tx, "u", regain_to).rallied
    assert unit_data(tx.state.units["u"]).morale == after


def test_resting_without_doubles_or_untested_regains_nothing() -> None:
    """Rally d: "Untested units cannot regain the unknown" (no roll at all)."""
    tx = tx_with(state_of(dts("u", A, 20.0, 10.0, morale=1, morale_max=3)), 3, 4)
    assert not rest(tx, "u", "level").rallied and unit_data(tx.state.units["u"]).morale == 1
    untested = tx_with(state_of(dts("u", A, 20.0, 10.0)))
    assert rest(untested, "u", "level").rolls == () and dice_left(untested) == 0


def test_an_attached_general_flees_the_same_way_as_the_colours() -> None:
    """Movement: "Attached generals move with unit": broken by a foe to its north-east, the
    regiment's colours flee 6" south-west, and its general goes the same way, as far."""
    foe = dts("f", B, 26.0, 24.0, 225.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 45.0, morale=0, stands=1)
    general = dts("g", A, 18.5, 16.5, 45.0, troop="general", attached_to="b")
    tx = tx_with(state_of(foe, broken, general), 6)
    rout(tx, "b", "f", "melee")
    b, g = tx.state.units["b"], tx.state.units["g"]
    assert b.x < 20.0 - 1 and b.y < 18.0 - 1
    assert (g.x - 18.5, g.y - 16.5) == (pytest.approx(b.x - 20.0), pytest.approx(b.y - 18.0))
    assert unit_data(g).attached_to == "b"


def test_an_attached_general_flees_with_the_colours_and_stays_when_the_unit_is_gone() -> None:
    foe = dts("f", B, 20.0, 20.0, 180.0, morale=3)
    broken = dts("b", A, 20.0, 18.0, 0.0, morale=0, stands=1)
    general = dts("g", A, 20.0, 16.75, 0.0, troop="general", attached_to="b")
    tx = tx_with(state_of(foe, broken, general), 6)
    rout(tx, "b", "f", "melee")
    assert tx.state.units["g"].y == 10.75 and unit_data(tx.state.units["g"]).attached_to == "b"
    edge = tx_with(state_of(foe, dts("b", A, 20.0, 2.0, 0.0, morale=0, stands=1),
                            dts("g", A, 20.0, 4.0, 0.0, troop="general", attached_to="b")), 6)
    rout(edge, "b", "f", "melee")
    assert not edge.state.units["b"].in_play and edge.state.units["g"].y == 4.0
    assert unit_data(edge.state.units["g"]).attached_to is None


def test_the_pursuers_attached_general_pursues_with_it() -> None:
    """Movement: "Attached generals move with unit or are left stationary": a pursuit is
    the unit's move."""
    winner = dts("w", B, 20.0, 20.0, 180.0, morale=3)
    general = dts("g", B, 20.0, 22.0, 180.0, troop="general", attached_to="w")
    router = dts("r", A, 20.0, 16.0, 0.0, morale=0, stands=1).evolve(routing=True)
    tx = tx_with(state_of(winner, general, router), 2)
    pursue(tx, "w", "r")
    assert tx.state.units["w"].y == 18.0
    assert (tx.state.units["g"].x, tx.state.units["g"].y) == (20.0, 20.0)  # 2" behind it still
    alone = tx_with(state_of(winner, dts("g", B, 20.0, 22.0, 180.0, troop="general"), router), 2)
    pursue(alone, "w", "r")
    assert alone.state.units["g"].y == 22.0  # a general at large stays where he is


@pytest.mark.parametrize(("dice", "breaks"), [((1, 2), False), ((2, 2), True)])
def test_a_pursuer_passes_through_friends_who_check_morale_and_then_it_does(
        dice: tuple[int, int], breaks: bool) -> None:
    """Movement: "Units that move or rout through another unit cause a moral check (one
    musketry roll) on each unit involved": a pursuit is a move. The pursuer goes 5 of the
    7" to the stand, through its own side's foot, which checks (doubles break a unit at
    poor morale: it routs towards its own edge), and then it checks itself."""
    winner = dts("w", B, 20.0, 10.0, 0.0, morale=3)
    friend = dts("p", B, 20.0, 13.0, 0.0, morale=0)
    router = dts("r", A, 20.0, 18.0, 180.0, morale=0, stands=1).evolve(routing=True)
    tx = tx_with(state_of(winner, friend, router), 5, *dice, 1, 2, *((3, 3, 3) if breaks else ()))
    found = pursue(tx, "w", "r")
    assert (found.distance, found.reached, tx.state.units["w"].y) == (5.0, None, 15.0)
    assert is_routing(tx.state.units["p"]) is breaks and not is_routing(tx.state.units["w"])
    assert dice_left(tx) == 0
    alone = tx_with(state_of(winner, router), 5)
    pursue(alone, "w", "r")
    assert alone.state.units["w"].y == 15.0 and dice_left(alone) == 0, "nobody passed: no check"


@pytest.mark.parametrize(("side", "at", "quarry", "dice", "went"), [
    (B, 15.0, 22.0, (5, 1, 2, 3, 4), 6.0),  # the 5 would end on the friend: on 6" to clear it
    (B, 15.0, 16.5, (5,), 4.0),  # clearing it would pass the quarry 5.5" off: stops at the friend
    (A, 14.0, 20.0, (6,), 3.0),  # another enemy in the way stops it in contact
], ids=["clears-a-friend", "stops-at-a-friend-before-its-quarry", "stops-at-another-enemy"])
def test_a_pursuer_goes_on_to_clear_a_friend_and_stops_at_an_enemy_short_of_its_quarry(
        side: str, at: float, quarry: float, dice: tuple[int, ...], went: float) -> None:
    """A pursuit that would end on a friend goes on until clear of it, as a rout does (the
    friend and then the pursuer check morale), save where that would carry it past the
    stand it pursues: then it stops in contact with the friend, passing nobody. An enemy
    other than its quarry stops it in contact. Short of the stand, it reaches nothing."""
    winner = dts("w", B, 20.0, 10.0, 0.0, morale=3)
    other = dts("o", side, 20.0, at, 0.0 if side == B else 180.0, morale=3)
    router = dts("r", A, 20.0, quarry, 180.0, morale=0, stands=1).evolve(routing=True)
    tx = tx_with(state_of(winner, other, router), *dice)
    found = pursue(tx, "w", "r")
    assert found.distance == pytest.approx(went) and tx.state.units["w"].y == pytest.approx(10.0 + went)
    assert found.reached is None and tx.state.units["r"].y == quarry and dice_left(tx) == 0


def test_a_pursuer_broken_by_its_own_check_routs_and_pursues_no_more() -> None:
    """The pursuer at poor morale checks after passing its friend; doubles break it: it
    pursues no more, its quarry's stand flees no further, and it routs towards its own
    edge, back through the friend, which checks again, and so does it."""
    winner = dts("w", B, 20.0, 10.0, 0.0, morale=0, stands=1)
    friend = dts("p", B, 20.0, 13.0, 0.0, morale=3)
    router = dts("r", A, 20.0, 15.0, 180.0, morale=0, stands=1).evolve(routing=True)
    tx = tx_with(state_of(winner, friend, router), 4, 1, 2, 2, 2, 3, 1, 3, 1, 3)
    found = pursue(tx, "w", "r")
    assert found.reached is None and is_routing(tx.state.units["w"])
    assert pursued_by(tx.state.units["w"]) is None and tx.state.units["r"].y == 15.0
    assert tx.state.units["w"].y == 11.0 and dice_left(tx) == 0


def test_a_unit_broken_while_pursuing_pursues_no_more() -> None:
    """A broken unit flees ("The routing unit will continue to rout each time it is
    activated unless it is rallied"): whatever it pursued, it pursues no more."""
    pursuer = dts("w", B, 20.0, 20.0, 180.0, morale=0, stands=1).evolve(pursuing="r")
    router = dts("r", A, 20.0, 10.0, 0.0, morale=0, stands=1).evolve(routing=True)
    tx = tx_with(state_of(pursuer, router), 4)
    rout(tx, "w", None, "shot")
    assert is_routing(tx.state.units["w"]) and pursued_by(tx.state.units["w"]) is None
