"""A new game's rule options as a client sends them (JSON), read by each option's own
declaration (:class:`~tertia.core.ruleset.OptionSpec`), so that a refusal names the
option, what it takes (its choices, or its kind and range) and the value sent, in JSON's
words: ``option hit_limit_infantry: expected a whole number from 1 to 20, got null``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.model_errors import shown_value
from tertia.core.ruleset import OptionSpec, RuleSet
from tertia.web.errors import ServiceError


def _fits(spec: OptionSpec, raw: Any) -> bool:
    """Is ``raw`` a JSON value of the kind ``spec`` takes, within its range? Text is read
    as the command line reads it ("3", "yes") for an option of any kind; a number or true
    or false is never taken for an option whose values are words."""
    kind = type(spec.default)
    if not isinstance(raw, str):
        if kind is str or raw is None or isinstance(raw, list | dict):
            return False
        if (kind is bool) != isinstance(raw, bool):
            return False
    try:
        spec.coerce(raw)
    except ValueError:
        return False
    return True


def check_options(ruleset: type[RuleSet], options: Mapping[str, Any]) -> None:
    """Refuse (422 ``BAD_OPTION``) the first value of a known option that it does not take;
    an option the rule set does not know is left to it to name."""
    known = {o.name: o for o in ruleset.OPTIONS}
    for name, raw in options.items():
        spec = known.get(name)
        if spec is not None and not _fits(spec, raw):
            raise ServiceError(422, "BAD_OPTION",
                               f"option {name}: expected {spec.expected()}, got {shown_value(raw)}")
