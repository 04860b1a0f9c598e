"""Frozen value objects that serialise to JSON objects tagged with their ``type``: the
common form of actions and events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any, ClassVar

Registry = dict[str, type[Any]]
"""Type names to classes, one per family."""


def plain(value: Any) -> Any:
    """A field value as JSON-ready data: tuples of points become lists of lists, tuples of
    tagged values lists of their JSON objects."""
    if isinstance(value, tuple):
        return [list(p) if isinstance(p, tuple) else p.to_dict() if isinstance(p, Tagged) else p
                for p in value]
    if isinstance(value, Mapping):
        return dict(value)
    return value


class Tagged:
    """Base of a family of dataclasses registered by their ``type`` name.

    A family root sets ``registry = {}``; each subclass then registers itself there.
    """

    __slots__ = ()
    type: ClassVar[str]
    registry: ClassVar[Registry]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "registry" not in cls.__dict__:
            known = cls.registry.get(cls.type)
            # ``dataclass(slots=True)`` builds the class twice: the copy replaces the first.
            same = known is not None and (known.__module__, known.__qualname__) == (
                cls.__module__, cls.__qualname__)
            if known is not None and not same:
                # A second class under one name would silently take over records saved
                # with the first: refuse it where it is defined.
                raise TypeError(f"{cls.__module__}.{cls.__qualname__} takes the type name {cls.type!r}, "
                                f"already {known.__module__}.{known.__qualname__}'s")
            cls.registry[cls.type] = cls

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for name in field_names(type(self)):
            data[name] = plain(getattr(self, name))
        return data


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each dataclass's fields in declaration order, read once a class."""


def field_names(cls: type) -> tuple[str, ...]:
    """The names of a dataclass's fields in declaration order (read once a class)."""
    found = _FIELD_NAMES.get(cls)
    if found is None:
        found = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return found
