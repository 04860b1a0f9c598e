"""Each legal action is offered once: a kind whose optional field, left out, takes its
default (larger-battles' order "to move") is not offered again as that choice, on a
piece's card or among the prompt's buttons; and a piece offered nothing says why."""

from __future__ import annotations

from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.offers import idle_reasons, prompt_offers, unit_offers
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin


def test_an_order_to_move_is_offered_once_on_a_units_card_and_in_the_prompt() -> None:
    game = Game(get_ruleset("larger-battles"), load_builtin("edgehill"))
    state, _ = game.start(SeededDice(1))
    shown = set(state.units)
    prompt = [o.action for o in prompt_offers(game, state)]
    assert len(prompt) == len(set(prompt))
    for unit in state.iter_units(state.to_act):
        offers = unit_offers(game, state, unit, shown)
        actions = [o.action for o in offers]
        labels = [o.label for o in offers]
        assert len(actions) == len(set(actions)), (unit.id, labels)
        assert len(labels) == len(set(labels)), (unit.id, labels)
        assert any(label.endswith(" to move") for label in labels), (unit.id, labels)


def test_a_piece_offered_nothing_is_told_the_rules_reason() -> None:
    game = Game(get_ruleset("d3-cards"), load_builtin("chalgrove"))
    state, _ = game.start(SeededDice(1))
    shown = set(state.units)
    idle = [u for u in state.iter_troops(state.to_act) if not unit_offers(game, state, u, shown)]
    assert idle
    for unit in idle:
        reasons = idle_reasons(game, state, unit, shown)
        assert reasons and all(r.message and unit.label in r.message for r in reasons), unit.id
