"""Charge yr Pikes! objectives, vital points and the end of the battle (section 19): who
holds a point, victory by objectives and vital points, darkness, the pursuit phase, the
degree of victory, and the points checked on the scenario."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tertia.core.events import GameEnded, UnitMoved
from tertia.core.scenario import TerrainSpec
from tertia.core.state import GameState, Unit
from tertia.io.narrative import Narrator
from tertia.rulesets.charge_yr_pikes.points import (
    Place,
    holder,
    objectives_occupied,
    places,
    points_entry,
    scenario_problems,
    vital_points_kept,
    vital_points_lost,
)
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.scenario_table import PikesTable
from tertia.rulesets.charge_yr_pikes.tables import Tables, default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data
from tertia.rulesets.charge_yr_pikes.victory import (
    CUT_BACK,
    at_turn_end,
    degree_of_victory,
    pursue,
    winner_by_points,
)

from .cyp_pieces import piece, state, tx
from .test_cyp_setup import scenario

TABLES = default_tables()


def _with(**victory: Any) -> Tables:
    return TABLES.model_copy(update={"victory": TABLES.victory.model_copy(update=victory)})


HILL = Place("king", "objective", "other", "Hill", 36.0, 40.0)


# --- holding a point ------------------------------------------------------------------


@pytest.mark.parametrize(("y", "held"), [(36.25, True), (36.0, False), (39.5, True)])
def test_a_unit_holds_a_point_within_3_inches_of_its_base_edge(y: float, held: bool) -> None:
    """The foot's front edge is 0.75" before its centre: at 36.25 it stands 3" short of the
    hill, at 36.0 3.25"; at 39.5 the point lies under its base."""
    s = state(piece("k-foot", "king", "foot", 36.0, y), piece("p-foot", "parl", "foot", 10.0, 44.0),
              points=(tuple(HILL),))
    assert (holder(s, HILL, TABLES) == "king") is held
    assert objectives_occupied(s, "king", TABLES) == int(held)


def test_the_nearer_side_holds_and_a_tie_holds_for_neither() -> None:
    king = piece("k-foot", "king", "foot", 36.0, 37.0)  # 2.25" off
    assert holder(state(king, piece("p-foot", "parl", "foot", 36.0, 43.0)), HILL, TABLES) is None  # 2.25"
    assert holder(state(king, piece("p-foot", "parl", "foot", 36.0, 41.0)), HILL, TABLES) == "parl"
    assert holder(state(king, piece("p-foot", "parl", "foot", 36.0, 43.5)), HILL, TABLES) == "king"
    touching = piece("k-foot", "king", "foot", 36.0, 39.25)
    assert holder(state(touching, piece("p-foot", "parl", "foot", 36.0, 40.75)), HILL, TABLES) is None


@pytest.mark.parametrize("values", [{"formation": "routed"}, {"falling_back": True}])
def test_a_unit_routed_or_falling_back_neither_holds_nor_contests(values: dict[str, Any]) -> None:
    shaken = piece("p-foot", "parl", "foot", 36.0, 41.0, **values)
    assert holder(state(shaken), HILL, TABLES) is None
    assert holder(state(shaken, piece("k-foot", "king", "foot", 36.0, 37.0)), HILL, TABLES) == "king"


@pytest.mark.parametrize("troop", ["officer", "wagons"])
def test_officers_and_wagons_hold_no_point(troop: str) -> None:
    assert holder(state(piece("k-x", "king", troop, 36.0, 40.0)), HILL, TABLES) is None


KING_OBJ = (("king", "objective", "other", "Ford", 12.0, 40.0),
            ("king", "objective", "other", "Hill", 36.0, 40.0),
            ("king", "objective", "other", "Farm", 60.0, 40.0))
KING_VITAL = (("king", "vital", "other", "Mill", 10.0, 4.0), ("king", "vital", "retreat", "Road", 36.0, 0.0),
              ("king", "vital", "baggage", "Baggage", 60.0, 4.0))
