"""Charge yr Pikes!: what a charged unit does on its card (section 12 L, M; 13 B): test
to move away, change formation or reface; countercharge or stand without a test; turn to
meet a flank or rear charge; and how the countercharge is fought."""

from __future__ import annotations

import random
from typing import Any

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.events import DiceRolled, UnitTurned
from tertia.core.game import Game
from tertia.core.geometry import Base, base_distance
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.actions import Breakthrough, Charge, MoraleToMove, Reform, TurnToMeet
from tertia.rulesets.charge_yr_pikes.ai.doctrine import CypDoctrine
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES
from tertia.rulesets.charge_yr_pikes.charge import CLOSE, CLOSED_ON
from tertia.rulesets.charge_yr_pikes.charge import Charge as Charged
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.data import SQUARE
from tertia.rulesets.charge_yr_pikes.facing import meeting_facing
from tertia.rulesets.charge_yr_pikes.melee_dice import fighters_of
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.phases import after_fire
from tertia.rulesets.charge_yr_pikes.reaction import (
    MOVE_AWAY,
    REFORM,
    ChargeEvaded,
    Steadied,
    chargers_of,
    close_in,
    flank_attacks,
)
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_dice_support import ByPurpose
from .cyp_melee_support import Morale, piece, state_of, table_with, tx_with
from .test_cyp_doctrine import FAR, _choose, _on_card
from .test_cyp_setup import scenario

K1_MOVES = [4, 1, 1, 5]
"""Grades; k1's card first; its general rolls 5: k-foot may move."""


def _charged(extension: dict[str, Any] | None = None, *, flank: bool = False, **own: Any
             ) -> tuple[Game, GameState]:
    """k1's card in play, k-foot (facing north at 30, 12) free to move and charged by
    p-foot, halted 1" from its front (or, ``flank``, from its right flank, the charge
    begun behind k-foot's front line); k-foot's own values changed by ``own``."""
    game = Game(ChargeYrPikes(secret_deployment=False), scenario(extension))
    state, _ = game.start(ScriptedDice(K1_MOVES))
    for unit in state.iter_troops():
        state = state.with_unit(unit.evolve(own=unit_data(unit).evolve(morale=3, morale_max=3)))
    foot, enemy = state.units["k-foot"], state.units["p-foot"]
    state = state.with_unit(foot.evolve(own=unit_data(foot).evolve(**own)))
    if flank:
        x = foot.x + foot.width / 2 + 1.0 + enemy.depth / 2
        state = state.with_unit(enemy.evolve(x=x, y=foot.y, facing=270.0))
        start = (x + 4.0, foot.y - 6.0, 270.0)
    else:
        y = foot.y + foot.depth / 2 + 1.0 + enemy.depth / 2
        state = state.with_unit(enemy.evolve(x=foot.x, y=y, facing=180.0))
        start = (foot.x, y + 5.0, 180.0)
    charges = (("p-foot", "k-foot", *start, 0),)
    return game, state.evolve(own=game_data(state).evolve(charges=charges))


def _codes(game: Game, state: GameState, action: Any) -> list[str]:
    return [v.code for v in game.validate(state, action)]


BACK = Move(unit="k-foot", waypoints=((30.0, 6.0),))
"""6" straight back, away from p-foot in front."""


# --- 12 L: moving away ------------------------------------------------------------------------


def test_a_charged_unit_must_pass_a_test_before_it_moves_reforms_or_refaces() -> None:
    game, state = _charged()
    assert chargers_of(state, "k-foot") == ("p-foot",)
    assert _codes(game, state, BACK) == [CypCode.MUST_TEST]
    assert _codes(game, state, Reform(unit="k-foot", formation=SQUARE)) == [CypCode.MUST_TEST]
    assert _codes(game, state, Move(unit="k-foot", face_after=90.0)) == [CypCode.MUST_TEST]  # reface
    assert game.is_legal(state, MoraleToMove(unit="k-foot", purpose=MOVE_AWAY))


def test_a_unit_not_charged_moves_freely_and_has_no_test_to_take() -> None:
    game, state = _charged()
    state = state.evolve(own=game_data(state).evolve(charges=()))
    assert game.is_legal(state, BACK)
    assert _codes(game, state, MoraleToMove(unit="k-foot")) == [CypCode.NOT_CHARGED]


