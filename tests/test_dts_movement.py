"""Declare Thee Sir, Game Mechanics 2 (Movement): the allowance worked out in the text's
order and which ground a placed path moves over."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.state import Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.rules.movement import plan_move
from tertia.rulesets.declare_thee_sir.data import HEDGEHOG, LINE, LONG_MARCH, DtsUnit
from tertia.rulesets.declare_thee_sir.events import Declare
from tertia.rulesets.declare_thee_sir.movement import (
    PathLimit,
    allowed,
    at_obstacle,
    ground_stop,
    kind_of_move,
    limit_of,
    modifiers,
    move_dice,
    obstacle_crossed,
    short_of_obstacle,
    work_out,
)
from tertia.rulesets.declare_thee_sir.values import game_data

from .dts_support import P, R, activated, dts_game
from .dts_support import unit as dts_unit

FOOT = DtsUnit(troop="foot", stands_left=3)
HORSE = DtsUnit(troop="horse", stands_left=3)


def unit(x: float = 20.0, y: float = 10.0, facing: float = 0.0, own: DtsUnit = FOOT) -> Unit:
    return Unit("u", "a", UnitKind.FOOT, "centre", x, y, facing, 4.5, 1.0, own=own)


def table(*features: TerrainFeature) -> Battlefield:
    return Battlefield(48.0, 36.0, features)


def square(kind: str, x0: float, y0: float, x1: float, y1: float, height: int = 1) -> TerrainFeature:
    return TerrainFeature(kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height=height)


@pytest.mark.parametrize(("own", "dice"), [
    (FOOT, 1), (DtsUnit(troop="artillery"), 1), (DtsUnit(troop="dragoons", mounted=False), 1),
    (HORSE, 2), (DtsUnit(troop="dragoons", mounted=True), 2), (DtsUnit(troop="general"), 0),
])
def test_foot_guns_and_dismounted_dragoons_roll_one_die_horse_two_generals_none(own: DtsUnit,
                                                                                dice: int) -> None:
    """Movement: "Infantry, artillery, and dismounted dragoons move 1d6 ... Cavalry, mounted
    dragoons move 2d6 ... Independent generals move 9 inches"."""
    assert move_dice(own) == dice


def test_formation_modifiers() -> None:
    """Movement Modifiers: Long March +3, Hedgehog -3, Line nothing."""
    assert modifiers(DtsUnit(formation=LONG_MARCH)) == ((3, "long march"),)
    assert modifiers(DtsUnit(formation=HEDGEHOG)) == ((-3, "hedgehog"),)
    assert modifiers(DtsUnit(formation=LINE)) == ()


def test_modifiers_come_before_the_halving_for_advance_and_fire() -> None:
    """Option 3: "roll for movement, modify, divide by two and round up": 4 + 3 in long
    march is 7, halved 3.5, rounded up 4 (halving first would give 2 + 3 = 5)."""
    assert work_out(4, ((3, "long march"),), halve=True).open_ground == 4
    assert work_out(4, ((3, "long march"),), halve=False).open_ground == 7
    assert work_out(3, (), halve=True).open_ground == 2
    assert work_out(4, (), halve=True).open_ground == 2


def test_a_third_for_difficult_ground_then_half_rounded_up_once() -> None:
    """Difficult Terrain or Flank move = 1/3 movement, taken after the modifiers and before
    the halving: 5 is 1 2/3, rounded up 2; halved too, 5/6, rounded up 1; 7 halved and
    thirded is 7/6, rounded up 2."""
    assert work_out(5, (), halve=False).difficult == 2
    assert work_out(5, (), halve=True).difficult == 1
    assert work_out(7, (), halve=True).difficult == 2
    assert work_out(6, (), halve=False).difficult == 2


def test_a_move_never_goes_below_nothing() -> None:
    """Hedgehog -3 on a roll of 2 leaves nothing, not a negative move."""
    found = work_out(2, ((-3, "hedgehog"),), halve=False)
    assert (found.open_ground, found.difficult) == (0, 0)
    assert work_out(4, ((-3, "hedgehog"),), halve=False).open_ground == 1


def test_a_road_adds_three_more_in_long_march_only_when_asked() -> None:
    """Long March Road = +3 (on top of long march's +3)."""
    assert work_out(2, ((3, "long march"),), halve=False, road=True).road == 8
    assert work_out(2, ((3, "long march"),), halve=False).road is None


@pytest.mark.parametrize(("reading", "by_road"), [("on_top", 8), ("included", 5)])
def test_the_road_bonus_is_on_top_of_long_marchs_or_included_by_the_option(reading: str,
                                                                          by_road: int) -> None:
    """"Long March = +3; Long March Road = +3": a column declaring an advance rolls 2; over
    open ground 2 + 3 = 5. By road, the road's +3 comes on top (option ``road_bonus``
    ``on_top``: 8), or long march's +3 is all there is (``included``: 5)."""
    game = dts_game([dts_unit("pf", P, "foot", 20, 6), dts_unit("rf", R, "foot", 20, 30, 180)],
                    table={"regiments": [{"unit": "pf", "formation": "long_march"}]}, road_bonus=reading)
    state, _ = game.apply(activated(game, "pf"), Declare(unit="pf", option="advance"), ScriptedDice([2]))
    assert dict(game_data(state).allowance or {}) == {"open": 5, "difficult": 2, "road": by_road}


