"""Officers taking and leaving a unit's front rank during the battle (Glossary, IN THE FRONT
RANK: "a general who is touching a friendly unit and is fighting with the unit"; Tertias
and officers 4 C, D, G; Close combat A: attached officers move with their brigade,
unattached ones on the Officers & Artillery card)."""

from __future__ import annotations

import random
from functools import cache

import pytest

from tertia.activation.deck import group_card, read_card
from tertia.ai.players import make_player
from tertia.core.actions import Action, Move
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.io.narrative import Narrator
from tertia.rules.involuntary import on_table
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.actions import JoinFrontRank, LeaveFrontRank
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, touching
from tertia.rulesets.charge_yr_pikes.cards import moved_by, on_officers_card
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import ROUTED
from tertia.rulesets.charge_yr_pikes.fallback import fall_back
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.scenarios import resolve_scenario

from .cyp_melee_support import DEPTH, WIDTH, officer, piece, state_of, tx_with


@cache
def _officers_card() -> tuple[Game, GameState]:
    """Edgehill, played by the baseline until the Royalist Officers & Artillery card is
    turned with its officers free to move."""
    game = Game(get_ruleset("charge-yr-pikes"), resolve_scenario("edgehill", rules_id="charge-yr-pikes"))
    dice = SeededDice(3)
    state, _ = game.start(dice)
    players = {s: make_player("baseline") for s in state.sides}
    rng = random.Random(1)
    for _ in range(3000):
        card = game_data(state).card
        if (state.pending is None and card is not None and read_card(card).name == "officers_and_artillery"
                and any(unit_data(state.units[u]).is_officer for u in game_data(state).moving)):
            return game, state
        state, _ = game.apply(state, players[state.to_act].choose(game, state, rng), dice)
    raise AssertionError("no Officers & Artillery card with officers to move")


def _touching(state: GameState, officer_id: str, unit_id: str) -> GameState:
    """``officer_id`` put touching ``unit_id`` (behind it), as a move would leave him."""
    officer, unit = state.units[officer_id], state.units[unit_id]
    spot = touching(unit.base, officer.base.moved_to(unit.x, unit.y))
    return state.with_unit(officer.evolve(x=spot.x, y=spot.y))


def _codes(game: Game, state: GameState, action: Action) -> list[str]:
    return [str(v.code) for v in game.validate(state, action)]


def _brigadier_and_units(state: GameState) -> tuple[Unit, Unit, Unit]:
    """A Royalist brigadier free to move, a unit of his tertia and a unit of another."""
    for officer_id in game_data(state).moving:
        officer = state.units[officer_id]
        if unit_data(officer).rank != "brigadier":
            continue
        troops = [u for u in state.iter_troops(officer.side)
                  if not unit_data(u).is_officer and not unit_data(u).is_gun]
        own = [u for u in troops if u.command == officer.command]
        other = [u for u in troops if u.command != officer.command]
        if own and other:
            return officer, own[0], other[0]
    raise AssertionError("no brigadier with a tertia of his own")


def test_an_officer_touching_a_unit_of_his_tertia_joins_its_front_rank_on_his_card() -> None:
    game, start = _officers_card()
    officer, unit, _ = _brigadier_and_units(start)
    state = _touching(start, officer.id, unit.id)
    join = JoinFrontRank(officer=officer.id, unit=unit.id)
    assert game.validate(state, join) == []
    after, events = game.apply(state, join, SeededDice(1))
    assert unit_data(after.units[officer.id]).attached_to == unit.id
    assert [o.id for o in front_rank_officers(after, unit.id)] == [officer.id]
    # He now moves with the unit's tertia, not on the Officers & Artillery card ...
    assert not on_officers_card(after.units[officer.id])
    assert officer.id in [u.id for u in moved_by(after, group_card(unit.command, unit.side))]
    # ... and joining was his act on this card.
    step = Move(unit=officer.id, waypoints=((after.units[officer.id].x + 1, after.units[officer.id].y),))
    assert str(CypCode.ALREADY_MOVED) in _codes(game, after, step)
    told = " ".join(Narrator(state).lines(events))
    assert f"{officer.label} joins the front rank of {unit.label}" in told