def test_passing_it_may_move_away_and_the_charge_strikes_nothing() -> None:
    # 12 L: "They must test morale to do so": rating 3 + 6 passes.
    game, state = _charged()
    state, events = game.apply(state, MoraleToMove(unit="k-foot", purpose=MOVE_AWAY), ScriptedDice([6]))
    assert [e for e in events if isinstance(e, Steadied)] == [Steadied(unit="k-foot", purpose=MOVE_AWAY)]
    closer = Move(unit="k-foot", waypoints=((30.0, 12.5),))  # nearer p-foot, not away
    assert _codes(game, state, closer) == [CypCode.NOT_AWAY]
    assert _codes(game, state, MoraleToMove(unit="k-foot")) == [CypCode.ALREADY_TESTED]
    halted = state.units["p-foot"]
    state, events = game.apply(state, BACK, ScriptedDice([]))
    assert [e for e in events if isinstance(e, ChargeEvaded)] == [ChargeEvaded(unit="k-foot",
                                                                               chargers=("p-foot",))]
    assert game_data(state).charges == ()
    assert state.units["p-foot"] == halted  # the charger stays where it halted
    # With no charge left, the close combat phase fights nothing.
    tx = Tx(game.table, state.evolve(own=game_data(state).evolve(card=None, moving=())), ByPurpose())
    after_fire(tx, tables_of(state), {})
    assert not [e for e in tx.events if isinstance(e, DiceRolled) and e.purpose.startswith("close combat")]


def test_failing_the_test_to_move_away_it_routs() -> None:
    # 12 L: "any failure means that they rout." Rating 3 + 1 fails.
    game, state = _charged()
    dice = ByPurpose({"(to move away from a charge)": [1]}, otherwise="max")
    state, events = game.apply(state, MoraleToMove(unit="k-foot", purpose=MOVE_AWAY), dice)
    assert unit_data(state.units["k-foot"]).routed
    assert [(e.unit, e.routed) for e in events if isinstance(e, ChargeEvaded)] == [("k-foot", True)]
    assert game_data(state).charges == ()
    assert _codes(game, state, Reform(unit="k-foot", formation="line"))  # its chance is spent


def test_passing_the_test_to_reform_it_may_change_formation_or_reface_but_not_move_away() -> None:
    game, state = _charged()
    state, _ = game.apply(state, MoraleToMove(unit="k-foot", purpose=REFORM), ScriptedDice([6]))
    assert game.is_legal(state, Reform(unit="k-foot", formation=SQUARE))
    enemy = state.units["p-foot"]
    room = state.with_unit(enemy.evolve(y=enemy.y + 6.0))  # room to wheel about
    assert game.is_legal(room, Move(unit="k-foot", face_after=90.0))
    assert _codes(game, state, BACK) == [CypCode.MUST_TEST]
    state, _ = game.apply(state, Reform(unit="k-foot", formation=SQUARE), ScriptedDice([]))
    assert unit_data(state.units["k-foot"]).formation == SQUARE
    assert chargers_of(state, "k-foot") == ("p-foot",)  # the charge still comes in


def test_failing_the_test_to_reform_routs_or_with_the_option_stands() -> None:
    # 12 L: "similarly must sucessfully test morale"; tables.toml [reaction].
    dice = ByPurpose({"(to change formation": [1]}, otherwise="max")
    game, state = _charged()
    state, _ = game.apply(state, MoraleToMove(unit="k-foot", purpose=REFORM), dice)
    assert unit_data(state.units["k-foot"]).routed
    game, state = _charged({"tables": {"reaction": {"reform_failure": "stand"}}})
    dice = ByPurpose({"(to change formation": [1]}, otherwise="max")
    state, _ = game.apply(state, MoraleToMove(unit="k-foot", purpose=REFORM), dice)
    own = unit_data(state.units["k-foot"])
    assert not own.routed and own.formation == "line"
    assert chargers_of(state, "k-foot") == ("p-foot",)
    assert _codes(game, state, Reform(unit="k-foot", formation=SQUARE))  # its chance is spent


def test_a_unit_charged_after_it_moved_stands() -> None:
    # 12 L: "Units that are attacked in close combat but have not yet moved".
    game, state = _charged(moved=True)
    for action in (MoraleToMove(unit="k-foot"), Charge(unit="k-foot", target="p-foot"),
                   TurnToMeet(unit="k-foot", attacker="p-foot")):
        assert _codes(game, state, action) == [CypCode.CHARGED_AFTER_MOVING]


