"""The Charge yr Pikes! doctrine, second edition (the ``doctrine-2`` player): foot form
square only against horse that could charge them as things stand."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from typing import Any

import pytest

from tertia.activation.deck import group_card
from tertia.ai.lookup import baseline_for, doctrine_for, second_edition_for
from tertia.ai.players import make_player
from tertia.battle import Step, fight_battle
from tertia.core.actions import EndPhase, Move
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.actions import Charge, GiveFreeMove, JoinFrontRank, Reform
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine, _enemy_horse, _within, move_away
from tertia.rulesets.charge_yr_pikes.ai.doctrine2 import (
    FOOT_CHARGE,
    HORSE_AGAINST_FOOT,
    HORSE_AGAINST_HORSE,
    LEAST_WORTH,
    TAKING_CHARGE,
    CypDoctrine2,
    _clear_lane,
    _least_worth,
    _taking_lead,
    army_losses,
    bars_the_way,
    held_back_horse,
    in_shot,
    lost_points,
    objective_posts,
    objective_takers,
    on_lost_point,
)
from tertia.rulesets.charge_yr_pikes.ai.outlook import (
    FAILED_TO_STAND,
    charge_outlook,
    defending_fire,
    fire_where_it_stands,
    halt_ahead_of,
    melee_chances,
    pass_chance,
    share,
    volley,
)
from tertia.rulesets.charge_yr_pikes.army import fright_losses
from tertia.rulesets.charge_yr_pikes.charge import gun_support
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.command import in_command_radius
from tertia.rulesets.charge_yr_pikes.melee import casualties_from
from tertia.rulesets.charge_yr_pikes.morale import points_table
from tertia.rulesets.charge_yr_pikes.movement import allowance
from tertia.rulesets.charge_yr_pikes.musketry import firing_stands
from tertia.rulesets.charge_yr_pikes.points import OBJECTIVE, Place, objectives_occupied, places, reach
from tertia.rulesets.charge_yr_pikes.ruleset import reformed
from tertia.rulesets.charge_yr_pikes.tables import tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data
from tertia.rulesets.charge_yr_pikes.victory import degree_of_victory
from tertia.scenarios import resolve_scenario
from tests.test_cyp_doctrine import FAR, _on_card


def _game(scenario: str) -> Game:
    return Game(get_ruleset("charge-yr-pikes", secret_deployment=False),
                resolve_scenario(scenario, rules_id="charge-yr-pikes"))


class _Found(Exception):
    """Stops a battle at the position wanted."""

    def __init__(self, state: GameState, unit: Unit) -> None:
        self.state, self.unit = state, unit


def _first_square(game: Game) -> tuple[GameState, Unit]:
    """The position before the first edition's first square of a battle, and its unit."""
    sides = game.scenario.side_ids
    before: list[GameState] = []

    def watch(step: Step) -> None:
        if isinstance(step.action, Reform) and step.action.formation == "square":
            raise _Found(before[-1], before[-1].units[step.action.unit])
        before.append(step.state)

    players = {s: make_player("baseline") for s in sides}
    try:
        record = fight_battle(game, players, 1, on_step=watch, max_actions=2000)
    except _Found as found:
        return found.state, found.unit
    raise AssertionError(f"no square in a battle of {len(record.steps)} actions")


def test_the_second_edition_forms_no_square_against_horse_that_cannot_reach() -> None:
    """Naseby: the first edition's first square, against horse within 32"; the second
    edition forms it only if one of those horse has a clear charge within its reach that
    would pay it."""
    game = _game("naseby")
    state, unit = _first_square(game)
    tables = tables_of(state)
    assert isinstance(CypDoctrine()._square_call(game, state, unit, tables), Reform)
    near = [(e, reach) for e, reach in _enemy_horse(state, unit.side, tables) if _within(unit, e, reach)]
    assert near
    reachable = [e for e, reach in near
                 if (p := charge_path(game.table, state, e, unit)).blocked_by is None
                 and not p.off_table and p.length <= reach]
    paying = [e for e in reachable
              if charge_outlook(game, state, e, unit, tables, halt_ahead_of(e, unit)).worth
              >= HORSE_AGAINST_FOOT]
    second = CypDoctrine2()._square_call(game, state, unit, tables)
    assert isinstance(second, Reform) == bool(paying)


@pytest.mark.parametrize(("morale", "square"), [(1, True), (4, False)])
def test_foot_in_line_form_square_only_against_a_charge_that_would_pay_the_horse(morale: int, square: bool
                                                                                ) -> None:
    """Disordered foot with enemy horse 20" off, its way clear: the first edition forms
    square whatever; the second only when the horse's charge at the foot as they stand
    would come to its least worth against foot (steadier foot march on)."""
    game, state = _on_card({**FAR, "p-horse": (26.0, 32.0)}, ("k-foot",),
                           **{"k-foot": {"morale": morale, "disordered": True}})
    tables = tables_of(state)
    horse, foot = state.units["p-horse"], state.units["k-foot"]
    worth = charge_outlook(game, state, horse, foot, tables, halt_ahead_of(horse, foot)).worth
    assert (worth >= HORSE_AGAINST_FOOT) is square
    assert CypDoctrine().choose(game, state, random.Random(0)) == Reform(unit="k-foot", formation="square")
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Reform(unit="k-foot", formation="square")) is square
    assert square or (isinstance(chosen, Move) and game.is_legal(state, chosen))


@pytest.mark.parametrize("clear", [True, False])
def test_a_square_stays_formed_while_horse_could_charge_it(clear: bool) -> None:
    """Foot already in square keep it while enemy horse could charge them, whatever that
    charge would come to against a line (else they would form line and be charged), and
    form line once no horse could."""
    horse_at = (26.0, 32.0) if clear else (60.0, 44.0)
    game, state = _on_card({**FAR, "p-horse": horse_at}, ("k-foot",), **{"k-foot": {"morale": 5}})
    state = state.with_unit(reformed(state, state.units["k-foot"], "square"))
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Reform(unit="k-foot", formation="line")) is not clear


