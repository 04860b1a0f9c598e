"""Declare Thee Sir, Game Play: "As cards are drawn, events may occur". The text describes no
event card; under the option ``event_cards`` a small deck of the rule set's own is shuffled
in (alarm, rumour of defeat, sermon, damp powder), dice scripted."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tertia.activation.deck import DeckShuffled, read_card
from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import Dice, ScriptedDice
from tertia.core.events import DiceRolled
from tertia.core.ruleset import Tx
from tertia.rules.morale import MoraleDetermined
from tertia.rulesets.declare_thee_sir.event_cards import EventCardDrawn, PowderSpoiled, play
from tertia.rulesets.declare_thee_sir.events import Declare, Fire
from tertia.rulesets.declare_thee_sir.sequence import full_deck, options_for
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

from .dts_combat_support import A, B, dice_left, dts, state_of, table_with, tx_with
from .dts_support import P, R, activated, dts_game, unit

OPTIONS = {"regain_to": "level", "event_cards": True}
FIRST = 2
"""A side roll of 1-3 strikes the first side (parliament), 4-6 the second."""


def parliament_and_royalists(**near: object):  # type: ignore[no-untyped-def]
    """Parliament's ``near`` (4" from the royal foot) and ``far`` (14"), royal foot ``rf``."""
    return state_of(dts("near", A, 20, 10, 0, **near), dts("far", A, 30, 0.5, 0),  # type: ignore[arg-type]
                    dts("rf", B, 20, 15, 180, morale=3))


# --- the deck -------------------------------------------------------------------------------------


def test_four_event_cards_are_shuffled_in_only_with_the_option() -> None:
    game = dts_game([unit("pf", P, "foot", 20, 6), unit("rf", R, "foot", 20, 30, 180)])
    state = game.ruleset.initial_state(game.scenario)
    assert [c for c in full_deck(state, events=True) if read_card(c).kind == "special"] == [
        "special:alarm", "special:rumour", "special:sermon", "special:damp_powder"]
    assert all(read_card(c).kind == "unit" for c in full_deck(state))
    for on, specials in ((True, 4), (False, 0)):
        g = dts_game([unit("pf", P, "foot", 20, 6), unit("rf", R, "foot", 20, 30, 180)], event_cards=on)
        s = activated(g, "pf")
        s = s.evolve(own=game_data(s).evolve(deck_left=()))
        _, events = g.apply(s, Declare(unit="pf", option="defer"), ScriptedDice([1] * 8))
        shuffled = next(e for e in events if isinstance(e, DeckShuffled))
        assert sum(read_card(c).kind == "special" for c in shuffled.cards) == specials


def test_a_card_drawn_is_carried_out_and_the_next_drawn() -> None:
    game = dts_game([unit("pf", P, "foot", 20, 6), unit("rf", R, "foot", 20, 30, 180)], event_cards=True)
    state = activated(game, "pf")
    state = state.evolve(own=game_data(state).evolve(deck_left=("special:alarm", "unit:rf")))
    # the alarm drawn (d2: 1), strikes Parliament (2), whose untested pf rolls 4 (3 points)
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([1, 2, 4]))
    assert EventCardDrawn(event="alarm", side=P, unit="pf") in events
    assert unit_data(after.units["pf"]).morale == 3 and game_data(after).activated == "rf"


def test_the_side_struck_is_one_die_half_and_half() -> None:
    def side(dice: Dice) -> str:
        tx = Tx(table_with(), parliament_and_royalists(), dice)
        return play(tx, "special:damp_powder", OPTIONS).side

    odds: dict[str, Fraction] = {}
    for branch in enumerate_branches(side):
        odds[branch.result] = odds.get(branch.result, Fraction(0)) + branch.probability
    assert odds == {A: Fraction(1, 2), B: Fraction(1, 2)}


# --- each card ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("near", "struck"), [
    ({}, "near"),                 # untested, nearest the enemy
    ({"morale": 2}, "far"),       # the nearest is tested: the next
])
def test_alarm_calls_for_the_morale_of_the_untested_unit_nearest_the_enemy(near: dict[str, int],
                                                                          struck: str) -> None:
    tx = tx_with(parliament_and_royalists(**near), FIRST, 6)
    assert play(tx, "special:alarm", OPTIONS).unit == struck
    assert [e.points for e in tx.events if isinstance(e, MoraleDetermined)] == [4] and dice_left(tx) == 0


