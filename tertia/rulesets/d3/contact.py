"""Contact between bases: who is engaged in melee, which face an attacker is on, who
charged whom, and who was only touched in passing."""

from __future__ import annotations

from collections.abc import Mapping

from tertia.core.geometry import CONTACT, EPSILON, Face, face_towards, is_within
from tertia.core.state import GameState, Unit
from tertia.core.violations import CoreCode, Violation
from tertia.rules.measuring import pieces_near

REACH = CONTACT + EPSILON
"""Bases this close (edge to edge) are in contact."""


CHARGES = "charges"
"""A game-wide value (``D3Data``): each unit that charged home, by id, and the unit it charged; the
record lasts until either of them moves."""


def charges(state: GameState) -> Mapping[str, str]:
    found = state.value(CHARGES)
    return found if isinstance(found, Mapping) else {}


def charger_between(state: GameState, a: Unit, b: Unit) -> str | None:
    """The id of whichever of ``a`` and ``b`` charged the other, if either did."""
    record = charges(state)
    if record.get(a.id) == b.id:
        return a.id
    if record.get(b.id) == a.id:
        return b.id
    return None


PASSING = "passing"
"""A game-wide value (``D3Data``): [charger, unit] pairs, a unit a charge touched besides the one it
charged. They touch but are not in melee, until either of them moves."""


def passing(state: GameState) -> list[list[str]]:
    found = state.value(PASSING)
    return [list(p) for p in found] if isinstance(found, list | tuple) else []


def in_passing(state: GameState, a: str, b: str) -> bool:
    """``a`` and ``b`` touch only because a charge brushed one against the other."""
    found = state.value(PASSING)
    if not found:
        return False
    return any(a in pair and b in pair for pair in found)


def in_contact(a: Unit, b: Unit) -> bool:
    return is_within(a.base, b.base, REACH)


def _engaged_with(state: GameState, unit: Unit) -> tuple[Unit, ...]:
    enemy = state.opponent(unit.side)
    return tuple(o for o in pieces_near(state, unit.base, REACH)
                 if o.side == enemy and not o.is_commander
                 and in_contact(unit, o) and not in_passing(state, unit.id, o.id))


def enemy_contacts(state: GameState, unit: Unit) -> tuple[Unit, ...]:
    """Enemy troop units in play in melee with ``unit``: touching it, and not only in
    passing (remembered on the state)."""
    if state.units.get(unit.id) is not unit:
        return _engaged_with(state, unit)
    key = ("d3_contacts", unit.id)
    found = state.cache.get(key)
    if found is None:
        found = _engaged_with(state, unit)
        state.cache[key] = found
    return tuple(found)


def is_engaged(state: GameState, unit: Unit) -> bool:
    """In melee: in contact with an enemy troop unit."""
    return bool(enemy_contacts(state, unit))


def face_attacked(target: Unit, attacker: Unit) -> Face:
    """The face of ``target`` the attacker is on, judged from the attacker's centre."""
    return face_towards(target.base, (attacker.x, attacker.y))


def is_flank_or_rear(target: Unit, attacker: Unit) -> bool:
    return face_attacked(target, attacker) is not Face.FRONT


def already_fought(state: GameState, unit: Unit, rule: str, withdraw_rule: str) -> list[Violation]:
    """A unit shoots or fights once an activation, and one that withdrew from a melee may
    do nothing else."""
    for mark in ("shot", "meleed"):
        if state.is_marked(mark, unit.id):
            return [Violation(CoreCode.ALREADY_ACTED, f"{unit.label} has already {mark} this activation",
                              rule)]
    if state.is_marked("withdrew", unit.id):
        return [Violation(CoreCode.ALREADY_ACTED,
                          f"{unit.label} withdrew from a melee and may do nothing else", withdraw_rule)]
    return []
