"""Declare Thee Sir, Fire (Game Mechanics 4): ranges, arc and sight, musketry, artillery,
attached generals under fire, and the exact odds of a volley."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import Dice
from tertia.core.events import DiceRolled, UnitMoved, UnitRemoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.core.terrain import TerrainFeature
from tertia.rules.morale import DECLARE_LEVELS, MoraleDetermined, MoraleLost
from tertia.rulesets.declare_thee_sir.chart import HOLD, PB1D6, PB2D6, ROUT, ROUT_STAR, chart_result, is_rout
from tertia.rulesets.declare_thee_sir.data import DtsGame, DtsUnit
from tertia.rulesets.declare_thee_sir.events import VolleyWorkedOut
from tertia.rulesets.declare_thee_sir.fire import ARTILLERY, MUSKETRY, fire, roll_range
from tertia.rulesets.declare_thee_sir.modifiers import behind_hard_cover, fire_modifiers
from tertia.rulesets.declare_thee_sir.points import tested as points_when_tested
from tertia.rulesets.declare_thee_sir.reach import base_range, fire_distance, lines_of_fire
from tertia.rulesets.declare_thee_sir.values import game_data

from .dts_combat_support import A, B, dice_left, dts, points, state_of, table_with, tx_with, wall


def volley_position(target_morale: int | None = 2, **target: object) -> GameState:
    """Foot facing north at (24, 10) and a target regiment facing it 3" off (edge to edge)."""
    return state_of(dts("f", A, 24, 10, 0, morale=3),
                    dts("t", B, 24, 14, 180, morale=target_morale, **target))  # type: ignore[arg-type]


def gun_position(target_morale: int | None = 2, **target: object) -> GameState:
    """A gun facing north at (24, 4) and a target regiment 14.5" off (edge to edge)."""
    return state_of(dts("g", A, 24, 4, 0, troop="artillery", morale=2),
                    dts("t", B, 24, 20, 180, morale=target_morale, **target))  # type: ignore[arg-type]


# --- ranges, arc and sight (4, 4a) ---------------------------------------------------------


@pytest.mark.parametrize(("troop", "mounted", "inches"), [
    ("foot", False, 6), ("commanded_shot", False, 6), ("dragoons", False, 6),
    ("dragoons", True, 3), ("horse", False, 3), ("artillery", False, 18),
])
def test_base_ranges(troop: str, mounted: bool, inches: int) -> None:
    """4a: "Infantry and dismounted dragoons fire 6 in + 1D6. Mounted fire 3 in + 1D6.
    Artillery fire 18 in + 1D6"."""
    assert base_range(DtsUnit(troop=troop, mounted=mounted)) == inches


def test_generals_do_not_fire() -> None:
    with pytest.raises(ValueError, match="generals do not fire"):
        base_range(DtsUnit(troop="general"))


def test_the_range_is_rolled_for_each_shot() -> None:
    tx = tx_with(gun_position(), 5)
    assert roll_range(tx, "g") == 23
    assert tx.events == [DiceRolled(purpose="range: g", die="d6", value=5)]


def test_a_target_beyond_the_rolled_range_is_not_fired_upon() -> None:
    """The range is to the closest stand edge (19.5" here): 18 + 1 falls short and nothing
    more is rolled, not even the untested target's morale."""
    state = state_of(dts("g", A, 24, 4, 0, troop="artillery", morale=2), dts("t", B, 24, 25, 180))
    tx = tx_with(state, 1)
    shot = fire(tx, "g", "t")
    assert (shot.in_range, shot.reach, shot.distance, shot.dice) == (False, 19, 19.5, None)
    assert points(tx, "t") is None and dice_left(tx) == 0
    tx = tx_with(state, 2, 3, 1, 2)
    assert fire(tx, "g", "t").in_range and dice_left(tx) == 0


