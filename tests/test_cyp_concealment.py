"""Charge yr Pikes!' secret deployment and hidden units (Set-up D, Sequence of play B):
deploying unseen, being seen by ground and distance, what hidden units may do, and that
nothing of a hidden unit reaches the enemy (view, log, refusals, the AI's choices)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tertia.core.actions import Action, EndPhase, Move
from tertia.core.dice import SeededDice
from tertia.core.events import Event, event_from_dict
from tertia.core.game import Game
from tertia.core.hidden import is_hidden, view_of
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine
from tertia.rulesets.charge_yr_pikes.concealment import (
    DEPLOY,
    DEPLOYMENT,
    UNPLACED,
    Deploy,
    DeploymentDone,
    UnitPlaced,
    Unseen,
    hidden_pieces,
    place_to_act,
    sees,
    spot,
)
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, tables_of
from tertia.rulesets.charge_yr_pikes.tables import default_tables, tables_with
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_setup import scenario


def _box(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


WOOD = {"type": "woods", "name": "North wood", "polygon": _box(0.0, 36.0, 20.0, 48.0)}
TOWN = {"type": "town", "name": "Kineton", "polygon": _box(50.0, 38.0, 62.0, 46.0)}
COPSE = {"type": "woods", "name": "Copse", "polygon": _box(60.0, 20.0, 70.0, 28.0)}
HILL = {"type": "hill", "name": "Edge Hill", "polygon": _box(54.0, 0.0, 72.0, 8.0), "height": 1}
K, P = "king", "parl"


def _game(**options: Any) -> Game:
    return Game(ChargeYrPikes(secret_deployment=True, **options), scenario(terrain=[WOOD, TOWN, COPSE, HILL]))


def _hidden(state: GameState, *ids: str) -> GameState:
    """``state`` with ``ids`` hidden (not placed) and every other piece placed."""
    for u in state.units.values():
        state = state.with_unit(u.evolve(own=unit_data(u).evolve(placed=u.id not in ids)))
    return state


def _battle(seed: int = 1, p_foot: tuple[float, float] = (6.0, 44.0),
            **options: Any) -> tuple[Game, GameState]:
    """Both sides deployed, the parliament's foot in the north wood at ``p_foot``."""
    game = _game(**options)
    state, _ = game.start(SeededDice(seed))
    state, _ = game.apply(state, DeploymentDone(), SeededDice(seed))
    state, _ = game.apply(state, Deploy(unit="p-foot", x=p_foot[0], y=p_foot[1]), SeededDice(seed))
    state, _ = game.apply(state, DeploymentDone(), SeededDice(seed))
    return game, state


# --- deployment -------------------------------------------------------------------------------


def test_without_the_option_the_battle_starts_with_every_piece_on_the_table() -> None:
    game = Game(ChargeYrPikes(secret_deployment=False, officer_grades=False), scenario())  # no grades
    state, _ = game.start(SeededDice(1))
    assert state.turn == 1 and not hidden_pieces(state)
    assert game.observed_state(state, P) == state


def test_secret_deployment_is_the_game_by_default() -> None:
    """Set-up D: "Deploy armies in secret" is the text's game, so the option is on unless
    a club turns it off."""
    game = Game(ChargeYrPikes(officer_grades=False), scenario())
    state, _ = game.start(SeededDice(1))
    assert game.ruleset.options["secret_deployment"] is True
    assert state.phase == DEPLOYMENT and state.turn == 0 and hidden_pieces(state)


def test_each_side_deploys_unseen_then_the_battle_begins() -> None:
    game = _game()
    state, events = game.start(SeededDice(1))
    assert state.phase == DEPLOYMENT and state.turn == 0
    assert state.pending is not None and (state.pending.kind, state.pending.side) == (DEPLOY, K)
    # The parliament sees none of the king's pieces while they deploy, nor how.
    seen = game.observed_state(state, P)
    assert view_of(seen) == P
    king = [u for u in seen.units.values() if u.side == K]
    assert king and all(u.removed == UNPLACED and is_hidden(u.extra["position"]) for u in king)
    assert all(is_hidden(unit_data(u).formation) for u in king)
    assert unit_data(seen.units["k-foot"]).start == 32  # the order of battle is public
    assert all(u.removed is None for u in seen.units.values() if u.side == P)
    assert game.observed_state(state, K).units["k-foot"] == state.units["k-foot"]
    # The king moves his foot back 2": the parliament's log shows nothing of it.
    state, events = game.apply(state, Deploy(unit="k-foot", x=30.0, y=10.0, facing=10.0), SeededDice(1))
    foot = state.units["k-foot"]
    assert (foot.x, foot.y, foot.facing) == (30.0, 10.0, 10.0)
    assert events and not [e for e in events if game.ruleset.event_visible_to(e, P)]
    assert all(game.ruleset.event_visible_to(e, K) for e in events)
    assert not game.is_legal(state, Deploy(unit="p-foot", x=30.0, y=40.0))  # not the parliament's turn
    state, _ = game.apply(state, DeploymentDone(), SeededDice(1))
    assert state.pending is not None and state.pending.side == P
    assert game.observed_state(state, P).units["k-foot"].removed == UNPLACED
    state, events = game.apply(state, DeploymentDone(), SeededDice(1))
    assert state.turn == 1 and state.phase == "movement"
    # The screens come away: pieces in the open are seen across the table.
    placed = {e.unit for e in events if isinstance(e, UnitPlaced)}
    assert {"k-foot", "k-horse", "k-drag", "p-foot"} <= placed and not hidden_pieces(state)
    told = [e for e in events if isinstance(e, UnitPlaced)]
    assert all(game.ruleset.event_visible_to(e, s) for e in told for s in (K, P))


