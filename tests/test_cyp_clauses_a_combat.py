"""Charge yr Pikes! close combat in the sequence of play (Sequence of play 3 F to K):
the defender's test and its plain results, charges gathered into combats, the turn's
charges spent, the bonus step's end, a melee locked kept to be fought on, and the 50%
tests of phase J."""

from __future__ import annotations

import pytest

from tertia.core.actions import EndPhase
from tertia.core.geometry import Base
from tertia.rulesets.charge_yr_pikes.bonus import BONUS_MOVES, BonusSpent
from tertia.rulesets.charge_yr_pikes.charge import Charge
from tertia.rulesets.charge_yr_pikes.melee import resolve
from tertia.rulesets.charge_yr_pikes.morale import MoraleTested
from tertia.rulesets.charge_yr_pikes.phases import after_close_combat, carry_out, combats, fight
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from . import cyp_morale_support as ms
from . import test_cyp_melee as melee
from .cyp_dice_support import ByPurpose
from .cyp_melee_support import Morale, dice_left, piece, state_of, tx_with
from .test_cyp_bonus import _bonus_step, _game, _horse_beats_foot

T = default_tables()


# --- F, G: the defender's test ------------------------------------------------------------


@pytest.mark.parametrize(("rating", "falls_back", "routs"), [(3, True, False), (1, False, True)])
def test_a_defender_that_fails_its_test_falls_back_or_routs_on_the_plain_results(
        rating: int, falls_back: bool, routs: bool) -> None:
    # Sequence of play 3 G, "defenders' tests": the foot charged from the front test and,
    # rolling a 1, fail; rated 3 they fail by 2 and fall back disordered, rated 1 by 4 and
    # rout. Either way there is no melee.
    a = piece("a", "king", "foot", 20.0, 10.0, morale=3)
    d = piece("d", "parl", "foot", 20.0, 12.0, 180.0, morale=rating)
    tx = tx_with(state_of(a, d), 6, 1, *([3, 3] if routs else []))
    result = fight(tx, T, [Charge("a", "d", a.base.moved_to(20.0, 2.0))], {})
    assert result is None and dice_left(tx) == 0
    own = unit_data(tx.state.units["d"])
    assert (own.falling_back and own.disordered, own.routed) == (falls_back, routs)


# --- H: combats -----------------------------------------------------------------------------


def test_three_charges_on_one_unit_are_one_combat_in_the_order_charged() -> None:
    # Sequence of play 3 H: charges that share a unit fight together; the horse's and the
    # dragoons' charges join the foot's combat.
    _, state = _game()
    kept = tuple((a, "p-foot", state.units[a].x, state.units[a].y, 0.0, 0)
                 for a in ("k-foot", "k-horse", "k-drag"))
    found = combats(state, kept)
    assert [[(c.attacker, c.target) for c in combat] for combat in found] == [
        [("k-foot", "p-foot"), ("k-horse", "p-foot"), ("k-drag", "p-foot")]]
    # Charges on different units are combats of their own.
    apart = combats(state, (kept[0], ("p-foot", "k-horse", 0.0, 0.0, 0.0, 0)))
    assert [[(c.attacker, c.target) for c in combat] for combat in apart] == [
        [("k-foot", "p-foot"), ("p-foot", "k-horse")]]


def test_the_turns_charges_are_spent_once_the_combats_are_fought() -> None:
    # The bonus step follows the combats: the charges that brought them on are spent and
    # are not fought again with the bonus combats.
    _, tx = _horse_beats_foot(**{"(bonus move)": [6]})
    g = game_data(tx.state)
    assert (g.step, g.step_side) == (BONUS_MOVES, "king")
    assert (g.charges, g.locked) == ((), ())


def test_each_side_ends_its_bonus_orders_in_turn_and_the_step_ends_with_the_last() -> None:
    # 12 K: the king's horse owed a bonus move stands when the king ends his orders;
    # parliament then gives its own; when it ends them the step is over.
    game, state = _bonus_step((("k-horse", True, ()), ("p-foot", False, ())), **{"p-foot": (50.0, 40.0)})
    state, events = game.apply(state, EndPhase(), ByPurpose())
    assert [e.units for e in events if isinstance(e, BonusSpent)] == [("k-horse",)]
    g = game_data(state)
    assert (g.step, g.step_side, [b[0] for b in g.bonus]) == (BONUS_MOVES, "parl", ["p-foot"])
    state, events = game.apply(state, EndPhase(), ByPurpose())
    assert [e.units for e in events if isinstance(e, BonusSpent)] == [("p-foot",)]
    g = game_data(state)
    assert (g.step, g.step_side, g.bonus) == (None, None, ())


# --- J: the 50% tests -----------------------------------------------------------------------


def test_in_phase_j_a_unit_over_half_lost_tests_but_no_battery_nor_unit_gone() -> None:
    # Effects on individual units: "It must test morale during section J"; a battery's
    # gunners take no such test, and a unit off the field takes none.
    gun = ms.troop("g", ms.KING, 50, 12, "artillery", men=1, morale=3)
    gone = ms.troop("gone", ms.KING, 10, 12, morale=3, pike=8, shot=7).evolve(removed="routed")
    state = ms.state_of(ms.troop("u", ms.KING, 30, 12, morale=3, pike=8, shot=7), gun, gone,
                        ms.troop("p", ms.PARL, 30, 40, morale=3))
    assert unit_data(gun).under_half and unit_data(gone).under_half
    tx = ms.tx_with(state, *[6] * 8)
    after_close_combat(tx, T)
    assert [e.unit for e in tx.events if isinstance(e, MoraleTested)] == ["u"]


def test_a_melee_locked_is_kept_to_be_fought_on_and_one_decided_is_not() -> None:
    # 12 G (Sequence of play 3 H): equal casualties, both pass: "the units are locked into
    # the melee which continues in the next turn": the charge that began it is kept; a
    # melee the horse lose (failing their test) keeps nothing.
    charge = Charge("h", "f", Base(20.0, 5.0, 0.0, 6.25, 1.25))
    tx = tx_with(melee.horse_on_foot(), 12, 12)
    result = resolve(tx, T, melee.HORSE_ON_FOOT, Morale())
    carry_out(tx, T, result, [charge])
    assert game_data(tx.state).locked == (("h", "f", 20.0, 5.0, 0.0, 0),)
    tx = tx_with(melee.horse_on_foot(), 12, 12)
    result = resolve(tx, T, melee.HORSE_ON_FOOT, Morale({"h": [False]}))
    carry_out(tx, T, result, [charge])
    assert result.winner == "parl" and game_data(tx.state).locked == ()
