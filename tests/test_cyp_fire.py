"""Charge yr Pikes! musketry (Fire, section 8), galloper guns' fire, the stands that fire,
sight and cover (Terrain 16 A to C), and a step's fire applied together.

The king's foot (k-foot) stands in line at (30, 12) facing north: four companies abreast,
two ranks deep, shot on the wings and pike in the centre; its front edge is at y = 12.75.
Parliament's foot (p-foot) faces it from the north; standing at y = 13.5 + gap its front
edge is ``gap`` inches from the king's."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from tertia.core.dice import D6, ScriptedDice, count_of, distribution_named
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield, TerrainFeature, terrain_kind
from tertia.core.violations import CoreCode
from tertia.rules.codes import FightingCode
from tertia.rulesets.charge_yr_pikes.fire import MUSKETRY, FireCode, Shot, Strike, apply_fire, hit_faces
from tertia.rulesets.charge_yr_pikes.layout import STAND_SIZES, footprint_of
from tertia.rulesets.charge_yr_pikes.musketry import (
    firing_stands,
    galloper_problems,
    galloper_target,
    musketry_problems,
    stand_ranges,
    work_out_galloper,
    work_out_volley,
)
from tertia.rulesets.charge_yr_pikes.sight import sightings
from tertia.rulesets.charge_yr_pikes.stands import PIKE, SHOT, stands_of
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_command import _state

TABLES = default_tables()
OPEN = Battlefield(72.0, 48.0)


def field(*features: TerrainFeature) -> Battlefield:
    return Battlefield(72.0, 48.0, features)


def area(kind: str, x0: float, y0: float, x1: float, y1: float, **more: Any) -> TerrainFeature:
    return TerrainFeature(terrain_kind(kind), outline=((x0, y0), (x1, y0), (x1, y1), (x0, y1)), **more)


def line(kind: str, y: float, x0: float = 20.0, x1: float = 40.0) -> TerrainFeature:
    """A hedge or wall running east-west at ``y``."""
    return TerrainFeature(terrain_kind(kind), line=((x0, y), (x1, y)), width=0.3)


def at(state: GameState, unit_id: str, x: float, y: float, facing: float | None = None,
       **own: Any) -> GameState:
    """``unit_id`` placed at (x, y), its values changed (its footprint follows its stands)."""
    u = state.units[unit_id]
    moved = u.evolve(x=x, y=y, **({} if facing is None else {"facing": facing}), **own)
    mine = unit_data(moved)
    width, depth = footprint_of(mine, mine.formation, STAND_SIZES["foot"]) if mine.troop in (
        "foot", "musketeers", "highlanders") else (moved.width, moved.depth)
    return state.with_unit(moved.evolve(width=width, depth=depth))


def facing_off(gap: float, extension: dict[str, Any] | None = None, **own: Any) -> GameState:
    """The two foot regiments ``gap`` inches apart, front to front; ``own`` changes the
    king's."""
    _, state = _state(extension)
    state = at(state, "p-foot", 30.0, 13.5 + gap)
    return at(state, "k-foot", 30.0, 12.0, **own) if own else state


def volley(state: GameState, dice: list[int], table: Battlefield = OPEN, firer: str = "k-foot",
           target: str = "p-foot") -> tuple[Shot, ScriptedDice]:
    scripted = ScriptedDice(dice)
    shot = work_out_volley(Tx(table, state, scripted), table, state, firer, target, TABLES)
    assert scripted.remaining == 0
    return shot, scripted


def codes(problems: list[Any]) -> list[str]:
    return [p.code for p in problems]


# --- the dice: a count of hits as one node ------------------------------------------------


@pytest.mark.parametrize("n", range(1, 9))
@pytest.mark.parametrize("faces", [(3, 4, 5, 6), (5, 6), (2, 3, 4, 5, 6), (6,), ()])
def test_the_hits_of_n_stands_are_one_exact_binomial_node(n: int, faces: tuple[int, ...]) -> None:
    node = count_of(n, D6, faces)
    p = Fraction(len(faces), 6)
    assert {v: node.probability(v) for v in node.values()} == {
        k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1) if p**k * (1 - p) ** (n - k)}
    assert distribution_named(node.name) == node


