"""Small positions for the shared blocks' tests: pieces on an open table keeping the values
the blocks read (morale points, stands, figures, a deck)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import ScriptedDice
from tertia.core.ruledata import RuleData
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield

A, B = "a", "b"
TABLE = Battlefield(width=48.0, depth=36.0)


@dataclass(frozen=True, slots=True)
class Kept(RuleData):
    """What a piece keeps for the blocks under test."""

    type: ClassVar[str] = "block_test_piece"
    morale: int | None = None
    morale_max: int | None = None
    stands_left: int = 3
    figures: int | None = None


@dataclass(frozen=True, slots=True)
class KeptGame(RuleData):
    type: ClassVar[str] = "block_test_game"
    deck_left: tuple[str, ...] = ()
    deck_drawn: tuple[str, ...] = ()


def piece(uid: str, side: str, x: float, y: float, facing: float = 0.0, width: float = 4.0,
          depth: float = 2.0, **kept: object) -> Unit:
    return Unit(uid, side, UnitKind.FOOT, "centre", x, y, facing, width, depth, own=Kept(**kept))  # type: ignore[arg-type]


def state_of(*units: Unit) -> GameState:
    return GameState((A, B), 1, A, "play", {u.id: u for u in units}, own=KeptGame())


def tx_with(state: GameState, *dice: int) -> Tx:
    return Tx(TABLE, state, ScriptedDice(list(dice)))
