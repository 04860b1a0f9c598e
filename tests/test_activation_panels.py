"""The shared blocks' panels (``tertia.activation.panels``), each condition from both sides:
orders shown only to the side giving them in their phase; command cards laid, shuffled or
not yet laid, the other side's face down; a deck of unit-type cards; a deck of unit cards
named by their pieces, groups and specials, the older draws counted, the responses rolled
on the card in play found among the recent events."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from tertia.activation import command_cards, unit_type_deck
from tertia.activation import deck as unit_deck
from tertia.activation.panels import (
    RECENT,
    RECENT_STEPS,
    command_cards_panel,
    orders_panel,
    responses,
    type_deck_panel,
    unit_deck_panel,
)
from tertia.core.dice import SeededDice
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.presentation import Panel, PanelContext
from tertia.core.state import GameState
from tertia.io.panels import panels
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios.catalogue import load_named
from tests.battles import fought

P, R = "parliament", "royalist"
NAMES = {P: "Parliament", R: "Royalists"}


def started(rules: str, scenario: str = "edgehill", seed: int = 1) -> tuple[Game, GameState]:
    game = Game(get_ruleset(rules), load_named(scenario))
    state, _ = game.start(SeededDice(seed))
    return game, state


def context(viewer: str, **kw: object) -> PanelContext:
    return PanelContext(viewer=viewer, side_names=NAMES, **kw)  # type: ignore[arg-type]


def sections(panel: Panel) -> dict[str, list[str]]:
    return {s.key: [i.text for i in s.items] for s in panel.sections}


# --- orders -----------------------------------------------------------------------------------


def test_orders_are_shown_to_the_side_giving_them_in_their_phase_only() -> None:
    _, state = started("larger-battles")
    me = state.to_act
    other = next(s for s in state.sides if s != me)
    shown = orders_panel(state, context(me, to_act=me, phases=(state.phase,)), 2)
    assert sections(shown) == {"orders-left": ["2 orders left this player turn."]}
    assert sections(orders_panel(state, context(me, to_act=me), 1)) == {
        "orders-left": ["1 order left this player turn."]}
    assert orders_panel(state, context(other, to_act=me), 2) == Panel()
    assert orders_panel(state, context(me, to_act=me, pending=True), 2) == Panel()
    assert orders_panel(state, context(me, to_act=me, phases=("no-such-phase",)), 2) == Panel()
    assert orders_panel(state, context(me, to_act=me), None) == Panel()


# --- command cards ----------------------------------------------------------------------------


def test_command_cards_before_during_and_after_laying() -> None:
    game, state = started("d3-commands")
    card_of = game.ruleset.presentation().card_of
    assert command_cards.deck(state, P), "d3-commands deals each side its cards at the start"
    before = command_cards_panel(game.observed_state(state, P), context(P), None, card_of)
    assert sections(before)["own-order"] == ["Your cards are not laid yet."]
    held = command_cards.deck(state, P)
    assert list(before.labels) == list(held)
    assert all(label.note and label.note.endswith(("unit", "units")) for label in before.labels.values()
               if label.title)
    [theirs] = [s for s in before.sections if s.key == "other-cards"]
    assert [i.state for i in theirs.items] == ["back"] * command_cards.cards_left(state, R)
    assert theirs.title == "Royalists · not laid yet"

    order = list(held)[::-1]
    laid = state.with_values({command_cards.order_key(P): tuple(order),
                              command_cards.played_key(P): (order[0],)})
    now = {"side": P, "card": order[0]}
    mine = command_cards_panel(game.observed_state(laid, P), context(P), now, card_of)
    [own] = [s for s in mine.sections if s.key == "own-order"]
    assert own.style == "ordered" and [i.id for i in own.items] == order
    assert [i.state for i in own.items] == ["active"] + ["waiting"] * (len(order) - 1)
    assert sections(mine)["active-command"][0].startswith("Active: your ")
    # The other side sees the card played, the rest face down, and never the order.
    seen = command_cards_panel(game.observed_state(laid, R), context(R), now, card_of)
    [cards] = [s for s in seen.sections if s.key == "other-cards"]
    assert [i.id for i in cards.items if i.state != "back"] == [order[0]]
    assert cards.title == f"Parliament · {len(order) - 1} face down"
    assert all(i.id is None and not i.text for i in cards.items if i.state == "back")
    assert sections(seen)["active-command"][0].startswith("Active: Parliament's ")
    shuffled = laid.with_values({command_cards.SHUFFLED: (R,)})
    assert "Your cards are shuffled" in sections(command_cards_panel(
        game.observed_state(shuffled, R), context(R), None, card_of))["own-order"][0]


def test_a_side_watched_is_named_where_a_side_played_is_you() -> None:
    game, state = started("d3-commands")
    card_of = game.ruleset.presentation().card_of
    seen = game.observed_state(state, P)
    played = sections(command_cards_panel(seen, context(P), None, card_of))
    watched = command_cards_panel(seen, context(P, watching=True), None, card_of)
    assert played["own-order"] == ["Your cards are not laid yet."]
    assert sections(watched)["own-order"] == ["Parliament's cards are not laid yet."]
    [own] = [s for s in watched.sections if s.key == "own-order"]
    assert own.title == "Parliament"
    order = list(command_cards.deck(state, P))
    laid = state.with_values({command_cards.order_key(P): tuple(order),
                              command_cards.played_key(P): (order[0],)})
    now = {"side": P, "card": order[0]}
    watching = context(P, watching=True)
    active = sections(command_cards_panel(game.observed_state(laid, P), watching, now, card_of))
    assert active["active-command"][0].startswith("Active: Parliament's ")


def test_no_command_cards_no_panel() -> None:
    _, state = started("larger-battles")
    assert command_cards_panel(state, context(P), None, lambda unit: "x") == Panel()


# --- a deck of unit-type cards ----------------------------------------------------------------


def test_a_deck_of_type_cards_before_and_after_the_shuffle() -> None:
    _, state = started("d3-cards", "chalgrove")
    assert type_deck_panel(state.with_values({"deck": None}), context(P), None) == Panel()
    left = len(state.value("deck"))
    shown = sections(type_deck_panel(state, context(P), None))
    assert shown["deck-count"] == [f"{left} cards left to draw this turn."]
    assert sum(len(v) for k, v in shown.items() if k.startswith("deck-left-")) == left
    over = sections(type_deck_panel(state.evolve(result={"winner": P}), context(P), None))
    assert over["deck-count"] == [f"The battle is over: {left} cards were not drawn."]
    assert not [k for k in over if k.startswith("deck-left-")]


def test_the_last_type_card_in_play_is_not_counted_as_none_left() -> None:
    _, state = started("d3-cards", "chalgrove")
    cards = unit_type_deck.remaining(state)
    last = state.with_values({"deck": (), "drawn": tuple(cards)})
    now = {"side": cards[-1][0], "card": cards[-1][1]}
    assert sections(type_deck_panel(last, context(P), now))["deck-count"] == [
        "No more cards to draw this turn: the card in play is the last."]
    between = sections(type_deck_panel(last, context(P), None))
    assert between["deck-count"] == ["No cards left to draw this turn."]
    one_left = state.with_values({"deck": (cards[0],), "drawn": tuple(cards[1:])})
    counted = sections(type_deck_panel(one_left, context(P), now))
    assert counted["deck-count"] == ["1 card left to draw this turn."]


# --- a deck of unit cards ---------------------------------------------------------------------


def test_unit_cards_by_their_piece_group_and_special_card() -> None:
    _, state = started("declare-thee-sir")
    unit = next(state.iter_troops(P))
    drawn = [unit_deck.unit_card(unit.id), unit_deck.unit_card(unit.id, 2),
             unit_deck.group_card("horse", R), unit_deck.special_card("officers_and_artillery")]
    named = state.with_values({"deck_drawn": tuple(drawn), "deck_left": ()})
    panel = unit_deck_panel(named, context(P), drawn[0], {unit_deck.group_card("horse", R): "Horse (Rupert)"})
    [active] = [s for s in panel.sections if s.key == "deck-active"]
    assert active.items[0].text == f"Card drawn: {unit.name} (yours)" and active.items[0].unit == unit.id
    theirs = unit_deck_panel(named, context(R), drawn[0])
    assert sections(theirs)["deck-active"] == [f"Card drawn: {unit.name}"]
    watched = unit_deck_panel(named, context(P, watching=True), drawn[0])
    assert sections(watched)["deck-active"] == [f"Card drawn: {unit.name}"]
    before = unit_deck_panel(named, context(P), None, {unit_deck.group_card("horse", R): "Horse (Rupert)"})
    assert sections(before)["deck-drawn"] == [  # last first
        "Officers & Artillery", "Horse (Rupert)", f"{unit.name} (card 2)", unit.name]
    assert sections(unit_deck_panel(named, context(P), None))["deck-drawn"][1] == "Horse"  # no name given
    assert sections(before)["deck-count"] == ["No cards left to draw this turn."]
    # Before the first turn (deployment) no card is dealt or drawn: the panel says when they will be.
    unshuffled = state.with_values({"deck_drawn": (), "deck_left": ()})
    assert sections(unit_deck_panel(unshuffled, context(P), None))["deck-count"] == [
        "The deck is shuffled as the first turn begins."]


def test_the_last_unit_card_in_play_is_not_counted_as_none_left() -> None:
    _, state = started("declare-thee-sir")
    cards = [unit_deck.unit_card(u.id) for u in state.iter_troops(P)]
    last = state.with_values({"deck_drawn": tuple(cards), "deck_left": ()})
    shown = sections(unit_deck_panel(last, context(P), cards[-1]))
    assert shown["deck-count"] == ["No more cards to draw this turn: the card in play is the last."]
    one_left = state.with_values({"deck_drawn": tuple(cards[:-1]), "deck_left": (cards[-1],)})
    assert sections(unit_deck_panel(one_left, context(P), cards[-2]))["deck-count"] == [
        "1 card left to draw this turn: Parliament 1, Royalists 0."]


def test_older_draws_are_counted_and_cards_to_come_are_shown_on_demand() -> None:
    _, state = started("declare-thee-sir")
    cards = [unit_deck.unit_card(u.id) for u in state.iter_troops(P)]
    assert len(cards) > RECENT + 1
    dealt = state.with_values({"deck_drawn": tuple(cards[: RECENT + 2]),
                               "deck_left": tuple(cards[RECENT + 2:])})
    shown = unit_deck_panel(dealt, context(P), None)
    [drawn] = [s for s in shown.sections if s.key == "deck-drawn"]
    assert len(drawn.items) == RECENT + 1 and drawn.items[-1].text == "and 2 more this turn"
    [left] = [s for s in shown.sections if s.key == f"deck-left-{P}"]
    assert not left.open and len(left.items) == len(cards) - RECENT - 2
    assert f"deck-left-{R}" not in sections(shown)  # nothing to come: no list
    over = sections(unit_deck_panel(dealt.evolve(result={"winner": R}), context(P), None))
    assert over["deck-count"] == [f"The battle is over: {len(cards) - RECENT - 2} cards were not drawn."]
    assert f"deck-left-{P}" not in over  # nothing more is drawn: no cards to come
    spent = dealt.with_values({"deck_drawn": tuple(cards), "deck_left": ()}).evolve(result={"winner": R})
    assert sections(unit_deck_panel(spent, context(P), None))["deck-count"] == [
        "The battle is over: every card was drawn."]  # not "0 cards were not drawn"
    with_card = unit_deck_panel(dealt, context(P), cards[RECENT + 1])
    [drawn] = [s for s in with_card.sections if s.key == "deck-drawn"]
    assert drawn.items[-1].text == "and 1 more this turn"


@dataclass(frozen=True, slots=True)
class Responded(Event):
    type: ClassVar[str] = "test_responded"
    card: str
    officer: str | None
    units: tuple[str, ...]
    face: int
    obeyed: bool


@dataclass(frozen=True, slots=True)
class Unrelated(Event):
    type: ClassVar[str] = "test_unrelated"
    card: str


def test_responses_are_those_of_the_newest_action_rolling_on_the_card() -> None:
    yes = Responded(card="c", officer="o", units=("a", "b"), face=4, obeyed=True)
    no = Responded(card="c", officer=None, units=("d",), face=1, obeyed=False)
    old = Responded(card="c", officer=None, units=("z",), face=6, obeyed=True)
    recent = [[Unrelated(card="c")], [yes, no], [old]]
    assert responses(recent, "c") == [{"officer": "o", "units": ["a", "b"], "face": 4, "obeyed": True},
                                      {"officer": None, "units": ["d"], "face": 1, "obeyed": False}]
    assert responses(recent, "other") == [] and responses(recent, None) == []
    far = [[Unrelated(card="c")]] * (RECENT_STEPS + 1) + [[yes]]
    assert responses(far, "c") == []  # looked for only so far back
    near = [[Unrelated(card="c")]] * (RECENT_STEPS - 1) + [[yes]]
    assert responses(near, "c") == [{"officer": "o", "units": ["a", "b"], "face": 4, "obeyed": True}]


@pytest.mark.parametrize("obeyed", [True, False])
def test_a_response_is_shown_with_its_die(obeyed: bool) -> None:
    _, state = started("declare-thee-sir")
    unit = next(state.iter_troops(P))
    card = unit_deck.unit_card(unit.id)
    rolled = Responded(card=card, officer=None, units=(unit.id,), face=3, obeyed=obeyed)
    panel = unit_deck_panel(state.with_values({"deck_drawn": (card,)}), context(P, recent=lambda: [[rolled]]),
                            card)
    [dice] = [s for s in panel.sections if s.key == "deck-responses"]
    [item] = dice.items
    assert item.face == "3" and item.state == ("obeyed" if obeyed else "refused")
    assert item.text == f"{unit.name} without officer: {'may move' if obeyed else 'no move'}"


# --- every rule set's deck, along a battle ----------------------------------------------------


DECKS = [rules for rules in ruleset_ids() if any(spec.name == "deck" for spec in get_ruleset(rules).PANELS)]
"""The registered rule sets that declare a deck panel."""


@pytest.mark.parametrize("rules", DECKS)
def test_no_deck_counts_no_cards_left_while_one_is_in_play(rules: str) -> None:
    """Every rule set with a deck panel, along a battle of Edgehill: whenever a card is in
    play and none is left to draw (no cards to come for either side), the count says the
    card in play is the last, never "0 cards left"; a battle holds such moments."""
    record = fought("edgehill", rules, "random", 11)
    game = record.game
    counts = []
    for step in record.steps:
        state = step.state
        if state.is_over:
            continue
        seen = game.observed_state(state, P)
        for spec, panel in panels(game, state, seen, P):
            shown = {sec.key: sec for sec in panel.sections}
            to_come = sum(len(sec.items) for key, sec in shown.items() if key.startswith("deck-left-"))
            if spec.name == "deck" and "deck-active" in shown and not to_come:
                counts.append(shown["deck-count"].items[0].text)
    assert counts, f"no last card of a turn was played in the battle under {rules}"
    assert set(counts) == {"No more cards to draw this turn: the card in play is the last."}
