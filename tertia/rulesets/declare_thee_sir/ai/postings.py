"""Where the Declare Thee Sir doctrine's second edition posts its generals: with the unit
where what he adds outweighs what he risks by most, weighed with cheap estimates, in
morale points.

What he adds (Morale; Melee c; Rally b): his point to the unit (when it is untested, or
tested below 4), his +2 in the charge it is likely to make (the Melee Chart walked with
and without it against its nearest foe, unless the +2 line holds already, for a flank or
the like), and for a routing unit an extra rally roll. What he risks (Fire d): a general
dies only under fire, on a 1 on 1D6 when his unit loses a point to it; so his risk is a
sixth of the points the enemy firers within reach of the unit are expected to take each
turn, times his worth for the rest of the battle. A ride is reckoned by the turns it takes.
"""

from __future__ import annotations

import math

from tertia.core.game import Game
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.ai.judgement import foes, gap, live_foes, worth_at
from tertia.rulesets.declare_thee_sir.generals import ATTACH_REACH
from tertia.rulesets.declare_thee_sir.modifiers import GENERAL_ATTACHED, melee_modifiers, total
from tertia.rulesets.declare_thee_sir.movement import GENERAL_MOVE
from tertia.rulesets.declare_thee_sir.points import MOST_POINTS, attached_general
from tertia.rulesets.declare_thee_sir.reach import base_range
from tertia.rulesets.declare_thee_sir.values import unit_data

POINT_WORTH = 0.5
"""His point to the unit, in morale points of the battle (it is only one of several)."""
RALLY_WORTH = 1.5
"""His extra rally roll to a routing unit: the rolls are few, and a unit rallied is not lost."""
FOOT_CHARGES = 0.3
"""How likely foot are to charge, against horse (foot mostly stand and fire)."""
KILLED = 1 / 6
"""Fire d: "A 1D6 die roll of one kills the general"."""
POINT_PER_FIRER = 0.5
"""The points an enemy firer within reach is expected to take from a unit each turn: a
volley or two, each taking one on doubles or a 7 (11 throws in 36) and more on the chart."""
GENERAL_WORTH = 6.0
"""What a general is worth for the rest of the battle, in morale points: his +2 in each of
the charges still to come (most of a point each on the Melee Chart) and his point."""
RIDE_TURN = 0.25
"""What each turn of riding to a unit costs: his worth is not given meanwhile."""
FIRE_MOVE = 3.5
"""How far a firer is reckoned to come before it fires (a middling foot move)."""
CANDIDATES = 4
"""How many of the nearest friends a general weighs riding to."""
FIRE_REACH = 18.0 + 6 + FIRE_MOVE
"""The furthest an enemy can fire from, a move away: a gun's 18" and a six."""
LEAVE_MARGIN = 1.0
"""How much better another unit must be before a general leaves his own: leaving takes
his point with him."""


def posting(game: Game, state: GameState, general: Unit) -> Unit | None:
    """The friend the general should be with. He stays with his unit while his worth
    there is not outweighed by his risk; else (or at large) he goes to the one of the
    :data:`CANDIDATES` nearest friends (and any routing within a ride) where his worth
    less his risk and the ride there is greatest and positive, leaving his own only for
    one better by :data:`LEAVE_MARGIN`. None when no unit is worth joining."""
    own = state.units.get(unit_data(general).attached_to or "")
    current = own if own is not None and own.in_play else None
    kept = worth(game, state, current, attached=True) if current is not None else 0.0
    if current is not None and kept >= 0.0:
        return current
    near: list[tuple[float, str, Unit]] = []
    for friend in state.iter_troops(general.side):
        data = unit_data(friend)
        if data.is_gun or data.pursuing is not None or friend is current:
            continue
        if attached_general(state, friend.id) is not None:
            continue
        near.append((max(0.0, gap(general, friend) - ATTACH_REACH), friend.id, friend))
    near.sort(key=lambda t: t[:2])
    chosen = near[:CANDIDATES] + [t for t in near[CANDIDATES:]
                                   if unit_data(t[2]).routing and t[0] <= GENERAL_MOVE]
    best: tuple[float, str, Unit] | None = None
    for ride, ident, friend in chosen:
        score = worth(game, state, friend) - RIDE_TURN * math.ceil(ride / GENERAL_MOVE)
        if best is None or (-score, ident) < (-best[0], best[1]):
            best = (score, ident, friend)
    if best is None or best[0] <= 0.0 or (current is not None and best[0] < kept + LEAVE_MARGIN):
        return current
    return best[2]


def worth(game: Game, state: GameState, unit: Unit, *, attached: bool = False) -> float:
    """What a general adds to ``unit`` less what he risks with it (see the module's note);
    ``attached``: he is with it already."""
    data = unit_data(unit)
    if data.routing:
        return RALLY_WORTH - risk(state, unit)
    points = data.morale
    gains = POINT_WORTH if points is None or points < MOST_POINTS or attached else 0.0
    foe = next(iter(live_foes(state, unit, 1, 0.0)), None)
    if foe is not None:
        lines = melee_modifiers(game.table, state, unit, foe)
        mods = total(lines)
        plus = next((why for value, why in lines if value == 2), None)
        if attached and plus == GENERAL_ATTACHED:  # the +2 line holds for him alone
            lift = worth_at(state, unit, foe, mods) - worth_at(state, unit, foe, mods - 2)
        elif not attached and plus is None:
            lift = worth_at(state, unit, foe, mods + 2) - worth_at(state, unit, foe, mods)
        else:
            lift = 0.0  # the +2 line holds without him: it applies once
        gains += max(0.0, lift) * (1.0 if data.is_mounted else FOOT_CHARGES)
    return gains - risk(state, unit)


def risk(state: GameState, unit: Unit) -> float:
    """A general's expected loss with ``unit`` this turn: a sixth of the points the enemy
    firers within reach are expected to take, times his worth."""
    firers = 0
    for enemy in foes(state, unit, FIRE_REACH):
        data = unit_data(enemy)
        if data.routing or data.pursuing is not None:
            continue
        if gap(unit, enemy) <= base_range(data) + 6 + FIRE_MOVE:
            firers += 1
    return KILLED * POINT_PER_FIRER * firers * GENERAL_WORTH
