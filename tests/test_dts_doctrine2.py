"""The Declare Thee Sir doctrine, second edition (the ``doctrine-2`` player): second-line
horse find a way round the friends in front instead of deferring, a general goes only
where his worth outweighs his risk, a charge must pay more than the volleys it
replaces, a unit at poor stands rather than fall back, and the forlorn hope and the
caracole are used, with their options on, where they pay. The first edition is still the
doctrine and the baseline."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest

from tertia.ai.lookup import baseline_for, doctrine_for, second_edition_for
from tertia.ai.players import make_player
from tertia.battle import Step, fight_battle
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rulesets import get_ruleset
from tertia.rulesets.declare_thee_sir.ai.doctrine import DtsDoctrine, as_declared, likely_move
from tertia.rulesets.declare_thee_sir.ai.doctrine2 import DtsDoctrine2
from tertia.rulesets.declare_thee_sir.ai.generals import unit_to_join
from tertia.rulesets.declare_thee_sir.ai.judgement import live_foes, volley_worth
from tertia.rulesets.declare_thee_sir.ai.postings import posting, risk, worth
from tertia.rulesets.declare_thee_sir.ai.threats import caracole_pays
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    CARACOLE,
    DEFER,
    FORLORN_HOPE,
    FORMATION_CHANGE,
    RALLY,
)
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Declare
from tertia.rulesets.declare_thee_sir.values import unit_data
from tertia.scenarios import load_builtin

from .dts_support import P, R, activated, dts_game, unit
from .support import commander


def _game(scenario: str, **options: object) -> Game:
    rules = "declare-thee-sir"
    return Game(get_ruleset(rules, **options), load_builtin(scenario, rules_id=rules))


def _with_own(state: GameState, uid: str, **changes: Any) -> GameState:
    piece = state.units[uid]
    return state.with_unit(piece.evolve(own=unit_data(piece).evolve(**changes)))


class _Found(Exception):
    """Stops a battle at the position wanted."""

    def __init__(self, state: GameState, unit: Unit) -> None:
        self.state, self.unit = state, unit


class _Stopped(Exception):
    """Stops a battle after its opening."""


def _first_defer(game: Game, seed: int, uid: str) -> tuple[GameState, Unit]:
    """The position where the first edition first has ``uid``, untested with the enemy on
    the table, defer."""
    before: list[GameState] = []

    def watch(step: Step) -> None:
        action = step.action
        if isinstance(action, Declare) and action.unit == uid and action.option == DEFER and before:
            state = before[-1]
            if unit_data(state.units[uid]).morale is None and live_foes(state, state.units[uid], 1, 0.0):
                raise _Found(state, state.units[uid])
        before.append(step.state)

    try:
        fight_battle(game, {s: make_player("baseline") for s in game.scenario.side_ids}, seed, on_step=watch)
    except _Found as found:
        return found.state, found.unit
    raise AssertionError(f"{uid} never deferred")


# --- the way round friends ------------------------------------------------------------------

def test_second_line_horse_the_first_edition_holds_back_find_a_way_round_the_friends_in_front() -> None:
    """Edgehill: Lord Digby's Horse, in the second line of Wilmot's wing, deferred by the
    first edition behind the first line; the second finds a detour, which the rules
    accept and which brings it nearer the enemy or clears its way on."""
    game = _game("edgehill")
    state, digby = _first_defer(game, 7, "r-digby-horse")
    assert DtsDoctrine()._option(game, state, digby) == (DEFER, None)
    second = DtsDoctrine2()
    assert second._option(game, state, digby) == (ADVANCE, None)
    declared = as_declared(state, ADVANCE, likely_move(unit_data(digby)))
    assert DtsDoctrine()._advance(game, declared, digby, likely_move(unit_data(digby))) is None
    move = second._advance(game, declared, digby, likely_move(unit_data(digby)))
    assert isinstance(move, Move) and game.is_legal(declared, move)


def test_a_unit_walled_in_by_friends_still_waits() -> None:
    """Friends all round it and no room to a flank: no detour, so it defers (resting
    has nothing to regain for an untested unit)."""
    wall = [unit(f"pf{i}", P, "foot", x, y, 0) for i, (x, y) in enumerate(
        ((19.5, 11.02), (24.0, 11.02), (28.5, 11.02), (19.5, 10.0), (28.5, 10.0)))]
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), *wall, unit("rf", R, "foot", 24, 40, 180)], depth=48)
    state = activated(game, "pf")
    assert DtsDoctrine2()._option(game, state, state.units["pf"]) == (DEFER, None)


def test_second_line_horse_defer_less_than_under_the_first_edition() -> None:
    game = _game("edgehill")
    sides = game.scenario.side_ids

    def defers(name: str) -> int:
        record = fight_battle(game, {s: make_player(name) for s in sides}, 5)
        second_line = {"r-digby-horse", "r-byron-horse", "p-ramsay-horse-3", "p-fielding-horse"}
        return sum(1 for st in record.steps if isinstance(st.action, Declare)
                   and st.action.unit in second_line and st.action.option == DEFER)

    assert defers("doctrine-2") < defers("baseline")


# --- the generals ------------------------------------------------------------------------------

def test_a_general_does_not_join_a_regiment_where_his_risk_outweighs_his_worth() -> None:
    """Foot under the fire of three enemy regiments, horse out of reach of any: the first
    edition's general rides to the nearer regiment, untested, whatever the fire; the
    second reckons a sixth of the points the firers are expected to take, times his
    worth, against his point and +2, and goes to the horse."""
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("ph", P, "horse", 44, 4, 0),
                     *(unit(f"rf{i}", R, "foot", x, 19, 180) for i, x in enumerate((19, 24, 29))),
                     unit("rh", R, "horse", 44, 40, 180)],
                    commanders=[commander("pg", P, 24, 6)], depth=48)
    state = activated(game, "pg")
    general = state.units["pg"]
    foot, horse = state.units["pf"], state.units["ph"]
    first_choice = unit_to_join(state, general)
    assert first_choice is not None and first_choice.id == "pf"
    assert risk(state, foot) > risk(state, horse) == 0.0
    assert worth(game, state, foot) < 0.0 < worth(game, state, horse)
    chosen = posting(game, state, general)
    assert chosen is not None and chosen.id == "ph"


def test_a_general_stays_with_his_regiment_while_his_worth_there_holds() -> None:
    game = dts_game([unit("ph", P, "horse", 24, 10, 0), unit("ph2", P, "horse", 34, 10, 0),
                     unit("rh", R, "horse", 24, 30, 180)],
                    commanders=[commander("pg", P, 24, 8.5)], depth=48)
    state = activated(game, "pg")
    state = _with_own(state, "pg", attached_to="ph")
    assert worth(game, state, state.units["ph"], attached=True) >= 0.0
    chosen = posting(game, state, state.units["pg"])
    assert chosen is not None and chosen.id == "ph"
    assert DtsDoctrine2()._option(game, state, state.units["pg"]) == (DEFER, None)


def test_a_general_leaves_a_regiment_under_heavy_fire_for_one_out_of_it() -> None:
    """His horse at 1 point with four enemy regiments of foot in musket reach: his risk
    there outweighs his point and +2, and a fresh regiment of horse out of reach is
    better by more than the point he takes away, so he rides to it."""
    game = dts_game([unit("ph", P, "horse", 24, 10, 0), unit("ph2", P, "horse", 44, 4, 0),
                     *(unit(f"rf{i}", R, "foot", x, 19, 180) for i, x in enumerate((14, 19, 24, 29))),
                     unit("rh", R, "horse", 44, 40, 180)],
                    commanders=[commander("pg", P, 24, 8.5)], depth=48)
    state = _with_own(_with_own(activated(game, "pg"), "pg", attached_to="ph"), "ph", morale=1, morale_max=3)
    assert worth(game, state, state.units["ph"], attached=True) < 0.0
    chosen = posting(game, state, state.units["pg"])
    assert chosen is not None and chosen.id == "ph2"
    assert DtsDoctrine()._option(game, state, state.units["pg"]) == (DEFER, None)  # the first edition stays
    assert DtsDoctrine2()._option(game, state, state.units["pg"]) == (ADVANCE, None)


# --- charges and volleys ------------------------------------------------------------------------------

def test_horse_stand_and_fire_rather_than_make_a_charge_worth_less_than_the_volleys() -> None:
    """Horse 2" from fresh enemy horse: the first edition charges (a charge it reckons at
    a small loss), the second stands and fires, two volleys that reach every time."""
    game = dts_game([unit("ph", P, "horse", 24, 10, 0), unit("rh", R, "horse", 24, 13.5, 180)], depth=48)
    state = activated(game, "ph")
    horse = state.units["ph"]
    assert DtsDoctrine()._option(game, state, horse)[0] == ADVANCE
    assert volley_worth(game, state, horse, state.units["rh"]) > 0.3
    assert DtsDoctrine2()._option(game, state, horse)[0] == "stand_and_fire"


def test_a_poor_unit_with_the_enemy_near_stands_where_the_first_edition_falls_back() -> None:
    """Foot at poor 8" from enemy foot: the first edition retires (Rally a); the second
    stands and fires (at -2, as a firer of poor morale); out of reach it rests."""
    game = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 19, 180)], depth=48)
    state = _with_own(activated(game, "pf"), "pf", morale=0, morale_max=2)
    foot = state.units["pf"]
    assert DtsDoctrine()._option(game, state, foot) == (RALLY, "retire")
    assert DtsDoctrine2()._option(game, state, foot) == ("stand_and_fire", None)
    far = dts_game([unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 22.5, 180)], depth=48)
    state = _with_own(activated(far, "pf"), "pf", morale=0, morale_max=2)
    assert DtsDoctrine()._option(far, state, state.units["pf"]) == (RALLY, "retire")
    assert DtsDoctrine2()._option(far, state, state.units["pf"]) == (RALLY, "rest")


# --- the optional formations ----------------------------------------------------------------------

def test_a_regiment_out_of_reach_sends_out_its_forlorn_hope_when_the_option_is_on() -> None:
    """Foot 20" from the enemy, nothing to fire at: with ``forlorn_hope`` on the second
    edition sends a division out (a card of its own, -1 to hit it, no unit for the army's
    break); off, or with the enemy within a charge's reach, it advances as before. The
    first edition never does."""
    units = [unit("pf", P, "foot", 24, 10, 0), unit("rf", R, "foot", 24, 32, 180)]
    on = dts_game(units, depth=48, forlorn_hope=True)
    state = activated(on, "pf")
    assert DtsDoctrine()._option(on, state, state.units["pf"]) == (ADVANCE, None)
    second = DtsDoctrine2()
    assert second._option(on, state, state.units["pf"]) == (FORMATION_CHANGE, None)
    declared = activated(on, "pf", FORMATION_CHANGE)
    change = second.choose(on, declared, random.Random(1))
    assert change == ChangeFormation(unit="pf", formation=FORLORN_HOPE) and on.is_legal(declared, change)
    off = dts_game(units, depth=48)
    state = activated(off, "pf")
    assert DtsDoctrine2()._option(off, state, state.units["pf"]) == (ADVANCE, None)
    near = dts_game([units[0], unit("rf", R, "foot", 24, 20, 180)], depth=48, forlorn_hope=True)
    state = activated(near, "pf")
    assert DtsDoctrine2()._option(near, state, state.units["pf"])[0] != FORMATION_CHANGE


def test_the_forlorn_hope_is_sent_out_in_a_battle_with_the_option_on() -> None:
    game = _game("edgehill", forlorn_hope=True)
    sides = game.scenario.side_ids

    def hopes(name: str) -> int:
        """Forlorn hopes sent out in the first 400 actions (the opening turns)."""
        seen: list[bool] = []

        def watch(step: Step) -> None:
            action = step.action
            seen.append(isinstance(action, ChangeFormation) and action.formation == FORLORN_HOPE)
            if len(seen) >= 400:
                raise _Stopped

        with contextlib.suppress(_Stopped):
            fight_battle(game, {s: make_player(name) for s in sides}, 1, on_step=watch)
        return sum(seen)

    assert hopes("baseline") == 0 < hopes("doctrine-2")


@pytest.mark.parametrize("general", [True, False])
def test_horse_with_firelocks_caracole_where_the_enemy_charge_would_cost_them_less(general: bool) -> None:
    """Parliament's horse with firelocks, Royalist horse 4" off. With a general the
    charger has +2 whatever: the caracole costs nothing in the melee and may evade it, so
    it pays. Without one, the caracole gives the charger the +2 it lacks, and the evasion
    does not make up for it: it does not pay."""
    game = dts_game([unit("ph", P, "horse", 24, 10, 0), unit("rh", R, "horse", 24, 15.5, 180)],
                    commanders=[commander("rg", R, 24, 18)], depth=48, caracole=True,
                    table={"regiments": [{"unit": "ph", "firelocks": True}]})
    state = activated(game, "ph")
    if general:
        state = _with_own(state, "rg", attached_to="rh")
    horse = state.units["ph"]
    assert caracole_pays(game, state, horse) == general
    option = DtsDoctrine2()._option(game, state, horse)
    assert (option == (FORMATION_CHANGE, None)) == general
    if general:
        declared = activated(game, "ph", FORMATION_CHANGE)
        declared = _with_own(declared, "rg", attached_to="rh")
        second = DtsDoctrine2()
        second._option(game, state, horse)
        change = second.choose(game, declared, random.Random(1))
        assert change == ChangeFormation(unit="ph", formation=CARACOLE) and game.is_legal(declared, change)


# --- the editions --------------------------------------------------------------------------------

def test_the_second_edition_is_the_doctrine_and_the_first_the_baseline() -> None:
    ruleset = get_ruleset("declare-thee-sir")
    assert doctrine_for(ruleset) is DtsDoctrine2
    assert second_edition_for(ruleset) is DtsDoctrine2  # doctrine-2 plays the doctrine
    assert baseline_for(ruleset) is DtsDoctrine
