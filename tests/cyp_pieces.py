"""Pieces and states for Charge yr Pikes! tests of army morale and the end of the battle:
units placed exactly where a test needs them, on a 72" x 48" table (the king's edge south,
Parliament's north)."""

from __future__ import annotations

from typing import Any

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield
from tertia.rulesets.charge_yr_pikes.data import CypGame, CypUnit
from tertia.rulesets.charge_yr_pikes.layout import STAND_SIZES, arm_of, footprint_of
from tertia.rulesets.charge_yr_pikes.troops import TROOPS

EDGES = {"king": "south", "parl": "north"}
WIDTH, DEPTH = 72.0, 48.0


def piece(unit_id: str, side: str, troop: str, x: float, y: float, facing: float | None = None,
          **values: Any) -> Unit:
    """A unit of ``troop`` at (x, y), facing the enemy unless told, its values changed
    (figures given below its type's are casualties: ``start`` stays the type's)."""
    t = TROOPS[troop]
    own = CypUnit.of(t, **values)
    if troop == "officer":
        own = own.evolve(rank="brigadier")
    width, depth = footprint_of(own, own.formation, STAND_SIZES[arm_of(own)])
    kind = UnitKind.COMMANDER if troop == "officer" else t.kind
    face = (0.0 if side == "king" else 180.0) if facing is None else facing
    return Unit(unit_id, side, kind, f"{side}-1", x, y, face, width, depth, own=own)


def state(*units: Unit, turn: int = 1, points: tuple[tuple[Any, ...], ...] = (),
          **game: Any) -> GameState:
    return GameState(("king", "parl"), turn, "king", "end", {u.id: u for u in units},
                     own=CypGame(edges=EDGES, points=points, **game))


def tx(s: GameState, dice: list[int] | None = None) -> Tx:
    return Tx(Battlefield(WIDTH, DEPTH), s, ScriptedDice(dice or []))
