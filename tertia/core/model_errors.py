"""A model's validation errors (pydantic's) in the words a player reads: the field by its
path, elements named by their id ("units[3] 'p-foot-2'.type"), and the reason as a scenario
file's problems give it ("must be at least 1, got 0", "unknown unit type 'knight'; known:
foot, horse"), not pydantic's own ("Input should be greater than or equal to 1"). One
explanation serves scenario files, a record's scenario, a rule set's tables and a
request's body."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, get_args

from pydantic import BaseModel

from tertia.core.scenario import ORDER_OF_BATTLE, OrderOfBattle, Scenario
from tertia.core.terrain import KIND_PATTERN

_LITERAL_NOUNS: Mapping[tuple[str, str], str] = {
    ("units", "type"): "unit type",
    ("terrain", "type"): "terrain type",
}

_EXPECTED: Mapping[str, str] = {
    "float": "a number",
    "int": "a whole number",
    "bool": "true or false",
    "string": "text",
    "tuple": "a list",
    "list": "a list",
    "model": "a table",
    "dict": "a table",
}


def explain(err: Mapping[str, Any], document: Any = None, root: type[BaseModel] = Scenario
            ) -> tuple[str, str]:
    """One of pydantic's errors as (field path, message), in the words a scenario file's
    problems use ("must be at least 1, got 0", not "Input should be greater than or equal
    to 1"), for whatever ``root`` model checked ``document``: a scenario, a rule set's
    tables, a request's body."""
    shown = document if isinstance(document, Mapping) else {}
    return _explain(str(err["type"]), tuple(err["loc"]), err, shown, root)


def _explain(
    kind: str, loc: tuple[int | str, ...], err: Mapping[str, Any], document: Mapping[str, Any],
    root: type[BaseModel] = Scenario,
) -> tuple[str, str]:
    """(field path, message) for one pydantic error."""
    path = field_path(loc, document)
    inner, root = _army_rooted(loc, root)
    ctx: Mapping[str, Any] = err.get("ctx") or {}
    value = err.get("input")
    field = str(loc[-1]) if loc else ""
    if loc and loc[0] == "sides" and (
        kind in ("too_long", "too_short") or (kind == "missing" and len(loc) == 2)
    ):
        return "sides", "a scenario needs exactly two sides, one per army"
    if kind == "missing":
        if loc and isinstance(loc[-1], int):
            return path, "too few items; a point is a pair of numbers [x, y]"
        return path, "required field is missing"
    if kind == "extra_forbidden":
        model = _model_at(inner[:-1], root)
        fields = model.model_fields if model is not None else {}
        known = f"; known: {', '.join(fields)}" if fields else ""
        return path, f"unknown field {field!r}{known}"
    if kind == "literal_error":
        noun = _LITERAL_NOUNS.get((str(inner[0]), field), field.replace("_", " ") or "value")
        expected = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return path, f"unknown {noun} {shown_value(value)}; known: {', '.join(expected)}"
    if kind == "finite_number":
        return path, f"must be a finite number, got {shown_value(value)}"
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == KIND_PATTERN:
        return path, f"a kind of terrain is a lower-case name (letters, digits, _), got {shown_value(value)}"
    bounds = {
        "greater_than": ("greater than", "gt"),
        "greater_than_equal": ("at least", "ge"),
        "less_than": ("less than", "lt"),
        "less_than_equal": ("at most", "le"),
    }
    if kind in bounds:
        words, key = bounds[kind]
        return path, f"must be {words} {number_text(ctx.get(key))}, got {shown_value(value)}"
    if kind == "string_too_short":
        return path, "must not be empty"
    if kind == "string_too_long":
        return path, f"is too long (at most {ctx.get('max_length')} characters)"
    if kind == "value_error":
        return path, str(err.get("msg", "")).removeprefix("Value error, ")
    for prefix, wanted in _EXPECTED.items():
        if kind.startswith(prefix + "_") or kind == prefix:
            return path, f"expected {wanted}, got {shown_value(value)}"
    return path, str(err.get("msg", "invalid value"))


def _army_rooted(
    loc: tuple[int | str, ...], root: type[BaseModel]
) -> tuple[tuple[int | str, ...], type[BaseModel]]:
    """An error in a rule set's own order of battle (``extensions.<id>.order_of_battle
    ...``) as the same error in an :class:`OrderOfBattle`, so it reads as one in the shared
    lists does."""
    if root is Scenario and len(loc) > 3 and loc[0] == "extensions" and loc[2] == ORDER_OF_BATTLE:
        return loc[3:], OrderOfBattle
    return loc, root


def field_path(loc: Sequence[int | str], document: Any) -> str:
    """A pydantic location as a readable path, naming elements by id (or name) when they
    have one: ``("units", 3, "type")`` becomes ``units[3] 'p-foot-2'.type``."""
    text = ""
    node = document
    for key in loc:
        if isinstance(key, int):
            text += f"[{key}]"
            node = node[key] if isinstance(node, list) and -len(node) <= key < len(node) else None
            label = _label(node)
            if label:
                text += f" {label!r}"
        else:
            text += f".{key}" if text else str(key)
            node = node.get(key) if isinstance(node, dict) else None
    return text


def _label(node: Any) -> str | None:
    if not isinstance(node, dict):
        return None
    for key in ("id", "name"):
        value = node.get(key)
        if isinstance(value, str) and value:
            return value if len(value) <= 40 else value[:37] + "..."
    return None


def _model_at(loc: Sequence[int | str], root: type[BaseModel] = Scenario) -> type[BaseModel] | None:
    """The model of the table at ``loc`` (an element's, for a list), walking ``root``'s
    fields; None where the path leaves the models."""
    model: type[BaseModel] | None = root
    for key in loc:
        if isinstance(key, int):
            continue  # an element: its field's model is already the element's
        info = model.model_fields.get(key) if model is not None else None
        model = None if info is None else _model_in(info.annotation)
        if model is None:
            return None
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model an annotation holds (itself, or inside ``tuple[...]``, ``X | None`` ...)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def shown_value(value: Any) -> str:
    """A value as a file or a request gave it, in their words: ``null``, ``true``, a
    number, text quoted, a list or a table, never Python's spelling (``None``, ``True``)."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list | tuple):
        return "a list"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def number_text(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return f"{value:g}"
    return str(value)
