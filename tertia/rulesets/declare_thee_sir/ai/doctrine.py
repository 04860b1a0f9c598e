"""The doctrine player for Declare Thee Sir, first edition (the ``baseline`` player; the
second, :mod:`~tertia.rulesets.declare_thee_sir.ai.doctrine2`, is the doctrine): the
battle as the period fought it, on one card at a time.

What it declares (Game Play's six options), by range and morale:

- A routing unit always tries to rally. A pursuer tries to break off by rallying when its
  pursuit nears a table edge or its quarry is gone, and pursues on otherwise (pursuit is
  compulsory; a failed rally still leaves the usual roll to stop).
- A general rides to join a regiment (:mod:`~tertia.rulesets.declare_thee_sir.ai.generals`) and then stays
  with it.
- A unit at poor morale with no enemy in good order threatening it rests to regain a
  point. A column forms line when the enemy is near, a hedgehog when no enemy horse is;
  dragoons dismount to fire when the enemy is near and mount to ride when he is far. It
  declares the formation change only when that change can be carried out where the unit
  stands (the rules' own test of it, :func:`~tertia.rulesets.declare_thee_sir.reform.problems`),
  and then makes that change; with no room for it, the unit does what it would otherwise.
- Guns stand and fire when a target is in reach (base range and a D6 even odds to reach
  it), advance and fire when one is just beyond, turn (advancing, on the spot) to bear on
  an enemy within reach but out of their arc, and otherwise wait.
- Any other unit advances to charge when a charge it could likely make is worth it
  (:func:`~tertia.rulesets.declare_thee_sir.ai.judgement.charge_worth`, the attached general's +2 among its
  modifiers): foot only against a shaken foe, horse against any foe not yet known to be
  excellent. Foot stand and fire when a target is in reach and advance and fire when it
  is just beyond. Otherwise a unit advances when the way to an enemy is open, and waits
  (resting, if it has points to regain) when friends block every way.
- It declares only what the rules open to the unit: one whose powder is damp (an event
  card, option ``event_cards``) does what it would with no shot to fire.

Carrying it out: volleys at the target likeliest to be reached (none at a unit already
poor, which fire cannot hurt); the charge worth most among those the rolled move reaches
(the charge is made after the move is rolled); else a move towards the objective, round
friends in the way (:func:`~tertia.ai.moves.advance_towards`); a rallied unit, or a
pursuer that stopped, or a gun advanced, turns to face the nearest enemy. Every action is judged by the
rules (``Game.is_legal``) before it is chosen; cheap distance cuts come first.

It reads only what its side may see (``Game.observe``); nothing in this rule set is hidden
from either side, so that is the whole position.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import cache

from tertia.ai.moves import advance_towards, bearing_to, makes_headway, pivot_to
from tertia.core.actions import Action, EndPhase, Move
from tertia.core.game import Game
from tertia.core.geometry import angle_between, base_distance, bearing, heading_vector
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir import reform
from tertia.rulesets.declare_thee_sir.ai.generals import join, stays, unit_to_join
from tertia.rulesets.declare_thee_sir.ai.judgement import (
    charge_worth,
    foes,
    gap,
    live_foes,
    move_chance,
    near_edge,
    nearest_shot,
    shot_chance,
    threatened,
)
from tertia.rulesets.declare_thee_sir.data import (
    ADVANCE,
    ADVANCE_AND_FIRE,
    DEFER,
    FORMATION_CHANGE,
    HEDGEHOG,
    LINE,
    LONG_MARCH,
    RALLY,
    STAND_AND_FIRE,
    DtsUnit,
)
from tertia.rulesets.declare_thee_sir.events import ChangeFormation, Charge, Declare, Fire
from tertia.rulesets.declare_thee_sir.movement import GENERAL_MOVE, modifiers, move_dice, work_out
from tertia.rulesets.declare_thee_sir.reach import base_range
from tertia.rulesets.declare_thee_sir.rout import home_heading
from tertia.rulesets.declare_thee_sir.ruleset import DISMOUNT, MOUNT, REST, RETIRE
from tertia.rulesets.declare_thee_sir.troops import DRAGOONS
from tertia.rulesets.declare_thee_sir.values import game_data, unit_data

FOOT_DASH = 0.5
"""Foot go in with push of pike only for a charge worth this much (a shaken foe, or a
general's +2 against a steady one)."""
HORSE_DASH = -0.2
"""Horse charge what is worth at least this: about an even fight, so a fresh foe, not one
known to be excellent."""
CHARGE_LIKELY = 0.5
"""A charge is declared when the rolled move is at least this likely to reach."""
SHOOT = 0.5
"""A volley at least this likely to reach is worth declaring fire for."""
GUN_SHOOT = 1 / 3
"""Guns, which can do nothing else, fire at longer odds."""
GUN_TURN = 40.0
"""A gun with no target but an enemy within its reach this far off its facing turns to
bear on him."""
NEAR = 18.0
"""An enemy this close makes a column form line; enemy horse this close keep a hedgehog
formed."""
DISMOUNT_NEAR = 12.0
"""Mounted dragoons this close to the enemy get down to fire."""
MOUNT_BEYOND = 18.0
"""Dragoons on foot with the enemy further off than this mount to ride."""
LEAST_GAIN = 0.5
"""A move that brings a unit less than this much nearer its objective is not worth it."""
LOOK_AHEAD = 3 * LEAST_GAIN
"""How far a unit's way is looked along before it declares a move: far enough to find
:data:`LEAST_GAIN` on any heading tried, no further (a shorter look is a cheaper one)."""
OBJECTIVES = 3
"""How many of the nearest enemies a unit weighs as its objective."""
BACK_REACH = 24.0
"""How far off a retiring unit's goal lies."""
TYPICAL_MOVE = {0: 9.0, 1: 3.0, 2: 7.0}
"""A middling move, by the number of D6 rolled (0: a general's fixed 9")."""


def _open(state: GameState, option: str) -> bool:
    """Is ``option`` among those the rules open to the activated unit's commander (Game
    Play; a unit whose powder is damp, an event card, may not fire)?"""
    return state.pending is None or option in state.pending.get("options", ())


class DtsDoctrine:
    name = "doctrine"

    def __init__(self) -> None:
        self._shot: tuple[object, str, tuple[Unit, float] | None] | None = None

    def _nearest_shot(self, game: Game, state: GameState, unit: Unit) -> tuple[Unit, float] | None:
        """:func:`~tertia.rulesets.declare_thee_sir.ai.judgement.nearest_shot` at the unit's longest range,
        remembered while no piece changes (from the declaration to the first volley)."""
        memo = self._shot
        if memo is not None and memo[0] is state.units and memo[1] == unit.id:
            return memo[2]
        found = nearest_shot(game, state, unit, longest_shot(unit_data(unit)))
        self._shot = (state.units, unit.id, found)
        return found

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        g = game_data(state)
        unit = state.units.get(g.activated or "")
        if unit is None:
            return EndPhase()
        if state.pending is not None:
            option, how = self._option(game, state, unit)
            if not _open(state, option):  # the rules' list of options has the last word
                option, how = DEFER, None
            return Declare(unit=unit.id, option=option, how=how)
        return self._carry_out(game, state, unit) or EndPhase()

    # --- the declaration ----------------------------------------------------------------

    def _option(self, game: Game, state: GameState, unit: Unit) -> tuple[str, str | None]:
        own = unit_data(unit)
        if own.routing:
            return RALLY, None
        if own.pursuing is not None:
            chased = state.units.get(own.pursuing)
            gone = chased is None or not chased.in_play
            return (RALLY if gone or near_edge(game, unit) else DEFER), None
        if own.is_general:
            return (ADVANCE if self._ride(game, state, unit) is not None else DEFER), None
        live = live_foes(state, unit, OBJECTIVES, NEAR)
        if not live:
            return self._idle(own)
        nearest = gap(unit, live[0])
        if own.morale == 0:
            if not threatened(state, unit):
                return RALLY, REST
            if self._falls_back(game, state, unit):
                return RALLY, RETIRE
        horse_near = any(unit_data(e).is_mounted for e in live if gap(unit, e) < NEAR)
        dragoons_change = nearest < DISMOUNT_NEAR if own.mounted else nearest > MOUNT_BEYOND
        reforms = ((own.formation == LONG_MARCH and nearest < NEAR)
                   or (own.formation == HEDGEHOG and not horse_near)  # the square is for horse: none near
                   or (own.troop == DRAGOONS and dragoons_change))
        if reforms and not reform.problems(game.table, state, unit, self._change_for(own),
                                           game.ruleset.options):
            return FORMATION_CHANGE, None
        if not own.is_gun and self._would_charge(game, state, unit):
            return ADVANCE, None
        shot = self._nearest_shot(game, state, unit)
        if shot_chance(unit, shot) >= (GUN_SHOOT if own.is_gun else SHOOT) and _open(state, STAND_AND_FIRE):
            return STAND_AND_FIRE, None
        if own.morale != 0 and not own.is_mounted and shot_chance(unit, shot, half_move(own)) >= SHOOT \
                and _open(state, ADVANCE_AND_FIRE):
            return ADVANCE_AND_FIRE, None
        if own.is_gun and shot is None and gap(unit, live[0]) <= longest_shot(own) and \
                angle_between(unit.facing, bearing_to(unit, (live[0].x, live[0].y))) > GUN_TURN and \
                self._face_foe(game, as_declared(state, ADVANCE, likely_move(own)), unit) is not None:
            return ADVANCE, None  # to turn on the spot and bring the gun to bear
        if own.morale == 0 or own.is_gun:
            return self._idle(own)
        if self._way_open(game, state, unit, live):
            return ADVANCE, None
        return self._idle(own)

    def _ride(self, game: Game, state: GameState, general: Unit) -> Move | None:
        """A general at large rides to join a regiment, if the rules allow a ride that
        way (judged as if his move of 9" were declared)."""
        if stays(state, general):
            return None
        joining = unit_to_join(state, general)
        if joining is None:
            return None
        if game_data(state).allowance is None:
            state = as_declared(state, ADVANCE, {"open": GENERAL_MOVE,
                                                 "difficult": math.ceil(GENERAL_MOVE / 3)})
        return join(game, state, general, joining)

    @staticmethod
    def _idle(own: DtsUnit) -> tuple[str, str | None]:
        """Nothing to do: rest if there are points to regain (Rally d), else wait."""
        if own.morale is not None and own.morale < (own.morale_max or 0):
            return RALLY, REST
        return DEFER, None

    def _dash(self, own: DtsUnit) -> float:
        """The least worth (:func:`~tertia.rulesets.declare_thee_sir.ai.judgement.charge_worth`)
        of a charge the unit goes in for."""
        return HORSE_DASH if own.is_mounted else FOOT_DASH

    def _would_charge(self, game: Game, state: GameState, unit: Unit) -> bool:
        """Is there a foe worth charging that a middling roll of the unit's move would
        reach, by the rules' judgement of that charge (the way clear, the distance within
        the move)?"""
        own = unit_data(unit)
        dash = self._dash(own)
        likely = likely_move(own)
        reach = float(max(likely.values()))
        declared = as_declared(state, ADVANCE, likely)
        for enemy in foes(state, unit, reach):
            if base_distance(unit.base, enemy.base) > reach:
                continue  # the charge goes no shorter than the gap between the bases
            if charge_worth(game, state, unit, enemy) >= dash and \
                    game.is_legal(declared, Charge(unit=unit.id, target=enemy.id)):
                return True
        return False

    def _falls_back(self, game: Game, state: GameState, unit: Unit) -> bool:
        """Does a unit at poor morale with the enemy threatening it fall back (Rally a)?
        When it has a way back."""
        return self._way_back(game, state, unit)

    def _way_back(self, game: Game, state: GameState, unit: Unit) -> bool:
        """Could the unit move back, away from the enemy?"""
        return makes_headway(state, unit, back_point(state, unit), LOOK_AHEAD, LEAST_GAIN,
                             ahead=unit.facing + 180.0, table=table_size(game))

    def _way_open(self, game: Game, state: GameState, unit: Unit, live: list[Unit]) -> bool:
        """Would a middling move bring the unit usefully nearer one of the nearest
        enemies (cheaply judged: how far the way is clear), as :meth:`_advance` goes?"""
        size = table_size(game)
        return any(makes_headway(state, unit, (enemy.x, enemy.y), LOOK_AHEAD, LEAST_GAIN, table=size)
                   for enemy in self._goals(game, state, unit, live))

    def _goals(self, game: Game, state: GameState, unit: Unit, live: list[Unit]) -> list[Unit]:
        """The enemies a unit advances on, in the order tried: of ``live`` (the enemies in
        good order, nearest first), the :data:`OBJECTIVES` nearest."""
        return live[:OBJECTIVES]

    # --- carrying it out -----------------------------------------------------------------

    def _carry_out(self, game: Game, state: GameState, unit: Unit) -> Action | None:
        g = game_data(state)
        own = unit_data(unit)
        if g.declared == FORMATION_CHANGE:
            return self._reform(game, state, unit)
        allowance = g.allowance if not g.moved else None
        if g.volleys > 0:
            if allowance is not None and g.declared == ADVANCE_AND_FIRE:
                move = self._advance(game, state, unit, allowance)
                if move is not None:
                    return move
            shot = self._nearest_shot(game, state, unit)
            if shot is not None:
                fire = Fire(unit=unit.id, target=shot[0].id)
                if game.is_legal(state, fire):
                    return fire
            return None
        if allowance is None:
            return None
        if own.is_general:
            return self._ride(game, state, unit)
        if own.is_gun:
            return self._face_foe(game, state, unit)
        if g.declared == ADVANCE:
            return self._charge(game, state, unit, allowance) or self._advance(game, state, unit, allowance)
        if g.declared == ADVANCE_AND_FIRE:
            return self._advance(game, state, unit, allowance)
        if g.declared == f"{RALLY}:{RETIRE}":
            return advance_towards(game, state, unit, back_point(state, unit),
                                   float(allowance.get("open", 0)), ahead=unit.facing + 180.0,
                                   least=LEAST_GAIN)
        return self._face_foe(game, state, unit)

    def _reform(self, game: Game, state: GameState, unit: Unit) -> Action | None:
        """The change declared (:meth:`_change_for`), judged then to be one the unit can
        carry out."""
        change = ChangeFormation(unit=unit.id, formation=self._change_for(unit_data(unit)))
        return change if game.is_legal(state, change) else None

    @staticmethod
    def _change_for(own: DtsUnit) -> str:
        """The formation change a unit makes: dragoons in line mount or dismount, every
        other unit forms line."""
        if own.troop == DRAGOONS and own.formation == LINE:
            return DISMOUNT if own.mounted else MOUNT
        return LINE

    def _charge(self, game: Game, state: GameState, unit: Unit, allowance: Mapping[str, int]
                ) -> Action | None:
        """The charge worth most among the foes the rolled move reaches (cheap cuts first,
        then the rules' judgement)."""
        own = unit_data(unit)
        reach = float(max(allowance.values(), default=0))
        dash = self._dash(own)
        scored = sorted(((charge_worth(game, state, unit, e), e.id, e) for e in foes(state, unit, reach)
                         if base_distance(unit.base, e.base) <= reach), key=lambda t: (-t[0], t[1]))
        for worth, _, enemy in scored:
            if worth < dash:
                break
            charge = Charge(unit=unit.id, target=enemy.id)
            if game.is_legal(state, charge):
                return charge
        return None

    def _advance(self, game: Game, state: GameState, unit: Unit, allowance: Mapping[str, int]) -> Move | None:
        """A move towards the nearest enemy in good order whose way is open (round friends
        in the way), the next nearest if not."""
        reach = float(allowance.get("open", 0))
        turn = float(allowance.get("difficult", 0))
        for enemy in self._goals(game, state, unit, live_foes(state, unit, OBJECTIVES, 0.0)):
            move = advance_towards(game, state, unit, (enemy.x, enemy.y), reach, turn_reach=turn,
                                   least=LEAST_GAIN)
            if move is not None:
                return move
        return None

    def _face_foe(self, game: Game, state: GameState, unit: Unit) -> Move | None:
        """A unit that rallied or stopped pursuing turns to face the nearest enemy."""
        live = live_foes(state, unit, 1, 0.0)
        return pivot_to(game, state, unit, bearing_to(unit, (live[0].x, live[0].y))) if live else None


def as_declared(state: GameState, option: str, allowance: Mapping[str, int]) -> GameState:
    """The position as it would stand were ``option`` declared and ``allowance`` rolled:
    what the rules are asked about before the commander declares."""
    return state.evolve(decisions=(), own=game_data(state).evolve(declared=option, allowance=allowance))


def table_size(game: Game) -> tuple[float, float]:
    return game.table.width, game.table.depth


def back_point(state: GameState, unit: Unit) -> tuple[float, float]:
    """Where a retiring unit heads (Rally a: rearward): straight away from the nearest
    enemy in good order, or towards its own table edge when there is none."""
    live = live_foes(state, unit, 1, 0.0)
    heading = bearing((live[0].x, live[0].y), (unit.x, unit.y)) if live else home_heading(state, unit.side)
    dx, dy = heading_vector(heading)
    return unit.x + dx * BACK_REACH, unit.y + dy * BACK_REACH


def likely_move(own: DtsUnit) -> dict[str, int]:
    """The move the unit is at least :data:`CHARGE_LIKELY` to roll, worked out by the
    rules for its formation (open and difficult ground)."""
    return dict(_likely_move(move_dice(own), modifiers(own)))


@cache
def _likely_move(dice: int, mods: tuple[tuple[int, str], ...]) -> tuple[tuple[str, int], ...]:
    """:func:`likely_move` for a unit rolling ``dice`` D6 with ``mods``, worked out once
    (the rules' allowance is reckoned in exact fractions)."""
    roll = max(r for r in range(dice, 6 * dice + 1) if move_chance(r, dice) >= CHARGE_LIKELY)
    found = work_out(roll, mods, halve=False)
    return (("open", found.open_ground), ("difficult", found.difficult))


def longest_shot(own: DtsUnit) -> float:
    """The furthest a volley of the unit could reach: its base range and a six."""
    return float(base_range(own) + 6)


def half_move(own: DtsUnit) -> float:
    """A middling advance and fire move: half a middling roll."""
    return TYPICAL_MOVE[move_dice(own)] / 2
