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
  (``removed = "plundering"``), or leaves it plundering at the train. :func:`ride_off`
  chooses the way (:func:`plunder_path`): at the enemy's baggage train (its wagons) when
  it is on the table, the nearest, halting in contact with it, else off the enemy's edge;
  straight at it when no enemy unit is in the way, else at the smallest angle off the
  straight line (in steps of ``ANGLE_STEP`` degrees either side, the right first, up to
  ``WIDEST``) whose way is clear of enemy units, still one straight ride; when none is
  clear, straight. Friends are ridden through (one already at the train halts it short, in
  contact with that friend: it may not end on it); officers are no obstacle (Tertias and
  officers F).
- C: "At the end of the plundering turn roll for the re-entry ... 1,2,3 Cavalry still
  plundering; 4,5,6 Cavalry returns next move on its card. Normal officer bonuses apply":
  :func:`stops_plundering`, rolled at the end of every turn after the one it left in
  (:func:`end_of_turn`); returning horse come back on their tertia's card
  (:func:`come_back`), without a command response, and may move.
  "If the baggage train is on the table, the plundering cavalry remain there plundering
  till they cease": at the train, ceasing frees it at once. "If attacked by enemy, they
  fight as disordered" (the dice count it, :mod:`~tertia.rulesets.charge_yr_pikes.melee_dice`).
  "As they re-enter roll one D6: 1 Cavalry enters 24" to right of exit point; 2-5 at exit
  point; 6 24" to left": right and left as the horse faces coming back onto the table
  (:func:`reenter`).
- D: "Re-entering cavalry use normal move distance. No command response is necessary to
  re-enter. Re-entering units may not attack into close combat on the turn in which they
  re-enter, unless there is no way to re-enter the table without fighting":
  :func:`may_charge`, asked of every charge (the exception is not read: a unit coming
  back is placed just inside the edge, and may always move without fighting).
- E: "Units off table plundering are counted as dead for major army morale or victory
  conditions": they are out of play (``removed``), and the victory tables count them whole.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from tertia.core.dice import D6, read_face
from tertia.core.events import UnitDeployed, UnitMoved, UnitRemoved
from tertia.core.geometry import Point, bearing, heading_vector
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.involuntary import Interpenetration, nearest_clear, placed_on_table, plan_slide
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, officer_line
from tertia.rulesets.charge_yr_pikes.events import CommandResponded, change
from tertia.rulesets.charge_yr_pikes.secret_grades import PLUNDER, called_on
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

REENTRY_INWARD = 12.0
"""The furthest in from the edge horse coming back are placed to find room (21 C)."""
OFF_TABLE = "off_table"
AT_TRAIN = "at_train"
RETURNING = "returning"
PLUNDERING = "plundering"
"""Why a plundering unit is out of play."""
ANGLE_STEP: Final = 5.0
WIDEST: Final = 85.0
"""21 B, "at any angle if necessary to avoid enemy units": the angles off the straight
line tried, in degrees."""


def officer_morale_bonus(tables: Tables, state: GameState, unit_id: str, *, graded: bool = True) -> int:
    """"Normal officer bonuses apply": the morale bonus of the officers in its front rank."""
    total = 0
    for o in front_rank_officers(state, unit_id):
        total += officer_line(tables, o, graded=graded).morale
    return total


def _table_roll(tx: Tx, tables: Tables, unit_id: str, purpose: str, faces: Sequence[int], *,
                graded: bool) -> bool:
    if graded:
        called_on(tx, front_rank_officers(tx.state, unit_id), PLUNDER)
    face = tx.roll(D6, f"{purpose}: {tx.state.units[unit_id].label}")
    bonus = officer_morale_bonus(tables, tx.state, unit_id, graded=graded)
    return read_face(face, D6, lambda f: min(6, f + bonus) in faces)


def obeys(tx: Tx, tables: Tables, unit_id: str, *, graded: bool = True) -> bool:
    """21 A: a winning horse unit's obedience test; False: it attempts to plunder."""
    return _table_roll(tx, tables, unit_id, "plunder: obedience", tables.plunder.obedient, graded=graded)


def exit_point(table_depth: float, unit: Unit, enemy_edge: str) -> Point:
    """21 B: the place straight ahead on the enemy's table edge ("south" or "north")."""
    return (unit.x, 0.0 if enemy_edge == "south" else table_depth)


def baggage_train(state: GameState, unit: Unit) -> Unit | None:
    """The enemy's baggage train nearest ``unit``, if it is on the table: its wagons in play."""
    wagons = [u for u in state.iter_units(state.opponent(unit.side)) if unit_data(u).troop == "wagons"]
    return min(wagons, key=lambda w: (math.dist(w.base.centre, unit.base.centre), w.id), default=None)


def _angles() -> list[float]:
    out = [0.0]
    step = ANGLE_STEP
    while step <= WIDEST + 1e-9:
        out += [step, -step]
        step += ANGLE_STEP
    return out


