"""Declare Thee Sir, Optional Rules a: the forlorn hope, under its option: who may have
one, a regiment sending its division out 1D6 before it, the division going with its
regiment, and the modifiers of fire and melee for a forlorn hope."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.activation.deck import read_card
from tertia.analysis.enumerate import enumerate_branches
from tertia.core.actions import Move
from tertia.core.dice import Dice, ScriptedDice
from tertia.core.events import DiceRolled, UnitFormed, UnitMoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.declare_thee_sir.chart import HOLD, PB1D6, PB2D6, ROUT
from tertia.rulesets.declare_thee_sir.events import ChangeFormation
from tertia.rulesets.declare_thee_sir.fire import fire
from tertia.rulesets.declare_thee_sir.forlorn import ForlornHopeFormed, form
from tertia.rulesets.declare_thee_sir.melee import fight
from tertia.rulesets.declare_thee_sir.sequence import full_deck
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data
from tertia.rulesets.declare_thee_sir.victory import units_lost

from .dts_combat_support import A, B, dice_left, dts, points, state_of, table_with, tx_with
from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)
SHOT = unit("ps", P, "commanded_shot", 30, 6)
HORSE = unit("ph", P, "horse", 10, 6)
ENEMY = unit("rf", R, "foot", 20, 20, 180)
HOPE = "pf-forlorn-hope"


def codes(game, state, action) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in game.validate(state, action)]


def ended_turn(state: GameState) -> GameState:
    """No card left: the next draw ends the one-turn battle."""
    return state.evolve(own=game_data(state).evolve(deck_left=()))


def formed(game, dice: int = 3) -> GameState:  # type: ignore[no-untyped-def]
    """``pf`` has sent its forlorn hope out ``dice`` inches."""
    state = ended_turn(activated(game, "pf", "formation_change"))
    after, _ = game.apply(state, ChangeFormation(unit="pf", formation="forlorn_hope"), ScriptedDice([dice]))
    return after


# --- who may have one --------------------------------------------------------------------------


def test_only_with_the_option_and_only_musketeers_may_form_a_forlorn_hope() -> None:
    """Optional Rules a: "To form, declare formation change. Use one division of
    musketeers": a regiment of foot or commanded musketeers, with the option on."""
    hope = "forlorn_hope"
    off = dts_game([FOOT, SHOT, HORSE, ENEMY])
    assert codes(off, activated(off, "pf", "formation_change"), ChangeFormation(unit="pf", formation=hope)) \
        == ["declare-thee-sir.FORMATION_NOT_ALLOWED"]
    on = dts_game([FOOT, SHOT, HORSE, ENEMY], forlorn_hope=True)
    for uid, expected in (("pf", []), ("ps", []), ("ph", ["declare-thee-sir.FORMATION_NOT_ALLOWED"])):
        change = ChangeFormation(unit=uid, formation=hope)
        assert codes(on, activated(on, uid, "formation_change"), change) == expected, uid


def test_a_regiment_at_poor_or_down_to_its_colours_or_with_one_out_cannot_form_one() -> None:
    """"A infantry unit with poor morale cannot form ... a forlorn hope"; one division goes
    out and the colours stay."""
    change = ChangeFormation(unit="pf", formation="forlorn_hope")
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    state = activated(game, "pf", "formation_change")
    poor = state.with_unit(state.units["pf"].evolve(morale=0, morale_max=2))
    assert [v.message for v in game.validate(poor, change)] == [
        "pf is at poor morale: an infantry unit with poor morale cannot form a forlorn hope"]
    good = state.with_unit(state.units["pf"].evolve(morale=1, morale_max=2))
    assert codes(game, good, change) == []
    alone = dts_game([FOOT, ENEMY], forlorn_hope=True, table={"regiments": [{"unit": "pf", "stands": 1}]})
    assert codes(alone, activated(alone, "pf", "formation_change"), change) == [
        "declare-thee-sir.FORMATION_NOT_ALLOWED"]
    out = formed(game)
    again = ended_turn(activated(game, "pf", "formation_change")).with_unit(out.units["pf"]) \
        .with_unit(out.units[HOPE])
    assert [v.message for v in game.validate(again, change)] == ["pf already has its forlorn hope out"]


