"""What Declare Thee Sir tells a player beside the table: the activation in brief, a
unit's card (morale "untested" until first tested, B.3), a placed move measured against
the rolled allowance of the ground it crosses (B.2), and the 30 seconds to declare (A)."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move, action_from_dict
from tertia.core.game import Game
from tertia.core.presentation import FactValue
from tertia.core.state import GameState
from tertia.offers import unit_offers
from tertia.rulesets.declare_thee_sir import clauses
from tertia.rulesets.declare_thee_sir.values import unit_data
from tertia.rulesets.declare_thee_sir.vocabulary import DECISION_KINDS, DECLARATION_SECONDS

from .dts_support import P, R, activated, dts_game, unit
from .support import commander

ALLOWANCE = {"open": 7, "difficult": 3}


def game() -> Game:
    woods = {"type": "woods", "polygon": [[10, 14], [30, 14], [30, 24], [10, 24]]}
    return dts_game([unit("foot", P, "foot", 20.0, 8.0), unit("horse", R, "horse", 40.0, 30.0, 180.0)],
                    terrain=[woods])


def with_morale(state: GameState, uid: str, morale: int | None, first: int | None) -> GameState:
    u = state.units[uid]
    return state.with_unit(u.evolve(own=unit_data(u).evolve(morale=morale, morale_max=first)))


def shown(g: Game, state: GameState, uid: str, key: str) -> FactValue:
    """What ``uid``'s card shows for fact ``key`` (its words when it has any)."""
    fact = g.piece(state, uid).fact(key)
    assert fact is not None, f"{uid} shows no {key}"
    return fact.value if fact.words is None else fact.words


def test_a_units_card_says_untested_until_its_morale_is_rolled() -> None:
    """Morale: "Other units start the game untested": no number is shown until then; once
    tested, the points left of those first rolled, with their level."""
    g = game()
    state = activated(g, "foot")
    assert shown(g, state, "foot", "morale") == "untested"
    assert "Morale: untested" in g.piece(state, "foot").lines()
    assert shown(g, with_morale(state, "foot", 4, 4), "foot", "morale") == "4 points: excellent"
    assert shown(g, with_morale(state, "foot", 2, 3), "foot", "morale") == "2 of 3 points: good"
    assert shown(g, with_morale(state, "foot", 0, 1), "foot", "morale") == "0 of 1 point: poor"
    assert shown(g, with_morale(state, "foot", 1, 1), "foot", "morale") == "1 point: good"


def test_the_activated_units_card_shows_its_option_and_rolled_move() -> None:
    g = game()
    waiting = activated(g, "foot")
    assert shown(g, waiting, "foot", "activated") is True
    assert shown(g, waiting, "foot", "declared") is None and shown(g, waiting, "foot", "move") is None
    assert "Activated" in g.piece(waiting, "foot").lines()
    horse = g.piece(waiting, "horse")
    assert horse.fact("activated") is None and "Activated" not in horse.lines()
    assert horse.fact("declared") is None
    state = activated(g, "foot", "advance", ALLOWANCE)
    assert shown(g, state, "foot", "declared") == "advance"
    assert shown(g, state, "foot", "move") == '7" over open ground, 3" through difficult ground or to a flank'
    retiring = activated(g, "foot", "rally:retire", ALLOWANCE)
    assert shown(g, retiring, "foot", "declared") == "rally (retire)"
    assert shown(g, activated(g, "foot", "stand_and_fire"), "foot", "volleys_left") == 2


def test_the_summary_names_the_activated_unit_and_its_option() -> None:
    """The page picks out ``activated`` and reads ``declared``; the score adds each side's
    points."""
    g = game()
    brief = g.ruleset.presentation().summary
    assert brief(activated(g, "horse"))["activated"] == "horse"
    found = brief(activated(g, "foot", "advance_and_fire", ALLOWANCE))
    assert (found["activated"], found["declared"], found["volleys_left"]) == ("foot", "advance and fire", 1)
    assert found["allowance"] == {"over open ground": 7, "through difficult ground or to a flank": 3}
    assert found["score"] == {P: 0, R: 0}
    bare = g.ruleset.initial_state(g.scenario)
    assert brief(bare)["activated"] is None and brief(bare)["declared"] is None
    # No volleys are counted before an option that fires is declared (not "0 left").
    assert brief(activated(g, "horse"))["volleys_left"] is None
    assert brief(activated(g, "foot", "advance", ALLOWANCE))["volleys_left"] is None
    assert brief(activated(g, "foot", "stand_and_fire"))["volleys_left"] == 2


