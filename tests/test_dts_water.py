"""Declare Thee Sir, Movement: water. "When a unit encounters an obstacle (Wall, stream
etc..) during movement, it stops. When next activated, the unit moves without penalty."
A stream is an obstacle; a river (not in the text) is crossed only at a ford or bridge, a
lake never; a piece moved without choosing stops at the water's edge."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.terrain import TerrainFeature
from tertia.rulesets.declare_thee_sir.evasion import general_evades
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Charge
from tertia.rulesets.declare_thee_sir.forlorn import form
from tertia.rulesets.declare_thee_sir.movement import DIFFICULT, OBSTACLES
from tertia.rulesets.declare_thee_sir.pushback import push_back
from tertia.rulesets.declare_thee_sir.rout import pursue, rout
from tertia.rulesets.declare_thee_sir.ruleset import TERRAIN, DeclareTheeSir
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

from .dts_combat_support import A, B, dice_left, dts, state_of, table_with, tx_with
from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)
ENEMY = unit("rf", R, "foot", 40, 30, 180)

RIVER = {"type": "river", "line": [[0, 10], [48, 10]], "width": 1.0}
"""A river across the table from y 9.5 to 10.5."""
FORD = {"type": "ford", "polygon": [[17, 9], [23, 9], [23, 11], [17, 11]]}
BRIDGE = {"type": "bridge", "line": [[20, 8.5], [20, 11.5]], "width": 6.0}
LAKE = {"type": "lake", "polygon": [[10, 9.5], [30, 9.5], [30, 14], [10, 14]]}
STREAM = {"type": "stream", "line": [[0, 10], [48, 10]], "width": 0.5}


def river_feature() -> TerrainFeature:
    return TerrainFeature("river", line=((0.0, 10.0), (48.0, 10.0)), width=1.0)


def lake_feature() -> TerrainFeature:
    return TerrainFeature("lake", outline=((10.0, 9.5), (30.0, 9.5), (30.0, 14.0), (10.0, 14.0)))


def codes(game, state, action) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in game.validate(state, action)]


def advancing(terrain: list[dict[str, Any]], *units: dict[str, Any]) -> tuple[Any, Any]:
    game = dts_game([FOOT, *(units or (ENEMY,))], terrain=terrain)
    return game, activated(game, "pf", "advance", {"open": 8, "difficult": 3})


# --- the kinds the rule set names, and what each means ---------------------------------------------


def test_every_kind_of_ground_the_rule_set_names_has_a_meaning() -> None:
    """Difficult ground, obstacles, water and its crossings, roads, hills, hard cover, and
    fields (open ground): nothing named is left without a rule, and nothing else is taken."""
    meanings = {*DIFFICULT, *OBSTACLES, "lake", "river", "ford", "bridge", "road", "hill", "town",
                "entrenchment", "field"}
    assert set(TERRAIN) == meanings
    assert DeclareTheeSir.TERRAIN_KINDS == TERRAIN
    assert "stream" in OBSTACLES and "river" not in OBSTACLES


# --- a unit's own move ----------------------------------------------------------------------------


@pytest.mark.parametrize(("terrain", "expected"), [
    ([RIVER], ["movement.RIVER"]),
    ([RIVER, FORD], []),
    ([RIVER, BRIDGE], []),
    ([LAKE], ["movement.IMPASSABLE"]),
    ([STREAM], ["declare-thee-sir.OBSTACLE"]),
    ([], []),
])
def test_a_move_crosses_a_river_only_at_a_ford_or_bridge_never_a_lake_and_stops_at_a_stream(
        terrain: list[dict[str, Any]], expected: list[str]) -> None:
    game, state = advancing(terrain)
    assert codes(game, state, Move(unit="pf", waypoints=((20, 13),))) == expected


def test_a_unit_stopped_at_a_stream_crosses_it_when_next_activated() -> None:
    game, state = advancing([STREAM])
    after, _ = game.apply(state.evolve(own=game_data(state).evolve(deck_left=("unit:rf",))),
                          Move(unit="pf", waypoints=((20, 9.2),)), ScriptedDice([]))
    assert unit_data(after.units["pf"]).at_obstacle
    again = activated(game, "pf", "advance", {"open": 8, "difficult": 3}).with_unit(after.units["pf"])
    assert codes(game, again, Move(unit="pf", waypoints=((20, 13),))) == []


# --- a charge -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("terrain", "expected"), [
    ([RIVER], ["movement.RIVER"]),
    ([RIVER, FORD], []),
    ([LAKE], ["movement.IMPASSABLE"]),
    ([STREAM], ["declare-thee-sir.OBSTACLE"]),
    ([], []),
])
def test_a_charge_goes_through_no_water_and_stops_at_a_stream_well_short_of_its_target(
        terrain: list[dict[str, Any]], expected: list[str]) -> None:
    """The target 6" beyond the water."""
    game, state = advancing(terrain, unit("rf", R, "foot", 20, 13.5, 180))
    assert codes(game, state, Charge(unit="pf", target="rf")) == expected


