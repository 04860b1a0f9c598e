"""The example rule set (a thin slice of Declare Thee Sir, ``tests/example_rules``) played
through the Python API: stands in formations, a push-back through a friend, the card deck
and its special card, two decisions awaited at once, and a side's secret."""

from __future__ import annotations

import random

import pytest

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.random_player import RandomPlayer
from tertia.battle import fight_battle
from tertia.core.actions import EndPhase
from tertia.core.dice import ScriptedDice
from tertia.core.events import DecisionAwaited, Narrated, UnitMoved, UnitRemoved
from tertia.core.hidden import HiddenInformation, is_hidden, view_of
from tertia.core.violations import CoreCode
from tertia.io.record import parse_record, record_to_dict, replay
from tertia.io.scenario_file import ScenarioError, load_scenario
from tertia.rules.casualties import stands_left
from tertia.rules.codes import ActivationCode, MovementCode
from tertia.rules.morale import MoraleDetermined, MoraleLost, morale_of
from tests.example_rules.data import (
    AssignFreeMove,
    ChangeFormation,
    Charge,
    ChargeMet,
    Countercharge,
    ExampleCode,
    FreeMoveAssigned,
    RespondToCharge,
    UnitActivated,
    game_data,
    piece,
)
from tests.example_rules.player import SimpleGeneral
from tests.example_rules.ruleset import SCENARIO

from .example_support import P, R, activated, make_game, registered, scenario_game, unit

__all__ = ["registered"]

pytestmark = pytest.mark.usefixtures("registered")


def act(game, state, action, dice=()):  # type: ignore[no-untyped-def]
    scripted = ScriptedDice(list(dice))
    new, events = game.apply(state, action, scripted)
    assert scripted.remaining == 0, f"{scripted.remaining} scripted dice unused"
    return new, events


def codes(game, state, action):  # type: ignore[no-untyped-def]
    return [v.code for v in game.validate(state, action)]


# --- stands and formations ------------------------------------------------------------------


def test_the_order_of_battle_gives_stands_and_formations() -> None:
    """Unit Compositions and Formations, from the scenario's ``[extensions."example-declare"]``."""
    state = scenario_game().ruleset.initial_state(scenario_game().scenario)
    foot, column, horse3 = (state.units[u] for u in ("p-foot", "p-foot-2", "r-horse-2"))
    assert (piece(foot).formation, stands_left(foot), foot.width, foot.depth) == ("line", 3, 4.5, 1.0)
    assert (piece(column).formation, column.width, column.depth) == ("column", 1.5, 3.0)
    assert (stands_left(horse3), horse3.width, horse3.depth) == (3, 6.0, 1.0)
    assert morale_of(foot) is None  # untested


def test_the_order_of_battle_is_checked() -> None:
    table = '[extensions."example-declare".units.'
    text = SCENARIO.read_text().replace(f'{table}r-horse-2]\nstands = 3',
                                        f'{table}r-horse-2]\nformation = "hedgehog"\n{table}nobody]')
    with pytest.raises(ScenarioError) as caught:
        load_scenario(text, source_name="x.toml", rules_id="example-declare")
    messages = [p.message for p in caught.value.problems]
    assert "only foot form hedgehog (Formations c)" in messages
    assert "no unit 'nobody' in the scenario" in messages


def test_a_formation_change_changes_the_footprint() -> None:
    """Option 1: line to long march; the front edge stays, the footprint turns deep."""
    game = make_game([unit("p-foot", P, "foot", 20, 10), unit("p-horse", P, "horse", 30, 10),
                      unit("r-foot", R, "foot", 20, 30, 180)])
    state = activated(game, "p-foot")
    assert codes(game, state, ChangeFormation("p-foot", "line")) == [ExampleCode.SAME_FORMATION]
    assert codes(game, state, ChangeFormation("p-foot", "square")) == [ExampleCode.UNKNOWN_FORMATION]
    assert codes(game, state, ChangeFormation("p-horse", "column")) == [ActivationCode.NOT_ACTIVATED]
    after, _ = act(game, state, ChangeFormation("p-foot", "column"))
    u = after.units["p-foot"]
    assert (piece(u).formation, u.width, u.depth, u.x, u.y) == ("column", 1.5, 3.0, 20.0, 9.0)
    assert u.base.front_centre() == pytest.approx((20.0, 10.5))
    horse = activated(game, "p-horse")
    assert codes(game, horse, ChangeFormation("p-horse", "hedgehog")) == [ExampleCode.FORMATION_NOT_ALLOWED]


def test_a_formation_change_needs_room() -> None:
    game = make_game([unit("p-foot", P, "foot", 20, 10), unit("p-foot-2", P, "foot", 20, 8),
                      unit("r-foot", R, "foot", 20, 30, 180)])
    state = activated(game, "p-foot")
    assert codes(game, state, ChangeFormation("p-foot", "column")) == [MovementCode.COLLISION]


# --- a push-back through a friend -----------------------------------------------------------


