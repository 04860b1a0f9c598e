"""The doctrine player for Charge yr Pikes!
(:mod:`tertia.rulesets.charge_yr_pikes.ai.doctrine`): every action it
chooses is legal over whole battles, it beats the random player, and in set positions it
forms square against horse, charges a disordered unit and keeps within its tertia."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from tertia.activation.deck import group_card
from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.lookup import baseline_for
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.decision import Decision
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes import phases
from tertia.rulesets.charge_yr_pikes.actions import FREE_MOVE, Charge, FireOrder, GiveFreeMove, Mount, Reform
from tertia.rulesets.charge_yr_pikes.ai.doctrine import MOUNT_BEYOND, CypDoctrine, _fire_kind, _foes
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, reformed, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.scenarios import resolve_scenario


def _mirror(piece: dict[str, Any]) -> dict[str, Any]:
    """The king's piece as parliament's, across the table's centre line."""
    out = dict(piece, id="p" + piece["id"][1:], side="parl", command="p" + piece["command"][1:],
               y=48.0 - piece["y"])
    if "type" in piece:
        out["facing"] = 180.0
    return out


KING_COMMANDERS = [
    {"id": "k-gen", "side": "king", "command": "k1", "x": 44.0, "y": 3.0, "general": True},
    {"id": "k-brig", "side": "king", "command": "k1", "x": 32.0, "y": 6.0},
]
KING_UNITS = [
    {"id": "k-foot", "side": "king", "type": "foot", "command": "k1", "x": 26.0, "y": 10.0},
    {"id": "k-foot2", "side": "king", "type": "foot", "command": "k1", "x": 32.0, "y": 10.0},
    {"id": "k-musk", "side": "king", "type": "commanded_shot", "command": "k1", "x": 38.0, "y": 10.0},
    {"id": "k-gun", "side": "king", "type": "artillery", "command": "k1", "x": 44.0, "y": 8.0},
    {"id": "k-horse", "side": "king", "type": "horse", "command": "k2", "x": 50.0, "y": 10.0},
    {"id": "k-horse2", "side": "king", "type": "horse", "command": "k2", "x": 57.0, "y": 10.0},
    {"id": "k-drag", "side": "king", "type": "dragoons", "command": "k2", "x": 64.0, "y": 10.0},
]


def _points(side: str, near: float, far: float, edge: float) -> list[dict[str, Any]]:
    return [
        {"side": side, "kind": "vital", "role": "retreat", "name": f"{side} road", "x": 36.0, "y": edge},
        {"side": side, "kind": "vital", "name": f"{side} left", "x": 20.0, "y": near},
        {"side": side, "kind": "vital", "name": f"{side} right", "x": 52.0, "y": near},
        *({"side": side, "kind": "objective", "name": f"{side} takes {x:g}", "x": x, "y": far}
          for x in (20.0, 36.0, 52.0)),
    ]


def battle_scenario() -> Scenario:
    """Two small armies, each the mirror of the other, with objectives and vital points."""
    return Scenario.model_validate({
        "name": "doctrine test", "table": {"width": 72.0, "depth": 48.0}, "terrain": [],
        "sides": [{"id": "king", "name": "King", "edge": "south"},
                  {"id": "parl", "name": "Parliament", "edge": "north"}],
        "commanders": [*KING_COMMANDERS, *map(_mirror, KING_COMMANDERS)],
        "units": [*KING_UNITS, *map(_mirror, KING_UNITS)],
        "extensions": {"charge-yr-pikes": {"points": [*_points("king", 8.0, 40.0, 0.0),
                                                      *_points("parl", 40.0, 8.0, 48.0)]}},
    })


class Checked:
    """A player that asserts each action the doctrine chooses is legal before it is played."""

    name = "doctrine"

    def __init__(self) -> None:
        self.inner = DoctrinePlayer()
        self.chosen = 0

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        action = self.inner.choose(game, state, rng)
        assert game.is_legal(state, action), action
        self.chosen += 1
        return action


def test_the_rule_set_keeps_this_doctrine_player_as_its_baseline() -> None:
    assert baseline_for(ChargeYrPikes()) is CypDoctrine


@pytest.mark.parametrize("seed", [1, 2])
def test_every_action_the_doctrine_chooses_is_legal_over_a_whole_battle(seed: int) -> None:
    game = Game(ChargeYrPikes(), battle_scenario())
    players = {s: Checked() for s in game.scenario.side_ids}
    record = fight_battle(game, players, seed)
    assert record.final_state.is_over
    assert all(p.chosen > 50 for p in players.values())
    kinds = {type(s.action).__name__ for s in record.steps}
    assert {"Move", "FireOrder", "GiveFreeMove", "EndPhase"} <= kinds