def test_joining_needs_touching_his_own_command_and_a_unit_that_fights() -> None:
    game, start = _officers_card()
    officer, unit, stranger = _brigadier_and_units(start)
    far = start.with_unit(start.units[officer.id].evolve(x=unit.x + 20.0, y=unit.y))
    assert _codes(game, far, JoinFrontRank(officer.id, unit.id)) == [str(CypCode.NOT_TOUCHING)]
    beside_other = _touching(start, officer.id, stranger.id)
    assert _codes(game, beside_other, JoinFrontRank(officer.id, stranger.id)) == [
        str(CypCode.NOT_HIS_COMMAND)]
    routed = _touching(start, officer.id, unit.id)
    routed = routed.with_unit(routed.units[unit.id].evolve(formation=ROUTED))
    assert _codes(game, routed, JoinFrontRank(officer.id, unit.id)) == [str(CypCode.ROUTED_UNIT)]
    enemy = next(u for u in start.iter_troops(start.opponent(officer.side)) if not unit_data(u).is_officer)
    assert _codes(game, _touching(start, officer.id, enemy.id), JoinFrontRank(officer.id, enemy.id)) == [
        "core.UNKNOWN_UNIT"]


def test_the_army_general_may_join_any_tertia() -> None:
    game, start = _officers_card()
    general = next(start.units[u] for u in game_data(start).moving
                   if unit_data(start.units[u]).rank == "army")
    _, _, stranger = _brigadier_and_units(start)
    assert stranger.command != general.command
    state = _touching(start, general.id, stranger.id)
    assert game.validate(state, JoinFrontRank(general.id, stranger.id)) == []


def _joined(game: Game, start: GameState) -> tuple[GameState, Unit, Unit]:
    officer, unit, _ = _brigadier_and_units(start)
    state = _touching(start, officer.id, unit.id)
    return game.apply(state, JoinFrontRank(officer.id, unit.id), SeededDice(1))[0], officer, unit


def test_an_officer_leaves_a_front_rank_on_his_card_and_stands_where_he_is() -> None:
    game, start = _officers_card()
    state, officer, unit = _joined(game, start)
    assert _codes(game, state, JoinFrontRank(officer.id, unit.id)) == [str(CypCode.IN_FRONT_RANK)]
    leave = LeaveFrontRank(officer=officer.id)
    assert game.validate(state, leave) == []
    after, events = game.apply(state, leave, SeededDice(1))
    assert unit_data(after.units[officer.id]).attached_to is None
    assert (after.units[officer.id].x, after.units[officer.id].y) == (state.units[officer.id].x,
                                                                      state.units[officer.id].y)
    assert front_rank_officers(after, unit.id) == ()
    assert f"{officer.label} leaves the front rank" in " ".join(Narrator(state).lines(events))
    assert _codes(game, after, leave) == [str(CypCode.NOT_IN_FRONT_RANK)]


def test_an_officer_may_not_leave_a_routed_unit() -> None:
    """4 D: "Said leader may not leave a routed unit till it rallies"."""
    game, start = _officers_card()
    state, officer, unit = _joined(game, start)
    routed = state.with_unit(state.units[unit.id].evolve(formation=ROUTED))
    assert _codes(game, routed, LeaveFrontRank(officer.id)) == [str(CypCode.ROUTED_UNIT)]


@pytest.mark.parametrize("kind", ["join", "leave"])
def test_front_ranks_are_taken_and_left_only_on_the_officers_own_card(kind: str) -> None:
    game, start = _officers_card()
    state, officer, unit = _joined(game, start)
    if kind == "join":
        state = start
    elsewhere = state.evolve(own=game_data(state).evolve(card=group_card(unit.command, unit.side)))
    action: Action = JoinFrontRank(officer.id, unit.id) if kind == "join" else LeaveFrontRank(officer.id)
    assert _codes(game, elsewhere, action) == [str(CypCode.NOT_MOVING)]


