"""What the Declare Thee Sir doctrine weighs before it declares and acts: how near the
enemy is, whether a volley is likely to reach, whether a foe threatens, and what a charge
(and a volley) is worth.

The worth of a charge is read from the rule set's own tables (the Melee Chart, the test to
close, the morale points rolled when a unit is first tested) and its own modifiers
(``melee_modifiers``): every two-dice total is walked with its chance. It is a judgement,
not a resolution: where a push-back or rout leads afterwards is left out.
"""

from __future__ import annotations

import math
from functools import cache

from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.rules.measuring import pieces_near
from tertia.rules.morale import DECLARE_LEVELS, PointsTable
from tertia.rulesets.declare_thee_sir.chart import HOLD, chart_result, is_rout, push_dice
from tertia.rulesets.declare_thee_sir.data import CARACOLE
from tertia.rulesets.declare_thee_sir.melee import CLOSE_NEED
from tertia.rulesets.declare_thee_sir.modifiers import fire_modifiers, melee_modifiers, total
from tertia.rulesets.declare_thee_sir.points import MOST_POINTS, attached_general, points_table
from tertia.rulesets.declare_thee_sir.reach import base_range, fire_distance
from tertia.rulesets.declare_thee_sir.values import unit_data

ROUT_WORTH = 3.0
"""A unit broken is worth this many morale points: it flees, and may leave the table."""
PUSH_WORTH = 0.25
"""A foe pushed back in good order is worth this much: ground, and a foe in disarray."""
SURE_REACH = 3.5
"""A shot at its base range and this much more reaches on a D6 of 4 or more: even odds."""
THREAT = 12.0
"""An enemy this close could shoot or charge a unit (musket 6" + 1D6, horse 2D6)."""
GUN_THREAT = 24.0
"""A gun reaches this far (18" + 1D6)."""
EDGE_WARNING = 6.0
"""A pursuer this close to a table edge tries to break off."""


def gap(a: Unit, b: Unit) -> float:
    """A cheap lower bound of the edge-to-edge distance: centres less both bases'
    half-diagonals. Used to leave out what is surely too far before measuring exactly."""
    return math.hypot(a.x - b.x, a.y - b.y) - a.base.radius - b.base.radius


def foes(state: GameState, unit: Unit, within: float = math.inf) -> list[Unit]:
    """The enemy troops in play whose cheap distance (:func:`gap`) is within ``within``,
    nearest first; routing units last (they are no threat and no objective). Within a
    reach, only the pieces filed near the unit are measured."""
    if within < math.inf:
        return [e for _, _, _, e in _foes_near(state, unit, within)]
    key = (_FOES, unit.id, unit.base)
    found: list[tuple[bool, float, str, Unit]] | None = state.cache.get(key)
    if found is None:  # asked again and again before each declaration
        # and again once it is declared: the states between share every piece
        held: tuple[object, list[tuple[bool, float, str, Unit]]] | None = state.recall(key, unit)
        if held is not None and held[0] is state.units:
            found = held[1]
        else:
            found = [(unit_data(e).routing, gap(unit, e), e.id, e)
                     for e in state.iter_troops(state.opponent(unit.side))]
            found.sort()  # no two share an id: the pieces themselves are never compared
            state.remember(key, unit, math.inf, (state.units, found))
        state.cache[key] = found
    return [e for _, apart, _, e in found if apart <= within]


def live_foes(state: GameState, unit: Unit, count: int, within: float) -> list[Unit]:
    """The first of :func:`foes` not routing, nearest first: at least the ``count``
    nearest (all, when there are fewer) and every one within ``within``. Only the pieces
    filed near the unit are measured, as far out as it takes to find them."""
    reach = max(within, FIRST_LOOK)
    everyone = len(tuple(state.iter_troops(state.opponent(unit.side))))
    while True:
        found = _foes_near(state, unit, reach)
        live = [e for routing, _, _, e in found if not routing]
        if len(live) >= count or len(found) == everyone:
            return live
        reach *= 2.0