def test_each_volley_says_what_it_did() -> None:
    """Short, the range against the distance; in range, the chart's total and result for
    the target's morale and the points lost (2 and 5: a 7 takes one, then PB1D6 at good)."""
    state = state_of(dts("g", A, 24, 4, 0, troop="artillery", morale=2), dts("t", B, 24, 25, 180))
    tx = tx_with(state, 1)
    fire(tx, "g", "t")
    [short] = [e for e in tx.events if isinstance(e, VolleyWorkedOut)]
    assert short == VolleyWorkedOut(unit="g", target="t", reach=19, distance=19.5)
    tx = tx_with(volley_position(), 2, 2, 5)
    fire(tx, "f", "t")
    [hit] = [e for e in tx.events if isinstance(e, VolleyWorkedOut)]
    assert (hit.reach, hit.total, hit.result, hit.points) == (8, 7, PB1D6, 1)


def test_a_target_at_exactly_the_range_is_in_range() -> None:
    state = state_of(dts("g", A, 24, 4, 0, troop="artillery", morale=2), dts("t", B, 24, 24.5, 180, morale=2))
    tx = tx_with(state, 1, 1, 2)
    shot = fire(tx, "g", "t")
    assert (shot.distance, shot.reach, shot.in_range) == (19.0, 19, True)


def test_the_range_is_measured_from_the_stands_that_bear() -> None:
    """A target off to the right of a line: only the right-hand stands have it in their
    45-degree arc, and the range runs from the nearest of them."""
    state = state_of(dts("f", A, 10, 10, 0, morale=2), dts("t", B, 15.5, 13, 180, morale=2))
    firer, target = state.units["f"], state.units["t"]
    lines = lines_of_fire(table_with(), state, firer, target)
    assert {line.stand for line in lines} == {1, 2}
    assert fire_distance(table_with(), state, firer, target) == pytest.approx(5**0.5)
    wide = state_of(dts("f", A, 10, 10, 0, morale=2), dts("t", B, 30, 11, 180, morale=2))
    assert fire_distance(table_with(), wide, wide.units["f"], wide.units["t"]) is None


def test_a_target_behind_the_firer_is_refused() -> None:
    state = state_of(dts("f", A, 24, 10, 0, morale=2), dts("t", B, 24, 4, 0, morale=2))
    with pytest.raises(ValueError, match="no stand that bears"):
        fire(tx_with(state, 6), "f", "t")


def test_a_unit_in_between_hides_the_target() -> None:
    """Direct fire at visible targets: another unit across every line blocks it; a
    general's command stand does not."""
    state = state_of(dts("f", A, 24, 10, 0, morale=2), dts("t", B, 24, 16, 180, morale=2),
                     dts("x", A, 24, 13, 0, stands=5, morale=2))
    assert fire_distance(table_with(), state, state.units["f"], state.units["t"]) is None
    state = state_of(dts("f", A, 24, 10, 0, morale=2), dts("t", B, 24, 16, 180, morale=2),
                     dts("gen", A, 24, 13, 0, troop="general"))
    assert fire_distance(table_with(), state, state.units["f"], state.units["t"]) == 5.0


def test_woods_between_hide_the_target_but_not_a_target_in_them() -> None:
    wood = TerrainFeature("woods", outline=((10, 12), (38, 12), (38, 14), (10, 14)))
    state = state_of(dts("f", A, 24, 10, 0, morale=2), dts("t", B, 24, 16, 180, morale=2))
    assert fire_distance(table_with(wood), state, state.units["f"], state.units["t"]) is None
    inside = state_of(dts("f", A, 24, 10, 0, morale=2), dts("t", B, 24, 13, 180, morale=2))
    assert fire_distance(table_with(wood), inside, inside.units["f"], inside.units["t"]) == 2.0


# --- musketry (4c) -------------------------------------------------------------------------


def test_a_volley_that_rolls_no_double_no_7_and_no_rout_takes_nothing() -> None:
    tx = tx_with(volley_position(), 1, 3, 5)
    shot = fire(tx, "f", "t")
    assert (shot.kind, shot.dice, shot.result, shot.points_called, shot.points_lost) == (
        MUSKETRY, (3, 5), PB1D6, 0, 0)
    assert points(tx, "t") == 2 and shot.pushed_back == 0.0
    assert not any(isinstance(e, UnitMoved) for e in tx.events), "musketry never pushes back"