def test_the_node_agrees_with_every_way_the_dice_can_fall() -> None:
    node = count_of(3, D6, (5, 6))
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        hits = sum(f in (5, 6) for f in faces)
        counts[hits] = counts.get(hits, 0) + 1
    assert dict(node.outcomes) == counts


def test_a_modifier_moves_the_faces_that_hit() -> None:
    close, long = TABLES.musketry.close_hits, TABLES.musketry.long_hits
    assert hit_faces(close, 0) == (3, 4, 5, 6) and hit_faces(long, 0) == (5, 6)
    assert hit_faces(close, 1) == (2, 3, 4, 5, 6)  # first volley
    assert hit_faces(long, -1) == (6,)              # light rain at long range
    assert hit_faces(long, 2) == (3, 4, 5, 6)       # a 7 reads as a 6


# --- the stands -----------------------------------------------------------------------------


def test_a_regiment_in_line_stands_pike_in_the_centre_shot_on_the_wings_two_deep() -> None:
    _, state = _state()
    foot = state.units["k-foot"]
    stands = stands_of(foot)
    assert [s.weapon for s in stands] == [SHOT, PIKE, PIKE, SHOT] * 2
    assert [s.rank for s in stands] == [0] * 4 + [1] * 4
    xs = sorted({s.base.x for s in stands})
    assert xs == [28.5, 29.5, 30.5, 31.5]
    # The stands fill the footprint exactly.
    assert min(c[0] for s in stands for c in s.base.corners()) == pytest.approx(foot.base.corners()[0][0])
    assert max(c[1] for s in stands for c in s.base.corners()) == pytest.approx(12.75)


def test_a_column_leads_and_closes_with_shot() -> None:
    _, state = _state()
    state = at(state, "k-foot", 30.0, 12.0, formation="column")
    weapons = [s.weapon for s in stands_of(state.units["k-foot"])]
    assert weapons == [SHOT, SHOT, PIKE, PIKE, PIKE, PIKE, SHOT, SHOT]


def test_the_casualty_stand_of_shot_stands_behind_and_does_not_fire() -> None:
    state = facing_off(5.0, shot=14)
    stands = stands_of(state.units["k-foot"])
    hurt = [i for i, s in enumerate(stands) if s.weapon == SHOT and not s.full]
    assert len(hurt) == 1 and stands[hurt[0]].rank == 1
    assert len(firing_stands(state.units["k-foot"], TABLES)) == 3


def test_a_square_faces_all_round() -> None:
    _, state = _state()
    state = at(state, "k-foot", 30.0, 12.0, formation="square")
    facings = {round(s.base.facing) for s in stands_of(state.units["k-foot"]) if s.weapon == SHOT}
    assert len(facings) > 2


# --- range, ranks, arcs ---------------------------------------------------------------------


def test_at_close_range_each_shot_stand_rolls_and_the_first_volley_adds_one() -> None:
    state = facing_off(5.0)
    shot, dice = volley(state, [3])
    assert (shot.close, shot.long, shot.hits) == (4, 0, 3)
    assert shot.modifiers == ((1, "first volley"),)
    assert dice.log[0].die == "4d6@2,3,4,5,6"


def test_after_its_first_volley_close_range_hits_on_3_to_6() -> None:
    shot, dice = volley(facing_off(6.0, fired=True), [2])
    assert shot.modifiers == () and dice.log[0].die == "4d6@3,4,5,6" and shot.close == 4


def test_over_6_inches_is_long_range_hitting_on_5_and_6() -> None:
    shot, dice = volley(facing_off(6.5, fired=True), [1])
    assert (shot.close, shot.long) == (0, 4) and dice.log[0].die == "4d6@5,6"


@pytest.mark.parametrize(("gap", "close", "faces"),
                         [(6.0, 4, "3,4,5,6"), (6.0 + 1e-6, 0, "5,6"), (6.01, 0, "5,6"), (12.0, 0, "5,6")])