def test_a_target_holding_the_stream_is_meleed_across_it() -> None:
    """Standing at the stream, it holds it: the charge comes up to it and the melee is
    across it."""
    game, state = advancing([STREAM], unit("rf", R, "foot", 20, 11.0, 180))
    assert codes(game, state, Charge(unit="pf", target="rf")) == []


def test_a_charger_stopped_at_the_stream_last_time_crosses_it_now() -> None:
    game, state = advancing([STREAM], unit("rf", R, "foot", 20, 13.5, 180))
    at_stream = state.with_unit(state.units["pf"].evolve(y=9.2, at_obstacle=True))
    assert codes(game, at_stream, Charge(unit="pf", target="rf")) == []


# --- moved without choosing -----------------------------------------------------------------------


@pytest.mark.parametrize(("water", "went"), [(True, 2.0), (False, 5.0)])
def test_a_push_back_stops_at_the_waters_edge(water: bool, went: float) -> None:
    """Pushed 5" north from y 7 (its front at 7.5) towards a lake whose shore is at 9.5:
    it stops at the shore (cut back a quarter inch at a time)."""
    table = table_with(lake_feature()) if water else table_with()
    state = state_of(dts("t", A, 20, 7.0, 0), dts("f", B, 20, 5.0, 0))
    tx = tx_with(state, table=table)
    pushed = push_back(tx, "t", "f", 5.0, face_foe=False, reason="pushed back")
    assert pushed.distance == went and dice_left(tx) == 0


def test_a_push_back_against_the_shore_goes_nowhere() -> None:
    """A unit whose front already touches the lake's shore (9.5), pushed 5" on towards it,
    cannot go any way without entering the water: it stays where it stood."""
    state = state_of(dts("t", A, 20, 9.0, 0), dts("f", B, 20, 7.0, 0))
    tx = tx_with(state, table=table_with(lake_feature()))
    pushed = push_back(tx, "t", "f", 5.0, face_foe=False, reason="pushed back")
    assert pushed.distance == 0.0 and dice_left(tx) == 0
    assert (tx.state.units["t"].x, tx.state.units["t"].y) == (20, 9.0)


@pytest.mark.parametrize(("crossing", "ys"), [(False, [9.0, 9.0, 9.0]), (True, [9.0, 15.0, 9.0])])
def test_routing_stands_stop_at_a_river_but_at_its_ford(crossing: bool, ys: list[float]) -> None:
    """Each stand flees 9" north from y 6 (its front at 6.5); the river's bank is at 9.5;
    a ford 2" wide lets the middle stand through."""
    features = [river_feature()]
    if crossing:
        ford = ((19.0, 9.0), (21.0, 9.0), (21.0, 11.0), (19.0, 11.0))
        features.append(TerrainFeature("ford", outline=ford))
    state = state_of(dts("b", A, 20, 6.0, 180, morale=0), dts("f", B, 20, 3.0, 0, morale=3))
    tx = tx_with(state, 9, 9, 9, table=table_with(*features))
    rout(tx, "b", "f", "broken")
    assert [s.y for s in stands_of(tx.state.units["b"])] == ys and dice_left(tx) == 0


