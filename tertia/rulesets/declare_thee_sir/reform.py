"""Formation changes (Game Play option 1, "Formation Change"; Formations a-c; Optional
Rules a-b): what a unit may change to, and where its stands then stand.

A unit changes to line, long march or (infantry only) hedgehog, its front edge where it
was; dragoons mount or dismount; under their options cavalry with firelocks caracole and
musketeers take up the forlorn hope. Each needs room: the stands laid out anew stay on the
table, out of water (a lake, a river away from its fords and bridges) and off every other
piece (a forlorn hope needs room before its regiment). The
unit's attached generals are not in its way: they "move with unit", keeping their place
about its new footprint (:func:`~tertia.rulesets.declare_thee_sir.generals.reformed_generals`),
clear of each other; one with no room there is left where he stood, on his own, unless the
unit now stands there, when he is in its way as any piece is.

"Once an option is declared, the commander proceeds to determine its execution": a
commander declares a formation change only when his unit has one it can carry out now.
:func:`problems` is the one test of a change, asked both when the change is made and, for
every change the unit might make, when the card is drawn and the options open to its
commander are listed (:func:`can_reform`); with no change possible, option 1 is not among
them, and a commander who declares it anyway is told why (:func:`why_none`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.state import GameState, Unit
from tertia.core.terrain import Battlefield
from tertia.core.violations import Violation
from tertia.rules.codes import MovementCode
from tertia.rules.formations import footprint, reformed_centre
from tertia.rules.movement import iter_room_violations
from tertia.rulesets.declare_thee_sir import clauses, forlorn, generals, water
from tertia.rulesets.declare_thee_sir.codes import DtsCode
from tertia.rulesets.declare_thee_sir.data import CARACOLE, FORLORN_HOPE, FORMATION_NAMES, LONG_MARCH, DtsUnit
from tertia.rulesets.declare_thee_sir.stands import LAYOUTS
from tertia.rulesets.declare_thee_sir.troops import ARTILLERY
from tertia.rulesets.declare_thee_sir.values import unit_data

MOUNT, DISMOUNT = "mount", "dismount"
"""Dragoons mount or dismount as a formation change (the issue's reading of the text's
"mounted" and "dismounted dragoons"): mounted they move 2D6 and fire 3" + 1D6, on foot
1D6 and 6" + 1D6."""

CHOICES: tuple[str, ...] = (*FORMATION_NAMES, CARACOLE, FORLORN_HOPE, MOUNT, DISMOUNT)
"""Every change a formation change may make."""

REFUSED_OUTRIGHT = frozenset({DtsCode.UNKNOWN_FORMATION, DtsCode.FORMATION_NOT_ALLOWED,
                              DtsCode.SAME_FORMATION})
"""Refusals that hold wherever the unit stands (its troop type, an option off, the
formation it is in): the rest are the table's (no room)."""


def shape_of(own: DtsUnit, formation: str | None) -> tuple[float, float]:
    """A unit's footprint (width, depth) in ``formation`` (None: its own): its stands laid
    out by the formation (Formations a-c); a gun in long march is turned sideways (b)."""
    formation = own.formation if formation is None else formation
    if own.troop == ARTILLERY and formation == LONG_MARCH:
        return own.stand_depth, own.stand_width
    return footprint(LAYOUTS[formation], own.stands_left, own.stand_width, own.stand_depth)


def reformed(unit: Unit, formation: str) -> Unit:
    """``unit`` in ``formation``, its front edge where it was."""
    width, depth = shape_of(unit_data(unit), formation)
    x, y = reformed_centre(unit.base, depth)
    return unit.evolve(x=x, y=y, width=width, depth=depth, formation=formation)