@pytest.mark.parametrize("gap", [0.05, 1.0, 3.0])
def test_a_second_line_comes_up_through_the_first_and_the_first_edition_stops_behind(gap: float) -> None:
    """Formations C: units move freely through friends so long as they do not end
    intermingled. Foot with a friend just ahead of them (their brigadier near enough that
    the move keeps them in his radius): the first edition stops at the friend's back (or
    cannot move at all); the second goes through it and ends clear beyond it."""
    game, state = _on_card(FAR, ("k-foot",))
    depth = state.units["k-foot"].depth
    pieces = {**FAR, "k-foot": (30.0, 10.0), "k-foot2": (30.0, 10.0 + depth + gap), "k-brig": (36.0, 14.0)}
    game, state = _on_card(pieces, ("k-foot",))
    tables = tables_of(state)
    unit, friend = state.units["k-foot"], state.units["k-foot2"]
    goal = (30.0, 44.0)
    first = CypDoctrine()._advance(game, state, unit, goal, tables)
    second = CypDoctrine2()._advance(game, state, unit, goal, tables)
    assert first is None or first.waypoints[-1][1] < friend.y
    assert second is not None and game.is_legal(state, second)
    assert second.waypoints[-1][1] - depth / 2 > friend.y + friend.depth / 2


def test_a_move_through_friends_keeps_within_the_officers_radius() -> None:
    """As every advance, a move through friends keeps the unit within its brigadier's
    command radius where it is in it now: with him well behind, the foot stay behind."""
    game, state = _on_card(FAR, ("k-foot",))
    depth = state.units["k-foot"].depth
    game, state = _on_card({**FAR, "k-foot": (30.0, 10.0), "k-foot2": (30.0, 11.0 + depth)}, ("k-foot",))
    unit, officer = state.units["k-foot"], state.units["k-brig"]
    assert in_command_radius(officer, unit)
    second = CypDoctrine2()._advance(game, state, unit, (30.0, 44.0), tables_of(state))
    assert second is None or (in_command_radius(officer, unit, second.waypoints[-1])
                              and second.waypoints[-1][1] < state.units["k-foot2"].y)


def test_with_its_way_clear_the_second_edition_advances_as_the_first() -> None:
    game, state = _on_card({**FAR, "k-foot": (30.0, 10.0), "k-foot2": (24.5, 10.0)}, ("k-foot",))
    tables = tables_of(state)
    unit = state.units["k-foot"]
    first = CypDoctrine()._advance(game, state, unit, (30.0, 44.0), tables)
    assert first is not None
    assert CypDoctrine2()._advance(game, state, unit, (30.0, 44.0), tables) == first


@pytest.mark.parametrize("in_the_way", ["p-brig", "p-musk"])
def test_an_enemy_officer_at_large_is_never_in_the_way_and_a_regiment_is(in_the_way: str) -> None:
    """4 F: an officer in no unit's front rank is never in an enemy's way (he is moved to
    safety when a move would cover him), so the second edition plans its advance as
    though he were not there, where the first edition's stops at his base; a regiment of
    his stood in the same place stops both editions' short of 3" from it."""
    def advances(there: tuple[float, float]) -> tuple[Move | None, Move | None, GameState]:
        pieces = {**FAR, "k-foot": (30.0, 10.0), "k-foot2": (24.5, 10.0), "k-brig": (36.0, 16.0),
                  in_the_way: there}
        game, state = _on_card(pieces, ("k-foot",))
        unit, tables = state.units["k-foot"], tables_of(state)
        return (CypDoctrine()._advance(game, state, unit, (30.0, 44.0), tables),
                CypDoctrine2()._advance(game, state, unit, (30.0, 44.0), tables), state)

    def gone(move: Move | None) -> float:
        return 0.0 if move is None else math.dist((30.0, 10.0), move.waypoints[-1])

    first_clear, second_clear, _ = advances((10.0, 30.0))
    first, second, state = advances((31.0, 14.0))
    assert gone(second_clear) > 3.0 and gone(first_clear) == gone(second_clear)
    if in_the_way == "p-brig":
        assert second == second_clear
        assert gone(first) < gone(first_clear) - 1.0
    else:
        assert second == first and gone(second) < gone(second_clear) - 1.0
        foot = state.units["k-foot"]
        assert second is None or base_distance(foot.base.moved_to(*second.waypoints[-1]),
                                               state.units[in_the_way].base) >= 3.0 - 0.01


def test_the_second_edition_stands_in_square_less() -> None:
    game = _game("naseby")
    sides = game.scenario.side_ids

    def squares(name: str) -> int:
        record = fight_battle(game, {s: make_player(name) for s in sides}, 2, max_actions=1500)
        return sum(1 for st in record.steps
                   if isinstance(st.action, Reform) and st.action.formation == "square")

    assert squares("doctrine-2") < squares("baseline")


def test_the_second_edition_is_the_doctrine_and_the_first_the_baseline() -> None:
    ruleset = get_ruleset("charge-yr-pikes")
    assert doctrine_for(ruleset) is CypDoctrine2
    assert second_edition_for(ruleset) is CypDoctrine2  # doctrine-2 plays the doctrine
    assert baseline_for(ruleset) is CypDoctrine


# --- charges weighed by what they are expected to come to (outlook) ----------------------


def _brute_melee(mine: int, theirs: int) -> tuple[Fraction, Fraction, Fraction]:
    """12 E-G by every face of every die: the chances of dealing more, as many and fewer
    casualties."""
    win = tie = lose = Fraction(0)
    weight = Fraction(1, 6 ** (mine + theirs))
    for faces in itertools.product(range(1, 7), repeat=mine + theirs):
        a = casualties_from(sum(faces[:mine]), "down")
        b = casualties_from(sum(faces[mine:]), "down")
        win, tie, lose = win + weight * (a > b), tie + weight * (a == b), lose + weight * (a < b)
    return win, tie, lose


@pytest.mark.parametrize("mine, theirs", [(1, 1), (2, 1), (3, 2), (2, 4), (0, 2)])
def test_the_close_combats_chances_are_those_of_every_face_of_the_dice(mine: int, theirs: int) -> None:
    chances = melee_chances(mine, theirs, "down")
    expected = _brute_melee(mine, theirs)
    assert (chances.win, chances.tie, chances.lose) == pytest.approx(tuple(map(float, expected)), abs=1e-12)


def test_a_morale_tests_chance_is_a_d6_on_the_rating_and_its_modifiers() -> None:
    _, state = _on_card(FAR, ("k-foot",), **{"k-foot": {"morale": 2}})
    tables = tables_of(state)
    unit = state.units["k-foot"]
    assert pass_chance(tables, state, unit) == pytest.approx(3 / 6)  # 2 + a 4 or more
    disordered = unit.evolve(own=unit_data(unit).evolve(disordered=True))
    assert pass_chance(tables, state.with_unit(disordered), disordered) < pass_chance(tables, state, unit)
    untested = unit.evolve(own=unit_data(unit).evolve(morale=None))
    line = points_table(tables, unit_data(unit))
    assert pass_chance(tables, state.with_unit(untested), untested) == pytest.approx(
        sum(min(6, max(0, 1 + line.points_for(face))) for face in range(1, 7)) / 36)


