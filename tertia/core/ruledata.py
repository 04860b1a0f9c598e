"""A rule set's own values, kept on a unit (:attr:`Unit.own <tertia.core.state.Unit.own>`)
or on the game (:attr:`GameState.own <tertia.core.state.GameState.own>`).

The core knows where a piece stands and whether it is in play; everything else a rule set
counts (hits, ammunition, morale points, figures, a commander's grade, supply bases) is
declared once, by the rule set, as a frozen dataclass deriving from :class:`RuleData`.
Its fields are the one list of what it keeps: serialising, copying, comparing and the
canonical projection all read them from there.

>>> from dataclasses import dataclass
>>> from typing import ClassVar
>>> @dataclass(frozen=True, slots=True)
... class Tally(RuleData):
...     type: ClassVar[str] = "example_tally"
...     hits: int = 0
>>> t = Tally().evolve(hits=2)
>>> t.to_dict(), rule_data_from_dict(t.to_dict()) == t
({'type': 'example_tally', 'hits': 2}, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Self

from tertia.core.tagged import Registry, Tagged, plain


@dataclass(frozen=True, slots=True)
class RuleData(Tagged):
    """Base of a rule set's own values; each subclass registers under its ``type``."""

    type: ClassVar[str] = "rule_data"
    registry: ClassVar[Registry] = {}

    def evolve(self, **changes: Any) -> Self:
        """These values with some changed; a name it does not keep raises TypeError."""
        kept = _NAMES.get(type(self))
        if kept is None:
            kept = _NAMES[type(self)] = frozenset(self.names())
        if not kept.issuperset(changes):
            unknown = sorted(set(changes) - kept)
            raise TypeError(f"{type(self).__name__} keeps no {unknown[0]!r}")
        return replace(self, **changes)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The fields it keeps, in declaration order."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_values(cls, d: Mapping[str, Any]) -> Self:
        """Rebuild from :meth:`values` (JSON lists become the tuples fields hold); a class
        holding records of its own overrides this to rebuild them."""
        return cls(**{name: _frozen(d[name]) for name in cls.names() if name in d})

    def values(self) -> dict[str, Any]:
        """Its fields by name, JSON-ready (a class holding records of its own overrides
        this and :meth:`from_values`)."""
        return {name: plain(getattr(self, name)) for name in self.names()}

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.values()}


def rule_data_from_dict(d: Mapping[str, Any]) -> RuleData:
    """Rebuild a rule set's values from their JSON object (``type`` names the class)."""
    cls = RuleData.registry.get(str(d.get("type")))
    if cls is None or cls is RuleData:
        raise ValueError(f"unknown rule data type {d.get('type')!r}")
    built: RuleData = cls.from_values(d)
    return built


_NAMES: dict[type[RuleData], frozenset[str]] = {}
"""Each class's fields as a set, asked at every change of a value."""


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value