def test_there_must_be_room_for_it_before_the_regiment() -> None:
    game = dts_game([FOOT, unit("rx", R, "foot", 20, 7.6, 180)], forlorn_hope=True)
    assert codes(game, activated(game, "pf", "formation_change"),
                 ChangeFormation(unit="pf", formation="forlorn_hope")) == ["movement.COLLISION"]


def test_commanded_musketeers_may_start_in_forlorn_hope_only_under_the_option() -> None:
    """The scenario's table may put commanded musketeers in forlorn hope; the option off,
    or a unit that is not commanded musketeers, is refused, naming the unit and field."""
    table = {"regiments": [{"unit": "ps", "formation": "forlorn_hope"}]}
    off = dts_game([FOOT, SHOT, ENEMY], table=table)
    where = "extensions.declare-thee-sir.regiments[0].formation"
    assert off.ruleset.scenario_problems(off.scenario) == [
        (where, "ps cannot start in forlorn hope: the option forlorn_hope is off "
                "(Declare Thee Sir: B.7 Optional Rules a)")]
    on = dts_game([FOOT, SHOT, ENEMY], table=table, forlorn_hope=True)
    assert on.ruleset.scenario_problems(on.scenario) == []
    assert unit_data(activated(on, "ps").units["ps"]).formation == "forlorn_hope"
    foot = dts_game([FOOT, SHOT, ENEMY], table={"regiments": [{"unit": "pf", "formation": "forlorn_hope"}]},
                    forlorn_hope=True)
    assert [(p, m.split(":")[0]) for p, m in foot.ruleset.scenario_problems(foot.scenario)] == [
        (where, "pf cannot start in forlorn hope")]


def test_commanded_musketeers_take_up_and_leave_the_forlorn_hope_where_they_stand() -> None:
    game = dts_game([FOOT, SHOT, ENEMY], forlorn_hope=True, turns=1)
    state = ended_turn(activated(game, "ps", "formation_change"))
    after, events = game.apply(state, ChangeFormation(unit="ps", formation="forlorn_hope"), ScriptedDice([]))
    assert [e for e in events if isinstance(e, UnitFormed)] == [
        UnitFormed(unit="ps", formation="forlorn_hope", x=30, y=6, width=1.5, depth=1.0)]
    again = ended_turn(activated(game, "ps", "formation_change")).with_unit(after.units["ps"])
    assert codes(game, again, ChangeFormation(unit="ps", formation="forlorn_hope")) == [
        "declare-thee-sir.SAME_FORMATION"]
    assert codes(game, again, ChangeFormation(unit="ps", formation="line")) == []


