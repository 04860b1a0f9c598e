"""Declare Thee Sir: volleys and charges as players make them, and what a routing or
pursuing unit does on its card (Game Play options 2-6 through the rule set)."""

from __future__ import annotations

import math

import pytest

from tertia.ai.players import make_player
from tertia.battle import Step, fight_battle
from tertia.core.actions import Move
from tertia.core.dice import ScriptedDice
from tertia.core.events import DiceRolled, GameDataChanged, UnitMoved
from tertia.core.game import Game
from tertia.core.geometry import base_distance, polygons_overlap
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset
from tertia.rulesets.declare_thee_sir import reform
from tertia.rulesets.declare_thee_sir.events import (
    ChangeFormation,
    Charge,
    Declare,
    Fire,
    GeneralAttached,
    VolleyFired,
)
from tertia.rulesets.declare_thee_sir.rout import PursuitChanged, UnitBroken
from tertia.rulesets.declare_thee_sir.ruleset import charge_path
from tertia.rulesets.declare_thee_sir.sequence import options_for
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data
from tertia.scenarios import load_builtin

from .dts_support import P, R, activated, dts_game, unit

FOOT = unit("pf", P, "foot", 20, 6)
HORSE = unit("ph", P, "horse", 30, 6)
ENEMY = unit("rf", R, "foot", 20, 14, 180)
LAST: tuple[str, ...] = ()  # the deck is spent: in a one-turn battle the battle then ends


def codes(game, state, action) -> list[str]:  # type: ignore[no-untyped-def]
    return [v.code for v in game.validate(state, action)]


def deck_of(state, *cards: str):  # type: ignore[no-untyped-def]
    return state.evolve(own=game_data(state).evolve(deck_left=cards))


def test_stand_and_fire_gives_two_volleys_then_the_activation_ends() -> None:
    """Game Play 4: "Stand and fire (two volleys)"."""
    game = dts_game([FOOT, HORSE, ENEMY])
    declared, _ = game.apply(activated(game, "pf"), Declare(unit="pf", option="stand_and_fire"),
                             ScriptedDice([]))
    assert game_data(declared).volleys == 2
    state = deck_of(activated(game, "pf", "stand_and_fire"), "unit:rf")
    state = state.evolve(own=game_data(state).evolve(volleys=2))
    assert codes(game, state, Fire(unit="pf", target="rf")) == []
    # range 6 + 1D6 = 12 against 7" apart: in range; morale 4 (a 6); dice 2, 3: no point.
    state, events = game.apply(state, Fire(unit="pf", target="rf"), ScriptedDice([6, 6, 2, 3]))
    assert VolleyFired(unit="pf", target="rf") in events and game_data(state).volleys == 1
    assert game_data(state).activated == "pf"
    state, events = game.apply(state, Fire(unit="pf", target="rf"), ScriptedDice([1, 2, 3]))
    assert game_data(state).activated == "rf"  # the second volley ended it
    assert [e.value for e in events if isinstance(e, DiceRolled)][:1] == [1]  # range 7: just in range


def test_advance_and_fire_ends_only_when_both_the_move_and_the_volley_are_made() -> None:
    """Game Play 3: "Advance and fire (1/2 move & one volley of fire)": either may come
    first; the activation goes on until the unit has both moved and fired."""
    game = dts_game([FOOT, HORSE, ENEMY])
    ready = deck_of(activated(game, "pf", "advance_and_fire", {"open": 4, "difficult": 1}), "unit:rf")
    ready = ready.evolve(own=game_data(ready).evolve(volleys=1))
    # range 6 + 1D6 (a 6) against 7"; morale 4 (a 6); dice 2, 3: no point.
    fired, _ = game.apply(ready, Fire(unit="pf", target="rf"), ScriptedDice([6, 6, 2, 3]))
    assert game_data(fired).activated == "pf" and game_data(fired).volleys == 0
    assert codes(game, fired, Fire(unit="pf", target="rf")) == ["declare-thee-sir.NO_VOLLEYS"]
    done, _ = game.apply(fired, Move(unit="pf", waypoints=((20, 8),)), ScriptedDice([]))
    assert game_data(done).activated == "rf"
    moved, _ = game.apply(ready, Move(unit="pf", waypoints=((20, 8),)), ScriptedDice([]))
    assert game_data(moved).activated == "pf" and game_data(moved).moved
    done, _ = game.apply(moved, Fire(unit="pf", target="rf"), ScriptedDice([6, 6, 2, 3]))
    assert game_data(done).activated == "rf"


def test_fire_needs_a_fire_option_a_volley_left_and_a_target_in_the_arc() -> None:
    game = dts_game([FOOT, HORSE, ENEMY, unit("rs", R, "foot", 20, 2, 0)])
    advancing = activated(game, "pf", "advance", {"open": 3, "difficult": 1})
    assert codes(game, advancing, Fire(unit="pf", target="rf")) == ["declare-thee-sir.NOT_DECLARED"]
    firing = activated(game, "pf", "stand_and_fire")
    firing = firing.evolve(own=game_data(firing).evolve(volleys=2))
    assert codes(game, firing, Fire(unit="pf", target="rs")) == ["fighting.NO_LINE_OF_SIGHT"]  # behind
    assert codes(game, firing, Fire(unit="pf", target="ph")) == ["fighting.NOT_ENEMY"]  # a friend
    spent = firing.evolve(own=game_data(firing).evolve(volleys=0))
    assert codes(game, spent, Fire(unit="pf", target="rf")) == ["declare-thee-sir.NO_VOLLEYS"]