def problems(table: Battlefield, state: GameState, unit: Unit, name: str,
             options: Mapping[str, Any]) -> list[Violation]:
    """Why ``unit`` may not change to ``name`` where it stands (empty: it may), under the
    rule set's ``options`` (``caracole``, ``forlorn_hope``): Formations a-c, dragoons
    mounting and dismounting, Optional Rules a-b."""
    rule = clauses.FORMATIONS
    own = unit_data(unit)
    if name in (MOUNT, DISMOUNT):
        if own.troop != "dragoons":
            return [Violation(DtsCode.FORMATION_NOT_ALLOWED, "only dragoons mount and dismount", rule)]
        if own.mounted == (name == MOUNT):
            return [Violation(DtsCode.SAME_FORMATION, f"{unit.label} is already "
                              f"{'mounted' if own.mounted else 'on foot'}", rule)]
        return []
    if name == CARACOLE:
        if not options.get("caracole", False):
            return [Violation(DtsCode.FORMATION_NOT_ALLOWED, "the caracole is an optional rule, not "
                              "in play (option caracole)", clauses.OPTIONAL)]
        if own.troop != "horse" or not own.firelocks:
            return [Violation(DtsCode.FORMATION_NOT_ALLOWED, "only cavalry with firelocks caracole",
                              f"{clauses.OPTIONAL} b")]
        if own.formation == name:
            return [Violation(DtsCode.SAME_FORMATION, f"{unit.label} is already in caracole", rule)]
        return room_problems(table, state, unit, reformed(unit, name), rule)
    if name == FORLORN_HOPE:
        return _forlorn_hope_problems(table, state, unit, options)
    if name not in FORMATION_NAMES:
        return [Violation(DtsCode.UNKNOWN_FORMATION, f"no formation {name!r}; formations: "
                          f"{', '.join((*FORMATION_NAMES, MOUNT, DISMOUNT))}", rule)]
    if name == "hedgehog" and own.troop not in ("foot", "commanded_shot"):
        return [Violation(DtsCode.FORMATION_NOT_ALLOWED, "hedgehog is for infantry only", f"{rule} c")]
    if own.formation == name:
        return [Violation(DtsCode.SAME_FORMATION, f"{unit.label} is already in {name.replace('_', ' ')}",
                          rule)]
    return room_problems(table, state, unit, reformed(unit, name), rule)


def room_problems(table: Battlefield, state: GameState, unit: Unit, placed: Unit, rule: str
                  ) -> list[Violation]:
    """Has ``unit`` room to stand as ``placed``: on the table, out of water (a lake, a river
    away from its fords and bridges: row 60) and off every other piece? Its attached
    generals go with it (Movement: "Attached generals move with unit") and are not in its
    way, unless one can neither go to his place about it
    (:func:`~tertia.rulesets.declare_thee_sir.generals.reformed_places`) nor stay where he
    stands (the unit would stand on him)."""
    going = generals.attached_generals(state, unit.id)
    found = list(iter_room_violations(table, state, placed, rule, carried={g.id for g in going}))
    if found:
        return found
    wet = water.wet(table, (placed.base.corners(),))
    if wet is not None:
        return [Violation(water.refusal_code(wet), f"{placed.label} would stand in the {wet}", rule)]
    for g in generals.reformed_places(table, state, unit, placed).left:
        if placed.overlaps(g.base.corners()):
            return [Violation(MovementCode.COLLISION, f"{placed.label} would overlap {g.label}", rule)]
    return []


def _forlorn_hope_problems(table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]
                           ) -> list[Violation]:
    """Optional Rules a: musketeers only, under the option, not at poor morale, with
    room before the regiment (:mod:`~tertia.rulesets.declare_thee_sir.forlorn`)."""
    rule = f"{clauses.OPTIONAL} a"
    if not options.get("forlorn_hope", False):
        return [Violation(DtsCode.FORMATION_NOT_ALLOWED, "the forlorn hope is an optional rule, not "
                          "in play (option forlorn_hope)", rule)]
    why = forlorn.why_not(state, unit)
    if why is not None:
        code = DtsCode.SAME_FORMATION if unit_data(unit).formation == FORLORN_HOPE else \
            DtsCode.FORMATION_NOT_ALLOWED
        return [Violation(code, why, rule)]
    if not forlorn.sends_out(unit):
        return []
    room = forlorn.room_problem(table, state, unit)
    return [] if room is None else [Violation(MovementCode.COLLISION, room, rule)]


def can_reform(table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]) -> bool:
    """Has ``unit`` a formation change it can carry out now (Game Play option 1)? Asked
    with :func:`problems`, the test of the change itself."""
    return any(not problems(table, state, unit, name, options) for name in CHOICES)


def why_none(table: Battlefield, state: GameState, unit: Unit, options: Mapping[str, Any]) -> str:
    """Why ``unit`` has no formation change to carry out: what stands in the way of each
    change its troop type may make, once each."""
    blocked: list[str] = []
    for name in CHOICES:
        for violation in problems(table, state, unit, name, options):
            if violation.code not in REFUSED_OUTRIGHT and violation.message not in blocked:
                blocked.append(violation.message)
    reasons = f": {'; '.join(blocked)}" if blocked else ""
    return f"{unit.label} has no formation change it can carry out{reasons}"
