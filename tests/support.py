"""Building small positions for rule tests: a few units on an open table."""

from __future__ import annotations

from typing import Any

from tertia.core.actions import Action
from tertia.core.dice import ScriptedDice
from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.rulesets import get_ruleset

P, R = "parliament", "royalist"


def unit(uid: str, side: str, kind: str, x: float, y: float, facing: float = 0.0,
         command: str | None = None, **extra: Any) -> dict[str, Any]:
    default_command = {"dragoons": "dragoons", "artillery": "artillery"}.get(kind, "centre")
    return {"id": uid, "side": side, "type": kind, "command": command or default_command,
            "x": x, "y": y, "facing": facing, **extra}


def commander(cid: str, side: str, x: float, y: float, command: str = "centre",
              general: bool = False) -> dict[str, Any]:
    return {"id": cid, "side": side, "command": command, "x": x, "y": y, "general": general}


def make_game(units: list[dict[str, Any]], *, commanders: list[dict[str, Any]] = (),  # type: ignore[assignment]
              terrain: list[dict[str, Any]] = (), supplies: list[dict[str, Any]] = (),  # type: ignore[assignment]
              objectives: list[dict[str, Any]] = (), rules: str = "larger-battles",  # type: ignore[assignment]
              width: float = 72, depth: float = 48, turns: int = 12, **options: Any) -> Game:
    scenario = Scenario.model_validate({
        "name": "test position", "turns": turns,
        "table": {"width": width, "depth": depth},
        "sides": [{"id": P, "edge": "south"}, {"id": R, "edge": "north"}],
        "commanders": list(commanders), "units": list(units), "terrain": list(terrain),
        "objectives": list(objectives),
        "extensions": {"larger-battles": {"supplies": list(supplies)}} if supplies else {},
    })
    return Game(get_ruleset(rules, **options), scenario)


def position(game: Game, *, phase: str = "movement", active: str = P,
             orders: tuple[tuple[str, str], ...] = ()) -> GameState:
    """The deployed position at turn 1 in ``phase`` with ``active`` to play, orders given
    as (key, purpose) with key a unit id or "side:command"."""
    state = game.ruleset.initial_state(game.scenario)
    marks: dict[str, tuple[str, ...]] = {}
    for key, purpose in orders:
        marks[f"ordered_{purpose}"] = (*marks.get(f"ordered_{purpose}", ()), key)
        marks["orders"] = (*marks.get("orders", ()), key)
    return state.evolve(turn=1, active=active, phase=phase, first_side=active, marks=marks)


def act(game: Game, state: GameState, action: Action, dice: list[int] | None = None
        ) -> tuple[GameState, list[Event]]:
    """Apply an action with scripted dice, checking every scripted die was used."""
    scripted = ScriptedDice(dice or [])
    new, events = game.apply(state, action, scripted)
    assert scripted.remaining == 0, f"{scripted.remaining} scripted dice unused"
    return new, events


def codes(game: Game, state: GameState, action: Action) -> list[str]:
    return [v.code for v in game.validate(state, action)]


def counting_legality(game: Game) -> list[Action]:
    """Every action put to ``game.is_legal`` from now on, in order: a test that a player
    answers from its memo asks the rules nothing."""
    asked: list[Action] = []
    judge = game.is_legal

    def counted(state: GameState, action: Action) -> bool:
        asked.append(action)
        return judge(state, action)

    game.is_legal = counted  # type: ignore[method-assign]
    return asked
