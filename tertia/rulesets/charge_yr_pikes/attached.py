"""Pieces that share a unit's fate: the officers in its front rank and its galloper guns;
and officers not in a front rank, whom no enemy overruns.

Tertias and officers D: "A general that is in the front rank of a unit which suffers any
morale failure must act move along with the unit, suffering any involuntary movements to
the rear that a falling back or routing unit may make. Said leader may not leave a routed
unit till it rallies and if it leaves the field, he is swept along with it." F: "A general
which is not in the front rank of a unit may not be over-run or captured by any enemy
unit. He is merely moved to the nearest friendly unit or place of safety." Galloper guns:
"These light guns must be attached to an infantry or cavalry unit. They must be touching
the unit at all times"; "Galloper guns do not take part in close combats but suffer the
fate of the unit to which they are attached"; Falling back D: "Galloper guns falling back
go to the rear normally".

Read so: whatever carries a unit (a fall-back, a rout) carries its front-rank officers
and gallopers the same distance the same way; whatever takes it off the field (routed
off, captured, destroyed, deserted) takes them with it, for the same reason. An officer
not in a front rank whom an enemy unit's move would cover is put just behind the nearest
friendly unit in play that is not routed (a routed one is no safety); with none, at his
own table edge straight behind him. So he is never in the way of an enemy's move: not of
a fall-back or rout (he is moved from where it ends), nor of a unit's own move, charge,
bonus move or breakthrough (he is moved from anywhere on its path,
:func:`officers_in_the_way`).

A galloper is limbered to its horse: whatever moves its unit (a move, a charge, a change
of formation, mounting, turning to meet a charge, falling back, a rout) takes the gun
with it, where it stood beside the unit, turned as the unit turned
(:func:`keep_gallopers`); where that leaves it apart from the unit or on it (the unit's
frontage changed), it is put touching the unit on the same side, straight out from the
unit's centre. On its own card a galloper may also move itself (the artillery's move),
but only to a place touching its unit (within ``TOUCHING``: a tenth of an inch, as a
player's hand places it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tertia.core.events import UnitMoved, UnitRemoved
from tertia.core.geometry import (
    EPSILON,
    Base,
    Polygon,
    base_distance,
    bases_overlap,
    first_contact,
    heading_vector,
    polygons_overlap,
)
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.involuntary import on_table, placed_on_table
from tertia.rules.measuring import home_edge
from tertia.rulesets.charge_yr_pikes.tables import Bonus, Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data


def front_rank_officers(state: GameState, unit_id: str) -> tuple[Unit, ...]:
    """The officers in play in ``unit_id``'s front rank."""
    return _attachments(state).get(unit_id, ((), ()))[0]


_ATTACHMENTS = "cyp_attachments"
"""Where a state remembers who is attached to whom (``GameState.cache``)."""


def _attachments(state: GameState) -> dict[str, tuple[tuple[Unit, ...], tuple[Unit, ...]]]:
    """Per unit, the officers in play in its front rank and the galloper guns in play
    attached to it. Remembered on the state (which never changes): moves, fire and morale
    ask it of every unit again and again."""
    found: dict[str, tuple[tuple[Unit, ...], tuple[Unit, ...]]] | None = state.cache.get(_ATTACHMENTS)
    if found is not None:
        return found
    officers: dict[str, list[Unit]] = {}
    guns: dict[str, list[Unit]] = {}
    # whether a piece is attached is its own: sifted once, a changed piece tested again
    for piece in state.pieces_where(_ATTACHED, _is_attached):
        own = unit_data(piece)
        to = own.attached_to
        if to is None:
            continue
        if own.is_officer:
            officers.setdefault(to, []).append(piece)
        elif own.gun == "galloper":
            guns.setdefault(to, []).append(piece)
    found = {uid: (tuple(officers.get(uid, ())), tuple(guns.get(uid, ()))) for uid in {*officers, *guns}}
    state.cache[_ATTACHMENTS] = found
    return found


def _is_attached(piece: Unit) -> bool:
    """An officer in a front rank or a galloper gun with its regiment."""
    own = unit_data(piece)
    return own.attached_to is not None and (own.is_officer or own.gun == "galloper")


_ATTACHED = "cyp attached pieces"


