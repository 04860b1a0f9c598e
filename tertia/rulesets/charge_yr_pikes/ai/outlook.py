"""What a charge is likely to come to, worked out cheaply for the doctrine's second
edition: exact chances of the close combat's result from memoised tables of the dice,
and morale tests, defending fire and a battery's supporters estimated from the position.

A charge (12 A-F) runs: the attacker halts 1" short and takes the defenders' fire, a
volley or canister, testing morale if it loses men (canister always, ``[morale.triggers]
canister_always``); it tests to close (12 B; not against a flank or rear, Sequence F);
gunners with no friendly unit within 4" rout at once (section 10), else the supporters
fight for them; each side rolls its dice, a sixth of its total the casualties it deals
(12 E); the side dealing fewer tests morale, falling back on a pass and routing on a
failure (12 F); equal casualties: the smaller force tests, then the larger (12 G).

The value of a unit is its share of its army's figures: the side with the larger share
of casualties loses at darkness (19 D), so a charge is worth making when the share it
expects to take from the enemy outweighs the share it risks of its own
(:func:`charge_outlook`). The estimates are cheap by design: the close combat's chances
are exact for the dice counted (:func:`melee_chances`), the fire's effect is its mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from tertia.core.game import Game
from tertia.core.geometry import Point, angle_between, bearing
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.army import counted_units
from tertia.rulesets.charge_yr_pikes.artillery import reach_of
from tertia.rulesets.charge_yr_pikes.charge import SHORT_OF_TARGET, gun_support
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.facing import is_flank_or_rear
from tertia.rulesets.charge_yr_pikes.melee import casualties_from
from tertia.rulesets.charge_yr_pikes.melee_dice import Fighter, unit_dice
from tertia.rulesets.charge_yr_pikes.morale import officer_bonus, points_table, supported
from tertia.rulesets.charge_yr_pikes.musketry import firing_stands, has_muskets
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

CLOSE_HIT = 4 / 6
"""Close range musketry and canister hit on 3 to 6 (``[musketry] close_hits``,
``[artillery.canister] hits``)."""
LONG_HIT = 2 / 6
"""Long range musketry hits on 5 and 6 (``[musketry] long_hits``)."""
FAILED_TO_STAND = 1 / 2
"""What a failed test to stand (a fall-back or a rout, by how far it failed) is reckoned to
lose, as a share of the unit's worth."""
ARC = 60.0
"""The arc, either side of a firer's facing from its centre, taken to hold its stands'
45-degree arcs (``[musketry] arc``) over a unit's frontage."""


@dataclass(frozen=True, slots=True)
class MeleeChances:
    """The chances that a side rolling some dice against another's deals more casualties
    (``win``), as many (``tie``) or fewer (``lose``)."""

    win: float
    tie: float
    lose: float


@cache
def casualty_chances(dice: int, rounding: str) -> tuple[float, ...]:
    """The chance of each number of casualties (0, 1, ...) ``dice`` D6 deal (12 E: the
    total over six, rounded as ``[melee] casualties_rounding`` says).

    >>> [round(p * 36) for p in casualty_chances(2, "down")]  # under 6, 6 to 11, 12
    [10, 25, 1]
    """
    totals = {0: 1.0}
    for _ in range(max(0, dice)):
        step: dict[int, float] = {}
        for total, p in totals.items():
            for face in range(1, 7):
                step[total + face] = step.get(total + face, 0.0) + p / 6
        totals = step
    found: list[float] = []
    for total, p in totals.items():
        casualties = casualties_from(total, rounding)
        found.extend([0.0] * (casualties + 1 - len(found)))
        found[casualties] += p
    return tuple(found)


@cache
def melee_chances(mine: int, theirs: int, rounding: str) -> MeleeChances:
    """12 F, G: the chances that ``mine`` dice deal more casualties than ``theirs``,
    as many, or fewer.

    >>> round(melee_chances(3, 0, "down").win * 216)  # all but totals under 6
    206
    >>> c = melee_chances(4, 4, "down"); round(c.win, 6) == round(c.lose, 6)
    True
    """
    a, b = casualty_chances(mine, rounding), casualty_chances(theirs, rounding)
    win = tie = 0.0
    below = 0.0  # the chance that theirs deal fewer than i
    for i, p in enumerate(a):
        win += p * below
        tie += p * (b[i] if i < len(b) else 0.0)
        below += b[i] if i < len(b) else 0.0
    return MeleeChances(win, tie, max(0.0, 1.0 - win - tie))


