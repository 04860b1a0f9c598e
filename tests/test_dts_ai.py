"""The doctrine player under Declare Thee Sir: what it declares for the activated unit
by range, morale and the state of the unit (routing, pursuing)."""

from __future__ import annotations

import random

from tertia.ai.dts_doctrine import DtsDoctrine
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets.declare_thee_sir.data import RALLY, STAND_AND_FIRE, unit_data
from tertia.rulesets.declare_thee_sir.events import Declare

from .dts_support import P, R, activated, dts_game, unit


def declared(game: Game, state: GameState) -> Declare:
    choice = DtsDoctrine().choose(game, state, random.Random(1))
    assert isinstance(choice, Declare), choice
    return choice


def foot_facing_foot(gap: float) -> Game:
    """Parliament's foot facing north and Royalist foot ``gap`` inches off, face to face."""
    return dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 11 + gap, 180)])


def test_foot_in_musket_reach_stand_and_fire_and_out_of_it_advance() -> None:
    near = foot_facing_foot(5.0)
    assert declared(near, activated(near, "pf")).option == STAND_AND_FIRE
    far = foot_facing_foot(20.0)
    assert declared(far, activated(far, "pf")).option == "advance"


def test_a_routing_unit_tries_to_rally() -> None:
    game = foot_facing_foot(20.0)
    state = activated(game, "pf")
    u = state.units["pf"]
    routing = state.with_unit(u.evolve(own=unit_data(u).evolve(routing=True, morale=1)))
    assert declared(game, routing).option == RALLY


def test_a_pursuer_breaks_off_near_a_table_edge_and_pursues_elsewhere() -> None:
    game = dts_game([unit("pf", P, "horse", 24, 3, 180), unit("rf", R, "foot", 24, 30, 180)])
    state = activated(game, "pf")
    u = state.units["pf"]
    near_edge = state.with_unit(u.evolve(own=unit_data(u).evolve(pursuing="rf", morale=2)))
    assert declared(game, near_edge).option == RALLY
    inland = near_edge.with_unit(near_edge.units["pf"].evolve(y=18.0))
    assert declared(game, inland).option != RALLY
