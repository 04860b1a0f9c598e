"""Involuntary moves: a piece pushed back, falling back, fleeing or pursuing, in a straight
line it does not choose, and what it meets on the way.

Served first by Declare Thee Sir (Melee: "PB1D6 and PB2D6 indicate target is pushed back
that many inches in good order facing the foe"; "Roll 2D6 for each unit stand and move that
many inches away from foe"; "The victorious attacking unit will pursue the routing unit
1D6"; Movement: "Units that move or rout through another unit cause a moral check ... on
each unit involved"), and written for Charge yr Pikes!' fall-backs, routs and pursuits
("being passed through by a falling-back friend").

A slide keeps the piece's facing and follows one heading. What it meets depends on an
:class:`Interpenetration` policy: it may pass through friends (and the slide reports whom,
so the rules can test their morale), stop at the first piece in its way, or not move at
all. A slide never ends inside a friend it passes through: it goes on until clear of it
(the rule set reads ``distance`` to see how far that took it). An enemy always stops it,
in contact. Leaving the table is reported, not prevented: what follows is the rules'.

>>> from tertia.core.state import GameState, Unit, UnitKind
>>> def foot(uid, side, y):
...     return Unit(uid, side, UnitKind.FOOT, "centre", 10.0, y, 0.0, 4.0, 2.0)
>>> state = GameState(("a", "b"), 1, "a", "play",
...                   {u.id: u for u in (foot("me", "a", 10.0), foot("friend", "a", 7.0))})
>>> slide = plan_slide(state, state.units["me"], heading=180.0, distance=2.0,
...                    policy=Interpenetration.PASS_FRIENDS, table=(48.0, 36.0))
>>> slide.passed_through, slide.distance, slide.end.y
(('friend',), 5.0, 5.0)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tertia.core.events import UnitMoved
from tertia.core.geometry import EPSILON, Base, bearing, first_contact, heading_vector, polygons_overlap
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit


class Interpenetration(StrEnum):
    """What a piece sliding involuntarily does about the pieces in its way."""

    PASS_FRIENDS = "pass-friends"
    """Passes through friends (reported in ``passed_through``); stops at an enemy."""
    STOP = "stop"
    """Stops in contact with the first piece in its way, friend or foe."""
    BLOCKED = "blocked"
    """Does not move at all if any piece is in its way."""


@dataclass(frozen=True, slots=True)
class Slide:
    """Where a slide ends and what it met: ``distance`` is how far it went (more than
    ``wanted`` when it had to clear a friend, less when stopped), ``passed_through`` the
    friends it went through, in order, ``stopped_by`` the piece that stopped it short,
    ``off_table`` whether its end lies (partly) beyond the table's edge."""

    start: Base
    end: Base
    heading: float
    wanted: float
    distance: float
    passed_through: tuple[str, ...] = ()
    stopped_by: str | None = None
    off_table: bool = False

    @property
    def path(self) -> tuple[tuple[float, float], tuple[float, float]]:
        return (self.start.centre, self.end.centre)


def away_from(foe: Base, piece: Base) -> float:
    """The heading straight away from ``foe``: centre to centre ("away from foe").

    >>> away_from(Base(0, 10, 180, 4, 2), Base(0, 7, 0, 4, 2))
    180.0
    """
    return bearing(foe.centre, piece.centre)


def towards(piece: Base, goal: Base) -> float:
    """The heading from ``piece`` straight at ``goal`` (a pursuit, a countercharge)."""
    return bearing(piece.centre, goal.centre)