@pytest.mark.parametrize(("x", "y", "why"), [
    (30.0, 30.0, "own half"),            # over the centre line
    (30.0, 16.0, "within 12\""),          # in the open within 12" of the centre line
    (30.0, -5.0, "off the table"),
    (40.0, 10.0, "overlap"),              # on the gun
])
def test_a_piece_deploys_on_its_own_half_away_from_the_centre(x: float, y: float, why: str) -> None:
    game = _game()
    state, _ = game.start(SeededDice(1))
    problems = game.validate(state, Deploy(unit="k-foot", x=x, y=y))
    assert problems and why in problems[0].message


@pytest.mark.parametrize("x", [float("nan"), float("inf")])
def test_a_piece_is_deployed_at_finite_numbers_only(x: float) -> None:
    game = _game()
    state, _ = game.start(SeededDice(1))
    assert game.is_legal(state, Deploy(unit="k-foot", x=30.0, y=10.0))
    problems = game.validate(state, Deploy(unit="k-foot", x=x, y=10.0))
    assert problems and "finite numbers" in problems[0].message


def test_a_piece_may_deploy_near_the_centre_in_a_wood_and_its_tertia_must_keep_together() -> None:
    game = _game()
    state, _ = game.start(SeededDice(1))
    state, _ = game.apply(state, DeploymentDone(), SeededDice(1))
    assert game.is_legal(state, Deploy(unit="p-foot", x=65.0, y=25.5))  # in the copse, by the centre line
    assert game.validate(state, Deploy(unit="p-foot", x=10.0, y=30.0))  # open, within 12"
    assert game.is_legal(state, Deploy(unit="p-foot", x=10.0, y=40.0))  # the north wood
    king = _game()
    state, _ = king.start(SeededDice(1))
    state, _ = king.apply(state, Deploy(unit="k-horse", x=10.0, y=4.0, facing=0.0), SeededDice(1))
    problems = king.validate(state, DeploymentDone())
    assert problems and "within 6\"" in problems[0].message  # k-horse left k-drag behind


# --- being seen ---------------------------------------------------------------------------------


def _placed_at(state: GameState, unit_id: str, x: float, y: float) -> GameState:
    return state.with_unit(state.units[unit_id].evolve(x=x, y=y))


@pytest.mark.parametrize(("x", "y", "seen"), [
    (30.0, 40.0, True),     # open ground, 26" off: seen
    (10.0, 40.0, False),    # in the north wood, far off
    (10.0, 37.5, True),     # in the north wood, 5" from the spotter: within 6"
    (10.0, 39.0, False),    # in the north wood, 6.5" off
    (56.0, 40.0, True),     # in the town, 11" off: within 12"
    (56.0, 43.0, False),    # in the town, 14" off
])
def test_a_piece_is_seen_within_the_distance_for_its_ground(x: float, y: float, seen: bool) -> None:
    game = _game()
    state, _ = game.start(SeededDice(1))
    spotter = {"woods": (10.0, 31.0), "town": (56.0, 28.0)}
    ground = "woods" if x < 20 and y > 36 else "town" if x > 49 and y > 37 else "open"
    sx, sy = spotter.get(ground, (30.0, 12.0))
    state = _placed_at(_placed_at(state, "p-foot", x, y), "k-foot", sx, sy)
    k, p = state.units["k-foot"], state.units["p-foot"]
    assert sees(game.table, tables_of(state), k, p) is seen


def test_a_piece_is_seen_at_72_inches_in_the_open_6_in_woods_and_12_in_a_town() -> None:
    # The distances of the clause table's row 8 ([visibility]).
    vis = default_tables().visibility
    assert (vis.open, vis.woods, vis.town) == (72, 6, 12)


