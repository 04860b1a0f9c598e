"""Declare Thee Sir, Optional Rules a: the forlorn hope rejoining its regiment ("When it
falls to poor morale or is routed, it will attempt to rejoin its parent regiment. A
infantry unit with poor morale cannot ... maintain a forlorn hope"), dice scripted."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.actions import Move
from tertia.core.dice import Dice, ScriptedDice
from tertia.core.events import DecisionAwaited, DiceRolled, UnitRemoved
from tertia.core.game import Game
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import TerrainFeature, TerrainKind
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Declare
from tertia.rulesets.declare_thee_sir.rejoin import ForlornHopeRejoined, fall_back, must_rejoin
from tertia.rulesets.declare_thee_sir.rout import rout
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data
from tertia.rulesets.declare_thee_sir.victory import units_lost

from .dts_combat_support import B, dice_left, dts, state_of, table_with, tx_with
from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)
ENEMY = unit("rf", R, "foot", 40, 30, 180)
HOPE = "pf-forlorn-hope"


def out(game: Game, dice: int = 3, **hope: Any) -> GameState:
    """``pf`` has sent its forlorn hope out ``dice`` inches (its centre at 7 + dice, its rear
    ``dice`` inches before the regiment's front at 6.5); ``hope`` sets the division's values."""
    state = activated(game, "pf", "formation_change")
    state = state.evolve(own=game_data(state).evolve(deck_left=(), turn_limit=1))
    after, _ = game.apply(state, ChangeFormation(unit="pf", formation="forlorn_hope"), ScriptedDice([dice]))
    return after.with_unit(after.units[HOPE].evolve(**hope)) if hope else after


def hope_card_next(game: Game, position: GameState, **regiment: Any) -> GameState:
    """``rf`` awaits its declaration, the forlorn hope's card the only one left; the
    position's regiment and forlorn hope in place (``regiment`` sets the regiment's values)."""
    state = activated(game, "rf")
    state = state.with_unit(position.units["pf"].evolve(**regiment)).with_unit(position.units[HOPE])
    return state.evolve(own=game_data(state).evolve(deck_left=(f"unit:{HOPE}",)))


def played(game: Game, state: GameState, *dice: int) -> tuple[GameState, list[Any]]:
    """``rf`` defers, and the forlorn hope's card is drawn."""
    return game.apply(state, Declare(unit="rf", option="defer"), ScriptedDice(list(dice)))


# --- when it must ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("hope", "regiment", "expected"), [
    ({"morale": 1, "morale_max": 2}, {"morale": 2, "morale_max": 2}, False),
    ({"morale": 0, "morale_max": 2}, {"morale": 2, "morale_max": 2}, True),    # "falls to poor morale"
    ({"morale": 1, "morale_max": 2, "routing": True}, {}, True),               # "or is routed"
    ({}, {}, False),                                                          # both untested
    ({"morale": 2, "morale_max": 2}, {"morale": 0, "morale_max": 2}, True),    # "cannot ... maintain"
    ({"morale": 2, "morale_max": 2}, {"morale": 1, "morale_max": 2}, False),
    ({"morale": 0, "morale_max": 2}, {"routing": True}, False),                # no regiment to take it
    ({"morale": 0, "morale_max": 2}, {"removed": "routed"}, False),
])
def test_a_forlorn_hope_must_rejoin_at_poor_routed_or_with_its_regiment_at_poor(
        hope: dict[str, Any], regiment: dict[str, Any], expected: bool) -> None:
    game = dts_game([FOOT, ENEMY], forlorn_hope=True)
    state = out(game)
    state = state.with_unit(state.units[HOPE].evolve(**hope)).with_unit(state.units["pf"].evolve(**regiment))
    assert must_rejoin(state, state.units[HOPE]) is expected


def test_commanded_musketeers_of_the_order_of_battle_have_no_regiment_to_rejoin() -> None:
    game = dts_game([FOOT, unit("ps", P, "commanded_shot", 30, 6), ENEMY], forlorn_hope=True,
                    table={"regiments": [{"unit": "ps", "formation": "forlorn_hope"}]})
    state = activated(game, "ps")
    assert not must_rejoin(state, state.units["ps"].evolve(morale=0, morale_max=2))


# --- marching back on its card (the default) -------------------------------------------------------