PARL_OBJ = (("parl", "objective", "other", "Bridge", 20.0, 8.0),
            ("parl", "objective", "other", "Knoll", 36.0, 10.0),
            ("parl", "objective", "other", "Barn", 50.0, 8.0))
PARL_VITAL = (("parl", "vital", "other", "Inn", 4.0, 46.0), ("parl", "vital", "retreat", "Lane", 36.0, 48.0),
              ("parl", "vital", "other", "Wood", 68.0, 46.0))
POINTS = KING_OBJ + KING_VITAL + PARL_OBJ + PARL_VITAL


def _at(side: str, where: tuple[tuple[Any, ...], ...], troop: str = "foot") -> list[Unit]:
    """A unit of ``side`` on each of ``where``."""
    return [piece(f"{side}-{p[3]}", side, troop, p[4], p[5]) for p in where]


def test_a_vital_point_is_kept_unless_the_enemy_holds_it_or_with_the_option_while_held() -> None:
    s = state(*_at("parl", KING_VITAL[:1], "horse"), *_at("king", KING_VITAL[2:]), points=POINTS)
    assert vital_points_lost(s, "king", TABLES) == 1 and vital_points_kept(s, "king", TABLES) == 2
    occupied = _with(vital_held="occupied")
    assert vital_points_lost(s, "king", occupied) == 1 and vital_points_kept(s, "king", occupied) == 1
    assert vital_points_kept(s, "parl", TABLES) == 3 and vital_points_kept(s, "parl", occupied) == 0


# --- victory (19 C) ---------------------------------------------------------------------


@pytest.mark.parametrize("side", ["king", "parl"])
def test_a_side_holding_all_its_objectives_and_two_vital_points_wins(side: str) -> None:
    """"If one army has occupied all of its objectives and still holds at least two of its
    own vital points, while the other army has not, then that army has won the game.\""""
    enemy = "parl" if side == "king" else "king"
    objectives = KING_OBJ if side == "king" else PARL_OBJ
    vital = KING_VITAL if side == "king" else PARL_VITAL
    assert winner_by_points(state(*_at(side, objectives), points=POINTS), TABLES) == side
    assert winner_by_points(state(*_at(side, objectives[:2]), points=POINTS), TABLES) is None
    one_taken = state(*_at(side, objectives), *_at(enemy, vital[:1], "horse"), points=POINTS)
    assert winner_by_points(one_taken, TABLES) == side
    two_taken = state(*_at(side, objectives), *_at(enemy, vital[:1] + vital[2:], "horse"), points=POINTS)
    assert winner_by_points(two_taken, TABLES) is None


def test_neither_wins_when_both_have_and_none_without_objectives() -> None:
    both = state(*_at("king", KING_OBJ), *_at("parl", PARL_OBJ), points=POINTS)
    assert winner_by_points(both, TABLES) is None
    assert winner_by_points(state(*_at("king", KING_OBJ), points=KING_VITAL + PARL_VITAL), TABLES) is None


def test_with_the_option_occupied_a_side_must_stand_on_two_of_its_vital_points() -> None:
    occupied = _with(vital_held="occupied")
    bare = state(*_at("king", KING_OBJ), points=POINTS)
    assert winner_by_points(bare, occupied) is None
    guarded = state(*_at("king", KING_OBJ), *_at("king", KING_VITAL[:1] + KING_VITAL[2:]), points=POINTS)
    assert winner_by_points(guarded, occupied) == "king"