def test_horse_leave_a_battery_with_canister_and_foot_by_it_and_take_one_left_alone() -> None:
    """The first edition's horse charge any gun; the second weighs the canister and the
    steady foot beside it that would fight for it (section 10), and takes a battery
    standing alone and facing away."""
    covered = {**FAR, "p-gun": (50.0, 24.0), "p-foot": (47.0, 24.0)}
    game, state = _on_card(covered, ("k-horse",), **{"p-foot": {"morale": 5}})
    assert gun_support(state, "p-gun")
    assert CypDoctrine().choose(game, state, random.Random(0)) == Charge(unit="k-horse", target="p-gun")
    assert CypDoctrine2().choose(game, state, random.Random(0)) != Charge(unit="k-horse", target="p-gun")
    alone = {**FAR, "p-gun": (50.0, 24.0)}
    game, state = _on_card(alone, ("k-horse",), **{"p-gun": {}})
    state = state.with_unit(state.units["p-gun"].evolve(facing=0.0))
    assert not gun_support(state, "p-gun")
    assert CypDoctrine2().choose(game, state, random.Random(0)) == Charge(unit="k-horse", target="p-gun")


def test_a_supported_batterys_supporters_are_not_reckoned_to_test_to_stand() -> None:
    """Section 10: gunners with a friend within 4" do not rout, and the supporters fight for
    them; neither tests to stand (12 C is the charged unit's test, and the battery takes
    none). The outlook of a charge at the battery reckons no chance of the supporters
    failing to stand, so steady and shaky supporters change it only through the test the
    losers of the combat take (12 F), where a charge at the foot themselves gains more from
    shaky foot, who may fail to stand."""
    covered = {**FAR, "p-gun": (50.0, 24.0), "p-foot": (47.0, 24.0)}
    gains = {}
    for morale in (5, 1):
        game, state = _on_card(covered, ("k-horse",), **{"p-foot": {"morale": morale}})
        tables = tables_of(state)
        horse, gun, foot = state.units["k-horse"], state.units["p-gun"], state.units["p-foot"]
        gains[morale] = (charge_outlook(game, state, horse, gun, tables).gain,
                         charge_outlook(game, state, horse, foot, tables).gain,
                         pass_chance(tables, state, foot))
    (at_gun_steady, at_foot_steady, holds_steady), (at_gun_shaky, at_foot_shaky, holds_shaky) = \
        gains[5], gains[1]
    assert holds_shaky < holds_steady
    beaten = [(1 - h) + h / 3 for h in (holds_steady, holds_shaky)]  # 12 F: routed, or fallen back
    # at the battery: the shaky supporters' worse chance in 12 F alone, nothing for 12 C
    assert at_gun_shaky / at_gun_steady == pytest.approx(beaten[1] / beaten[0], rel=0.02)
    assert at_foot_shaky / at_foot_steady > beaten[1] / beaten[0] * 1.05


def test_waiting_horse_draw_back_out_of_musket_shot_and_the_first_edition_stands() -> None:
    """Horse with steady enemy foot within 12" and no charge worth making wait; the second
    edition draws them back from the muskets (12" long range) instead of standing to be
    shot."""
    steady = {"p-foot": {"morale": 5}}
    game, state = _on_card({**FAR, "p-foot": (57.0, 19.0)}, ("k-horse2",), **steady)
    assert CypDoctrine().choose(game, state, random.Random(0)) == EndPhase()
    back = CypDoctrine2().choose(game, state, random.Random(0))
    assert isinstance(back, Move) and back.unit == "k-horse2" and game.is_legal(state, back)
    foot, horse = state.units["p-foot"], state.units["k-horse2"]
    (x, y), = back.waypoints
    assert base_distance(horse.base.moved_to(x, y), foot.base) > base_distance(horse.base, foot.base) + 5.0


@pytest.mark.parametrize(("morale", "charges"), [(2, True), (3, False)])
def test_horse_charge_horse_only_with_a_clear_edge(morale: int, charges: bool) -> None:
    """Against horse a charge must be expected to come to HORSE_AGAINST_HORSE of the enemy
    army; against any other foe LEAST_WORTH is enough."""
    game, state = _on_card({**FAR, "p-horse2": (57.0, 30.0)}, ("k-horse2",),
                           **{"p-horse2": {"morale": morale}})
    tables = tables_of(state)
    worth = charge_outlook(game, state, state.units["k-horse2"], state.units["p-horse2"], tables).worth
    assert worth > LEAST_WORTH
    assert (worth >= HORSE_AGAINST_HORSE) is charges
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Charge(unit="k-horse2", target="p-horse2")) is charges


@pytest.mark.parametrize(("morale", "charges"), [(3, True), (2, False)])
def test_against_foot_horse_need_their_least_worth_against_foot(morale: int, charges: bool) -> None:
    game, state = _on_card({**FAR, "p-foot": (50.0, 19.0)}, ("k-horse",),
                           **{"p-foot": {"morale": 2}, "k-horse": {"morale": morale}})
    worth = charge_outlook(game, state, state.units["k-horse"], state.units["p-foot"], tables_of(state)).worth
    assert (HORSE_AGAINST_FOOT <= worth < HORSE_AGAINST_HORSE) is charges
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Charge(unit="k-horse", target="p-foot")) is charges


def test_the_least_worth_of_a_charge_by_what_charges_what() -> None:
    """Horse against horse need a clear edge, horse against foot more than the least,
    horse against a battery the least, and foot a little short of even against anything."""
    _, state = _on_card(FAR, ())
    units = {k: unit_data(state.units[k]) for k in ("k-horse", "k-foot", "p-horse", "p-foot", "p-gun")}
    assert _least_worth(units["k-horse"], units["p-horse"]) == HORSE_AGAINST_HORSE
    assert _least_worth(units["k-horse"], units["p-foot"]) == HORSE_AGAINST_FOOT
    assert _least_worth(units["k-horse"], units["p-gun"]) == LEAST_WORTH
    assert _least_worth(units["k-foot"], units["p-horse"]) == FOOT_CHARGE
    assert _least_worth(units["k-foot"], units["p-foot"]) == FOOT_CHARGE
    assert FOOT_CHARGE < 0 < LEAST_WORTH < HORSE_AGAINST_FOOT < HORSE_AGAINST_HORSE