def test_open_oblique_flank_and_retrograde_paths() -> None:
    """Oblique movement up to 45 degrees is a normal move; beyond it a flank move (a
    third); beyond 135 degrees a rearward move, for Rally only."""
    t = table()
    u = unit()
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 14.0),))), FOOT) == "open"
    assert kind_of_move(t, plan_move(u, Move("u", ((23.0, 13.0),))), FOOT) == "open"  # 45 degrees
    assert kind_of_move(t, plan_move(u, Move("u", ((24.0, 12.0),))), FOOT) == "difficult"
    assert kind_of_move(t, plan_move(u, Move("u", ((24.0, 10.0),))), FOOT) == "difficult"  # flank
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 7.0),))), FOOT) == "retrograde"


@pytest.mark.parametrize("kind", [TerrainKind.WOODS, TerrainKind.MARSH, TerrainKind.PLOUGHED])
def test_woods_marsh_and_ploughed_fields_are_difficult(kind: str) -> None:
    t = table(square(kind, 15.0, 13.0, 25.0, 20.0))
    u = unit()
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 14.0),))), FOOT) == "difficult"
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 11.5),))), FOOT) == "open"


def test_each_hill_step_up_or_across_is_difficult() -> None:
    """"Each hill step up or across": climbing onto a hill, or crossing one, but not moving
    about on one level."""
    t = table(square(TerrainKind.HILL, 0.0, 13.0, 48.0, 20.0),
              square(TerrainKind.HILL, 0.0, 16.0, 48.0, 18.0, 2))
    u = unit()
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 14.0),))), FOOT) == "difficult"  # up
    on_hill = unit(y=14.0)
    assert kind_of_move(t, plan_move(on_hill, Move("u", ((21.0, 15.0),))), FOOT) == "open"  # along
    assert kind_of_move(t, plan_move(on_hill, Move("u", ((21.0, 16.5),))), FOOT) == "difficult"


def test_long_march_on_a_road_uses_the_road_figure() -> None:
    road = TerrainFeature(TerrainKind.ROAD, line=((20.0, 0.0), (20.0, 36.0)), width=1.0)
    t = table(road)
    column = DtsUnit(troop="foot", stands_left=3, formation=LONG_MARCH)
    u = Unit("u", "a", UnitKind.FOOT, "centre", 20.0, 10.0, 0.0, 1.5, 3.0, own=column)
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 16.0),))), column) == "road"
    assert kind_of_move(t, plan_move(u, Move("u", ((22.0, 16.0),))), column) == "open"
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 16.0),))), FOOT) == "open"  # not in long march


def test_the_allowance_a_path_uses() -> None:
    found = work_out(5, ((3, "long march"),), halve=False, road=True)
    assert (allowed(found, "open"), allowed(found, "difficult"), allowed(found, "road")) == (8, 3, 11)
    assert allowed(work_out(5, (), halve=False), "road") == 5  # no road figure: open ground


def test_an_obstacle_stops_the_unit_at_it() -> None:
    """"When a unit encounters an obstacle (Wall, stream etc..) during movement, it stops":
    a path onto or over a wall meets it; one that ends at the wall stands at it."""
    wall = TerrainFeature(TerrainKind.WALL, line=((0.0, 14.0), (48.0, 14.0)), width=0.5)
    t = table(wall)
    u = unit()
    assert obstacle_crossed(t, plan_move(u, Move("u", ((20.0, 16.0),)))) == TerrainKind.WALL
    short = plan_move(u, Move("u", ((20.0, 13.2),)))
    assert obstacle_crossed(t, short) is None
    assert at_obstacle(t, short.end.corners()) and not at_obstacle(t, u.base.corners())


def test_a_path_is_held_to_its_widest_turn_and_a_turn_on_the_spot_to_a_flank_move() -> None:
    """Game Mechanics II: "Oblique movement up to 45 degrees"; "Difficult Terrain or Flank
    move = 1/3 movement". A path's widest heading from the facing it started in sets its
    kind: forward then 90 degrees aside is a flank move, forward then 30 degrees is not;
    exactly 135 degrees is still a flank move, beyond it rearward. A turn on the spot at
    the end of a forward move is a move to a flank (a third); a rearward move that turns
    stays rearward (the open-ground figure, under Rally)."""
    t = table()
    u = unit()
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 12.0), (22.0, 12.0)))), FOOT) == "difficult"
    assert kind_of_move(t, plan_move(u, Move("u", ((20.0, 12.0), (21.0, 12.0 + 3 ** 0.5)))), FOOT) == "open"
    assert kind_of_move(t, plan_move(u, Move("u", ((17.0, 7.0),))), FOOT) == "difficult"
    assert kind_of_move(t, plan_move(u, Move("u", ((17.0, 6.9),))), FOOT) == "retrograde"
    rolled = {"open": 6, "difficult": 2}
    assert limit_of(t, plan_move(u, Move("u", ((20.0, 12.0),))), FOOT, rolled) == PathLimit("open", 6)
    turning = plan_move(u, Move("u", ((20.0, 12.0),), face_after=30.0))
    assert limit_of(t, turning, FOOT, rolled) == PathLimit("difficult", 2)
    retiring = plan_move(u, Move("u", ((20.0, 7.0),), face_after=180.0))
    assert limit_of(t, retiring, FOOT, rolled) == PathLimit("retrograde", 6)