def test_a_won_battle_ends_after_the_pursuit_with_its_degree() -> None:
    """19 C: "Proceed directly to the PURSUIT PHASE below and after that to the DEGREE OF
    VICTORY." Parliament's foot (12 of 32 lost) stands far from any pursuer."""
    s = state(*_at("king", KING_OBJ), piece("p-foot", "parl", "foot", 36.0, 20.0, shot=4), points=POINTS)
    t = tx(s)
    assert at_turn_end(t, TABLES)
    result = t.state.result
    assert result is not None and result["winner"] == "king"
    assert result["breakdown"]["degree"] == "overwhelming victory"  # 37.5 points higher
    assert result["breakdown"]["parl"]["casualties_percent"] == 37.5
    assert result["breakdown"]["king"]["objectives_occupied"] == 3
    assert result["score"] == {"king": 12, "parl": 0}
    assert result["reason"].startswith(
        "the victors have occupied all their objectives and kept two or more of their vital points, the "
        "beaten army has not: the beaten army lost 37.5% of its figures, 12 of 32, the victors 0%, 0 of ")
    assert result["reason"].endswith("the beaten army's share is 37.5 points higher: an overwhelming victory")
    assert t.state.units["p-foot"].y == 28.0  # its move to the rear


# --- darkness (19 D) ----------------------------------------------------------------------


def _even(turn: int, **game: Any) -> GameState:
    return state(piece("k-foot", "king", "foot", 36.0, 10.0, shot=12),
                 piece("p-foot", "parl", "foot", 36.0, 38.0, shot=8), turn=turn, **game)


def test_no_die_for_darkness_before_ten_turns() -> None:
    t = tx(_even(9))
    assert not at_turn_end(t, TABLES) and game_data(t.state).darkness_in is None and t.events == []


@pytest.mark.parametrize("face", range(1, 7))
def test_after_ten_turns_a_d6_gives_the_turns_left_till_darkness(face: int) -> None:
    """"If neither army has won after l0 turns, roll one D6. The result is the number of
    turns left till darkness": each face of a plain D6 (equally likely) is the turns left."""
    t = tx(_even(10), [face])
    assert not at_turn_end(t, TABLES)
    assert game_data(t.state).darkness_in == face and [r.die for r in t.dice.log] == ["d6"]  # type: ignore[attr-defined]
    dark = _even(10 + face, darkness_in=face)
    assert not at_turn_end(tx(_even(9 + face, darkness_in=face)), TABLES)
    t = tx(dark)
    assert at_turn_end(t, TABLES) and t.state.result is not None


@pytest.mark.parametrize("face", range(1, 7))
def test_the_last_turn_shown_is_darkness_the_span_of_the_die_until_it_is_rolled(face: int) -> None:
    """The status line's last turn (the page's "Turn 3 of 11–16") is the rule set's clock,
    not the scenario's turns: the six turns after the tenth until the D6 is rolled, then
    the one it gives, naming the rule."""
    shows = ChargeYrPikes().presentation()
    before = shows.last_turn(_even(10), turns=12)
    assert (before.first, before.last, before.text) == (11, 16, "11–16")
    assert before.rule is not None and "after turn 10" in before.rule and "19 D" in before.rule
    t = tx(_even(10), [face])
    at_turn_end(t, TABLES)
    after = shows.last_turn(t.state, turns=12)
    assert (after.first, after.last, after.text) == (10 + face, 10 + face, str(10 + face))
    assert after.rule is not None and f"a D6 gave {face} turn{'s' if face > 1 else ''} more" in after.rule


@pytest.mark.parametrize(("king_shot", "parl_shot", "winner"),
                         [(12, 8, "king"), (8, 12, "parl"), (8, 8, None)])
def test_at_darkness_the_larger_share_of_casualties_loses(king_shot: int, parl_shot: int,
                                                          winner: str | None) -> None:
    s = state(piece("k-foot", "king", "foot", 36.0, 10.0, shot=king_shot),
              piece("p-foot", "parl", "foot", 36.0, 38.0, shot=parl_shot), turn=13, darkness_in=3)
    t = tx(s)
    assert at_turn_end(t, TABLES)
    assert t.state.result is not None and t.state.result["winner"] == winner
    assert ("degree" in t.state.result["breakdown"]) is (winner is not None)