@pytest.mark.parametrize("dice", [(3, 4), (1, 6), (2, 2), (6, 6)])
def test_doubles_or_a_7_remove_a_point(dice: tuple[int, int]) -> None:
    tx = tx_with(volley_position(target_morale=4), 1, *dice)
    shot = fire(tx, "f", "t")
    assert shot.points_lost >= 1
    assert tx.events[3] == MoraleLost(unit="t", points=1, cause="musketry")


@pytest.mark.parametrize(("dice", "result", "lost"),
                         [((6, 5), ROUT, 1), ((5, 5), PB2D6, 1), ((4, 5), PB2D6, 0)])
def test_a_rout_on_the_chart_removes_a_point(dice: tuple[int, int], result: str, lost: int) -> None:
    """4c: "If the number indicates a ROUT for targets morale, target loses a morale point"
    (a good target: ROUT from 11)."""
    tx = tx_with(volley_position(target_morale=2), 1, *dice)
    shot = fire(tx, "f", "t")
    assert (shot.result, shot.points_lost, points(tx, "t")) == (result, lost, 2 - lost)


def test_double_sixes_take_two_points() -> None:
    tx = tx_with(volley_position(target_morale=2), 1, 6, 6)
    shot = fire(tx, "f", "t")
    assert (shot.result, shot.points_called, shot.points_lost, points(tx, "t")) == (ROUT_STAR, 2, 2, 0)


@pytest.mark.parametrize(("reading", "result", "called"), [("after", ROUT, 2), ("before", PB2D6, 1)])
def test_the_chart_is_read_for_the_morale_left_after_the_first_point(reading: str, result: str,
                                                                     called: int) -> None:
    """4c: "doubles or a 7 removes 1 morale from target. Next, modify ... Compare": a good
    target on 1 point that loses it to double fives is read at poor, where 10 is a ROUT (a
    second point called, none left to lose). Read before the first point (option
    ``fire_chart`` ``before``), 10 is PB2D6 for good: no second point."""
    tx = tx_with(volley_position(target_morale=1).evolve(own=DtsGame(readings={"fire_chart": reading})),
                 1, 5, 5)
    shot = fire(tx, "f", "t")
    assert (shot.result, shot.points_called, shot.points_lost) == (result, called, 1)


@pytest.mark.parametrize(("reading", "pushed"), [("after", True), ("before", False)])
def test_artillery_reads_the_chart_after_the_doubles_point_by_the_option(reading: str, pushed: bool) -> None:
    """4b: "doubles remove 1 morale point, then apply modifiers ... Compare": double fours
    take a good target's last point; 8 at poor is PB2D6, and it is pushed; read before the
    point (``before``), 8 at good is PB1D6, and it is not."""
    state = gun_position(target_morale=1).evolve(own=DtsGame(readings={"fire_chart": reading}))
    shot = fire(tx_with(state, 1, 4, 4, 3), "g", "t")
    assert (shot.result, shot.push is not None) == ((PB2D6, True) if pushed else (PB1D6, False))


@pytest.mark.parametrize(("reading", "chance"), [("after", Fraction(11, 36)), ("before", Fraction(10, 36))])
def test_the_exact_odds_artillery_pushes_a_one_point_target(reading: str, chance: Fraction) -> None:
    """A good target on 1 point pushed by a gun: after its doubles' point the six doubles
    read at poor (PB2D6 from 7: 4-4, 5-5, 6-6) and the 30 other throws at good (PB2D6 from
    9: 3-6, 4-5, 5-4, 6-3, 4-6, 6-4, 5-6, 6-5): 3 + 8 = 11 of 36. Read before the point,
    all 36 at good: 9 and up, 4 + 3 + 2 + 1 = 10."""
    state = gun_position(target_morale=1).evolve(own=DtsGame(readings={"fire_chart": reading}))

    def pushes(dice: Dice) -> bool:
        return fire(Tx(table_with(), state, dice), "g", "t").push is not None

    found = sum((b.probability for b in enumerate_branches(pushes) if b.result), Fraction(0))
    assert found == chance