@pytest.mark.parametrize(("line", "at"), [
    (((17.5, 0.0), (17.5, 36.0)), True), (((17.2, 0.0), (17.2, 36.0)), False),    # to the left
    (((22.5, 0.0), (22.5, 36.0)), True), (((22.8, 0.0), (22.8, 36.0)), False),    # to the right
    (((0.0, 9.25), (48.0, 9.25)), True), (((0.0, 8.95), (48.0, 8.95)), False),    # behind
    (((0.0, 10.75), (48.0, 10.75)), True), (((0.0, 11.05), (48.0, 11.05)), False),  # in front
])
def test_a_unit_stands_at_an_obstacle_within_a_quarter_inch_of_it_on_any_side(
        line: tuple[tuple[float, float], tuple[float, float]], at: bool) -> None:
    """"When a unit encounters an obstacle ... it stops. When next activated, the unit moves
    without penalty": a unit stands at a wall a fifth of an inch from its base, on whichever
    side, and not at one half an inch away (the unit spans x 17.75-22.25, y 9.5-10.5; each
    wall is a tenth of an inch thick)."""
    t = table(TerrainFeature(TerrainKind.WALL, line=line, width=0.1))
    assert at_obstacle(t, unit().base.corners()) is at


def test_a_move_nobody_chose_stops_short_of_an_obstacle_and_crosses_one_it_stands_at() -> None:
    """"When a unit encounters an obstacle ... during movement, it stops. When next
    activated, the unit moves without penalty": a straight move its commander did not place
    (a charge falling short, a forlorn hope falling back) is cut back a quarter inch at a
    time until it no longer meets the wall, however little is left, and stands at it; a
    unit already at the wall goes its full way; on open ground it goes its full way."""
    wall = TerrainFeature(TerrainKind.WALL, line=((0.0, 11.4), (48.0, 11.4)), width=0.5)  # y 11.15-11.65
    t = table(wall)
    assert ground_stop(t, unit(), 0.0, 3.0) == (0.5, True)  # its front (y 10.5) to 11.0
    crossing = unit(own=DtsUnit(troop="foot", stands_left=3, at_obstacle=True))
    assert ground_stop(t, crossing, 0.0, 3.0) == (3.0, False)
    assert ground_stop(table(), unit(), 0.0, 3.0) == (3.0, False)


def test_a_slide_under_every_move_stops_short_of_an_obstacle_in_its_own_direction() -> None:
    """Option ``obstacles_stop`` ``every_move``: a piece slid without its commander's
    choosing stops at a wall it would meet (touching it, no further), whichever way it goes; one sliding away
    from the wall goes its full way."""
    wall = TerrainFeature(TerrainKind.WALL, line=((25.0, 0.0), (25.0, 36.0)), width=0.5)  # x 24.75-25.25
    base = unit().base  # x 17.75-22.25
    assert short_of_obstacle(table(wall), base, 90.0, 4.0) == 2.5
    assert short_of_obstacle(table(wall), base, 270.0, 4.0) == 4.0
    west = TerrainFeature(TerrainKind.WALL, line=((15.0, 0.0), (15.0, 36.0)), width=0.5)  # x 14.75-15.25
    assert short_of_obstacle(table(west), base, 270.0, 4.0) == 2.5
    assert short_of_obstacle(table(west), base, 90.0, 4.0) == 4.0


@pytest.mark.parametrize(("line", "at"), [
    (((17.5, 9.0), (17.5, 9.6)), True), (((17.2, 9.0), (17.2, 9.6)), False),      # left, by the rear
    (((17.0, 9.25), (18.2, 9.25)), True), (((17.0, 8.95), (18.2, 8.95)), False),  # behind, on the left
    (((21.8, 9.25), (23.0, 9.25)), True), (((21.8, 8.95), (23.0, 8.95)), False),  # behind, on the right
    (((22.5, 10.4), (22.5, 11.0)), True), (((22.8, 10.4), (22.8, 11.0)), False),  # right, by the front
])
def test_a_unit_stands_at_an_obstacle_by_any_corner_of_its_base(
        line: tuple[tuple[float, float], tuple[float, float]], at: bool) -> None:
    """"When a unit encounters an obstacle ... it stops. When next activated, the unit moves
    without penalty": a short length of wall a fifth of an inch from the base by one of its
    corners is stood at as a long one is; half an inch off it is not."""
    t = table(TerrainFeature(TerrainKind.WALL, line=line, width=0.1))
    assert at_obstacle(t, unit().base.corners()) is at
