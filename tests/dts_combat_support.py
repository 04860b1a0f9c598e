"""Small Declare Thee Sir positions for fire and melee: units on stands, built directly
with their Declare Thee Sir values, on an open table or one with a little terrain."""

from __future__ import annotations

from tertia.core.dice import ScriptedDice
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainFeature
from tertia.rules.formations import LINE, footprint
from tertia.rulesets.declare_thee_sir.data import DtsGame, DtsUnit
from tertia.rulesets.declare_thee_sir.stands import LAYOUTS
from tertia.rulesets.declare_thee_sir.troops import ARTILLERY, FOOT, GENERAL, STAND_SIZES, STANDS

A, B = "parliament", "royalist"
WIDTH, DEPTH = 48.0, 36.0


def dts(uid: str, side: str, x: float, y: float, facing: float = 0.0, *, troop: str = FOOT,
        stands: int | None = None, formation: str = "line", morale: int | None = None,
        morale_max: int | None = None, mounted: bool = False, attached_to: str | None = None) -> Unit:
    """A unit (or a general's command stand) of ``troop`` centred on (x, y)."""
    size = STAND_SIZES[troop]
    own = DtsUnit(troop=troop, stands_left=stands or STANDS[troop], stand_width=size.width,
                  stand_depth=size.depth, formation=formation, morale=morale,
                  morale_max=morale if morale_max is None else morale_max, mounted=mounted,
                  attached_to=attached_to)
    if troop == ARTILLERY and formation == "long_march":
        width, depth = size.depth, size.width
    else:
        width, depth = footprint(LAYOUTS.get(formation, LINE), own.stands_left, size.width, size.depth)
    kind = UnitKind.COMMANDER if troop == GENERAL else UnitKind(troop)
    return Unit(uid, side, kind, "centre", x, y, facing, width, depth, own=own)


def state_of(*units: Unit, **readings: str) -> GameState:
    """The ``units`` on the table, the game played under the default readings but those
    given (:mod:`~tertia.rulesets.declare_thee_sir.readings`)."""
    return GameState((A, B), 1, A, "play", {u.id: u for u in units}, own=DtsGame(readings=readings))


def table_with(*features: TerrainFeature) -> Battlefield:
    return Battlefield(width=WIDTH, depth=DEPTH, features=features)


def wall(x0: float, y0: float, x1: float, y1: float) -> TerrainFeature:
    return TerrainFeature("wall", line=((x0, y0), (x1, y1)), width=0.25)


def tx_with(state: GameState, *dice: int, table: Battlefield | None = None) -> Tx:
    return Tx(table or table_with(), state, ScriptedDice(list(dice)))


def dice_left(tx: Tx) -> int:
    """Scripted dice the rules did not ask for."""
    dice = tx.dice
    assert isinstance(dice, ScriptedDice)
    return dice.remaining


def points(tx: Tx, uid: str) -> int | None:
    return getattr(tx.state.units[uid].own, "morale", None)