def test_the_doctrine_beats_the_random_player_in_most_battles() -> None:
    game = Game(ChargeYrPikes(), battle_scenario())
    wins = 0
    for seed in range(12):
        doctrine = game.scenario.side_ids[seed % 2]
        players: dict[str, Any] = {s: DoctrinePlayer() if s == doctrine else RandomPlayer()
                                   for s in game.scenario.side_ids}
        wins += fight_battle(game, players, seed).final_state.result["winner"] == doctrine
    assert wins >= 9


# --- set positions ---------------------------------------------------------------------------


def _on_card(pieces: dict[str, tuple[float, float]], moving: tuple[str, ...],
             **values: Any) -> tuple[Game, GameState]:
    """The battle scenario with ``pieces`` placed at (x, y), the king's card in play and
    ``moving`` free to move on it; ``values`` changes units' own values (by unit id)."""
    game = Game(ChargeYrPikes(secret_deployment=False), battle_scenario())
    state, _ = game.start(SeededDice(5))
    for unit_id, (x, y) in pieces.items():
        state = state.with_unit(state.units[unit_id].evolve(x=x, y=y))
    for unit_id, changed in values.items():
        unit = state.units[unit_id]
        state = state.with_unit(unit.evolve(own=unit_data(unit).evolve(**changed)))
    g = game_data(state).evolve(card=group_card("k1", "king"), deck_drawn=(), moving=moving,
                                moved_on_card=(), reformed=(), step=None, step_side=None, orders=(),
                                charges=())
    return game, state.evolve(own=g, active="king", decisions=())


def _choose(game: Game, state: GameState) -> Action:
    action = CypDoctrine().choose(game, state, random.Random(0))
    assert game.is_legal(state, action)
    return action


FAR = {"p-foot": (26.0, 44.0), "p-foot2": (32.0, 44.0), "p-musk": (38.0, 44.0),
       "p-horse": (50.0, 44.0), "p-horse2": (57.0, 44.0), "p-drag": (64.0, 44.0)}


def test_foot_form_square_with_enemy_horse_within_its_charge_reach() -> None:
    # p-horse 20" from k-foot: inside the horse's 32" charge move.
    game, state = _on_card({**FAR, "p-horse": (26.0, 32.0)}, ("k-foot",))
    assert _choose(game, state) == Reform(unit="k-foot", formation="square")
    # Beyond 32" the foot march on in line.
    game, state = _on_card(FAR, ("k-foot",))
    assert isinstance(_choose(game, state), Move)


def test_a_square_forms_line_again_when_no_horse_threatens() -> None:
    game, state = _on_card(FAR, ("k-foot",))
    state = state.with_unit(reformed(state, state.units["k-foot"], "square"))
    assert _choose(game, state) == Reform(unit="k-foot", formation="line")


def test_horse_charge_a_disordered_foot_regiment_and_not_a_steady_one() -> None:
    near = {**FAR, "p-foot": (50.0, 30.0)}  # 18" from k-horse: within its 32" charge
    game, state = _on_card(near, ("k-horse",), **{"p-foot": {"disordered": True}})
    assert _choose(game, state) == Charge(unit="k-horse", target="p-foot")
    game, state = _on_card(near, ("k-horse",))
    assert not isinstance(_choose(game, state), Charge)


def test_foot_charge_a_shaken_unit_within_reach_only() -> None:
    near = {**FAR, "p-foot": (26.0, 16.0)}  # 4.5" between the bases: within foot's 8"
    game, state = _on_card(near, ("k-foot",), **{"p-foot": {"disordered": True}})
    assert _choose(game, state) == Charge(unit="k-foot", target="p-foot")
    game, state = _on_card(near, ("k-foot",))
    assert not isinstance(_choose(game, state), Charge)


def test_a_unit_shortens_its_move_to_stay_within_its_tertia() -> None:
    # k-foot stands 4" ahead of its tertia; its whole 8" straight on would leave it.
    game, state = _on_card(FAR, ("k-foot",))
    state = state.with_unit(state.units["k-foot"].evolve(y=14.0))
    whole = Move(unit="k-foot", waypoints=((26.0, 22.0),))
    assert not game.is_legal(state, whole)
    action = _choose(game, state)
    assert isinstance(action, Move)
    unit = state.units["k-foot"]
    end = unit.base.moved_to(*action.waypoints[-1])
    assert end.y > unit.y + 0.5
    assert min(base_distance(end, state.units[m].base) for m in ("k-foot2", "k-musk")) <= 6.0 + 1e-6