@pytest.mark.parametrize(("roll", "rejoined"), [(2, False), (3, True), (6, True)])
def test_on_its_card_it_falls_back_its_rolled_move_and_rejoins_when_it_touches(roll: int, rejoined: bool
                                                                              ) -> None:
    """At poor, its card drawn: no declaration, 1D6 straight back to its regiment (3"
    away); touching it, the division goes back into the ranks, a stand more, its front
    where it was; the forlorn hope leaves play and no unit is lost."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    start = out(game, 3, morale=0, morale_max=2)
    assert start.units[HOPE].y == 10.0 and start.units["pf"].width == 3.0
    after, events = played(game, hope_card_next(game, start), roll)
    assert [e.purpose for e in events if isinstance(e, DiceRolled)] == ["falls back: pf's forlorn hope"]
    regiment = after.units["pf"]
    if rejoined:
        assert ForlornHopeRejoined(unit=HOPE, regiment="pf", x=20, y=6, width=4.5, depth=1.0) in events
        assert UnitRemoved(unit=HOPE, reason="rejoined", detail="back in pf") in events
        assert not after.units[HOPE].in_play
        assert (regiment.x, regiment.y, regiment.width, unit_data(regiment).stands_left) == (20, 6, 4.5, 3)
    else:
        assert after.units[HOPE].in_play and after.units[HOPE].y == 8.0
        assert unit_data(regiment).stands_left == 2
    assert units_lost(after, P) == (0, 1)
    assert not any(isinstance(e, DecisionAwaited) and e.context.get("unit") == HOPE for e in events)


def test_falling_back_it_takes_its_attached_general_with_it() -> None:
    """Falling back 2" towards its regiment (not yet touching it), the forlorn hope takes
    the general attached to it along ("Attached generals move with unit")."""
    general = {"id": "pc", "side": P, "command": "centre", "x": 40, "y": 3, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[general], forlorn_hope=True, turns=1)
    start = out(game, 3, morale=0, morale_max=2)
    state = hope_card_next(game, start)
    state = state.with_unit(state.units["pc"].evolve(x=21.5, y=10.0, attached_to=HOPE))  # at its side
    after, _ = played(game, state, 2)
    assert after.units[HOPE].in_play and after.units[HOPE].y == 8.0
    assert (after.units["pc"].x, after.units["pc"].y) == (21.5, 8.0)
    assert unit_data(after.units["pc"]).attached_to == HOPE


@pytest.mark.parametrize("rejoining", [False, True])
def test_a_regiment_carries_its_forlorn_hope_but_not_one_that_must_rejoin(rejoining: bool) -> None:
    """Optional Rules a: "It moves the same 1D6 distance at the same time as parent unit":
    a regiment moving 1" aside and 1.5" on, turning 10 degrees, takes its forlorn hope the
    same way, turned as it turned; a forlorn hope at poor, which "will attempt to rejoin its
    parent regiment", is left where it stands."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    start = out(game, 3, **({"morale": 0, "morale_max": 2} if rejoining else {"morale": 1, "morale_max": 2}))
    state = activated(game, "pf", "advance", {"open": 6, "difficult": 6})
    state = state.with_unit(start.units["pf"]).with_unit(start.units[HOPE])
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    after, _ = game.apply(state, Move(unit="pf", waypoints=((21, 7.5),), face_after=10.0), ScriptedDice([]))
    hope = after.units[HOPE]
    assert (after.units["pf"].x, after.units["pf"].y, after.units["pf"].facing) == (21, 7.5, 10.0)
    if rejoining:
        assert (hope.x, hope.y, hope.facing) == (20.0, 10.0, 0.0)
    else:
        assert (hope.x, hope.y, hope.facing) == (21.0, 11.5, 10.0)


def test_a_regiment_turning_turns_its_forlorn_hope_by_as_much_round_past_north() -> None:
    """Optional Rules a: the forlorn hope "moves ... at the same time as parent unit", turned
    as the regiment turns: a regiment facing 30 degrees that ends its move facing 50 turns
    its forlorn hope, facing 350 on its own card, by 20 degrees, round past north to 10."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    start = out(game, 3, morale=1, morale_max=2)
    state = activated(game, "pf", "advance", {"open": 6, "difficult": 6})
    state = state.with_unit(start.units["pf"].evolve(facing=30.0))
    state = state.with_unit(start.units[HOPE].evolve(facing=350.0))
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    after, _ = game.apply(state, Move(unit="pf", waypoints=((21, 7.5),), face_after=50.0), ScriptedDice([]))
    hope = after.units[HOPE]
    assert (hope.x, hope.y) == (21.0, 11.5) and hope.facing == pytest.approx(10.0, abs=1e-9)


@pytest.mark.parametrize(("regiment_points", "falls_back"), [(0, True), (1, False)])
def test_a_regiment_at_poor_calls_its_forlorn_hope_in(regiment_points: int, falls_back: bool) -> None:
    """"A infantry unit with poor morale cannot ... maintain a forlorn hope": its division,
    at good morale, falls back on its card; with the regiment at good it awaits its
    commander's declaration as any unit."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    start = out(game, 2, morale=2, morale_max=2)
    state = hope_card_next(game, start, morale=regiment_points, morale_max=2)
    after, _ = played(game, state, *((6,) if falls_back else ()))
    assert (not after.units[HOPE].in_play) is falls_back
    if not falls_back:
        assert after.pending is not None and after.pending.get("unit") == HOPE


