"""Charge yr Pikes! hidden units (Sequence of play 3 B): the move that brings the last
hidden piece into sight is kept from the enemy up to its placing."""

from __future__ import annotations

from tertia.core.actions import Move
from tertia.core.dice import SeededDice
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.concealment import UnitPlaced, hidden_pieces, stop_short
from tertia.rulesets.charge_yr_pikes.data import unit_data

from .test_cyp_concealment import K, P, _battle, _hidden, _on_card, _placed_at


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


def test_a_path_is_checked_where_it_turns_on_its_own_spot() -> None:
    # B: "units not placed may neither move nor fire": one found in the way is placed and
    # the mover stops. The king's horse, its first waypoint its own spot, wheels there to
    # face west: turned, it would stand on the parliament's foot hidden 2.5" ahead of it,
    # so it stops where it is; going straight on, west, it would pass clear.
    game, state = _battle()
    state = _hidden(_placed_at(state, "p-foot", 30.0, 30.0), "p-foot")
    state = _placed_at(_placed_at(state, "k-horse", 30.0, 27.5), "k-drag", 60.0, 12.0)
    state = state.with_unit(state.units["k-horse"].evolve(facing=0.0))
    tx = Tx(game.table, state, SeededDice(1))
    horse = state.units["k-horse"]
    turned = stop_short(tx, horse, ((30.0, 27.5), (30.0, 27.5), (20.0, 27.5)), 270.0)
    assert turned == ((30.0, 27.5),)
    assert [e for e in tx.events if isinstance(e, UnitPlaced)] == [
        UnitPlaced(unit="p-foot", why="it is found in the way")]
    tx = Tx(game.table, state, SeededDice(1))
    straight = ((30.0, 27.5), (20.0, 27.5))
    assert stop_short(tx, horse, straight, 0.0) == straight and not tx.events