def plan_slide(
    state: GameState,
    piece: Unit,
    *,
    heading: float,
    distance: float,
    policy: Interpenetration,
    table: tuple[float, float],
    base: Base | None = None,
    ignore: Collection[str] = (),
) -> Slide:
    """Slide ``piece`` (or one of its stands, ``base``) ``distance`` inches along
    ``heading`` without turning, among the other pieces in play except ``ignore``;
    ``table`` is its (width, depth)."""
    start = piece.base if base is None else base
    direction = heading_vector(heading)
    passing = policy is Interpenetration.PASS_FRIENDS
    searched = distance
    meets = _in_the_way(state, piece, start, direction, searched, ignore, passing=passing)
    went, passed, stopper = _how_far(piece, start, direction, distance, meets, policy)
    while went > searched + EPSILON:
        # Going on to clear a friend, it may meet pieces beyond the distance it wanted:
        # they are looked for as far as it now goes, until no further piece is met.
        searched = went
        meets = _in_the_way(state, piece, start, direction, searched, ignore, passing=passing)
        went, passed, stopper = _how_far(piece, start, direction, distance, meets, policy)
    went = round(went, 9) + 0.0
    end = _shifted(start, direction, went)
    return Slide(start, end, heading % 360.0, distance, went, passed, stopper, _beyond(end, table))


def plan_scatter(
    state: GameState,
    piece: Unit,
    stands: Sequence[Base],
    distances: Sequence[float],
    *,
    heading: float,
    policy: Interpenetration,
    table: tuple[float, float],
) -> tuple[Slide, ...]:
    """Each of a unit's ``stands`` slides its own distance along ``heading`` ("roll 2D6 for
    each unit stand and move that many inches"), each judged alone against the other
    pieces; the unit's own stands never block each other."""
    if len(stands) != len(distances):
        raise ValueError(f"{len(stands)} stands but {len(distances)} distances")
    return tuple(plan_slide(state, piece, heading=heading, distance=d, policy=policy, table=table,
                            base=s) for s, d in zip(stands, distances, strict=True))


def on_table(base: Base, table: tuple[float, float]) -> bool:
    """Does ``base`` lie wholly on a table (width, depth), to the contact tolerance?"""
    return not _beyond(base, table)


def placed_on_table(base: Base, table: tuple[float, float], margin: float = EPSILON) -> Base:
    """``base`` moved the least way that puts it wholly on a table (width, depth), ``margin``
    inside any edge it had crossed (as it is when it is on the table already).

    >>> placed_on_table(Base(1.0, 10.0, 0.0, 4.0, 2.0), (48.0, 36.0)).x
    2.000001
    """
    xs = [x for x, _ in base.corners()]
    ys = [y for _, y in base.corners()]
    dx = _inward(min(xs), max(xs), table[0], margin)
    dy = _inward(min(ys), max(ys), table[1], margin)
    if dx == 0.0 and dy == 0.0:
        return base
    return base.moved_to(base.x + dx, base.y + dy)


def _inward(low: float, high: float, size: float, margin: float) -> float:
    if low < -EPSILON:
        return -low + margin
    if high > size + EPSILON:
        return size - high - margin
    return 0.0


@dataclass(frozen=True, slots=True)
class FacingFrom:
    """Where a piece turned to face a target stands to do so: ``start``, its base there;
    ``back``, how far straight back of where it turned that is (0 when it turned clear of
    the target); ``blocked_by``, the piece that keeps it from facing the target there: the
    one behind it that kept it from standing back (and ``start`` then where that piece
    stopped it), or another it would stand over."""

    start: Base
    back: float
    blocked_by: str | None = None


def facing_from_clear(state: GameState, turned: Unit, target: Unit, table: tuple[float, float],
                      ignore: Collection[str] = ()) -> FacingFrom:
    """Where ``turned`` (a charger turned where it stands to face ``target``) stands to face
    it: where it is, unless it would stand over the target (beside it, at an angle; or
    over any of its stands, where they stand apart); then just clear of it, straight back,
    unless a piece behind (``ignore`` aside) is in the way. Either way it may not stand
    over another piece (``ignore``, generals and officers aside): that piece blocks it."""
    base = turned.base
    away = heading_vector(base.facing + 180.0)
    back, start = 0.0, base
    over = _stands_over(start, target)
    while over:  # clear of the target's stands it stood over, it may stand over another of them
        further = max(_clear_of(base, f, away, 0.0) for f in over)
        if further <= back:
            break
        back = further
        start = _shifted(base, away, back)
        over = _stands_over(start, target)
    if back > 0.0:
        behind = plan_slide(state, turned, heading=base.facing + 180.0, distance=back,
                            policy=Interpenetration.STOP, table=table, ignore={*ignore, target.id})
        if behind.stopped_by is not None:
            return FacingFrom(behind.end, back, behind.stopped_by)
        ux, uy = heading_vector(base.facing)
        start = base.moved_to(base.x - ux * back, base.y - uy * back)
    under = piece_under(state, start, {*ignore, turned.id, target.id}, commanders=False,
                        tolerance=TURNED_TOUCHING)
    return FacingFrom(start, back, None if under is None else under.id)


