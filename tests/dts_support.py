"""Small Declare Thee Sir positions: a few units on an open table, an activation set up
without drawing the deck."""

from __future__ import annotations

from typing import Any

from tertia.core.decision import Decision
from tertia.core.game import Game
from tertia.core.reducer import reduce
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.rulesets.declare_thee_sir.events import DECLARE, OptionDeclared, UnitActivated
from tertia.rulesets.declare_thee_sir.ruleset import DeclareTheeSir
from tertia.rulesets.declare_thee_sir.sequence import declarable
from tertia.rulesets.declare_thee_sir.values import game_data

from .support import P, R, unit

RULES = DeclareTheeSir.id


def dts_game(units: list[dict[str, Any]], *, commanders: list[dict[str, Any]] = (),  # type: ignore[assignment]
             terrain: list[dict[str, Any]] = (), table: dict[str, Any] | None = None,  # type: ignore[assignment]
             turns: int = 10, width: float = 48, depth: float = 36,
             objectives: list[dict[str, Any]] = (),  # type: ignore[assignment]
             **options: Any) -> Game:
    scenario = Scenario.model_validate({
        "name": "test position", "turns": turns, "table": {"width": width, "depth": depth},
        "sides": [{"id": P, "edge": "south"}, {"id": R, "edge": "north"}],
        "commanders": list(commanders), "units": list(units), "terrain": list(terrain),
        "objectives": list(objectives),
        "extensions": {RULES: table} if table else {},
    })
    return Game(DeclareTheeSir(**options), scenario)


def activated(game: Game, uid: str, option: str | None = None, allowance: dict[str, int] | None = None
              ) -> GameState:
    """The set-up position at turn 1 with ``uid``'s card drawn; with ``option``, declared
    (and ``allowance`` its worked-out move), else its declaration awaited."""
    state = game.ruleset.initial_state(game.scenario).evolve(turn=1, phase="activation")
    u = state.units[uid]
    state = reduce(state, UnitActivated(side=u.side, unit=uid, card=f"unit:{uid}"))
    if option is None:
        open_to = declarable(game.table, state, u, game.ruleset.options)
        return state.evolve(decisions=(Decision(u.side, DECLARE, {"unit": uid, "options": list(open_to)}),))
    state = reduce(state, OptionDeclared(unit=uid, option=option.partition(":")[0],
                                         how=option.partition(":")[2] or None))
    return state.evolve(own=game_data(state).evolve(allowance=allowance))


__all__ = ["P", "R", "activated", "dts_game", "unit"]
