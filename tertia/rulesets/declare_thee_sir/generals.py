"""Generals and the units they are attached to (Movement: "Attached generals move with unit
or are left stationary").

A general his unit would carry over the table's edge (pushed back, routing with its colours,
charging) is left stationary: he stays where he stood, on his own. A move the player places
may not carry him off (the rule set refuses it).

Whenever the unit's footprint changes where it stands, he keeps his place about the new one
(:func:`reformed_generals`, :func:`carry_reformed_generals`): through a formation change,
whose front edge stays where it was (so one behind a regiment forming long march stands
behind its new rear edge), and a regiment closing up behind its forlorn hope or taking it
back. One with no room there (off the table, in water, on another piece or on another of
the unit's generals) is left stationary, on his own, where he stood (:func:`reformed_places`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from tertia.core.events import UnitMoved
from tertia.core.geometry import heading_vector, polygons_overlap
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.rules.involuntary import piece_under
from tertia.rulesets.declare_thee_sir import water
from tertia.rulesets.declare_thee_sir.edge import on_table
from tertia.rulesets.declare_thee_sir.events import GeneralAttached
from tertia.rulesets.declare_thee_sir.points import attached_pieces, follow_generals
from tertia.rulesets.declare_thee_sir.values import unit_data

ATTACH_REACH = 0.05
"""A general this close to a unit (edge to edge) touches it, and attaches."""


def attached_generals(state: GameState, unit_id: str) -> list[Unit]:
    """The generals in play attached to the unit ``unit_id``."""
    return list(_attachments(state).get(unit_id, ()))


def _attachments(state: GameState) -> dict[str, tuple[Unit, ...]]:
    """Each unit's attached generals, found once for a state (which never changes)."""
    found: dict[str, tuple[Unit, ...]] | None = state.cache.get(_ATTACHMENTS)
    if found is None:
        found = {}
        for g in attached_pieces(state):
            to = unit_data(g).attached_to
            assert to is not None  # what the sieve holds
            found[to] = (*found.get(to, ()), g)
        state.cache[_ATTACHMENTS] = found
    return found


_ATTACHMENTS = ("declare-thee-sir", "attached generals")


def attach(tx: Tx, general_id: str, unit_id: str | None) -> None:
    """``general_id`` is now attached to ``unit_id`` (``None``: on his own); the morale
    point he adds goes with him (option ``general_point``,
    :func:`~tertia.rulesets.declare_thee_sir.points.follow_generals`)."""
    left = unit_data(tx.state.units[general_id]).attached_to
    tx.emit(GeneralAttached(general=general_id, unit=unit_id))
    if left != unit_id:
        follow_generals(tx, left, general_id)
        follow_generals(tx, unit_id)


def carry_generals(tx: Tx, unit: Unit, dx: float, dy: float, facing: float | None = None) -> None:
    """Attached generals "move with unit": each is carried the unit's way (``unit`` as it
    stood before), keeping his place about it; when it turns to ``facing`` he turns with
    it, so a general behind his regiment stays behind it. One it would carry over the
    table's edge is left stationary, on his own."""
    _carry(tx, carried_generals(tx.state, unit, dx, dy, facing), lambda g: on_table(tx.table, g.base))


def carry_reformed_generals(tx: Tx, unit: Unit, placed: Unit, *, ignore: Collection[str] = ()) -> None:
    """Attached generals "move with unit" as its footprint changes where it stands (``unit``
    as it stood before, ``placed`` as it stands after: a formation change, a regiment closing
    up behind its forlorn hope or taking it back): each keeps his
    place about the new footprint (:func:`reformed_generals`); one with no room there is left
    stationary, on his own (:func:`reformed_places`; pieces in ``ignore`` are not in his way)."""
    found = reformed_places(tx.table, tx.state, unit, placed, ignore=ignore)
    going = {g.id for g in found.going}
    _carry(tx, reformed_generals(tx.state, unit, placed), lambda g: g.id in going)


def _carry(tx: Tx, carried: Iterable[Unit], fits: Callable[[Unit], bool]) -> None:
    """Each of ``carried`` (a general where his unit takes him) goes there if he ``fits``
    there, and is left where he stood, on his own, if not."""
    for g in carried:
        if not fits(g):
            attach(tx, g.id, None)
            continue
        before = tx.state.units[g.id]
        tx.emit(UnitMoved(unit=g.id, path=((before.x, before.y), (g.x, g.y)), facing=g.facing,
                          reason="with its unit"))