def _stands_over(base: Base, target: Unit) -> list[Base]:
    """The footprints of ``target`` (its base, or its stands apart) a piece at ``base`` stands over."""
    corners = base.corners()
    return [f for f in target.footprints if polygons_overlap(corners, f.corners())]


def stands_on(state: GameState, base: Base, ignore: Collection[str], *, commanders: bool = True) -> bool:
    """Would a piece standing at ``base`` stand on another piece in play (those in
    ``ignore`` aside, and generals and officers unless ``commanders``)?"""
    return piece_under(state, base, ignore, commanders=commanders) is not None


def piece_under(state: GameState, base: Base, ignore: Collection[str], *,
                commanders: bool = True, tolerance: float = EPSILON) -> Unit | None:
    """The first piece in play (in the order of ``iter_units``) a piece standing at
    ``base`` would stand on (overlap by more than ``tolerance`` inches), those in
    ``ignore`` aside, and generals and officers unless ``commanders``; None when there is
    none."""
    corners = base.corners()
    for o in state.near(base.x, base.y, base.x, base.y, base.radius):
        if o.id not in ignore and (commanders or not o.is_commander) and o.overlaps(corners, tolerance):
            return o
    return None


TURNED_TOUCHING = 0.01
"""Inches a piece turned where it stands may come over another and still only touch it:
a turn on the spot is made by eye at the table, and a corner a hair over a neighbour's
edge is a touch."""


def nearest_clear(state: GameState, piece_id: str, base: Base, across: tuple[float, float],
                  back: tuple[float, float], reach_across: float, reach_back: float,
                  table: tuple[float, float], step: float = 0.25) -> Base | None:
    """The place nearest ``base`` (by how far it is shifted) where piece ``piece_id`` stands
    wholly on the table and on no other piece in play (generals and officers aside: they
    stand among their troops, :func:`stands_on`): ``base`` itself, else shifted along
    ``across`` either way (at most ``reach_across``) and along ``back`` (at most
    ``reach_back``), in steps of ``step``; None when there is no such place."""
    n, m = int(reach_across / step), int(reach_back / step)
    shifts = sorted(((i * step, j * step) for i in range(-n, n + 1) for j in range(m + 1)),
                    key=_nearest_first)
    ignore = (piece_id,)
    for a, b in shifts:
        spot = base.moved_to(base.x + across[0] * a + back[0] * b, base.y + across[1] * a + back[1] * b)
        if on_table(spot, table) and not stands_on(state, spot, ignore, commanders=False):
            return spot
    return None


def _nearest_first(shift: tuple[float, float]) -> tuple[float, float, float]:
    """Shifts ordered by their length, then the least back, then along."""
    return (math.hypot(shift[0], shift[1]), shift[1], shift[0])


def carry_out(tx: Tx, unit_id: str, slide: Slide, reason: str) -> None:
    """Move the piece to the slide's end (nothing when it went nowhere)."""
    if slide.distance > EPSILON:
        tx.emit(UnitMoved(unit=unit_id, path=slide.path, facing=slide.end.facing, reason=reason))


# --- internals ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Met:
    """A piece in the way: it is first touched at ``enter`` and left behind at ``leave``
    (worked out only for a slide that may pass through it; else ``enter``)."""

    unit: Unit
    enter: float
    leave: float


