"""Candidate actions the D3 rule sets (``d3-commands``, ``d3-cards``) share: a spread of
moves, charges, shots and melees for the random player to choose among. Each rule set adds
its own (``d3-cards``' rallies) and answers the decisions its rules await (``d3-commands``'
card orders and deployment) in its own package. The engine judges every one; these only
propose.

Only the side's own observation is read, so no proposal depends on the other side's
secret card order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence

from tertia.ai.moves import Slide
from tertia.ai.observation import playable_view
from tertia.core.actions import Action, Move
from tertia.core.game import Game
from tertia.core.geometry import base_first_contact, bearing, heading_vector
from tertia.core.state import GameState, Unit
from tertia.rules.fighting import Attack, Shoot
from tertia.rulesets.d3.base import D3RuleSet
from tertia.rulesets.d3.contact import enemy_contacts
from tertia.rulesets.d3.troops import MOVE

MOVE_SAMPLES = 5
CHARGE_REACH = 16.0


def activated(game: Game, state: GameState) -> list[Unit]:
    ruleset = game.ruleset
    assert isinstance(ruleset, D3RuleSet)
    return ruleset.activated_units(state)


def charge_towards(state: GameState, unit: Unit, target: Unit, aim: tuple[float, float],
                   among: Iterable[Unit] | None = None) -> Move | None:
    """A straight move at ``aim`` (pivoting first to face it) that stops as it touches
    the first base in its way; None when that base is not ``target``. ``among`` limits
    the pieces looked at for one in the way (by default every piece in play; see
    :func:`charge_blockers`)."""
    heading = bearing((unit.x, unit.y), aim)
    direction = heading_vector(heading)
    facing_aim = unit.base.moved_to(unit.x, unit.y, heading)
    hit = base_first_contact(facing_aim, target.base, direction, 0.0)
    if not math.isfinite(hit) or hit <= 0.0:
        return None
    slide = Slide(facing_aim, direction, hit)
    if among is None:  # only a piece near the path can stand in it
        among = state.near(slide.x0, slide.y0, slide.x1, slide.y1, facing_aim.radius)
    for other in among:
        if other.id not in (unit.id, target.id) and slide.contact(other.base, 0.0) <= hit:
            return None
    stop = max(0.0, hit - 0.01)
    end = (unit.x + direction[0] * stop, unit.y + direction[1] * stop)
    turn = abs(((heading - unit.facing + 180.0) % 360.0) - 180.0)
    return Move(unit=unit.id, waypoints=(end,), face_before=None if turn < 0.5 else heading)


def charge_blockers(state: GameState, unit: Unit, targets: Sequence[Unit]) -> list[Unit]:
    """The pieces in play that could stand in the way of a :func:`charge_towards` of
    ``unit`` at any of ``targets`` (aimed at a point of the target's base), in play order.
    The charge stops at the target, so it goes no further than the target's centre and
    half-diagonal: a piece whose base lies further from the unit's than that cannot be met."""
    if not targets:
        return []
    x, y, r = unit.x, unit.y, unit.base.radius
    furthest = max(math.hypot(t.x - x, t.y - y) + t.base.radius for t in targets)
    return [o for o in state.near(x, y, x, y, furthest + r + BLOCKER_SLACK)
            if math.hypot(o.x - x, o.y - y) - o.base.radius - r <= furthest + BLOCKER_SLACK]


BLOCKER_SLACK = 1e-6
"""Inches added to the cut of :func:`charge_blockers`, against rounding."""


def iter_unit_proposals(game: Game, state: GameState, unit: Unit, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    enemies = list(state.iter_units(state.opponent(unit.side)))
    reach = MOVE[unit.kind]
    for _ in range(MOVE_SAMPLES):
        angle = rng.uniform(0.0, 360.0)
        dist = rng.uniform(0.5, reach)
        turn = rng.choice([None, None, (unit.facing + rng.uniform(-60.0, 60.0)) % 360.0])
        x = unit.x + math.sin(math.radians(angle)) * dist
        y = unit.y + math.cos(math.radians(angle)) * dist
        out.append(Move(unit=unit.id, waypoints=((x, y),), face_before=turn))
    for e in enemies:
        if math.hypot(e.x - unit.x, e.y - unit.y) <= CHARGE_REACH:
            charge = charge_towards(state, unit, e, (e.x, e.y))
            if charge is not None:
                out.append(charge)
        if e.is_commander:
            continue
        out.append(Shoot(unit=unit.id, target=e.id))
    out.extend(Attack(attacker=unit.id, target=e.id) for e in enemy_contacts(state, unit))
    return out


Answers = Callable[[Game, GameState, random.Random], list[Action]]
"""A rule set's answers to the decision its rules await, from the side's view."""
UnitExtras = Callable[[GameState, Unit], list[Action]]
"""A rule set's own candidates for one activated unit (no random draws)."""


def no_answers(game: Game, view: GameState, rng: random.Random) -> list[Action]:
    """For a rule set whose rules await no decision of their own."""
    return []


def no_extras(view: GameState, unit: Unit) -> list[Action]:
    """For a rule set with no candidates beyond the shared ones."""
    return []


def iter_proposals(game: Game, state: GameState, rng: random.Random, *,
                   answers: Answers = no_answers, extras: UnitExtras = no_extras) -> list[Action]:
    """Candidates for the side the state awaits, from its own observation: the rule set's
    ``answers`` while a decision is awaited, else each activated unit's shared candidates
    followed by the rule set's ``extras`` for it."""
    view = playable_view(game, state, rng)
    if view.pending is not None:
        return answers(game, view, rng)
    out: list[Action] = []
    for unit in activated(game, view):
        out.extend(iter_unit_proposals(game, view, unit, rng))
        out.extend(extras(view, unit))
    return out