@pytest.mark.parametrize(("ground", "went"), [(None, 6.0), ("woods", 2.0)])
def test_difficult_ground_on_the_way_back_cuts_the_move_to_a_third(ground: str | None, went: float) -> None:
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1, terrain=[
        {"type": ground, "polygon": [[10, 10], [30, 10], [30, 12], [10, 12]]}] if ground else [])
    start = out(game, 6, morale=0, morale_max=2)
    start = start.with_unit(start.units[HOPE].evolve(y=18.0))  # 11" from the regiment's front
    after, _ = played(game, hope_card_next(game, start), 6)
    assert after.units[HOPE].y == 18.0 - went


def test_an_obstacle_stops_it_and_it_crosses_on_its_next_card() -> None:
    wall = {"type": "wall", "line": [[0, 12], [48, 12]], "width": 0.4}
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1, terrain=[wall])
    start = out(game, 6, morale=0, morale_max=2)
    start = start.with_unit(start.units[HOPE].evolve(y=14.0))
    after, _ = played(game, hope_card_next(game, start), 6)
    stopped = after.units[HOPE]
    assert 12.2 <= stopped.y - 0.5 <= 12.5 and unit_data(stopped).at_obstacle
    again, _ = played(game, hope_card_next(game, after), 6)
    assert not again.units[HOPE].in_play  # over the wall and back in the ranks


@pytest.mark.parametrize(("crossing", "rejoined"), [(None, False), ("ford", True)])
def test_a_river_stops_it_but_at_a_ford(crossing: str | None, rejoined: bool) -> None:
    river = {"type": "river", "line": [[0, 11], [48, 11]], "width": 1.0}
    ford = {"type": "ford", "polygon": [[17, 10], [23, 10], [23, 12], [17, 12]]}
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1, terrain=[river, *([ford] if crossing else [])])
    start = out(game, 6, morale=0, morale_max=2)
    start = start.with_unit(start.units[HOPE].evolve(y=13.0))
    after, _ = played(game, hope_card_next(game, start), 6)
    assert (not after.units[HOPE].in_play) is rejoined
    if not rejoined:
        assert after.units[HOPE].y - 0.5 >= 11.5 - 0.25  # stopped on its own bank


@pytest.mark.parametrize(("blocked", "rejoined"), [(True, False), (False, True)])
def test_without_room_for_the_stand_the_attempt_fails_for_now(blocked: bool, rejoined: bool) -> None:
    """The regiment's line grows about its centre, from 3" to 4.5" wide: a friend just
    beyond its flank leaves no room."""
    friend = unit("pf2", P, "commanded_shot", 22.6, 6) if blocked else unit("pf2", P, "commanded_shot", 30, 6)
    game = dts_game([FOOT, friend, ENEMY], forlorn_hope=True, turns=1)
    start = out(game, 2, morale=0, morale_max=2)
    after, _ = played(game, hope_card_next(game, start), 6)
    assert (not after.units[HOPE].in_play) is rejoined
    if not rejoined:
        assert after.units[HOPE].y == 7.0  # touching the regiment's front, ready to go in


def test_a_regiment_moving_up_to_its_forlorn_hope_at_poor_takes_it_back() -> None:
    """Touching at the end of any activation, it goes back into the ranks."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    start = out(game, morale=0, morale_max=2)
    state = activated(game, "pf", "advance", {"open": 4, "difficult": 2})
    state = state.with_unit(start.units["pf"]).with_unit(start.units[HOPE])
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    short, _ = game.apply(state, Move(unit="pf", waypoints=((20.0, 8.0),)), ScriptedDice([]))
    assert short.units[HOPE].in_play and short.units[HOPE].y == 10.0  # not carried: it is falling back
    after, _ = game.apply(state, Move(unit="pf", waypoints=((20.0, 9.0),)), ScriptedDice([]))
    assert not after.units[HOPE].in_play and unit_data(after.units["pf"]).stands_left == 3


def test_the_way_back_is_one_die_each_inch_a_sixth() -> None:
    """The move back is its 1D6 (3" to go: a 3 or more reaches the regiment), nothing else
    rolled."""
    regiment, hope = hope_unit()

    def went(dice: Dice) -> tuple[float, bool]:
        found = fall_back(Tx(table_with(), state_of(regiment, hope.evolve(morale=0)), dice), HOPE)
        return found.distance, found.rejoined

    odds: dict[tuple[float, bool], Fraction] = {}
    for branch in enumerate_branches(went):
        odds[branch.result] = odds.get(branch.result, Fraction(0)) + branch.probability
    assert odds == {(1.0, False): Fraction(1, 6), (2.0, False): Fraction(1, 6), (3.0, True): Fraction(2, 3)}


# --- routed ---------------------------------------------------------------------------------------


def hope_unit() -> tuple[Unit, Unit]:
    """The regiment and its forlorn hope 3" before it, at good morale."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True)
    state = out(game, morale=1, morale_max=2)
    return state.units["pf"], state.units[HOPE]


