"""d3-commands: the secret order of command cards (observations, events, players) and the
deployment procedure."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tertia.activation import command_cards as cards
from tertia.activation.command_cards import OrderCards
from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.random_player import RandomPlayer
from tertia.core.actions import EndPhase
from tertia.core.dice import ScriptedDice, SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.d3_commands.ai.doctrine import D3CommandsDoctrine
from tertia.rulesets.d3_commands.deployment import Deploy
from tertia.scenarios import load_builtin
from tests.observed import game_values

from .d3_support import COMMANDS, foot, horse
from .support import P, R, act, codes, commander, make_game, unit

ARMIES = [foot("f", P, 30, 8), horse("h", P, 40, 8), unit("g", P, "artillery", 20, 8),
          foot("e", R, 30, 40, 180), horse("eh", R, 40, 40, 180), unit("eg", R, "artillery", 20, 40, 180)]


def ordered(p_order: tuple[str, ...]) -> tuple[Game, GameState]:
    """Parliament has ordered its cards; the Royalists are to order theirs."""
    game = make_game(ARMIES, rules=COMMANDS)
    state, _ = game.start(ScriptedDice([]))
    state, _ = act(game, state, OrderCards(order=p_order))
    return game, state


# --- hidden information ------------------------------------------------------------------------


def test_the_observation_hides_the_other_sides_order_until_played() -> None:
    """Sequence of Play: "Only the player knows the order": cards played are public, the
    order of the rest is not."""
    game, state = ordered(("independent", "right", "centre"))
    seen = game.observe(state, R)
    assert game_values(seen)[cards.order_key(P)] == {"hidden": "card order"}
    assert game_values(game.observe(state, P))[cards.order_key(P)] == ["independent", "right", "centre"]
    assert GameState.from_dict(seen).value(cards.order_key(P)) == {"hidden": "card order"}
    state, _ = act(game, state, OrderCards(order=("right", "centre", "independent")), [6, 1])
    played = game_values(game.observe(state, R))
    assert played[cards.played_key(P)] == ["independent"]
    assert played[cards.order_key(P)] == {"hidden": "card order"}


@pytest.mark.parametrize("player", [D3CommandsDoctrine, DoctrinePlayer, RandomPlayer])
def test_players_choose_alike_whatever_the_other_sides_order(player: Any) -> None:
    """Hidden information: a player never reads the other side's order, so two positions
    that differ only in that secret get the same choice, decision after decision."""
    first = _choices(player, ("independent", "right", "centre"))
    second = _choices(player, ("centre", "right", "independent"))
    assert first == second and first[0].type == "order_cards"


def _choices(player: Any, p_order: tuple[str, ...]) -> list[Any]:
    game, state = ordered(p_order)
    chooser = player()
    rng = random.Random(4)
    choice = chooser.choose(game, state, rng)
    made = [choice]
    # After both orders and the roll, the Royalists play first; they decide again.
    state, _ = act(game, state, OrderCards(order=("right", "centre", "independent")), [1, 6])
    assert state.active == R
    for _ in range(3):
        choice = chooser.choose(game, state, rng)
        made.append(choice)
        if isinstance(choice, EndPhase):
            break
        state, _ = game.apply(state, choice, SeededDice(1))
    return made


def test_the_doctrine_orders_guns_then_horse_then_foot() -> None:
    """The doctrine's order follows Wesencraft's paragraph quoted in the rules: "First, the
    guns bombarded each other, then the two wings would clash, and finally the infantry
    met." """
    game, state = ordered(("centre", "right", "independent"))
    choice = D3CommandsDoctrine().choose(game, state, random.Random(1))
    assert choice == OrderCards(order=("independent", "right", "centre"))


# --- deployment ---------------------------------------------------------------------------------


def procedure(units: list[dict[str, Any]], **kw: Any) -> Game:
    return make_game(units, rules=COMMANDS, deployment="procedure", **kw)


STEPPED = [foot("pc1", P, 30, 5), horse("pr", P, 40, 5), horse("pl", P, 20, 5, command="left"),
           foot("pres", P, 30, 1.6, command="reserve"), unit("pg", P, "artillery", 30, 10),
           foot("rc1", R, 30, 43, 180)]


def test_deployment_roll_and_steps() -> None:
    """Deployment: "Players roll a D6, the highest scoring player deploying first in all
    the steps (re-rolling any ties)", then centre, right flank, left flank, reserve,
    independent units (and, in Tertia, the commander)."""
    game = procedure(STEPPED, commanders=[commander("c", P, 50, 2, general=True)])
    state, _ = game.start(ScriptedDice([4, 4, 2, 5]))
    assert all(not u.in_play for u in state.units.values())
    assert state.pending is not None and state.pending["side"] == R and state.pending["step"] == "centre"
    steps = []
    for uid, x, y in (("rc1", 30, 43), ("pc1", 30, 5), ("pr", 40, 5), ("pl", 20, 5),
                      ("pres", 30, 1.6), ("pg", 30, 10), ("c", 50, 2)):
        assert state.pending is not None
        steps.append((state.pending["side"], state.pending["step"]))
        state, _ = act(game, state, Deploy(unit=uid, x=x, y=y))
    assert steps == [(R, "centre"), (P, "centre"), (P, "right"), (P, "left"), (P, "reserve"),
                     (P, "independent"), (P, "commander")]
    assert state.phase == "orders" and all(u.in_play for u in state.units.values())


