"""Candidate moves for players on a free table: the engine validates, these only propose.

On a free-movement table the legal moves cannot be listed, so players propose a move
towards where they want to be and shorten it until ``validate`` accepts it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import (
    Base,
    Point,
    angle_between,
    base_first_contact,
    bearing,
    hypot,
    point_segment_distance,
    radians,
)
from tertia.core.state import GameState, Unit
from tertia.rules.movement import plan_move

SHORTEN_STEPS = 7
MIN_STEP = 0.25


def move_towards(
    game: Game,
    state: GameState,
    unit: Unit,
    goal: Point,
    max_distance: float,
    *,
    face: float | None = None,
    obstacles: Sequence[Base] = (),
    shave: float = 0.0,
    least_first: bool = False,
) -> Move | None:
    """The longest legal straight move (up to ``max_distance``) from ``unit`` towards
    ``goal``, pivoting first to ``face`` if given, stopping short of ``obstacles`` (what
    besides pieces the rule set lets no unit enter), its way measured on the base narrowed
    by ``shave`` (:func:`free_run`); None when no such move is legal. ``least_first``: where
    the whole move is refused, the least step is asked first and, refused too, no other
    (for rules that refuse a longer move whenever they refuse a shorter one on the same
    line, as rules judging the area a base sweeps do).

    With ``least_first``, a line found barred is remembered on the position with the
    reach it was asked: a player shortening its move along the same line (a reach of a
    half, then a quarter) is answered at once, as neither a clear way nor a refused
    least step depends on how far the move would go."""
    barred_key = (("barred line", unit.id, unit.base, goal, face, shave, tuple(obstacles))
                  if least_first else None)
    if barred_key is not None and state.cache.get(barred_key, -1.0) >= max_distance:
        return None
    reach = way_clear(state, unit, goal, max_distance, face=face, obstacles=obstacles, shave=shave)
    if reach < MIN_STEP:
        _remember_barred(state, barred_key, max_distance)
        return None
    ux, uy = _towards(unit, goal)

    def build(d: float) -> Move:
        return Move(unit=unit.id, waypoints=((unit.x + ux * d, unit.y + uy * d),), face_before=face)

    full = build(reach)
    if game.is_legal(state, full):
        return full
    if least_first and not game.is_legal(state, build(MIN_STEP)):
        _remember_barred(state, barred_key, max_distance)
        return None
    return _longest_legal(game, state, build, reach, SHORTEN_STEPS)


def _remember_barred(state: GameState, key: tuple[object, ...] | None, reach: float) -> None:
    """Note on the position that the line under ``key`` is barred to a move of up to
    ``reach`` (and so to any shorter): :func:`move_towards`."""
    if key is not None and state.cache.get(key, -1.0) < reach:
        state.cache[key] = reach


def way_clear(state: GameState, unit: Unit, goal: Point, max_distance: float, *,
              face: float | None = None, obstacles: Sequence[Base] = (), shave: float = 0.0) -> float:
    """How far :func:`move_towards` may take ``unit`` towards ``goal`` (at most
    ``max_distance``, never past the goal) before its way is barred (:func:`free_run`):
    no move it makes is longer. 0 when the goal is nearer than :data:`MIN_STEP`."""
    dx, dy = goal[0] - unit.x, goal[1] - unit.y
    span = hypot(dx, dy)
    if span < MIN_STEP:
        return 0.0
    reach = min(max_distance, span)
    return min(reach, free_run(state, unit, (dx / span, dy / span), reach, face, shave=shave,
                               obstacles=obstacles))


def _towards(unit: Unit, goal: Point) -> Point:
    """The unit vector from the unit's centre to ``goal`` (not at its centre), as
    :func:`way_clear` measures along it."""
    dx, dy = goal[0] - unit.x, goal[1] - unit.y
    span = hypot(dx, dy)
    return dx / span, dy / span


ENEMY_CLEARANCE = 2.98
"""Players stop just inside 3" of the enemy (the rules allow a hair's tolerance)."""


