"""Movement (Game Mechanics 2): rolled, modified, cut for ground and halved for fire.

"Infantry, artillery, and dismounted dragoons move 1d6 in inches. Cavalry, mounted dragoons
move 2d6 in inches. Independent generals move 9 inches. ... Under game play option #3,
roll for movement, modify, divide by two and round up. Oblique movement up to 45
degrees." Modifiers: "Long March = +3, Long March Road = +3, Hedgehog = -3; Difficult
Terrain or Flank move = 1/3 movement", difficult terrain being "plowed fields, marsh,
woods, and each hill step up or across". "When a unit encounters an obstacle (Wall,
stream etc..) during movement, it stops. When next activated, the unit moves without
penalty." "For retrograde movement use game play option 5 (Rally)."

The order of working, as a player at the table works it: the roll, then the additive
modifiers, then a third for difficult ground or a flank move, then half for advance and
fire, rounding up once at the end (a move never goes below nothing). The dice are rolled
when the option is declared, before the player places the unit, so the allowance is
worked out for each kind of ground it might cross; the path placed says which applies:

- **road**: a unit in long march whose whole path and footprint stay on a road gets the
  road's +3 on top of long march's (the text's "Long March Road = +3" read as a further
  bonus, as the name of the line says; option ``road_bonus`` ``on_top``), or, under
  ``included``, long march's +3 alone (the line read as long march's own figure, kept on a
  road);
- **difficult**: a path or footprint touching difficult ground, or a flank move (the path
  strays more than 45 degrees, and no more than 135, from the unit's facing), moves a
  third;
- **open ground** otherwise.

A path straying more than 135 degrees from the facing is retrograde: only under Rally. A
general rides any way he will; only the ground slows him.

>>> work_out(4, ((3, "long march"),), halve=False)
Allowance(roll=4, modifiers=((3, 'long march'),), open_ground=7, difficult=3, road=None)
>>> work_out(5, (), halve=True).open_ground, work_out(5, (), halve=True).difficult
(3, 1)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tertia.core.actions import Move
from tertia.core.geometry import EPSILON, Base, angle_between, heading_vector, swept_polygon
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rules.involuntary import Interpenetration, Slide, plan_slide
from tertia.rules.movement import MovePlan, iter_headings, plan_move
from tertia.rulesets.declare_thee_sir import water
from tertia.rulesets.declare_thee_sir.data import HEDGEHOG, LONG_MARCH, DtsUnit
from tertia.rulesets.declare_thee_sir.readings import ON_TOP, ROAD, of_game
from tertia.rulesets.declare_thee_sir.values import unit_data

GENERAL_MOVE = 9
"""Movement: "Independent generals move 9 inches" (no dice)."""

LONG_MARCH_BONUS = 3
ROAD_BONUS = 3
HEDGEHOG_PENALTY = -3

DIFFICULT: tuple[str, ...] = (TerrainKind.PLOUGHED, TerrainKind.MARSH, TerrainKind.WOODS)
"""Difficult terrain: "plowed fields, marsh, woods" (and each hill step, :func:`crosses_hill_step`)."""

OBSTACLES: tuple[str, ...] = (TerrainKind.WALL, TerrainKind.STREAM, TerrainKind.FENCE, TerrainKind.HEDGE)
"""Obstacles that stop a unit: "Wall, stream etc.", read as every linear barrier the
table knows: walls, streams, fences and hedges."""

OBLIQUE = 45.0
"""Movement: "Oblique movement up to 45 degrees"."""
RETROGRADE = 135.0
"""Beyond this many degrees off its facing a move is rearward: Rally only."""


@dataclass(frozen=True, slots=True)
class Allowance:
    """A rolled move worked out: the ``roll`` (dice total, or 9 for an independent
    general), the additive ``modifiers`` and the whole inches allowed over open ground,
    through difficult ground or on a flank move, and on a road (long march only)."""

    roll: int
    modifiers: tuple[tuple[int, str], ...]
    open_ground: int
    difficult: int
    road: int | None = None


def move_dice(unit: DtsUnit) -> int:
    """How many D6 the unit rolls to move: 1 for foot, artillery and dismounted dragoons,
    2 for cavalry and mounted dragoons; 0 for a general, who moves a fixed 9"."""
    if unit.is_general:
        return 0
    return 2 if unit.is_mounted else 1