def test_a_charge_goes_straight_at_the_target_under_advance_within_the_rolled_move() -> None:
    """Melee a: "Attacking unit must use advance option to move directly at target unit";
    artillery can't advance into melee."""
    game = dts_game([FOOT, HORSE, unit("pg", P, "artillery", 10, 6), ENEMY])
    short = activated(game, "pf", "advance", {"open": 6, "difficult": 2})
    assert codes(game, short, Charge(unit="pf", target="rf")) == ["declare-thee-sir.TOO_FAR"]  # 7" gap
    enough = activated(game, "pf", "advance", {"open": 7, "difficult": 3})
    assert codes(game, enough, Charge(unit="pf", target="rf")) == []
    firing = activated(game, "pf", "advance_and_fire", {"open": 7, "difficult": 3})
    assert codes(game, firing, Charge(unit="pf", target="rf")) == ["declare-thee-sir.NOT_DECLARED"]
    gun = activated(game, "pg", "advance", {"open": 12, "difficult": 4})
    assert codes(game, gun, Charge(unit="pg", target="rf")) == ["core.CANNOT_ACT"]


@pytest.mark.parametrize(("width", "depth"), [(48, 36), (36, 36)])
def test_a_charge_another_unit_stands_in_the_way_of_is_refused_naming_it(width: float, depth: float) -> None:
    """Melee a: "Attacking unit must use advance option to move directly at target unit":
    a unit standing on the straight line to the target stops the charge short of it, and the
    refusal names that unit. The charge is looked along as far as the table reaches (a square
    table too)."""
    game = dts_game([FOOT, HORSE, ENEMY, unit("rb", R, "foot", 20, 10, 180)], width=width, depth=depth)
    blocked = activated(game, "pf", "advance", {"open": 7, "difficult": 3})
    assert [(v.code, v.message) for v in game.validate(blocked, Charge(unit="pf", target="rf"))] == [
        ("movement.COLLISION", f"{blocked.units['rb'].label} stands between {blocked.units['pf'].label} "
                               f"and {blocked.units['rf'].label}")]
    assert codes(game, blocked, Charge(unit="pf", target="rb")) == []
    clear = activated(dts_game([FOOT, HORSE, ENEMY], width=width, depth=depth), "pf", "advance",
                      {"open": 7, "difficult": 3})
    assert codes(game, clear, Charge(unit="pf", target="rf")) == []


def test_a_unit_with_a_plural_name_in_the_way_stand_between() -> None:
    """The refusal's verb agrees with the name of the unit in the way."""
    game = dts_game([FOOT, HORSE, ENEMY, unit("rb", R, "foot", 20, 10, 180, name="Okey's Dragoons")])
    blocked = activated(game, "pf", "advance", {"open": 7, "difficult": 3})
    assert [v.message for v in game.validate(blocked, Charge(unit="pf", target="rf"))] == [
        f"Okey's Dragoons stand between {blocked.units['pf'].label} and {blocked.units['rf'].label}"]


def test_a_failed_close_stops_the_attacker_an_inch_short() -> None:
    """Melee a: "Failure to close leaves attacking unit 1 in from target unit"."""
    game = dts_game([FOOT, ENEMY], turns=1)
    state = deck_of(activated(game, "pf", "advance", {"open": 7, "difficult": 3}), *LAST)
    # morale: 1 (a 1 point, good morale); close 1D6 = 2, good needs 3+.
    state, events = game.apply(state, Charge(unit="pf", target="rf"), ScriptedDice([1, 2]))
    assert state.units["pf"].y == 12.0 and unit_data(state.units["pf"]).morale == 1
    assert GameDataChanged(key="moved", value=True) in events


@pytest.mark.parametrize("closes", [True, False])
def test_a_charger_that_would_stand_over_its_target_turning_faces_it_from_just_clear(closes: bool) -> None:
    """Melee a: the attacker turns to move "directly at target unit". Beside the target and
    turned where it stands, it would stand over it: it faces it from just clear, a little
    behind where it stood, whether it closes (in contact) or fails to (touching, no nearer
    than it was), never on it."""
    game = dts_game([FOOT, unit("rf", R, "foot", 21.5, 7.2, 180)], turns=1)
    state = deck_of(activated(game, "pf", "advance", {"open": 7, "difficult": 3}), *LAST)
    path = charge_path(game.table, state, state.units["pf"], state.units["rf"])
    assert path.blocked_by is None and path.distance < 0  # it stands back to face the target
    # morale 1 (good); close 1D6: a 4 closes, a 2 does not; then the melee's dice, all sixes
    _, events = game.apply(state, Charge(unit="pf", target="rf"),
                           ScriptedDice([1, 4 if closes else 2, *[6] * 12]))
    moved = next(e for e in events if isinstance(e, UnitMoved) and e.reason == "charge")
    at = state.units["pf"].evolve(x=moved.path[-1][0], y=moved.path[-1][1], facing=moved.facing).base
    assert moved.facing == pytest.approx(path.heading)
    assert not polygons_overlap(at.corners(), state.units["rf"].base.corners())
    assert base_distance(at, state.units["rf"].base) == pytest.approx(0.0, abs=1e-6)


