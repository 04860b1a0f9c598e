"""Reading an action a client sends, strictly, against the game's own rule set.

:func:`tertia.core.actions.action_from_dict` reads the JSON form of any registered action
(as records store them). A client's action is held to more before it gets there: its
``type`` must be one this game's rule set accepts, it must give every field its kind
cannot do without and may carry no field its kind does not have, a point of a path is
exactly ``[x, y]``, and a facing is an angle a player could mean. Each refusal is one
line (422) naming the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import MISSING, fields
from typing import Any

from tertia.core.actions import ACTION_TYPES, Action, BadActionData, action_from_dict
from tertia.core.ruleset import RuleSet
from tertia.core.vocabulary import FieldKind
from tertia.web.errors import ServiceError

MAX_ANGLE = 360.0
"""A facing, in degrees clockwise from north, is read from ``-MAX_ANGLE`` to ``MAX_ANGLE``:
the page sends 0 to 360; anything beyond is no direction a player meant."""


def refused(message: str) -> ServiceError:
    return ServiceError(422, "BAD_ACTION", message)


def parse_action(data: Any, ruleset: RuleSet) -> Action:
    """The action ``data`` (parsed JSON) names under ``ruleset``, or :class:`ServiceError`
    422 naming what is wrong with it: a type no rule set has is refused listing only the
    actions of this one."""
    if not isinstance(data, Mapping):
        raise refused('an action must be a JSON object with a "type"')
    kind = data.get("type")
    # An action of another rule set's is left to this one's rules, which refuse it
    # (core.UNKNOWN_ACTION) as they refuse any action they do not allow.
    if not isinstance(kind, str) or kind not in ACTION_TYPES or ACTION_TYPES[kind] is Action:
        known = [k.type for k in ruleset.ACTION_KINDS] or sorted(t for t, c in ACTION_TYPES.items()
                                                                 if c is not Action)
        what = "an action needs a \"type\"" if kind is None else f"{ruleset.title} has no action {kind!r}"
        raise refused(f"{what}; its actions: {', '.join(known)}")
    check_fields(ruleset, ACTION_TYPES[kind], data, "")
    try:
        return action_from_dict(data)
    except BadActionData as exc:
        raise refused(str(exc)) from None


def check_fields(ruleset: RuleSet, cls: type[Action], data: Mapping[str, Any], where: str) -> None:
    """Refuse a field ``cls`` does not have, a path point that is not ``[x, y]`` and a
    facing out of bounds, in ``data`` and in the actions it holds (a declaration's
    attacks); ``where`` leads each message (``attacks[1]: ``)."""
    names = [f.name for f in fields(cls)]
    extra = sorted(str(k) for k in data if k != "type" and k not in names)
    if extra:
        takes = f"its fields: {', '.join(names)}" if names else "it takes none"
        raise refused(f"{where}an action of type {cls.type!r} has no field {extra[0]!r} ({takes})")
    missing = [f.name for f in fields(cls) if f.name not in data and _required(f)]
    if missing:
        raise refused(f"{where}an action of type {cls.type!r} needs the field {missing[0]!r} "
                      f"(its fields: {', '.join(names)})")
    kind = ruleset.action_kind(cls.type)
    for spec in kind.fields if kind is not None else ():
        value = data.get(spec.name)
        if value is None:
            continue
        if spec.kind is FieldKind.POINTS:
            _check_points(f"{where}{spec.name}", value)
        elif spec.kind is FieldKind.FACING:
            _check_angle(f"{where}{spec.name}", value)
        elif spec.kind is FieldKind.ACTIONS and spec.item in ACTION_TYPES and isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, Mapping):
                    check_fields(ruleset, ACTION_TYPES[str(spec.item)], item, f"{where}{spec.name}[{i}]: ")
    if "waypoints" in data and (kind is None or kind.field("waypoints") is None):
        _check_points(f"{where}waypoints", data["waypoints"])


def check_plan(ruleset: RuleSet, planned: Any) -> None:
    """The same checks for each action of a plan (:func:`tertia.offers.parse_items`): the
    kind of action the rule set gathers, each given without its ``type``."""
    items = sorted({str(f.item) for k in ruleset.ACTION_KINDS for f in k.fields
                    if f.kind is FieldKind.ACTIONS and f.item in ACTION_TYPES})
    if not items or not isinstance(planned, list):
        return
    for i, entry in enumerate(planned):
        if isinstance(entry, Mapping):
            check_fields(ruleset, ACTION_TYPES[items[0]], entry, f"planned[{i}]: ")


def _required(spec: Any) -> bool:
    """Whether a dataclass field has no default, so an action must give it."""
    return spec.default is MISSING and spec.default_factory is MISSING


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _check_points(name: str, value: Any) -> None:
    if not isinstance(value, list):
        raise refused(f"{name} must be a list of [x, y] points")
    for i, point in enumerate(value):
        if not (isinstance(point, list) and len(point) == 2 and all(_number(v) for v in point)):
            raise refused(f"{name}[{i}] must be a point [x, y]: two numbers, in inches")


def _check_angle(name: str, value: Any) -> None:
    if not _number(value):
        raise refused(f"{name} must be a number of degrees")
    if abs(value) > MAX_ANGLE:
        raise refused(f"{name} must be a facing from -{MAX_ANGLE:g} to {MAX_ANGLE:g} degrees, not {value:g}")
