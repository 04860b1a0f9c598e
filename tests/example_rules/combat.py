"""Fire, charges, melee, push-backs, morale checks and routs of the example slice
(Declare Thee Sir, Game Mechanics 2-5)."""

from __future__ import annotations

from tertia.activation import deck
from tertia.core.dice import D6, sum_of
from tertia.core.events import Narrated, UnitRemoved
from tertia.core.geometry import Face, face_towards
from tertia.core.ruleset import Tx
from tertia.core.state import Unit, UnitKind
from tertia.rules import casualties, morale
from tertia.rules.formations import COLUMN, HEDGEHOG, distance_between, stand_bases
from tertia.rules.involuntary import (
    Interpenetration,
    away_from,
    carry_out,
    plan_scatter,
    plan_slide,
    towards,
)
from tests.example_rules.data import (
    MOUNTED,
    STAND_SIZE,
    ChargeOver,
    StandsFled,
    formation_of,
    game_data,
    piece,
)

POINTS = morale.DECLARE_FOOT
ARTILLERY_POINTS = morale.DECLARE_ARTILLERY
LEVELS = morale.DECLARE_LEVELS
CLOSE_NEED = {"excellent": 2, "good": 3, "poor": 5}
"""Melee a: "roll 1D6 and compare to attacking unit's morale (excellent = 2+, good = 3+,
poor = 5+)"."""

HOLD, PB1, PB2, ROUT = "HOLD", "PB1D6", "PB2D6", "ROUT"
CHART: dict[int, tuple[str, str, str]] = {
    12: (ROUT, ROUT, ROUT),
    11: (ROUT, ROUT, PB2),
    10: (ROUT, PB2, PB2),
    9: (ROUT, PB2, PB1),
    8: (PB2, PB1, PB1),
    7: (PB2, PB1, HOLD),
    6: (PB1, HOLD, HOLD),
    5: (PB1, HOLD, HOLD),
}
"""Melee Chart (5d), by modified sum, for a target of poor, good and excellent morale;
12 and more is ROUT, 4 and less HOLD."""
COLUMNS = ("poor", "good", "excellent")


def chart(total: int, level: str) -> str:
    """The Melee Chart's result for a modified sum against a target's morale level."""
    row = CHART[min(12, total)] if total >= 5 else (HOLD, HOLD, HOLD)
    return row[COLUMNS.index(level)]


def distance(a: Unit, b: Unit) -> float:
    """Closest stand edge to closest stand edge."""
    wa, da = STAND_SIZE[a.kind]
    wb, db = STAND_SIZE[b.kind]
    ours = stand_bases(a.x, a.y, a.facing, formation_of(a), piece(a).stands_left, wa, da)
    theirs = stand_bases(b.x, b.y, b.facing, formation_of(b), piece(b).stands_left, wb, db)
    return distance_between(ours, theirs)


def tested_points(tx: Tx, unit_id: str, cause: str) -> int:
    """Morale points, determined now when the unit is untested."""
    table = ARTILLERY_POINTS if tx.state.units[unit_id].kind is UnitKind.ARTILLERY else POINTS
    return morale.ensure_tested(tx, unit_id, table, cause)


def level(unit: Unit) -> str:
    return LEVELS.name(morale.morale_of(unit) or 0)


def move_dice(unit: Unit) -> int:
    return 2 if unit.kind in MOUNTED else 1


def roll_move(tx: Tx, unit: Unit, purpose: str) -> int:
    """Movement: 1D6 (foot, guns) or 2D6 (mounted), +3 in long march, -3 in hedgehog."""
    roll = tx.roll(sum_of(move_dice(unit), D6), f"{purpose}: {unit.label}")
    shift = {COLUMN.name: 3, HEDGEHOG.name: -3}.get(piece(unit).formation, 0)
    return max(0, roll + shift)


def two_dice(tx: Tx, purpose: str) -> tuple[int, int]:
    """2D6 rolled as two dice: the rules read doubles and the unmodified sum."""
    return tx.roll(D6, f"{purpose} (first die)"), tx.roll(D6, f"{purpose} (second die)")


# --- fire -----------------------------------------------------------------------------------