def test_exactly_6_inches_is_close_range_and_anything_beyond_is_long(gap: float, close: int,
                                                                      faces: str) -> None:
    """"Short: 6" or less 3,4,5,6 on D6; Long: over 6" up to 12" 5,6 on D6": at 6.0" every
    stand is at close range, a millionth of an inch more and every stand is at long range,
    out to 12" exactly."""
    shot, dice = volley(facing_off(gap, fired=True), [1])
    assert (shot.close, shot.long) == (close, 4 - close)
    assert dice.log[0].die == f"4d6@{faces}"


def test_beyond_12_inches_muskets_do_not_reach() -> None:
    far = musketry_problems(OPEN, facing_off(12.8), "k-foot", "p-foot", TABLES)
    assert codes(far) == [FireCode.OUT_OF_RANGE]
    assert musketry_problems(OPEN, facing_off(12.0), "k-foot", "p-foot", TABLES) == []


def test_the_rear_stand_is_in_range_when_the_front_stand_of_shot_is() -> None:
    # D: the front rank's stands are 11.5" away, the rear rank's 12.25": all four fire.
    state = facing_off(11.5, fired=True)
    foot, target = state.units["k-foot"], state.units["p-foot"]
    lines = sightings(OPEN, state, foot, target, firing_stands(foot, TABLES), 45, 8)
    assert min(s.distance for s in lines if s.stand == 4) == pytest.approx(12.25)
    assert sorted(stand_ranges(OPEN, state, foot, target, TABLES).values()) == pytest.approx([11.5] * 4)
    shot, _ = volley(state, [1])
    assert shot.long == 4


def test_shot_stands_with_casualties_do_not_fire() -> None:
    shot, dice = volley(facing_off(5.0, fired=True, shot=14), [1])
    assert shot.close == 3 and dice.log[0].die == "3d6@3,4,5,6"


def test_disordered_foot_fire_with_one_rank() -> None:
    shot, _ = volley(facing_off(5.0, fired=True, disordered=True), [1])
    assert shot.close == 2


def test_every_shot_stand_hurt_means_no_fire() -> None:
    problems = musketry_problems(OPEN, facing_off(5.0, shot=3), "k-foot", "p-foot", TABLES)
    assert codes(problems) == [FireCode.NO_FIRING_STANDS] and "casualties" in problems[0].message


def test_only_the_stands_with_the_target_in_their_45_degree_arc_fire() -> None:
    # Parliament's foot stands off the king's right: the left wing's arc does not reach it.
    _, state = _state()
    state = at(state, "p-foot", 37.0, 16.5)
    stands = stands_of(state.units["k-foot"])
    firing = stand_ranges(OPEN, state, state.units["k-foot"], state.units["p-foot"], TABLES)
    assert sorted(stands[i].base.x for i in firing) == [31.5, 31.5]
    shot, _ = volley(at(state, "k-foot", 30.0, 12.0, fired=True), [0])
    assert shot.close == 2


def test_a_target_behind_the_line_is_out_of_arc() -> None:
    _, state = _state()
    state = at(state, "p-foot", 30.0, 6.0, 0.0)
    assert codes(musketry_problems(OPEN, state, "k-foot", "p-foot", TABLES)) == [FireCode.OUT_OF_ARC]


def test_troops_between_stop_the_volley() -> None:
    state = facing_off(8.0)
    state = at(state, "k-horse", 30.0, 17.0, 0.0)
    problems = musketry_problems(OPEN, state, "k-foot", "p-foot", TABLES)
    assert codes(problems) == [FireCode.IN_THE_WAY] and "k-horse" in problems[0].message


def test_troops_between_with_a_plural_name_stand_between() -> None:
    """The refusal's verb agrees with the name of the troops in the way."""
    state = at(facing_off(8.0), "k-horse", 30.0, 17.0, 0.0)
    renamed = state.units["k-horse"].evolve(name="Okey's Dragoons")
    state = state.evolve(units={**state.units, "k-horse": renamed})
    (problem,) = musketry_problems(OPEN, state, "k-foot", "p-foot", TABLES)
    assert problem.message == "Okey's Dragoons stand between k-foot and p-foot"