def officer_line(tables: Tables, officer: Unit, *, graded: bool = True) -> Bonus:
    """What an officer adds (Tertias and officers 4 E, Special rules A, section 22): his
    grade's line when grades are used and he has one, else his rank's (a staff officer's
    own line)."""
    own = unit_data(officer)
    if graded and own.grade is not None:
        return tables.officer_bonus.grade[own.grade]  # type: ignore[index]  # a grade name
    return tables.officer_bonus.rank[own.rank or "staff"]  # type: ignore[index]  # a rank name


def gallopers(state: GameState, unit_id: str) -> tuple[Unit, ...]:
    """The galloper guns in play attached to ``unit_id``."""
    return _attachments(state).get(unit_id, ((), ()))[1]


def sharing_fate(state: GameState, unit_id: str) -> list[str]:
    """Everything carried with ``unit_id``: its front-rank officers, then its gallopers."""
    return [u.id for u in (*front_rank_officers(state, unit_id), *gallopers(state, unit_id))]


def may_leave(state: GameState, officer_id: str) -> bool:
    """May an officer leave the unit he leads? Not a routed one: "Said leader may not
    leave a routed unit till it rallies"."""
    led = unit_data(state.units[officer_id]).attached_to
    return led is None or led not in state.units or not unit_data(state.units[led]).routed


def carry(tx: Tx, unit_id: str, before: tuple[float, float], reason: str) -> None:
    """Move what shares ``unit_id``'s fate as far and the same way as it moved from
    ``before`` (they face as it now faces; a galloper is then put touching it). A
    front-rank officer so carried past the table's edge (his unit stopped with its rear
    on it) stays on the table at the edge, with his unit."""
    unit = tx.state.units[unit_id]
    dx, dy = unit.x - before[0], unit.y - before[1]
    if abs(dx) <= EPSILON and abs(dy) <= EPSILON:
        return
    size = (tx.table.width, tx.table.depth)
    for piece_id in sharing_fate(tx.state, unit_id):
        piece = tx.state.units[piece_id]
        end = piece.base.moved_to(piece.x + dx, piece.y + dy, unit.facing)
        end = touching(unit.base, end) if unit_data(piece).gun == "galloper" else placed_on_table(end, size)
        tx.emit(UnitMoved(unit=piece_id, path=((piece.x, piece.y), end.centre), facing=end.facing,
                          reason=reason))


TOUCHING = 0.1
"""How near a galloper placed by hand must stand to its unit to touch it (inches)."""


def touches(unit: Base, gun: Base) -> bool:
    """Does a galloper standing at ``gun`` touch its unit at ``unit`` (and not stand on it)?"""
    return base_distance(unit, gun) <= TOUCHING + EPSILON and not bases_overlap(unit, gun)


def touching(unit: Base, gun: Base) -> Base:
    """``gun`` if it touches ``unit`` exactly enough, else moved straight out from (or in
    towards) the unit's centre until it just touches it (behind it when on its centre)."""
    if base_distance(unit, gun) <= EPSILON and not bases_overlap(unit, gun):
        return gun
    dx, dy = gun.x - unit.x, gun.y - unit.y
    length = math.hypot(dx, dy)
    if length <= EPSILON:
        fx, fy = heading_vector(unit.facing)
        dx, dy, length = -fx, -fy, 1.0
    dx, dy = dx / length, dy / length
    far = unit.radius + gun.radius + 1.0
    out = gun.moved_to(unit.x + dx * far, unit.y + dy * far)
    back = first_contact(out.corners(), unit.corners(), (-dx, -dy), 0.0)
    return out.moved_to(out.x - dx * back, out.y - dy * back)


def carried_along(before: Base, after: Base, piece: Base) -> Base:
    """Where ``piece`` stands when what it stood beside moves from ``before`` to
    ``after``: moved and turned with it, as if one body."""
    turn = after.facing - before.facing
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    rx, ry = piece.x - before.x, piece.y - before.y
    return piece.moved_to(after.x + rx * c + ry * s, after.y - rx * s + ry * c, (piece.facing + turn) % 360.0)