def volley(tx: Tx, firer_id: str, target_id: str) -> None:
    """Musketry fire (4a, 4c): range 6" + 1D6 to the closest stand; 2D6, doubles or a 7
    remove a point; a ROUT on the chart (-2 for a firer of poor morale) removes another.
    A unit at poor morale stays at poor under fire."""
    firer, target = tx.state.units[firer_id], tx.state.units[target_id]
    reach = 6 + tx.roll(D6, f"musket range: {firer.label}")
    if distance(firer, target) > reach:
        tx.emit(Narrated(text=f"{firer.label}'s volley falls short of {target.label}"))
        return
    tested_points(tx, target_id, "fired upon")
    first, second = two_dice(tx, f"volley: {firer.label} at {target.label}")
    lvl = level(tx.state.units[target_id])
    if first == second or first + second == 7:
        morale.lose_points(tx, target_id, 1, "fire")
    shift = -2 if morale.morale_of(firer) == 0 else 0  # a firer of poor morale (untested is not)
    if chart(first + second + shift, lvl) == ROUT:
        morale.lose_points(tx, target_id, 1, "fire")


def morale_check(tx: Tx, unit_id: str, cause: str) -> bool:
    """A morale check is "one musketry roll"; a unit at poor morale that loses another
    point to it routs. Returns True when the unit routed."""
    if not tx.state.units[unit_id].in_play:
        return False
    tested_points(tx, unit_id, cause)
    lvl = level(tx.state.units[unit_id])
    first, second = two_dice(tx, f"morale check: {tx.state.units[unit_id].label}")
    losses = int(first == second or first + second == 7) + int(chart(first + second, lvl) == ROUT)
    return bool(losses and morale.lose_points(tx, unit_id, losses, cause).beyond)


# --- melee ----------------------------------------------------------------------------------


def melee_modifiers(attacker: Unit, target: Unit) -> int:
    """Melee c: target in long march or attacked in rear +4, flank +2, cavalry attacking a
    hedgehog -2."""
    shift = 0
    face = face_towards(target.base, attacker.base.centre)
    all_round = formation_of(target).all_round
    if piece(target).formation == COLUMN.name or (face is Face.REAR and not all_round):
        shift += 4
    elif face in (Face.LEFT, Face.RIGHT) and not all_round:
        shift += 2
    if attacker.kind in MOUNTED and piece(target).formation == HEDGEHOG.name:
        shift -= 2
    return shift


def fight_charge(tx: Tx, table: tuple[float, float]) -> None:
    """The charger advances straight at its target (its movement dice); it must reach
    it and pass the closing test, else it stops short (1" off after a failed test)."""
    charge = game_data(tx.state).charge
    assert charge is not None
    charger_id, target_id = charge
    charger, target = tx.state.units[charger_id], tx.state.units[target_id]
    if not (charger.in_play and target.in_play):
        tx.emit(ChargeOver(unit=charger_id))
        return
    reach = roll_move(tx, charger, "charge move")
    heading = towards(charger.base, target.base)
    path = plan_slide(tx.state, charger, heading=heading, distance=reach,
                      policy=Interpenetration.STOP, table=table)
    if path.stopped_by != target_id:
        carry_out(tx, charger_id, path, "charge")
        tx.emit(Narrated(text=f"{charger.label}'s charge does not reach {target.label}"))
        tx.emit(ChargeOver(unit=charger_id))
        return
    tested_points(tx, charger_id, "melee")
    need = CLOSE_NEED[level(tx.state.units[charger_id])]
    closing = morale.morale_test(tx, D6, need, f"close: {charger.label}")
    if not closing.passed:
        short = plan_slide(tx.state, charger, heading=heading,
                           distance=max(0.0, path.distance - 1.0), policy=Interpenetration.STOP,
                           table=table)
        carry_out(tx, charger_id, short, "charge")
        tx.emit(Narrated(text=f"{charger.label} fails to close with {target.label}"))
        tx.emit(ChargeOver(unit=charger_id))
        return
    carry_out(tx, charger_id, path, "charge")
    melee(tx, charger_id, target_id, table)
    tx.emit(ChargeOver(unit=charger_id))


