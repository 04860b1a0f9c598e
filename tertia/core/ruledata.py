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
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self, TypeVar

from tertia.core.tagged import Registry, Tagged, plain

_R = TypeVar("_R", bound="RuleData")

PER_SIDE = "per_side"
"""The metadata flag of a field that holds one value per side (:func:`per_side`)."""


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
        """The fields it keeps, in declaration order."""
        return tuple(f.name for f in fields(cls))

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
        name, side = _checked_slot(type(self), key)
        found = getattr(self, name)
        return found if side is None else found.get(side)

    def with_value(self, key: str, value: Any) -> Self:
        """These values with the one under ``key`` replaced (JSON lists are kept as the
        tuples they load back as). A key it does not keep raises KeyError."""
        name, side = _checked_slot(type(self), key)
        kept = frozen_value(value)
        if side is not None:
            kept = {**getattr(self, name), side: kept}
        return _replaced(self, {name: kept})

    def with_values(self, values: Mapping[str, Any]) -> Self:
        """These values with several replaced at once, each as :meth:`with_value` would
        (one copy of the record however many are written)."""
        changes: dict[str, Any] = {}
        cls = type(self)
        for key, value in values.items():
            name, side = _checked_slot(cls, key)
            kept = frozen_value(value)
            if side is not None:
                kept = {**changes.get(name, getattr(self, name)), side: kept}
            changes[name] = kept
        return _replaced(self, changes)

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


_SLOTS: dict[type[RuleData], dict[str, tuple[str, bool]]] = {}
"""Each class's fields by name, with whether each is kept per side."""

_SLOT_OF: dict[tuple[type[RuleData], str], tuple[str, str | None] | None] = {}
"""Where each key a class was asked for lives (rules ask for the same few keys all game)."""


def _fields_of(cls: type[RuleData]) -> dict[str, tuple[str, bool]]:
    found = _SLOTS.get(cls)
    if found is None:
        found = _SLOTS[cls] = {f.name: (f.name, bool(f.metadata.get(PER_SIDE))) for f in fields(cls)}
    return found


def _per_side_names(cls: type[RuleData]) -> list[str]:
    return [name for name, (_, each_side) in _fields_of(cls).items() if each_side]


def slot_of(cls: type[RuleData], key: str) -> tuple[str, str | None] | None:
    """The field ``key`` names in ``cls`` and the side for a per-side entry; None if the
    class does not keep it."""
    try:
        return _SLOT_OF[(cls, key)]
    except KeyError:
        found = _SLOT_OF[(cls, key)] = _slot(cls, key)
        return found


def _slot(cls: type[RuleData], key: str) -> tuple[str, str | None] | None:
    known = _fields_of(cls)
    whole = known.get(key)
    if whole is not None:
        return None if whole[1] else (key, None)
    name, colon, side = key.partition(":")
    entry = known.get(name)
    return (name, side) if colon and side and entry is not None and entry[1] else None


def _checked_slot(cls: type[RuleData], key: str) -> tuple[str, str | None]:
    found = slot_of(cls, key)
    if found is None:
        raise KeyError(f"{cls.__name__} keeps no {key!r}")
    return found


def _replaced(record: _R, changes: Mapping[str, Any]) -> _R:
    """``record`` with ``changes``: a copy field by field, as :func:`dataclasses.replace`
    makes it but without calling ``__init__`` (no rule-data class checks its fields
    there, and rules change values many times a turn)."""
    cls = type(record)
    new = object.__new__(cls)
    for name in _NAME_LISTS.get(cls) or _name_list(cls):
        object.__setattr__(new, name, changes[name] if name in changes else getattr(record, name))
    return new


_NAME_LISTS: dict[type[RuleData], tuple[str, ...]] = {}


def _name_list(cls: type[RuleData]) -> tuple[str, ...]:
    if "__post_init__" in dir(cls):
        raise TypeError(f"{cls.__name__} checks its fields in __post_init__: change it with replace")
    found = _NAME_LISTS[cls] = cls.names()
    return found


def frozen_value(value: Any) -> Any:
    """``value`` as a rule set's record keeps it: JSON lists become tuples, all the way
    down, so a record equals itself read back from JSON."""
    kind = type(value)
    if kind is tuple:
        for v in value:
            if type(v) is list or type(v) is dict:
                break
        else:
            return value  # already frozen: the rules' own events build tuples of tuples
    if kind is list or kind is tuple:
        return tuple([frozen_value(v) if type(v) in _NESTED else v for v in value])
    if kind is dict or isinstance(value, Mapping):
        return {k: frozen_value(v) if type(v) in _NESTED else v for k, v in value.items()}
    return value


_NESTED = frozenset({list, tuple, dict})
