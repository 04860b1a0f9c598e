"""What a unit may fire at and how far (Game Mechanics 4, 4a).

"They are both direct fire at visible targets with a 45* arc of fire. First declare
target, determine if in range (to closest stand edge)." Ranges: "Infantry and dismounted
dragoons fire 6 in + 1D6. Mounted fire 3 in + 1D6. Artillery fire 18 in + 1D6."

The range is rolled for each shot (:func:`~tertia.rulesets.declare_thee_sir.fire.roll_range`:
this module is compiled, and never touches a die). The target must lie in the arc of at
least one of the firer's stands and be seen by it; the range is measured from the nearest
such stand's edge to the nearest target stand's edge. Read so:

- **arc**: 45 degrees either side of straight ahead from each stand's front edge
  (:func:`tertia.rules.formations.stands_in_arc`), a target stand in it counting.
- **visible**: the line from the firing stand's front centre to the target stand's centre
  crosses no woods or town (unless either stand's centre is in that ground: troops in a
  wood see out and are seen) and no other unit's base (as
  :func:`tertia.rules.sight.has_line_of_sight` judges a whole unit). Command stands block
  neither sight nor fire.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tertia.core.geometry import Base, base_distance, bounding_box
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rules.formations import stands_in_arc
from tertia.rules.sight import SIGHT_BLOCKERS, bases_across
from tertia.rulesets.declare_thee_sir.data import DtsUnit
from tertia.rulesets.declare_thee_sir.stands import stands_of
from tertia.rulesets.declare_thee_sir.values import unit_data

FIRE_ARC = 45.0
"""Fire: "a 45* arc of fire", degrees either side of straight ahead."""
FOOT_RANGE = 6
MOUNTED_RANGE = 3
ARTILLERY_RANGE = 18


def base_range(unit: DtsUnit) -> int:
    """Ranges (4a), before the D6: artillery 18", mounted troops (horse, mounted dragoons)
    3", infantry (foot, commanded shot) and dismounted dragoons 6". Generals do not fire."""
    if unit.is_general:
        raise ValueError("generals do not fire")
    if unit.is_gun:
        return ARTILLERY_RANGE
    return MOUNTED_RANGE if unit.is_mounted else FOOT_RANGE


@dataclass(frozen=True, slots=True)
class LineOfFire:
    """A firing stand (by index) that has a target stand in its arc and in sight, and the
    distance between their edges."""

    stand: int
    target_stand: int
    distance: float


def lines_of_fire(table: Battlefield, state: GameState, firer: Unit, target: Unit
                  ) -> tuple[LineOfFire, ...]:
    """Every pair of a firer's stand and a target's stand it may fire at. Remembered
    while no piece moves, arrives or leaves (``GameState.remember``, over the whole
    table), for the same firer and target: the commander's declaration, the doctrine and
    each volley ask the same lines. What else the lines depend on cannot change without
    a piece moving, arriving or leaving (the pieces that screen them, where they stand;
    which pieces are command stands, who never become troops)."""
    key = (_LINES, firer.id, target.id)
    held: _Held | None = state.recall(key, firer)
    if held is not None and held[0] is table and held[1] is firer and held[2] is target:
        return held[3]
    ours, theirs = stands_of(firer), stands_of(target)
    screens = _screens(state, (firer.id, target.id), (*ours, *theirs))
    out: list[LineOfFire] = []
    for j, aim in enumerate(theirs):
        for i in stands_in_arc(ours, aim, FIRE_ARC):
            if _sees(table, ours[i], aim, screens):
                out.append(LineOfFire(i, j, base_distance(ours[i], aim)))
    found = tuple(out)
    state.remember(key, firer, math.inf, (table, firer, target, found))
    return found


_LINES = "declare-thee-sir lines of fire"
_Held = tuple[Battlefield, Unit, Unit, tuple[LineOfFire, ...]]
"""What a position remembers of a firer's lines: the table, the firer and the target, as
they were, and the lines."""


def fire_distance(table: Battlefield, state: GameState, firer: Unit, target: Unit) -> float | None:
    """The range to measure, closest stand edge to closest stand edge over the lines of
    fire; ``None`` when no stand of the firer may fire at the target (out of arc or out
    of sight)."""
    lines = lines_of_fire(table, state, firer, target)
    return min(line.distance for line in lines) if lines else None


def _screens(state: GameState, ends: tuple[str, ...], stands: tuple[Base, ...]) -> list[Unit]:
    """The pieces that could stand in a line between any two of ``stands``: every piece
    in play but the units at the ``ends`` and command stands (which block neither sight
    nor fire) whose base or separated stands come within the box about those stands
    (every such line lies in that box), in the order of ``iter_units``."""
    x0, y0, x1, y1 = bounding_box([corner for s in stands for corner in s.corners()])
    return [u for u in state.near(x0, y0, x1, y1, 0.0)
            if x0 - u.reach <= u.x <= x1 + u.reach and y0 - u.reach <= u.y <= y1 + u.reach
            and u.id not in ends and not unit_data(u).is_general]


def _sees(table: Battlefield, stand: Base, aim: Base, screens: list[Unit]) -> bool:
    a, b = stand.front_centre(), aim.centre
    hiding = [k for k in SIGHT_BLOCKERS
              if not table.contains_point(k, stand.centre) and not table.contains_point(k, b)]
    if table.line_crosses(hiding, a, b):
        return False
    return not any(True for _ in bases_across(screens, a, b))
