"""Bad actions for the D3 rule sets come back as violations or as unreadable data, never
as a traceback."""

from __future__ import annotations

from typing import Any

import pytest

from tertia.core.actions import BadActionData, action_from_dict
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin

BAD: list[dict[str, Any]] = [
    {"type": "order_cards", "order": [1, 2]},
    {"type": "order_cards", "order": "centre"},
    {"type": "order_cards"},
    {"type": "deploy", "unit": "p-essex", "x": "a", "y": 2},
    {"type": "deploy", "unit": "nobody", "x": 1, "y": 2, "facing": "north"},
    {"type": "rally", "commander": "p-essex", "unit": "p-cessex-foot-1"},
    {"type": "rally", "commander": "nobody", "unit": "nobody"},
    {"type": "shoot", "unit": "nobody", "target": "p-essex"},
    {"type": "shoot", "unit": "p-cessex-foot-1", "target": "p-essex"},
    {"type": "attack", "attacker": "p-cessex-foot-1", "target": "r-gerard-foot", "supports": ["x"]},
    {"type": "move", "unit": "p-essex", "waypoints": [[1e308, 1e308]]},
    {"type": "move", "unit": "r-forth", "waypoints": [[36, 44]]},
    {"type": "bombard", "gun": "p-guns-left", "target": "r-guns-right"},
    {"type": "give_order", "target": "centre"},
    {"type": "end_phase"},
]


@pytest.mark.parametrize("rules", ["d3-commands", "d3-cards"])
@pytest.mark.parametrize("data", BAD, ids=lambda d: str(d.get("type")))
def test_bad_actions_are_refused_with_a_reason(rules: str, data: dict[str, Any]) -> None:
    game = Game(get_ruleset(rules), load_builtin("edgehill" if rules == "d3-commands" else "chalgrove"))
    state, _ = game.start(SeededDice(1))
    try:
        action = action_from_dict(data)
    except BadActionData as exc:
        assert str(exc)
        return
    found = game.validate(state, action)
    # Only ending the activation is legal here (d3-commands awaits card orders first).
    assert bool(found) is (data["type"] != "end_phase" or rules == "d3-commands")
    for violation in found:
        assert violation.code and violation.message and violation.rule.startswith(game.ruleset.named())