def pass_chance(tables: Tables, state: GameState, unit: Unit) -> float:
    """The chance that ``unit`` passes a morale test now (11 A, C, F): its rating (the
    mean over its class's line while untested) + a D6 + the modifiers that stand
    (disordered, falling back, supported, a front-rank officer's bonus), six or more
    passing; worked out once a position and unit."""
    key = ("cyp outlook pass", unit.id)
    found: float | None = state.cache.get(key)
    if found is not None:
        return found
    own = unit_data(unit)
    ratings = ([own.morale] if own.morale is not None
               else [points_table(tables, own).points_for(face) for face in range(1, 7)])
    mods = tables.morale.modifiers
    bonus = officer_bonus(tables, state, unit.id)
    if own.disordered:
        bonus += mods.disordered
    if own.falling_back:
        bonus += mods.falling_back
    if supported(state, unit):
        bonus += mods.supported
    need = tables.morale.pass_
    faces = sum(min(6, max(0, 7 - (need - r - bonus))) for r in ratings)  # faces of a D6 that pass
    found = state.cache[key] = faces / (6 * len(ratings))
    return found


def army_figures(state: GameState, side: str, tables: Tables) -> int:
    """The figures ``side``'s army began with (the count 19 D's shares are of); worked
    out once a position and side."""
    key = ("cyp outlook army", side)
    found: int | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = max(1, sum(unit_data(u).start for u in counted_units(state, side, tables)))
    return found


def share(state: GameState, unit: Unit, tables: Tables) -> float:
    """``unit``'s figures as a share of its army's (what losing it whole costs at 19 D)."""
    return unit_data(unit).figures / army_figures(state, unit.side, tables)


def defending_fire(state: GameState, charger: Unit, halt: Point, tables: Tables) -> float:
    """The hits the charger may expect as it halts at ``halt``, 1" short (12 A: "takes any
    defending fire"): from each enemy battery with ``halt`` within its canister reach (its
    gunners' dice) and each musket-armed enemy with it in range (its firing stands' dice:
    3-6 hits at close range, 5-6 at long), where ``halt`` lies in front of the firer
    (within its stands' 45-degree arc, taken from the unit's centre with some slack)."""
    musketry = tables.musketry
    hits = 0.0
    farthest = max(musketry.long_range, *tables.artillery.canister_range.values())
    for enemy in firers_at(state, charger.side, halt, farthest):
        own = unit_data(enemy)
        gap = math.dist((enemy.x, enemy.y), halt) - enemy.depth / 2
        if own.is_gun:
            if gap <= reach_of(enemy, "canister", tables):
                hits += own.men * CLOSE_HIT
        elif gap <= musketry.long_range:
            hit = CLOSE_HIT if gap <= musketry.close_range else LONG_HIT
            hits += len(firing_stands(enemy, tables)) * hit
    return hits


def firers_at(state: GameState, side: str, at: Point, radius: float) -> list[Unit]:
    """The enemies of ``side`` within ``radius`` of ``at`` that could fire at it were it
    in their reach: in play, not routed, falling back or plundering, with ``at`` in front
    of them (within their stands' 45-degree arc, taken from the unit's centre with some
    slack: :data:`ARC`), and a battery (canister; a galloper fires with its unit) or
    musket-armed."""
    found: list[Unit] = []
    for enemy in state.near(*at, *at, radius):
        if enemy.side == side or not enemy.in_play or enemy.is_commander:
            continue
        own = unit_data(enemy)
        if own.routed or own.falling_back or own.plundering:
            continue
        if not (own.gun != "galloper" if own.is_gun else has_muskets(own)):
            continue
        if angle_between(enemy.facing, bearing((enemy.x, enemy.y), at)) <= ARC:
            found.append(enemy)
    return found


def fire_where_it_stands(state: GameState, unit: Unit, tables: Tables) -> float:
    """The :func:`defending_fire` ``unit`` takes where it stands, whatever it charges;
    worked out once a position and unit (a charge weighs every foe in reach)."""
    key = ("cyp outlook fire here", unit.id)
    found: float | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = defending_fire(state, unit, (unit.x, unit.y), tables)
    return found


def volley(state: GameState, unit: Unit, target: Unit, tables: Tables) -> float:
    """The hits ``unit``'s muskets may expect on ``target`` were it to stand and fire:
    its firing stands' dice, 3-6 hitting at close range, 5-6 at long (none beyond, nor
    from a unit without muskets or one routed or falling back)."""
    own = unit_data(unit)
    if not has_muskets(own) or own.routed or own.falling_back:
        return 0.0
    musketry = tables.musketry
    at = (target.x, target.y)
    gap = math.dist((unit.x, unit.y), at) - unit.depth / 2
    if gap > musketry.long_range or angle_between(unit.facing, bearing((unit.x, unit.y), at)) > ARC:
        return 0.0
    return len(firing_stands(unit, tables)) * (CLOSE_HIT if gap <= musketry.close_range else LONG_HIT)


@dataclass(frozen=True, slots=True)
class ChargeOutlook:
    """What a charge is expected to come to: the share of the enemy army it expects to
    take (``gain``) and of its own it expects to lose (``risk``)."""

    gain: float
    risk: float

    @property
    def worth(self) -> float:
        return self.gain - self.risk