def _in_the_way(state: GameState, piece: Unit, start: Base, direction: tuple[float, float],
                distance: float, ignore: Collection[str], *, passing: bool) -> list[_Met]:
    """The pieces the slide meets, first met first. A slide that cannot pass through
    pieces stops at the first, so only those that could be met as early are measured."""
    dx, dy = direction
    near_line: list[tuple[float, Unit, Base]] = []
    ex, ey = start.x + dx * distance, start.y + dy * distance
    for other in state.near(min(start.x, ex), min(start.y, ey), max(start.x, ex), max(start.y, ey),
                            start.radius + EPSILON):
        if other.id == piece.id or other.id in ignore:
            continue
        for footprint in other.footprints:
            # Only a footprint whose circle the slide's corridor sweeps can be touched: its
            # centre within both radii of the line travelled, and not wholly behind or beyond it.
            near = start.radius + footprint.radius + EPSILON
            ox, oy = footprint.x - start.x, footprint.y - start.y
            along = ox * dx + oy * dy
            if abs(ox * dy - oy * dx) > near or along < -near or along > distance + near:
                continue
            near_line.append((along - near, other, footprint))  # it cannot be met any sooner
    if not passing:
        near_line.sort(key=lambda n: n[0])
    first = distance
    met: dict[str, _Met] = {}
    for soonest, other, footprint in near_line:
        if not passing and soonest > first + EPSILON:
            break
        enter = first_contact(start.corners(), footprint.corners(), direction, 0.0)
        if enter >= distance - EPSILON:
            continue
        first = min(first, enter)
        leave = _clear_of(start, footprint, direction, enter) if passing else enter
        was = met.get(other.id)
        # a piece whose stands stand apart is met at its first stand and left at its last
        met[other.id] = _Met(other, enter, leave) if was is None else \
            _Met(other, min(was.enter, enter), max(was.leave, leave))
    return sorted(met.values(), key=lambda m: (m.enter, m.unit.id))


def _clear_of(start: Base, other: Base, direction: tuple[float, float], enter: float) -> float:
    """How far the slide must go to leave ``other`` wholly behind: slide back from well
    beyond it until they touch."""
    far = enter + 2.0 * (start.radius + other.radius) + 1.0
    beyond = _shifted(start, direction, far)
    back = first_contact(beyond.corners(), other.corners(), (-direction[0], -direction[1]), 0.0)
    return far - back


def _how_far(piece: Unit, start: Base, direction: tuple[float, float], distance: float,
             meets: list[_Met], policy: Interpenetration) -> tuple[float, tuple[str, ...], str | None]:
    if not meets:
        return distance, (), None
    if policy is Interpenetration.BLOCKED:
        return 0.0, (), meets[0].unit.id
    if policy is Interpenetration.STOP:
        return max(0.0, meets[0].enter), (), meets[0].unit.id
    went = distance
    passed: list[_Met] = []
    for m in meets:
        if m.enter >= went - EPSILON:
            break
        if m.unit.side != piece.side:
            # An enemy stops it; never inside a friend it was passing through.
            stop = m.enter
            for p in reversed(passed):
                if stop < p.leave - EPSILON:
                    stop = p.enter
            kept = tuple(p.unit.id for p in passed if p.leave <= stop + EPSILON)
            return max(0.0, stop), kept, m.unit.id
        passed.append(m)
        went = max(went, m.leave)
    return went, tuple(p.unit.id for p in passed), None


def _shifted(base: Base, direction: tuple[float, float], distance: float) -> Base:
    return base.moved_to(round(base.x + direction[0] * distance, 9) + 0.0,
                         round(base.y + direction[1] * distance, 9) + 0.0)


def _beyond(base: Base, table: tuple[float, float]) -> bool:
    width, depth = table
    return any(x < -EPSILON or y < -EPSILON or x > width + EPSILON or y > depth + EPSILON
               for x, y in base.corners())