@pytest.mark.parametrize(("regiment_routing", "rejoined"), [(False, True), (True, False)])
def test_routed_it_flees_to_its_regiment_and_goes_back_into_the_ranks(regiment_routing: bool,
                                                                      rejoined: bool) -> None:
    """Broken by a foe on its flank, it flees towards its regiment, not away from the foe,
    and its flight ends there; with its regiment routing it flees away from the foe."""
    regiment, hope = hope_unit()
    foe = dts("f", B, 26.0, 10.0, 270.0, morale=3)
    tx = tx_with(state_of(regiment.evolve(routing=regiment_routing), hope, foe), 9)
    flight = rout(tx, HOPE, "f", "broken in melee")
    assert dice_left(tx) == 0 and flight.removed is rejoined
    if rejoined:
        assert unit_data(tx.state.units["pf"]).stands_left == 3
        assert UnitRemoved(unit=HOPE, reason="rejoined", detail="back in pf") in tx.events
    else:
        assert tx.state.units[HOPE].x == 20.0 - 9.0 and tx.state.units[HOPE].y == 10.0


# --- at once --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("how", "rejoined"), [("at_once", True), ("march", False)])
def test_under_at_once_it_goes_back_at_the_end_of_the_activation_wherever_it_stands(
        how: str, rejoined: bool) -> None:
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, forlorn_rejoin=how, turns=1)
    start = out(game, 6, morale=0, morale_max=2)
    state = activated(game, "rf")
    state = state.with_unit(start.units["pf"]).with_unit(start.units[HOPE])
    after, _ = game.apply(state.evolve(own=game_data(state).evolve(deck_left=())),
                          Declare(unit="rf", option="defer"), ScriptedDice([]))
    assert (not after.units[HOPE].in_play) is rejoined


def test_the_option_takes_only_its_two_readings() -> None:
    with pytest.raises(ValueError, match="forlorn_rejoin"):
        dts_game([FOOT, ENEMY], forlorn_rejoin="never")


@pytest.mark.parametrize(("ford", "rejoined"), [(False, False), (True, True)])
def test_routed_with_a_river_before_its_regiment_it_stops_on_the_bank(ford: bool, rejoined: bool) -> None:
    """Routed, it flees towards its regiment and its flight ends there, but a river (the
    clause table's water) stops the flight on its own bank, short of the regiment: it is
    not back in the ranks; at a ford it crosses and rejoins."""
    regiment, hope = hope_unit()  # the hope's rear at y 9.5, the regiment's front at 6.5
    foe = dts("f", B, 26.0, 10.0, 270.0, morale=3)
    river = TerrainFeature(TerrainKind.RIVER, line=((0.0, 8.0), (48.0, 8.0)), width=1.0)  # y 7.5-8.5
    crossing = TerrainFeature(TerrainKind.FORD, outline=((17.0, 7.0), (23.0, 7.0), (23.0, 9.0), (17.0, 9.0)))
    table = table_with(river, *([crossing] if ford else []))
    tx = tx_with(state_of(regiment, hope, foe), 9, table=table)
    flight = rout(tx, HOPE, "f", "broken in melee")
    assert dice_left(tx) == 0 and flight.removed is rejoined
    if not rejoined:
        assert tx.state.units[HOPE].in_play and tx.state.units[HOPE].y - 0.5 >= 8.5 - 1e-6


def test_a_regiment_taking_its_forlorn_hope_back_carries_its_general_about_its_new_line() -> None:
    """Movement: "Attached generals move with unit": the general at the regiment's right
    flank keeps his place about its line as it closes up behind its forlorn hope (4.5" to
    3" wide) and as it takes the division back (3" to 4.5"): he is not in the way of the
    stand coming back, and touches the new flank, still attached."""
    flank = {"id": "pc", "side": P, "command": "centre", "x": 23.0, "y": 6, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[flank], forlorn_hope=True, turns=1,
                    table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    start = out(game, 2, morale=0, morale_max=2)
    assert (start.units["pc"].x, start.units["pf"].width) == (22.25, 3.0)
    after, _ = played(game, hope_card_next(game, start).with_unit(start.units["pc"]), 6)
    regiment, general = after.units["pf"], after.units["pc"]
    assert not after.units[HOPE].in_play and regiment.width == 4.5
    assert (general.x, general.y) == (23.0, 6) and unit_data(general).attached_to == "pf"
    assert not regiment.overlaps(general.base.corners())