# --- who fires and at whom ----------------------------------------------------------------


def test_horse_and_mounted_dragoons_do_not_fire_dismounted_dragoons_do() -> None:
    state = facing_off(6.0)
    state = at(state, "k-horse", 30.0, 12.0)
    assert codes(musketry_problems(OPEN, state, "k-horse", "p-foot", TABLES)) == [FireCode.CANNOT_FIRE]
    _, base = _state({"regiments": [{"unit": "k-drag", "troop": "dragoons", "mounted": False}]})
    state = at(at(base, "p-foot", 30.0, 18.0), "k-drag", 30.0, 12.0)
    assert musketry_problems(OPEN, state, "k-drag", "p-foot", TABLES) == []
    mounted = at(state, "k-drag", 30.0, 12.0, mounted=True)
    problems = musketry_problems(OPEN, mounted, "k-drag", "p-foot", TABLES)
    assert codes(problems) == [FireCode.CANNOT_FIRE] and "mounted" in problems[0].message


def test_routed_units_friends_and_officers_are_refused() -> None:
    state = facing_off(5.0)
    assert codes(musketry_problems(OPEN, at(state, "k-foot", 30.0, 12.0, formation="routed"), "k-foot",
                                   "p-foot", TABLES)) == [FireCode.CANNOT_FIRE]
    assert codes(musketry_problems(OPEN, state, "k-foot", "k-horse", TABLES)) == [FightingCode.NOT_ENEMY]
    assert codes(musketry_problems(OPEN, state, "k-foot", "nobody", TABLES)) == [CoreCode.UNKNOWN_UNIT]
    gone = state.with_unit(state.units["p-foot"].evolve(removed="routed"))
    assert codes(musketry_problems(OPEN, gone, "k-foot", "p-foot", TABLES)) == [CoreCode.UNIT_REMOVED]
    _, led = _state({"officers": [{"commander": "k-brig", "rank": "brigadier", "attached_to": "k-foot"}]})
    assert codes(musketry_problems(OPEN, led, "p-foot", "k-brig", TABLES)) == [FireCode.NOT_A_TARGET]


def test_a_refused_volley_is_not_worked_out() -> None:
    with pytest.raises(ValueError, match="musket range is 12"):
        volley(facing_off(20.0), [])


# --- modifiers ------------------------------------------------------------------------------


def test_an_attached_officer_and_firelocks_add_one_each() -> None:
    led = {"officers": [{"commander": "k-brig", "rank": "brigadier", "attached_to": "k-foot"}]}
    state = facing_off(8.0, led,
                       fired=True, firelocks=True)
    shot, dice = volley(state, [2])
    assert shot.modifiers == ((1, "officer attached"), (1, "firelocks"))
    assert dice.log[0].die == "4d6@3,4,5,6"  # long range 5-6, +2


def test_light_rain_takes_one_off() -> None:
    state = facing_off(8.0, fired=True)
    wet = state.evolve(own=game_data(state).evolve(rain=True))
    shot, dice = volley(wet, [1])
    assert shot.modifiers == ((-1, "light rain"),) and dice.log[0].die == "4d6@6"


@pytest.mark.parametrize(("feature", "covered"), [
    (line("hedge", 18.5), True),
    (line("wall", 18.5), True),
    (line("hedge", 13.5), False),  # the firer's own hedge
    (area("woods", 20.0, 18.8, 40.0, 24.0), True),
    (area("field", 20.0, 18.8, 40.0, 24.0, hedged=True), True),
    (area("field", 20.0, 18.8, 40.0, 24.0), False),
])
def test_a_target_behind_a_wall_or_hedge_or_in_woods_is_minus_one(feature: TerrainFeature,
                                                                  covered: bool) -> None:
    # The target's centre is at y = 20.5, its front edge at 19.75.
    state = facing_off(7.0, fired=True)
    shot, _ = volley(state, [0], field(feature))
    assert (shot.modifiers == ((-1, "target behind a wall or hedge or in woods"),)) is covered