@pytest.mark.parametrize(("morale", "charges"), [(3, True), (1, False)])
def test_foot_charge_foot_a_little_short_of_even_and_no_further(morale: int, charges: bool) -> None:
    """Foot 6" from enemy foot of their own morale: at 3 the charge is expected to come
    a little short of even, within FOOT_CHARGE, and is made; at 1 well short, and is not."""
    k_foot = _on_card(FAR, ())[1].units["k-foot"]
    game, state = _on_card({**FAR, "p-foot": (k_foot.x, k_foot.y + 6.0)}, ("k-foot",),
                           **{"k-foot": {"morale": morale}, "p-foot": {"morale": morale}})
    worth = charge_outlook(game, state, state.units["k-foot"], state.units["p-foot"], tables_of(state)).worth
    assert worth < LEAST_WORTH
    assert (worth >= FOOT_CHARGE) is charges
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Charge(unit="k-foot", target="p-foot")) is charges


def test_a_volley_is_the_firing_stands_dice_by_the_range() -> None:
    """Musketry: 3-6 hit within 6", 5-6 within 12", none beyond or out of the arc."""
    _, state = _on_card(FAR, ("k-musk",))
    tables = tables_of(state)
    musk = state.units["k-musk"]
    stands = len(firing_stands(musk, tables))
    assert stands > 0
    for gap, per_stand in ((4.0, 4 / 6), (9.0, 2 / 6), (14.0, 0.0)):
        target = state.units["p-musk"].evolve(x=musk.x, y=musk.y + musk.depth / 2 + gap)
        assert volley(state, musk, target, tables) == pytest.approx(stands * per_stand)
    behind = state.units["p-musk"].evolve(x=musk.x, y=musk.y - 5.0)
    assert volley(state, musk, behind, tables) == 0.0
    assert volley(state, state.units["k-horse"], state.units["p-musk"], tables) == 0.0


def test_in_shot_is_within_the_muskets_or_canisters_reach_in_front_of_the_firer() -> None:
    """Muskets reach 12" (and, stepping up, 12" and their normal move), canister 12" from
    a field gun; not behind the firer, nor from routed foot."""
    _, state = _on_card({**FAR, "p-foot": (20.0, 30.0)}, ("k-horse",))
    tables = tables_of(state)
    horse, foot = state.units["k-horse"], state.units["p-foot"]
    front = foot.y - foot.depth / 2 - horse.depth / 2  # the horse's centre touching the foot's front
    assert in_shot(state, horse, (20.0, front - 11.0), tables)
    assert not in_shot(state, horse, (20.0, front - 14.0), tables)
    assert in_shot(state, horse, (20.0, front - 14.0), tables, stepping_up=True)  # foot move 8"
    assert not in_shot(state, horse, (20.0, front - 21.0), tables, stepping_up=True)
    assert not in_shot(state, horse, (20.0, foot.y + 8.0), tables)  # behind it
    routed = state.with_unit(foot.evolve(own=unit_data(foot).evolve(formation="routed")))
    assert not in_shot(routed, horse, (20.0, front - 11.0), tables)
    gun = state.units["p-gun"]
    assert in_shot(state, horse, (gun.x, gun.y - gun.depth / 2 - horse.depth / 2 - 11.0), tables)


@pytest.mark.parametrize("facing", [180.0, 0.0])
def test_advancing_horse_stop_short_of_the_muskets_and_the_first_edition_ride_on(facing: float) -> None:
    """Horse with nothing to charge advance no nearer enemy foot facing them than the
    foot could shoot them after a move of their own; foot facing away change nothing."""
    game, state = _on_card({**FAR, "p-foot": (57.0, 38.0)}, ("k-horse2",), **{"p-foot": {"morale": 5}})
    state = state.with_unit(state.units["p-foot"].evolve(facing=facing))
    tables = tables_of(state)
    horse = state.units["k-horse2"]
    first = CypDoctrine()._advance(game, state, horse, (57.0, 44.0), tables)
    second = CypDoctrine2()._advance(game, state, horse, (57.0, 44.0), tables)
    assert first is not None and second is not None and game.is_legal(state, second)
    if facing == 0.0:
        assert second == first
        return
    assert in_shot(state, horse, first.waypoints[-1], tables, stepping_up=True)
    assert not in_shot(state, horse, second.waypoints[-1], tables, stepping_up=True)
    assert horse.y < second.waypoints[-1][1] < first.waypoints[-1][1]


@pytest.mark.parametrize("hemmed", [False, True])
def test_waiting_horse_hemmed_in_behind_step_back_aside_out_of_shot(hemmed: bool) -> None:
    """Horse drawing back from the muskets go straight back when the way is clear; with a
    friend close behind, where the straight move stops short in shot, they step back
    obliquely out of shot."""
    pieces = {**FAR, "p-foot": (57.0, 19.0), **({"k-foot": (57.0, 8.0)} if hemmed else {})}
    game, state = _on_card(pieces, ("k-horse2",), **{"p-foot": {"morale": 5}})
    tables = tables_of(state)
    horse, foot = state.units["k-horse2"], state.units["p-foot"]
    straight = move_away(game, state, horse, [foot], tables)
    assert straight is not None
    back = CypDoctrine2().choose(game, state, random.Random(0))
    assert isinstance(back, Move) and game.is_legal(state, back)
    assert not in_shot(state, horse, back.waypoints[-1], tables)
    assert in_shot(state, horse, straight.waypoints[-1], tables) is hemmed
    assert (back == straight) is not hemmed


def test_musketeers_already_under_the_fire_reckon_neither_it_nor_its_test_a_cost_of_charging() -> None:
    """A charger takes the defenders' fire as it halts and tests if it loses men (12 A).
    Musketeers standing where that same fire reaches them would take it, and test, where
    they stand: charging costs them neither. Out of its reach, the charge costs both."""
    risks = {}
    for y in (39.0, 25.0):  # 4" before the foot, at close range; far out of any musket's reach
        pieces = {**FAR, "p-foot2": (4.0, 44.0), "p-musk": (10.0, 44.0), "k-musk": (26.0, y)}
        game, state = _on_card(pieces, ("k-musk",))
        tables = tables_of(state)
        musk, foot = state.units["k-musk"], state.units["p-foot"]
        halt = (26.0, foot.y - foot.depth / 2 - 1.0 - musk.depth / 2)
        hits = defending_fire(state, musk, halt, tables)
        assert hits > 0
        assert fire_where_it_stands(state, musk, tables) == (hits if y == 39.0 else 0.0)
        risks[y] = charge_outlook(game, state, musk, foot, tables, halt).risk
    fails = (1 - math.exp(-hits)) * (1 - pass_chance(tables, state, musk)) * FAILED_TO_STAND
    cost = (fails + hits / unit_data(musk).figures) * share(state, musk, tables)
    assert risks[25.0] - risks[39.0] == pytest.approx(cost)


