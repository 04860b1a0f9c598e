"""Positions for the D3 rule tests: a card in play, units on an open table."""

from __future__ import annotations

from typing import Any

from tertia.core.events import DiceRolled, Event
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.rules.fighting import AttackResolved

from .support import P, R, make_game, unit

COMMANDS = "d3-commands"
CARDS = "d3-cards"


def horse(uid: str, side: str, x: float, y: float, facing: float = 0.0, **kw: Any) -> dict[str, Any]:
    kw.setdefault("command", "right")
    return unit(uid, side, "horse", x, y, facing, **kw)


def foot(uid: str, side: str, x: float, y: float, facing: float = 0.0, **kw: Any) -> dict[str, Any]:
    return unit(uid, side, "foot", x, y, facing, **kw)


def activation(game: Game, side: str = P, card: str = "centre", **extra: Any) -> GameState:
    """The deployed position at turn 1 with ``side``'s ``card`` in play and nothing done."""
    state = game.ruleset.initial_state(game.scenario)
    return state.evolve(turn=1, active=side, phase="activation", first_side=side, marks={},
                        ).with_values({"activation": {"side": side, "card": card}, **extra})


def duel(rules: str, a: dict[str, Any], t: dict[str, Any], *others: dict[str, Any],
         card: str | None = None, **kw: Any) -> tuple[Game, GameState]:
    """Two units (and any others) with ``a``'s side and card in play."""
    game = make_game([a, t, *others], rules=rules, **kw)
    state = game.ruleset.initial_state(game.scenario)
    attacker = state.units[a["id"]]
    return game, activation(game, attacker.side, card or game.ruleset.card_of(attacker))  # type: ignore[attr-defined]


def resolved(events: list[Event]) -> AttackResolved:
    return next(e for e in events if isinstance(e, AttackResolved))


def rolls(events: list[Event]) -> list[str]:
    return [e.purpose for e in events if isinstance(e, DiceRolled)]


__all__ = ["CARDS", "COMMANDS", "P", "R", "activation", "duel", "foot", "horse", "resolved", "rolls"]