def test_at_darkness_a_routed_unit_counts_whole_unless_the_club_counts_exactly() -> None:
    """"Count exact casualties except:" (lost; chosen: routed, captured, plundering,
    deserted count whole). The king's routed foot has lost 2 figures, Parliament's 8."""
    s = state(piece("k-foot", "king", "foot", 36.0, 10.0, shot=14, formation="routed"),
              piece("k-horse", "king", "horse", 50.0, 10.0),
              piece("p-foot", "parl", "foot", 36.0, 38.0, shot=8), turn=13, darkness_in=3)
    t = tx(s)
    at_turn_end(t, TABLES)
    assert t.state.result is not None and t.state.result["winner"] == "parl"
    t = tx(s)
    at_turn_end(t, _with(count_whole=()))
    assert t.state.result is not None and t.state.result["winner"] == "king"


# --- the result in words ---------------------------------------------------------------------


def _told(result_event: Any) -> str:
    """The result's line, as the log, the report and the page tell it."""
    names = {"king": "Royalists", "parl": "Parliament"}
    narrator = Narrator.for_rules(ChargeYrPikes(), None, side_names=names)
    line = narrator.line(result_event)
    assert line is not None
    return line


@pytest.mark.parametrize(("king_pike", "winner"), [(4, "king"), (0, "parl")])
def test_the_result_says_the_smaller_share_won_though_it_laid_fewer_low(king_pike: int, winner: str) -> None:
    """19 D: "The side with the larger percent of casualties has lost." The king's army of
    47 figures has lost 12 (25.53%), or 16 (34.04%), Parliament's 32 lost 10 (31.25%).
    With 12 lost the king wins though Parliament laid more figures low: each side's score
    is the enemy's casualties in figures, and the reason says so and how it was decided."""
    s = state(piece("k-foot", "king", "foot", 36.0, 10.0, pike=king_pike, shot=16),
              piece("k-horse", "king", "horse", 50.0, 10.0),
              piece("p-foot", "parl", "foot", 36.0, 38.0, pike=6, shot=16), turn=13, darkness_in=3)
    t = tx(s)
    assert at_turn_end(t, TABLES)
    result = t.state.result
    assert result is not None and result["winner"] == winner
    king_lost = 16 - king_pike
    assert result["score"] == {"king": 10, "parl": king_lost}
    ended = [e for e in t.events if isinstance(e, GameEnded)][-1]
    if winner == "king":
        assert result["reason"] == (
            "darkness falls and the larger share of casualties loses: the beaten army lost 31.25% of its "
            "figures, 10 of 32, the victors 25.53%, 12 of 47; each side's score is the enemy's casualties "
            "in figures; the beaten army's share is 5.72 points higher: a marginal victory")
        assert _told(ended) == ("The battle ends: victory to Royalists — Royalists 10, Parliament 12. "
                                f"D{result['reason'][1:]}.")
    else:
        assert result["reason"] == (
            "darkness falls and the larger share of casualties loses: the beaten army lost 34.04% of its "
            "figures, 16 of 47, the victors 31.25%, 10 of 32; each side's score is the enemy's casualties "
            "in figures; the beaten army's share is 2.79 points higher: an indecisive victory")
    assert result["breakdown"]["margin"] == (5.72 if winner == "king" else 2.79)


def test_a_drawn_battle_says_the_shares_were_equal() -> None:
    s = state(piece("k-foot", "king", "foot", 36.0, 10.0, shot=8),
              piece("p-foot", "parl", "foot", 36.0, 38.0, shot=8), turn=13, darkness_in=3)
    t = tx(s)
    assert at_turn_end(t, TABLES)
    assert t.state.result is not None and t.state.result["winner"] is None
    assert t.state.result["reason"] == (
        "darkness falls and each army has lost 25% of its figures: equal shares of casualties, a drawn "
        "battle; each side's score is the enemy's casualties in figures")


# --- the pursuit phase (19 E) ----------------------------------------------------------------


