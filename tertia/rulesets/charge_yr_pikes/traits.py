"""What the rules ask of a unit's Charge yr Pikes! values at almost every step: is it an
officer, a gun, a battery, routed?

Compiled: :class:`~tertia.rulesets.charge_yr_pikes.data.CypUnit` takes these as the
getters of its properties of the same names, so that reading one (from compiled rules and
doctrine above all) runs no Python. They read the values through a protocol of the fields
they need: the class imports this module.
"""

from __future__ import annotations

from typing import Protocol

ROUTED = "routed"
"""The formation of a routed unit (Formations A)."""


class Values(Protocol):
    """The fields of a unit's values these questions read."""

    @property
    def rank(self) -> str | None: ...

    @property
    def gun(self) -> str | None: ...

    @property
    def formation(self) -> str: ...


def is_officer(own: Values) -> bool:
    """An officer: he holds a rank."""
    return own.rank is not None


def is_gun(own: Values) -> bool:
    """A gun of any kind."""
    return own.gun is not None


def is_battery(own: Values) -> bool:
    """A field or heavy gun (a galloper goes with its regiment)."""
    return own.gun in ("field", "heavy")


def routed(own: Values) -> bool:
    """Routed: its formation is :data:`ROUTED`."""
    return own.formation == ROUTED