def test_a_unit_at_poor_stays_at_poor_under_fire() -> None:
    """Morale: "A unit with poor morale that loses another point to fire remains at poor"."""
    tx = tx_with(volley_position(target_morale=0), 1, 5, 5)
    shot = fire(tx, "f", "t")
    assert (shot.points_called, shot.points_lost, points(tx, "t")) == (2, 0, 0)
    assert not any(isinstance(e, MoraleLost) for e in tx.events)
    assert shot.routed == ()


@pytest.mark.parametrize(("before", "after"), [(2, 1), (1, 0)])
def test_fire_takes_a_point_at_a_time_down_to_poor_and_no_further(before: int, after: int) -> None:
    """Morale: "doubles or a 7 removes 1 morale from target"; "A unit with poor morale that
    loses another point to fire remains at poor": double 1s (2, no rout on the chart) take
    one point, from 2 to 1 or from 1 to poor, and the unit stands."""
    tx = tx_with(volley_position(target_morale=before), 1, 1, 1)
    shot = fire(tx, "f", "t")
    assert (shot.points_called, shot.points_lost, points(tx, "t")) == (1, 1, after)
    assert shot.routed == () and tx.state.units["t"].in_play


def test_an_untested_target_rolls_its_morale_first() -> None:
    """Morale: points "are determined when it is first fired upon": after the range, before
    the volley's dice (a 4 gives 3 points, excellent, where 11 is only PB2D6)."""
    tx = tx_with(volley_position(target_morale=None), 1, 4, 6, 5)
    shot = fire(tx, "f", "t")
    assert [e.purpose for e in tx.events if isinstance(e, DiceRolled)] == [
        "range: f", "morale points: t", "musketry: f at t (first die)", "musketry: f at t (second die)"]
    assert MoraleDetermined(unit="t", points=3, cause="fired upon") in tx.events
    assert (shot.result, points(tx, "t")) == (PB2D6, 3)


def test_an_untested_gun_rolls_on_the_artillery_table() -> None:
    """Morale: "Artillery is 1D6; 1-2 = 1 point, 3+ = 2 points" (foot on a 2 would have 2)."""
    state = state_of(dts("f", A, 24, 10, 0, morale=3), dts("t", B, 24, 14, 180, troop="artillery"))
    tx = tx_with(state, 1, 2, 3, 5)
    fire(tx, "f", "t")
    assert points(tx, "t") == 1


@pytest.mark.parametrize(("troop", "by_face"), [
    ("foot", (1, 2, 2, 3, 3, 4)), ("horse", (1, 2, 2, 3, 3, 4)), ("artillery", (1, 1, 2, 2, 2, 2))])
def test_every_face_of_the_morale_die_reads_as_the_text_says(troop: str, by_face: tuple[int, ...]) -> None:
    """Morale: "roll 1D6; 1 = 1 point, 2-3 = 2 points, 4-5 = 3 points, and 6+ = 4 points.
    Artillery is 1D6; 1-2 = 1 point, 3+ = 2 points", each face in turn and the exact odds."""
    def rolled(dice: Dice) -> int:
        tx = Tx(table_with(), state_of(dts("t", B, 24, 14, 180, troop=troop)), dice)
        return points_when_tested(tx, "t", "fired upon")

    for face, expected in enumerate(by_face, start=1):
        tx = tx_with(state_of(dts("t", B, 24, 14, 180, troop=troop)), face)
        assert points_when_tested(tx, "t", "fired upon") == expected and dice_left(tx) == 0, face
    odds: dict[int, Fraction] = {}
    for branch in enumerate_branches(rolled):
        odds[branch.result] = odds.get(branch.result, Fraction(0)) + branch.probability
    assert odds == {n: Fraction(by_face.count(n), 6) for n in set(by_face)}


@pytest.mark.parametrize(("formation", "why"), [("forlorn_hope", "target in forlorn hope"),
                                                ("caracole", "target in caracole")])