KING_OBJECTIVES = {"left": (20.0, 40.0), "centre": (36.0, 40.0), "right": (52.0, 40.0)}


def _in_fright(state: GameState, *sides: str) -> GameState:
    return state.evolve(own=game_data(state).evolve(fright=sides))


def test_once_the_enemy_takes_fright_a_whole_tertia_goes_to_each_objective() -> None:
    """19 C: all three objectives occupied wins; 4 A: "no unit may leave its tertia". Once
    the enemy army has taken fright (15 L), each free tertia goes whole, its troops in good
    order (no gun), to one objective, the nearest pair of tertia and objective first; none
    are sent before, nor once the side's own army alone has taken fright."""
    _, state = _on_card(FAR, ())
    assert objective_takers(state, "king") == {}
    assert objective_takers(_in_fright(state, "king"), "king") == {}
    frightened = _in_fright(state, "parl")
    takers = objective_takers(frightened, "king")
    assert sorted(takers) == ["k-drag", "k-foot", "k-foot2", "k-horse", "k-horse2", "k-musk"]
    tertias = {t: [u for u in takers if frightened.units[u].command == t] for t in ("k1", "k2")}
    goals = {t: {takers[u] for u in units} for t, units in tertias.items()}
    objectives = places(frightened, "king", OBJECTIVE)

    def gap(tertia: str, p: Place) -> float:  # a tertia is as near as its nearest regiment
        return min(reach(frightened.units[u], p) for u in tertias[tertia])

    _, first, nearest = min((gap(t, p), t, p) for p in objectives for t in tertias)
    other = next(t for t in tertias if t != first)
    second = min((p for p in objectives if p != nearest), key=lambda p: gap(other, p))
    assert goals == {first: {(nearest.x, nearest.y)}, other: {(second.x, second.y)}}


def _with_losses(state: GameState, lost: dict[str, int | str]) -> GameState:
    """``state`` with each unit named having lost that many figures, or removed so."""
    for unit_id, loss in lost.items():
        unit = state.units[unit_id]
        if isinstance(loss, str):
            state = state.with_unit(unit.evolve(removed=loss))
        else:
            own = unit_data(unit)
            state = state.with_unit(unit.evolve(own=own.evolve(men=own.men - loss)))
    return state


def test_objectives_are_taken_once_the_enemy_is_beaten_on_the_field() -> None:
    """Before the enemy army takes fright (15 L), tertias go for the objectives once its
    share of figures off the table (the count of 15 L) stands 10 points or more above the
    side's own, the bound of a tactical victory (19 F). One figure more lost by the side,
    or the lead the enemy's, and none go."""
    _, state = _on_card(FAR, ())
    tables = tables_of(state)
    beaten = _with_losses(state, {"p-horse": "destroyed"})
    enemy_share = fright_losses(beaten, "parl", tables).percent

    def gap(king_lost: int) -> Fraction:
        lost = _with_losses(beaten, {"k-horse": king_lost})
        return enemy_share - fright_losses(lost, "king", tables).percent

    most = max(n for n in range(unit_data(state.units["k-horse"]).men) if gap(n) >= 10)
    assert degree_of_victory(gap(most), tables.victory) == "tactical"
    assert degree_of_victory(gap(most + 1), tables.victory) == "marginal"
    sent = objective_takers(_with_losses(beaten, {"k-horse": most}), "king")
    assert sorted(sent) == ["k-drag", "k-foot", "k-foot2", "k-horse", "k-horse2", "k-musk"]
    assert objective_takers(_with_losses(beaten, {"k-horse": most + 1}), "king") == {}
    assert objective_takers(beaten, "parl") == {}
    assert objective_takers(state, "king") == {}


def test_an_armys_losses_are_counted_again_whenever_a_counted_piece_changes() -> None:
    """15 L's count, as the doctrine remembers it (:func:`army_losses`), is the count made
    afresh at every position of a whole battle, for each side in turn, though it is asked
    of positions far apart and of both sides; and the count changes in the battle."""
    game = _game("edgehill")
    sides = game.scenario.side_ids
    record = fight_battle(game, {s: make_player("doctrine") for s in sides}, 2)
    tables = tables_of(record.steps[0].state)
    seen = set()
    for step in [*record.steps[::7], *record.steps[::-11]]:
        for side in sides:
            counted = fright_losses(step.state, side, tables)
            assert army_losses(step.state, side, tables) == counted
            seen.add((side, counted.lost))
    assert len(seen) > 2 * len(sides)


def _objective_moved(state: GameState, name: str, x: float, y: float) -> GameState:
    """``state`` with the king's objective ``name`` ("left", "centre", "right") at (x, y)."""
    at = KING_OBJECTIVES[name]
    points = tuple((*p[:4], x, y) if p[1] == OBJECTIVE and p[0] == "king" and (p[4], p[5]) == at else p
                   for p in game_data(state).points)
    assert points != game_data(state).points
    return state.evolve(own=game_data(state).evolve(points=points))


@pytest.mark.parametrize(("centre_x", "one_post"), [(48.0, True), (45.0, False)])
def test_objectives_a_regiment_between_them_would_hold_together_are_one_post(centre_x: float,
                                                                              one_post: bool) -> None:
    """19 C: a side occupies an objective while a regiment of its own in good order stands
    within 3" (hold_within) of it. Two objectives each within 3" of their midst are one
    post, its midst, where one regiment holds both (the rule's own count says so), and
    one tertia is sent there, the other to the third; 7" apart, each is a post of its
    own, and the tertias go to the nearest two."""
    _, state = _on_card(FAR, ())
    state = _in_fright(_objective_moved(state, "centre", centre_x, 41.0), "parl")
    posts = objective_posts(state, "king")
    midst = ((centre_x + 52.0) / 2, 40.5)
    assert (midst in [(p.x, p.y) for p in posts]) is one_post
    assert len(posts) == (2 if one_post else 3)
    goals = set(objective_takers(state, "king").values())
    if one_post:
        assert goals == {midst, KING_OBJECTIVES["left"]}
        holding = state.with_unit(state.units["k-horse"].evolve(x=midst[0], y=midst[1]))
        assert objectives_occupied(holding, "king", tables_of(holding)) == 2
    else:
        assert midst not in goals and len(goals) == 2