def test_a_push_back_through_a_friend_tests_the_friend_and_the_unit() -> None:
    """Melee: PB1D6 pushes the target back "in good order facing the foe"; Movement:
    "Units that move or rout through another unit cause a moral check (one musketry
    roll) on each unit involved"."""
    game = make_game([unit("p-foot", P, "foot", 20, 10), unit("p-foot-2", P, "foot", 20, 7),
                      unit("r-horse", R, "horse", 20, 12, 180)])
    state = activated(game, "r-horse")
    state, events = act(game, state, Charge("r-horse", "p-foot"))
    assert [(d.side, d.kind) for d in state.decisions] == [(P, "stand_or_fire")]  # no horse to countercharge
    dice = [6,      # the charge move (2D6)
            5, 4,   # the charger's first morale (3 points, excellent), closing on 2+
            3,      # the target's first morale (2 points, good)
            5, 3,   # melee 8 against good morale: PB1D6
            3,      # pushed back 3"
            6, 1, 2,  # the friend passed through: first morale 4, its check 3 (HOLD, no loss)
            4, 3]   # the pushed unit's check: a 7 costs a point
    state, events = act(game, state, RespondToCharge("stand"), dice)
    pushed = next(e for e in events if isinstance(e, UnitMoved) and e.reason == "push back")
    assert pushed.unit == "p-foot" and pushed.path[-1] == pytest.approx((20.0, 6.0))
    assert any(isinstance(e, Narrated) and "pushed back through p-foot-2" in e.text for e in events)
    assert MoraleDetermined("p-foot-2", 4, "passed through") in events
    assert MoraleLost("p-foot", 1, "passed through") in events
    assert morale_of(state.units["p-foot"]) == 1 and morale_of(state.units["p-foot-2"]) == 4
    assert state.units["r-horse"].y == pytest.approx(11.0)  # in contact where the target stood
    assert game_data(state).charge is None and game_data(state).activated is None
    assert state.turn == 2  # the deck was spent: a new turn, its free moves awaited


# --- the card deck and its special card -----------------------------------------------------


def test_the_deck_has_a_card_per_unit_two_for_horse_and_a_free_move_card_each() -> None:
    """Unit Compositions: "(One card)" for foot, "(Two cards)" for cavalry; the side's
    free-move card activates the unit it secretly chose."""
    game = scenario_game()
    state, _ = game.start(ScriptedDice([]))
    assert [(d.side, d.kind) for d in state.decisions] == [(P, "assign_free_move"), (R, "assign_free_move")]
    assert game_data(state).deck_left == (
        "unit:p-foot", "unit:p-foot-2", "unit:p-horse", "unit:p-horse#2", "unit:r-foot", "unit:r-horse",
        "unit:r-horse#2", "unit:r-horse-2", "unit:r-horse-2#2", "special:free_move:parliament",
        "special:free_move:royalist")
    state, _ = act(game, state, AssignFreeMove("p-horse"))
    state, events = act(game, state, AssignFreeMove("r-foot"), [10])  # d11: the 10th card
    assert UnitActivated(P, "p-horse", "special:free_move:parliament") in events
    assert dict(game_data(state).free_move) == {R: "r-foot"}  # parliament's is spent
    assert state.to_act == P and len(game_data(state).deck_left) == 10
    state, events = act(game, state, EndPhase(), [10])  # d10: royalist free move, now last but none
    assert UnitActivated(R, "r-foot", "special:free_move:royalist") in events
    assert game_data(state).free_move == ()


def test_a_free_move_card_for_a_unit_gone_is_passed_over() -> None:
    game = make_game([unit("p-foot", P, "foot", 20, 10), unit("p-horse", P, "horse", 30, 10),
                      unit("r-foot", R, "foot", 20, 30, 180)])
    state, _ = game.start(ScriptedDice([]))
    state, _ = act(game, state, AssignFreeMove("p-horse"))
    gone = state.units["p-horse"].evolve(removed="routed")
    state = state.with_unit(gone).evolve(own=game_data(state).evolve(
        deck_left=("special:free_move:parliament", "unit:r-foot")))
    state, events = act(game, state, AssignFreeMove("r-foot"), [1])
    assert any(isinstance(e, Narrated) and "free move card has no unit" in e.text for e in events)
    assert UnitActivated(R, "r-foot", "unit:r-foot") in events


# --- two decisions at once --------------------------------------------------------------------


