"""Actions: small frozen value objects naming what a player does.

An action carries no side: it is taken by the side the state awaits (``state.to_act``).
Every action serialises to a JSON object with a ``type`` field for game records and the
HTTP API.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from tertia.core.geometry import Point
from tertia.core.tagged import Registry, Tagged


@dataclass(frozen=True, slots=True)
class Action(Tagged):
    """Base of all actions; each subclass registers under its ``type`` name."""

    type: ClassVar[str] = "action"
    registry: ClassVar[Registry] = {}


ACTION_TYPES = Action.registry


class BadActionData(ValueError):
    """An action's JSON could not be understood."""


def action_from_dict(d: Mapping[str, Any]) -> Action:
    """Rebuild an action from its JSON form; raises :class:`BadActionData` with the reason."""
    if not isinstance(d, Mapping):
        raise BadActionData("an action must be a JSON object")
    kind = d.get("type")
    cls = ACTION_TYPES.get(str(kind))
    if cls is None or cls is Action:
        raise BadActionData(f"unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in d:
            continue
        kwargs[f.name] = d[f.name]
    try:
        action = cls(**kwargs)
        return _normalise(action)
    except (TypeError, ValueError) as exc:
        raise BadActionData(f"{kind}: {exc}") from None


def _normalise(action: Action) -> Action:
    """Check each field against its declared type and turn JSON lists into the tuples the
    dataclasses declare; raises ValueError naming the field."""
    changes: dict[str, Any] = {}
    for f in fields(action):
        v = getattr(action, f.name)
        declared = str(f.type)
        optional = declared.endswith("| None")
        if v is None and optional:
            continue
        nested = _nested_action(declared)
        if nested is not None:
            changes[f.name] = _actions_of(nested, f.name, v)
        elif f.name == "waypoints":
            try:
                changes[f.name] = tuple((_number(p[0]), _number(p[1])) for p in v)
            except (TypeError, IndexError, ValueError):
                raise ValueError("waypoints must be a list of [x, y] pairs") from None
        elif declared.startswith("tuple[str"):
            if not isinstance(v, list | tuple) or not all(isinstance(x, str) for x in v):
                raise ValueError(f"{f.name} must be a list of strings")
            changes[f.name] = tuple(v)
        elif declared.startswith("str"):
            if not isinstance(v, str):
                raise ValueError(f"{f.name} must be a string")
        elif declared.startswith("float"):
            changes[f.name] = _number(v)
        elif declared.startswith("int"):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"{f.name} must be a whole number")
        elif declared.startswith("bool") and not isinstance(v, bool):
            raise ValueError(f"{f.name} must be true or false")
    if not changes:
        return action
    data = {f.name: getattr(action, f.name) for f in fields(action)}
    data.update(changes)
    return type(action)(**data)


def _nested_action(declared: str) -> type[Action] | None:
    """The action class a field declared ``tuple[<Action class>, ...]`` holds, else None."""
    if not declared.startswith("tuple[") or not declared.endswith(", ...]"):
        return None
    name = declared[len("tuple["):-len(", ...]")]
    return next((c for c in ACTION_TYPES.values() if c.__name__ == name), None)


def _actions_of(cls: type[Action], name: str, value: Any) -> tuple[Action, ...]:
    """A field holding actions of one class (a declaration's attacks): a list of their
    JSON objects (without ``type``) or of actions already built."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"{name} must be a list of {cls.type.replace('_', ' ')} objects")
    found: list[Action] = []
    for i, a in enumerate(value):
        if isinstance(a, Mapping):
            try:
                a = action_from_dict({**a, "type": cls.type})
            except BadActionData as exc:
                raise ValueError(f"{name}[{i}]: {exc}") from None
        if not isinstance(a, cls):
            raise ValueError(f"{name}[{i}] must be a {cls.type.replace('_', ' ')} object")
        found.append(a)
    return tuple(found)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("expected a number")
    return float(value)


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move a unit: optional pivot, a path through waypoints, optional pivot at the end."""

    type: ClassVar[str] = "move"
    unit: str
    waypoints: tuple[Point, ...] = ()
    face_before: float | None = None
    face_after: float | None = None


@dataclass(frozen=True, slots=True)
class EndPhase(Action):
    """Finish the current phase."""

    type: ClassVar[str] = "end_phase"
