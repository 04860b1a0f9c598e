"""Reading a rule set's game-wide values off an observation sent as JSON, as a client would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.ruledata import rule_data_from_dict


def game_values(seen: Mapping[str, Any]) -> dict[str, Any]:
    """The game-wide values of an observation sent as JSON (``GameState.to_dict``), by the
    keys events write (``GameState.value``)."""
    own = seen.get("own")
    declared = {} if not isinstance(own, Mapping) else rule_data_from_dict(own).flat_values()
    return {**(seen.get("extra") or {}), **declared}