def modifiers(unit: DtsUnit) -> tuple[tuple[int, str], ...]:
    """The additive modifiers of the unit's formation (Movement Modifiers)."""
    if unit.formation == LONG_MARCH:
        return ((LONG_MARCH_BONUS, "long march"),)
    if unit.formation == HEDGEHOG:
        return ((HEDGEHOG_PENALTY, "hedgehog"),)
    return ()


def work_out(roll: int, mods: Sequence[tuple[int, str]], *, halve: bool,
             road: bool = False, road_bonus: int = ROAD_BONUS) -> Allowance:
    """The allowance from a roll: add ``mods``; a third on difficult ground; half for
    advance and fire (``halve``); round up once, never below nothing. ``road`` works out
    the long-march road figure too, with ``road_bonus`` more (:func:`road_bonus_in`)."""
    def inches(extra: int, third: bool) -> int:
        total = Fraction(max(0, roll + sum(m for m, _ in mods) + extra))
        if third:
            total /= 3
        if halve:
            total /= 2
        return math.ceil(total)

    return Allowance(roll, tuple(mods), inches(0, False), inches(0, True),
                     inches(road_bonus, False) if road else None)


def road_bonus_in(state: GameState) -> int:
    """The road's bonus to long march in the game in ``state`` (option ``road_bonus``): +3
    on top of long march's, or nothing more."""
    return ROAD_BONUS if of_game(state, ROAD) == ON_TOP else 0


def kind_of_move(table: Battlefield, plan: MovePlan, unit: DtsUnit) -> str:
    """Which allowance a placed path uses: ``"road"``, ``"difficult"`` or ``"open"``
    (see the module's note); ``"retrograde"`` for a path that goes rearward."""
    widest = max((angle_between(h, plan.start.facing) for h in iter_headings(plan)), default=0.0)
    if unit.is_general:
        widest = 0.0  # a general rides where he will: only the ground slows him
    if widest > RETROGRADE + 1e-9:
        return "retrograde"
    areas = plan.swept()
    if widest > OBLIQUE + 1e-9 or any(table.overlaps(k, a) for k in DIFFICULT if table.has(k)
                                       for a in areas) or crosses_hill_step(table, plan):
        return "difficult"
    if unit.formation == LONG_MARCH and table.has(TerrainKind.ROAD) and all(
            on_road(table, a) for a in areas):
        return "road"
    return "open"


GROUND_WORDS = {
    "open": "over open ground",
    "difficult": "through difficult ground or to a flank",
    "road": "by road",
    "retrograde": "rearward",
}
"""How each kind of move reads for a player (a ruler's caption, a unit's card)."""


@dataclass(frozen=True, slots=True)
class PathLimit:
    """The allowance a placed path is held to: its ``kind`` (:func:`kind_of_move`, a turn
    on the spot counted as a flank move) and the ``inches`` the rolled move gives it."""

    kind: str
    inches: int


def limit_of(table: Battlefield, plan: MovePlan, unit: DtsUnit, allowance: Mapping[str, int]) -> PathLimit:
    """The inches of the rolled ``allowance`` (open, difficult, road) a path may use: a
    rearward path (Rally only) the open-ground figure, a turn on the spot a flank move's
    third (a general rides where he will)."""
    kind = kind_of_move(table, plan, unit)
    if plan.turned and kind != "retrograde" and not unit.is_general:
        kind = "difficult"  # a turn on the spot is a move to a flank
    key = kind if kind in ("road", "difficult") else "open"
    return PathLimit(kind, int(allowance.get(key, 0)))


def allowed(allowance: Allowance, kind: str) -> int:
    """The inches a path of ``kind`` may cover."""
    if kind == "road" and allowance.road is not None:
        return allowance.road
    return allowance.difficult if kind == "difficult" else allowance.open_ground


def on_road(table: Battlefield, area: Sequence[tuple[float, float]]) -> bool:
    """Does ``area`` (a footprint or a swept hull) lie on a road: its centre on the road's
    ground (a road is a narrow line, so a column's footprint only ever straddles it)."""
    xs = [p[0] for p in area]
    ys = [p[1] for p in area]
    return table.contains_point(TerrainKind.ROAD, ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))


def crosses_hill_step(table: Battlefield, plan: MovePlan) -> bool:
    """Does the path change hill level ("each hill step up or across"): its start and
    end stand on different heights, or it passes over a hill it neither starts nor ends
    on."""
    if not table.may_meet(TerrainKind.HILL, (plan.start.centre, *plan.points, plan.end.centre)):
        return False  # nowhere near a hill: level ground all the way
    start, end = table.hill_level(plan.start.centre), table.hill_level(plan.end.centre)
    if start != end:
        return True
    return any(table.hill_level(p) != start for p in _along(plan))