def test_a_unit_that_failed_its_command_response_does_not_react() -> None:
    game, state = _charged()
    state = state.evolve(own=game_data(state).evolve(moving=()))
    assert _codes(game, state, MoraleToMove(unit="k-foot")) == [CypCode.NOT_MOVING]
    assert _codes(game, state, Charge(unit="k-foot", target="p-foot")) == [CypCode.NOT_MOVING]


# --- 12 M: countercharging and standing ----------------------------------------------------------


def test_a_charged_unit_countercharges_its_charger_without_a_test_and_no_other() -> None:
    game, state = _charged()
    other = state.units["p-foot"].evolve(id="p-other", x=50.0, y=30.0)
    state = state.with_unit(other)
    assert _codes(game, state, Charge(unit="k-foot", target="p-other")) == [CypCode.COUNTERCHARGE_ONLY]
    state, events = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    assert not [e for e in events if isinstance(e, MoraleTested)]
    assert [c[:2] for c in game_data(state).charges] == [("p-foot", "k-foot"), ("k-foot", "p-foot")]
    assert unit_data(state.units["k-foot"]).moved  # it met the charge: no longer motionless


def test_in_a_countercharge_each_tests_once_and_both_attack() -> None:
    a = piece("a", "parl", "horse", 20.0, 24.0, 180.0)
    x = piece("x", "king", "horse", 20.0, 20.0, 0.0)
    charges = [Charged("a", "x", Base(20.0, 30.0, 180.0, a.width, a.depth)),
               Charged("x", "a", x.base)]
    tx = tx_with(state_of(a, x))
    morale = Morale()
    closing = close_in(tx, charges, morale)
    assert morale.asked == [("a", CLOSE), ("x", CLOSE)]  # no second test as the other's target
    assert len(closing.charges) == 2 and closing.failed == ()
    fighters = {f.unit: f for f in fighters_of(table_with(), tx.state, closing.charges)}
    assert fighters["a"].attacking and fighters["x"].attacking


def test_a_countercharger_that_fails_to_close_acts_as_a_defender_that_failed() -> None:
    a = piece("a", "parl", "horse", 20.0, 24.0, 180.0)
    x = piece("x", "king", "horse", 20.0, 20.0, 0.0)
    charges = [Charged("a", "x", Base(20.0, 30.0, 180.0, a.width, a.depth)), Charged("x", "a", x.base)]
    morale = Morale({"x": [False]})
    closing = close_in(tx_with(state_of(a, x)), charges, morale)
    assert morale.asked == [("a", CLOSE), ("x", CLOSE)]
    assert (closing.charges, closing.stopped, closing.failed) == ((), ("x",), ("x",))
    morale = Morale({"a": [False], "x": [False]})
    closing = close_in(tx_with(state_of(a, x)), charges, morale)
    assert (closing.charges, closing.failed, sorted(closing.stopped)) == ((), (), ["a", "x"])


def test_a_breakthrough_does_not_test_to_close_but_its_target_tests_to_stand() -> None:
    a = piece("a", "parl", "horse", 20.0, 24.0, 180.0)
    x = piece("x", "king", "foot", 20.0, 20.0, 0.0)
    charges = [Charged("a", "x", Base(20.0, 30.0, 180.0, a.width, a.depth))]
    morale = Morale()
    closing = close_in(tx_with(state_of(a, x)), charges, morale, closed=frozenset({"a"}))
    assert morale.asked == [("x", CLOSED_ON)] and len(closing.charges) == 1


def test_a_unit_standing_to_receive_the_charge_still_tests_when_closed_on() -> None:
    # 12 M: standing needs no test "as above" (12 L's); 12 C's test stands.
    a = piece("a", "parl", "horse", 20.0, 24.0, 180.0)
    x = piece("x", "king", "foot", 20.0, 20.0, 0.0)
    morale = Morale()
    close_in(tx_with(state_of(a, x)), [Charged("a", "x", Base(20.0, 30.0, 180.0, a.width, a.depth))], morale)
    assert morale.asked == [("a", CLOSE), ("x", CLOSED_ON)]


# --- 13 B: turning to meet -------------------------------------------------------------------------