def test_a_target_in_forlorn_hope_or_caracole_is_minus_1(formation: str, why: str) -> None:
    tx = tx_with(volley_position(formation=formation), 1, 6, 5)
    shot = fire(tx, "f", "t")
    assert shot.modifiers == ((-1, why),)
    assert (shot.modified_sum, shot.result, shot.points_lost) == (10, PB2D6, 0)


def test_a_target_behind_hard_cover_is_minus_2() -> None:
    table = table_with(wall(10, 13, 38, 13))
    state = volley_position()
    assert behind_hard_cover(table, state.units["t"], state.units["f"])
    assert not behind_hard_cover(table, state.units["f"], state.units["t"]), "the firer is across it"
    tx = tx_with(state, 1, 6, 5, table=table)
    shot = fire(tx, "f", "t")
    assert shot.modifiers == ((-2, "target behind hard cover"),)
    assert (shot.result, shot.points_lost) == (PB2D6, 0)


def test_a_town_is_hard_cover_and_a_hedge_is_not() -> None:
    town = TerrainFeature("town", outline=((20, 12), (28, 12), (28, 16), (20, 16)))
    hedge = TerrainFeature("hedge", line=((10, 13), (38, 13)), width=0.25)
    state = volley_position()
    assert behind_hard_cover(table_with(town), state.units["t"], state.units["f"])
    assert not behind_hard_cover(table_with(hedge), state.units["t"], state.units["f"])
    assert fire_modifiers(table_with(hedge), state.units["f"], state.units["t"]) == ()


def test_a_firer_of_poor_morale_is_minus_2_and_an_untested_one_is_not() -> None:
    poor = state_of(dts("f", A, 24, 10, 0, morale=0), dts("t", B, 24, 14, 180, morale=2))
    tx = tx_with(poor, 1, 6, 5)
    assert fire(tx, "f", "t").modifiers == ((-2, "firer of poor morale"),)
    untested = state_of(dts("f", A, 24, 10, 0), dts("t", B, 24, 14, 180, morale=2))
    tx = tx_with(untested, 1, 6, 5)
    shot = fire(tx, "f", "t")
    assert (shot.modifiers, shot.result, shot.points_lost) == ((), ROUT, 1)
    assert points(tx, "f") is None, "firing does not test the firer"


def test_each_line_of_modifiers_counts_once() -> None:
    """Hard cover and a poor firer share the line "-2 if target is behind hard cover or
    firer has poor morale"; forlorn hope's -1 is a line of its own and adds."""
    table = table_with(wall(10, 13, 38, 13))
    state = state_of(dts("f", A, 24, 10, 0, morale=0), dts("t", B, 24, 14, 180, morale=2))
    assert fire_modifiers(table, state.units["f"], state.units["t"]) == (
        (-2, "target behind hard cover and firer of poor morale"),)
    state = state_of(dts("f", A, 24, 10, 0, morale=0), dts("t", B, 24, 14, 180, morale=2,
                                                           formation="forlorn_hope"))
    tx = tx_with(state, 1, 6, 6, table=table)
    shot = fire(tx, "f", "t")
    assert shot.modified_sum == 9 and shot.result == PB2D6 and shot.points_lost == 1


# --- attached generals under fire (4d) -------------------------------------------------


def with_general(target_morale: int | None = 2) -> GameState:
    state = volley_position(target_morale=target_morale)
    return state.with_unit(dts("gen", B, 24, 15.5, 180, troop="general", attached_to="t"))


def test_a_general_falls_on_a_1_and_was_the_point_lost() -> None:
    tx = tx_with(with_general(), 1, 3, 4, 1)
    shot = fire(tx, "f", "t")
    assert shot.general_killed == "gen"
    removed = [e for e in tx.events if isinstance(e, UnitRemoved)]
    assert [(e.unit, e.reason) for e in removed] == [("gen", "killed")]
    assert "the general was the morale point lost" in removed[0].detail
    assert not tx.state.units["gen"].in_play
    assert (shot.points_lost, points(tx, "t")) == (1, 1), "one point in all: his"