def test_a_charge_awaits_the_targets_answer_and_a_countercharge_at_once() -> None:
    """The target stands or fires, and a friend near the charger may countercharge: both
    wait together and are answered in the order they arose."""
    game = make_game([unit("p-foot", P, "foot", 20, 10), unit("p-horse", P, "horse", 26, 12),
                      unit("r-horse", R, "horse", 20, 12, 180)])
    state = activated(game, "r-horse")
    state, events = act(game, state, Charge("r-horse", "p-foot"))
    assert [e.kind for e in events if isinstance(e, DecisionAwaited)] == ["stand_or_fire", "countercharge"]
    assert [(d.side, d.kind) for d in state.decisions] == [(P, "stand_or_fire"), (P, "countercharge")]
    assert state.decisions[1]["eligible"] == ["p-horse"]
    assert codes(game, state, Countercharge("p-horse")) == [CoreCode.NOTHING_PENDING]
    assert codes(game, state, EndPhase()) == [CoreCode.PENDING_DECISION]
    assert codes(game, state, RespondToCharge("flee")) == [ExampleCode.BAD_CHOICE]
    # The volley: range 6+2, the charger's first morale 1 point, doubles cost it that point.
    state, _ = act(game, state, RespondToCharge("fire"), [2, 1, 2, 2])
    assert morale_of(state.units["r-horse"]) == 0
    assert [d.kind for d in state.decisions] == ["countercharge"]
    assert codes(game, state, Countercharge("p-foot")) == [ExampleCode.BAD_CHOICE]
    dice = [3, 8,     # the order is obeyed (D10 3); it rides 8" but meets the charger at 2"
            5, 6,     # the charge move; closing at poor morale needs 5+
            2, 6, 4,  # the countercharger's first morale (2, good); melee 10 +2 flank = ROUT
            3, 4]     # its two stands rout 3" and 4" away
    state, events = act(game, state, Countercharge("p-horse"), dice)
    assert ChargeMet("r-horse", "p-horse") in events
    assert UnitRemoved("p-horse", "routed") in events
    assert [(s.x, s.y) for s in state.units["p-horse"].stands] == [(26.0, 12.0), (29.0, 12.0)]
    assert state.units["p-foot"].in_play and state.decisions[0].kind == "assign_free_move"


# --- the side's secret ----------------------------------------------------------------------


def after_parliament_chose(unit_id: str) -> tuple[object, object]:
    game = scenario_game()
    state, _ = game.start(ScriptedDice([]))
    state, events = act(game, state, AssignFreeMove(unit_id))
    return game, (state, events)


def test_the_other_side_cannot_tell_which_unit_has_the_free_move() -> None:
    """Two games that differ only in parliament's secret choice look the same to the
    royalists, and refuse the royalists' actions alike."""
    game_a, (a, events_a) = after_parliament_chose("p-foot")
    game_b, (b, _) = after_parliament_chose("p-horse")
    assert a != b
    assert game_a.observe(a, R) == game_b.observe(b, R)  # type: ignore[attr-defined]
    assert game_a.observe(a, P) != game_b.observe(b, P)  # type: ignore[attr-defined]
    seen = game_a.observed_state(a, R)  # type: ignore[attr-defined]
    assert view_of(seen) == R and is_hidden(dict(game_data(seen).free_move)[P])
    assert dict(game_data(game_a.observed_state(a, P)).free_move) == {P: "p-foot"}  # type: ignore[attr-defined]
    tries = [AssignFreeMove(u) for u in ("r-foot", "r-horse", "p-foot", "p-horse", "nobody")]
    tries += [EndPhase(), Charge("r-horse", "p-foot"), ChangeFormation("r-foot", "column")]
    for action in tries:
        assert game_a.validate(a, action) == game_b.validate(b, action), action  # type: ignore[attr-defined]
    secret = [e for e in events_a if isinstance(e, FreeMoveAssigned)]  # type: ignore[attr-defined]
    assert secret and not game_a.ruleset.event_visible_to(secret[0], R)  # type: ignore[attr-defined]
    assert game_a.ruleset.event_visible_to(secret[0], P)  # type: ignore[attr-defined]
    with pytest.raises(HiddenInformation):
        game_a.validate(seen, AssignFreeMove("r-foot"))  # type: ignore[attr-defined]


def test_untested_morale_is_nobodys_secret() -> None:
    game = scenario_game()
    state, _ = game.start(ScriptedDice([]))
    assert game.observed_state(state, R) is state and view_of(state) is None


def test_sampled_states_fill_the_secret_with_a_unit_it_could_be() -> None:
    game, (state, _) = after_parliament_chose("p-horse")
    seen = game.observed_state(state, R)  # type: ignore[attr-defined]
    picks = set()
    for seed in range(20):
        full = game.sample_hidden(seen, R, random.Random(seed))  # type: ignore[attr-defined]
        assert view_of(full) is None
        choice = dict(game_data(full).free_move)[P]
        assert choice in ("p-foot", "p-foot-2", "p-horse")
        picks.add(choice)
        assert full.evolve(own=game_data(state)) == state  # everything else as it is
        assert game.observe(full, R) == game.observe(state, R)  # type: ignore[attr-defined]
        assert game.validate(full, AssignFreeMove("r-foot")) == []  # type: ignore[attr-defined]
    assert len(picks) > 1


# --- whole battles ----------------------------------------------------------------------------


@pytest.mark.parametrize("player", [SimpleGeneral, RandomPlayer, DoctrinePlayer])
def test_whole_battles_end_and_replay(player: type) -> None:
    game = scenario_game()
    record = fight_battle(game, {P: player(), R: player()}, 11)
    final = record.final_state
    assert final.is_over and final.result is not None
    assert final.result["reason"] in ("turn limit", "a side has no units left")
    loaded = parse_record(record_to_dict(record))
    result = replay(loaded)
    assert result.ok, result.message
    assert result.final_hash == final.state_hash()
