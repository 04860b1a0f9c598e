"""Playing the example rule set in tests: registered only while a test plays it, and small
positions with a unit activated."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.rulesets import registered as registered_for_a_while
from tertia.scenarios import resolve_scenario
from tests.example_rules.data import RULES_ID, game_data
from tests.example_rules.ruleset import SCENARIO, ExampleDeclare

P, R = "parliament", "royalist"


@pytest.fixture
def registered() -> Iterator[type[ExampleDeclare]]:
    """The example registered as a plugin would be, and unregistered afterwards so other
    tests see only the shipped rule sets."""
    with registered_for_a_while(ExampleDeclare):
        yield ExampleDeclare


def scenario_game() -> Game:
    """The example's own scenario, checked under its rules (needs :func:`registered`)."""
    return Game(ExampleDeclare(), resolve_scenario(SCENARIO, rules_id=RULES_ID))


def unit(uid: str, side: str, kind: str, x: float, y: float, facing: float = 0.0) -> dict[str, Any]:
    return {"id": uid, "side": side, "type": kind, "command": "centre", "x": x, "y": y, "facing": facing}


def make_game(units: list[dict[str, Any]], orders: dict[str, dict[str, Any]] | None = None,
              turns: int = 4) -> Game:
    scenario = Scenario.model_validate({
        "name": "test position", "turns": turns, "rules": [RULES_ID],
        "table": {"width": 48, "depth": 36},
        "sides": [{"id": P, "edge": "south"}, {"id": R, "edge": "north"}],
        "units": units, "extensions": {RULES_ID: {"units": orders or {}}},
    })
    return Game(ExampleDeclare(), scenario)


def activated(game: Game, unit_id: str, **own: Any) -> GameState:
    """Turn 1 with ``unit_id`` activated by its card and the deck spent."""
    state = game.ruleset.initial_state(game.scenario)
    side = state.units[unit_id].side
    data = game_data(state).evolve(activated=unit_id, card=f"unit:{unit_id}", **own)
    return state.evolve(turn=1, active=side, phase="cards", first_side=P, own=data)