# --- sending it out ------------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [1, 3, 6])
def test_a_division_goes_out_1d6_before_the_regiment_which_closes_up(roll: int) -> None:
    """"Use one division of musketeers to form in line 1D6 inches in front of the
    regiment ... Roll morale as unit."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    state = ended_turn(activated(game, "pf", "formation_change"))
    after, events = game.apply(state, ChangeFormation(unit="pf", formation="forlorn_hope"),
                               ScriptedDice([roll]))
    assert [e.purpose for e in events if isinstance(e, DiceRolled)] == ["forlorn hope: pf"]
    hope, regiment = after.units[HOPE], after.units["pf"]
    # the regiment's front edge is at 6.5; the division is 1" deep
    assert (hope.x, hope.y, hope.facing, hope.width, hope.depth) == (20, 7.0 + roll, 0, 1.5, 1.0)
    assert (regiment.x, regiment.y, regiment.width, unit_data(regiment).stands_left) == (20, 6, 3.0, 2)
    own = unit_data(hope)
    assert (own.troop, own.formation, own.parent) == ("commanded_shot", "forlorn_hope", "pf")
    assert own.morale is None  # "Roll morale as unit": untested until it is
    assert (hope.side, hope.command, hope.label) == (P, "centre", "pf's forlorn hope")
    told = next(e for e in events if isinstance(e, ForlornHopeFormed))
    assert told.ahead == roll


def test_a_piece_in_the_way_stops_the_division_short() -> None:
    game = dts_game([FOOT, unit("rx", R, "foot", 20, 9, 180)], forlorn_hope=True, turns=1)
    after = formed(game, 5)
    assert after.units[HOPE].y == 8.0  # in contact with the enemy's front at 8.5


def test_commanded_musketeers_need_their_own_card_from_the_next_shuffle() -> None:
    """"Commanded musketeers need their own card"; a forlorn hope sent out by a regiment
    is part of it, not a unit of its own for victory."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    before = game.ruleset.initial_state(game.scenario)
    after = formed(game)
    assert [read_card(c).name for c in full_deck(after) if read_card(c).name == HOPE] == [HOPE]
    assert [read_card(c).name for c in full_deck(before) if read_card(c).name == HOPE] == []
    gone = after.with_unit(after.units[HOPE].evolve(removed="routed"))
    assert units_lost(gone, P) == units_lost(after, P) == (0, 1)
    regiment_gone = after.with_unit(after.units["pf"].evolve(removed="routed"))
    assert units_lost(regiment_gone, P) == (1, 1)


# --- going with its regiment ---------------------------------------------------------------------


def test_it_moves_the_same_distance_at_the_same_time_as_its_regiment() -> None:
    """"It moves the same 1D6 distance at the same time as parent unit": carried as the
    regiment moves, passed by it without a morale check."""
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    out = formed(game, 2)  # the division at (20, 9)
    state = ended_turn(activated(game, "pf", "advance", {"open": 4, "difficult": 2}))
    state = state.with_unit(out.units["pf"]).with_unit(out.units[HOPE])
    after, events = game.apply(state, Move(unit="pf", waypoints=((20, 10),)), ScriptedDice([]))
    assert (after.units["pf"].y, after.units[HOPE].y) == (10, 13)
    assert UnitMoved(unit=HOPE, path=((20, 9), (20, 13)), facing=0, reason="with its regiment") in events


def test_a_move_that_would_carry_it_onto_another_piece_is_refused() -> None:
    game = dts_game([FOOT, unit("rx", R, "foot", 20, 13.5, 180)], forlorn_hope=True, turns=1)
    out = formed(game, 2)
    state = activated(game, "pf", "advance", {"open": 4, "difficult": 2})
    state = state.with_unit(out.units["pf"]).with_unit(out.units[HOPE])
    assert codes(game, state, Move(unit="pf", waypoints=((20, 9),))) == []
    assert [v.message for v in game.validate(state, Move(unit="pf", waypoints=((20, 10),)))] == [
        "pf's forlorn hope would be carried onto rx"]


def test_it_is_not_carried_when_it_has_gone_back_to_line() -> None:
    game = dts_game([FOOT, ENEMY], forlorn_hope=True, turns=1)
    out = formed(game, 2)
    state = ended_turn(activated(game, "pf", "advance", {"open": 4, "difficult": 2}))
    state = state.with_unit(out.units["pf"]).with_unit(out.units[HOPE].evolve(formation="line", x=30))
    after, _ = game.apply(state, Move(unit="pf", waypoints=((20, 10),)), ScriptedDice([]))
    assert after.units[HOPE].y == 9


# --- the modifiers, dice scripted -----------------------------------------------------------------