def test_alarm_with_every_unit_tested_does_nothing() -> None:
    state = state_of(dts("near", A, 20, 10, 0, morale=2), dts("rf", B, 20, 15, 180, morale=3))
    tx = tx_with(state, FIRST)
    assert play(tx, "special:alarm", OPTIONS).unit is None and dice_left(tx) == 0


@pytest.mark.parametrize(("morale", "dice", "after", "routs"), [
    (2, (3, 4), 1, False),    # a 7 costs a point; 7 on the chart at good is a push-back: no more
    (2, (1, 2), 2, False),    # 3: nothing
    (0, (3, 4), 0, True),     # at poor, a point more lost to a morale check: it routs
])
def test_rumour_puts_the_unit_nearest_the_enemy_to_a_morale_check(
        morale: int, dice: tuple[int, int], after: int, routs: bool) -> None:
    tx = tx_with(parliament_and_royalists(morale=morale), FIRST, *dice, *((6, 6, 6) if routs else ()))
    assert play(tx, "special:rumour", OPTIONS).unit == "near"
    near = tx.state.units["near"]
    assert unit_data(near).morale == after and unit_data(near).routing is routs and dice_left(tx) == 0
    if routs:  # towards its own (south) edge: 6" from y 10
        assert [s.y for s in stands_of(near)] == [4.0, 4.0, 4.0]


@pytest.mark.parametrize(("regain_to", "first", "now", "regained"), [
    ("level", 3, 1, 2),       # excellent: may regain to 4
    ("points", 3, 3, 3),      # at the points first rolled: nothing to regain, nobody struck
    ("level", 2, 0, 1),
])
def test_sermon_gives_the_most_shaken_unit_a_point(regain_to: str, first: int, now: int,
                                                   regained: int) -> None:
    state = parliament_and_royalists(morale=now, morale_max=first)
    tx = tx_with(state, FIRST)
    found = play(tx, "special:sermon", {**OPTIONS, "regain_to": regain_to})
    assert found.unit == ("near" if regained > now else None)
    assert unit_data(tx.state.units["near"]).morale == regained and dice_left(tx) == 0


def test_damp_powder_forbids_fire_on_the_units_next_activation_only() -> None:
    game = dts_game([unit("pf", P, "foot", 20, 10), unit("rf", R, "foot", 20, 15, 180)], event_cards=True)
    state = activated(game, "pf")
    tx = Tx(table_with(), state, ScriptedDice([FIRST]))
    play(tx, "special:damp_powder", OPTIONS)
    assert PowderSpoiled(unit="pf", damp=True) in tx.events
    damp = activated(game, "pf").with_unit(tx.state.units["pf"])
    assert options_for(damp.units["pf"]) == ("formation_change", "advance", "rally", "defer")
    firing = activated(game, "pf", "stand_and_fire").with_unit(tx.state.units["pf"])
    firing = firing.evolve(own=game_data(firing).evolve(volleys=2))
    assert [v.message for v in game.validate(firing, Fire(unit="pf", target="rf"))] == [
        "pf's powder is damp: it may not fire this activation"]
    damp = damp.evolve(own=game_data(damp).evolve(deck_left=("unit:rf",)))
    after, events = game.apply(damp, Declare(unit="pf", option="defer"), ScriptedDice([]))
    assert PowderSpoiled(unit="pf", damp=False) in events
    assert not unit_data(after.units["pf"]).damp_powder and "stand_and_fire" in options_for(after.units["pf"])


def test_no_dice_but_the_sides_for_a_card_with_nobody_to_strike() -> None:
    tx = tx_with(state_of(dts("rf", B, 20, 15, 180, morale=3)), FIRST)
    assert play(tx, "special:rumour", OPTIONS).unit is None
    assert [e.purpose for e in tx.events if isinstance(e, DiceRolled)] == [
        "event card Rumour of defeat: which side"]
