"""Charge yr Pikes!' own events. Each says how the reducer applies it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.events import Event
from tertia.core.reducer import handles
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.data import game_data


@dataclass(frozen=True, slots=True)
class CommandResponded(Event):
    """A command response die (Movement 5 A): ``officer`` (None: "Regiment without
    officer") rolled ``face`` on a D10 for ``units``; ``obeyed`` is whether they may move.
    The units that may move on the card being played gather in the game's ``moving``."""

    type: ClassVar[str] = "cyp_command_responded"
    card: str
    officer: str | None
    units: tuple[str, ...]
    face: int
    obeyed: bool


def _game(s: GameState, **values: Any) -> GameState:
    return s.evolve(own=game_data(s).evolve(**values))


@handles(CommandResponded)
def _responded(s: GameState, e: CommandResponded) -> GameState:
    if not e.obeyed:
        return s
    moving = game_data(s).moving
    return _game(s, moving=(*moving, *(u for u in e.units if u not in moving)))
