"""Builders for the Charge yr Pikes! close combat tests: pieces placed exactly, on a small
table, with scripted dice and a morale step that answers from a script."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature
from tertia.rulesets.charge_yr_pikes.charge import MoraleCall
from tertia.rulesets.charge_yr_pikes.data import CypGame, CypUnit
from tertia.rulesets.charge_yr_pikes.layout import STAND_SIZES, arm_of, footprint_of
from tertia.rulesets.charge_yr_pikes.troops import TROOPS

WIDTH, DEPTH = 72.0, 48.0
KIND = {"foot": UnitKind.FOOT, "musketeers": UnitKind.COMMANDED_SHOT, "highlanders": UnitKind.FOOT,
        "horse": UnitKind.HORSE, "lobsters": UnitKind.HORSE, "scots_horse": UnitKind.HORSE,
        "dragoons": UnitKind.DRAGOONS, "artillery": UnitKind.ARTILLERY, "wagons": UnitKind.ARTILLERY}


def piece(ident: str, side: str, troop: str, x: float, y: float, facing: float = 0.0, **own: Any) -> Unit:
    """A unit of ``troop`` at full strength, ``own`` values changed (start kept full)."""
    values = CypUnit.of(TROOPS[troop], **({"gun": "field"} if troop == "artillery" else {}))
    values = values.evolve(**own) if own else values
    width, depth = footprint_of(values, values.formation, STAND_SIZES[arm_of(values)])
    return Unit(ident, side, KIND[troop], f"t-{ident}", x, y, facing, width, depth, name=ident, own=values)


def officer(ident: str, side: str, attached_to: str | None, rank: str = "brigadier",
            grade: str | None = None, x: float = 1.0, y: float = 1.0) -> Unit:
    values = CypUnit(troop="officer", morale_class="horse", men=1, per_stand=1, start=1, mounted=True,
                     rank=rank, grade=grade, attached_to=attached_to)
    return Unit(ident, side, UnitKind.COMMANDER, "t", x, y, 0.0, 1.0, 1.0, name=ident, own=values)


def state_of(*units: Unit, turn: int = 1) -> GameState:
    return GameState(("king", "parl"), turn, "king", "melee", {u.id: u for u in units}, own=CypGame())


def table_with(*features: TerrainFeature) -> Battlefield:
    return Battlefield(width=WIDTH, depth=DEPTH, features=features)


def tx_with(state: GameState, *dice: int, table: Battlefield | None = None) -> Tx:
    return Tx(table or table_with(), state, ScriptedDice(list(dice)))


def dice_left(tx: Tx) -> int:
    dice = tx.dice
    assert isinstance(dice, ScriptedDice)
    return dice.remaining


class Morale:
    """A morale step answering from ``answers`` by unit (each unit's answers in turn;
    a unit not named passes), recording every call."""

    def __init__(self, answers: dict[str, Iterable[bool]] | None = None) -> None:
        self.answers = {k: list(v) for k, v in (answers or {}).items()}
        self.calls: list[MoraleCall] = []

    def __call__(self, call: MoraleCall) -> bool:
        self.calls.append(call)
        left = self.answers.get(call.unit)
        return left.pop(0) if left else True

    @property
    def asked(self) -> list[tuple[str, str]]:
        return [(c.unit, c.reason) for c in self.calls]
