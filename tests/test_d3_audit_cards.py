"""Clauses of the D3 texts an outside audit found untested or misread: d3-cards' one pivot,
shooting after a wheel (both D3 rule sets), towns that can be assaulted, an attacker that
may itself be charged, scenarios checked against each rule set, and d3-cards rows whose
tests did not test their clause. Each docstring quotes the clause; the docs' tables name
every test here."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tertia.analysis.odds import odds
from tertia.core.actions import Attack, Move, Shoot
from tertia.core.game import Game
from tertia.core.state import GameState

from .d3_support import CARDS, COMMANDS, activation, foot, horse
from .support import P, R, act, codes, make_game


def cards_game(units: list[dict[str, Any]], **kw: Any) -> Game:
    return make_game(units, rules=CARDS, **kw)


# --- Pivots and shooting after a move ---------------------------------------------------------


def test_one_pivot_at_the_start_or_the_end() -> None:
    """d3-cards Movement: "Units can pivot on their centre at the start or end of their
    movement": one pivot a move, at either end (option ``d3_cards_pivots``: ``both``)."""
    game = cards_game([foot("f", P, 30, 5), foot("e", R, 30, 45, 180)])
    state = activation(game, P, "foot")
    assert codes(game, state, Move(unit="f", waypoints=((30, 8),), face_before=90)) == []
    assert codes(game, state, Move(unit="f", waypoints=((30, 8),), face_after=90)) == []
    assert codes(game, state, Move(unit="f", face_before=90, face_after=180)) == ["BAD_PATH"]
    both = Move(unit="f", waypoints=((34, 5),), face_before=90, face_after=0)
    assert codes(game, state, both) == ["BAD_PATH"]
    loose = cards_game([foot("f", P, 30, 5), foot("e", R, 30, 45, 180)], d3_cards_pivots="both")
    assert codes(loose, activation(loose, P, "foot"), both) == []


def test_sidestep_by_pivoting_twice_cannot_shoot() -> None:
    """d3-cards Musketry: "Units moving sideways or backwards outside of their 45 degree
    front facing cannot shoot." With one pivot a unit cannot turn, slide and turn back to
    shoot from a sidestep; with ``d3_cards_pivots = "both"`` it can, as the rules allowed."""
    units = [foot("f", P, 30, 5), foot("e", R, 34, 16, 180)]
    sidestep = Move(unit="f", waypoints=((34, 5),), face_before=90, face_after=0)
    loose = cards_game(units, d3_cards_pivots="both")
    moved, _ = act(loose, activation(loose, P, "foot"), sidestep)
    assert codes(loose, moved, Shoot(unit="f", target="e")) == []
    strict = cards_game(units, d3_cards_pivots="both", forward_judged_from="activation-start")
    moved, _ = act(strict, activation(strict, P, "foot"), sidestep)
    assert codes(strict, moved, Shoot(unit="f", target="e")) == ["MOVED_SIDEWAYS"]


@pytest.mark.parametrize("rules", [CARDS, COMMANDS])
def test_wheel_and_advance_then_fire(rules: str) -> None:
    """Musketry (d3-cards) and Shooting (d3-commands): shooting "after completing their
    movement, but that movement must have been forward movement". By default forward is
    judged after the pivot at the start: a unit may wheel 60 degrees, advance and fire.
    Option ``forward_judged_from = "activation-start"`` judges it from the facing the unit
    had when activated: the same move is then not forward, while a wheel of 30 is."""
    card = "foot" if rules == CARDS else "centre"
    units = [foot("f", P, 30, 5), foot("e", R, 42, 14, 240)]
    wheel = Move(unit="f", waypoints=((31.73, 6.0),), face_before=60)
    narrow = Move(unit="f", waypoints=((30.5, 5.87),), face_before=30)
    for option, wide_ok in (("after-start-pivot", True), ("activation-start", False)):
        game = make_game(units, rules=rules, forward_judged_from=option)
        state = activation(game, P, card)
        wheeled, _ = act(game, state, wheel)
        assert (codes(game, wheeled, Shoot(unit="f", target="e")) == []) is wide_ok
        turned, _ = act(game, state, narrow)
        assert codes(game, turned, Shoot(unit="f", target="e")) == []


# --- Towns ------------------------------------------------------------------------------------

BIG_TOWN = {"type": "town", "polygon": [[20, 14], [40, 14], [40, 26], [20, 26]]}


