"""Charge yr Pikes! dragoons (section 18): two of mount or dismount, move and fire a
turn, not one twice; a charge takes the whole turn; on foot four 4-man stands and the
horse holders."""

from __future__ import annotations

from tertia.core.actions import EndPhase, Move
from tertia.core.dice import ScriptedDice
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.core.violations import CoreCode
from tertia.rulesets.charge_yr_pikes.actions import Charge, FireOrder, Mount
from tertia.rulesets.charge_yr_pikes.dragoons import remounted
from tertia.rulesets.charge_yr_pikes.morale import stand_missing
from tertia.rulesets.charge_yr_pikes.reports import unit_facts
from tertia.rulesets.charge_yr_pikes.ruleset import ChargeYrPikes
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

from .test_cyp_setup import scenario

# Grades 4 and 1; the k1 card first, then (d6 = 1) the k2 card: the horse rolls 8 (no
# move, "without officer"), the dragoons 3.
K2_MOVES = ([4, 1, 1, 5], [1, 8, 3])


def _dragoons_card() -> tuple[Game, GameState]:
    game = Game(ChargeYrPikes(secret_deployment=False), scenario())
    state, _ = game.start(ScriptedDice(K2_MOVES[0]))
    state, _ = game.apply(state, EndPhase(), ScriptedDice(K2_MOVES[1]))
    assert game_data(state).moving == ("k-drag",)
    return game, state


def test_dismounting_puts_four_4_man_stands_on_foot_and_two_holders_aside() -> None:
    game, state = _dragoons_card()
    state, _ = game.apply(state, Mount(unit="k-drag", mounted=False), ScriptedDice([]))
    own = unit_data(state.units["k-drag"])
    assert (own.mounted, own.men, own.holders, own.per_stand, own.stands_left) == (False, 16, 2, 4, 4)
    assert own.moved  # "counts as a move for morale and firing purposes"
    drag = state.units["k-drag"]
    assert (drag.width, drag.depth) == (2.0, 1.5)  # two ranks of foot stands


def test_mounting_and_dismounting_neither_gain_nor_lose_a_figure() -> None:
    """Unit Organizations A: six 3-man stands mounted; on foot four 4-man stands and two
    horse holders. The holders are figures of the regiment: the count of figures, the
    casualties, the 50% rules and a missing stand read the same mounted and on foot, and
    casualties taken on foot stay lost mounted."""
    _, state = _dragoons_card()
    mounted = state.units["k-drag"]
    own = unit_data(mounted)
    assert (own.strength, own.start, own.lost) == (18, 18, 0)
    on_foot = remounted(mounted, False)
    down = unit_data(on_foot)
    assert (down.figures, down.holders, down.strength, down.lost) == (16, 2, 18, 0)
    assert not stand_missing(down) and not down.under_half
    figures = next(f for f in unit_facts(state.with_unit(on_foot), on_foot) if f.key == "figures")
    assert (figures.value, figures.limit, figures.note) == (18, 18, "2 holding the horses")
    hurt = on_foot.evolve(own=down.evolve(men=12))  # four lost on foot: one stand gone
    assert unit_data(hurt).lost == 4 and stand_missing(unit_data(hurt))
    up = unit_data(remounted(hurt, True))
    assert (up.figures, up.holders, up.lost) == (14, 0, 4)


def test_dragoons_do_two_things_a_turn_but_not_one_twice() -> None:
    game, state = _dragoons_card()
    state, _ = game.apply(state, Mount(unit="k-drag", mounted=False), ScriptedDice([]))
    again = game.validate(state, Mount(unit="k-drag", mounted=True))
    assert [v.code for v in again] == [CoreCode.ALREADY_ACTED]
    state, _ = game.apply(state, Move(unit="k-drag", waypoints=((59.0, 13.0),)), ScriptedDice([]))
    assert unit_data(state.units["k-drag"]).acts == 2


def test_a_charge_takes_the_whole_turn() -> None:
    game, state = _dragoons_card()
    state = state.with_unit(state.units["p-foot"].evolve(x=60.0, y=20.0))
    state, _ = game.apply(state, Mount(unit="k-drag", mounted=False), ScriptedDice([]))
    refused = game.validate(state, Charge(unit="k-drag", target="p-foot"))
    assert [v.code for v in refused] == [CoreCode.ALREADY_ACTED]


def test_only_dragoons_mount() -> None:
    game, state = _dragoons_card()
    assert [v.code for v in game.validate(state, Mount(unit="k-drag", mounted=True))] == [CoreCode.CANNOT_ACT]


def test_mounted_dragoons_charge_only_a_flank_a_rear_or_a_routed_unit() -> None:
    # 18 C: "Mounted dragoons may charge routed enemy units. They may charge non-routed
    # enemy units only if charging the flank/rear of such units."
    game, state = _dragoons_card()
    front = state.with_unit(state.units["p-foot"].evolve(x=60.0, y=20.0))  # facing south, at them
    refused = game.validate(front, Charge(unit="k-drag", target="p-foot"))
    assert [v.code for v in refused] == [CoreCode.CANNOT_ACT]
    rear = state.with_unit(state.units["p-foot"].evolve(x=60.0, y=20.0, facing=0.0))
    assert game.is_legal(rear, Charge(unit="k-drag", target="p-foot"))
    routed = front.with_unit(front.units["p-foot"].evolve(formation="routed"))
    assert game.is_legal(routed, Charge(unit="k-drag", target="p-foot"))


def test_dragoons_that_used_both_actions_may_not_fire() -> None:
    game, state = _dragoons_card()
    drag = state.units["k-drag"]
    on_foot = drag.evolve(mounted=False, men=16, per_stand=4, moved=True)
    target = state.units["p-foot"].evolve(x=60.0, y=20.0)
    firing = state.with_unit(on_foot.evolve(acts=1)).with_unit(target)
    firing = firing.evolve(own=game_data(firing).evolve(step="moving_fire", step_side="king", moving=()))
    assert not [v for v in game.validate(firing, FireOrder(unit="k-drag", target="p-foot"))
                if v.code == CoreCode.ALREADY_ACTED]
    spent = firing.with_unit(on_foot.evolve(acts=2))
    assert [v.code for v in game.validate(spent, FireOrder(unit="k-drag", target="p-foot"))] == \
        [CoreCode.ALREADY_ACTED]