def _along(plan: MovePlan, step: float = 0.5) -> Iterator[tuple[float, float]]:
    """Points every ``step`` inches along the centre's path."""
    for a, b in zip(plan.points, plan.points[1:], strict=False):
        n = max(1, math.ceil(math.dist(a, b) / step))
        for i in range(1, n + 1):
            yield (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)


def obstacle_crossed(table: Battlefield, plan: MovePlan) -> str | None:
    """The first obstacle (wall, stream, fence, hedge) the path's swept area meets, if
    any: the unit stops at it (it may end touching it, not on or beyond it)."""
    for kind in OBSTACLES:
        if table.has(kind) and any(table.overlaps(kind, a) for a in plan.swept()):
            return kind
    return None


def at_obstacle(table: Battlefield, corners: Sequence[tuple[float, float]], reach: float = 0.25) -> bool:
    """Does a footprint stand at an obstacle (within ``reach`` inches of one): stopped
    there, it crosses without penalty when next activated."""
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    grown = ((min(xs) - reach, min(ys) - reach), (max(xs) + reach, min(ys) - reach),
             (max(xs) + reach, max(ys) + reach), (min(xs) - reach, max(ys) + reach))
    return any(table.has(k) and table.overlaps(k, grown) for k in OBSTACLES)


STEP = 0.25
"""How finely a straight move stopped by the ground is cut back."""


def straight(unit: Unit, heading: float, distance: float) -> MovePlan:
    """``unit`` going ``distance`` inches along ``heading``, keeping its facing."""
    dx, dy = heading_vector(heading)
    return plan_move(unit, Move(unit=unit.id, waypoints=((unit.x + dx * distance, unit.y + dy * distance),)))


def ground_stop(table: Battlefield, unit: Unit, heading: float, distance: float) -> tuple[float, bool]:
    """How far, up to ``distance``, a straight move whose path nobody chose (a charge
    falling short of a target that evaded, a forlorn hope falling back) goes on the
    ground: on the table, short of water, and up to an obstacle the unit is not already at;
    and whether it ends at an obstacle (as :func:`at_obstacle` says of any move's end)."""
    crossing = unit_data(unit).at_obstacle
    went = distance
    while went > EPSILON:
        plan = straight(unit, heading, went)
        if table.inside_table(plan.end.corners()) and water.wet(table, plan.swept()) is None \
                and (crossing or obstacle_crossed(table, plan) is None):
            break
        went = max(0.0, went - STEP)
    went = max(0.0, went)
    return went, at_obstacle(table, straight(unit, heading, went).end.corners())


def _meets_obstacle(table: Battlefield, start: Base, end: Base) -> bool:
    area = swept_polygon(start, end)
    return any(table.has(k) and table.overlaps(k, area) for k in OBSTACLES)


def short_of_obstacle(table: Battlefield, start: Base, heading: float, distance: float) -> float:
    """How far, up to ``distance``, a base slides from ``start`` along ``heading`` without
    meeting an obstacle: cut back :data:`STEP` at a time (for pieces moved without their
    commander's choosing, under the option ``obstacles_stop`` ``every_move``)."""
    if not any(table.has(k) for k in OBSTACLES):
        return distance
    dx, dy = heading_vector(heading)
    went = distance
    while went > EPSILON:
        if not _meets_obstacle(table, start, start.moved_to(start.x + dx * went, start.y + dy * went)):
            return went
        went = max(0.0, went - STEP)
    return 0.0


def stop_at_obstacle(table: Battlefield, state: GameState, piece: Unit, slide: Slide,
                     policy: Interpenetration, *, ignore: Collection[str] = ()) -> Slide:
    """``slide`` (of ``piece``, from its start) cut back to stop at the first obstacle it
    meets, as at the water's edge; a piece already at one (within the reach of
    :func:`at_obstacle`) crosses it."""
    if at_obstacle(table, slide.start.corners()) or not _meets_obstacle(table, slide.start, slide.end):
        return slide
    wanted = slide.distance
    while True:
        wanted = short_of_obstacle(table, slide.start, slide.heading, wanted)
        again = plan_slide(state, piece, heading=slide.heading, distance=wanted, policy=policy,
                           table=(table.width, table.depth), base=slide.start, ignore=ignore)
        if wanted <= EPSILON or not _meets_obstacle(table, again.start, again.end):
            return again
        wanted = max(0.0, wanted - STEP)  # it went on to clear a friend standing at the obstacle