def free_run(
    state: GameState, unit: Unit, direction: Point, reach: float, face: float | None = None,
    *, shave: float = 0.0, among: Iterable[Unit] | None = None, obstacles: Sequence[Base] = (),
) -> float:
    """How far a unit (pivoted first to ``face``, if given) can slide straight along
    ``direction`` before touching another base or reaching 3" of an enemy unit, computed
    exactly; the engine still has the last word. ``shave`` narrows the sliding base by
    that much all round, so that a neighbour it merely touches does not stop it;
    ``among`` limits the pieces looked at (by default every piece in play), nearest
    first being the cheapest; ``obstacles`` are bases besides pieces that stop it at
    contact (a rule set's markers that no unit may enter)."""
    base = Base(unit.x, unit.y, unit.facing if face is None else face,
                max(unit.width - 2 * shave, 0.0), max(unit.depth - 2 * shave, 0.0)) if shave else (
        unit.base if face is None else unit.base.moved_to(unit.x, unit.y, face))
    slide = Slide(base, direction, reach)
    if among is None:
        among = state.near(slide.x0, slide.y0, slide.x1, slide.y1, base.radius + ENEMY_CLEARANCE)
    # no piece stops the slide before its centre distance less both half-diagonals (and
    # its clearance): measured nearest first, the first contacts rule out the rest unmeasured
    bounds: list[tuple[float, float, Unit]] = []
    for other in among:
        if other.id != unit.id:
            clearance = ENEMY_CLEARANCE if other.side != unit.side and not other.is_commander else 0.0
            bound = hypot(other.x - base.x, other.y - base.y) - other.base.radius - base.radius \
                - clearance
            if bound < reach:
                bounds.append((bound, clearance, other))
    bounds.sort(key=_first)
    best = reach
    for bound, clearance, other in bounds:
        if bound >= best:
            break
        best = min(best, slide.contact(other.base, clearance))
    for obstacle in obstacles:
        best = min(best, slide.contact(obstacle, 0.0))
    return max(0.0, best - 1e-6)


def pieces_near(state: GameState, unit: Unit, reach: float) -> list[Unit]:
    """The other pieces in play that a slide of ``unit`` up to ``reach`` inches (in any
    direction, pivoting or not) could meet or come within 3" of, nearest first."""
    found: list[tuple[float, str, Unit]] = []
    x, y = unit.x, unit.y
    for other in state.near(x, y, x, y, reach + ENEMY_CLEARANCE + unit.base.radius):
        if other.id != unit.id:
            d = hypot(other.x - unit.x, other.y - unit.y) - other.base.radius - unit.base.radius
            if d <= reach + ENEMY_CLEARANCE:
                found.append((d, other.id, other))
    found.sort(key=lambda t: (t[0], t[1]))
    return [o for _, _, o in found]


def _first(entry: tuple[float, float, Unit]) -> float:
    return entry[0]


class Slide:
    """A base sliding straight along a unit vector, up to ``reach``."""

    def __init__(self, base: Base, direction: Point, reach: float) -> None:
        self.base = base
        self.direction = direction
        self.start = (base.x, base.y)
        self.end = (base.x + direction[0] * reach, base.y + direction[1] * reach)
        self.x0, self.x1 = min(self.start[0], self.end[0]), max(self.start[0], self.end[0])
        self.y0, self.y1 = min(self.start[1], self.end[1]), max(self.start[1], self.end[1])

    def contact(self, other: Base, clearance: float) -> float:
        """How far the slide goes before coming within ``clearance`` of ``other``
        (``inf`` if it never does). Only what lies within reach of the corridor the slide
        sweeps can stop it: first the corridor's box, then the corridor itself."""
        margin = other.radius + self.base.radius + clearance
        if (other.x < self.x0 - margin or other.x > self.x1 + margin
                or other.y < self.y0 - margin or other.y > self.y1 + margin):
            return math.inf
        if point_segment_distance(other.centre, self.start, self.end) > margin:
            return math.inf
        return base_first_contact(self.base, other, self.direction, clearance)