def carried_generals(state: GameState, unit: Unit, dx: float, dy: float,
                     facing: float | None = None) -> list[Unit]:
    """``unit``'s attached generals where its move of (``dx``, ``dy``), ending facing
    ``facing``, carries them (none when it neither moves nor turns)."""
    turn = 0.0 if facing is None else (facing - unit.facing) % 360.0
    if min(turn, 360.0 - turn) < 1e-9:
        turn = 0.0
    if abs(dx) < 1e-9 and abs(dy) < 1e-9 and turn == 0.0:
        return []
    out = []
    for g in attached_generals(state, unit.id):
        ox, oy = _turned(g.x - unit.x, g.y - unit.y, turn)
        out.append(g.evolve(x=unit.x + dx + ox, y=unit.y + dy + oy, facing=(g.facing + turn) % 360.0))
    return out


def reformed_generals(state: GameState, unit: Unit, placed: Unit) -> list[Unit]:
    """``unit``'s attached generals where its formation change to ``placed`` (its front
    edge where it was) takes them: each keeps his place about it, reckoned along the
    unit's facing and across it. One before its front keeps his distance before it (the
    front has not moved); one behind its rear edge keeps his distance behind the new rear
    edge; one off a flank keeps his distance from the new flank; one alongside keeps his
    share of the way from the rear to the front (and one before or behind it his share of
    the way across). Those the change does not move are left out."""
    fx, fy = heading_vector(unit.facing)
    rx, ry = fy, -fx  # the unit's right
    d0, d1 = unit.depth / 2.0, placed.depth / 2.0
    w0, w1 = unit.width / 2.0, placed.width / 2.0
    out = []
    for g in attached_generals(state, unit.id):
        ox, oy = g.x - unit.x, g.y - unit.y
        along, across = _kept(ox * fx + oy * fy, d0, d1), _kept(ox * rx + oy * ry, w0, w1)
        x, y = placed.x + along * fx + across * rx, placed.y + along * fy + across * ry
        if abs(x - g.x) > 1e-9 or abs(y - g.y) > 1e-9:
            out.append(g.evolve(x=x, y=y))
    return out


def _kept(offset: float, half: float, new_half: float) -> float:
    """An offset from a unit's centre along one axis, where the unit's half-extent on it
    goes from ``half`` to ``new_half``: beyond the edge the distance from the edge is
    kept, within it the share of the way across."""
    if offset > half:
        return offset - half + new_half
    if offset < -half:
        return offset + half - new_half
    return offset * new_half / half if half > 0 else 0.0


def has_room(table: Battlefield, state: GameState, unit: Unit, placed: Unit, general: Unit,
             ignore: Collection[str] = ()) -> bool:
    """Has ``general``, carried to his place about ``placed`` (``unit`` reformed), room
    there: on the table, out of water (a lake, a river away from its fords and bridges),
    off the unit and every other piece but those in ``ignore`` (the unit's attached
    generals, all moving with it, aside: :func:`reformed_places` keeps them apart)?"""
    corners = general.base.corners()
    if not on_table(table, general.base) or placed.overlaps(corners) or water.wet(table, (corners,)):
        return False
    going = {unit.id, *(g.id for g in attached_generals(state, unit.id)), *ignore}
    return piece_under(state, general.base, going) is None


@dataclass(frozen=True, slots=True)
class Reformed:
    """Where a unit's attached generals end as its footprint changes: ``going`` at their
    new places about it, ``left`` (with no room there) where they stood, on their own. The
    generals the change does not move are in neither."""

    going: tuple[Unit, ...]
    left: tuple[Unit, ...]


def reformed_places(table: Battlefield, state: GameState, unit: Unit, placed: Unit, *,
                    ignore: Collection[str] = ()) -> Reformed:
    """Where ``unit``'s attached generals end as it comes to stand as ``placed``: each goes
    to his place about it (:func:`reformed_generals`) if he has room there
    (:func:`has_room`) and it is clear of the unit's other generals, where they end; else
    he is left where he stood. Two whose places would overlap: the first in play order
    goes, the other stays; and one whose place is on a general who stays (the change does
    not move him, or he has no room) stays too, which may leave a third without his place,
    until none overlaps another."""
    moving = reformed_generals(state, unit, placed)
    moved = {g.id for g in moving}
    going = [g for g in moving if has_room(table, state, unit, placed, g, ignore)]
    left = moved - {g.id for g in going}
    unmoved = [g for g in attached_generals(state, unit.id) if g.id not in moved]
    while True:
        taken = [*unmoved, *(state.units[i] for i in sorted(left))]
        kept: list[Unit] = []
        for g in going:
            corners = g.base.corners()
            if any(polygons_overlap(corners, o.base.corners()) for o in (*taken, *kept)):
                left.add(g.id)
            else:
                kept.append(g)
        if len(kept) == len(going):
            break
        going = kept
    return Reformed(tuple(going), tuple(state.units[g.id] for g in moving if g.id in left))


def _turned(x: float, y: float, degrees: float) -> tuple[float, float]:
    """An offset turned ``degrees`` clockwise (as facings turn)."""
    if degrees == 0.0:
        return x, y
    r = math.radians(degrees)
    return x * math.cos(r) + y * math.sin(r), -x * math.sin(r) + y * math.cos(r)