def test_a_unit_charged_in_flank_turns_to_meet_it_without_a_test() -> None:
    game, state = _charged(flank=True)
    assert flank_attacks(state, "k-foot") == ("p-foot",)
    state, events = game.apply(state, TurnToMeet(unit="k-foot", attacker="p-foot"), ScriptedDice([]))
    assert not [e for e in events if isinstance(e, MoraleTested)]
    meeting = meeting_facing(state.units["p-foot"].base)
    assert [e.facing for e in events if isinstance(e, UnitTurned)] == [meeting]
    assert state.units["k-foot"].facing == 90.0
    assert flank_attacks(state, "k-foot") == ()  # the charge is now frontal
    # turning is its change on this card
    assert _codes(game, state, MoraleToMove(unit="k-foot", purpose=REFORM)) == [CypCode.ALREADY_MOVED]


def test_only_a_flank_or_rear_charge_may_be_turned_to_meet() -> None:
    game, state = _charged()
    assert _codes(game, state, TurnToMeet(unit="k-foot", attacker="p-foot")) == [CypCode.NOT_FLANK]
    game, state = _charged(flank=True, moved=True)
    assert _codes(game, state, TurnToMeet(unit="k-foot", attacker="p-foot")) == [CypCode.CHARGED_AFTER_MOVING]


def test_the_countercharge_turns_the_unit_so_the_charge_is_met_frontally() -> None:
    game, state = _charged(flank=True)
    state, _ = game.apply(state, Charge(unit="k-foot", target="p-foot"), ScriptedDice([]))
    assert flank_attacks(state, "k-foot") == ()
    assert base_distance(state.units["k-foot"].base, state.units["p-foot"].base) <= 1.0 + 1e-6


# --- the doctrine player ---------------------------------------------------------------------------


def _doctrine_charged(attacker: str, at: tuple[float, float, float], start: tuple[float, float, float],
                      target: str = "k-foot", **values: Any) -> tuple[Game, GameState]:
    game, state = _on_card(FAR, (target,), **values)
    x, y, facing = at
    state = state.with_unit(state.units[attacker].evolve(x=x, y=y, facing=facing))
    charges = ((attacker, target, *start, 0),)
    return game, state.evolve(own=game_data(state).evolve(charges=charges))


def test_the_doctrine_turns_to_meet_a_flank_charge() -> None:
    # k-foot (26, 10) faces north; p-foot2 halted on its right flank, its charge begun behind
    # k-foot's front line.
    game, state = _doctrine_charged("p-foot2", (34.5, 10.0, 270.0), (40.0, 4.0, 270.0))
    assert _choose(game, state) == TurnToMeet(unit="k-foot", attacker="p-foot2")


def test_the_doctrine_moves_an_outmatched_unit_away_and_stands_a_match() -> None:

    from .test_cyp_doctrine import _choose
    # A regiment hurt to two stands, charged in front by a whole one: it tests to move away,
    # and passing, falls back a move.
    game, state = _doctrine_charged("p-foot", (26.0, 13.5, 180.0), (26.0, 20.0, 180.0),
                                    **{"k-foot": {"pike": 4, "shot": 4}})
    player = CypDoctrine()
    action = player.choose(game, state, random.Random(0))
    assert action == MoraleToMove(unit="k-foot", purpose=MOVE_AWAY)
    state, _ = game.apply(state, action, ScriptedDice([6] * 3))
    move = player.choose(game, state, random.Random(0))
    assert isinstance(move, Move) and game.is_legal(state, move)
    assert move.waypoints[-1][1] < 10.0  # back, away from the charger
    # Whole regiment against whole regiment: it stands (the doctrine ends the card).
    game, state = _doctrine_charged("p-foot", (26.0, 13.5, 180.0), (26.0, 20.0, 180.0))
    assert not isinstance(_choose(game, state), MoraleToMove | Move)


def test_the_doctrine_breaks_through_at_a_shaken_foe_and_else_stands_fast() -> None:
    # 12 J: k-horse (50, 10) owed a bonus move; p-foot 14" ahead, within its normal 16".
    game, state = _on_card({**FAR, "p-foot": (50.0, 24.0)}, (), **{"p-foot": {"disordered": True}})
    g = game_data(state).evolve(card=None, step=BONUS_MOVES, step_side="king",
                                bonus=(("k-horse", True, ()), ("k-foot", False, ())))
    state = state.evolve(own=g)
    assert _choose(game, state) == Breakthrough(unit="k-horse", target="p-foot")
    steady = state.with_unit(state.units["p-foot"].evolve(own=unit_data(state.units["p-foot"]).evolve(
        disordered=False)))
    assert _choose(game, steady) == EndPhase()  # pikes in good order: the horse stand fast, as the foot