@dataclass(frozen=True, slots=True)
class Stride:
    """A candidate straight move: its heading, the pivot before it (if any), how far the
    way is clear and how much nearer the goal it brings the unit."""

    heading: float
    face: float | None
    run: float
    progress: float


OBLIQUE_STEPS = (0.0, -22.0, 22.0, -44.0, 44.0)
"""Headings tried off the unit's facing, straight ahead first (a hair inside the 45
degrees a rule set may allow an oblique move)."""


STRIDE_SHORTEN_STEPS = 5
"""Halvings tried on a stride the rules refuse whole (to a 32nd of its run)."""
TOUCHING = 0.05
"""Bases this close are touching: a neighbour in line does not stop a unit's slide (the
rules judge any overlap)."""


STRIDE_ARC = 44.0
"""Degrees either side of the unit's facing (or of ``ahead``) a stride may head, by default."""

TURN_BEYOND = 60.0
"""Degrees off the goal beyond which a stride may turn to face it first, by default."""


def strides(state: GameState, unit: Unit, goal: Point, reach: float, *, arc: float = STRIDE_ARC,
            turn_reach: float = 0.0, turn_beyond: float = TURN_BEYOND, ahead: float | None = None,
            table: tuple[float, float] | None = None, passing: tuple[str, ...] = ()) -> list[Stride]:
    """Straight moves towards ``goal``, best first, judged by how far the way is clear
    (:func:`free_run`: friends stop it at contact, enemies just inside 3"): the heading
    straight at the goal when it lies within ``arc`` degrees of the facing, and headings
    fanned across the arc, each going at most ``reach``; and, when the goal lies more than
    ``turn_beyond`` degrees off, a pivot to face it and a move of ``turn_reach``. The arc
    is about the unit's facing, or about ``ahead`` (a retreat fans about the rear). A
    friend in the way leaves a fanned heading round it; with ``table`` (its width and
    depth) no heading runs off the table; the pieces named in ``passing`` stop no heading
    (those a rule set says are never in a unit's way). Cheap: nothing is validated."""
    found = list(_laid_out(state, unit, goal, reach, arc, turn_reach, turn_beyond, ahead, table, passing))
    found.sort(key=lambda s: -s.progress)
    return found


def makes_headway(state: GameState, unit: Unit, goal: Point, reach: float, least: float, *,
                  ahead: float | None = None, table: tuple[float, float] | None = None) -> bool:
    """Does the best of :func:`strides` bring the unit at least ``least`` inches nearer
    ``goal``? The headings are laid out in the same order, and the first that does ends
    the search."""
    return any(s.progress >= least
               for s in _laid_out(state, unit, goal, reach, STRIDE_ARC, 0.0, TURN_BEYOND, ahead, table, ()))