@pytest.mark.parametrize(("to", "ground", "inches", "legal"), [
    ((20.0, 13.0), "over open ground", 7, True),       # 5" ahead, short of the woods
    ((20.0, 16.0), "through difficult ground or to a flank", 3, False),  # 8" ahead, into woods
    ((23.0, 8.0), "through difficult ground or to a flank", 3, True),  # 3" to the flank
    ((24.0, 8.0), "through difficult ground or to a flank", 3, False),  # 4" to the flank
])
def test_a_placed_move_is_measured_against_the_roll_for_its_ground(
        to: tuple[float, float], ground: str, inches: int, legal: bool) -> None:
    """Movement: the move is rolled on declaring; the path placed says which figure holds:
    open ground the whole roll, difficult ground or a flank move a third. The ruler's
    figure is the one ``validate`` holds the move to."""
    g = game()
    state = activated(g, "foot", "advance", ALLOWANCE)
    move = Move(unit="foot", waypoints=(to,))
    found = g.ruleset.measure_move(g.table, state, move)
    assert found is not None
    assert (found["ground"], found["allowance"], found["rule"]) == (ground, inches, clauses.MOVEMENT)
    assert found["length"] == pytest.approx(abs(to[0] - 20.0) + abs(to[1] - 8.0))
    assert found["allowances"] == {"over open ground": 7, "through difficult ground or to a flank": 3}
    assert g.is_legal(state, move) == legal


def test_nothing_is_measured_before_the_move_is_rolled_or_for_another_unit() -> None:
    g = game()
    move = Move(unit="foot", waypoints=((20.0, 10.0),))
    assert g.ruleset.measure_move(g.table, activated(g, "foot"), move) is None
    assert g.ruleset.measure_move(g.table, activated(g, "foot", "stand_and_fire"), move) is None
    assert g.ruleset.measure_move(g.table, activated(g, "horse", "advance", ALLOWANCE), move) is None


def test_the_drag_offer_carries_the_roll_for_each_ground() -> None:
    g = game()
    state = activated(g, "foot", "advance", ALLOWANCE)
    offers = unit_offers(g, state, state.units["foot"], set(state.units))
    drag = next(o for o in offers if o.kind.type == "move").to_dict()
    assert drag["allowance"] == 7
    assert drag["allowances"] == {"over open ground": 7, "through difficult ground or to a flank": 3}


def test_a_declared_formation_change_offers_each_formation_the_unit_may_take() -> None:
    """Formations: line, long march, hedgehog (foot only); the one it is in is no change."""
    g = game()
    state = activated(g, "foot", "formation_change")
    offers = [o for o in unit_offers(g, state, state.units["foot"], set(state.units))
              if o.kind.type == "dts_change_formation"]
    assert sorted(o.action.to_dict()["formation"] for o in offers) == ["hedgehog", "long_march"]
    assert all(o.kind.interaction.value == "button" for o in offers)
    horse = dts_game([unit("h", P, "horse", 20.0, 8.0)])
    state = activated(horse, "h", "formation_change")
    offered = [o.action.to_dict()["formation"] for o in unit_offers(horse, state, state.units["h"], {"h"})
               if o.kind.type == "dts_change_formation"]
    assert sorted(offered) == ["long_march"]


def test_the_declaration_has_the_texts_thirty_seconds_and_defers_when_they_run_out() -> None:
    """Game Play: "the units immediate commander has 30 seconds to declare one of the
    following six options"; a commander who lets them pass has declared nothing, and his
    unit remains inactive (option 6, defer), which every unit may always declare."""
    declare = DECISION_KINDS[0]
    assert declare.time_limit == DECLARATION_SECONDS == 30
    assert dict(declare.on_time_out) == {"option": "defer"}
    g = game()
    for uid in ("foot", "horse"):
        state = activated(g, uid)
        assert "defer" in state.pending.get("options", ())  # type: ignore[union-attr]
        answer = {"type": declare.answer, "unit": uid, **dict(declare.on_time_out)}
        assert g.is_legal(state, action_from_dict(answer))


def test_a_general_is_shown_with_his_unit_until_he_falls() -> None:
    """Generals: an attached general rides with his unit; once fallen he is with no one."""
    g = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 30, 180)],
                 commanders=[commander("pg", P, 24, 8.75)],
                 table={"generals": [{"commander": "pg", "attached_to": "pf"}]}, depth=48)
    state = g.ruleset.initial_state(g.scenario)
    assert shown(g, state, "pg", "attached_to") == state.units["pf"].label
    fallen = state.with_unit(state.units["pg"].evolve(removed="killed"))
    with_no_one = g.piece(fallen, "pg").fact("attached_to")
    assert with_no_one is not None and not with_no_one.shown()
