"""activation.deck (cards for units, two for some, special cards, one die a draw, a new
shuffle each turn) and activation.command_response (a die read on a table by grade)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tertia.activation import deck
from tertia.activation.command_response import CHARGE_YR_PIKES, ZERO, ResponseTable, roll_response
from tertia.analysis.enumerate import enumerate_branches
from tertia.core.dice import D6, D10, SeededDice
from tertia.core.events import DiceRolled
from tertia.core.ruleset import Tx

from .block_support import TABLE, state_of, tx_with


def test_cards_for_units_and_special_cards() -> None:
    """Unit Compositions: cavalry "(Two cards)", infantry "(One card)"."""
    cards = deck.build_deck([("foot", 1), ("horse", 2)], [deck.special_card("free_move", "b"),
                                                         deck.special_card("event")])
    assert cards == ("unit:foot", "unit:horse", "unit:horse#2", "special:free_move:b", "special:event")
    assert deck.cards_of(cards, "horse") == ("unit:horse", "unit:horse#2")
    assert deck.cards_of(cards, "hor") == ()
    assert deck.read_card("special:event") == deck.Card("special", "event")
    with pytest.raises(ValueError, match="not a card"):
        deck.read_card("joker")


def test_each_draw_is_one_die_over_the_cards_left() -> None:
    tx = tx_with(state_of(), 2, 1)
    deck.shuffle(tx, ("unit:a", "unit:b", "special:free_move:a"))
    assert deck.draw(tx) == "unit:b"
    assert deck.draw(tx) == "unit:a"
    assert deck.draw(tx) == "special:free_move:a"  # the last card: no die
    assert deck.draw(tx) is None
    rolls = [e for e in tx.events if isinstance(e, DiceRolled)]
    assert [(r.die, r.value) for r in rolls] == [("d3", 2), ("d2", 1)]
    assert deck.drawn(tx.state) == ("unit:b", "unit:a", "special:free_move:a")
    deck.shuffle(tx, ("unit:a", "unit:b"))
    assert deck.left(tx.state) == ("unit:a", "unit:b") and deck.drawn(tx.state) == ()


def test_a_unit_gone_takes_its_cards_out_of_the_deck() -> None:
    tx = tx_with(state_of())
    deck.shuffle(tx, ("unit:a", "unit:h", "unit:h#2"))
    deck.withdraw(tx, deck.cards_of(deck.left(tx.state), "h"))
    assert deck.left(tx.state) == ("unit:a",)
    before = len(tx.events)
    deck.withdraw(tx, ("unit:zz",))
    assert len(tx.events) == before


def test_the_exact_order_of_a_three_card_deck_is_uniform() -> None:
    def run(dice: object) -> tuple[str, ...]:
        tx = Tx(TABLE, state_of(), dice)  # type: ignore[arg-type]
        deck.shuffle(tx, ("x", "y", "z"))
        return tuple(c for c in iter(lambda: deck.draw(tx), None))

    orders: dict[tuple[str, ...], Fraction] = {}
    for b in enumerate_branches(run):
        orders[b.result] = orders.get(b.result, Fraction(0)) + b.probability
    assert len(orders) == math.factorial(3)
    assert set(orders.values()) == {Fraction(1, 6)}


def test_a_seeded_deck_agrees_with_the_exact_chance() -> None:
    dice = SeededDice(7)
    firsts = 0
    for _ in range(600):
        tx = Tx(TABLE, state_of(), dice)
        deck.shuffle(tx, ("x", "y", "z"))
        firsts += deck.draw(tx) == "x"
    assert abs(firsts - 200) <= 3.3 * math.sqrt(600 * (1 / 3) * (2 / 3))


def test_command_response_by_grade() -> None:
    """Charge yr Pikes!: fail on 0, 9, 8 (Ineffective), 0, 9 (Effective), 0 (Natural Born
    Leader); the D10's 10 reads as 0."""
    fails = {g: sorted(f for f in range(1, 11) if not CHARGE_YR_PIKES.responds(g, f))
             for g in CHARGE_YR_PIKES.grades}
    assert fails == {"ineffective": [8, 9, ZERO], "effective": [9, ZERO], "natural_born_leader": [ZERO],
                     "no_officer": [7, 8, 9, ZERO]}
    with pytest.raises(ValueError, match="no grade 'colonel'"):
        CHARGE_YR_PIKES.responds("colonel", 1)
    with pytest.raises(ValueError, match="not faces of d6"):
        ResponseTable(D6, {"x": frozenset({7})})


def test_a_response_is_one_die_with_its_purpose() -> None:
    tx = tx_with(state_of(), 9)
    response = roll_response(tx, CHARGE_YR_PIKES, "effective", "order: the left wing")
    assert (response.face, response.obeyed) == (9, False)
    assert tx.events == [DiceRolled(purpose="order: the left wing", die="d10", value=9)]
    with pytest.raises(ValueError, match="no grade"):
        roll_response(tx_with(state_of(), 1), CHARGE_YR_PIKES, "colonel", "x")


def test_the_exact_chance_of_a_response() -> None:
    def run(dice: object) -> bool:
        return roll_response(Tx(TABLE, state_of(), dice), CHARGE_YR_PIKES,  # type: ignore[arg-type]
                             "ineffective", "order").obeyed

    assert sum(b.probability for b in enumerate_branches(run) if b.result) == Fraction(7, 10)
    assert D10.values() == tuple(range(1, 11))