def _laid_out(state: GameState, unit: Unit, goal: Point, reach: float, arc: float, turn_reach: float,
              turn_beyond: float, ahead: float | None, table: tuple[float, float] | None,
              passing: tuple[str, ...]) -> Iterator[Stride]:
    """:func:`strides` as they are laid out, heading by heading; only the first when it
    runs straight at the goal with nothing in the way (none does better)."""
    start = (unit.x, unit.y)
    span = math.dist(start, goal)
    if span < MIN_STEP:
        return
    towards = bearing(start, goal)
    about = unit.facing if ahead is None else ahead
    headings: list[tuple[float, float | None, float]] = (
        [(towards, None, reach)] if angle_between(towards, about) <= arc else [])
    headings += [((about + d) % 360.0, None, reach) for d in OBLIQUE_STEPS if abs(d) <= arc]
    if turn_reach > 0 and angle_between(towards, unit.facing) > turn_beyond:
        headings.append((towards, towards, turn_reach))
    near = _pieces_near_kept(state, unit, max(most for _, _, most in headings))
    if passing:
        near = [p for p in near if p.id not in passing]
    for i, (heading, face, most) in enumerate(headings):
        ux, uy = math.sin(radians(heading)), math.cos(radians(heading))
        along = (goal[0] - start[0]) * ux + (goal[1] - start[1]) * uy
        run = min(most, max(0.0, along))  # never past the point nearest the goal
        if run >= MIN_STEP and table is not None:
            run = min(run, edge_run(unit.base if face is None else unit.base.moved_to(unit.x, unit.y, face),
                                    (ux, uy), table))
        if run >= MIN_STEP:
            run = _stride_run(state, unit, heading, (ux, uy), run, face, near, passing)
        end = (start[0] + ux * run, start[1] + uy * run)
        yield Stride(heading, face, run, span - math.dist(end, goal))
        if i == 0 and face is None and run >= min(most, along) - 1e-6:
            return  # straight at the goal and nothing in the way: none does better


def _pieces_near_kept(state: GameState, unit: Unit, reach: float) -> list[Unit]:
    """:func:`pieces_near`, remembered on the position (the state never changes)."""
    key = ("pieces near", unit.id, unit.base, reach)
    found: list[Unit] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = pieces_near(state, unit, reach)
    return found


def _stride_run(state: GameState, unit: Unit, heading: float, direction: Point, run: float,
                face: float | None, near: Sequence[Unit], passing: tuple[str, ...]) -> float:
    """How far a stride is clear (:func:`free_run`, the base narrowed by :data:`TOUCHING`),
    remembered on the position: a player weighing several goals lays the same headings
    out again (the fan about the unit's facing does not turn with the goal). ``near``
    holds every piece a slide of ``run`` could meet, and the pieces beyond are passed over
    by :func:`free_run` anyway, so the answer does not depend on which list it was."""
    key = ("stride run", unit.id, unit.base, heading, face, run, passing)
    found: float | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = free_run(state, unit, direction, run, face, shave=TOUCHING, among=near)
    return found


def edge_run(base: Base, direction: Point, table: tuple[float, float]) -> float:
    """How far ``base`` can slide along ``direction`` with every corner on a table of
    ``table`` (width, depth), the origin at its south-west corner."""
    best = math.inf
    for x, y in base.corners():
        for at, d, top in ((x, direction[0], table[0]), (y, direction[1], table[1])):
            if d > 1e-12:
                best = min(best, (top - at) / d)
            elif d < -1e-12:
                best = min(best, -at / d)
    return max(0.0, best - 1e-6)


def stride_move(game: Game, state: GameState, unit: Unit, stride: Stride,
                shorter: float | None = None) -> Move | None:
    """The longest legal move along ``stride``: its whole run, else ``shorter`` (a length
    the rules are likely to allow, such as a move through difficult ground), else
    shortened until the rules accept it; None when no such move of at least
    :data:`MIN_STEP` is legal."""
    ux, uy = math.sin(radians(stride.heading)), math.cos(radians(stride.heading))

    def build(d: float) -> Move:
        return Move(unit=unit.id, waypoints=((unit.x + ux * d, unit.y + uy * d),), face_before=stride.face)

    if stride.run < MIN_STEP:
        return None
    full = build(stride.run)
    if game.is_legal(state, full):
        return full
    hi = stride.run
    if shorter is not None and MIN_STEP <= shorter < stride.run:
        second = build(shorter)
        if game.is_legal(state, second):
            return second
        hi = shorter
    return _longest_legal(game, state, build, hi, STRIDE_SHORTEN_STEPS)


