"""Line of sight across the table: blocked by terrain that hides (woods, towns) and by
other bases in between."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tertia.core.geometry import Point, point_segment_distance
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind

SIGHT_BLOCKERS = (TerrainKind.WOODS, TerrainKind.TOWN)


def has_line_of_sight(
    table: Battlefield,
    state: GameState,
    viewer: Unit,
    target: Unit,
    *,
    blockers: Iterable[str] = SIGHT_BLOCKERS,
) -> bool:
    """Clear line from the viewer's front centre to the target's centre: no blocking ground
    and no other base in between. Ground the viewer or the target stands in does not block
    its own view (troops in a wood see out of it and can be seen)."""
    a = viewer.base.front_centre()
    b = (target.x, target.y)
    hiding = [
        k for k in blockers
        if not table.contains_point(k, (viewer.x, viewer.y)) and not table.contains_point(k, b)
    ]
    if table.line_crosses(hiding, a, b):
        return False
    return not any(True for _ in iter_bases_across(state, a, b, (viewer.id, target.id)))


def iter_bases_across(
    state: GameState, a: Point, b: Point, ignore: tuple[str, ...] = ()
) -> Iterable[Unit]:
    """Pieces in play whose bases (or separated stands) the segment ab passes through."""
    near = state.near(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]), 0.0)
    return bases_across((u for u in near if u.id not in ignore), a, b)


def bases_across(pieces: Iterable[Unit], a: Point, b: Point) -> Iterator[Unit]:
    """Those of ``pieces`` whose bases (or separated stands) the segment ab passes through."""
    sight = (a, b, b)
    for other in pieces:
        # Cheap rejection: the piece's bounding circle is clear of the segment.
        if point_segment_distance((other.x, other.y), a, b) > other.reach:
            continue
        if other.overlaps(sight, 1e-9):
            yield other