def melee(tx: Tx, attacker_id: str, target_id: str, table: tuple[float, float]) -> None:
    """Melee b: the attacker rolls 2D6. The target loses a point for an unmodified 7 and
    for a modified ROUT; the attacker loses one for doubles and for a modified HOLD. A
    unit at poor morale that loses another point to melee routs. PB results push the
    target back that many inches facing the foe."""
    tested_points(tx, target_id, "melee")
    attacker, target = tx.state.units[attacker_id], tx.state.units[target_id]
    lvl = level(target)
    first, second = two_dice(tx, f"melee: {attacker.label} against {target.label}")
    result = chart(first + second + melee_modifiers(attacker, target), lvl)
    tx.emit(Narrated(text=f"Melee: {attacker.label} against {target.label}: {result}"))
    target_losses = int(first + second == 7) + int(result == ROUT)
    attacker_losses = int(first == second) + int(result == HOLD)
    target_routs = bool(target_losses) and morale.lose_points(
        tx, target_id, target_losses, "melee").beyond > 0
    attacker_routs = bool(attacker_losses) and morale.lose_points(
        tx, attacker_id, attacker_losses, "melee").beyond > 0
    if result == ROUT or target_routs:
        rout(tx, target_id, attacker_id, table)
    elif result in (PB1, PB2):
        inches = tx.roll(sum_of(1 if result == PB1 else 2, D6), f"push back: {target.label}")
        push_back(tx, target_id, attacker_id, inches, table)
    if attacker_routs and tx.state.units[attacker_id].in_play:
        rout(tx, attacker_id, target_id, table)


def push_back(tx: Tx, unit_id: str, foe_id: str, inches: int, table: tuple[float, float]) -> tuple[str, ...]:
    """Pushed back in good order facing the foe, through friends if need be: each friend
    passed through, and the unit itself, takes a morale check ("units that move or rout
    through another unit cause a morale check on each unit involved"). Returns the friends
    passed through."""
    unit, foe = tx.state.units[unit_id], tx.state.units[foe_id]
    slide = plan_slide(tx.state, unit, heading=away_from(foe.base, unit.base), distance=inches,
                       policy=Interpenetration.PASS_FRIENDS, table=table)
    carry_out(tx, unit_id, slide, "push back")
    if slide.passed_through:
        names = ", ".join(tx.state.units[f].label for f in slide.passed_through)
        tx.emit(Narrated(text=f"{unit.label} is pushed back through {names}"))
    if slide.off_table:
        leave_play(tx, unit_id, "pushed off the table")
        return slide.passed_through
    for involved in (*slide.passed_through, unit_id) if slide.passed_through else ():
        if morale_check(tx, involved, "passed through") and tx.state.units[involved].in_play:
            rout(tx, involved, foe_id, table)
    return slide.passed_through


def rout(tx: Tx, unit_id: str, foe_id: str, table: tuple[float, float]) -> None:
    """ROUT: "Roll 2D6 for each unit stand and move that many inches away from foe"; a
    stand that leaves the table is lost. In this slice a routed unit then leaves play
    (rally and pursuit are not part of it); friends its stands fled through check morale."""
    unit, foe = tx.state.units[unit_id], tx.state.units[foe_id]
    stands = stand_bases(unit.x, unit.y, unit.facing, formation_of(unit), piece(unit).stands_left,
                         *STAND_SIZE[unit.kind])
    flights = [tx.roll(sum_of(2, D6), f"rout: {unit.label} stand {i + 1}") for i in range(len(stands))]
    slides = plan_scatter(tx.state, unit, stands, flights, heading=away_from(foe.base, unit.base),
                          policy=Interpenetration.PASS_FRIENDS, table=table)
    lost = sum(1 for s in slides if s.off_table)
    if lost:
        casualties.lose_stands(tx, unit_id, lost, "routed off the table")
    tx.emit(StandsFled(unit=unit_id, places=tuple(s.end.centre for s in slides if not s.off_table)))
    leave_play(tx, unit_id, "routed")
    passed = dict.fromkeys(f for s in slides for f in s.passed_through)
    for friend in passed:
        if morale_check(tx, friend, "routed through") and tx.state.units[friend].in_play:
            rout(tx, friend, foe_id, table)


def leave_play(tx: Tx, unit_id: str, reason: str) -> None:
    tx.emit(UnitRemoved(unit=unit_id, reason=reason))
    deck.withdraw(tx, deck.cards_of(deck.left(tx.state), unit_id))
