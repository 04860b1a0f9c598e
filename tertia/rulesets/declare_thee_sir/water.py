"""Water on a Declare Thee Sir table: lakes, rivers and streams (Game Mechanics 2).

The text names only the stream, among the obstacles: "When a unit encounters an obstacle
(Wall, stream etc..) during movement, it stops. When next activated, the unit moves
without penalty." It says nothing of rivers or lakes.

Read so:

- a **stream** is an obstacle, as the text says
  (:data:`~tertia.rulesets.declare_thee_sir.movement.OBSTACLES`): a move or a charge stops
  at it and crosses it on the unit's next activation;
- a **river** is more than a stream: nothing enters it except where a **ford** or a
  **bridge** crosses it, and there it is crossed as open ground;
- nothing enters a **lake**.

A move or a charge that would enter water is refused; a piece moved without its
commander's choosing (pushed back, routing, pursuing, evading, a forlorn hope going out or
falling back) stops at the water's edge, as it would at an enemy.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from tertia.core.geometry import EPSILON, Base, Polygon, heading_vector, swept_polygon
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.rules.codes import MovementCode
from tertia.rules.involuntary import Interpenetration, Slide, plan_slide

STEP = 0.25
"""How finely a slide stopped by water is cut back."""


def wet(table: Battlefield, areas: Iterable[Polygon]) -> str | None:
    """The water any of ``areas`` enters: ``"lake"``, ``"river"`` (away from its fords and
    bridges) or None."""
    lake = table.has(TerrainKind.LAKE)
    for area in areas:
        if lake and table.overlaps(TerrainKind.LAKE, area):
            return "lake"
        if table.blocks_by_river(area):
            return "river"
    return None


def refusal_code(wet: str) -> str:
    """The code of a refusal to enter ``wet`` water (as :func:`wet` names it): a river's, or
    impassable ground's for a lake."""
    return MovementCode.RIVER if wet == "river" else MovementCode.IMPASSABLE


def has_water(table: Battlefield) -> bool:
    return table.has(TerrainKind.LAKE) or table.has(TerrainKind.RIVER)


def short_of_water(table: Battlefield, start: Base, heading: float, distance: float) -> float:
    """How far, up to ``distance``, a base slides from ``start`` along ``heading`` without
    entering water: cut back :data:`STEP` at a time."""
    if not has_water(table):
        return distance
    went = distance
    while went > EPSILON:
        end = start.moved_to(*_along(start, heading, went))
        if wet(table, (swept_polygon(start, end),)) is None:
            return went
        went = max(0.0, went - STEP)
    return 0.0


def keep_dry(table: Battlefield, state: GameState, piece: Unit, slide: Slide, policy: Interpenetration,
             *, ignore: Collection[str] = ()) -> Slide:
    """``slide`` (of ``piece``, from its start) cut back to stop at the water's edge."""
    if not has_water(table) or wet(table, (swept_polygon(slide.start, slide.end),)) is None:
        return slide
    wanted = slide.distance
    while True:
        wanted = short_of_water(table, slide.start, slide.heading, wanted)
        again = plan_slide(state, piece, heading=slide.heading, distance=wanted, policy=policy,
                           table=(table.width, table.depth), base=slide.start, ignore=ignore)
        if wanted <= EPSILON or wet(table, (swept_polygon(again.start, again.end),)) is None:
            return again
        wanted = max(0.0, wanted - STEP)  # it went on to clear a friend standing in the water's way


def _along(start: Base, heading: float, distance: float) -> tuple[float, float]:
    dx, dy = heading_vector(heading)
    return start.x + dx * distance, start.y + dy * distance
