"""Generals and the units they are attached to (Movement: "Attached generals move with unit
or are left stationary").

A general his unit would carry over the table's edge (pushed back, routing with its colours,
charging) is left stationary: he stays where he stood, on his own. A move the player places
may not carry him off (the rule set refuses it)."""

from __future__ import annotations

import math

from tertia.core.events import UnitMoved
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
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
    for g in carried_generals(tx.state, unit, dx, dy, facing):
        if not on_table(tx.table, g.base):
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


def _turned(x: float, y: float, degrees: float) -> tuple[float, float]:
    """An offset turned ``degrees`` clockwise (as facings turn)."""
    if degrees == 0.0:
        return x, y
    r = math.radians(degrees)
    return x * math.cos(r) + y * math.sin(r), -x * math.sin(r) + y * math.cos(r)
