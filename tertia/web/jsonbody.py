"""Reading JSON from clients without trusting it: numbers too long or too large for a
battle, nesting deeper than any action, and malformed text are refused in one line
(422) instead of reaching Python's limits (a traceback and a 500)."""

from __future__ import annotations

import json
import math
from typing import Any

from tertia.web.errors import ServiceError

MAX_DIGITS = 30
"""Digits in one JSON number: far beyond any coordinate, count or seed a battle needs."""
MAX_DEPTH = 64
"""Nesting of arrays and objects: an action is a few levels deep."""


class _Refused(ValueError):
    pass


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a number with {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _real(text: str) -> float:
    digits = sum(c.isdigit() for c in text.split("e")[0].split("E")[0])
    if digits > MAX_DIGITS:
        raise _Refused(f"a number with {digits} digits (at most {MAX_DIGITS})")
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"a number too large to use ({text[:20]})")
    return value


def _constant(name: str) -> float:
    raise _Refused(f"{name}, which is not a number JSON allows")


def _depth(raw: str) -> int:
    """The deepest nesting of arrays and objects, strings skipped, without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(raw: bytes | str, what: str = "the body") -> Any:
    """``raw`` as JSON, or :class:`ServiceError` 422 naming what is wrong with it.

    >>> parse_json(b'{"waypoints": [[1.5, 2]]}')
    {'waypoints': [[1.5, 2]]}
    >>> parse_json(b"[" * 100 + b"]" * 100)
    Traceback (most recent call last):
    ...
    tertia.web.errors.ServiceError: the body is nested 100 deep (at most 64)
    """
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ServiceError(422, "BAD_JSON", f"{what} is not UTF-8 text") from None
    deepest = _depth(text)
    if deepest > MAX_DEPTH:
        raise ServiceError(422, "BAD_JSON", f"{what} is nested {deepest} deep (at most {MAX_DEPTH})")
    try:
        return json.loads(text, parse_int=_integer, parse_float=_real, parse_constant=_constant)
    except _Refused as exc:
        raise ServiceError(422, "BAD_NUMBER", f"{what} has {exc}") from None
    except json.JSONDecodeError as exc:
        raise ServiceError(422, "BAD_JSON", f"{what} is not valid JSON (line {exc.lineno}, column "
                                            f"{exc.colno})") from None
    except (ValueError, RecursionError):
        raise ServiceError(422, "BAD_JSON", f"{what} is not valid JSON") from None
