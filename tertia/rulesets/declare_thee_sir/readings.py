"""Where the text can be read two ways and players at the table could disagree: each reading
is a rule-set option (``tertia rules`` lists them), declared here with its default. The game
keeps the readings it is played under (:attr:`~tertia.rulesets.declare_thee_sir.data.DtsGame.readings`,
set from the options at set-up), and the modules that play them read them there
(:func:`of_game`; a position built without them plays the defaults). The clause table
(``docs/rulesets/declare-thee-sir.md``) says why each default.

- ``push_off_table`` (Melee Chart notes; Fire b): a unit pushed back over a table edge
  stops at the edge (``edge``) or is removed from play as one routed off (``removed``).
- ``general_point`` (Morale): an attached general's morale point counts while he is
  attached (``while_attached``) or is added once, when the unit's points are first rolled
  (``first_roll``).
- ``fire_chart`` (Fire b, c; the morale check, "one musketry roll"): the Melee Chart is
  read for the target's morale after the first point the dice took (``after``) or before
  it (``before``).
- ``obstacles_stop`` (Movement): walls, streams, fences and hedges stop only a unit's own
  movement (``own_moves``) or push-backs, routs and pursuits too (``every_move``).
- ``road_bonus`` (Movement Modifiers): "Long March Road = +3" is a further +3 on top of
  long march's (``on_top``) or long march's own +3, kept on a road (``included``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.ruleset import OptionSpec
from tertia.core.state import GameState

PUSH_OFF_TABLE = "push_off_table"
EDGE = "edge"
REMOVED = "removed"

GENERAL_POINT = "general_point"
WHILE_ATTACHED = "while_attached"
FIRST_ROLL = "first_roll"

FIRE_CHART = "fire_chart"
AFTER = "after"
BEFORE = "before"

OBSTACLES_STOP = "obstacles_stop"
OWN_MOVES = "own_moves"
EVERY_MOVE = "every_move"

ROAD = "road_bonus"
ON_TOP = "on_top"
INCLUDED = "included"

SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(PUSH_OFF_TABLE, EDGE, "a unit pushed back over a table edge (by melee or artillery) stops "
               "at the edge (edge) or is removed from play as if routed off (removed)", (EDGE, REMOVED)),
    OptionSpec(GENERAL_POINT, WHILE_ATTACHED, "an attached general's morale point counts while he is "
               "attached, gained when he joins a tested unit and lost when he leaves it (while_attached), "
               "or is added once, when the unit's points are first rolled, and kept (first_roll)",
               (WHILE_ATTACHED, FIRST_ROLL)),
    OptionSpec(FIRE_CHART, AFTER, "a volley, a shot and a morale check read the Melee Chart for the "
               "target's morale after the first point their dice took (after) or before it (before)",
               (AFTER, BEFORE)),
    OptionSpec(OBSTACLES_STOP, OWN_MOVES, "walls, streams, fences and hedges stop a unit's own moves "
               "only (own_moves) or push-backs, routing stands and pursuers too, who cross them the "
               "next time they are moved (every_move)", (OWN_MOVES, EVERY_MOVE)),
    OptionSpec(ROAD, ON_TOP, "a unit in long march moving wholly on a road adds the road's +3 to long "
               "march's +3 (on_top) or has long march's +3 alone, the road adding nothing more "
               "(included)", (ON_TOP, INCLUDED)),
)
"""The readings, in the order ``tertia rules`` lists them (after the rule set's others)."""

DEFAULTS: Mapping[str, Any] = {s.name: s.default for s in SPECS}


def reading(options: Mapping[str, Any] | None, name: str) -> Any:
    """The reading ``name`` in a game's ``options`` (the default when not given)."""
    if options is not None and name in options:
        return options[name]
    return DEFAULTS[name]


def chosen(options: Mapping[str, Any]) -> dict[str, str]:
    """The readings among a game's ``options``, as the game keeps them."""
    return {name: str(reading(options, name)) for name in DEFAULTS}


def of_game(state: GameState, name: str) -> Any:
    """The reading ``name`` the game in ``state`` is played under."""
    return reading(getattr(state.own, "readings", None), name)
