"""Where the text can be read two ways and players at the table could disagree: each reading
is a rule-set option (``tertia rules`` lists them), declared here with its default, and read
by the modules that play it from the game's options (a module called without them plays the
defaults). The clause table (``docs/rulesets/declare-thee-sir.md``) says why each default.

- ``push_off_table`` (Melee Chart notes; Fire b): a unit pushed back over a table edge
  stops at the edge (``edge``) or is removed from play as one routed off (``removed``).
- ``general_point`` (Morale): an attached general's morale point counts while he is
  attached (``while_attached``) or is added once, when the unit's points are first rolled
  (``first_roll``). The game keeps the reading it is played under
  (:attr:`~tertia.rulesets.declare_thee_sir.data.DtsGame.general_point_reading`), since the
  point moves whenever a general does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.ruleset import OptionSpec

PUSH_OFF_TABLE = "push_off_table"
EDGE = "edge"
REMOVED = "removed"

GENERAL_POINT = "general_point"
WHILE_ATTACHED = "while_attached"
FIRST_ROLL = "first_roll"

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(PUSH_OFF_TABLE, EDGE, "a unit pushed back over a table edge (by melee or artillery) stops "
               "at the edge (edge) or is removed from play as if routed off (removed)", (EDGE, REMOVED)),
    OptionSpec(GENERAL_POINT, WHILE_ATTACHED, "an attached general's morale point counts while he is "
               "attached, gained when he joins a tested unit and lost when he leaves it (while_attached), "
               "or is added once, when the unit's points are first rolled, and kept (first_roll)",
               (WHILE_ATTACHED, FIRST_ROLL)),
)
"""The readings, in the order ``tertia rules`` lists them (after the rule set's others)."""

DEFAULTS: Mapping[str, Any] = {s.name: s.default for s in SPECS}


def reading(options: Mapping[str, Any] | None, name: str) -> Any:
    """The reading ``name`` in a game's ``options`` (the default when not given)."""
    if options is not None and name in options:
        return options[name]
    return DEFAULTS[name]