def keep_gallopers(tx: Tx, unit_id: str, before: Base, reason: str = "with its unit") -> None:
    """Galloper guns "must be touching the unit at all times": ``unit_id``'s gallopers go
    where its move from ``before`` took it, turned as it turned, put touching it."""
    unit = tx.state.units[unit_id]
    for gun in gallopers(tx.state, unit_id):
        end = touching(unit.base, carried_along(before, unit.base, gun.base))
        if end != gun.base:
            tx.emit(UnitMoved(unit=gun.id, path=((gun.x, gun.y), end.centre), facing=end.facing,
                              reason=reason))


def leave_field(tx: Tx, unit_id: str, reason: str, detail: str) -> None:
    """``unit_id`` leaves the field for ``reason``; its front-rank officers and gallopers
    are swept along with it."""
    label = tx.state.units[unit_id].label
    for piece_id in sharing_fate(tx.state, unit_id):
        tx.emit(UnitRemoved(unit=piece_id, reason=reason, detail=f"swept along with {label}"))
    tx.emit(UnitRemoved(unit=unit_id, reason=reason, detail=detail))


def overrun_officers(tx: Tx, unit_id: str) -> list[str]:
    """Enemy officers not in a front rank whom ``unit_id`` now stands on are moved to
    safety (4 F); returns them."""
    unit = tx.state.units[unit_id]
    found = [o.id for o in tx.state.iter_units() if o.side != unit.side and unit_data(o).is_officer
             and unit_data(o).attached_to is None and bases_overlap(o.base, unit.base)]
    for officer_id in found:
        to_safety(tx, officer_id)
    return found


def lone_enemy_officers(state: GameState, side: str) -> tuple[str, ...]:
    """The officers of ``side``'s enemies in no unit's front rank: never in its way (4 F).
    Found once for a state and side (every move and charge judged asks)."""
    key = (_LONE_ENEMY_OFFICERS, side)
    found: tuple[str, ...] | None = state.cache.get(key)
    if found is None:
        # an officer's side and post are his own: sifted once, a changed piece tested again
        found = state.cache[key] = tuple(o.id for o in state.pieces_where(key, lambda o: o.side != side and (
            unit_data(o).is_officer and unit_data(o).attached_to is None)))
    return found


_LONE_ENEMY_OFFICERS = "cyp lone enemy officers"


def officers_in_the_way(tx: Tx, unit_id: str, areas: Sequence[Polygon]) -> list[str]:
    """Enemy officers not in a front rank whose bases ``unit_id``'s own move covers
    (``areas``: its path) are moved to safety (4 F); returns them."""
    side = tx.state.units[unit_id].side
    found = [o for o in lone_enemy_officers(tx.state, side)
             if any(polygons_overlap(a, tx.state.units[o].base.corners()) for a in areas)]
    for officer_id in found:
        to_safety(tx, officer_id)
    return found


def to_safety(tx: Tx, officer_id: str) -> None:
    """Move an officer not in a front rank "to the nearest friendly unit or place of
    safety": just behind the nearest friendly unit that is not routed (beside it, left or
    else right, where its rear is at the table's edge), or else to his own table edge;
    always wholly on the table."""
    officer = tx.state.units[officer_id]
    size = (tx.table.width, tx.table.depth)
    friend = _nearest_friend(tx.state, officer)
    if friend is not None:
        fx, fy = heading_vector(friend.facing)
        back = friend.depth / 2.0 + officer.depth / 2.0
        aside = friend.width / 2.0 + officer.width / 2.0
        places = [(friend.x - fx * back, friend.y - fy * back),  # behind, then left, then right
                  (friend.x - fy * aside, friend.y + fx * aside),
                  (friend.x + fy * aside, friend.y - fx * aside)]
        end, facing = places[0], friend.facing
        end = next((p for p in places if on_table(officer.base.moved_to(*p, facing), size)), end)
    else:
        south = home_edge(tx.state, officer.side) == "south"
        y = officer.depth / 2.0 if south else tx.table.depth - officer.depth / 2.0
        end, facing = (officer.x, y), officer.facing
    end = placed_on_table(officer.base.moved_to(*end, facing), size).centre
    tx.emit(UnitMoved(unit=officer_id, path=((officer.x, officer.y), end), facing=facing, reason="to safety"))


def _nearest_friend(state: GameState, officer: Unit) -> Unit | None:
    friends = [u for u in state.iter_troops(officer.side)
               if not unit_data(u).routed and not unit_data(u).is_officer]
    return min(friends, key=lambda u: (base_distance(officer.base, u.base), u.id), default=None)