def charge_outlook(game: Game, state: GameState, unit: Unit, foe: Unit, tables: Tables,
                   halt: Point | None = None) -> ChargeOutlook:
    """What ``unit`` charging ``foe`` is expected to come to (see the module's
    docstring): the fire it takes at the halt and the test that follows; the test to close
    (none against a flank or rear); the defenders' test when closed on (12 C); the close
    combat's chances on the dice of both sides (a battery's supporters fighting for it,
    with no test to stand; gunners alone rout); and the loser's test. A unit routed is
    its share of its army; one that falls back a third of it; a failed test to stand
    (falling back or routing, by how far it failed) half. ``halt`` is where the charge
    halts (by default the end of its :func:`charge_path`; :func:`halt_ahead_of` is a
    cheap estimate)."""
    theirs = unit_data(foe)
    flank = is_flank_or_rear(unit.base, foe.base)
    defenders = [state.units[s] for s in gun_support(state, foe.id)] if theirs.is_gun else [foe]
    if halt is None:
        halt = charge_path(game.table, state, unit, foe).end
    hits = defending_fire(state, unit, halt, tables)
    figures = max(1, unit_data(unit).figures)
    holds = pass_chance(tables, state, unit)
    fire_test = holds if hits > 0 else 1.0
    closes = fire_test * (1.0 if flank else holds)
    mine_share = share(state, unit, tables)
    # Musketeers are weighed against standing where they are to fire (Musketry): the fire
    # they would take there anyway, and the test it would bring, are no cost of the charge;
    # the volley they would give (an attacker cannot fire, 12 A) is. Failing the test after
    # the fire a charger falls back, or worse.
    here = fire_where_it_stands(state, unit, tables) if has_muskets(unit_data(unit)) else 0.0
    tested = max(0.0, _tested(hits) - _tested(here))
    risk = (tested * (1.0 - holds) * FAILED_TO_STAND + max(0.0, hits - here) / figures) * mine_share
    foe_share = share(state, foe, tables)
    forgone = volley(state, unit, foe, tables) / max(1, theirs.figures) * foe_share
    their_share = foe_share if theirs.is_gun else 0.0
    if not defenders:  # gunners with none to fight for them rout (section 10)
        return ChargeOutlook(closes * their_share - forgone, risk)
    their_share += sum(share(state, d, tables) for d in defenders)
    holds_theirs = sum(pass_chance(tables, state, d) for d in defenders) / len(defenders)
    # A supported battery's gunners never test, and its supporters fight for it without a
    # test to stand (section 10; 12 C is the charged unit's): they test only on losing.
    stand = 1.0 if theirs.is_gun else 1 / 6 if flank else holds_theirs
    fighters = {unit.id: Fighter(unit=unit.id, foes=tuple(d.id for d in defenders), attacking=True)}
    for d in defenders:
        fighters[d.id] = Fighter(unit=d.id, foes=(unit.id,), attacking=False,
                                 flank_or_rear=flank and d is foe)
    mine = unit_dice(tables, game.table, state, fighters[unit.id], fighters).dice
    mine = round(mine * max(0.0, 1.0 - hits / figures))
    against = sum(unit_dice(tables, game.table, state, fighters[d.id], fighters).dice for d in defenders)
    chances = melee_chances(mine, against, tables.melee.casualties_rounding)
    won = chances.win + chances.tie / 2
    lost = chances.lose + chances.tie / 2
    beaten = _beaten(holds_theirs if theirs.is_gun else stand)
    gain = closes * ((1.0 - stand) * FAILED_TO_STAND + stand * won * beaten) * their_share - forgone
    risk += closes * stand * lost * _beaten(holds) * mine_share
    return ChargeOutlook(gain, risk)


def _beaten(holds: float) -> float:
    """The share of a unit lost in losing a close combat (12 F): all of it routed, failing
    its test (``holds``, the chance it passes), else a third, fallen back."""
    return (1.0 - holds) + holds / 3


def halt_ahead_of(unit: Unit, foe: Unit) -> Point:
    """Where a charge by ``unit`` straight at ``foe`` halts, 1" short (12 A), reckoned from
    the centres alone: a cheap stand-in for the end of its :func:`charge_path`."""
    gap = math.dist((unit.x, unit.y), (foe.x, foe.y))
    if gap <= 0:
        return (unit.x, unit.y)
    back = min(gap, foe.depth / 2 + SHORT_OF_TARGET + unit.depth / 2)
    return (foe.x + (unit.x - foe.x) * back / gap, foe.y + (unit.y - foe.y) * back / gap)


def _tested(hits: float) -> float:
    """The chance that fire expected to hit ``hits`` times hits at all (a Poisson
    estimate): a unit that loses men to fire tests its morale (12 A)."""
    return 1.0 - math.exp(-max(0.0, hits))
