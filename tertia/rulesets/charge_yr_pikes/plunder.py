"""Plunder (section 21 A-E): horse that wins a close combat may ride off after the enemy's
baggage.

- A: "Horse that wins a melee should immediately test obedience on the Baggage Plunder
  table. 1,2,3 Cavalry attempts to plunder; 4-6 Cavalry obedient to commander's wishes.
  Normal officer bonuses apply": a D6 plus the morale bonus of the officers in its front
  rank (``tables.toml [officer_bonus]``); the faces are ``tables.toml [plunder]``.
- B: "Horse that attempts to plunder will immediately be moved off the enemy's table rear.
  If the baggage train is on the table, they will head for the train. They will move
  straight towards the edge if possible but at any angle if necessary to avoid enemy
  units. Mark the place where they exit. They spend the entire next turn plundering." The
  move is the movement rules' (:func:`exit_point` gives the place straight ahead on the
  enemy's edge); :func:`go_plundering` records where it left and takes it off the table
  (``removed = "plundering"``), or leaves it plundering at the train.
- C: "At the end of the plundering turn roll for the re-entry ... 1,2,3 Cavalry still
  plundering; 4,5,6 Cavalry returns next move on its card. Normal officer bonuses apply":
  :func:`stops_plundering`, rolled at the end of every turn after the one it left in.
  "If the baggage train is on the table, the plundering cavalry remain there plundering
  till they cease": at the train, ceasing frees it at once. "If attacked by enemy, they
  fight as disordered" (the dice count it, :mod:`~tertia.rulesets.charge_yr_pikes.melee_dice`).
  "As they re-enter roll one D6: 1 Cavalry enters 24" to right of exit point; 2-5 at exit
  point; 6 24" to left": right and left as the horse faces coming back onto the table
  (:func:`reenter`).
- D: "Re-entering cavalry use normal move distance. No command response is necessary to
  re-enter. Re-entering units may not attack into close combat on the turn in which they
  re-enter, unless there is no way to re-enter the table without fighting":
  :func:`may_charge` (the exception is the caller's, which knows the table).
- E: "Units off table plundering are counted as dead for major army morale or victory
  conditions": they are out of play (``removed``), and the victory tables count them whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from tertia.core.dice import D6
from tertia.core.events import UnitDeployed, UnitMoved, UnitRemoved
from tertia.core.geometry import Point, bearing, heading_vector
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, officer_line
from tertia.rulesets.charge_yr_pikes.data import unit_data
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.tables import Tables

OFF_TABLE = "off_table"
AT_TRAIN = "at_train"
RETURNING = "returning"
PLUNDERING = "plundering"
"""Why a plundering unit is out of play."""


def officer_morale_bonus(tables: Tables, state: GameState, unit_id: str, *, graded: bool = True) -> int:
    """"Normal officer bonuses apply": the morale bonus of the officers in its front rank."""
    total = 0
    for o in front_rank_officers(state, unit_id):
        total += officer_line(tables, o, graded=graded).morale
    return total


def _table_roll(tx: Tx, tables: Tables, unit_id: str, purpose: str, faces: Sequence[int], *,
                graded: bool) -> bool:
    face = tx.roll(D6, f"{purpose}: {tx.state.units[unit_id].label}")
    return min(6, face + officer_morale_bonus(tables, tx.state, unit_id, graded=graded)) in faces


def obeys(tx: Tx, tables: Tables, unit_id: str, *, graded: bool = True) -> bool:
    """21 A: a winning horse unit's obedience test; False: it attempts to plunder."""
    return _table_roll(tx, tables, unit_id, "plunder: obedience", tables.plunder.obedient, graded=graded)


def exit_point(table_depth: float, unit: Unit, enemy_edge: str) -> Point:
    """21 B: the place straight ahead on the enemy's table edge ("south" or "north")."""
    return (unit.x, 0.0 if enemy_edge == "south" else table_depth)


def go_plundering(tx: Tx, unit_id: str, path: Sequence[Point], *, at_train: bool = False) -> None:
    """21 B: the horse moves along ``path`` (its start first, ending where it leaves the
    table or at the baggage train) and begins plundering this turn."""
    unit = tx.state.units[unit_id]
    end = path[-1]
    facing = bearing(path[-2], end) if len(path) > 1 and path[-2] != end else unit.facing
    tx.emit(UnitMoved(unit=unit_id, path=tuple(path), facing=facing, reason="rides off to plunder"))
    change(tx, unit_id, "rides off to plunder", plundering=AT_TRAIN if at_train else OFF_TABLE,
           plunder_x=end[0], plunder_y=end[1], plunder_turn=tx.state.turn)
    if not at_train:
        tx.emit(UnitRemoved(unit=unit_id, reason=PLUNDERING, detail="off the table plundering"))


def stops_plundering(tx: Tx, tables: Tables, unit_id: str, *, graded: bool = True) -> bool:
    """21 C: at the end of a turn, does a plundering unit cease? Rolled only once it has
    spent a whole turn plundering. Off the table it returns on its next card; at the
    train it is free at once."""
    own = unit_data(tx.state.units[unit_id])
    if own.plundering not in (OFF_TABLE, AT_TRAIN) or own.plunder_turn is None \
            or tx.state.turn <= own.plunder_turn:
        return False
    if not _table_roll(tx, tables, unit_id, "plunder: returns", tables.plunder.returns, graded=graded):
        return False
    if own.plundering == AT_TRAIN:
        change(tx, unit_id, "stops plundering", plundering=None, plunder_x=None, plunder_y=None,
               plunder_turn=None)
    else:
        change(tx, unit_id, "stops plundering", plundering=RETURNING)
    return True


def reenter(tx: Tx, tables: Tables, unit_id: str, table_width: float, table_depth: float) -> Point:
    """21 C: the returning horse comes back on at its exit point, or 24" to its right or
    left as it faces onto the table (a D6); placed just inside the edge, facing in."""
    unit = tx.state.units[unit_id]
    own = unit_data(unit)
    x, y = own.plunder_x or 0.0, own.plunder_y or 0.0
    facing = 180.0 if y >= table_depth / 2.0 else 0.0
    where = tables.plunder.reentry[tx.roll(D6, f"plunder: re-entry of {unit.label}")]
    fx, fy = heading_vector(facing)
    right = (fy, -fx)
    shift = {"right": 1.0, "exit": 0.0, "left": -1.0}[where] * tables.plunder.reentry_shift
    half = unit.width / 2.0
    x = min(max(x + right[0] * shift, half), table_width - half)
    y = unit.depth / 2.0 if facing == 0.0 else table_depth - unit.depth / 2.0
    tx.emit(UnitDeployed(unit=unit_id, x=x, y=y, facing=facing))
    change(tx, unit_id, "back from plundering", plundering=None, plunder_x=None, plunder_y=None,
           plunder_turn=None, reentered_turn=tx.state.turn)
    return (x, y)


def may_charge(state: GameState, unit_id: str) -> bool:
    """21 D: a unit back from plundering may not attack into close combat the turn it
    comes back (nor while it plunders)."""
    own = unit_data(state.units[unit_id])
    return own.plundering is None and own.reentered_turn != state.turn