def waiting_for(game: Game, state: GameState, uid: str) -> GameState:
    """Place everything before ``uid`` at its scenario position."""
    specs = {u.id: (u.x, u.y) for u in game.scenario.units}
    specs |= {c.id: (c.x, c.y) for c in game.scenario.commanders}
    while state.pending is not None and uid not in state.pending["units"]:
        nxt = state.pending["units"][0]
        state, _ = act(game, state, Deploy(unit=nxt, x=specs[nxt][0], y=specs[nxt][1]))
    return state


def test_flanks_deploy_beside_the_centre() -> None:
    """Deployment 3-4: "Deploy all right flank command units to the right of the centre";
    "left flank command units to the left of the centre". Right is as the side faces the
    enemy: east for the south edge, west for the north edge."""
    game = procedure(STEPPED)
    state, _ = game.start(ScriptedDice([5, 2]))
    state = waiting_for(game, state, "pr")
    assert codes(game, state, Deploy(unit="pr", x=25, y=5)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, Deploy(unit="pr", x=34, y=5)) == []
    state, _ = act(game, state, Deploy(unit="pr", x=40, y=5))
    assert codes(game, state, Deploy(unit="pl", x=36, y=12)) == ["d3.BAD_DEPLOYMENT"]
    north = procedure([foot("rc1", R, 30, 43, 180), horse("rr", R, 40, 43, 180), foot("x", P, 30, 5)])
    state, _ = north.start(ScriptedDice([2, 5]))
    state, _ = act(north, state, Deploy(unit="rc1", x=30, y=43))
    state, _ = act(north, state, Deploy(unit="x", x=30, y=5))
    assert codes(north, state, Deploy(unit="rr", x=40, y=43)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(north, state, Deploy(unit="rr", x=20, y=43)) == []


def test_the_reserve_deploys_behind_a_command() -> None:
    """Deployment 5: "Deploy all reserve command units behind any of the deployed
    commands." """
    game = procedure(STEPPED)
    state, _ = game.start(ScriptedDice([5, 2]))
    state = waiting_for(game, state, "pres")
    assert codes(game, state, Deploy(unit="pres", x=30, y=11)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, Deploy(unit="pres", x=41, y=1.6)) == []


def test_independent_units_deploy_in_front() -> None:
    """Deployment 6: "Artillery are deployed either in front of the centre or on hills for
    artillery. Dragoons and Commanded Shot can be deployed in front of the flanks or beside
    a flank unit." """
    hill = {"type": "hill", "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]]}
    units = [*STEPPED, unit("pd", P, "dragoons", 45, 5)]
    game = procedure(units, terrain=[hill])
    state, _ = game.start(ScriptedDice([5, 2]))
    state = waiting_for(game, state, "pg")
    assert codes(game, state, Deploy(unit="pg", x=55, y=5)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, Deploy(unit="pg", x=5, y=5)) == []
    assert codes(game, state, Deploy(unit="pg", x=30, y=10)) == []
    assert codes(game, state, Deploy(unit="pd", x=55, y=5)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, Deploy(unit="pd", x=44.5, y=5)) == []
    assert codes(game, state, Deploy(unit="pd", x=40, y=10)) == []


def test_deployment_stays_in_the_zone_on_open_ground() -> None:
    """Deployment: the text sets no zone; Tertia's is 16" from the side's own edge (option
    ``deployment_zone``), on ground the unit could move onto."""
    marsh = {"type": "marsh", "polygon": [[50, 0], [60, 0], [60, 10], [50, 10]]}
    game = procedure(STEPPED, terrain=[marsh])
    state, _ = game.start(ScriptedDice([5, 2]))
    assert codes(game, state, Deploy(unit="pc1", x=30, y=15)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, Deploy(unit="pc1", x=55, y=5)) == ["movement.IMPASSABLE"]
    assert codes(game, state, Deploy(unit="nobody", x=30, y=5)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, Deploy(unit="pc1", x=float("nan"), y=5)) == ["d3.BAD_DEPLOYMENT"]
    assert codes(game, state, EndPhase()) == ["core.PENDING_DECISION"]


def test_scenario_deployment_is_the_default() -> None:
    """Deployment: "Unless playing a scenario with set deployment the following steps are
    followed": a scenario's positions stand unless the option asks for the procedure."""
    game = make_game(STEPPED, rules=COMMANDS)
    state, _ = game.start(ScriptedDice([]))
    assert state.phase == "orders" and all(u.in_play for u in state.units.values())


def test_the_doctrine_deploys_edgehill_by_the_procedure() -> None:
    """The doctrine places each unit as near its historical position as the steps allow."""
    game = Game(get_ruleset(COMMANDS, deployment="procedure"), load_builtin("edgehill"))
    state, _ = game.start(SeededDice(2))
    players = {side: DoctrinePlayer() for side in state.sides}
    rng = random.Random(0)
    dice = SeededDice(3)
    while state.phase == "deployment":
        state, _ = game.apply(state, players[state.to_act].choose(game, state, rng), dice)
    assert state.phase == "orders"
    assert all(u.in_play for u in state.units.values())
    moved = sum(1 for u in game.scenario.units
                if (state.units[u.id].x, state.units[u.id].y) != (u.x, u.y))
    assert moved < len(game.scenario.units)


def test_a_deployed_game_replays() -> None:
    """A battle with the procedure is a record like any other."""
    from tertia.battle import fight_battle
    from tertia.io.record import parse_record, record_to_dict, replay

    game = make_game([foot("f", P, 30, 5), foot("e", R, 30, 43, 180)], rules=COMMANDS,
                     deployment="procedure", turns=2)
    record = fight_battle(game, {P: RandomPlayer(), R: RandomPlayer()}, 3)
    assert replay(parse_record(record_to_dict(record))).ok
    assert record.final_state.is_over