@pytest.mark.parametrize("roll", [2, 3, 4, 5, 6])
def test_a_general_survives_on_2_to_6(roll: int) -> None:
    tx = tx_with(with_general(), 1, 3, 4, roll)
    shot = fire(tx, "f", "t")
    assert shot.general_killed is None and tx.state.units["gen"].in_play
    assert points(tx, "t") == 1 and dice_left(tx) == 0


def test_no_die_for_the_general_when_the_volley_takes_no_point() -> None:
    tx = tx_with(with_general(), 1, 3, 5)
    assert fire(tx, "f", "t").general_killed is None
    assert dice_left(tx) == 0


def test_one_die_for_the_general_however_many_points_fall() -> None:
    tx = tx_with(with_general(target_morale=4), 1, 6, 6, 2)
    shot = fire(tx, "f", "t")
    assert (shot.points_lost, shot.general_killed, dice_left(tx)) == (2, None, 0)


def test_a_general_with_a_unit_at_poor_is_still_under_fire() -> None:
    tx = tx_with(with_general(target_morale=0), 1, 3, 4, 1)
    shot = fire(tx, "f", "t")
    assert (shot.points_lost, shot.general_killed, points(tx, "t")) == (0, "gen", 0)


def test_a_general_is_under_artillery_fire_too() -> None:
    """4d speaks of fire, both kinds: a gun's doubles take a point, and the general falls on a 1."""
    state = gun_position().with_unit(dts("gen", B, 24, 21.5, 180, troop="general", attached_to="t"))
    tx = tx_with(state, 1, 3, 3, 1)
    shot = fire(tx, "g", "t")
    assert (shot.kind, shot.points_lost, shot.general_killed) == (ARTILLERY, 1, "gen")


@pytest.mark.parametrize(("reading", "first"), [("while_attached", 2), ("first_roll", 3)])
def test_a_general_adds_a_point_when_the_unit_is_first_tested(reading: str, first: int) -> None:
    """Morale: "A general stand attached to a unit adds one morale point (up to 4)". Its die
    a 2 (2 points) and his point: 3. Counted while he is attached (option
    ``general_point``), the 2 it rolled stay its own level and his point is marked; added at
    the first roll, 3 are its first points."""
    def general_there(target_morale: int | None) -> GameState:
        state = with_general(target_morale)
        return state.evolve(own=game_data(state).evolve(readings={"general_point": reading}))

    tx = tx_with(general_there(None), 1, 2, 1, 2)
    fire(tx, "f", "t")
    own = tx.state.units["t"].own
    assert points(tx, "t") == 3 and own.morale_max == first  # type: ignore[attr-defined]
    assert own.general_point is (reading == "while_attached")  # type: ignore[attr-defined]
    tx = tx_with(general_there(None), 1, 6, 1, 2)
    fire(tx, "f", "t")
    assert points(tx, "t") == 4, "never above 4"
    tx = tx_with(volley_position(target_morale=None), 1, 2, 1, 2)
    fire(tx, "f", "t")
    assert points(tx, "t") == 2, "no general, no point"


# --- artillery (4b) -------------------------------------------------------------------


def test_artillery_doubles_remove_a_point_and_a_7_does_not() -> None:
    tx = tx_with(gun_position(), 1, 3, 3)
    shot = fire(tx, "g", "t")
    assert (shot.kind, shot.result, shot.points_lost, shot.push) == (ARTILLERY, HOLD, 1, None)
    tx = tx_with(gun_position(), 1, 3, 4)
    shot = fire(tx, "g", "t")
    assert (shot.result, shot.points_lost, shot.push) == (PB1D6, 0, None)


@pytest.mark.parametrize(("dice", "result"), [((4, 5), PB2D6), ((6, 5), ROUT)])
def test_artillery_pushes_back_on_pb2d6_or_rout_keeping_its_facing(dice: tuple[int, int],
                                                                   result: str) -> None:
    """4b: "If the number indicates a PB2D6 or ROUT for targets morale, target is pushed
    back 1D6 in good order" (a ROUT costs no point from a gun)."""
    tx = tx_with(gun_position(), 1, *dice, 4)
    shot = fire(tx, "g", "t")
    assert (shot.result, shot.points_lost, shot.push_roll, shot.pushed_back) == (result, 0, 4, 4.0)
    t = tx.state.units["t"]
    assert (t.x, t.y, t.facing) == (24, 24, 180), "straight away from the gun, still facing it"