# --- sight: woods, towns, hills -----------------------------------------------------------


def test_woods_between_hide_the_target_from_level_ground() -> None:
    state = facing_off(10.0)
    woods = field(area("woods", 20.0, 15.0, 40.0, 17.0))
    assert codes(musketry_problems(woods, state, "k-foot", "p-foot", TABLES)) == [FireCode.OUT_OF_SIGHT]


def test_from_a_hill_the_dead_ground_is_8_inches_behind_woods() -> None:
    hill = area("hill", 0.0, 0.0, 72.0, 13.0)
    woods = area("woods", 20.0, 13.5, 40.0, 14.5)
    near = facing_off(8.5)       # its stands' centres 7.1" and 7.9" beyond the woods: hidden
    far = facing_off(11.5)       # 10.1" and 10.9" beyond: seen
    table = field(hill, woods)
    assert codes(musketry_problems(table, near, "k-foot", "p-foot", TABLES)) == [FireCode.OUT_OF_SIGHT]
    assert musketry_problems(table, far, "k-foot", "p-foot", TABLES) == []
    assert codes(musketry_problems(field(woods), far, "k-foot", "p-foot", TABLES)) == [FireCode.OUT_OF_SIGHT]


def test_no_dead_ground_behind_hedges_or_walls() -> None:
    hedge = line("hedge", 15.0)
    assert musketry_problems(field(hedge), facing_off(5.0), "k-foot", "p-foot", TABLES) == []


def test_a_unit_on_a_hill_is_seen_over_woods() -> None:
    table = field(area("woods", 20.0, 14.0, 40.0, 15.0), area("hill", 0.0, 18.0, 72.0, 30.0))
    assert musketry_problems(table, facing_off(6.0), "k-foot", "p-foot", TABLES) == []


# --- halving, confirming, artillerists, applying together ------------------------------------


@pytest.mark.parametrize(("confirm", "lost"), [(4, 2), (6, 2), (3, 1), (1, 1)])
def test_in_a_town_hits_are_halved_and_an_odd_half_confirmed_on_4_to_6(confirm: int, lost: int) -> None:
    state = facing_off(5.0, fired=True)
    town = field(area("town", 20.0, 17.2, 40.0, 24.0))
    shot, _ = volley(state, [3], town)
    assert shot.strikes[0].halved
    tx = Tx(town, state, ScriptedDice([confirm]))
    applied = apply_fire(tx, [shot], TABLES)
    assert applied.casualties == {"p-foot": lost}
    assert tx.dice.log[0].purpose.startswith("half hit confirmed")  # type: ignore[attr-defined]


def test_half_hits_of_two_volleys_are_added_together() -> None:
    _, state = _state()
    half = Strike("p-foot", 1, halved=True, test_on_casualties=True)
    shots = [Shot("k-foot", "p-foot", MUSKETRY, strikes=(half,)),
             Shot("k-drag", "p-foot", MUSKETRY, strikes=(half,))]
    tx = Tx(OPEN, state, ScriptedDice([]))  # two halves make a whole: no die to confirm
    assert apply_fire(tx, shots, TABLES).casualties == {"p-foot": 1}


@pytest.mark.parametrize(("hits", "gunners"), [(1, 0), (2, 1), (3, 1), (4, 2)])
def test_muskets_take_two_hits_to_remove_an_artillerist(hits: int, gunners: int) -> None:
    _, state = _state()
    state = at(state, "p-foot", 40.0, 16.0)
    shot, _ = volley(at(state, "p-foot", 40.0, 16.0, fired=True), [hits], firer="p-foot", target="k-gun")
    assert shot.strikes[0].per_figure == 2
    assert volley(facing_off(5.0), [hits])[0].strikes[0].per_figure == 1  # troops: a hit a figure
    applied = apply_fire(Tx(OPEN, state, ScriptedDice([])), [shot], TABLES)
    assert applied.casualties.get("k-gun", 0) == gunners


