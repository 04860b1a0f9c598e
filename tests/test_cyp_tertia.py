"""Charge yr Pikes!' Tertias and officers A: "No unit may leave its tertia unless
accompanied by a general or due to poor morale": falling back and routing take a unit
where they take it, and a unit they left beyond 6" may come back."""

from __future__ import annotations

from tertia.core.actions import Move
from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.fallback import fall_back
from tertia.rulesets.charge_yr_pikes.rout import STILL_ROUTED, rout
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.tables import default_tables
from tertia.rulesets.charge_yr_pikes.values import game_data

from .cyp_melee_support import dice_left, piece, state_of, table_with, tx_with

T = default_tables()


def _foot(ident: str, x: float) -> Unit:
    return piece(ident, "king", "foot", x, 20.0, facing=0.0).evolve(command="t1")


def _tertia() -> GameState:
    """Three regiments of foot of tertia t1 side by side, 2" apart, facing north."""
    a = _foot("a", 30.0)
    gap = a.width + 2.0
    return state_of(a, _foot("b", 30.0 + gap), _foot("c", 30.0 + 2 * gap))


def _nearest_mate(state: GameState, unit_id: str) -> float:
    unit = state.units[unit_id]
    return min(base_distance(unit.base, m.base) for m in state.iter_troops("king")
               if m.command == unit.command and m.id != unit_id)


def _moving(state: GameState, *units: str) -> GameState:
    return state.evolve(own=game_data(state).evolve(card="group:t1:king", moving=units))


def _fell_back() -> GameState:
    tx = tx_with(_tertia())
    fall_back(tx, T, "a", "lost a melee")  # 8" straight back, a normal move
    return tx.state


def test_falling_back_may_take_a_unit_out_of_its_tertia() -> None:
    state = _fell_back()
    assert state.units["a"].y == 12.0 and _nearest_mate(state, "a") > 6.0


def test_a_rout_may_take_a_unit_out_of_its_tertia() -> None:
    tx = tx_with(_tertia(), 3, 1, 4)  # its morale points; half a D6 (1 man); the rout move 8" + 4
    flight = rout(tx, T, "a", "lost a melee", after_melee=True)
    assert flight.fate == STILL_ROUTED and _nearest_mate(tx.state, "a") > 6.0 and dice_left(tx) == 0


def test_a_unit_its_morale_took_away_may_move_back_towards_its_tertia() -> None:
    state = _moving(_fell_back(), "a")
    game = ChargeYrPikes(secret_deployment=False)
    # 6.8" from its mates: 3" forward leaves it 3.8" from them, 0.5" forward 6.3": both nearer.
    assert game.validate(table_with(), state, Move(unit="a", waypoints=((30.0, 15.0),))) == []
    assert game.validate(table_with(), state, Move(unit="a", waypoints=((30.0, 12.5),))) == []
    # Turning on the spot takes it no farther.
    assert game.validate(table_with(), state, Move(unit="a", waypoints=(), face_after=90.0)) == []


def test_a_unit_its_morale_took_away_may_not_go_farther() -> None:
    state = _moving(_fell_back(), "a")
    refused = ChargeYrPikes().validate(table_with(), state, Move(unit="a", waypoints=((30.0, 10.0),)))
    assert [v.code for v in refused] == [CypCode.LEAVES_TERTIA]
    assert refused[0].message == ("a would end more than 6\" from every other unit of its tertia (t1) "
                                  "and farther than the 6.8\" it stands")


def test_the_rest_of_the_tertia_moves_on_without_it_but_may_not_leave_one_another() -> None:
    state = _moving(_fell_back(), "b", "c")
    game = ChargeYrPikes(secret_deployment=False)
    c = state.units["c"]
    assert game.validate(table_with(), state, Move(unit="b", waypoints=((state.units["b"].x, 26.0),))) == []
    refused = game.validate(table_with(), state, Move(unit="c", waypoints=((c.x + 8.0, 20.0),)))
    assert [v.code for v in refused] == [CypCode.LEAVES_TERTIA]
    assert refused[0].message == "c would end more than 6\" from every other unit of its tertia (t1)"
