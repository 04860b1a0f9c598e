"""Declare Thee Sir, Game Mechanics 2 (Movement): the allowance worked out in the text's
order and which ground a placed path moves over."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.state import Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.rules.movement import plan_move
from tertia.rulesets.declare_thee_sir.data import HEDGEHOG, LINE, LONG_MARCH, DtsUnit, game_data
from tertia.rulesets.declare_thee_sir.events import Declare
from tertia.rulesets.declare_thee_sir.movement import (
    allowed,
    at_obstacle,
    kind_of_move,
    modifiers,
    move_dice,
    obstacle_crossed,
    work_out,
)

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
