"""The objectives and vital points panel (section 19 A-C): each side's points, who holds
each as the viewer sees the table, and how far each side stands from a victory by them.

19 C: "If one army has occupied all of its objectives and still holds at least two of its
own vital points, while the other army has not, then that army has won the game." The
panel gives, for each side, its objectives ("to take") and vital points ("to hold"), the
side holding each (:func:`~.points.holder`: a unit in good order within 3", no enemy as
near) and a line counting the objectives occupied and the vital points against what the
victory asks: by default, since one held by neither side is still its side's, those the
enemy has taken (``vital_held``). The viewer's own side comes first.
"""

from __future__ import annotations

from collections.abc import Mapping

from tertia.core.presentation import Panel, PanelContext, PanelItem, PanelSection
from tertia.core.state import GameState
from tertia.core.vocabulary import capitalise
from tertia.rulesets.charge_yr_pikes.points import (
    OBJECTIVE,
    VITAL,
    Place,
    holder,
    objectives_occupied,
    places,
    vital_points_kept,
)
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.victory import KEEP_AT_LEAST, WON_BY_POINTS, has_won

POINTS = "points"
"""The panel's name (the rule set's own, beside the shared blocks' panels)."""


def points_panel(seen: GameState, context: PanelContext, tables: Tables) -> Panel:
    """Each side's objectives and vital points in ``seen`` (the viewer's observation),
    the viewer's side first; empty when the battle has none."""
    sides = sorted(seen.sides, key=lambda side: not context.plays(side))
    sections = tuple(_side_section(seen, context, tables, side) for side in sides if places(seen, side))
    return Panel(sections=sections)


def _side_section(seen: GameState, context: PanelContext, tables: Tables, side: str) -> PanelSection:
    """One side's points, each with its holder, and its standing against 19 C."""
    objectives, vital = places(seen, side, OBJECTIVE), places(seen, side, VITAL)
    items = tuple(_item(seen, context, tables, place) for place in (*objectives, *vital))
    return PanelSection(f"points-{side}", items, "list",
                        title=f"{capitalise(context.whose(side))} objectives and vital points",
                        note=standing(seen, side, tables), side=side)


def standing(seen: GameState, side: str, tables: Tables) -> str:
    """How far ``side`` stands from a victory by its points in ``seen`` (19 C): the
    objectives it occupies and its vital points as the victory counts them
    (:func:`vital_words`), against what the victory asks. Once the battle is over, as the
    result counted them: a victory by the points is judged before the pursuit phase (19 C,
    E), whose moves may leave a point behind."""
    objectives, vital = places(seen, side, OBJECTIVE), places(seen, side, VITAL)
    counted = _counted_at_the_end(seen, side)
    occupied, kept = counted or (objectives_occupied(seen, side, tables),
                                 vital_points_kept(seen, side, tables))
    points = f"{occupied} of {len(objectives)} objectives occupied, {vital_words(kept, len(vital), tables)}"
    if counted is not None:
        return f"{points} as the battle was decided{', before the pursuit' if _won_by_points(seen) else ''}"
    if has_won(seen, side, tables):
        return f"{points}: enough to win, unless the enemy has done as much (19 C)"
    asked = vital_asked(len(vital), tables)
    return f"{points}: a victory asks all {len(objectives)} occupied and {asked} (19 C)"


def vital_words(kept: int, of: int, tables: Tables) -> str:
    """``kept`` of a side's ``of`` vital points, those it "still holds" (19 C), in words true
    to ``vital_held``: where one held by neither side still counts, by those the enemy has
    taken ("1 of 3 vital points taken by the enemy"); else by those the side holds.

    >>> from tertia.rulesets.charge_yr_pikes.tables import default_tables
    >>> vital_words(2, 3, default_tables())
    '1 of 3 vital points taken by the enemy'
    """
    if tables.victory.vital_held == "occupied":
        return f"{kept} of {of} vital points held"
    return f"{of - kept} of {of} vital points taken by the enemy"


def vital_asked(of: int, tables: Tables) -> str:
    """What 19 C asks of a side's ``of`` vital points, in :func:`vital_words`' terms:
    "no more than 1 taken", "none taken", "2 held" (or "2 vital points, more than it
    has").

    >>> from tertia.rulesets.charge_yr_pikes.tables import default_tables
    >>> vital_asked(3, default_tables()), vital_asked(2, default_tables())
    ('no more than 1 taken', 'none taken')
    """
    spare = of - KEEP_AT_LEAST
    if spare < 0:
        return f"{KEEP_AT_LEAST} vital points, more than it has"
    if tables.victory.vital_held == "occupied":
        return f"{KEEP_AT_LEAST} held"
    return "none taken" if spare == 0 else f"no more than {spare} taken"


def _counted_at_the_end(seen: GameState, side: str) -> tuple[int, int] | None:
    """The objectives occupied and vital points kept that the result counted for ``side``
    (:func:`~.victory.end`); None while the battle goes on."""
    breakdown = (seen.result or {}).get("breakdown") or {}
    mine = breakdown.get(side)
    if not isinstance(mine, Mapping) or "objectives_occupied" not in mine:
        return None
    return int(mine["objectives_occupied"]), int(mine["vital_points_held"])


def _won_by_points(seen: GameState) -> bool:
    """Was the battle won by 19 C (its result's reason says so)?"""
    return str((seen.result or {}).get("reason", "")).startswith(WON_BY_POINTS)


def _item(seen: GameState, context: PanelContext, tables: Tables, place: Place) -> PanelItem:
    """A point, by what it is to its side, with the side holding it."""
    held = holder(seen, place, tables)
    what = "Objective" if place.kind == OBJECTIVE else "Vital point"
    return PanelItem(f"{what}: {place.name}", side=place.side, title=ROLES.get(place.role),
                     note="held by neither side" if held is None else f"held by {context.side_name(held)}")


ROLES = {"baggage": "The army's baggage train (19 B)", "retreat": "The army's line of retreat (19 B)"}
"""What a vital point the rules ask for stands for, on hover (19 B: "One VITAL POINT ... must
be the baggage train ... Another ... a road going off the table behind the friendly army,
this represents the army's line of retreat")."""