def _longest_legal(game: Game, state: GameState, build: Callable[[float], Move], hi: float,
                   steps: int) -> Move | None:
    """The longest move ``build`` makes that the rules accept, found by halving the span
    from nothing to ``hi`` ``steps`` times; None when none of at least :data:`MIN_STEP` is."""
    lo, best = 0.0, None
    for _ in range(steps):
        mid = (lo + hi) / 2
        candidate = build(mid)
        if game.is_legal(state, candidate):
            best, lo = candidate, mid
        else:
            hi = mid
    return best if best is not None and lo >= MIN_STEP else None


def advance_towards(game: Game, state: GameState, unit: Unit, goal: Point, reach: float, *,
                    arc: float = STRIDE_ARC, turn_reach: float = 0.0, least: float = MIN_STEP,
                    tries: int = 2, ahead: float | None = None,
                    passing: tuple[str, ...] = ()) -> Move | None:
    """The legal move that brings the unit nearest ``goal`` among the best ``tries``
    :func:`strides` (round a friend in the way rather than into it; ``passing``: pieces
    never in its way), each tried at its whole run, then at ``turn_reach`` (the move a
    slower ground or a turn allows), then shorter; None when none gains at least
    ``least`` inches."""
    for stride in strides(state, unit, goal, reach, arc=arc, turn_reach=turn_reach, ahead=ahead,
                          table=(game.table.width, game.table.depth), passing=passing)[:tries]:
        if stride.progress < least:
            break
        move = stride_move(game, state, unit, stride, turn_reach or None)
        if move is not None:
            return move
    return None


def pivot_to(game: Game, state: GameState, unit: Unit, facing: float) -> Move | None:
    """A pivot on the spot, when it is legal and actually turns the unit."""
    if angle_between(unit.facing, facing) < 1.0:
        return None
    move = Move(unit=unit.id, waypoints=(), face_before=facing)
    return move if game.is_legal(state, move) else None



def bearing_to(unit: Unit, p: Point) -> float:
    return bearing((unit.x, unit.y), p)


STRAIGHT_ON = 10.0
"""Degrees off a unit's facing within which its goal lies straight ahead of it."""


def move_past_touching(
    game: Game, state: GameState, unit: Unit, goal: Point, max_distance: float, *,
    face: float | None = None, obstacles: Sequence[Base] = (),
) -> Move | None:
    """:func:`move_towards`; but where that finds no way, the way measured again on the
    base narrowed by :data:`TOUCHING`, so that a neighbour the unit merely touches in line
    does not stop it, and straight on when the goal lies nearly ahead and the unit does
    not pivot first (:func:`straight_on`). For the D3 rules and larger-battles, which judge
    the area a move sweeps: a way whose least step is refused is not measured further
    (``least_first``)."""
    move = move_towards(game, state, unit, goal, max_distance, face=face, obstacles=obstacles,
                        least_first=True)
    if move is not None:
        return move
    aim = goal if face is not None else straight_on(unit, goal)
    return move_towards(game, state, unit, aim, max_distance, face=face, obstacles=obstacles, shave=TOUCHING,
                        least_first=True)


def straight_on(unit: Unit, goal: Point) -> Point:
    """``goal``, or as far straight ahead of ``unit`` when ``goal`` lies within
    :data:`STRAIGHT_ON` of its facing: a unit in line advances straight on, since the
    least slant into a neighbour it touches would overlap it at once."""
    if angle_between(bearing_to(unit, goal), unit.facing) > STRAIGHT_ON:
        return goal
    span = hypot(goal[0] - unit.x, goal[1] - unit.y)
    ahead = radians(unit.facing)
    return (unit.x + math.sin(ahead) * span, unit.y + math.cos(ahead) * span)


DETOURS = (30.0, -30.0, 60.0, -60.0)
"""Degrees off the goal's bearing a unit whose friends bar its way tries, in turn, to go
round them."""


def gain(unit: Unit, goal: Point, move: Move | None) -> float:
    """How much nearer ``goal`` ``move`` would bring ``unit`` (none for no move)."""
    if move is None or not move.waypoints:
        return 0.0
    end = plan_move(unit, move).end
    return hypot(goal[0] - unit.x, goal[1] - unit.y) - hypot(goal[0] - end.x, goal[1] - end.y)