def _foes_near(state: GameState, unit: Unit, within: float) -> list[tuple[bool, float, str, Unit]]:
    """(routing, gap, id, piece) of the enemy troops with a :func:`gap` within ``within``,
    in the order of :func:`foes`; remembered for the position."""
    key = (_FOES_NEAR, unit.id, unit.base, within)
    found: list[tuple[bool, float, str, Unit]] | None = state.cache.get(key)
    if found is None:
        enemy = state.opponent(unit.side)
        # a piece with a gap within reach has its base within reach of the unit's
        near = [e for e in pieces_near(state, unit.base, within) if e.side == enemy and not e.is_commander]
        found = [f for f in ((unit_data(e).routing, gap(unit, e), e.id, e) for e in near) if f[1] <= within]
        found.sort()  # no two share an id: the pieces themselves are never compared
        state.cache[key] = found
    return found


FIRST_LOOK = 24.0
"""How far :func:`live_foes` looks first (then twice as far, and so on)."""

_FOES_NEAR = "declare-thee-sir doctrine foes near"

_FOES = "declare-thee-sir doctrine foes"
"""The key of a unit's foes, nearest first, remembered for the pieces as they stand
(``state.units``: no piece changed at all, routing included)."""


def threatened(state: GameState, unit: Unit) -> bool:
    """Could an enemy in good order shoot or charge the unit when next activated: a gun
    within 24", any other troops within 12"?"""
    for e in state.iter_troops(state.opponent(unit.side)):
        own = unit_data(e)
        if not own.routing and own.pursuing is None and gap(unit, e) <= (
                GUN_THREAT if own.is_gun else THREAT):
            return True
    return False


def near_edge(game: Game, unit: Unit) -> bool:
    t = game.table
    return min(unit.x, unit.y, t.width - unit.x, t.depth - unit.y) < EDGE_WARNING


def reach_chance(distance: float, base: float) -> float:
    """The chance that base + 1D6 (a rolled range) reaches ``distance``."""
    need = math.ceil(distance - base - 1e-9)
    return min(1.0, max(0.0, (7 - max(need, 1)) / 6))


def move_chance(distance: float, dice: int) -> float:
    """The chance that a move of ``dice`` D6 covers ``distance``."""
    return sum(p for total_, p in _sums(dice) if total_ >= distance - 1e-9)


@cache
def _sums(dice: int) -> tuple[tuple[int, float], ...]:
    counts: dict[int, int] = {0: 1}
    for _ in range(dice):
        step: dict[int, int] = {}
        for s, n in counts.items():
            for face in range(1, 7):
                step[s + face] = step.get(s + face, 0) + n
        counts = step
    every = 6 ** dice
    return tuple((s, n / every) for s, n in sorted(counts.items()))


def is_poor(unit: Unit) -> bool:
    return unit_data(unit).morale == 0


def nearest_shot(game: Game, state: GameState, unit: Unit, within: float) -> tuple[Unit, float] | None:
    """The nearest target worth a volley within ``within`` inches, by the rule set's own
    measure of range (in the firer's arc and sight, stand to stand), with that range:
    none routing, and none at poor unless the firer is a gun (fire takes no point from a
    poor unit; a gun may yet push it back). Cheap bounds leave out what cannot be
    nearer than the best found."""
    own = unit_data(unit)
    best: tuple[Unit, float] | None = None
    for enemy in foes(state, unit, within):
        if best is not None and gap(unit, enemy) >= best[1]:
            break
        if unit_data(enemy).routing or (is_poor(enemy) and not own.is_gun):
            continue
        if own.formation != CARACOLE and \
                unit.base.to_local((enemy.x, enemy.y))[1] < -(unit.depth / 2 + enemy.base.radius):
            continue  # wholly behind the firer's rear edge: in no stand's forward arc
        if base_distance(unit.base, enemy.base) >= (within if best is None else best[1]):
            continue
        measured = fire_distance(game.table, state, unit, enemy)
        if measured is not None and measured <= within and (best is None or measured < best[1]):
            best = (enemy, measured)
    return best


