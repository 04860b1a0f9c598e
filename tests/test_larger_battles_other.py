"""Artillery Bombardment, Commanders, Supplies and How to Win (larger-battles)."""

from __future__ import annotations

import pytest

from tertia.core.actions import EndPhase, Move
from tertia.core.state import GameState
from tertia.rules.hits import piece
from tertia.rulesets.larger_battles.actions import Bombard, GiveOrder
from tertia.rulesets.larger_battles.events import supplies_of
from tertia.rulesets.larger_battles.victory import score_breakdown, scores

from .support import P, R, act, codes, commander, make_game, position, unit


def gunnery(target_xy: tuple[float, float], *extra: dict, **kw: object):  # type: ignore[no-untyped-def]
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", *target_xy, 180), *extra], **kw)
    return game, position(game, phase="bombardment", orders=(("g", "bombard"),))


def test_bombardment_hits_on_5_or_more() -> None:
    """Assess Casualties: roll a D6, a score of 5+ causes a hit."""
    game, state = gunnery((30, 20))
    for roll, hits in ((4, 0), (5, 1), (6, 1)):
        after, _ = act(game, state, Bombard(gun="g", target="t"), [roll])
        assert piece(after.units["t"]).hits == hits


def test_bombardment_needs_an_order() -> None:
    """Orders: an order is needed to order an artillery bombardment."""
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", 30, 20, 180)])
    state = position(game, phase="bombardment")
    assert codes(game, state, Bombard(gun="g", target="t")) == ["larger-battles.NOT_ORDERED"]
    state, _ = act(game, state, GiveOrder(target="artillery", purpose="bombard"))
    assert not codes(game, state, Bombard(gun="g", target="t"))


def test_an_order_to_bombard_that_would_fire_no_gun_is_refused() -> None:
    """Orders: an order is needed "to order an artillery bombardment"; one to a gun that
    has fired this turn, or that its command's order already covers, fires nothing."""
    game = make_game([unit("g", P, "artillery", 30, 5), unit("t", R, "foot", 30, 20, 180)])
    state = position(game, phase="bombardment")
    state, _ = act(game, state, GiveOrder(target="g", purpose="bombard"))
    fired, _ = act(game, state, Bombard(gun="g", target="t"), [4])
    assert codes(game, fired, GiveOrder(target="artillery", purpose="bombard")) == [
        "larger-battles.BOMBARDS_NOTHING"]
    refused = game.validate(fired, GiveOrder(target="artillery", purpose="bombard"))[0].message
    assert "has bombarded this turn" in refused
    by_command = GiveOrder(target="artillery", purpose="bombard")
    covered, _ = act(game, position(game, phase="bombardment"), by_command)
    own = GiveOrder(target="g", purpose="bombard")
    assert codes(game, covered, own) == ["larger-battles.BOMBARDS_NOTHING"]
    assert "already has a bombard order, its command's" in game.validate(covered, own)[0].message


def test_an_order_refused_names_the_command_as_players_call_it() -> None:
    """An order refused names a command as players call it, never by its id: by its
    commander, else by what it is ("horse" for ``r-horse``); a command of the other side's
    alone is named as the other side's."""
    pieces = [unit("f", P, "foot", 30, 5, command="left-wing"), unit("g", P, "artillery", 40, 5),
              unit("t", R, "foot", 30, 40, 180, command="r-horse")]
    game = make_game(pieces, commanders=[commander("c", P, 20, 5, command="left-wing")])
    state = position(game, phase="bombardment")
    leader = state.units["c"].label
    [silent] = game.validate(state, GiveOrder(target="left-wing", purpose="bombard"))
    assert silent.message == f"{leader}'s command has no artillery to bombard"
    state = position(game, orders=(("parliament:left-wing", "move"),))
    [again] = game.validate(state, GiveOrder(target="left-wing"))
    assert again.message == f"{leader}'s command already has a move order this turn"
    [theirs] = game.validate(state, GiveOrder(target="r-horse"))
    assert theirs.message == "the horse command is Royalist's, not Parliament's", theirs.message
    [unknown] = game.validate(state, GiveOrder(target="nowhere"))
    assert unknown.message == "'nowhere' is neither a unit nor a command of Parliament"


def test_bombardment_range_is_24_inches() -> None:
    """Measure Range: artillery have a range of 24"."""
    game, state = gunnery((30, 31))  # 31 - 1 - 6 = 24" edge to edge
    assert not codes(game, state, Bombard(gun="g", target="t"))
    game, state = gunnery((30, 31.5))
    assert codes(game, state, Bombard(gun="g", target="t")) == ["fighting.OUT_OF_RANGE"]


def test_target_must_be_directly_in_front() -> None:
    """Frontal Facing: the enemy unit must be directly in front of the artillery unit."""
    game, state = gunnery((36, 20))  # target spans x 34-38; gun's front spans 28.5-31.5
    assert codes(game, state, Bombard(gun="g", target="t")) == ["fighting.NOT_IN_FRONT"]