def friend_in_way(state: GameState, unit: Unit, goal: Point, reach: float) -> bool:
    """Does a friend's base lie across ``unit``'s straight way ``reach`` inches towards
    ``goal``?"""
    dx, dy = goal[0] - unit.x, goal[1] - unit.y
    span = math.hypot(dx, dy) or 1.0
    ux, uy = dx / span, dy / span
    for f in state.iter_troops(unit.side):
        if f.id == unit.id:
            continue
        along = (f.x - unit.x) * ux + (f.y - unit.y) * uy
        across = abs((f.x - unit.x) * uy - (f.y - unit.y) * ux)
        clear = f.base.radius + unit.base.radius
        if 0.0 < along <= reach + clear and across < clear:
            return True
    return False


def round_friends(state: GameState, unit: Unit, goal: Point, reach: float, move: Move | None,
                  towards: Callable[[Point], Move | None],
                  accept: Callable[[Move], bool] = lambda move: True,
                  clear: Callable[[Point], float] | None = None) -> Move | None:
    """Round friends in the way: when ``move`` gains less than half of ``reach`` towards
    ``goal`` and a friend's base lies across the unit's straight way
    (:func:`friend_in_way`), the first move ``towards`` a point ``reach`` off along a
    bearing off the goal's by one of :data:`DETOURS` that gains half, else the one that
    gains most, where that is more than ``move`` by an inch; each one ``accept`` takes.

    ``clear`` (how far a move ``towards`` a point can go at most: :func:`way_clear`) lets
    a detour go unasked that could not beat the best so far: a straight move of ``d``
    inches at ``off`` degrees from the goal's bearing comes at most ``d cos(off)`` nearer
    it. The same detours are chosen; fewer are put to the rules."""
    made = gain(unit, goal, move)
    if made >= reach / 2 or not friend_in_way(state, unit, goal, reach):
        return move
    heading = bearing_to(unit, goal)
    best, most = move, made + 1.0
    for off in DETOURS:
        rad = radians(heading + off)
        aim = (unit.x + math.sin(rad) * reach, unit.y + math.cos(rad) * reach)
        if clear is not None and clear(aim) * math.cos(radians(off)) < most - 1e-9:
            continue
        other = towards(aim)
        gained = gain(unit, goal, other)
        if other is not None and gained > most and accept(other):
            best, most = other, gained
            if most >= reach / 2:
                break
    return best


def step_aside(state: GameState, unit: Unit, goal: Point, step: float,
               legal: Callable[[Move], bool],
               accept: Callable[[Move], bool] = lambda move: True) -> Move | None:
    """A step of ``step`` inches square to the unit's facing, to the goal's side first,
    whole or not at all, after which no friend bars its way ``step`` inches on towards
    ``goal`` (:func:`friend_in_way`): for a unit whose friend stands square across its
    front, which no slant gets past (a second line behind its guns). None where no friend
    bars the way now, or no such step is ``legal`` and ``accept``ed. Whether a friend
    bars the way from there is asked first: it costs far less than the rules' verdict."""
    if not friend_in_way(state, unit, goal, step):
        return None
    ahead = radians(unit.facing)
    right = (goal[0] - unit.x) * math.cos(ahead) - (goal[1] - unit.y) * math.sin(ahead) >= 0.0
    for off in (90.0, -90.0) if right else (-90.0, 90.0):
        side = radians(unit.facing + off)
        aim = (unit.x + math.sin(side) * step, unit.y + math.cos(side) * step)
        # the friends stand where they stood: only the unit's own place changes
        if friend_in_way(state, unit.evolve(x=aim[0], y=aim[1]), goal, step):
            continue
        move = Move(unit=unit.id, waypoints=(aim,))
        if legal(move) and accept(move):
            return move
    return None
