"""What stands on the table besides units: supply bases, a baggage train, a vital point.

A rule set keeps such things among its game-wide values and lists them, as
:class:`TableMarker`, from its record's ``table_markers()`` method; maps and the page draw
whatever it lists without knowing what a supply base is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from tertia.core.geometry import Base
from tertia.core.narration import default_side_name
from tertia.core.state import GameState
from tertia.core.violations import with_side_names


@dataclass(frozen=True, slots=True)
class TableMarker:
    """A marker on the table: ``kind`` names what it is, ``label`` how a legend calls
    them ("Supplies"), ``side`` whose it is (``None``: nobody's), ``taken_by`` the side or
    unit that took, raided or destroyed it (``None`` while it stands), and ``name`` how
    players call this one ("the King's Army's central supply base"; empty: the rule set
    names none). The rules, which know no side's name, write each side a name mentions as
    a mention (:func:`~tertia.core.violations.side_whose` ...), which :meth:`named` words."""

    id: str
    kind: str
    label: str
    side: str | None
    x: float
    y: float
    width: float
    depth: float
    taken_by: str | None = None
    name: str = ""

    @property
    def base(self) -> Base:
        return Base(self.x, self.y, 0.0, self.width, self.depth)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def named(self, side_names: Mapping[str, str]) -> TableMarker:
        """This marker with each side its name mentions named as ``side_names`` (side id
        to the battle's name) names it; a side left out, by its id in words."""
        worded = with_side_names(self.name, side_names)
        return self if worded == self.name else replace(self, name=worded)

    def taker(self, state: GameState, side_names: Mapping[str, str]) -> str | None:
        """Who took it, as players call them: a side by the battle's name for it (in
        ``side_names``), a unit of ``state`` by its name, else the id in words; ``None``
        while it stands."""
        if self.taken_by is None:
            return None
        if self.taken_by in side_names:
            return side_names[self.taken_by]
        unit = state.units.get(self.taken_by)
        return unit.label if unit is not None else default_side_name(self.taken_by)


def table_markers(state: GameState, side_names: Mapping[str, str] | None = None) -> tuple[TableMarker, ...]:
    """The markers the rule set keeps on the table (its game-wide record's
    ``table_markers()``; none if it keeps none), each named as players call it, its sides
    by ``side_names`` (side id to the battle's name; a side left out, or all without it,
    by its id in words)."""
    listed = getattr(state.own, "table_markers", None)
    names = side_names or {}
    return tuple(m.named(names) for m in listed()) if callable(listed) else ()