def test_a_guard_is_not_sent_to_an_objective() -> None:
    """A vital point's guard stays its guard (an enemy within 24" of the king's left vital
    point calls k-foot to it): the next nearest go in its place."""
    _, state = _on_card({**FAR, "p-foot": (20.0, 24.0)}, ())
    takers = objective_takers(_in_fright(state, "parl"), "king")
    assert "k-foot" not in takers and "k-gun" not in takers
    assert sorted(takers) == ["k-drag", "k-foot2", "k-horse", "k-horse2", "k-musk"]


def test_horse_sent_to_an_objective_go_where_they_would_have_waited() -> None:
    """Horse with enemy foot within 12" and no charge worth making wait out of shot; sent
    to take an objective once the enemy takes fright, they make for it instead."""
    forward = {"k-horse": (50.0, 28.0), "k-horse2": (57.0, 28.0), "k-drag": (64.0, 28.0)}  # the tertia
    aside = {"p-horse": (8.0, 46.0), "p-horse2": (14.0, 46.0)}  # none holds the objective
    game, state = _on_card({**FAR, **forward, **aside, "p-foot": (64.0, 40.0)}, ("k-horse2",))
    goal = KING_OBJECTIVES["right"]
    before = math.dist((57.0, 28.0), goal)
    waited = CypDoctrine2().choose(game, state, random.Random(0))
    assert not (isinstance(waited, Move) and math.dist(waited.waypoints[-1], goal) < before - 1.0)
    frightened = _in_fright(state, "parl")
    assert objective_takers(frightened, "king")["k-horse2"] == goal
    sent = CypDoctrine2().choose(game, frightened, random.Random(0))
    assert isinstance(sent, Move) and sent.unit == "k-horse2" and game.is_legal(frightened, sent)
    assert math.dist(sent.waypoints[-1], goal) < before - 1.0



def test_a_regiment_sent_to_an_objective_charges_the_foe_holding_it_at_a_worse_outlook() -> None:
    """A foe standing on the objective a regiment is sent to is charged at an outlook
    (TAKING_CHARGE) below what horse ask against horse (HORSE_AGAINST_HORSE): the battle
    the point would win is worth more than the figures. Before the enemy takes fright the
    same horse hold back."""
    forward = {"k-horse": (50.0, 28.0), "k-horse2": (57.0, 28.0), "k-drag": (64.0, 28.0)}
    game, state = _on_card({**FAR, **forward, "p-foot": (64.0, 40.0)}, ("k-horse2",))
    tables = tables_of(state)
    horse, holder = state.units["k-horse2"], state.units["p-horse"]
    assert bars_the_way(horse, holder, KING_OBJECTIVES["right"])
    worth = charge_outlook(game, state, horse, holder, tables, halt_ahead_of(horse, holder)).worth
    assert TAKING_CHARGE <= worth < HORSE_AGAINST_HORSE
    assert not isinstance(CypDoctrine2().choose(game, state, random.Random(0)), Charge)
    frightened = _in_fright(state, "parl")
    charge = CypDoctrine2().choose(game, frightened, random.Random(0))
    assert charge == Charge(unit="k-horse2", target="p-horse")


@pytest.mark.parametrize(("wagons_at", "charged"), [((52.0, 41.0), True), ((66.0, 34.0), False)])
def test_a_regiment_sent_to_an_objective_charges_the_baggage_train_on_its_way(
        wagons_at: tuple[float, float], charged: bool) -> None:
    """The wagons hold no point (19 C) but stand in the way of troops going to one, and
    they are charged as guns are: with no friend within 4" to fight for them they rout
    (section 10). A regiment sent to an objective charges wagons on it or on its straight
    way there; wagons beside its way, or any before the enemy takes fright, are let be."""
    forward = {"k-horse": (50.0, 28.0), "k-horse2": (57.0, 28.0), "k-drag": (64.0, 28.0)}
    away = {"p-foot2": (10.0, 56.0), "p-musk": (16.0, 56.0), "p-horse": (22.0, 56.0),
            "p-horse2": (28.0, 56.0), "p-drag": (34.0, 56.0)}
    game, state = _on_card({**FAR, **forward, **away, "p-foot": wagons_at}, ("k-horse2",),
                           **{"p-foot": {"troop": "wagons"}})
    horse, wagons = state.units["k-horse2"], state.units["p-foot"]
    assert gun_support(state, "p-foot") == ()
    assert bars_the_way(horse, wagons, KING_OBJECTIVES["right"]) is charged
    assert CypDoctrine2().choose(game, state, random.Random(0)) != Charge(unit="k-horse2", target="p-foot")
    frightened = _in_fright(state, "parl")
    assert objective_takers(frightened, "king")["k-horse2"] == KING_OBJECTIVES["right"]
    chosen = CypDoctrine2().choose(game, frightened, random.Random(0))
    assert (chosen == Charge(unit="k-horse2", target="p-foot")) is charged


def test_once_tertias_are_sent_the_free_move_goes_to_the_one_farthest_from_its_objective() -> None:
    """19 C asks every objective occupied at once, so once tertias are sent to them the free
    move goes to the sent tertia farthest from its objective, or first to one that failed
    its response this turn; before any is sent, the first edition's choice (the tertia
    nearest the enemy)."""
    _, state = _on_card(FAR, ())
    assert CypDoctrine2._free_move(state) == CypDoctrine._free_move(state)
    frightened = _in_fright(state, "parl")
    takers = objective_takers(frightened, "king")
    gaps: dict[str, float] = {}
    for unit_id, spot in takers.items():
        unit = frightened.units[unit_id]
        gaps[unit.command] = min(gaps.get(unit.command, math.inf), math.dist((unit.x, unit.y), spot))
    laggard, ahead = sorted(gaps, key=lambda t: -gaps[t])
    chosen = CypDoctrine2._free_move(frightened)
    assert chosen == GiveFreeMove(tertia=laggard) != CypDoctrine._free_move(frightened)
    failed = frightened.evolve(own=game_data(frightened).evolve(deck_drawn=(group_card(ahead, "king"),)))
    assert CypDoctrine2._free_move(failed) == GiveFreeMove(tertia=ahead)