def test_a_charging_unit_takes_its_attached_general_with_it() -> None:
    """Movement: "Attached generals move with unit": the regiment charges 6" (failing to
    close, an inch short of its target) and the general behind it goes the same 6"."""
    general = {"id": "pc", "side": P, "command": "centre", "x": 20, "y": 4.75, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[general], turns=1,
                    table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    state = deck_of(activated(game, "pf", "advance", {"open": 7, "difficult": 3}), *LAST)
    state = state.with_unit(state.units["pf"].evolve(morale=1, morale_max=1))
    after, _ = game.apply(state, Charge(unit="pf", target="rf"), ScriptedDice([2]))
    assert after.units["pf"].y == 12.0
    assert (after.units["pc"].x, after.units["pc"].y) == (20, 10.75)
    assert unit_data(after.units["pc"]).attached_to == "pf"


def test_a_target_broken_in_melee_routs_and_the_winner_pursues() -> None:
    """Melee Chart notes: ROUT breaks the target; "The victorious attacking unit will pursue
    the routing unit 1D6"."""
    game = dts_game([FOOT, ENEMY], turns=1)
    state = deck_of(activated(game, "pf", "advance", {"open": 7, "difficult": 3}), *LAST)
    state = state.with_unit(state.units["pf"].evolve(morale=3, morale_max=3))
    state = state.with_unit(state.units["rf"].evolve(morale=1, morale_max=1))
    # close 4 (excellent needs 2+); fight 5, 6 = 11: ROUT for good morale, a point for the
    # modified ROUT; the three stands flee 6, 6, 6; the pursuer's 1D6 is 1.
    state, events = game.apply(state, Charge(unit="pf", target="rf"), ScriptedDice([4, 5, 6, 6, 6, 6, 1]))
    assert UnitBroken(unit="rf") in events and PursuitChanged(unit="pf", target="rf") in events
    assert unit_data(state.units["rf"]).routing and unit_data(state.units["pf"]).pursuing == "rf"


def test_a_routing_unit_may_only_rally_or_rout_on_and_defer_routs_it_on() -> None:
    game = dts_game([FOOT, ENEMY], turns=1)
    state = activated(game, "rf")
    state = state.with_unit(state.units["rf"].evolve(routing=True, morale=0, morale_max=2))
    state = deck_of(state, *LAST)
    state = state.evolve(decisions=(state.pending.__class__(R, "declare", {"unit": "rf",
                                                                           "options": ["rally", "defer"]}),))
    assert codes(game, state, Declare(unit="rf", option="advance")) == ["declare-thee-sir.OPTION_NOT_OPEN"]
    assert options_for(state.units["rf"]) == ("rally", "defer")
    after, _ = game.apply(state, Declare(unit="rf", option="defer"), ScriptedDice([3, 3, 3]))
    assert after.units["rf"].y == 17.0  # towards its own (north) edge


def test_a_pursuer_pursues_on_its_card_until_it_beats_its_morale() -> None:
    game = dts_game([FOOT, ENEMY], turns=1)
    state = activated(game, "pf")
    state = state.with_unit(state.units["pf"].evolve(pursuing="rf", morale=3, morale_max=3))
    state = state.with_unit(state.units["rf"].evolve(routing=True, morale=0, morale_max=1))
    state = deck_of(state, *LAST)
    state = state.evolve(decisions=(state.pending.__class__(P, "declare", {"unit": "pf",
                                                                           "options": ["rally", "defer"]}),))
    on, _ = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([3, 2]))
    moved = math.hypot(on.units["pf"].x - 20, on.units["pf"].y - 6)
    assert moved == pytest.approx(2.0) and unit_data(on.units["pf"]).pursuing == "rf"
    off, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([4]))
    assert PursuitChanged(unit="pf", target=None) in events and off.units["pf"].y == 6.0
    # "The pursuing unit then stops, may change facing": a turn on the spot, and no step.
    assert codes(game, off, Move(unit="pf", waypoints=(), face_before=90.0)) == []
    assert codes(game, off, Move(unit="pf", waypoints=((20, 7),))) == ["declare-thee-sir.TOO_FAR"]


def test_a_general_attaches_by_touching_a_unit_and_then_moves_with_it() -> None:
    """Movement: "Independent generals move 9 inches. Attached generals move with unit or
    are left stationary"."""
    general = {"id": "pc", "side": P, "command": "centre", "x": 28, "y": 3, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[general], turns=1)
    state = deck_of(activated(game, "pc", "advance", {"open": 9, "difficult": 3}), *LAST)
    # to just behind the foot's line: the foot is 4.5" wide, 1" deep at (20, 6)
    state, events = game.apply(state, Move(unit="pc", waypoints=((20, 4.75),)), ScriptedDice([]))
    assert GeneralAttached(general="pc", unit="pf") in events
    assert unit_data(state.units["pc"]).attached_to == "pf"
    foot = activated(game, "pf", "advance", {"open": 4, "difficult": 2}).with_unit(state.units["pc"])
    foot = deck_of(foot, *LAST)
    moved, _ = game.apply(foot, Move(unit="pf", waypoints=((20, 9),)), ScriptedDice([]))
    assert (moved.units["pc"].x, moved.units["pc"].y) == (20, 7.75)


@pytest.mark.parametrize(("to", "joined"), [((20, 4.75), "pf"), ((19.97, 4.73), "pf2")])
def test_a_general_touching_two_units_attaches_to_the_nearer(to: tuple[float, float], joined: str) -> None:
    """Movement: a general is "attached" to the unit he ends his move touching; touching two
    (within a twentieth of an inch), he joins the nearer."""
    general = {"id": "pc", "side": P, "command": "centre", "x": 28, "y": 3, "general": True}
    # pf2's right edge is at x 19.22, its top at y 5.25; pf's bottom at y 5.5.
    game = dts_game([FOOT, unit("pf2", P, "foot", 16.97, 4.75), ENEMY], commanders=[general], turns=1)
    state = deck_of(activated(game, "pc", "advance", {"open": 9, "difficult": 3}), *LAST)
    state, events = game.apply(state, Move(unit="pc", waypoints=(to,)), ScriptedDice([]))
    assert GeneralAttached(general="pc", unit=joined) in events
    assert unit_data(state.units["pc"]).attached_to == joined


