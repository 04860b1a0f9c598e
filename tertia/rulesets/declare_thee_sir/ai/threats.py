"""What the enemy's charges threaten, for the Declare Thee Sir doctrine's second edition:
whether horse with firelocks are safer from them in a caracole than in line.

Optional Rules b: "If meleed, the carole formation will first evade 1D6 inches away"; the
attacker then goes its whole move at it, and meets it only if the move reaches
(``evasion:caracole_evades``). Melee c: "target mounted carole ... = +2", a line that
applies once (an attacker with a general has it already). So against each enemy horse
that could charge the unit (its 2D6 reaching the gap), the charge's worth to the enemy
(:func:`~tertia.rulesets.declare_thee_sir.ai.judgement.charge_worth`) is weighed as the
unit stands in line, and in caracole: at +2, times the chance that the rolled move that
reached the gap reaches the evasion's 1D6 more.
"""

from __future__ import annotations

from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.state import GameState, Unit
from tertia.rulesets.declare_thee_sir.ai.judgement import charge_worth, foes, move_chance
from tertia.rulesets.declare_thee_sir.modifiers import melee_modifiers
from tertia.rulesets.declare_thee_sir.values import unit_data

HORSE_DICE = 2
"""Movement: "Cavalry, mounted dragoons move 2d6 in inches"."""
CHARGE_REACH = 6.0 * HORSE_DICE
"""The furthest a horse's charge goes."""
SAFER = 0.1
"""How much less (in morale points) the charges threatened must be worth to the enemy
against the caracole before the unit takes it up: the change costs its activation."""


def caracole_pays(game: Game, state: GameState, unit: Unit) -> bool:
    """Would the enemy horse that could charge ``unit`` expect less from it in a caracole
    than in line, by at least :data:`SAFER`?"""
    in_line = in_caracole = 0.0
    for enemy in foes(state, unit, CHARGE_REACH):
        data = unit_data(enemy)
        if not data.is_mounted or data.routing or data.pursuing is not None:
            continue
        apart = base_distance(enemy.base, unit.base)
        if apart > CHARGE_REACH:
            continue
        line_worth = max(0.0, charge_worth(game, state, enemy, unit))
        lifted = any(value == 2 for value, _ in melee_modifiers(game.table, state, enemy, unit))
        caught_worth = max(0.0, charge_worth(game, state, enemy, unit, 0 if lifted else 2))
        in_line += move_chance(apart, HORSE_DICE) * line_worth
        in_caracole += sum(move_chance(apart + evade, HORSE_DICE) for evade in range(1, 7)) / 6 * caught_worth
    return in_line - in_caracole >= SAFER

