"""Charge yr Pikes! hidden units (Sequence of play 3 B): the move that brings the last
hidden piece into sight is kept from the enemy up to its placing."""

from __future__ import annotations

from tertia.core.actions import Move
from tertia.core.dice import SeededDice
from tertia.rulesets.charge_yr_pikes.concealment import UnitPlaced, hidden_pieces
from tertia.rulesets.charge_yr_pikes.data import unit_data

from .test_cyp_concealment import K, P, _battle, _on_card


def test_the_last_hidden_piece_moving_into_sight_shows_the_enemy_only_its_placing() -> None:
    # B: "units becoming visible are placed". The parliament's foot, its only hidden
    # piece, leaves the north wood for the open: the king's side is shown it placed where
    # it stands, not the move it made unseen (nor its dice).
    game, state = _battle(p_foot=(17.0, 42.0))
    assert hidden_pieces(state) == {"p-foot": P}
    state = _on_card(state, P, "p-foot")
    after, events = game.apply(state, Move(unit="p-foot", waypoints=((23.0, 42.0),)), SeededDice(1))
    assert hidden_pieces(after) == {} and unit_data(after.units["p-foot"]).placed
    shown = [e for e in events if game.ruleset.event_visible_to(e, K)]
    assert shown == [UnitPlaced(unit="p-foot", why="it comes into the enemy's sight")]
    assert len([e for e in events if game.ruleset.event_visible_to(e, P)]) == len(events)
