"""Declare Thee Sir, Melee a: "Independent generals always evade melee": a general on his
own, charged, rides his 9" straight away from the charger, who halts short of him."""

from __future__ import annotations

import pytest

from tertia.core.dice import ScriptedDice
from tertia.core.events import DiceRolled, UnitMoved
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.morale import MoraleDetermined
from tertia.rulesets.declare_thee_sir.evasion import Evaded
from tertia.rulesets.declare_thee_sir.events import Charge
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)


def general(x: float, y: float) -> dict[str, object]:
    return {"id": "rc", "side": R, "command": "centre", "x": x, "y": y, "general": True}


def charging(units: list[dict[str, object]], at: tuple[float, float], reach: int = 7,
             **table: object) -> tuple[Game, GameState]:
    """``pf`` activated under Advance with ``reach`` inches over open ground, the royal
    general at ``at``; the deck spent, so the one-turn battle ends after the charge."""
    game = dts_game([FOOT, *units], commanders=[general(*at)], turns=1, table=table or None)
    state = activated(game, "pf", "advance", {"open": reach, "difficult": reach // 3})
    return game, state.evolve(own=game_data(state).evolve(deck_left=()))


def codes(game, state, action) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in game.validate(state, action)]


def test_a_general_on_his_own_may_be_charged_one_with_a_unit_may_not() -> None:
    """He evades, so a charge at him is no melee; a general attached to a unit is charged
    with it: the charge is at the unit. He must be within the charger's move."""
    game, state = charging([unit("rf", R, "foot", 30, 20, 180)], (20, 12))
    assert codes(game, state, Charge(unit="pf", target="rc")) == []
    _, short = charging([unit("rf", R, "foot", 30, 20, 180)], (20, 12), reach=4)
    assert codes(game, short, Charge(unit="pf", target="rc")) == ["declare-thee-sir.TOO_FAR"]
    attached, with_unit = charging([unit("rf", R, "foot", 20, 13.5, 180)], (20, 12.25),
                                   generals=[{"commander": "rc", "attached_to": "rf"}])
    assert [v.message for v in attached.validate(with_unit, Charge(unit="pf", target="rc"))] == [
        "rc is attached to rf: charge that unit"]


def test_the_general_rides_9_inches_away_and_the_charger_goes_its_whole_move() -> None:
    """No dice, no test to close, no morale rolled: there is no melee."""
    game, state = charging([], (20, 12))
    after, events = game.apply(state, Charge(unit="pf", target="rc"), ScriptedDice([]))
    assert Evaded(unit="rc", charger="pf", distance=9.0) in events
    assert UnitMoved(unit="rc", path=((20, 12), (20, 21)), facing=0, reason="evades") in events
    assert (after.units["rc"].x, after.units["rc"].y) == (20, 21)
    assert after.units["pf"].y == 13  # 7" straight at him, well short
    assert not any(isinstance(e, DiceRolled | MoraleDetermined) for e in events)
    assert unit_data(after.units["pf"]).morale is None


def test_cornered_at_the_table_edge_he_stops_there_and_the_charger_halts_an_inch_short() -> None:
    """He is never caught: the edge stops him (he does not leave the field), and the
    charger, with move enough to reach him, stops an inch off."""
    game, state = charging([], (20, 33), reach=9)
    state = state.with_unit(state.units["pf"].evolve(y=26))
    after, events = game.apply(state, Charge(unit="pf", target="rc"), ScriptedDice([]))
    assert Evaded(unit="rc", charger="pf", distance=2.25) in events
    assert after.units["rc"].y == 35.25 and after.units["rc"].in_play  # his front edge on the table's
    assert after.units["pf"].y == 33  # front edge 33.5, an inch from his rear edge at 34.5


def test_an_enemy_in_his_way_stops_him_in_contact() -> None:
    game, state = charging([unit("pb", P, "foot", 20, 16, 180)], (20, 12), reach=9)
    after, events = game.apply(state, Charge(unit="pf", target="rc"), ScriptedDice([]))
    assert Evaded(unit="rc", charger="pf", distance=2.75) in events
    assert after.units["rc"].y == 14.75  # in contact with the foot's edge at 15.5
    assert after.units["pf"].y == 12.5  # an inch short of him


def test_he_rides_through_his_own_side_who_check_their_morale() -> None:
    """Movement: "Units that move ... through another unit cause a moral check (one
    musketry roll) on each unit involved" (the general checks nothing)."""
    game, state = charging([unit("rf", R, "foot", 20, 16, 180)], (20, 12))
    # rf untested: a 4 is 3 points; the check 1 + 2 = 3 costs nothing
    after, events = game.apply(state, Charge(unit="pf", target="rc"), ScriptedDice([4, 1, 2]))
    assert after.units["rc"].y == 21
    assert [e.purpose for e in events if isinstance(e, DiceRolled)] == [
        "morale points: rf", "morale check: rf (first die)", "morale check: rf (second die)"]
    assert unit_data(after.units["rf"]).morale == 3


@pytest.mark.parametrize(("friend_y", "went"), [(21.5, 8.25), (24.0, 9.0)])
def test_he_rides_through_his_own_side_but_ends_clear_of_them(friend_y: float, went: float) -> None:
    """Melee a: "Independent generals always evade melee": he rides his 9" through his
    own side, but may not end on one of them: with a regiment where his ride would end, he
    is cut back a quarter inch at a time until clear of it (his front on its rear edge);
    with it beyond his 9" he rides them all."""
    game, state = charging([unit("rf", R, "foot", 20, friend_y, 180)], (20, 12))
    state = state.with_unit(state.units["rf"].evolve(morale=3, morale_max=3))
    after, events = game.apply(state, Charge(unit="pf", target="rc"), ScriptedDice([1, 2]))
    assert Evaded(unit="rc", charger="pf", distance=went) in events
    assert after.units["rc"].y == 12 + went


def test_the_caracole_says_it_evades_too() -> None:
    """Optional Rules b's evasion is told the same way."""
    horse = unit("rh", R, "horse", 20, 14, 180)
    game = dts_game([FOOT, horse], turns=1, caracole=True,
                    table={"regiments": [{"unit": "rh", "firelocks": True, "formation": "caracole"}]})
    state = activated(game, "pf", "advance", {"open": 7, "difficult": 3})
    state = state.evolve(own=game_data(state).evolve(deck_left=()))
    _, events = game.apply(state, Charge(unit="pf", target="rh"), ScriptedDice([3]))
    assert Evaded(unit="rh", charger="pf", distance=3.0) in events