def test_a_foe_bars_the_way_on_the_straight_line_to_the_goal_or_on_the_goal() -> None:
    _, state = _on_card(FAR, ())
    horse = state.units["k-horse"]  # at (50, 10)
    foe = state.units["p-horse"]
    assert bars_the_way(horse, foe.evolve(x=51.0, y=25.0), (52.0, 40.0))  # on the way
    assert bars_the_way(horse, foe.evolve(x=54.0, y=42.0), (52.0, 40.0))  # on the goal
    assert not bars_the_way(horse, foe.evolve(x=62.0, y=25.0), (52.0, 40.0))  # beside the way
    assert not bars_the_way(horse, foe.evolve(x=52.0, y=55.0), (52.0, 40.0))  # beyond the goal


def test_a_tertia_sent_to_an_objective_moves_the_regiment_farthest_from_it_first() -> None:
    """4 A: each regiment must end within 6" of a mate; the one farthest behind moves first,
    so that each may end ahead of the rest. Before the enemy takes fright, the card's order."""
    moving = ("k-horse", "k-horse2", "k-drag")
    _, state = _on_card(FAR, moving)
    assert tuple(CypDoctrine2()._in_turn(state, moving)) == moving
    frightened = _in_fright(state, "parl")
    goal = objective_takers(frightened, "king")["k-horse"]
    by_gap = sorted(moving, key=lambda u: -math.dist((frightened.units[u].x, frightened.units[u].y), goal))
    assert tuple(CypDoctrine2()._in_turn(frightened, moving)) == tuple(by_gap) != moving


def test_only_a_regiment_sent_to_an_objective_looks_again_on_its_card() -> None:
    """A regiment sent to an objective that did nothing on its card looks again once a
    friend has acted (its way may be clear now); before the enemy takes fright none is
    sent, and a gun is never sent, so none of them does."""
    _, state = _on_card(FAR, ("k-foot", "k-gun"))
    player, foot, gun, friend = CypDoctrine2(), "k-foot", "k-gun", state.units["k-foot2"]

    def looks(position: GameState, piece: str, doctrine: CypDoctrine = player) -> bool:
        return doctrine._looks_again(position, position.units[piece], friend)

    assert not looks(state, foot)
    frightened = _in_fright(state, "parl")
    assert looks(frightened, foot) and not looks(frightened, gun)
    assert not looks(frightened, foot, CypDoctrine())


def _facing_off(foe_at: tuple[float, float], horse_at: tuple[float, float],
                **values: Any) -> tuple[Game, GameState]:
    """k-horse2 on its card at ``horse_at`` facing p-horse at ``foe_at`` (south of it),
    morale 3: a charge between it and horse is worth less than HORSE_AGAINST_HORSE."""
    game, state = _on_card({**FAR, "k-horse": (40.0, 20.0), "k-horse2": horse_at, "p-horse": foe_at},
                           ("k-horse2",), **{"k-horse2": {"morale": 3}}, **values)
    state = state.with_unit(state.units["p-horse"].evolve(facing=0.0))
    return game, state.with_unit(state.units["k-horse2"].evolve(facing=180.0))


@pytest.mark.parametrize("on_the_point", [True, False])
def test_a_foe_holding_a_vital_point_is_charged_at_a_worse_outlook(on_the_point: bool) -> None:
    """15 L: each vital point the enemy holds adds one to the army's roll for fright, so a
    foe holding one (the king's right, at (52, 8)) is charged at TAKING_CHARGE, though
    horse against horse ask HORSE_AGAINST_HORSE; the same foe 16" off it, at the same
    outlook, is not."""
    shift = 0.0 if on_the_point else 16.0
    game, state = _facing_off((52.0, 8.0 + shift), (52.0, 22.0 + shift))
    horse, foe = state.units["k-horse2"], state.units["p-horse"]
    assert (lost_points(state, "king") == ((52.0, 8.0),)) is on_the_point
    assert on_lost_point(state, foe) is on_the_point
    worth = charge_outlook(game, state, horse, foe, tables_of(state), halt_ahead_of(horse, foe)).worth
    assert TAKING_CHARGE <= worth < HORSE_AGAINST_HORSE
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Charge(unit="k-horse2", target="p-horse")) is on_the_point


@pytest.mark.parametrize("plundering", [None, "at_train"])
def test_horse_plundering_on_the_table_are_charged_as_any_foe(plundering: str | None) -> None:
    """Plunder C: horse plundering at the train "if attacked by enemy, they fight as
    disordered": they are foes like any other, and the more worth charging."""
    game, state = _facing_off((52.0, 8.0), (52.0, 22.0), **{"p-horse": {"plundering": plundering}})
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert chosen == Charge(unit="k-horse2", target="p-horse")


def test_a_brigadier_leads_the_regiment_of_his_tertia_sent_nearest_its_objective() -> None:
    """4 A: a unit may not leave its tertia "unless accompanied by a general". Once the
    enemy takes fright, the brigadier of a tertia sent to an objective leads the regiment
    of it nearest the objective (he rides to it, and joins its front rank once touching);
    before, he does not, and the army's general never does."""
    game, state = _on_card(FAR, ("k-brig",))
    brigadier, general = state.units["k-brig"], state.units["k-gen"]
    assert _taking_lead(state, brigadier) is None
    frightened = _in_fright(state, "parl")
    takers = objective_takers(frightened, "king")
    sent = [u for u in takers if frightened.units[u].command == "k1"]
    nearest = min(sent, key=lambda u: (math.dist((frightened.units[u].x, frightened.units[u].y), takers[u]),
                                       u))
    led = _taking_lead(frightened, brigadier)
    assert led is not None and led.id == nearest
    assert _taking_lead(frightened, general) is None
    ride = CypDoctrine2()._order(game, frightened, brigadier)
    assert isinstance(ride, Move) and game.is_legal(frightened, ride)
    assert base_distance(brigadier.base.moved_to(*ride.waypoints[-1]), led.base) < 0.01
    beside = frightened.with_unit(brigadier.evolve(x=ride.waypoints[-1][0], y=ride.waypoints[-1][1]))
    assert CypDoctrine2()._order(game, beside, beside.units["k-brig"]) == JoinFrontRank("k-brig", led.id)