def test_an_officer_may_ride_up_to_a_unit_and_join_it_on_the_same_card() -> None:
    game, start = _officers_card()
    officer, unit, _ = _brigadier_and_units(start)
    spot = touching(unit.base, officer.base.moved_to(unit.x, unit.y))
    ride = Move(unit=officer.id, waypoints=((spot.x, spot.y),))
    assert game.validate(start, ride) == []
    state = game.apply(start, ride, SeededDice(1))[0]
    assert officer.id in game_data(state).moved_on_card
    after = game.apply(state, JoinFrontRank(officer.id, unit.id), SeededDice(1))[0]
    assert unit_data(after.units[officer.id]).attached_to == unit.id
    assert game_data(after).moved_on_card.count(officer.id) == 1


def test_the_page_and_terminal_offer_joining_aimed_at_the_unit_and_leaving_as_a_button() -> None:
    from tertia.offers import unit_offers

    game, start = _officers_card()
    officer, unit, stranger = _brigadier_and_units(start)
    state = _touching(start, officer.id, unit.id)
    shown = set(state.units)
    joins = [o for o in unit_offers(game, state, state.units[officer.id], shown)
             if o.kind.type == "cyp_join_front_rank"]
    assert [(o.target, o.action) for o in joins] == [(unit.id, JoinFrontRank(officer.id, unit.id))]
    assert joins[0].label == f"{officer.label} joins the front rank of {unit.label}"
    assert stranger.id not in {o.target for o in joins}
    joined = game.apply(state, joins[0].action, SeededDice(1))[0]
    leaves = [o.action for o in unit_offers(game, joined, joined.units[officer.id], shown)
              if o.kind.type == "cyp_leave_front_rank"]
    assert leaves == [LeaveFrontRank(officer.id)]


def _enemy_within_charge_of(state: GameState, unit: Unit, inches: float) -> GameState:
    """The enemy's nearest troop put ``inches`` straight ahead of ``unit``'s front."""
    from tertia.core.geometry import heading_vector

    enemy = min((u for u in state.iter_troops(state.opponent(unit.side)) if not unit_data(u).is_officer),
                key=lambda u: (u.x - unit.x) ** 2 + (u.y - unit.y) ** 2)
    fx, fy = heading_vector(unit.facing)
    ahead = unit.depth / 2 + enemy.depth / 2 + inches
    return state.with_unit(enemy.evolve(x=unit.x + fx * ahead, y=unit.y + fy * ahead,
                                        facing=(unit.facing + 180) % 360))


def test_the_second_edition_puts_a_brigadier_in_front_of_a_regiment_within_an_enemy_charge() -> None:
    """Its officers take a front rank when a test is near: a brigadier rides up to the
    regiment of his tertia with an enemy within its charge move, then joins it; with the
    enemy beyond, he does not. The first edition never does."""
    from tertia.core.geometry import base_distance
    from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine
    from tertia.rulesets.charge_yr_pikes.ai.doctrine2 import CypDoctrine2
    from tertia.rulesets.charge_yr_pikes.movement import charge_allowance
    from tertia.rulesets.charge_yr_pikes.tables import tables_of

    game, start = _officers_card()
    officer, unit, _ = _brigadier_and_units(start)
    reach = charge_allowance(tables_of(start), unit_data(unit))
    close = _enemy_within_charge_of(start, unit, reach - 1.0)
    player = CypDoctrine2()
    ride = player._order(game, close, close.units[officer.id])
    assert isinstance(ride, Move) and game.validate(close, ride) == []
    assert ride != CypDoctrine()._order(game, close, close.units[officer.id])
    rode = game.apply(close, ride, SeededDice(1))[0]
    join = player._follow_up(game, rode, officer.id)
    assert isinstance(join, JoinFrontRank) and game.validate(rode, join) == []
    led = rode.units[join.unit]
    assert led.command == officer.command
    enemies = [e for e in rode.iter_troops(rode.opponent(led.side)) if not unit_data(e).is_officer]
    assert min(base_distance(led.base, e.base) for e in enemies) <= charge_allowance(
        tables_of(rode), unit_data(led))
    assert CypDoctrine()._follow_up(game, rode, officer.id) is None
    # With no enemy in any charge's reach he does as the first edition does.
    far = start
    for enemy in list(start.iter_troops(start.opponent(officer.side))):
        far = far.with_unit(enemy.evolve(y=enemy.y + (200.0 if enemy.y > unit.y else -200.0)))
    assert player._order(game, far, far.units[officer.id]) == CypDoctrine()._order(
        game, far, far.units[officer.id])


