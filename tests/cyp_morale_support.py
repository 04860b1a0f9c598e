"""Pieces placed exactly for the Charge yr Pikes! morale, fall-back and rout tests: a
72" x 48" table, the king's side deployed on the south edge (facing north, 0), the
parliament's on the north (facing south, 180)."""

from __future__ import annotations

from typing import Any

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature
from tertia.rulesets.charge_yr_pikes.data import CypGame, CypUnit
from tertia.rulesets.charge_yr_pikes.layout import STAND_SIZES, arm_of, footprint_of
from tertia.rulesets.charge_yr_pikes.troops import TROOPS

KING, PARL = "king", "parl"
WIDTH, DEPTH = 72.0, 48.0


def troop(uid: str, side: str, x: float, y: float, kind: str = "foot", *, facing: float | None = None,
          **values: Any) -> Unit:
    """A unit of troop type ``kind`` at full strength, ``values`` changed (figures,
    morale, states ...), its footprint laid out at the default stand size."""
    t = TROOPS[kind]
    own = CypUnit.of(t, **values)
    if kind == "artillery" and own.gun is None:
        own = own.evolve(gun="field")
    width, depth = footprint_of(own, own.formation, STAND_SIZES[arm_of(own)])
    face = (0.0 if side == KING else 180.0) if facing is None else facing
    return Unit(uid, side, t.kind, f"{side}-1", x, y, face, width, depth, own=own)


def officer(uid: str, side: str, x: float, y: float, *, rank: str = "brigadier", grade: str | None = None,
            attached_to: str | None = None) -> Unit:
    own = CypUnit(troop="officer", morale_class="horse", men=1, per_stand=1, start=1, mounted=True,
                  rank=rank, grade=grade, attached_to=attached_to)
    size = STAND_SIZES["officer"]
    return Unit(uid, side, UnitKind.COMMANDER, f"{side}-1", x, y, 0.0 if side == KING else 180.0,
                size.width, size.depth, own=own)


def state_of(*pieces: Unit, turn: int = 1) -> GameState:
    return GameState((KING, PARL), turn, KING, "morale", {p.id: p for p in pieces},
                     own=CypGame(edges={KING: "south", PARL: "north"}))


def field(*features: TerrainFeature) -> Battlefield:
    return Battlefield(width=WIDTH, depth=DEPTH, features=features)


def tx_with(state: GameState, *dice: int, table: Battlefield | None = None) -> Tx:
    return Tx(field() if table is None else table, state, ScriptedDice(list(dice)))


def own(tx: Tx, uid: str) -> CypUnit:
    return tx.state.units[uid].own  # type: ignore[return-value]
