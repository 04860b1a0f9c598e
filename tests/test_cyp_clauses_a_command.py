"""Charge yr Pikes! cards and command (Sequence of play 3 A; Tertias and officers 4 B, C,
E): the movement phase ends with the last card, each side's tertias test under their own
officers, the Commander-in-chief's reach over every tertia, and the morale of a unit with
no officer in its front rank."""

from __future__ import annotations

from tertia.activation.deck import group_card
from tertia.core.actions import EndPhase
from tertia.core.dice import ScriptedDice
from tertia.core.events import PhaseBegan
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.command import dice_for
from tertia.rulesets.charge_yr_pikes.events import CommandResponded
from tertia.rulesets.charge_yr_pikes.morale import morale_test, officer_bonus
from tertia.rulesets.charge_yr_pikes.sequence import respond_for
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data

from . import cyp_morale_support as ms
from .test_cyp_command import _state
from .test_cyp_sequence import GRADES, _start

T = default_tables()


def test_the_last_card_played_ends_the_movement_phase() -> None:
    # Sequence of play 3 A: cards are turned "until all have had a chance"; then the
    # artillery fire of B. With a card left, ending one turns over the next.
    game, state = _start([*GRADES, 1, 5])
    left, _ = game.apply(state, EndPhase(), ScriptedDice([1, 8, 3]))
    assert left.phase == "movement" and game_data(left).card == group_card("k2", "king")
    spent = state.evolve(own=game_data(state).evolve(deck_left=()))
    after, events = game.apply(spent, EndPhase(), ScriptedDice([]))
    assert PhaseBegan(phase="artillery") in events
    assert after.phase == "artillery" and game_data(after).card is None


def test_a_parliament_tertias_card_is_answered_under_its_own_brigadier() -> None:
    # Tertias and officers B: the highest officer within 8" tests for the tertia; on
    # Parliament's card that is Parliament's brigadier, 4" behind its foot.
    table, state = _state()
    state = state.with_unit(state.units["k-brig"].evolve(id="p-brig", side="parl", command="p1",
                                                         x=30.0, y=40.0, facing=180.0))
    tx = Tx(table, state, ScriptedDice([5]))
    respond_for(tx, T, group_card("p1", "parl"), "p1", [state.units["p-foot"]], graded=False)
    assert [(e.officer, e.units, e.obeyed) for e in tx.events if isinstance(e, CommandResponded)] == [
        ("p-brig", ("p-foot",), True)]


def test_a_tertia_with_no_unit_to_move_rolls_no_command_die() -> None:
    # A tertia's card dealt while all its units are away (horse plundering) calls for no
    # D10: there is no one to answer it.
    table, state = _state()
    assert dice_for(state, "king", "k2", {}, []) == []
    tx = Tx(table, state, ScriptedDice([]))
    respond_for(tx, T, group_card("k2", "king"), "k2", [], graded=False)
    assert not any(isinstance(e, CommandResponded) for e in tx.events)


def test_the_commander_in_chief_answers_for_any_tertia_within_his_reach() -> None:
    # Tertias and officers C: "The C-in-C may influence any unit"; a brigadier only his
    # own tertia. Each stands 6" behind k2's horse in turn (the horse's front centre at
    # (50, 12.6)); the dragoons, 10" off, test alone.
    _, state = _state()
    general = state.with_unit(state.units["k-gen"].evolve(x=50.0, y=6.0))
    assert [(t.officer and t.officer.id, t.units) for t in dice_for(general, "king", "k2", {})] == [
        ("k-gen", ("k-horse",)), (None, ("k-drag",))]
    brigadier = state.with_unit(state.units["k-brig"].evolve(x=50.0, y=6.0))
    assert [(t.officer and t.officer.id, t.units) for t in dice_for(brigadier, "king", "k2", {})] == [
        (None, ("k-horse",)), (None, ("k-drag",))]


def test_a_unit_with_no_officer_in_its_front_rank_has_no_officer_bonus() -> None:
    # 4 E: the front-rank officer adds his bonus to the unit's morale; without one the
    # test is rating + die alone: rated 3, a 3 makes the 6 that passes.
    state = ms.state_of(ms.troop("u", ms.KING, 30, 12, morale=3))
    assert officer_bonus(T, state, "u") == 0
    result = morale_test(ms.tx_with(state, 3), T, "u", "fired on")
    assert result.modifiers == () and result.total == 6 and result.passed
