"""A move dropped onto an enemy, or just short of one, offered again ending in contact.

Under the D3 rule sets a melee begins with a move whose end touches the enemy, and a
dragged ghost lands exactly there only by luck (the touching end is a few hundredths of
an inch wide). :func:`contact_suggestion` slides the unit along the last leg of the
dropped path, without turning, until its base meets the first piece in the way; when
that piece is an enemy the dropped end overlaps, or stops less than :data:`REACH` short
of, the same move ending there is offered, once the rules' own validation allows it.

The slide reads only the side's observation of the position (nothing hidden from it
stops the slide, nor is named); the suggested move is validated as the page's own move
would be, on the position itself.
"""

from __future__ import annotations

import math
from typing import Any, Final

from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import Base, base_distance, bearing, heading_vector
from tertia.core.state import GameState, Unit
from tertia.rules.involuntary import Interpenetration, plan_slide
from tertia.rules.movement import plan_move

REACH: Final = 0.5
"""Inches short of touching an enemy a dropped move may end and still be offered contact."""

TOUCHING: Final = 0.01
"""Inches apart at most that an offered end leaves the two bases."""

BACK_OFF: Final = (0.0, 0.002, 0.005, 0.01, 0.02)
"""Inches the offered end is tried short of the exact touch, in turn, against rounding:
the page keeps a path to hundredths of an inch, so the offered one is rounded so too."""

SHORTEST_LEG: Final = 0.01
"""A last leg shorter than this (a move that only turns) is offered nothing."""


def _gap(base: Base, piece: Unit) -> float:
    """Edge-to-edge inches between ``base`` and the nearest part of ``piece``."""
    return min(base_distance(base, f) for f in piece.footprints)


def contact_suggestion(game: Game, state: GameState, seen: GameState, action: Move) -> dict[str, Any] | None:
    """The move ``action`` (as the page's actions are read, :mod:`~tertia.web.action_json`:
    finite points and facings) ending in contact with the enemy its last leg runs into, as
    ``{"unit", "name", "waypoints", "action"}``, or ``None``. ``seen`` is the acting
    side's observation (``state`` itself when nothing is hidden from it)."""
    unit = seen.units.get(action.unit)
    if unit is None or not unit.in_play or not action.waypoints:
        return None
    plan = plan_move(unit, action)
    points = plan.points
    start, dropped = points[-2], points[-1]
    leg = math.dist(start, dropped)
    if not SHORTEST_LEG <= leg <= game.table.width + game.table.depth:
        return None  # a move that only turns, or one far off the table
    heading = bearing(start, dropped)
    slide = plan_slide(seen, unit, heading=heading, distance=leg + REACH, policy=Interpenetration.STOP,
                       table=(game.table.width, game.table.depth), base=plan.end.moved_to(*start))
    target = seen.units.get(slide.stopped_by) if slide.stopped_by is not None else None
    if target is None or target.side == unit.side or not target.in_play:
        return None
    if _gap(plan.end, target) > REACH or abs(slide.distance - leg) <= TOUCHING / 2:
        return None  # it ends well clear of the enemy, or touches it already
    dx, dy = heading_vector(heading)
    for back in BACK_OFF:
        went = max(0.0, slide.distance - back)
        end = (round(start[0] + dx * went, 2) + 0.0, round(start[1] + dy * went, 2) + 0.0)
        if _gap(plan.end.moved_to(*end), target) >= TOUCHING:
            break  # further back only leaves a wider gap
        waypoints = (*action.waypoints[:-1], end)
        suggested = Move(action.unit, waypoints, action.face_before, action.face_after)
        if not game.validate(state, suggested):
            return {"unit": target.id, "name": target.label, "waypoints": [list(p) for p in waypoints],
                    "action": suggested.to_dict()}
    return None