def test_a_general_leaves_his_unit_by_moving_off_on_his_own() -> None:
    general = {"id": "pc", "side": P, "command": "centre", "x": 20, "y": 4.75, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[general], turns=1,
                    table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    state = deck_of(activated(game, "pc", "advance", {"open": 9, "difficult": 3}), *LAST)
    assert unit_data(state.units["pc"]).attached_to == "pf"
    state, events = game.apply(state, Move(unit="pc", waypoints=((28, 4.75),)), ScriptedDice([]))
    assert GeneralAttached(general="pc", unit=None) in events


def test_a_general_goes_with_his_unit_when_it_is_pushed_back() -> None:
    general = {"id": "rc", "side": R, "command": "centre", "x": 20, "y": 15.25, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[general], turns=1,
                    table={"generals": [{"commander": "rc", "attached_to": "rf"}]})
    state = deck_of(activated(game, "pf", "advance", {"open": 7, "difficult": 3}), *LAST)
    state = state.with_unit(state.units["pf"].evolve(morale=3, morale_max=3))
    state = state.with_unit(state.units["rf"].evolve(morale=2, morale_max=2))
    # close 2 (excellent needs 2+); fight 3 + 4 = 7: a point off, PB1D6 for good morale; push 2
    after, _ = game.apply(state, Charge(unit="pf", target="rf"), ScriptedDice([2, 3, 4, 2]))
    assert after.units["rf"].y == 16.0 and after.units["rc"].y == 17.25


def test_a_general_turns_with_his_unit_and_stays_behind_it() -> None:
    """Attached generals "move with unit": he keeps his place about it, so a general
    behind his regiment is still behind it when it turns (here to face east)."""
    general = {"id": "pc", "side": P, "command": "centre", "x": 20, "y": 4.75, "general": True}
    game = dts_game([FOOT, ENEMY], commanders=[general], turns=1,
                    table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    state = deck_of(activated(game, "pf", "advance", {"open": 4, "difficult": 2}), *LAST)
    turned, _ = game.apply(state, Move(unit="pf", waypoints=(), face_before=90.0), ScriptedDice([]))
    pc = turned.units["pc"]
    assert (pc.x, pc.y, pc.facing) == (pytest.approx(18.75), pytest.approx(6.0), 90.0)


def test_a_unit_may_not_carry_its_general_off_the_table() -> None:
    """Attached generals "move with unit": foot facing east an inch from the east edge, its
    general touching its rear; turning about would swing him over the edge, so the turn is
    refused, naming him; unattached, he stays where he is and the turn is free."""
    foot = unit("pf", P, "foot", 46.5, 10, 90)
    behind = {"id": "pc", "side": P, "command": "centre", "x": 45.25, "y": 10, "general": True}
    about = Move(unit="pf", waypoints=(), face_before=270.0)
    attached = dts_game([foot, ENEMY], commanders=[behind],
                        table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    state = activated(attached, "pf", "advance", {"open": 4, "difficult": 2})
    assert codes(attached, state, about) == ["movement.OFF_TABLE"]
    assert "would be carried off the table" in attached.validate(state, about)[0].message
    alone = dts_game([foot, ENEMY], commanders=[behind])
    assert codes(alone, activated(alone, "pf", "advance", {"open": 4, "difficult": 2}), about) == []


def test_a_charge_goes_past_the_chargers_own_general_but_not_another() -> None:
    """Melee a: "move directly at target unit". Turning towards a target half right, the
    line swings across the general touching its rear: its own attached general goes with
    it and is not in its way; the same general unattached is."""
    behind = {"id": "pc", "side": P, "command": "centre", "x": 20, "y": 4.75, "general": True}
    target = unit("rf", R, "foot", 24, 10, 180)
    charge = Charge(unit="pf", target="rf")
    attached = dts_game([FOOT, target], commanders=[behind],
                        table={"generals": [{"commander": "pc", "attached_to": "pf"}]})
    assert codes(attached, activated(attached, "pf", "advance", {"open": 9, "difficult": 3}), charge) == []
    alone = dts_game([FOOT, target], commanders=[behind])
    assert codes(alone, activated(alone, "pf", "advance", {"open": 9, "difficult": 3}), charge) == [
        "movement.COLLISION"]


def test_cavalry_with_firelocks_may_caracole_under_its_option() -> None:
    """Optional Rules b: "Cavalry with firelocks may use this rolling fire formation. To
    form, declare formation change." Off unless the option is on."""
    firelocks = {"regiments": [{"unit": "ph", "firelocks": True}]}
    off = dts_game([FOOT, HORSE, ENEMY], table=firelocks)
    caracole = ChangeFormation(unit="ph", formation="caracole")
    assert codes(off, activated(off, "ph", "formation_change"), caracole) == [
        "declare-thee-sir.FORMATION_NOT_ALLOWED"]
    on = dts_game([FOOT, HORSE, ENEMY], table=firelocks, caracole=True)
    assert codes(on, activated(on, "ph", "formation_change"), caracole) == []
    plain = dts_game([FOOT, HORSE, ENEMY], caracole=True)
    assert codes(plain, activated(plain, "ph", "formation_change"), caracole) == [
        "declare-thee-sir.FORMATION_NOT_ALLOWED"]


def test_a_caracole_meleed_first_evades_1d6() -> None:
    """Optional Rules b: "If meleed, the carole formation will first evade 1D6 inches away":
    out of the attacker's reach, the attacker goes its whole move and no melee follows."""
    horse = unit("rh", R, "horse", 20, 14, 180)
    game = dts_game([FOOT, horse], turns=1, caracole=True,
                    table={"regiments": [{"unit": "rh", "firelocks": True, "formation": "caracole"}]})
    state = deck_of(activated(game, "pf", "advance", {"open": 7, "difficult": 3}), *LAST)
    caracole = state.units["rh"]
    assert (caracole.width, caracole.depth) == (3.0, 3.0)
    after, events = game.apply(state, Charge(unit="pf", target="rh"), ScriptedDice([3]))
    assert after.units["rh"].y == 17.0 and after.units["pf"].y == 13.0  # 7" straight at it
    assert not any(isinstance(e, DiceRolled) and "close" in e.purpose for e in events)


def _through(mover: str, morale: int, waypoint: tuple[float, float], option: str = "advance"
             ) -> tuple[object, list[object]]:
    """``mover`` (the foot at (20, 6), or the general beside it) moves to ``waypoint`` under
    ``option``; the friend at (20, 8.5) is good (2 points), the foot ``morale`` points."""
    general = {"id": "pc", "side": P, "command": "centre", "x": 24, "y": 6, "general": True}
    game = dts_game([FOOT, unit("pf2", P, "foot", 20, 8.5), ENEMY], commanders=[general], turns=1)
    state = deck_of(activated(game, mover, option, {"open": 9, "difficult": 3}), *LAST)
    state = state.with_unit(state.units["pf"].evolve(morale=morale, morale_max=max(morale, 1)))
    state = state.with_unit(state.units["pf2"].evolve(morale=2, morale_max=2))
    # the friend's check 1, 2 (3: HOLD); the mover's 3, 4 (a 7: a point), or at poor 2, 2,
    # then its stands' flight 6, 6, 6 back through the friend, who checks again, and it: 1, 2
    dice = ScriptedDice([1, 2, *((2, 2, 6, 6, 6, 1, 2, 1, 2) if morale == 0 else (3, 4))])
    after, events = game.apply(state, Move(unit=mover, waypoints=(waypoint,)), dice)
    return after, [e.purpose for e in events if isinstance(e, DiceRolled)]


def test_a_unit_moving_through_a_friend_checks_the_friend_and_then_itself() -> None:
    """Movement: "Units that move or rout through another unit cause a moral check (one
    musketry roll) on each unit involved": the friend passed through, then the mover. A
    move that passes nobody checks nobody; a general moving through checks the friend only
    ("General stands don't check for morale points")."""
    after, rolled = _through("pf", 2, (20, 11))
    assert rolled == ["morale check: pf2 (first die)", "morale check: pf2 (second die)",
                      "morale check: pf (first die)", "morale check: pf (second die)"]
    assert (unit_data(after.units["pf2"]).morale, unit_data(after.units["pf"]).morale) == (2, 1)
    _, short = _through("pf", 2, (20, 7))
    assert short == []
    _, general = _through("pc", 2, (20, 11))
    assert general == ["morale check: pf2 (first die)", "morale check: pf2 (second die)"]


@pytest.mark.parametrize("option", ["advance", "advance_and_fire"])
def test_a_mover_broken_by_its_check_routs_to_its_own_edge_and_its_activation_ends(option: str) -> None:
    """Morale: "A unit with poor morale that loses another point to ... a morale check
    routs": at poor, doubles break the mover, whose stands flee 6" each towards its own
    (south) edge, back through the friend; broken, it fires no volley."""
    after, rolled = _through("pf", 0, (20, 11), option)
    assert rolled[4:7] == ["rout: pf stand 1", "rout: pf stand 2", "rout: pf stand 3"]
    assert unit_data(after.units["pf"]).routing and after.units["pf"].y == pytest.approx(5.0)
    assert game_data(after).activated != "pf"


@pytest.mark.parametrize(("points", "y"), [(0, 6.5), (1, 8.5)])
def test_a_friend_a_move_breaks_routs_towards_its_own_edge(points: int, y: float) -> None:
    """Morale: a unit at poor that "loses another point to ... a morale check routs", and
    flees "towards friendly table edge": a friend is no foe to flee from. The foot retire
    south through a friend at poor, whose doubles break it: its stands flee 2" each, south;
    with a point to lose, the doubles cost it and it stands."""
    game = dts_game([unit("pf", P, "foot", 20, 14), unit("pf2", P, "foot", 20, 8.5),
                     unit("rf", R, "foot", 40, 30, 180)], turns=1)
    state = deck_of(activated(game, "pf", "rally:retire", {"open": 12, "difficult": 4}), *LAST)
    state = state.with_unit(state.units["pf"].evolve(morale=2, morale_max=2))
    state = state.with_unit(state.units["pf2"].evolve(morale=points, morale_max=max(points, 1)))
    dice = ScriptedDice([2, 2, *((2, 2, 2) if points == 0 else ()), 3, 4])
    after, _ = game.apply(state, Move(unit="pf", waypoints=((20, 3),)), dice)
    assert unit_data(after.units["pf2"]).routing is (points == 0)
    assert after.units["pf2"].y == y and dice.remaining == 0


def test_rally_rests_a_unit_in_good_order_breaks_off_a_pursuit_and_rallies_a_rout() -> None:
    """Game Play 5, "Rally" (Rally b-d): a unit in good order that rests rolls 2D6 and
    regains a point on doubles, and its activation is over (the next card is drawn, its
    declaration the only one awaited); a pursuer that rallies breaks off on doubles and has
    their sum to move; a routing unit that rallies on doubles gathers and has their sum."""
    game = dts_game([FOOT, HORSE, ENEMY])
    resting = deck_of(activated(game, "pf"), "unit:rf")
    resting = resting.with_unit(resting.units["pf"].evolve(morale=1, morale_max=2))
    rested, _ = game.apply(resting, Declare(unit="pf", option="rally", how="rest"), ScriptedDice([3, 3]))
    assert unit_data(rested.units["pf"]).morale == 2
    assert game_data(rested).activated == "rf"
    assert [(d.side, d.kind, d.context["unit"]) for d in rested.decisions] == [(R, "declare", "rf")]
    pursuing = deck_of(activated(game, "pf"), "unit:rf")
    pursuing = pursuing.with_unit(pursuing.units["pf"].evolve(pursuing="rf", morale=3, morale_max=3))
    pursuing = pursuing.with_unit(pursuing.units["rf"].evolve(routing=True, morale=0, morale_max=1))
    broke_off, _ = game.apply(pursuing, Declare(unit="pf", option="rally"), ScriptedDice([2, 2]))
    assert unit_data(broke_off.units["pf"]).pursuing is None
    assert game_data(broke_off).activated == "pf"
    assert game_data(broke_off).allowance == {"open": 4, "difficult": 2}
    routing = deck_of(activated(game, "rf"), "unit:pf")
    routing = routing.with_unit(routing.units["rf"].evolve(routing=True, morale=1, morale_max=2))
    rallied, _ = game.apply(routing, Declare(unit="rf", option="rally"), ScriptedDice([5, 5]))
    assert not unit_data(rallied.units["rf"]).routing
    assert game_data(rallied).activated == "rf"
    assert game_data(rallied).allowance == {"open": 10, "difficult": 4}


def test_defer_leaves_the_unit_inactive_and_draws_the_next_card() -> None:
    """Game Play 6, "Defer (remain inactive)": nothing rolled, nothing moved; the activation
    is over, the next card drawn and its declaration the only one awaited."""
    game = dts_game([FOOT, HORSE, ENEMY])
    state = deck_of(activated(game, "pf"), "unit:rf")
    after, events = game.apply(state, Declare(unit="pf", option="defer"), ScriptedDice([]))
    assert not [e for e in events if isinstance(e, DiceRolled)]
    assert after.units["pf"] == state.units["pf"]
    assert game_data(after).activated == "rf"
    assert [(d.side, d.kind, d.context["unit"]) for d in after.decisions] == [(R, "declare", "rf")]


def test_a_friend_broken_by_its_check_when_a_gun_pushes_a_unit_through_it_routs() -> None:
    """Fire b: a unit the gun's volley pushes back "1D6 in good order" through a friend
    puts that friend to a morale check; "A unit with poor morale that loses another point
    to ... a morale check routs": the friend at poor, losing a point on doubles, routs."""
    gun = unit("pg", P, "artillery", 20, 6)
    game = dts_game([FOOT, gun, unit("rt", R, "foot", 20, 20, 180), unit("rb", R, "foot", 20, 22, 180)])
    state = deck_of(activated(game, "pg", "stand_and_fire"), "unit:pf")
    state = state.evolve(own=game_data(state).evolve(volleys=2))
    state = state.with_unit(state.units["rt"].evolve(morale=2, morale_max=2))
    state = state.with_unit(state.units["rb"].evolve(morale=0, morale_max=2))
    # range 18 + 1; 4 + 5 = 9 against good: PB2D6, pushed 4" north through rb; rb's check
    # doubles (a point it cannot lose: it routs); rt's check 2 + 3, nothing; then rb's flight
    # (it routs on through rt: their checks without doubles or a 7).
    dice = ScriptedDice([1, 4, 5, 4, 1, 1, 2, 3, *[2, 3] * 6])
    after, _ = game.apply(state, Fire(unit="pg", target="rt"), dice)
    assert after.units["rt"].y == pytest.approx(24.0)
    assert unit_data(after.units["rb"]).routing and not unit_data(after.units["rt"]).routing


@pytest.mark.parametrize("option", ["defer", "rally"])
def test_a_routing_unit_routs_on_and_its_activation_is_over(option: str) -> None:
    """Melee Chart notes: "The routing unit will continue to rout each time it is activated
    unless it is rallied": deferring, or failing to rally (no doubles in its two rolls, good
    morale), it routs on towards its own edge, and the next card is drawn."""
    game = dts_game([FOOT, HORSE, ENEMY])
    state = deck_of(activated(game, "rf"), "unit:pf")
    state = state.with_unit(state.units["rf"].evolve(routing=True, morale=1, morale_max=2))
    state = state.evolve(decisions=(state.pending.__class__(R, "declare", {"unit": "rf",
                                                                           "options": ["rally", "defer"]}),))
    dice = [3, 3, 3] if option == "defer" else [1, 2, 2, 1, 3, 3]
    after, _ = game.apply(state, Declare(unit="rf", option=option), ScriptedDice(dice))
    assert after.units["rf"].y == 17.0 and unit_data(after.units["rf"]).routing
    assert game_data(after).activated == "pf" and after.to_act == P
    assert [(d.side, d.context["unit"]) for d in after.decisions] == [(P, "pf")]


# --- option 1: a formation change declared only when one can be carried out -----------------

BEHIND = {  # what stands where long march would put the horse's rear stands
    "friend": ([HORSE, unit("pb", P, "foot", 30, 3)], "movement.COLLISION", "would overlap pb"),
    "table edge": ([HORSE | {"y": 2}], "movement.OFF_TABLE", "would leave the table"),
}


def _card_drawn(game: Game, uid: str) -> GameState:
    """The position once ``uid``'s card is drawn, as the deck draws it: FOOT defers, the
    next card is ``uid``'s."""
    before = deck_of(activated(game, "pf"), f"unit:{uid}")
    after, _ = game.apply(before, Declare(unit="pf", option="defer"), ScriptedDice([]))
    assert game_data(after).activated == uid
    return after


@pytest.mark.parametrize("behind", sorted(BEHIND))
def test_a_formation_change_is_declared_only_when_one_can_be_carried_out(behind: str) -> None:
    """Game Play: "Once an option is declared, the commander proceeds to determine its
    execution". Horse in line may change only to long march (no hedgehog, no caracole
    without its option), whose stands go front to rear behind its front edge: with no room
    there, option 1 is not open and declaring it is refused, saying why, as the change
    itself would be; with room, it is declared and carried out, and the next card drawn."""
    pieces, code, why = BEHIND[behind]
    boxed = dts_game([FOOT, ENEMY, *pieces])
    drawn = _card_drawn(boxed, "ph")
    assert drawn.pending is not None
    assert drawn.pending["options"] == ["advance", "advance_and_fire", "stand_and_fire", "rally", "defer"]
    refused = boxed.validate(drawn, Declare(unit="ph", option="formation_change"))
    assert [v.code for v in refused] == ["declare-thee-sir.OPTION_NOT_OPEN"]
    assert refused[0].message == f"ph has no formation change it can carry out: ph {why}"
    long_march = ChangeFormation(unit="ph", formation="long_march")
    assert codes(boxed, activated(boxed, "ph", "formation_change"), long_march) == [code]
    free = dts_game([FOOT, ENEMY, HORSE])
    drawn = _card_drawn(free, "ph")
    assert drawn.pending is not None and "formation_change" in drawn.pending["options"]
    declared, _ = free.apply(drawn, Declare(unit="ph", option="formation_change"), ScriptedDice([]))
    formed, _ = free.apply(deck_of(declared, "unit:rf"), long_march, ScriptedDice([]))
    assert unit_data(formed.units["ph"]).formation == "long_march" and game_data(formed).activated == "rf"


def test_dragoons_with_no_room_to_reform_may_still_declare_a_formation_change_to_mount() -> None:
    """Dragoons mount or dismount as a formation change (row 59), where they stand and on
    the same stands: with no room for long march behind them, option 1 is still open and
    carried out by mounting."""
    dragoons = unit("pd", P, "dragoons", 30, 1)
    game = dts_game([FOOT, ENEMY, dragoons], table={"regiments": [{"unit": "pd", "mounted": False}]})
    drawn = _card_drawn(game, "pd")
    assert drawn.pending is not None and "formation_change" in drawn.pending["options"]
    declared, _ = game.apply(drawn, Declare(unit="pd", option="formation_change"), ScriptedDice([]))
    assert codes(game, declared, ChangeFormation(unit="pd", formation="long_march")) == ["movement.OFF_TABLE"]
    mounted, _ = game.apply(deck_of(declared, "unit:rf"), ChangeFormation(unit="pd", formation="mount"),
                            ScriptedDice([]))
    assert unit_data(mounted.units["pd"]).mounted


def test_every_formation_change_declared_in_a_battle_has_a_change_to_carry_out() -> None:
    """Roundway Down played by the random player, which declares every option it is
    offered: whenever a formation change is declared, some change is legal (the seed once
    had horse declare it with its general standing where long march would put its rear)."""
    game = Game(get_ruleset("declare-thee-sir"), load_builtin("roundway_down"))
    declared: list[int] = []
    stuck: list[str] = []

    def watch(step: Step) -> None:
        g = game_data(step.state)
        if g.declared != "formation_change" or step.state.pending is not None or g.activated is None:
            return
        declared.append(step.state.step)
        change = (ChangeFormation(unit=g.activated, formation=f) for f in reform.CHOICES)
        if not any(game.is_legal(step.state, c) for c in change):
            stuck.append(f"{g.activated} at step {step.state.step}")

    fight_battle(game, {side: make_player("random") for side in game.scenario.side_ids}, 0, on_step=watch)
    assert declared and stuck == []


# --- option 1: a unit's attached generals go with it through a formation change ------------

BEHIND_HORSE = {"id": "pc", "side": P, "command": "centre", "x": 30, "y": 4.5, "general": True}
"""A general touching the rear of HORSE (4.5" by 1.5" in line at (30, 6)), in the middle."""


def test_a_units_attached_general_goes_with_it_through_a_formation_change() -> None:
    """Movement: "Attached generals move with unit": the horse's own general behind it is
    not in the way of its long march; the column forms 4.5" deep behind the front edge, and
    he keeps his place behind its new rear edge, still attached."""
    game = dts_game([FOOT, ENEMY, HORSE], commanders=[BEHIND_HORSE],
                    table={"generals": [{"commander": "pc", "attached_to": "ph"}]})
    drawn = _card_drawn(game, "ph")
    assert drawn.pending is not None and "formation_change" in drawn.pending["options"]
    declared, _ = game.apply(drawn, Declare(unit="ph", option="formation_change"), ScriptedDice([]))
    long_march = ChangeFormation(unit="ph", formation="long_march")
    formed, events = game.apply(deck_of(declared, "unit:rf"), long_march, ScriptedDice([]))
    ph, pc = formed.units["ph"], formed.units["pc"]
    assert (ph.y, ph.depth, ph.y + ph.depth / 2) == (4.5, 4.5, 6.75)  # the front edge where it was
    assert (pc.x, pc.y) == (30, pytest.approx(1.5)) and unit_data(pc).attached_to == "ph"
    assert base_distance(pc.base, ph.base) == pytest.approx(0.0, abs=1e-9)
    assert any(isinstance(e, UnitMoved) and e.unit == "pc" and e.reason == "with its unit" for e in events)


@pytest.mark.parametrize("general", ["independent", "attached, with no room behind the column"])
def test_a_general_the_formation_change_cannot_take_along_is_in_its_way(general: str) -> None:
    """An independent general is a piece like any other: standing where the horse's long
    march would put its rear stands, he blocks it, and option 1 is not open. So does its own
    general when he can neither go with it (foot stands where he would go, behind the new
    rear edge) nor stay where he stands (the column would stand on him)."""
    attached = general.startswith("attached")
    pieces = [FOOT, ENEMY, HORSE, *([unit("pb", P, "foot", 30, 1.5)] if attached else [])]
    game = dts_game(pieces, commanders=[BEHIND_HORSE],
                    table={"generals": [{"commander": "pc", "attached_to": "ph" if attached else None}]})
    drawn = _card_drawn(game, "ph")
    assert drawn.pending is not None and "formation_change" not in drawn.pending["options"]
    refused = game.validate(drawn, Declare(unit="ph", option="formation_change"))
    assert refused[0].message == "ph has no formation change it can carry out: ph would overlap pc"
    long_march = ChangeFormation(unit="ph", formation="long_march")
    assert codes(game, activated(game, "ph", "formation_change"), long_march) == ["movement.COLLISION"]


def test_a_general_with_no_room_about_the_new_formation_is_left_where_he_stood() -> None:
    """Attached generals "move with unit or are left stationary": the general on the
    horse's right flank would keep his distance from its new, narrower flank, but foot
    stands there; the column does not reach where he stands, so he is left there, on his
    own."""
    horse = HORSE | {"y": 10}
    flank = BEHIND_HORSE | {"x": 33, "y": 10}
    game = dts_game([FOOT, ENEMY, horse, unit("pb", P, "foot", 33.2, 8)], commanders=[flank],
                    table={"generals": [{"commander": "pc", "attached_to": "ph"}]})
    state = deck_of(activated(game, "ph", "formation_change"), "unit:rf")
    formed, events = game.apply(state, ChangeFormation(unit="ph", formation="long_march"), ScriptedDice([]))
    assert unit_data(formed.units["ph"]).formation == "long_march"
    pc = formed.units["pc"]
    assert (pc.x, pc.y) == (33, 10) and unit_data(pc).attached_to is None
    assert GeneralAttached(general="pc", unit=None) in events


@pytest.mark.parametrize(("second_x", "stays", "at"), [(30.0, "pc", 28.5), (31.5, "pd", 31.5)])
def test_two_generals_a_formation_change_brings_together_do_not_stand_on_each_other(
        second_x: float, stays: str, at: float) -> None:
    """Attached generals "move with unit or are left stationary": two generals side by
    side before the horse's front keep their share of the way across as it narrows to long
    march (4.5" to 1.5"), which would put one on the other. With the second in the middle
    (not moved), the first has no room and is left where he stood, on his own; with both
    moving, the first in play order goes and the second is left so. The front has not
    moved, so neither is in the column's way."""
    first = BEHIND_HORSE | {"id": "pc", "x": 28.5, "y": 7.5}
    second = BEHIND_HORSE | {"id": "pd", "x": second_x, "y": 7.5}
    game = dts_game([FOOT, ENEMY, HORSE], commanders=[first, second],
                    table={"generals": [{"commander": "pc", "attached_to": "ph"},
                                        {"commander": "pd", "attached_to": "ph"}]})
    state = deck_of(activated(game, "ph", "formation_change"), "unit:rf")
    assert codes(game, state, ChangeFormation(unit="ph", formation="long_march")) == []
    formed, events = game.apply(state, ChangeFormation(unit="ph", formation="long_march"), ScriptedDice([]))
    pc, pd = formed.units["pc"], formed.units["pd"]
    assert not polygons_overlap(pc.base.corners(), pd.base.corners())
    assert not formed.units["ph"].overlaps(pc.base.corners()) and not formed.units["ph"].overlaps(
        pd.base.corners())
    stayed, went = (pc, pd) if stays == "pc" else (pd, pc)
    assert (stayed.x, stayed.y) == (at, 7.5) and unit_data(stayed).attached_to is None
    assert GeneralAttached(general=stays, unit=None) in events
    assert unit_data(went).attached_to == "ph"
    assert went.x == pytest.approx(29.5 if stays == "pd" else 30.0) and went.y == 7.5


def test_two_generals_behind_a_unit_forming_column_leave_it_no_room() -> None:
    """Two generals behind the horse would both keep their place behind the column's new
    rear edge, one on the other: the second, left where he stood, stands where the column's
    rear stands would go, so he can neither go nor stay and the change has no room."""
    first = BEHIND_HORSE | {"id": "pc", "x": 28.5}
    second = BEHIND_HORSE | {"id": "pd", "x": 30.0}
    game = dts_game([FOOT, ENEMY, HORSE], commanders=[first, second],
                    table={"generals": [{"commander": "pc", "attached_to": "ph"},
                                        {"commander": "pd", "attached_to": "ph"}]})
    long_march = ChangeFormation(unit="ph", formation="long_march")
    refused = game.validate(activated(game, "ph", "formation_change"), long_march)
    assert [(v.code, v.message) for v in refused] == [("movement.COLLISION", "ph would overlap pd")]
