"""Charge yr Pikes!' bonus and breakthrough moves (section 12 I-K; Sequence of play I):
the winners of combats begun this turn test; those that pass move or break through in a
step of their own, and the bonus combats are fought in the same phase."""

from __future__ import annotations

from typing import Any

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.events import PhaseBegan
from tertia.core.game import Game
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.actions import Breakthrough
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES, BonusOffered, CloseCombatOver
from tertia.rulesets.charge_yr_pikes.charge import BONUS, CLOSE, CLOSED_ON
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.events import ChargeMade, PhaseStep
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.phases import after_fire
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes, tables_of
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .cyp_dice_support import ByPurpose
from .test_cyp_setup import scenario

K1_MOVES = [4, 1, 1, 5]
"""Grades; k1's card first; its general rolls 5."""


def _game() -> tuple[Game, GameState]:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice(K1_MOVES))
    for unit in state.iter_troops():
        state = state.with_unit(unit.evolve(own=unit_data(unit).evolve(morale=3, morale_max=3)))
    return game, state


def _in_front(state: GameState, unit_id: str, of: str, gap: float = 1.0) -> GameState:
    """``unit_id`` placed facing ``of`` (which faces north), ``gap`` inches in front of it."""
    front = state.units[of]
    unit = state.units[unit_id]
    return state.with_unit(unit.evolve(x=front.x, y=front.y + front.depth / 2 + gap + unit.depth / 2,
                                       facing=180.0))


def _charged(state: GameState, *charges: tuple[str, str]) -> GameState:
    """The movement phase over, ``charges`` (attacker, target) made from where the
    attackers stand, 5" back."""
    kept = tuple((a, t, state.units[a].x, state.units[a].y - 5.0, state.units[a].facing, 0)
                 for a, t in charges)
    g = game_data(state).evolve(card=None, moving=(), charges=kept)
    return state.evolve(own=g)


def _horse_beats_foot(**script: list[Any]) -> tuple[Game, Tx]:
    """k-horse charged p-foot (1" ahead) and wins: the close combat phase fought on
    scripted dice (the horse's bonus test as ``script`` says)."""
    game, state = _game()
    state = _charged(_in_front(state, "p-foot", "k-horse"), ("k-horse", "p-foot"))
    dice = ByPurpose({"caracole": [6], "(to close)": [6], "(closed on)": [6],
                      "close combat: king": ["max"], "close combat: parl": ["min"],
                      "(lost a close combat)": [6], "plunder: obedience": [6], **script})
    tx = Tx(game.table, state, dice)
    after_fire(tx, tables_of(state), {})
    return game, tx


def _bonus_step(owed: tuple[tuple[str, bool, tuple[str, ...]], ...], **places: tuple[float, float]
                ) -> tuple[Game, GameState]:
    """The king's bonus orders awaited, ``owed`` the bonus moves (unit, may break
    through, foes fought), units placed at ``places``."""
    game, state = _game()
    for unit_id, (x, y) in places.items():
        state = state.with_unit(state.units[unit_id].evolve(x=x, y=y))
    g = game_data(state).evolve(card=None, moving=(), charges=(), step=BONUS_MOVES, step_side="king",
                                bonus=owed)
    return game, state.evolve(own=g, active="king")


# --- I, K: who tests, and the step ------------------------------------------------------------


def test_a_winner_that_passes_its_test_is_owed_a_bonus_move_and_its_side_gives_the_orders() -> None:
    # 12 I: "units that won the close combat on the turn that it began may test morale
    # and if passed, are eligiable for bonus movement"; J: horse may break through.
    _, tx = _horse_beats_foot(**{"(bonus move)": [6]})
    tested = [(e.unit, e.why, e.passed) for e in tx.events if isinstance(e, MoraleTested)]
    assert ("k-horse", BONUS, True) in tested
    assert [(e.unit, e.breakthrough, e.foes) for e in tx.events if isinstance(e, BonusOffered)] == [
        ("k-horse", True, ("p-foot",))]
    assert PhaseBegan(phase=BONUS_MOVES) in tx.events
    assert [e for e in tx.events if isinstance(e, PhaseStep)] == [PhaseStep(step=BONUS_MOVES, side="king")]
    g = game_data(tx.state)
    assert (g.step, g.step_side, tx.state.active) == (BONUS_MOVES, "king", "king")
    assert not any(isinstance(e, CloseCombatOver) for e in tx.events)  # the phase waits for the orders


def test_a_winner_that_fails_its_test_stands_and_the_turn_goes_on() -> None:
    # 12 K: "Units attempting bonus movement who fail the morale test stand in place, no
    # other effects."
    _, tx = _horse_beats_foot(**{"(bonus move)": [1]})
    assert ("k-horse", BONUS, False) in [(e.unit, e.why, e.passed) for e in tx.events
                                         if isinstance(e, MoraleTested)]
    assert not any(isinstance(e, BonusOffered | PhaseStep) for e in tx.events)
    assert isinstance(next(e for e in tx.events if isinstance(e, CloseCombatOver)), CloseCombatOver)
    g = game_data(tx.state)
    assert (g.step, g.bonus, g.charges) == (None, (), ())
    assert not unit_data(tx.state.units["k-horse"]).routed