def _rout() -> GameState:
    """The king has won; Parliament's army flees north."""
    return state(
        piece("p-near", "parl", "foot", 20.0, 44.0),             # 3.25" from its edge: gets off
        piece("p-far", "parl", "foot", 36.0, 30.0),              # moves to 38, nobody near
        piece("p-routed", "parl", "foot", 4.0, 30.0, formation="routed"),
        piece("p-caught", "parl", "foot", 56.0, 16.0),           # to 24, the horse reaches 24.625
        piece("p-taken", "parl", "foot", 10.0, 21.4),            # foot in contact, caught on a 3
        piece("p-away", "parl", "foot", 30.0, 21.4),             # foot in contact, away on a 4
        piece("p-gun", "parl", "artillery", 66.0, 14.0, gun_fired=True),  # a fired gun stays
        piece("k-horse", "king", "horse", 56.0, 8.0),
        piece("k-foot", "king", "foot", 10.0, 20.0),
        piece("k-foot-2", "king", "foot", 30.0, 20.0),
        piece("k-gun", "king", "artillery", 66.0, 4.0),           # guns do not pursue
        piece("k-routed", "king", "horse", 66.0, 10.0, formation="routed"),
    )


def test_the_pursuit_divides_the_losers_into_the_quick_and_the_dead() -> None:
    """E: "1. Move all losing units (except routed) a move to the rear. Any units that can
    get off the board will live. 2. Remove all routed units on the losing side ... 3. All
    units on the winning side may make a move forward. 4. Any losing units contacted by
    victorious infantry roll a die: 1,2,3 - captured, 4,5,6 - escaped. 5. Any losing units
    contacted by victorious cavalry are captured.\""""
    t = tx(_rout(), [3, 4])
    done = pursue(t, "king", TABLES)
    u = t.state.units
    assert done.escaped == ("p-near",) and u["p-near"].removed == "escaped"
    assert done.routed == ("p-routed",) and u["p-routed"].removed == "routed"
    assert set(done.captured) == {"p-caught", "p-taken"}
    assert u["p-caught"].removed == u["p-taken"].removed == "captured"
    assert set(done.living) == {"p-far", "p-away", "p-gun"} and u["p-far"].y == 38.0
    # The winners moved forward a normal move; the guns and the routed did not.
    assert (u["k-horse"].y, u["k-foot"].y, u["k-gun"].y, u["k-routed"].y) == (24.0, 28.0, 4.0, 10.0)
    assert [r.purpose for r in t.dice.log] == ["pursuit: p-taken contacted by infantry",  # type: ignore[attr-defined]
                                              "pursuit: p-away contacted by infantry"]


def test_only_the_winners_named_pursue() -> None:
    t = tx(_rout())
    done = pursue(t, "king", TABLES, pursuers={"k-horse"})
    assert done.captured == ("p-caught",) and t.state.units["k-foot"].y == 20.0


@pytest.mark.parametrize(("troop", "values", "rolls"), [
    ("horse", {}, False), ("lobsters", {}, False), ("scots_horse", {}, False), ("dragoons", {}, False),
    ("foot", {}, True), ("musketeers", {}, True), ("highlanders", {}, True),
    ("dragoons", {"mounted": False, "men": 16, "per_stand": 4, "start": 16}, True),
])
def test_cavalry_capture_what_they_reach_and_infantry_on_a_roll(troop: str, values: dict[str, Any],
                                                                 rolls: bool) -> None:
    """Every pursuer reaches a fired gun 5" ahead; mounted dragoons are cavalry, on foot
    infantry. The exact chance of capture by infantry: three faces of six."""
    def chase(dice: list[int]) -> GameState:
        t = tx(state(piece("k-x", "king", troop, 36.0, 7.0, **values),
                     piece("p-gun", "parl", "artillery", 36.0, 14.0, gun_fired=True)), dice)
        pursue(t, "king", TABLES)
        assert t.dice.remaining == 0  # type: ignore[attr-defined]
        return t.state
    if not rolls:
        assert chase([]).units["p-gun"].removed == "captured"
        return
    captured = [face for face in range(1, 7) if chase([face]).units["p-gun"].removed == "captured"]
    assert captured == [1, 2, 3] and Fraction(len(captured), 6) == Fraction(1, 2)


