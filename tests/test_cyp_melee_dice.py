"""Charge yr Pikes! close combat dice (section 12 D): the dice for each troop type's stands
at full strength, and each additional line on both sides of its condition."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tertia.core.geometry import Base
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind
from tertia.rulesets.charge_yr_pikes.charge import Charge
from tertia.rulesets.charge_yr_pikes.data import CypUnit
from tertia.rulesets.charge_yr_pikes.melee_dice import (
    HARD,
    SOFT,
    WORKS,
    Fighter,
    UnitDice,
    fighters_of,
    stand_dice,
    unit_dice,
)
from tertia.rulesets.charge_yr_pikes.tables import default_tables, tables_with
from tertia.rulesets.charge_yr_pikes.troops import TROOPS

from .cyp_melee_support import officer, piece, state_of, table_with

T = default_tables()


def of(troop: str, **values: object) -> CypUnit:
    return CypUnit.of(TROOPS[troop], **values)


@pytest.mark.parametrize(("unit", "dice"), [
    (of("foot"), 6),                        # 4 pike stands, 4 shot stands in two pairs
    (of("foot", pike=15), 5),               # a pike casualty stand does not fight
    (of("foot", shot=14), 5),               # 3 full shot stands: one pair, the odd one idle
    (of("foot", shot=12), 5),
    (of("foot", shot=11), 5),
    (of("foot", shot=8), 5),
    (of("foot", shot=7), 4),
    (of("highlanders"), 6),                 # a die a full stand, as pikes
    (of("highlanders", shot=23), 5),
    (of("horse"), 5),                       # a die a full cavalry stand
    (of("horse", men=14), 4),
    (of("lobsters"), 5),
    (of("scots_horse"), 5),
    (of("dragoons"), 3),                    # six 3-man stands mounted: three pairs
    (of("dragoons", mounted=False, men=16, per_stand=4), 2),  # four 4-man stands on foot
    (of("musketeers"), 2),
    (of("musketeers", shot=20), 2),         # five stands: two pairs and one left over
    (of("artillery", gun="field"), 0),      # gunners will not stand
])
def test_dice_for_the_stands_at_full_strength(unit: CypUnit, dice: int) -> None:
    assert stand_dice(unit, odd_stand_fights=False) == dice


@pytest.mark.parametrize(("unit", "dice"), [
    (of("musketeers", shot=20), 3), (of("foot", shot=12), 6), (of("dragoons", men=15), 3),
    (of("musketeers"), 2),
])
def test_the_option_counts_an_odd_musketeer_or_dragoon_stand_as_a_die(unit: CypUnit, dice: int) -> None:
    assert stand_dice(unit, odd_stand_fights=True) == dice


def test_fatigued_men_stand_out_of_the_fight_like_casualties() -> None:
    # Special rules B: "Fatigued men do not fight in close combat that turn."
    assert stand_dice(of("foot", fatigued=4), odd_stand_fights=False) == 4  # 2 pike, 2 shot out
    assert stand_dice(of("horse", fatigued=3), odd_stand_fights=False) == 4
    assert stand_dice(of("horse", fatigued=0), odd_stand_fights=False) == 5


# --- the additional dice, line by line ------------------------------------------------------------


def dice_of(state: GameState, fighter: Fighter, *others: Fighter, table: Battlefield | None = None,
            graded: bool = True) -> UnitDice:
    fighters = {f.unit: f for f in (fighter, *others)}
    return unit_dice(T, table or table_with(), state, fighter, fighters, graded=graded)


def lines(result: UnitDice) -> dict[str, int]:
    return {why: n for n, why in result.lines}


def duel(mine: Unit, theirs: Unit, **extra: Unit) -> GameState:
    return state_of(mine, theirs, *extra.values())


def me(troop: str = "foot", **own: Any) -> Unit:
    return piece("me", "king", troop, 20.0, 10.0, **own)


def foe(troop: str = "foot", **own: Any) -> Unit:
    return piece("foe", "parl", troop, 20.0, 12.0, 180.0, **own)


def attacker(**kw: object) -> Fighter:
    return Fighter("me", ("foe",), True, **kw)  # type: ignore[arg-type]


def defender(**kw: object) -> Fighter:
    return Fighter("me", ("foe",), False, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(("obstacle", "troop", "why", "n"), [
    (SOFT, "foot", "defending a soft obstacle", 1),
    (HARD, "foot", "defending a hard obstacle", 2),
    (WORKS, "foot", "foot defending works or a town", 3),
    (WORKS, "musketeers", "foot defending works or a town", 3),
])
def test_obstacles_defended_add_dice(obstacle: str, troop: str, why: str, n: int) -> None:
    result = dice_of(duel(me(troop), foe("horse")), defender(obstacle=obstacle))
    assert lines(result) == {why: n}
    assert dice_of(duel(me(troop), foe("horse")), defender()).lines == ()


def test_horse_in_works_is_no_foot_defending_them() -> None:
    assert "foot defending works or a town" not in lines(
        dice_of(duel(me("horse"), foe()), defender(obstacle=WORKS)))


@pytest.mark.parametrize(("their_troop", "moved", "gets"), [
    ("horse", False, True), ("horse", True, False), ("lobsters", False, True), ("foot", False, False)])
def test_horse_against_horse_that_stood_still(their_troop: str, moved: bool, gets: bool) -> None:
    result = dice_of(duel(me("horse", moved=True), foe(their_troop, moved=moved)), attacker())
    assert ("horse fighting horse that stood still" in lines(result)) is gets


def test_foot_against_horse_that_stood_still_gets_nothing() -> None:
    assert dice_of(duel(me("foot"), foe("horse")), attacker()).lines == ()


@pytest.mark.parametrize(("troop", "pistols", "gets"), [
    ("horse", True, True), ("horse", False, False), ("dragoons", True, False)])
def test_pistol_fire_costs_a_die(troop: str, pistols: bool, gets: bool) -> None:
    # Special rules C: "-1 D6 in close combat" (12 D's "+1" line is the same thing, signed so).
    result = dice_of(duel(me(troop), foe()), attacker(pistols=pistols))
    assert lines(result).get("horse attacking with pistol fire") == (-1 if gets else None)


def test_a_club_reading_pistol_fire_as_plus_one_says_so_in_its_tables() -> None:
    dice = {**T.melee.dice.model_dump(), "pistol_fire": 1}
    plus = tables_with({"melee": {**T.melee.model_dump(), "dice": dice}})
    state = duel(me("horse"), foe())
    f = attacker(pistols=True)
    assert lines(unit_dice(plus, table_with(), state, f, {"me": f}))["horse attacking with pistol fire"] == 1


@pytest.mark.parametrize(("elite", "n"), [(True, 6 + 1), (False, 6)])
def test_elite_adds_a_die(elite: bool, n: int) -> None:
    assert dice_of(duel(me(elite=elite), foe()), attacker()).dice == n


@pytest.mark.parametrize(("their_troop", "their", "their_fighter", "gets"), [
    ("musketeers", {}, None, True),
    ("highlanders", {}, None, True),
    ("dragoons", {"mounted": False, "men": 16, "per_stand": 4}, None, True),
    ("foot", {}, None, False),                                   # pikes
    ("foot", {"pike": 0}, None, True),                           # its pikes all lost
    ("musketeers", {}, Fighter("foe", ("me",), False, obstacle=SOFT), False),  # behind a hedge
    ("dragoons", {}, None, False),                               # mounted: not foot
])
def test_horse_against_foot_without_pikes_in_the_open(their_troop: str, their: dict[str, object],
                                                      their_fighter: Fighter | None, gets: bool) -> None:
    others = () if their_fighter is None else (their_fighter,)
    result = dice_of(duel(me("horse"), foe(their_troop, **their)), attacker(), *others)
    assert ("horse fighting foot without pikes" in lines(result)) is gets


def test_foot_without_pikes_in_a_town_are_sheltered() -> None:
    town = TerrainFeature("town", outline=((15.0, 11.0), (25.0, 11.0), (25.0, 16.0), (15.0, 16.0)))
    result = dice_of(duel(me("horse"), foe("musketeers")), attacker(), table=table_with(town))
    assert "horse fighting foot without pikes" not in lines(result)
    assert lines(result)["horse fighting in a town"] == -1


@pytest.mark.parametrize(("flank", "n"), [(True, 4), (False, 6)])
def test_attacked_in_flank_or_rear_costs_two_dice(flank: bool, n: int) -> None:
    assert dice_of(duel(me(), foe()), defender(flank_or_rear=flank)).dice == n


@pytest.mark.parametrize(("mine", "theirs", "gets"), [
    ("horse", "lobsters", True), ("lobsters", "lobsters", True), ("horse", "horse", False),
    ("foot", "lobsters", False)])
def test_cavalry_against_lobsters(mine: str, theirs: str, gets: bool) -> None:
    assert ("cavalry fighting lobsters" in lines(dice_of(duel(me(mine), foe(theirs)), attacker()))) is gets


@pytest.mark.parametrize(("troop", "gets"), [("scots_horse", True), ("horse", False)])
def test_scots_horse_lose_a_die(troop: str, gets: bool) -> None:
    assert ("Scots cavalry" in lines(dice_of(duel(me(troop), foe()), attacker()))) is gets


@pytest.mark.parametrize(("bands", "n"), [(True, 5), (False, 6)])
def test_trained_bands_lose_a_die(bands: bool, n: int) -> None:
    assert dice_of(duel(me(trained_bands=bands), foe()), defender()).dice == n


@pytest.mark.parametrize(("x", "gets"), [(20.0, True), (40.0, False)])
def test_horse_fighting_in_a_town(x: float, gets: bool) -> None:
    town = TerrainFeature("town", outline=((15.0, 8.0), (25.0, 8.0), (25.0, 11.0), (15.0, 11.0)))
    mine = piece("me", "king", "horse", x, 10.0)
    theirs = piece("foe", "parl", "foot", x, 14.0, 180.0)
    result = dice_of(duel(mine, theirs), attacker(), table=table_with(town))
    assert ("horse fighting in a town" in lines(result)) is gets


@pytest.mark.parametrize(("fighter", "gets"), [(attacker(uphill=True), True), (attacker(), False),
                                               (defender(uphill=True), False)])
def test_moving_uphill_to_attack_costs_a_die(fighter: Fighter, gets: bool) -> None:
    assert ("moved uphill to attack" in lines(dice_of(duel(me(), foe()), fighter))) is gets


@pytest.mark.parametrize(("own", "gets"), [({"disordered": True}, True), ({}, False),
                                           ({"plundering": "at_train"}, True),
                                           ({"plundering": "returning"}, False)])
def test_disordered_units_and_horse_plundering_the_train_lose_a_die(own: dict[str, Any],
                                                                    gets: bool) -> None:
    assert ("disordered" in lines(dice_of(duel(me("horse", **own), foe()), defender()))) is gets


@pytest.mark.parametrize(("rank", "grade", "graded", "n"), [
    ("brigadier", "effective", True, 1), ("brigadier", "natural_born_leader", True, 2),
    ("army", "ineffective", True, 0), ("army", "ineffective", False, 2), ("army", None, True, 2),
    ("staff", None, True, 1), ("wing", None, False, 1)])
def test_an_officer_in_the_front_rank_adds_his_dice(rank: str, grade: str | None, graded: bool,
                                                    n: int) -> None:
    state = duel(me(), foe(), o=officer("o", "king", "me", rank, grade))
    assert dice_of(state, attacker(), graded=graded).dice == 6 + n


def test_an_officer_with_another_unit_adds_nothing() -> None:
    state = duel(me(), foe(), o=officer("o", "king", "elsewhere", "army"))
    assert dice_of(state, attacker()).dice == 6


def test_every_line_adds_and_a_unit_never_rolls_fewer_than_none() -> None:
    result = dice_of(duel(me("musketeers", disordered=True, trained_bands=True), foe()),
                     defender(flank_or_rear=True))
    assert (result.stands, sum(n for n, _ in result.lines), result.dice) == (2, -4, 0)


def test_a_battery_never_rolls_whatever_its_position() -> None:
    state = duel(piece("me", "king", "artillery", 20.0, 10.0), foe())
    assert dice_of(state, defender(obstacle=WORKS)).dice == 0


# --- the situation, from the charges and the ground -----------------------------------------------


def charge(start: Base, attacker_id: str = "a", target: str = "d") -> Charge:
    return Charge(attacker_id, target, start)


def two(table: Battlefield | None = None, **target: object) -> tuple[GameState, Base]:
    a = piece("a", "king", "horse", 20.0, 10.0)
    d = piece("d", "parl", "foot", 20.0, 12.0, 180.0, **target)
    return state_of(a, d), a.base.moved_to(20.0, 2.0)


def test_fighters_of_a_charge_are_the_attacker_and_its_target() -> None:
    state, start = two()
    fighters = fighters_of(table_with(), state, [charge(start)], pistols=["a"])
    assert fighters == (Fighter("a", ("d",), True, pistols=True), Fighter("d", ("a",), False))


@pytest.mark.parametrize(("kind", "obstacle"), [("hedge", SOFT), ("fence", SOFT), ("wall", HARD),
                                                ("entrenchment", WORKS), ("stream", None)])
def test_a_defender_holds_a_linear_obstacle_between_it_and_its_foe(kind: str, obstacle: str | None) -> None:
    line = TerrainFeature(kind, line=((10.0, 11.4), (30.0, 11.4)), width=0.2)
    state, start = two()
    fighters = fighters_of(table_with(line), state, [charge(start)])
    assert fighters[1].obstacle == obstacle and fighters[0].obstacle is None


def test_an_obstacle_nearer_the_attacker_is_not_the_defenders() -> None:
    hedge = TerrainFeature("hedge", line=((10.0, 10.6), (30.0, 10.6)), width=0.2)
    state, start = two()
    assert fighters_of(table_with(hedge), state, [charge(start)])[1].obstacle is None


def test_a_defender_in_a_town_holds_it_against_a_foe_outside() -> None:
    town = TerrainFeature("town", outline=((15.0, 11.5), (25.0, 11.5), (25.0, 16.0), (15.0, 16.0)))
    state, start = two()
    assert fighters_of(table_with(town), state, [charge(start)])[1].obstacle == WORKS
    inside = TerrainFeature("town", outline=((15.0, 8.0), (25.0, 8.0), (25.0, 16.0), (15.0, 16.0)))
    assert fighters_of(table_with(inside), state, [charge(start)])[1].obstacle is None


@pytest.mark.parametrize(("hill_from", "uphill"), [(11.0, True), (0.0, False)])
def test_a_charge_from_lower_ground_is_uphill(hill_from: float, uphill: bool) -> None:
    outline = ((0.0, hill_from), (72.0, hill_from), (72.0, 20.0), (0.0, 20.0))
    hill = TerrainFeature(TerrainKind.HILL, outline=outline)
    state, start = two()
    assert fighters_of(table_with(hill), state, [charge(start)])[0].uphill is uphill


def test_a_charge_begun_behind_the_targets_front_is_on_its_flank_or_rear() -> None:
    state, _ = two()
    behind = Base(20.0, 30.0, 180.0, 6.25, 1.25)  # the target faces south: north of it is its rear
    assert fighters_of(table_with(), state, [charge(behind)])[1].flank_or_rear
    assert not fighters_of(table_with(), state, [replace(charge(behind), frontal=True)])[1].flank_or_rear


def test_a_batterys_supporters_fight_for_it_and_the_gun_rolls_nothing() -> None:
    gun = piece("g", "parl", "artillery", 20.0, 12.0, 180.0)
    near = piece("s", "parl", "foot", 24.5, 12.5, 180.0)
    far = piece("f", "parl", "foot", 40.0, 12.5, 180.0)
    a = piece("a", "king", "horse", 20.0, 10.0)
    state = state_of(gun, near, far, a)
    fighters = fighters_of(table_with(), state, [Charge("a", "g", a.base)])
    assert [(f.unit, f.foes) for f in fighters] == [("a", ("g", "s")), ("g", ("a",)), ("s", ("a",))]
    by_id = {f.unit: f for f in fighters}
    assert unit_dice(T, table_with(), state, by_id["g"], by_id).dice == 0
    assert unit_dice(T, table_with(), state, by_id["s"], by_id).dice == 6
