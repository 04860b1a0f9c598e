"""Movement rules of d3-commands beyond the shared ones: the 12" rule near an unengaged
enemy, and the 6" rule for a command's last unit to move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.actions import Move
from tertia.core.geometry import Base, angle_between, bearing, is_within
from tertia.core.state import GameState, Unit
from tertia.core.violations import Violation
from tertia.rules.codes import MovementCode
from tertia.rules.measuring import distance
from tertia.rules.movement import plan_move
from tertia.rulesets.d3.codes import D3Code
from tertia.rulesets.d3.cohesion import companions, mate_within
from tertia.rulesets.d3.contact import is_engaged
from tertia.rulesets.d3_commands import clauses
from tertia.rulesets.d3_commands.organisation import COHESION_RADIUS, cohesion_group

NEAR = 12.0
"""Units within 12" of an enemy unit that is not engaged in melee..."""


def unengaged_enemies_near(state: GameState, unit: Unit) -> list[Unit]:
    """Enemy troop units within 12" (edge to edge) of ``unit``, a piece of ``state``, that
    are not in melee. Worked out once a position for each unit: every move of it tried
    asks."""
    key = (_UNENGAGED_NEAR, unit.id)
    found: list[Unit] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = [
            e for e in state.iter_troops(state.opponent(unit.side))
            if is_within(unit.base, e.base, NEAR) and not is_engaged(state, e)
        ]
    return found


_UNENGAGED_NEAR = "d3-commands unengaged enemies near"


def near_enemy_problems(state: GameState, action: Move, options: Mapping[str, Any]) -> list[Violation]:
    """"...must either remain stationary, move towards the enemy, or directly away from the
    enemy": a straight move heading within ``toward_tolerance`` degrees of one such enemy,
    or within ``away_tolerance`` of directly away from the nearest. Pivoting on the spot
    is remaining stationary."""
    breach = _near_enemy_breach(state, action, options)
    if breach is None:
        return []
    unit, near, nearest, off = breach
    if nearest is None:
        return [Violation(MovementCode.NOT_AWAY,
                          f"{unit.label} is within 12\" of {near[0].label} and may only move straight "
                          f"towards the enemy or directly away", clauses.NEAR_ENEMY)]
    toward = float(options["toward_tolerance"])
    away = float(options["away_tolerance"])
    return [Violation(
        MovementCode.NOT_AWAY,
        f"{unit.label} is within 12\" of {nearest.label} ({distance(unit, nearest):.1f}\"), which is "
        f"not in melee: it may stay, move towards the enemy (within {toward:g} degrees) or directly "
        f"away (within {away:g}); this move is {off:.0f} degrees off directly away",
        clauses.NEAR_ENEMY)]


def breaks_near_enemy_rule(state: GameState, action: Move, options: Mapping[str, Any]) -> bool:
    """Whether :func:`near_enemy_problems` finds a problem, without putting it in words."""
    return _near_enemy_breach(state, action, options) is not None


def _near_enemy_breach(
    state: GameState, action: Move, options: Mapping[str, Any]
) -> tuple[Unit, list[Unit], Unit | None, float] | None:
    """How ``action`` breaks the 12" rule, or None: the unit, the enemies near it and,
    for a straight move, the nearest and how far the move strays from directly away (a
    path that bends has none)."""
    unit = state.units[action.unit]
    plan = plan_move(unit, action)
    if not plan.translates:
        return None
    near = unengaged_enemies_near(state, unit)
    if not near:
        return None
    if len(plan.points) > 2:
        return unit, near, None, 0.0
    heading = bearing(plan.points[0], plan.points[-1])
    toward = float(options["toward_tolerance"])
    away = float(options["away_tolerance"])
    if any(angle_between(heading, bearing((unit.x, unit.y), (e.x, e.y))) <= toward + 1e-6 for e in near):
        return None
    nearest = min(near, key=lambda e: (distance(unit, e), e.id))
    off = angle_between(heading, bearing((nearest.x, nearest.y), (unit.x, unit.y)))
    if off <= away + 1e-6:
        return None
    return unit, near, nearest, off


def _straying(state: GameState, action: Move) -> tuple[Unit, Base, list[Unit]] | None:
    """A move that would leave its unit more than 6" from every other unit of its command
    (Commands, 6" rule): the unit, where it would end and those others; None when it ends
    within 6" of one, or has no other."""
    unit = state.units[action.unit]
    end = plan_move(unit, action).end
    if mate_within(state, unit, cohesion_group, COHESION_RADIUS, end):
        return None
    others = companions(state, unit, cohesion_group)
    return (unit, end, others) if others else None


def _gap(unit: Unit, end: Base, others: list[Unit]) -> float:
    """How far ``unit``, ended at ``end``, would stand from the nearest of ``others``."""
    return min(distance(unit.evolve(x=end.x, y=end.y, facing=end.facing), o) for o in others)


def cohesion_warning(state: GameState, action: Move) -> dict[str, str] | None:
    """What a legal move that leaves its unit more than 6" from every other unit of its
    command risks: unless one of those still to move closes the gap, the unit is moved
    back at the end of the activation (Commands, 6" rule). None when it ends within 6"
    of one, or when it is refused outright (:func:`cohesion_problems`)."""
    found = _straying(state, action)
    if found is None or all(state.is_marked("moved", o.id) for o in found[2]):
        return None
    unit = found[0]
    return {"message": f"{unit.label} would end {_gap(*found):.1f}\" from the nearest unit of its command: "
                       f"unless one of them ends within 6\" of it, it is moved back at the end of "
                       f"the activation", "rule": clauses.COHESION}


def cohesion_problems(state: GameState, action: Move) -> list[Violation]:
    """A move may not leave its unit more than 6" from every other unit of its command
    once all of those have moved this activation (nothing could close the gap)."""
    found = _straying(state, action)
    if found is None or not all(state.is_marked("moved", o.id) for o in found[2]):
        return []
    return [Violation(D3Code.COHESION,
                      f"{found[0].label} would end {_gap(*found):.1f}\" from the nearest unit of its "
                      f"command; a unit must remain within 6\" of one", clauses.COHESION)]