def test_a_move_forward_stops_at_the_enemys_edge() -> None:
    t = tx(state(piece("k-horse", "king", "horse", 36.0, 40.0)))
    pursue(t, "king", TABLES)
    moved = [e for e in t.events if isinstance(e, UnitMoved)]
    assert t.state.units["k-horse"].y == 47.375 and len(moved) == 1


# --- degree of victory (19 F) ------------------------------------------------------------------


@pytest.mark.parametrize(("margin", "degree"), [
    (Fraction(-3), "indecisive"), (Fraction(0), "indecisive"), (Fraction(499, 100), "indecisive"),
    (Fraction(5), "marginal"), (Fraction(999, 100), "marginal"),
    (Fraction(10), "tactical"), (Fraction(1499, 100), "tactical"),
    (Fraction(15), "substantial"), (Fraction(1999, 100), "substantial"),
    (Fraction(20), "decisive"), (Fraction(2499, 100), "decisive"),
    (Fraction(25), "overwhelming"), (Fraction(50), "overwhelming"),
    (Fraction(5001, 100), "crushing"), (Fraction(80), "crushing"),
])
def test_every_degree_of_victory_from_its_bound(margin: Fraction, degree: str) -> None:
    """F: "less than 5% higher than winner - Indecisive victory; 5-10% higher Marginal;
    10-15% Tactical; 15-20% Substantial; 20-25% Decisive; 25-50% Overwhelming; over 50%
    higher Crushing victory" (in percentage points)."""
    assert degree_of_victory(margin, TABLES.victory) == degree


# --- the points on the scenario (Set-up E, 19 A, B) ---------------------------------------------


def _points(**changes: Any) -> list[dict[str, Any]]:
    """Good points for both sides; ``changes`` replace one by its name."""
    good = [
        ("king", "objective", "other", "Ford", 20.0, 40.0),
        ("king", "objective", "other", "Hill", 36.0, 44.0),
        ("king", "objective", "other", "Farm", 50.0, 40.0),
        ("king", "vital", "baggage", "Baggage", 40.0, 10.0),
        ("king", "vital", "retreat", "Road", 36.0, 0.0),
        ("king", "vital", "other", "Mill", 10.0, 6.0),
        ("parl", "objective", "other", "Bridge", 20.0, 8.0),
        ("parl", "objective", "other", "Knoll", 36.0, 10.0),
        ("parl", "objective", "other", "Barn", 50.0, 6.0),
        ("parl", "vital", "retreat", "Lane", 36.0, 48.0),
        ("parl", "vital", "other", "Inn", 10.0, 44.0),
        ("parl", "vital", "other", "Wood", 60.0, 44.0),
    ]
    out = [dict(zip(("side", "kind", "role", "name", "x", "y"), p, strict=True)) for p in good]
    return [{**p, **changes.get(p["name"], {})} for p in out if changes.get(p["name"]) != "gone"]


def _problems(points: list[dict[str, Any]], wagons: bool = True, roads: bool = False
              ) -> list[tuple[str, str]]:
    ext: dict[str, Any] = {"points": points}
    if wagons:
        ext["regiments"] = [{"unit": "k-gun", "troop": "wagons"}]
    s = scenario(ext)
    if roads:
        s = s.model_copy(update={"terrain": (TerrainSpec(type="road", line=((30.0, 0.0), (30.0, 48.0)),
                                                          width=1.0),)})
    return scenario_problems(s, PikesTable.model_validate(s.extensions["charge-yr-pikes"]), TABLES)


def test_good_points_raise_no_problem() -> None:
    assert _problems(_points()) == []


def test_the_game_keeps_the_scenarios_points() -> None:
    table = PikesTable.model_validate({"points": _points()})
    s = state(points=points_entry(table))
    assert [p.name for p in places(s, "king", "vital")] == ["Baggage", "Road", "Mill"]