def test_no_bombardment_with_an_enemy_within_3() -> None:
    """"providing there are no enemy units with[in] 3" "."""
    game, state = gunnery((30, 20), unit("n", R, "horse", 34.5, 5, 270, command="left"))
    assert codes(game, state, Bombard(gun="g", target="t")) == ["fighting.ENEMY_TOO_CLOSE"]


def test_no_bombardment_of_units_engaged_in_combat() -> None:
    """"bombard enemy units not engaged in combat"."""
    game, state = gunnery((30, 20), unit("f", P, "foot", 34, 16))
    assert codes(game, state, Bombard(gun="g", target="t")) == ["fighting.TARGET_ENGAGED"]


def test_line_of_sight_blocked_by_woods() -> None:
    woods = {"type": "woods", "polygon": [[25, 10], [35, 10], [35, 12], [25, 12]]}
    game, state = gunnery((30, 20), terrain=[woods])
    assert codes(game, state, Bombard(gun="g", target="t")) == ["fighting.NO_LINE_OF_SIGHT"]
    game, state = gunnery((30, 20), terrain=[woods], bombard_needs_line_of_sight=False)
    assert not codes(game, state, Bombard(gun="g", target="t"))


def test_commander_contacted_retires_12_and_tests_misfortune() -> None:
    """Commander Attacks: if an enemy unit moves into contact with a commander, the commander
    must immediately retire 12" and take a misfortune test."""
    game = make_game([unit("h", P, "horse", 30, 20, command="right"), unit("e", R, "foot", 60, 45, 180)],
                     commanders=[commander("k", R, 30, 27, command="centre")])
    state = position(game, orders=(("h", "move"),))
    after, _ = act(game, state, Move(unit="h", waypoints=((30, 25),)), [4])
    k = after.units["k"]
    assert k.in_play and k.y == pytest.approx(39.0)
    after, _ = act(game, state, Move(unit="h", waypoints=((30, 25),)), [1])
    assert after.units["k"].removed == "misfortune"


def test_cavalry_reaching_a_supply_base_removes_both() -> None:
    """Supplies: if an enemy cavalry unit reaches a supply base it is removed along with the
    cavalry unit; the cavalry counts as lost, the supply towards victory points."""
    game = make_game([unit("h", P, "horse", 30, 38, command="right"), unit("e", R, "foot", 60, 30, 180)],
                     supplies=[{"side": R, "x": 30, "y": 47.5}])
    state = position(game, orders=(("h", "move"),))
    after, _ = act(game, state, Move(unit="h", waypoints=((30, 46),)))
    assert after.units["h"].removed == "raided"
    assert supplies_of(after)[0].raided_by == P
    assert score_breakdown(after, P, game.ruleset.options)["supplies_attacked"] == 3


def lost(state: GameState, uid: str, reason: str = "routed") -> GameState:
    return state.with_unit(state.units[uid].evolve(removed=reason))


def test_victory_points() -> None:
    """How to Win: +1 per routed enemy unit, -2 per commander lost, -4 for the general,
    +6 when the enemy is reduced by more than half."""
    game = make_game(
        [unit("p1", P, "foot", 10, 5), unit("p2", P, "foot", 20, 5), unit("p3", P, "foot", 30, 5),
         unit("r1", R, "foot", 10, 40, 180)],
        commanders=[commander("gen", P, 40, 5, general=True), commander("sub", P, 50, 5, command="left"),
                    commander("rk", R, 30, 45, general=True)],
    )
    state = position(game)
    state = lost(lost(state, "p1"), "p2")
    state = lost(lost(state, "gen", "misfortune"), "sub", "misfortune")
    b = score_breakdown(state, R, game.ruleset.options)
    assert b["routed_enemy_units"] == 2 and b["enemy_reduced_by_half"] == 6
    assert score_breakdown(state, P, game.ruleset.options)["commanders_lost"] == -6
    assert scores(state, game.ruleset.options) == {P: -6, R: 8}


def test_the_battle_ends_after_the_turn_limit() -> None:
    game = make_game([unit("p", P, "foot", 10, 5), unit("r", R, "foot", 60, 40, 180)], turns=1)
    state = position(game, phase="combat")
    state, _ = act(game, state, EndPhase())
    assert state.active == R and not state.is_over
    state = state.evolve(phase="combat")
    state, _ = act(game, state, EndPhase())
    assert state.is_over and state.result is not None and state.result["winner"] is None


def test_an_objective_taken_ends_the_battle() -> None:
    """How to Win: the battle ends when an objective is taken; +6 points."""
    game = make_game([unit("p", P, "foot", 30, 20), unit("r", R, "foot", 60, 40, 180)],
                     objectives=[{"name": "Radway", "x": 30, "y": 21, "radius": 3}])
    state = position(game, phase="combat")
    state, _ = act(game, state, EndPhase())
    assert state.is_over and state.objectives[0].taken_by == P
    assert state.result is not None and state.result["winner"] == P and state.result["score"][P] == 6