def test_dead_ground_behind_woods_from_a_hill_and_all_behind_them_from_the_plain() -> None:
    game = _game()
    state, _ = game.start(SeededDice(1))
    tables = tables_of(state)
    on_hill = _placed_at(state, "k-foot", 65.0, 4.0)
    plain = _placed_at(state, "k-foot", 65.0, 14.0)
    near = _placed_at(state, "p-foot", 65.0, 32.0)   # 4" behind the copse: dead ground
    far = _placed_at(state, "p-foot", 65.0, 38.0)    # 10" behind it: seen from the hill
    assert not sees(game.table, tables, on_hill.units["k-foot"], near.units["p-foot"])
    assert sees(game.table, tables, on_hill.units["k-foot"], far.units["p-foot"])
    assert not sees(game.table, tables, plain.units["k-foot"], far.units["p-foot"])


def test_spotting_places_what_an_enemy_sees_and_a_placed_piece_never_hides_again() -> None:
    game, state = _battle()
    assert set(hidden_pieces(state)) == {"p-foot"}  # in the wood, out of sight
    tx = Tx(game.table, _placed_at(state, "k-foot", 7.0, 38.5), SeededDice(1))
    spot(tx, tables_of(state))
    assert [e.unit for e in tx.events if isinstance(e, UnitPlaced)] == ["p-foot"]
    tx2 = Tx(game.table, _placed_at(tx.state, "k-foot", 30.0, 4.0), SeededDice(1))
    spot(tx2, tables_of(state))
    assert unit_data(tx2.state.units["p-foot"]).placed and not tx2.events


def test_a_unit_that_fires_is_placed_and_a_move_places_it_only_by_the_table() -> None:
    game, state = _battle()
    tables = tables_of(state)
    tx = Tx(game.table, state, SeededDice(1))
    place_to_act(tx, tables, "p-foot", "move")
    assert not tx.events  # unseen_moves: it may move on its map
    place_to_act(tx, tables, "p-foot", "fire")
    assert [(e.unit, e.why) for e in tx.events] == [("p-foot", "it fires")]
    strict = tables_with({"visibility": {"open": 72, "woods": 6, "town": 12, "unseen_moves": False}})
    tx = Tx(game.table, state, SeededDice(1))
    place_to_act(tx, strict, "p-foot", "move")
    assert [(e.unit, e.why) for e in tx.events] == [("p-foot", "it moves")]


def _on_card(state: GameState, side: str, *units: str) -> GameState:
    g = game_data(state)
    return state.evolve(active=side, decisions=(), own=g.evolve(card=f"group:x:{side}", moving=units,
                                                              moved_on_card=(), reformed=()))


def test_a_hidden_unit_that_moves_into_sight_is_placed() -> None:
    game, state = _battle()
    state = _on_card(state, P, "p-foot")
    unseen = Move(unit="p-foot", waypoints=((8.0, 43.0),))
    after, events = game.apply(state, unseen, SeededDice(1))
    assert not unit_data(after.units["p-foot"]).placed and after.units["p-foot"].x > 6.0
    assert not [e for e in events if game.ruleset.event_visible_to(e, K)]  # nothing shows
    assert events and all(isinstance(e, Unseen) for e in events)
    # Out of the wood into the open and back: it was seen on the way.
    tx = Tx(game.table, state, SeededDice(1))
    spot(tx, tables_of(state), [("p-foot", ((6.0, 44.0), (26.0, 40.0), (6.0, 44.0)))])
    assert [(e.unit, e.why) for e in tx.events] == [("p-foot", "it comes into the enemy's sight")]
    tx = Tx(game.table, state, SeededDice(1))
    spot(tx, tables_of(state), [("p-foot", ((6.0, 44.0), (12.0, 40.0), (6.0, 44.0)))])
    assert not tx.events  # it kept to the wood


def test_a_move_into_an_unseen_unit_stops_short_and_finds_it() -> None:
    game, state = _battle()
    state = _hidden(_placed_at(state, "p-foot", 30.0, 30.0), "p-foot")  # hidden in the open, say
    state = _on_card(_placed_at(_placed_at(state, "k-horse", 30.0, 16.0), "k-drag", 38.0, 28.0), K, "k-horse")
    state = state.with_unit(state.units["k-horse"].evolve(facing=0.0))
    move = Move(unit="k-horse", waypoints=((30.0, 31.0),))  # straight through it
    assert game.is_legal(state, move)  # judged as the king sees it: the wood is empty
    after, _ = game.apply(state, move, SeededDice(1))
    horse, foot = after.units["k-horse"], after.units["p-foot"]
    assert unit_data(foot).placed
    assert horse.y < foot.y - foot.depth / 2  # stopped short of it


# --- nothing leaks ------------------------------------------------------------------------------


PROBES: tuple[Action, ...] = (Charge(unit="k-horse", target="p-foot"), Charge(unit="k-foot", target="p-foot"),
                              Move(unit="k-horse", waypoints=((6.0, 40.0),)),
                              Move(unit="k-foot", waypoints=((14.0, 30.0),)))