def test_casualties_make_the_target_test_and_the_first_volley_is_spent() -> None:
    state = facing_off(5.0)
    shot, _ = volley(state, [2])
    tx = Tx(OPEN, state, ScriptedDice([]))
    applied = apply_fire(tx, [shot], TABLES)
    assert applied.casualties == {"p-foot": 2} and applied.must_test == ("p-foot",)
    assert unit_data(tx.state.units["k-foot"]).fired
    assert unit_data(tx.state.units["p-foot"]).figures == 30


def test_no_casualties_no_test() -> None:
    state = facing_off(5.0)
    shot, _ = volley(state, [0])
    assert apply_fire(Tx(OPEN, state, ScriptedDice([])), [shot], TABLES).must_test == ()


def test_a_steps_volleys_are_worked_out_on_its_opening_state() -> None:
    # Both regiments fire; the king's hits would strip the parliament's shot stands, but
    # its volley was worked out first, on the step's opening state: four dice each.
    state = at(facing_off(5.0, fired=True), "p-foot", 30.0, 18.5, fired=True)
    dice = ScriptedDice([4, 4])
    tx = Tx(OPEN, state, dice)
    shots = [work_out_volley(tx, OPEN, state, "k-foot", "p-foot", TABLES),
             work_out_volley(tx, OPEN, state, "p-foot", "k-foot", TABLES)]
    assert [s.close for s in shots] == [4, 4]
    applied = apply_fire(tx, shots, TABLES)
    assert applied.casualties == {"p-foot": 4, "k-foot": 4}
    assert applied.must_test == ("p-foot", "k-foot")


# --- galloper guns --------------------------------------------------------------------------

GALLOPER = {"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                           "attached_to": "k-foot"}]}


def _with_galloper(gap: float) -> GameState:
    state = facing_off(gap, GALLOPER)
    return at(state, "k-gun", 32.75, 12.0)


def test_a_galloper_fires_as_two_stands_at_its_units_target() -> None:
    state = _with_galloper(5.0)
    assert unit_data(state.units["k-gun"]).men == 2
    scripted = ScriptedDice([1])
    shot = work_out_galloper(Tx(OPEN, state, scripted), OPEN, state, "k-gun", "p-foot", TABLES, "p-foot")
    assert (shot.close, shot.long, shot.hits) == (2, 0, 1) and scripted.log[0].die == "2d6@3,4,5,6"
    assert shot.modifiers == ()  # the regiment's first volley is its own


def test_a_galloper_fires_at_no_other_target() -> None:
    state = _with_galloper(5.0)
    assert codes(galloper_problems(OPEN, state, "k-gun", "p-foot", TABLES, None)) == [FireCode.WRONG_TARGET]
    other = galloper_problems(OPEN, state, "k-gun", "p-foot", TABLES, "k-horse")
    assert codes(other) == [FireCode.WRONG_TARGET]
    assert galloper_problems(OPEN, state, "k-gun", "p-foot", TABLES, "p-foot") == []


def test_a_galloper_with_horse_fires_at_what_they_charge_else_the_nearest_enemy() -> None:
    _, state = _state({"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                                      "attached_to": "k-horse"}]})
    assert galloper_target(state, "k-gun") == "p-foot"
    assert galloper_target(state, "k-gun", charging="x") == "x"
    assert galloper_target(state, "k-gun", charged_by="y") == "y"


def test_a_galloper_with_horse_that_moved_over_8_inches_does_not_fire() -> None:
    _, state = _state({"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                                      "attached_to": "k-horse"}]})
    places = (("k-horse", 30.0, 4.0, 0.0),)
    state = at(at(at(state, "p-foot", 30.0, 20.0), "k-horse", 30.0, 13.0), "k-gun", 33.0, 13.0)
    far = state.evolve(own=game_data(state).evolve(places=places))
    assert codes(galloper_problems(OPEN, far, "k-gun", "p-foot", TABLES, "p-foot")) == [FireCode.GUN_MOVED]
    near = far.evolve(own=game_data(far).evolve(places=(("k-horse", 30.0, 5.0, 0.0),)))
    assert galloper_problems(OPEN, near, "k-gun", "p-foot", TABLES, "p-foot") == []