def test_artillery_rout_star_pushes_and_its_doubles_cost_a_point() -> None:
    tx = tx_with(gun_position(), 1, 6, 6, 2)
    shot = fire(tx, "g", "t")
    assert (shot.result, shot.points_lost, shot.pushed_back) == (ROUT_STAR, 1, 2.0)


def test_artillery_modifiers_can_spare_a_push() -> None:
    tx = tx_with(gun_position(formation="caracole"), 1, 4, 5)
    shot = fire(tx, "g", "t")
    assert (shot.modified_sum, shot.result, shot.push) == (8, PB1D6, None)


def test_an_artillery_push_runs_away_from_the_gun_on_the_diagonal() -> None:
    state = state_of(dts("g", A, 10, 10, 45, troop="artillery", morale=2),
                     dts("t", B, 20, 20, 225, morale=2))
    tx = tx_with(state, 1, 4, 5, 3)
    fire(tx, "g", "t")
    t = tx.state.units["t"]
    assert (round(t.x - 20, 6), round(t.y - 20, 6), t.facing) == (round(3 / 2**0.5, 6),
                                                                   round(3 / 2**0.5, 6), 225)


def test_an_artillery_push_through_a_friend_checks_both_and_a_friend_at_poor_routs() -> None:
    """Movement: "Units that move or rout through another unit cause a moral check (one
    musketry roll) on each unit involved": the friend (at poor, a 7 routs it), then the
    unit pushed (3: nothing)."""
    state = gun_position().with_unit(dts("friend", B, 24, 23, 180, morale=0))
    tx = tx_with(state, 1, 4, 5, 4, 3, 4, 1, 2)
    shot = fire(tx, "g", "t")
    assert shot.push is not None and shot.push.slide.passed_through == ("friend",)
    assert [(c.unit, c.dice, c.routed) for c in shot.push.checks] == [
        ("friend", (3, 4), True), ("t", (1, 2), False)]
    assert shot.routed == ("friend",) and dice_left(tx) == 0


# --- exact odds ------------------------------------------------------------------------------


def run_volley(state: GameState, dice: Dice) -> int:
    tx = Tx(table_with(), state, dice)
    return fire(tx, "f", "t").points_lost


def exact(state: GameState) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for branch in enumerate_branches(lambda dice: run_volley(state, dice)):
        out[branch.result] = out.get(branch.result, Fraction(0)) + branch.probability
    return out


def test_the_exact_odds_of_a_volley_at_a_good_target() -> None:
    """A good target (2 points), no modifiers, always in range. Of the 36 throws, 6
    doubles and 6 sevens take a point (12); of the other 24, 11 (5-6, 6-5) is a ROUT for
    good (2 more). At least one point: 14/36 = 7/18. Two points: only 6-6 (a double, then
    12 on the chart at the 1 point left, good): 1/36. So 1 point 13/36, none 22/36."""
    odds = exact(volley_position(target_morale=2))
    assert sum(p for lost, p in odds.items() if lost >= 1) == Fraction(7, 18)
    assert odds == {0: Fraction(22, 36), 1: Fraction(13, 36), 2: Fraction(1, 36)}


def test_the_exact_odds_of_a_volley_at_an_excellent_target_counted_by_hand() -> None:
    """An excellent target (3 points): counted over the 36 throws directly, reading the
    chart at the points left after the first."""
    counted: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            left, lost = 3, 0
            if a == b or a + b == 7:
                left, lost = left - 1, lost + 1
            if is_rout(chart_result(a + b, DECLARE_LEVELS.name(left))):
                lost += 1
            counted[lost] = counted.get(lost, Fraction(0)) + Fraction(1, 36)
    assert exact(volley_position(target_morale=3)) == counted
    assert counted == {0: Fraction(24, 36), 1: Fraction(11, 36), 2: Fraction(1, 36)}