def _seen_log(game: Game, events: list[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if game.ruleset.event_visible_to(e, K)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_two_games_differing_only_where_a_hidden_unit_stands_look_alike_to_the_enemy(seed: int) -> None:
    game_a, a = _battle(seed, (6.0, 44.0))
    game_b, b = _battle(seed, (15.0, 40.0))
    assert a.units["p-foot"] != b.units["p-foot"]
    assert "p-foot" in hidden_pieces(a) and "p-foot" in hidden_pieces(b)
    dice_a, dice_b = SeededDice(seed), SeededDice(seed)
    king_a, king_b = CypDoctrine(), CypDoctrine()
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    steps = 0
    while a.turn == 1 and steps < 60:
        assert game_a.observed_state(a, K) == game_b.observed_state(b, K)
        assert game_a.playable_state(a, K, seed) == game_b.playable_state(b, K, seed)
        for probe in (*PROBES, *(Charge(unit=u, target="p-foot") for u in ("k-drag", "k-gen"))):
            assert game_a.validate(_on_card(a, K, "k-horse", "k-foot"), probe) == \
                game_b.validate(_on_card(b, K, "k-horse", "k-foot"), probe)
        if a.to_act == K:
            action = king_a.choose(game_a, a, rng_a)
            assert king_b.choose(game_b, b, rng_b) == action
        else:
            action = EndPhase() if game_a.is_legal(a, EndPhase()) else CypDoctrine().choose(game_a, a, rng_a)
        a, events_a = game_a.apply(a, action, dice_a)
        b, events_b = game_b.apply(b, action, dice_b)
        assert _seen_log(game_a, events_a) == _seen_log(game_b, events_b)
        steps += 1
    assert steps > 3


def test_a_charge_at_a_hidden_unit_is_refused_as_at_no_unit_at_all() -> None:
    game, state = _battle()
    state = _on_card(state, K, "k-horse")
    hidden = game.validate(state, Charge(unit="k-horse", target="p-foot"))
    nobody = game.validate(state, Charge(unit="k-horse", target="p-nobody"))
    assert hidden and nobody and hidden[0].code == nobody[0].code
    assert hidden[0].message.replace("p-foot", "X") == nobody[0].message.replace("p-nobody", "X")


def test_moving_a_piece_not_ones_own_names_one_seen_and_tells_nothing_of_one_hidden() -> None:
    """A move refused with a piece the side on the card may not move: one it sees by its
    name, never its id; one hidden from it in the words and with the code of an id no
    piece has."""
    game, state = _battle()
    state = _on_card(state, K, "k-horse")
    state = state.with_unit(state.units["p-foot"].evolve(name="Lord Brooke's Regiment of Foot"))

    def refused(position: GameState, unit: str) -> list[tuple[str, str]]:
        found = game.validate(position, Move(unit=unit, waypoints=((50.0, 14.0),)))
        return [(v.code, v.message.replace(unit, "X")) for v in found]

    assert refused(state, "p-foot") and refused(state, "p-foot") == refused(state, "p-nobody")
    [(_, message)] = refused(_hidden(state), "p-foot")
    assert message == "Lord Brooke's Regiment of Foot is Parliament's, not King's", message


def test_the_playable_state_is_the_observation_sampled() -> None:
    game, state = _battle(officer_grades=False)  # grades are the other secret
    for seed in (1, 2, 3):
        view = game.observed_state(state, K)
        sampled = game.sample_hidden(view, K, random.Random(seed))
        assert game.playable_state(state, K, seed) == sampled
        foot = sampled.units["p-foot"]
        assert foot.removed is None and not unit_data(foot).placed and foot.y > 24.0
        assert "position" not in foot.extra and view_of(sampled) is None
    assert game.playable_state(state, P, 1) == state  # the parliament sees all the king's


def test_hidden_events_are_told_to_their_own_side() -> None:
    from tertia.io.narrative import Narrator

    game, state = _battle()
    state = _on_card(state, P, "p-foot")
    _, events = game.apply(state, Move(unit="p-foot", waypoints=((10.0, 42.0),)), SeededDice(1))
    lines = Narrator(state).lines(events)
    assert any(line.startswith("Unseen by the enemy:") for line in lines)
    assert [event_from_dict(e.to_dict()) for e in events] == events


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_battles_with_secret_deployment(seed: int) -> None:
    from tertia.ai.doctrine import DoctrinePlayer
    from tertia.ai.random_player import RandomPlayer
    from tertia.battle import fight_battle

    for player in (RandomPlayer, DoctrinePlayer):
        game = _game()
        record = fight_battle(game, {s: player() for s in game.scenario.side_ids}, seed)
        assert record.final_state.result is not None
        assert any(isinstance(e, UnitPlaced) for e in record.iter_events())
