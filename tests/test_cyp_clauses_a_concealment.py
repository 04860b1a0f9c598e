"""Charge yr Pikes! hidden units (Sequence of play 3 B): the move that brings the last
hidden piece into sight is kept from the enemy up to its placing; a path checked where
it turns on its own spot; a charge that runs into a hidden unit stops short as a move."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.core.dice import SeededDice
from tertia.core.geometry import base_distance, bases_overlap
from tertia.core.ruleset import Tx
from tertia.rulesets.charge_yr_pikes.actions import Charge
from tertia.rulesets.charge_yr_pikes.concealment import UnitPlaced, hidden_pieces, stop_short
from tertia.rulesets.charge_yr_pikes.events import ChargeMade
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from . import cyp_melee_support as melee
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


@pytest.mark.parametrize("hidden", [True, False])
def test_a_charge_that_runs_into_a_hidden_unit_stops_short_as_a_move(hidden: bool) -> None:
    # B, as a move "into an unseen unit stops short and finds it": the king's horse (its
    # brigadier in its front rank, its galloper at its right flank) charges the foot 16"
    # ahead; parliament's pike hidden 7" ahead lies in its way. The charge is legal on
    # what the king sees; made, it stops short of the hidden unit, which is placed, its
    # officer and galloper going with it (4 D), and no charge is made. With none in the
    # way the charge is made and halts 1" from the foot.
    horse = melee.piece("k", "king", "horse", 30.0, 20.0)
    gun = melee.piece("g", "king", "artillery", 30.0 + horse.width / 2 + 0.75, 20.0, gun="galloper",
                      attached_to="k")
    gun = gun.evolve(x=30.0 + horse.width / 2 + gun.width / 2)
    brigadier = melee.officer("o", "king", "k", x=30.0, y=20.0)
    state = melee.state_of(horse, gun, brigadier, melee.piece("e", "parl", "foot", 30.0, 36.0, facing=180.0))
    if hidden:
        state = state.with_unit(melee.piece("h", "parl", "foot", 30.0, 27.0, facing=180.0, placed=False))
    state = state.evolve(phase="movement", own=game_data(state).evolve(card="group:t-k:king", moving=("k",)))
    rules = ChargeYrPikes(secret_deployment=False)
    assert rules.validate(melee.table_with(), state, Charge(unit="k", target="e")) == []
    tx = melee.tx_with(state)
    rules.resolve(tx, Charge(unit="k", target="e"))
    made = [e for e in tx.events if isinstance(e, ChargeMade)]
    k, g, o = (tx.state.units[u] for u in ("k", "g", "o"))
    assert (o.x, o.y) == pytest.approx((k.x, k.y))  # the brigadier went with it
    assert base_distance(k.base, g.base) < 1e-6 and not bases_overlap(k.base, g.base)  # touching
    if hidden:
        assert [e for e in tx.events if isinstance(e, UnitPlaced)] == [
            UnitPlaced(unit="h", why="it is found in the way")]
        assert not made and game_data(tx.state).charges == ()
        h = tx.state.units["h"]
        assert k.y > 20.0 and not bases_overlap(k.base, h.base) and base_distance(k.base, h.base) <= 0.25
    else:
        assert [(e.attacker, e.target) for e in made] == [("k", "e")]
        assert base_distance(k.base, tx.state.units["e"].base) == pytest.approx(1.0)
