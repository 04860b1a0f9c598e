"""What stands on the table besides units: supply bases, a baggage train, a vital point.

A rule set keeps such things among its game-wide values and lists them, as
:class:`TableMarker`, from its record's ``table_markers()`` method; maps and the page draw
whatever it lists without knowing what a supply base is.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tertia.core.geometry import Base
from tertia.core.state import GameState


@dataclass(frozen=True, slots=True)
class TableMarker:
    """A marker on the table: ``kind`` names what it is, ``label`` how a legend calls
    them ("Supplies"), ``side`` whose it is (``None``: nobody's), and ``taken_by`` the
    unit that took, raided or destroyed it (``None`` while it stands)."""

    id: str
    kind: str
    label: str
    side: str | None
    x: float
    y: float
    width: float
    depth: float
    taken_by: str | None = None

    @property
    def base(self) -> Base:
        return Base(self.x, self.y, 0.0, self.width, self.depth)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def table_markers(state: GameState) -> tuple[TableMarker, ...]:
    """The markers the rule set keeps on the table (its game-wide record's
    ``table_markers()``; none if it keeps none)."""
    listed = getattr(state.own, "table_markers", None)
    return tuple(listed()) if callable(listed) else ()