def shot_chance(unit: Unit, shot: tuple[Unit, float] | None, extra: float = 0.0) -> float:
    """The chance a volley at ``shot`` (:func:`nearest_shot`) reaches, were the unit
    ``extra`` inches nearer."""
    return 0.0 if shot is None else reach_chance(shot[1] - extra, base_range(unit_data(unit)))


# --- the worth of a charge ---------------------------------------------------------------

def charge_worth(game: Game, state: GameState, attacker: Unit, target: Unit, extra: int = 0) -> float:
    """What a charge at ``target`` is expected to gain, in morale points (a rout counted
    :data:`ROUT_WORTH`, a push-back :data:`PUSH_WORTH`), less what the attacker expects to
    lose, as if it closed from where it stands (the face it comes at and the ground), with
    ``extra`` added to the modifiers."""
    mods = total(melee_modifiers(game.table, state, attacker, target))
    return worth_at(state, attacker, target, mods + extra)


def worth_at(state: GameState, attacker: Unit, target: Unit, mods: int) -> float:
    """:func:`charge_worth` with the modifiers' total given."""
    return _worth(_points(state, attacker), _points(state, target), mods)


def _points(state: GameState, unit: Unit) -> tuple[tuple[int, float], ...]:
    """The unit's morale points, or their chances when it is untested (rolled on 1D6, an
    attached general's point added at most to 4)."""
    points = unit_data(unit).morale
    if points is not None:
        return ((points, 1.0),)
    bonus = 1 if attached_general(state, unit.id) is not None else 0
    return _untested(points_table(unit), bonus)


@cache
def _untested(table: PointsTable, bonus: int) -> tuple[tuple[int, float], ...]:
    found: dict[int, float] = {}
    for roll in range(1, 7):
        p = min(MOST_POINTS, table.points_for(roll) + bonus)
        found[p] = found.get(p, 0.0) + 1 / 6
    return tuple(sorted(found.items()))


@cache
def _worth(mine: tuple[tuple[int, float], ...], theirs: tuple[tuple[int, float], ...], mods: int) -> float:
    worth = 0.0
    for a, pa in mine:
        closes = (7 - CLOSE_NEED[DECLARE_LEVELS.name(a)]) / 6
        for t, pt in theirs:
            results = _chart_column(mods, DECLARE_LEVELS.name(t))
            for first in range(1, 7):
                for second in range(1, 7):
                    result = results[first + second]
                    lost = int(first + second == 7) + int(is_rout(result))
                    hurt = int(first == second) + int(result == HOLD)
                    gained = min(lost, t) + (ROUT_WORTH if is_rout(result) or lost > t else
                                             PUSH_WORTH * bool(push_dice(result)))
                    paid = min(hurt, a) + (ROUT_WORTH if hurt > a else 0.0)
                    worth += pa * closes * pt * (gained - paid) / 36
    return worth


def _chart_column(mods: int, level: str) -> dict[int, str]:
    """The Melee Chart's result for each two-dice total (2 to 12) with ``mods`` added,
    against a target of morale ``level``: read once for the 36 rolls."""
    return {dice: chart_result(dice + mods, level) for dice in range(2, 13)}


# --- the worth of a volley ---------------------------------------------------------------

def volley_worth(game: Game, state: GameState, firer: Unit, target: Unit) -> float:
    """The morale points one musketry volley that reaches ``target`` is expected to take
    (Fire c): one on doubles or a 7, and one more when the modified sum reads ROUT
    against the morale it has left; none from a unit at poor, which stays at poor."""
    mods = total(fire_modifiers(game.table, firer, target))
    return _volley(_points(state, target), mods)


@cache
def _volley(theirs: tuple[tuple[int, float], ...], mods: int) -> float:
    worth = 0.0
    for t, pt in theirs:
        for first in range(1, 7):
            for second in range(1, 7):
                first_point = int(first == second or first + second == 7) if t > 0 else 0
                left = t - first_point
                routs = is_rout(chart_result(first + second + mods, DECLARE_LEVELS.name(left)))
                worth += pt * (first_point + int(routs and left > 0)) / 36
    return worth