def test_a_town_garrison_may_be_assaulted() -> None:
    """d3-cards Terrain Effects: "Only one unit may occupy a town." A unit occupies a town
    when its centre stands in it; no other unit may end a move occupying it, but a charge
    into contact with the garrison is an assault, not an occupation, whether the charger
    ends at the town's edge or inside it. A unit whose centre stays outside does not
    occupy the town."""
    game = cards_game([foot("f", P, 30, 13.5), foot("g", P, 24, 10), foot("e", R, 30, 22, 180)],
                      terrain=[BIG_TOWN])
    state = activation(game, P, "foot")
    assert codes(game, state, Move(unit="f", waypoints=((30, 18.99),))) == []
    assert codes(game, state, Move(unit="f", waypoints=((30, 18.5),))) == ["TOWN_OCCUPIED"]
    assert codes(game, state, Move(unit="g", waypoints=((24, 15),))) == ["TOWN_OCCUPIED"]
    assert codes(game, state, Move(unit="g", waypoints=((24, 13.5),))) == []
    edge = cards_game([foot("f", P, 30, 8), foot("e", R, 30, 15.6, 180)], terrain=[BIG_TOWN])
    assert codes(edge, activation(edge, P, "foot"), Move(unit="f", waypoints=((30, 12.59),))) == []
    friends = cards_game([foot("f", P, 30, 13.5), foot("k", P, 30, 22)], terrain=[BIG_TOWN])
    assert codes(friends, activation(friends, P, "foot"), Move(unit="f", waypoints=((30, 18.99),))) == [
        "TOWN_OCCUPIED"]


def test_assaulting_a_town_is_d3_less_two_against_foot() -> None:
    """d3-cards Melee 2 and Terrain Effects: Foot assaulting Foot in a town roll a D3, -1
    for a target of Infantry and -1 for the town's cover: of the faces 1,1,2,2,3,3 only the
    two 3s score, so one hit with chance 1/3 and none with 2/3."""
    game = cards_game([foot("f", P, 30, 13.5), foot("e", R, 30, 22, 180)], terrain=[BIG_TOWN])
    charged, _ = act(game, activation(game, P, "foot"), Move(unit="f", waypoints=((30, 18.99),)))
    result = odds(game, charged, Attack(attacker="f", target="e"))
    assert dict(result.summary["target_hits_exact"]) == {"0": Fraction(2, 3), "1": Fraction(1, 3)}
    assert result.modifiers == ("-1 target is Infantry", "-1 target in town")


# --- One attacker a defender ------------------------------------------------------------------


def to_card(state: GameState, side: str, card: str) -> GameState:
    """The same position with ``side``'s ``card`` in play and nothing done yet."""
    played = {"side": side, "card": card}
    return state.evolve(active=side, marks={}, extra={**state.extra, "activation": played})


def test_a_unit_that_charged_may_itself_be_charged() -> None:
    """d3-cards Movement: "Only one attacking unit may engage any given defending unit." A
    unit that charged is the attacker in its melee, not a defender: one enemy may still
    charge it, and then it defends, so a second may not. The unit it charged stays a
    defender. When the one charged charges back, the roles turn round. Units found in
    contact with no charge between them both count as defending."""
    units = [horse("a", P, 30, 5), horse("b", P, 45, 20, 270), foot("e", R, 30, 20, 180),
             foot("c", R, 38, 15.5, 270), foot("d", R, 22, 15.5, 90)]
    game = cards_game(units)
    charged, _ = act(game, activation(game, P, "horse"), Move(unit="a", waypoints=((30, 16.99),)))
    assert codes(game, charged, Move(unit="b", waypoints=((33.51, 20),))) == ["FACE_TAKEN"]
    answer = to_card(charged, R, "foot")
    assert codes(game, answer, Move(unit="c", waypoints=((33.51, 15.5),))) == []
    second, _ = act(game, answer, Move(unit="c", waypoints=((33.51, 15.5),)))
    assert codes(game, second, Move(unit="d", waypoints=((26.49, 15.5),))) == ["FACE_TAKEN"]
    back, _ = act(game, answer, Move(unit="e", waypoints=((30, 23),)))
    again, _ = act(game, to_card(back, R, "foot"), Move(unit="e", waypoints=((30, 20),)))
    assert codes(game, again, Move(unit="c", waypoints=((33.51, 15.5),))) == ["FACE_TAKEN"]
    placed = cards_game([horse("a", P, 30, 16.99), *units[1:]])
    state = activation(placed, R, "foot")
    assert codes(placed, state, Move(unit="c", waypoints=((33.51, 15.5),))) == ["FACE_TAKEN"]