@pytest.mark.parametrize(("formation", "result", "lost"), [("forlorn_hope", PB2D6, 0), ("line", ROUT, 1)])
def test_musketry_at_a_forlorn_hope_is_minus_1(formation: str, result: str, lost: int) -> None:
    """Fire c: "-1 if target is in forlorn hope": 5 + 6 = 11 is a ROUT for good morale,
    and costs a point; at a forlorn hope it is 10, PB2D6, and costs none."""
    state = state_of(dts("f", A, 24, 10, 0, morale=3),
                     dts("t", B, 24, 14, 180, troop="commanded_shot", morale=2, formation=formation))
    tx = tx_with(state, 1, 5, 6)  # range 6 + 1 = 7 against 3"; dice 5, 6
    shot = fire(tx, "f", "t")
    assert (shot.result, shot.points_lost, points(tx, "t")) == (result, lost, 2 - lost)
    assert shot.modifiers == (((-1, "target in forlorn hope"),) if formation == "forlorn_hope" else ())
    assert dice_left(tx) == 0


@pytest.mark.parametrize(("attacker", "target", "modified", "result", "dice"), [
    ("line", "line", 8, PB1D6, (2,)),               # 3 + 5 for good morale: PB1D6
    ("line", "forlorn_hope", 10, PB2D6, (4,)),      # +2 target in forlorn hope
    ("forlorn_hope", "line", 6, HOLD, ()),          # -2 attacker in forlorn hope: a point lost
    ("forlorn_hope", "forlorn_hope", 8, PB1D6, (2,)),
])
def test_melee_plus_2_at_a_forlorn_hope_and_minus_2_for_one_attacking(
        attacker: str, target: str, modified: int, result: str, dice: tuple[int, ...]) -> None:
    """Melee c: "target ... forlorn hope = +2", "attacker in forlorn hope = -2"."""
    state = state_of(dts("a", A, 24, 10, 0, troop="commanded_shot", morale=3, formation=attacker),
                     dts("t", B, 24, 11, 180, troop="commanded_shot", morale=2, formation=target))
    tx = tx_with(state, 3, 5, *dice)
    fought = fight(tx, "a", "t")
    assert (fought.modified_sum, fought.result) == (modified, result)
    assert fought.attacker_points_lost == (1 if result == HOLD else 0)
    assert dice_left(tx) == 0


def test_the_distance_out_is_one_die_each_inch_a_sixth() -> None:
    """"1D6 inches in front": every inch from 1 to 6 once in six, and nothing else rolled."""
    def ahead(dice: Dice) -> float:
        state = state_of(dts("f", A, 24, 10, 0, morale=2))
        return form(Tx(table_with(), state, dice), "f").ahead

    found: dict[float, Fraction] = {}
    for branch in enumerate_branches(ahead):
        found[branch.result] = found.get(branch.result, Fraction(0)) + branch.probability
    assert found == {float(n): Fraction(1, 6) for n in range(1, 7)}


# --- the regiment's own generals ---------------------------------------------------------------

BEFORE_FOOT = {"id": "pc", "side": P, "command": "centre", "x": 20, "y": 7.25, "general": True}
"""A general (1.5" square) touching the middle of FOOT's front edge (at 6.5), where its
forlorn hope's first stand would go."""


