"""A unit's stands where they stand: laid out by its formation about its centre (Game
Mechanics I), for ranges "to closest stand edge" and arcs of fire (4).

Line puts every stand side by side, long march one behind another (a gun "turned
sideways"), hedgehog two abreast (:mod:`tertia.rules.formations`). A formation this module
does not know is laid out as a line, as the forlorn hope is (Optional Rules a: "form in
line"); a caracole stands two abreast with the rest behind.

>>> from tertia.core.state import Unit, UnitKind
>>> from tertia.rulesets.declare_thee_sir.data import DtsUnit
>>> foot = Unit("f", "a", UnitKind.FOOT, "centre", 10.0, 10.0, 0.0, 4.5, 1.0,
...             own=DtsUnit(stands_left=3))
>>> [(s.x, s.y) for s in stands_of(foot)]
[(8.5, 10.0), (10.0, 10.0), (11.5, 10.0)]
"""

from __future__ import annotations

from tertia.core.geometry import Base
from tertia.core.state import Unit
from tertia.rules.formations import COLUMN, HEDGEHOG, LINE, Formation, stand_bases
from tertia.rulesets.declare_thee_sir import data
from tertia.rulesets.declare_thee_sir.values import unit_data

CARACOLE_LAYOUT = Formation("caracole", 2)
"""Optional Rules b: "Place two stands in line ... Additional unit stands are placed arced
behind": two abreast, the rest behind them."""

LAYOUTS: dict[str, Formation] = {data.LINE: LINE, data.LONG_MARCH: COLUMN, data.HEDGEHOG: HEDGEHOG,
                                 data.CARACOLE: CARACOLE_LAYOUT, data.FORLORN_HOPE: LINE}
"""How each formation stands: line side by side (a), long march front to rear (b),
hedgehog compact, two abreast (c); the optional caracole and forlorn hope (in line)."""


def stands_of(unit: Unit) -> tuple[Base, ...]:
    """``unit``'s stands, front rank first and left to right; those of a routing unit
    where each has fled (its flag stand first)."""
    if unit.stands:
        return tuple(s.base for s in unit.stands if s.removed is None)
    own = unit_data(unit)
    if own.is_gun and own.formation == data.LONG_MARCH:
        # Formations b: "Artillery turned sideways".
        return (Base(unit.x, unit.y, unit.facing, own.stand_depth, own.stand_width),)
    layout = LAYOUTS.get(own.formation, LINE)
    return stand_bases(unit.x, unit.y, unit.facing, layout, own.stands_left, own.stand_width,
                       own.stand_depth)