@pytest.mark.parametrize(("lake", "reached"), [(True, False), (False, True)])
def test_a_pursuer_stops_at_the_waters_edge(lake: bool, reached: bool) -> None:
    """The pursuer's front at 7.5, the routing stand's rear at 12 (4.5" away), a lake
    between from 10 to 12: a 6 reaches the stand on dry ground, not across the lake."""
    routing = dts("b", A, 20, 12.5, 0, stands=1, morale=0).evolve(routing=True)
    pursuer = dts("p", B, 20, 7.0, 0, morale=3)
    features = [TerrainFeature("lake", outline=((10.0, 10.0), (30.0, 10.0), (30.0, 12.0), (10.0, 12.0)))] \
        if lake else []
    tx = tx_with(state_of(routing, pursuer), 6, *((5,) if reached else ()), table=table_with(*features))
    found = pursue(tx, "p", "b")
    assert (found.reached is not None) is reached and dice_left(tx) == 0
    if lake:
        assert tx.state.units["p"].y + 0.5 <= 10.0


@pytest.mark.parametrize(("water", "went"), [(True, 2.5), (False, 9.0)])
def test_an_evading_general_stops_short_of_a_river(water: bool, went: float) -> None:
    rider = dts("g", A, 20, 6.25, 0, troop="general")
    charger = dts("c", B, 20, 3.0, 0, morale=3)
    tx = tx_with(state_of(rider, charger), table=table_with(*([river_feature()] if water else [])))
    assert general_evades(tx, "g", "c").distance == went


@pytest.mark.parametrize(("water", "ahead"), [(True, 2.0), (False, 5.0)])
def test_a_forlorn_hope_going_out_stops_at_the_waters_edge(water: bool, ahead: float) -> None:
    """Out 5" from its first place just before the regiment (its front at 7.5): the river's
    bank at 9.5 stops it 2" out."""
    state = state_of(dts("f", A, 20, 6.0, 0, morale=2))
    tx = tx_with(state, 5, table=table_with(*([river_feature()] if water else [])))
    assert form(tx, "f").ahead == ahead


def test_no_room_for_a_forlorn_hope_in_the_water_and_none_carried_into_it() -> None:
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, terrain=[RIVER], turns=1)
    close = activated(game, "pf", "formation_change").with_unit(
        activated(game, "pf").units["pf"].evolve(y=8.5))
    change = ChangeFormation(unit="pf", formation="forlorn_hope")
    assert [v.message for v in game.validate(close, change)] == ["pf's forlorn hope would stand in the river"]
    state = activated(game, "pf", "formation_change")
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    out, _ = game.apply(state, ChangeFormation(unit="pf", formation="forlorn_hope"), ScriptedDice([1]))
    moving = activated(game, "pf", "advance", {"open": 4, "difficult": 1})
    moving = moving.with_unit(out.units["pf"]).with_unit(out.units["pf-forlorn-hope"])
    assert [v.message for v in game.validate(moving, Move(unit="pf", waypoints=((20, 7),)))] == []
    assert [v.message for v in game.validate(moving, Move(unit="pf", waypoints=((20, 8),)))] == [
        "pf's forlorn hope would be carried into the river"]


RIVER_BEHIND = RIVER | {"line": [[0, 4], [48, 4]]}
"""A river from y 3.5 to 4.5, behind FOOT (its front at 6.5, its rear at 5.5)."""


@pytest.mark.parametrize(("terrain", "refused"), [
    ([LAKE | {"polygon": [[10, 1], [30, 1], [30, 4], [10, 4]]}],
     ("movement.IMPASSABLE", "pf would stand in the lake")),
    ([RIVER_BEHIND], ("movement.RIVER", "pf would stand in the river")),
    ([RIVER_BEHIND, FORD | {"polygon": [[17, 3], [23, 3], [23, 5], [17, 5]]}], None),
    ([RIVER | {"line": [[0, 2.5], [48, 2.5]]}], None),
])
def test_a_formation_change_may_not_stand_its_stands_in_water(terrain: list[dict[str, Any]],
                                                               refused: tuple[str, str] | None) -> None:
    """Row 60: nothing enters a lake, nor a river away from its fords and bridges. The
    regiment's column (3" deep behind its front at 6.5) would reach back to y 3.5: a lake
    or river there refuses it, naming the water; a ford there, or a river further back,
    does not."""
    game = dts_game([FOOT, ENEMY], terrain=terrain)
    state = activated(game, "pf", "formation_change")
    change = ChangeFormation(unit="pf", formation="long_march")
    assert [(v.code, v.message) for v in game.validate(state, change)] == ([refused] if refused else [])