def plunder_path(state: GameState, unit: Unit, table: tuple[float, float], enemy_edge: str
                 ) -> tuple[tuple[Point, Point], bool]:
    """21 B: the plunderers' ride, from where they stand to the enemy's baggage train (True)
    or off the enemy's edge (False): straight if no enemy unit is in the way, else at the
    smallest angle that avoids them."""
    train = baggage_train(state, unit)
    officers = {u.id for u in state.iter_units() if unit_data(u).is_officer}
    if train is not None:
        # friends are ridden through, but it halts short of one at the train (never on it)
        ignore, policy = officers, Interpenetration.PASS_FRIENDS
        straight = bearing(unit.base.centre, train.base.centre)
    else:
        ignore, policy = officers | {u.id for u in state.iter_units(unit.side)}, Interpenetration.STOP
        straight = 180.0 if enemy_edge == "south" else 0.0
    reach = math.hypot(*table)
    fallback: tuple[Point, Point] | None = None
    for angle in _angles():
        heading = (straight + angle) % 360.0
        slide = plan_slide(state, unit.evolve(facing=heading), heading=heading, distance=reach,
                           policy=policy, table=table, ignore=ignore)
        if train is not None:
            clear = slide.stopped_by == train.id
            end = slide.end.centre
        else:
            exit_at = _edge_crossing(unit.base.centre, heading, table, enemy_edge)
            clear = exit_at is not None and (slide.stopped_by is None or slide.distance >= math.dist(
                unit.base.centre, exit_at) - 1e-6)
            end = exit_at or unit.base.centre
        if fallback is None:  # the straight ride, taken when no angle is clear
            fallback = (unit.base.centre, end)
        if clear:
            return (unit.base.centre, end), train is not None
    assert fallback is not None
    return fallback, train is not None


def _edge_crossing(start: Point, heading: float, table: tuple[float, float], enemy_edge: str) -> Point | None:
    """Where a ride from ``start`` along ``heading`` crosses the enemy's edge, if it does so
    within the table's width."""
    dx, dy = heading_vector(heading)
    edge_y = 0.0 if enemy_edge == "south" else table[1]
    if abs(dy) < 1e-9 or (edge_y - start[1]) / dy < 0:
        return None
    t = (edge_y - start[1]) / dy
    x = start[0] + dx * t
    return (x, edge_y) if 0.0 <= x <= table[0] else None


def ride_off(tx: Tx, unit_id: str) -> None:
    """21 B: horse that attempts to plunder rides off at once (:func:`plunder_path`)."""
    unit = tx.state.units[unit_id]
    enemy_edge = game_data(tx.state).edges.get(tx.state.opponent(unit.side), "north")
    path, at_train = plunder_path(tx.state, unit, (tx.table.width, tx.table.depth), enemy_edge)
    go_plundering(tx, unit_id, path, at_train=at_train)


def go_plundering(tx: Tx, unit_id: str, path: Sequence[Point], *, at_train: bool = False) -> None:
    """21 B: the horse moves along ``path`` (its start first, ending where it leaves the
    table or at the baggage train) and begins plundering this turn."""
    unit = tx.state.units[unit_id]
    end = path[-1]
    facing = bearing(path[-2], end) if len(path) > 1 and path[-2] != end else unit.facing
    if at_train:  # they stay on the table, beside the train where it stands at the edge
        end = placed_on_table(unit.base.moved_to(*end, facing), (tx.table.width, tx.table.depth)).centre
        path = (*path[:-1], end)
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
    left as it faces onto the table (a D6); placed just inside the edge, facing in, or,
    where another piece stands there, at the nearest place clear of every piece, along the
    edge (within the 24") or further in (within :data:`REENTRY_INWARD`)."""
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
    # where a piece stands there, at the nearest place clear of every piece, along the edge
    # or further in
    placed = unit.base.moved_to(x, y, facing)
    clear = nearest_clear(tx.state, unit_id, placed, right, (fx, fy), tables.plunder.reentry_shift,
                          REENTRY_INWARD, (table_width, table_depth))
    if clear is not None:
        x, y = clear.x, clear.y
    tx.emit(UnitDeployed(unit=unit_id, x=x, y=y, facing=facing))
    change(tx, unit_id, "back from plundering", plundering=None, plunder_x=None, plunder_y=None,
           plunder_turn=None, reentered_turn=tx.state.turn)
    return (x, y)


def end_of_turn(tx: Tx, tables: Tables) -> None:
    """21 C: at the end of a turn each plundering unit that has plundered a whole turn rolls
    to cease (:func:`stops_plundering`)."""
    for unit in list(tx.state.iter_units(include_removed=True)):
        if unit_data(unit).plundering in (OFF_TABLE, AT_TRAIN) and unit.removed in (None, PLUNDERING):
            stops_plundering(tx, tables, unit.id)


def come_back(tx: Tx, tables: Tables, card: str, side: str, tertia: str) -> None:
    """21 C, D: "Cavalry returns next move on its card": on its tertia's card the horse
    returning from plunder comes back onto the table (:func:`reenter`) and may move; "No
    command response is neccesary to re-enter"."""
    back: list[str] = []
    for unit in list(tx.state.iter_units(side, include_removed=True)):
        if unit.command == tertia and unit.removed == PLUNDERING and unit_data(unit).plundering == RETURNING:
            reenter(tx, tables, unit.id, tx.table.width, tx.table.depth)
            back.append(unit.id)
    if back:
        tx.emit(CommandResponded(card=card, officer=None, units=tuple(back), face=0, obeyed=True))


def may_charge(state: GameState, unit_id: str) -> bool:
    """21 D: a unit back from plundering may not attack into close combat the turn it
    comes back (nor while it plunders)."""
    own = unit_data(state.units[unit_id])
    return own.plundering is None and own.reentered_turn != state.turn