def test_the_free_move_goes_to_a_tertia_that_failed_to_move_else_the_one_nearest_the_enemy() -> None:
    game, state = _on_card({**FAR, "p-drag": (64.0, 24.0)}, ())
    state = state.evolve(decisions=(Decision("king", FREE_MOVE, {"tertias": ["k1", "k2"]}),))
    assert CypDoctrine().choose(game, state, random.Random(0)) == GiveFreeMove(tertia="k2")
    # k1's card was turned this turn and none of its units moved: it failed its response.
    failed = state.evolve(own=game_data(state).evolve(deck_drawn=(group_card("k1", "king"),)))
    assert CypDoctrine().choose(game, failed, random.Random(0)) == GiveFreeMove(tertia="k1")


def test_in_a_fire_step_each_unit_fires_at_the_nearest_target_then_ends_its_orders() -> None:
    game, state = _on_card({**FAR, "p-foot": (26.0, 20.0)}, ())
    g = game_data(state).evolve(card=None, step="standing_fire", step_side="king")
    state = state.evolve(own=g)
    action = _choose(game, state)
    assert action == FireOrder(unit="k-foot", target="p-foot", kind="musket")
    # Once every unit that can fire has its order (none else has a target), the orders end.
    given = {u.id: (u.id, "p-foot", "musket") for u in phases.shooters(state, "king", "standing_fire")}
    done = state.evolve(own=game_data(state).evolve(orders=tuple(given.values())))
    assert _choose(game, done) == EndPhase()


def test_a_gun_fires_canister_within_canister_range_else_ball() -> None:
    _, state = _on_card(FAR, ())
    tables = tables_of(state)
    gun, target = state.units["k-gun"], state.units["p-foot"]
    near = target.evolve(x=gun.x, y=gun.y + 8.0)
    assert _fire_kind(gun, near, tables) == "canister"
    assert _fire_kind(gun, target.evolve(x=gun.x, y=gun.y + 20.0), tables) == "ball"


def test_a_unit_goes_to_guard_a_vital_point_the_enemy_nears() -> None:
    # p-foot 12" from the king's left vital point (20, 8): k-foot, nearest it, goes there.
    game, state = _on_card({**FAR, "p-foot": (20.0, 20.0)}, ("k-foot",))
    action = _choose(game, state)
    assert isinstance(action, Move)
    before = state.units["k-foot"]
    assert math.dist(action.waypoints[-1], (20.0, 8.0)) < math.dist((before.x, before.y), (20.0, 8.0))
    # With no enemy within 24" of any vital point it advances on the enemy instead.
    game, state = _on_card(FAR, ("k-foot",))
    action = _choose(game, state)
    assert isinstance(action, Move) and action.waypoints[-1][1] > state.units["k-foot"].y


def test_an_officer_rides_to_his_post_behind_his_tertia() -> None:
    game, state = _on_card({**FAR, "k-brig": (10.0, 2.0)}, ("k-brig",))
    action = _choose(game, state)
    assert isinstance(action, Move)
    end = action.waypoints[-1]
    assert math.dist(end, (32.0, 8.0)) < math.dist((10.0, 2.0), (32.0, 8.0))
    # Within 8" of every unit of his tertia he stays: the card is ended.
    game, state = _on_card(FAR, ("k-brig",))
    assert _choose(game, state) == EndPhase()


def test_dragoons_that_may_not_mount_by_the_edge_go_on_with_their_other_orders() -> None:
    # Dragoons 18: mounted dragoons stand wider, and by the table's edge may not mount.
    # Usher's Dragoons stand dismounted at Edgehill's west edge with the enemy far off: the
    # doctrine would mount them to ride, which the rules refuse; on their card it moves them
    # on foot instead (it had offered the refused mount on every card, and they stood).
    game = Game(get_ruleset("charge-yr-pikes"), resolve_scenario("edgehill", rules_id="charge-yr-pikes"))
    state, _ = game.start(SeededDice(1))
    dragoons = state.units["r-usher-dragoons"]
    assert not unit_data(dragoons).mounted and _foes(state, dragoons).gap(0) > MOUNT_BEYOND
    assert not game.is_legal(state, Mount(unit=dragoons.id, mounted=True))
    g = game_data(state).evolve(card=group_card(dragoons.command, dragoons.side), deck_drawn=(),
                                moving=(dragoons.id,), moved_on_card=(), reformed=(), step=None,
                                step_side=None, orders=(), charges=())
    on_card = state.evolve(own=g, active=dragoons.side, decisions=())
    order = CypDoctrine()._order(game, on_card, dragoons)
    assert isinstance(order, Move) and game.is_legal(on_card, order)