@pytest.mark.parametrize("led", [True, False])
def test_a_regiment_led_to_an_objective_goes_its_full_move_beyond_its_tertia(led: bool) -> None:
    """4 A: a regiment with an officer in its front rank may go more than 6" from every
    other unit of its tertia: sent to an objective so led, it goes its whole move towards
    it, though the army's general stands by (no officer's 8" radius holds it back); unled,
    it may go no further from its mates than 6"."""
    game, state = _on_card({**FAR, "k-gen": (27.0, 5.0)}, ("k-foot",))
    if led:
        foot = state.units["k-foot"]
        officer = state.units["k-brig"].evolve(x=foot.x, y=foot.y - 1.5)
        state = state.with_unit(officer.evolve(own=unit_data(officer).evolve(attached_to="k-foot")))
    frightened = _in_fright(state, "parl")
    goal = objective_takers(frightened, "king")["k-foot"]
    foot = frightened.units["k-foot"]
    move = CypDoctrine2()._order(game, frightened, foot)
    assert isinstance(move, Move) and game.is_legal(frightened, move)
    gone = math.dist((foot.x, foot.y), move.waypoints[-1])
    full = allowance(tables_of(frightened), unit_data(foot), on_road=False) or 0.0
    mates = [u for u in frightened.iter_troops("king") if u.command == "k1" and u.id != "k-foot"
             and not unit_data(u).is_officer and not unit_data(u).is_gun]
    apart = min(base_distance(foot.base.moved_to(*move.waypoints[-1]), m.base) for m in mates)
    assert math.dist(move.waypoints[-1], goal) < math.dist((foot.x, foot.y), goal)
    assert (gone > full - 0.01 and apart > 6.0) is led
    assert apart <= 6.0 + 1e-6 or led


def test_a_regiment_sent_to_an_objective_steps_clear_of_friends_barring_its_charge() -> None:
    """12 A: a charge may not go through a piece in the way. A regiment sent to an
    objective that can go no nearer it, and whose charge at the foe barring its way a
    friend stands in, steps, without turning, to where the charge is clear; with no friend
    in the way it makes no such step."""
    pieces = {**FAR, "k-horse": (57.0, 24.0), "k-horse2": (57.0, 18.0), "p-horse": (57.0, 34.0)}
    game, state = _on_card(pieces, ("k-horse2",), **{"k-horse2": {"morale": 3}})
    frightened = _in_fright(state, "parl")
    goal = objective_takers(frightened, "king")["k-horse2"]
    horse, foe = frightened.units["k-horse2"], frightened.units["p-horse"]
    assert bars_the_way(horse, foe, goal)
    assert charge_path(game.table, frightened, horse, foe).blocked_by == frightened.units["k-horse"].label
    step = _clear_lane(game, frightened, horse, goal, tables_of(frightened))
    assert isinstance(step, Move) and game.is_legal(frightened, step)
    stepped = horse.evolve(x=step.waypoints[-1][0], y=step.waypoints[-1][1])
    assert stepped.facing == horse.facing
    assert charge_path(game.table, frightened.with_unit(stepped), stepped, foe).blocked_by is None
    clear = frightened.with_unit(frightened.units["k-horse"].evolve(x=40.0, y=20.0))
    assert _clear_lane(game, clear, clear.units["k-horse2"], goal, tables_of(clear)) is None
    both = _in_fright(frightened, "parl", "king")
    assert objective_takers(both, "king")["k-horse2"] == goal
    assert _clear_lane(game, both, both.units["k-horse2"], goal, tables_of(both)) is None  # held back


def test_with_no_enemy_troops_left_a_regiment_sent_goes_on_and_the_first_edition_stands() -> None:
    """19 C: occupying the objectives wins the battle. With no enemy troops left on the
    table a regiment sent to an objective still makes for it, where the first edition,
    with no foe to measure itself against, stood idle to darkness."""
    game, state = _on_card(FAR, ("k-horse2",))
    gone = [u.evolve(removed="routed") for u in state.iter_units() if u.side == "parl" and not u.is_commander]
    frightened = _in_fright(state.with_units(gone), "parl")
    goal = objective_takers(frightened, "king")["k-horse2"]
    before = math.dist((frightened.units["k-horse2"].x, frightened.units["k-horse2"].y), goal)
    sent = CypDoctrine2().choose(game, frightened, random.Random(0))
    assert isinstance(sent, Move) and sent.unit == "k-horse2" and game.is_legal(frightened, sent)
    assert math.dist(sent.waypoints[-1], goal) < before - 1.0
    stood = CypDoctrine().choose(game, frightened, random.Random(0))
    assert not isinstance(stood, Move), stood


@pytest.mark.parametrize(("frightened", "charges"), [((), True), (("parl",), True), (("king",), False),
                                                     (("parl", "king"), False)])
def test_horse_of_an_army_that_has_taken_fright_hold_back_from_a_charge_that_would_pay(
        frightened: tuple[str, ...], charges: bool) -> None:
    """15 L: an army that has taken fright tests again every turn, and each fright lowers
    the morale of every unit that has lost men and routs those at 1. Its horse make no
    charge that would otherwise pay (at foot, at least HORSE_AGAINST_FOOT); the enemy's
    fright does not hold them back."""
    game, state = _on_card({**FAR, "p-foot": (50.0, 19.0)}, ("k-horse",),
                           **{"p-foot": {"morale": 2}, "k-horse": {"morale": 3}})
    state = _in_fright(state, *frightened)
    horse, foot = state.units["k-horse"], state.units["p-foot"]
    assert held_back_horse(state, horse) is not charges
    assert charge_outlook(game, state, horse, foot, tables_of(state)).worth >= HORSE_AGAINST_FOOT
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert (chosen == Charge(unit="k-horse", target="p-foot")) is charges
    assert game.is_legal(state, chosen)


def test_horse_of_an_army_that_has_taken_fright_still_charge_a_foe_holding_a_vital_point() -> None:
    """15 L: each vital point the enemy holds adds one to the roll for fright: held back
    as they are, horse of an army in fright charge a foe holding one (the king's right, at
    (52, 8)) at TAKING_CHARGE; foot are not held back."""
    game, state = _facing_off((52.0, 8.0), (52.0, 22.0))
    state = _in_fright(state, "king")
    assert held_back_horse(state, state.units["k-horse2"])
    assert not held_back_horse(state, state.units["k-foot"])
    assert on_lost_point(state, state.units["p-horse"])
    chosen = CypDoctrine2().choose(game, state, random.Random(0))
    assert chosen == Charge(unit="k-horse2", target="p-horse")
