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

A value kept for each side is one field made with :func:`per_side`; the game's events
name one side's entry ``"<field>:<side>"`` (:meth:`RuleData.with_value`):

>>> @dataclass(frozen=True, slots=True)
... class Decks(RuleData):
...     type: ClassVar[str] = "example_decks"
...     hand: Mapping[str, Any] = per_side()
>>> d = Decks().with_value("hand:Royalist", ["horse", "foot"])
>>> d.hand, d.lookup("hand:Royalist"), d.keeps("hand:Parliament"), d.keeps("hands")
({'Royalist': ('horse', 'foot')}, ('horse', 'foot'), True, False)
>>> d.flat_values()
{'hand:Royalist': ['horse', 'foot']}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

from tertia.core.records import (
    PER_SIDE,
    fields_of,
    frozen_value,
    lookup,
    replaced,
    slot_of,
    written,
)
from tertia.core.tagged import Registry, Tagged, field_names, plain

_R = TypeVar("_R", bound="RuleData")

def per_side() -> Any:
    """A field holding one value for each side, a mapping by side name; events write and
    rules read one side's entry as ``"<field>:<side>"``."""
    return field(default_factory=dict, metadata={PER_SIDE: True})


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
        return _replaced(self, changes)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The fields it keeps, in declaration order (read once a class)."""
        return field_names(cls)

    @classmethod
    def from_values(cls, d: Mapping[str, Any]) -> Self:
        """Rebuild from :meth:`values` (JSON lists become the tuples fields hold); a class
        holding records of its own overrides this to rebuild them."""
        return cls(**{name: frozen_value(d[name]) for name in cls.names() if name in d})

    @classmethod
    def keeps(cls, key: str) -> bool:
        """Does it keep ``key``: a field's name, or ``"<field>:<side>"`` for a field kept
        per side?"""
        return slot_of(cls, key) is not None

    def lookup(self, key: str) -> Any:
        """The value kept under ``key`` (see :meth:`keeps`); None for a side's entry not
        yet written. A key it does not keep raises KeyError."""
        return lookup(self, key)

    def with_value(self, key: str, value: Any) -> Self:
        """These values with the one under ``key`` replaced (JSON lists are kept as the
        tuples they load back as). A key it does not keep raises KeyError."""
        return self.with_values({key: value})

    def with_values(self, values: Mapping[str, Any]) -> Self:
        """These values with several replaced at once, each as :meth:`with_value` would
        (one copy of the record however many are written)."""
        copy: Self = written(self, values)
        return copy

    def flat_values(self) -> dict[str, Any]:
        """Its values by the keys events write: a field kept per side gives one entry for
        each side, ``"<field>:<side>"`` (the canonical projection reads them so)."""
        out = self.values()
        for name in _per_side_names(type(self)):
            out.update({f"{name}:{side}": plain(v) for side, v in out.pop(name).items()})
        return out

    def values(self) -> dict[str, Any]:
        """Its fields by name, JSON-ready (a class holding records of its own overrides
        this and :meth:`from_values`)."""
        return {name: plain(getattr(self, name)) for name in self.names()}

    def changed_from(self, old: RuleData | None) -> dict[str, Any]:
        """Its values that differ from ``old``'s, JSON-ready as :meth:`values` gives them
        (all of them when ``old`` is None): a change read without writing out the rest."""
        if old is None or type(old) is not type(self):
            kept = {} if old is None else old.values()
            return {name: v for name, v in self.values().items() if kept.get(name) != v}
        return {name: plain(getattr(self, name)) for name in self.names()
                if getattr(self, name) != getattr(old, name)}

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


def _per_side_names(cls: type[RuleData]) -> list[str]:
    return [name for name, each_side in fields_of(cls).items() if each_side]


def _replaced(record: _R, changes: Mapping[str, Any]) -> _R:
    copy: _R = replaced(record, changes)
    return copy