def test_the_winner_of_a_locked_melee_fought_on_takes_no_bonus_test() -> None:
    game, state = _game()
    state = _in_front(state, "p-foot", "k-horse")
    horse = state.units["k-horse"]
    locked = (("k-horse", "p-foot", horse.x, horse.y - 5.0, 0.0, 0),)
    state = state.evolve(own=game_data(state).evolve(card=None, moving=(), charges=(), locked=locked))
    dice = ByPurpose({"close combat: king": ["max"], "close combat: parl": ["min"],
                      "(lost a close combat)": [6], "plunder: obedience": [6], "(bonus move)": [6]})
    tx = Tx(game.table, state, dice)
    after_fire(tx, tables_of(state), {})
    assert dice.rolled("close combat: king")  # the melee was fought on
    assert not dice.rolled("(bonus move)")
    assert not any(isinstance(e, BonusOffered) for e in tx.events)


# --- I, J: the moves ----------------------------------------------------------------------------


def test_foot_make_a_normal_move_and_no_breakthrough() -> None:
    # 12 I: "Foot units may make a normal non-combat move."
    game, state = _bonus_step((("k-foot", False, ("p-foot",)),), **{"p-foot": (30.0, 40.0)})
    assert game.is_legal(state, Move(unit="k-foot", waypoints=((30.0, 20.0),)))  # 8"
    assert [v.code for v in game.validate(state, Move(unit="k-foot", waypoints=((30.0, 20.5),)))] == [
        CypCode.TOO_FAR]
    refused = game.validate(state, Breakthrough(unit="k-foot", target="p-foot"))
    assert [v.code for v in refused] == [CypCode.NO_BREAKTHROUGH]


def test_a_unit_owed_no_bonus_move_may_not_move() -> None:
    game, state = _bonus_step((("k-foot", False, ()),))
    state = state.with_unit(state.units["k-horse"].evolve(name="Prince Rupert's Horse"))
    refused = game.validate(state, Move(unit="k-horse", waypoints=((50.0, 14.0),)))
    assert [v.code for v in refused] == [CypCode.NO_BONUS_MOVE]
    assert refused[0].message.startswith("Prince Rupert's Horse")  # named, not by its id
    unknown = game.validate(state, Move(unit="k-nobody", waypoints=((50.0, 14.0),)))
    assert unknown[0].message.startswith("'k-nobody'")


def test_horse_break_through_on_their_normal_move_at_another_unit() -> None:
    # 12 J: "they may have a 'Breakthrough' move and attack another unit in close combat.
    # Normal movment is used, not charge movement." Horse: normal 16", charge 32".
    owed = (("k-horse", True, ("k-beaten",)),)
    game, state = _bonus_step(owed, **{"p-foot": (50.0, 28.0)})
    assert game.is_legal(state, Breakthrough(unit="k-horse", target="p-foot"))
    game, state = _bonus_step(owed, **{"p-foot": (50.0, 40.0)})  # within the charge move only
    assert [v.code for v in game.validate(state, Breakthrough(unit="k-horse", target="p-foot"))] == [
        CypCode.TOO_FAR]
    game, state = _bonus_step((("k-horse", True, ("p-foot",)),), **{"p-foot": (50.0, 28.0)})
    assert [v.code for v in game.validate(state, Breakthrough(unit="k-horse", target="p-foot"))] == [
        CypCode.SAME_FOE]


def test_the_bonus_combat_is_fought_at_once_without_a_test_to_close() -> None:
    # 12 J: "The morale test to see if the bonus move or breakthrough may be done counts as
    # the 'to close' die roll if passed." Sequence I: "fight any bonus close combats".
    game, state = _bonus_step((("k-horse", True, ()),), **{"p-foot": (50.0, 28.0)})
    dice = ByPurpose({"caracole": [6], "(closed on)": [6], "close combat: king": ["max"],
                      "close combat: parl": ["min"], "(lost a close combat)": [6], "plunder: obedience": [6]})
    state, events = game.apply(state, Breakthrough(unit="k-horse", target="p-foot"), dice)
    made = [e for e in events if isinstance(e, ChargeMade)]
    assert [(m.attacker, m.target, m.fatigued) for m in made] == [("k-horse", "p-foot", 0)]
    assert game_data(state).bonus == ()
    state, events = game.apply(state, EndPhase(), dice)
    tests = [(e.unit, e.why) for e in events if isinstance(e, MoraleTested)]
    assert ("k-horse", CLOSE) not in tests and ("p-foot", CLOSED_ON) in tests
    assert dice.rolled("close combat: king") and dice.rolled("close combat: parl")
    assert ("p-foot", "lost a close combat") in tests
    assert not dice.rolled("(bonus move)")  # a bonus combat gives no bonus move
    assert any(isinstance(e, CloseCombatOver) for e in events)


def test_ending_the_orders_leaves_the_rest_standing() -> None:
    game, state = _bonus_step((("k-horse", True, ()),), **{"p-foot": (50.0, 28.0)})
    before = state.units["k-horse"]
    state, events = game.apply(state, EndPhase(), ByPurpose())
    assert (state.units["k-horse"].x, state.units["k-horse"].y) == (before.x, before.y)
    assert not any(isinstance(e, ChargeMade) for e in events)
    assert game_data(state).bonus == ()


def test_a_bonus_move_spends_the_units_bonus() -> None:
    game, state = _bonus_step((("k-foot", False, ()), ("k-horse", True, ())))
    state, _ = game.apply(state, Move(unit="k-foot", waypoints=((30.0, 16.0),)), ByPurpose())
    assert state.units["k-foot"].y == 16.0
    assert [b[0] for b in game_data(state).bonus] == ["k-horse"]
    assert [v.code for v in game.validate(state, Move(unit="k-foot", waypoints=((30.0, 18.0),)))] == [
        CypCode.NO_BONUS_MOVE]