@pytest.mark.parametrize(("changes", "path", "words"), [
    ({"Hill": {"y": 30.0}}, "points[1].y",
     "an objective must be on or behind the opponent's (parl) set-up line, y >= 36"),
    ({"Bridge": {"y": 20.0}}, "points[6].y", "opponent's (king) set-up line, y <= 12"),
    ({"Mill": {"y": 20.0}}, "points[5].y", "a vital point must be on or behind its own set-up line, y <= 12"),
    ({"Inn": {"y": 30.0}}, "points[10].y", "its own set-up line, y >= 36"),
    ({"Ford": "gone"}, "points", "king has 2 objectives"),
    ({"Inn": "gone"}, "points", "parl has 2 vital points"),
    ({"Baggage": {"role": "other"}}, "points", "baggage train is on the table"),
    ({"Baggage": {"x": 50.0}}, "points[3].x", "not within 3\" of king's wagons"),
    ({"Inn": {"role": "baggage"}}, "points[10].role", "parl has no baggage train"),
    ({"Road": {"role": "other"}}, "points", "line of retreat"),
    ({"Road": {"y": 8.0}}, "points[4].y", "leave the table at king's own edge"),
    ({"Ford": {"role": "retreat"}}, "points[0].role", "is a vital point, not an objective"),
    ({"Ford": {"side": "france"}}, "points[0].side", "no side 'france'"),
    ({"Ford": {"x": 80.0}}, "points[0].x", "off the table"),
])
def test_points_against_section_19_a_b_are_named(changes: dict[str, Any], path: str, words: str) -> None:
    found = _problems(_points(**changes))
    assert any(p == f"extensions.charge-yr-pikes.{path}" and words in m for p, m in found), found


def test_on_a_table_with_roads_the_line_of_retreat_is_a_road() -> None:
    found = _problems(_points(), roads=True)
    assert [p for p, _ in found] == ["extensions.charge-yr-pikes.points[4].x",
                                     "extensions.charge-yr-pikes.points[9].x"]
    on_road = _points(Road={"x": 30.0}, Lane={"x": 30.5})
    assert _problems(on_road, roads=True) == []


@pytest.mark.parametrize("foot_y", [12.0, 34.0])
def test_a_pursuer_ends_its_move_clear_of_its_own_side(foot_y: float) -> None:
    """Formations C: no move ends intermingled with friends, the pursuit's neither. Horse
    at y=4 would end their 16" at y=20; their own foot ahead move first (the foremost
    first) and end 8" on: at 20, where the horse are cut back short of them; at 42, out
    of the horse's way, who move their whole move."""
    pieces = (piece("k-horse", "king", "horse", 36.0, 4.0), piece("k-foot", "king", "foot", 36.0, foot_y),
              piece("p-far", "parl", "foot", 4.0, 46.0))
    t = tx(state(*pieces))
    pursue(t, "king", TABLES)
    horse, foot = t.state.units["k-horse"], t.state.units["k-foot"]
    assert foot.y == foot_y + 8.0
    assert not horse.overlaps(foot.base.corners(), 1e-9)
    if foot_y == 34.0:
        assert horse.y == 20.0
    else:
        touching = 20.0 - (horse.depth + foot.depth) / 2
        assert touching - CUT_BACK <= horse.y < touching


def test_a_pursuer_cut_back_captures_what_its_whole_move_reaches() -> None:
    """Horse whose end a friend stops short capture the loser their whole move would
    reach and their shortened one would not: contact is the whole move's path. The loser
    first moves 8" to the rear, to y=20.25 (its base from 19.5); the horse would end at 20
    (their front at 20.625) but stop by the foot at 18.5 (front 19.125)."""
    t = tx(state(piece("k-horse", "king", "horse", 36.0, 4.0), piece("k-foot", "king", "foot", 40.0, 12.0),
                 piece("p-caught", "parl", "foot", 33.0, 12.25)))
    done = pursue(t, "king", TABLES)
    horse = t.state.units["k-horse"]
    assert horse.y == 18.5 and horse.y + horse.depth / 2 < 19.5
    assert done.captured == ("p-caught",)