@pytest.mark.parametrize("roll", [1, 4])
def test_the_regiments_own_general_before_it_does_not_stop_its_forlorn_hope(roll: int) -> None:
    """Optional Rules a with Movement's "Attached generals move with unit": the regiment's
    own general standing just before it is not in its forlorn hope's way; he stays with the
    regiment, and the division forms just past him (his front edge at 8) and goes its 1D6
    from there, never on him."""
    game = dts_game([FOOT, ENEMY], commanders=[BEFORE_FOOT], forlorn_hope=True, turns=1,
                    table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    change = ChangeFormation(unit="pf", formation="forlorn_hope")
    assert codes(game, activated(game, "pf", "formation_change"), change) == []
    after, events = game.apply(ended_turn(activated(game, "pf", "formation_change")), change,
                               ScriptedDice([roll]))
    hope, general = after.units[HOPE], after.units["pc"]
    assert (hope.x, hope.y) == (20, 8.5 + roll)
    assert next(e for e in events if isinstance(e, ForlornHopeFormed)).ahead == 1.5 + roll
    assert (general.x, general.y) == (20, 7.25) and unit_data(general).attached_to == "pf"
    assert not hope.overlaps(general.base.corners())


@pytest.mark.parametrize("general", ["independent", "attached to another unit"])
def test_a_general_not_the_regiments_own_before_it_leaves_its_forlorn_hope_no_room(general: str) -> None:
    """Only the regiment's own generals stand in its front: any other general there is a
    piece in the way, and leaves the forlorn hope no room just before the regiment."""
    other = unit("pg", P, "foot", 23.75, 7.25) if general != "independent" else None  # touching pc
    attached = {"commander": "pc", "attached_to": "pg" if other else None}
    game = dts_game([FOOT, ENEMY, *([other] if other else [])], commanders=[BEFORE_FOOT | {"x": 20.75}],
                    forlorn_hope=True, table={"generals": [attached]})
    assert game.ruleset.scenario_problems(game.scenario) == []
    refused = game.validate(activated(game, "pf", "formation_change"),
                            ChangeFormation(unit="pf", formation="forlorn_hope"))
    assert [v.message for v in refused] == ["pf's forlorn hope would stand on pc"]


def _hope_with_general(game, general_at: tuple[float, float]) -> GameState:  # type: ignore[no-untyped-def]
    """``pf`` activated to advance, its forlorn hope out 2" (the division at (20, 9)) and
    the general ``pc`` attached to the division at ``general_at``."""
    out = formed(game, 2)
    state = ended_turn(activated(game, "pf", "advance", {"open": 4, "difficult": 2}))
    state = state.with_unit(out.units["pf"]).with_unit(out.units[HOPE])
    general = state.units["pc"]
    return state.with_unit(general.evolve(x=general_at[0], y=general_at[1],
                                          own=unit_data(general).evolve(attached_to=HOPE)))


def test_the_generals_attached_to_a_forlorn_hope_go_with_it_as_its_regiment_moves() -> None:
    """Movement: "Attached generals move with unit": a general attached to the forlorn hope
    goes with it as its regiment's move carries it, keeping his place before it; he is not
    in the regiment's way, nor left behind."""
    game = dts_game([FOOT, ENEMY], commanders=[BEFORE_FOOT | {"x": 25}], forlorn_hope=True, turns=1)
    state = _hope_with_general(game, (20, 10.5))
    assert codes(game, state, Move(unit="pf", waypoints=((20, 10),))) == []
    after, events = game.apply(state, Move(unit="pf", waypoints=((20, 10),)), ScriptedDice([]))
    assert after.units[HOPE].y == 13 and (after.units["pc"].x, after.units["pc"].y) == (20, 14.5)
    assert unit_data(after.units["pc"]).attached_to == HOPE
    assert UnitMoved(unit="pc", path=((20, 10.5), (20, 14.5)), facing=0, reason="with its unit") in events


def test_a_move_that_would_carry_the_forlorn_hopes_general_off_the_table_is_refused() -> None:
    """A regiment's move may not carry its forlorn hope's attached general off the table,
    as it may not carry its own; short of the edge it may."""
    game = dts_game([FOOT, ENEMY], commanders=[BEFORE_FOOT | {"x": 25}], forlorn_hope=True, turns=1)
    state = _hope_with_general(game, (20, 10.5))
    edge = game.table.width
    beside = state.units["pc"].evolve(x=edge - 0.75 - 0.5)  # half an inch from the right edge
    state = state.with_unit(beside)
    assert codes(game, state, Move(unit="pf", waypoints=((20.4, 6),))) == []
    assert [v.message for v in game.validate(state, Move(unit="pf", waypoints=((21, 6),)))] == [
        "pc would be carried off the table"]
