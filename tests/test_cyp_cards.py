"""Charge yr Pikes!' brigade cards: one a tertia, one Officers & Artillery and one free
move an army, both armies' decks together; who each card moves."""

from __future__ import annotations

from tertia.activation.deck import group_card, special_card
from tertia.rulesets.charge_yr_pikes.cards import brigade_deck, moved_by
from tertia.rulesets.charge_yr_pikes.tables import Cards, default_tables

from .test_cyp_command import _state


def test_each_army_has_a_card_a_tertia_and_its_officers_and_free_move_cards() -> None:
    _, state = _state()
    assert brigade_deck(state, default_tables().cards) == (
        group_card("k1", "king"), group_card("k2", "king"),
        special_card("officers_and_artillery", "king"), special_card("free_move", "king"),
        group_card("p1", "parl"),
        special_card("officers_and_artillery", "parl"), special_card("free_move", "parl"),
    )


def test_a_club_may_deal_more_or_fewer_special_cards() -> None:
    _, state = _state()
    deck = brigade_deck(state, Cards(officers_and_artillery=2, free_move=0))
    assert deck.count(special_card("officers_and_artillery", "king")) == 2
    assert special_card("free_move", "king") not in deck


def test_a_tertia_card_moves_its_units_and_the_officer_in_a_front_rank() -> None:
    _, state = _state({"officers": [{"commander": "k-brig", "rank": "brigadier",
                                     "attached_to": "k-horse"}]})
    assert [u.id for u in moved_by(state, group_card("k2", "king"))] == ["k-brig", "k-horse", "k-drag"]
    # The field gun of k1 moves on the Officers & Artillery card, with the free general.
    assert [u.id for u in moved_by(state, group_card("k1", "king"))] == ["k-foot"]
    officers_card = special_card("officers_and_artillery", "king")
    assert [u.id for u in moved_by(state, officers_card)] == ["k-gen", "k-gun"]


def test_a_galloper_moves_with_its_tertia() -> None:
    _, state = _state({"regiments": [{"unit": "k-gun", "troop": "artillery", "gun": "galloper",
                                      "attached_to": "k-foot"}]})
    assert [u.id for u in moved_by(state, group_card("k1", "king"))] == ["k-foot", "k-gun"]
