"""Reading and copying a rule set's frozen records (:mod:`tertia.core.ruledata`) by the
keys the game's events write: a field's name, or ``"<field>:<side>"`` for a field kept
per side.

Rules read and write these values many times a turn, so the work lives here, in a module
compiled with the hot ones, and takes any frozen dataclass: records are copied field by
field without calling their ``__init__`` (no record class checks its fields there).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

PER_SIDE = "per_side"
"""The metadata flag of a field that holds one value per side."""

_FIELDS: dict[type, dict[str, bool]] = {}
"""Each record class's fields in order, with whether each is kept per side."""

_SLOT_OF: dict[type, dict[str, tuple[str, str | None] | None]] = {}
"""Where each key a class was asked for lives (rules ask for the same few keys all game)."""


_COPIED: dict[type, tuple[str, ...]] = {}
"""The fields :func:`replaced` copies, for each class it has copied."""


def fields_of(cls: type) -> dict[str, bool]:
    """``cls``'s fields in declaration order, each with whether it is kept per side."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = {f.name: bool(f.metadata.get(PER_SIDE)) for f in fields(cls)}
    return found


def slot_of(cls: type, key: str) -> tuple[str, str | None] | None:
    """The field ``key`` names in ``cls`` and the side for a per-side entry; None if the
    class does not keep it."""
    known_keys = _SLOT_OF.get(cls)
    if known_keys is None:
        known_keys = _SLOT_OF[cls] = {}
    elif key in known_keys:
        return known_keys[key]
    known = fields_of(cls)
    found: tuple[str, str | None] | None
    if key in known:
        found = None if known[key] else (key, None)
    else:
        name, colon, side = key.partition(":")
        found = (name, side) if colon and side and known.get(name) else None
    known_keys[key] = found
    return found


def checked_slot(cls: type, key: str) -> tuple[str, str | None]:
    """:func:`slot_of`, raising KeyError for a key ``cls`` does not keep."""
    found = slot_of(cls, key)
    if found is None:
        raise KeyError(f"{cls.__name__} keeps no {key!r}")
    return found


def lookup(record: Any, key: str, default: Any = None) -> Any:
    """The value ``record`` keeps under ``key`` (``default`` for a side's entry not yet
    written); a key it does not keep raises KeyError."""
    name, side = checked_slot(type(record), key)
    found = getattr(record, name)
    if side is not None:
        found = found.get(side)
    return default if found is None else found


def replaced(record: Any, changes: Mapping[str, Any]) -> Any:
    """``record`` with the fields in ``changes`` replaced: a copy field by field."""
    return _copy(record, changes if isinstance(changes, dict) else dict(changes))


def _copy(record: Any, changes: dict[str, Any]) -> Any:
    cls = type(record)
    names = _COPIED.get(cls)
    if names is None:
        if "__post_init__" in dir(cls):
            raise TypeError(f"{cls.__name__} checks its fields in __post_init__: change it with replace")
        names = _COPIED[cls] = tuple(fields_of(cls))
    new = object.__new__(cls)
    for name in names:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(record, name))
    return new


def written(record: Any, values: Mapping[str, Any]) -> Any:
    """``record`` with the values under the keys of ``values`` replaced, each made
    :func:`frozen_value`: one copy however many are written. A key it does not keep
    raises KeyError."""
    cls = type(record)
    changes: dict[str, Any] = {}
    for key, value in values.items():
        name, side = checked_slot(cls, key)
        kept = frozen_value(value)
        if side is not None:
            entries = dict(changes[name] if name in changes else getattr(record, name))
            entries[side] = kept
            kept = entries
        changes[name] = kept
    return _copy(record, changes)


def frozen_value(value: Any) -> Any:
    """``value`` as a record keeps it: JSON lists become tuples, all the way down, so a
    record equals itself read back from JSON."""
    kind = type(value)
    if kind is tuple:
        for v in value:
            if type(v) is list or type(v) is dict:
                break
        else:
            return value  # already frozen: the rules' own events build tuples of tuples
    if kind is list or kind is tuple:
        return tuple([frozen_value(v) if _nested(v) else v for v in value])
    if kind is dict or isinstance(value, Mapping):
        return {k: frozen_value(v) if _nested(v) else v for k, v in value.items()}
    return value


def _nested(value: Any) -> bool:
    kind = type(value)
    return kind is list or kind is tuple or kind is dict