def test_an_officer_in_a_front_rank_moves_only_with_his_unit() -> None:
    """Close combat A: "Attached officers move with their brigade": on his unit's card he
    has no move of his own; leaving the front rank (on his own card), he has again."""
    game, start = _officers_card()
    state, officer, unit = _joined(game, start)
    on_card = state.evolve(own=game_data(state).evolve(
        card=group_card(unit.command, unit.side), moving=(officer.id, unit.id), moved_on_card=()))
    here = on_card.units[officer.id]
    step = Move(unit=officer.id, waypoints=((here.x + 5.0, here.y),))
    assert _codes(game, on_card, step) == [str(CypCode.IN_FRONT_RANK)]
    free = on_card.with_unit(here.evolve(attached_to=None))
    assert game.validate(free, step) == []


@pytest.mark.parametrize("start_y", [5.0, 20.0])
def test_a_front_rank_officer_falling_back_with_his_unit_stays_on_the_table(start_y: float) -> None:
    """Whatever carries a unit carries its front-rank officers the same way (4 D); where
    the unit stops with its rear on the table's edge, its officer stays on the table at
    the edge rather than being carried past it; away from the edge he moves as far as it."""
    regiment = piece("a", "king", "foot", 30.0, start_y, facing=0.0)
    behind = regiment.y - regiment.depth / 2 - 0.5
    brigadier = officer("o", "king", "a", x=30.0, y=behind)
    tx = tx_with(state_of(regiment, brigadier))
    fall_back(tx, default_tables(), "a", "lost a melee")
    moved = tx.state.units["a"]
    carried = tx.state.units["o"]
    assert on_table(carried.base, (WIDTH, DEPTH))
    assert unit_data(carried).attached_to == "a"
    drop = regiment.y - moved.y
    assert drop > 0
    if moved.y - moved.depth / 2 > 0.01:  # not at the edge: carried just as far
        assert carried.y == pytest.approx(behind - drop)
    else:
        assert behind - drop < carried.base.depth / 2  # carried as far, he would be off it
        assert carried.y == pytest.approx(carried.base.depth / 2, abs=1e-3)


@pytest.mark.parametrize("start_y", [12.0, 30.0])
def test_a_front_rank_officer_moving_with_his_unit_stays_on_the_table(start_y: float) -> None:
    """An officer in a front rank goes where his unit goes (4 D). Where the unit's own move
    ends at the table's edge with him beyond its side there, he stays on the table at the
    edge, with his unit, rather than being carried past it; away from the edge he moves
    just as far as it."""
    regiment = piece("a", "king", "horse", 30.0, start_y, facing=180.0)
    ahead = regiment.y - regiment.depth / 2 - 0.5
    brigadier = officer("o", "king", "a", x=30.0, y=ahead)
    tx = tx_with(state_of(regiment, brigadier))
    to = max(regiment.depth / 2 + 0.2, start_y - 12.0)  # at the edge from 12", else 12" on
    ChargeYrPikes()._move(tx, default_tables(), Move(unit="a", waypoints=((30.0, to),)))
    moved, carried = tx.state.units["a"], tx.state.units["o"]
    drop = regiment.y - moved.y
    assert drop > 1.0
    assert on_table(carried.base, (WIDTH, DEPTH)) and unit_data(carried).attached_to == "a"
    if ahead - drop - carried.base.depth / 2 > 0:  # not at the edge: carried just as far
        assert carried.y == pytest.approx(ahead - drop)
    else:
        assert carried.y == pytest.approx(carried.base.depth / 2, abs=1e-3)
