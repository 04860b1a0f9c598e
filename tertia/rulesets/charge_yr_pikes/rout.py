"""Routing (section 15) and what a plain morale failure comes to (11 D, lost: chosen).

"A. Units that rout must make a rout move to the rear or away from the enemy. They lose
1/2 D6 of casualties immediately, The unit moves as an unformed mass. If any unit attempts
to move through a routed friendly unit it may do so and the routed unit is simply shoved
out of the way. B. If a routing unit passes through a friendly unit, or is within 6 inches
when it routs, the friendly unit must test morale and act accordingly. NOTE: Units routing
after close combat do not cause this unless they rout THROUGH a friendly unit. C. A pike
armed unit in the rear may lower it's pikes upon a routing unit to keep it from passing
through it. This destroys the routing unit. ... E. Routed troops that collide with the
enemy in their rout are captured. F. Units that rout have their morale level reduced by 1
immediately. G. Artillery units leave their guns and rout as infantry. H. A routed unit
which is fired on and takes casualties tests morale. If it passes, it stands in place
routed. If it fails it routs again with all implications and loses 1/2 D6 of casualties
immediately. I. A routed unit attacked in close combat routs again immediately with all
implications and 1/2 D6 of casualties immediately." (D, rallying, is in
:mod:`~tertia.rulesets.charge_yr_pikes.morale`.)

Read so, in this order (the dice in this order too):

1. the friends within 6" (``[morale.triggers] friend_routs_within``) as it routs are
   noted, unless it routs from close combat;
2. it is routed (formation ``routed``, no longer falling back, ``routed_turn`` this turn)
   and its rating drops (``[morale.permanent] routs``); a battery's crew leave their gun;
3. a D6 is rolled and halved (``[rout] half_d6``: rounded up by default) and that many
   figures fall (:func:`~tertia.rulesets.charge_yr_pikes.casualties.kill`, which rolls for
   its front-rank officers); a unit with none left is destroyed;
4. it rolls its rout move (``[movement.<type>].rout``: inches + D6s; a crew, a lone gun or
   wagons on the foot line, "as infantry") and turns to flee straight away from the foe
   that broke it or, with none named, towards its own table edge, passing through
   friends (a routed friend is shoved aside and tests nothing);
5. a friend with pikes, not routed, in its path lowers them (``[rout] lower_pikes``, or
   the pike unit's owner asked through ``lower_pikes``): the router goes no further and
   is destroyed; an enemy in its path stops it in contact and it is captured; a rout that
   ends over the table's edge takes it off the field. Its front-rank officers and
   gallopers share each fate (4 D); enemy officers it runs over are moved to safety (4 F);
6. the friends passed through (up to a pike unit that stopped it), then those noted
   within 6", each test once if still in play and not routed, and act on the plain
   results (:func:`fail_plainly`), so a rout may spread.

Plain results (a test the text gives no result of its own: fired on, a friend routing or
falling back near): failing by up to ``[morale] fall_back_within`` falls back
disordered, by more routs; attacked in flank or rear, any failure routs (13 C). A routed
unit attacked in close combat (I) routs as one routing from close combat.

For the movement code: a unit may move through a routed friend, which is shoved out of
its way (A), and tests nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tertia.core.dice import D6, read_face, sum_of
from tertia.core.events import UnitTurned
from tertia.core.geometry import EPSILON, angle_between, base_distance, is_within
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.involuntary import Interpenetration, Slide, away_from, carry_out, plan_slide
from tertia.rules.measuring import home_edge
from tertia.rulesets.charge_yr_pikes.attached import carry, leave_field, overrun_officers
from tertia.rulesets.charge_yr_pikes.casualties import DESTROYED, kill
from tertia.rulesets.charge_yr_pikes.data import ROUTED
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.fallback import (
    FallBack,
    fall_back,
    is_battery,
    not_in_the_way,
)
from tertia.rulesets.charge_yr_pikes.morale import MoraleResult, change_rating, morale_test
from tertia.rulesets.charge_yr_pikes.movement import AS_FOOT
from tertia.rulesets.charge_yr_pikes.movement import line_of as move_line
from tertia.rulesets.charge_yr_pikes.tables import RoutMove, Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

LowerPikes = Callable[[GameState, str, str], bool]
"""Asked whether a pike unit (second) lowers its pikes on a routing friend (third)."""

STILL_ROUTED = "routed"
ROUTED_OFF = "routed off"
CAPTURED = "captured"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a test came to: passed, or the fall-back or rout it caused."""

    result: MoraleResult
    fell_back: FallBack | None = None
    flight: Flight | None = None

    @property
    def effect(self) -> str:
        return "routs" if self.flight is not None else "falls back" if self.fell_back is not None else "holds"


@dataclass(frozen=True, slots=True)
class Flight:
    """A rout done: the ½D6 (``half_die``, the face) and the ``casualties`` it cost, the
    rout move rolled (``roll``, the dice's total; ``wanted`` the inches), the ``slide``
    (None when it never moved: destroyed by its casualties or by pikes), its ``fate``
    (``routed``: still on the table; ``routed off``, ``captured``, ``destroyed``), the
    unit that captured or destroyed it (``by``), and the ``friends`` it made test."""

    unit: str
    half_die: int
    casualties: int
    roll: int
    wanted: float
    slide: Slide | None
    fate: str
    by: str | None
    friends: tuple[Outcome, ...]


def half_d6(tables: Tables, face: int) -> int:
    """½D6 from a D6 face: rounded up (1, 1, 2, 2, 3, 3) or down (0, 1, 1, 2, 2, 3). The
    face is only compared, so exact odds walk one branch for each half, not each face."""
    if tables.rout.half_d6 == "up":
        return 1 + (face >= 3) + (face >= 5)
    return (face >= 2) + (face >= 4) + (face >= 6)


def half_d6_of(tables: Tables, face: int, figures: int) -> int:
    """The ½D6 casualties of a unit of ``figures`` figures: :func:`half_d6`, but never
    more than it has (all it has are lost alike whatever the half, ``casualties.kill``).
    A unit of one or two figures loses them all on faces that
    halve alike to as many or more, so exact odds walk one branch for those faces
    (:func:`~tertia.core.dice.read_face`), not one for each half.

    >>> from tertia.rulesets.charge_yr_pikes.tables import default_tables
    >>> [half_d6_of(default_tables(), face, 2) for face in range(1, 7)]
    [1, 1, 2, 2, 2, 2]
    """
    return read_face(face, D6, lambda f: min(half_d6(tables, f), figures))


def rout_move(tables: Tables, unit: Unit) -> RoutMove:
    """The unit's rout line; crews, lone guns and wagons (no rout line) rout as foot (G)."""
    line = move_line(tables, unit_data(unit)).rout
    if line is None or unit_data(unit).is_gun:
        line = tables.movement[AS_FOOT].rout
    assert line is not None  # the foot line has a rout move
    return line


def flight_heading(state: GameState, unit: Unit, foe: str | None) -> float:
    """"To the rear or away from the enemy": straight away from ``foe`` (centre to centre)
    when one is named and in play, else straight towards the unit's own table edge."""
    enemy = state.units.get(foe) if foe is not None else None
    if enemy is not None and enemy.in_play:
        return away_from(enemy.base, unit.base)
    return 180.0 if home_edge(state, unit.side) == "south" else 0.0


def rout(tx: Tx, tables: Tables, unit_id: str, why: str, *, foe: str | None = None,
         after_melee: bool = False, lower_pikes: LowerPikes | None = None) -> Flight:
    """Routing A-G: ``unit_id`` routs (again, if it was routed: H, I "with all
    implications"), fleeing ``foe`` if named; ``after_melee``: it routs from close combat,
    so only friends it passes through test."""
    unit = tx.state.units[unit_id]
    near = [] if after_melee else _friends_within(tx.state, unit, tables.morale.triggers.friend_routs_within)
    if is_battery(unit_data(unit)):
        change(tx, unit_id, "crew leave their gun", abandoned=True)
    change(tx, unit_id, f"routs ({why})", formation=ROUTED, falling_back=False, routed_turn=tx.state.turn)
    change_rating(tx, tables, unit_id, tables.morale.permanent.routs, "routed")
    face = tx.roll(D6, f"half a D6 of casualties: {unit.label} routs")
    lost = kill(tx, unit_id, half_d6_of(tables, face, unit_data(tx.state.units[unit_id]).figures),
                f"routing ({why})", last_men="its last men fell as it routed")
    line = rout_move(tables, tx.state.units[unit_id])
    if not tx.state.units[unit_id].in_play:
        return Flight(unit_id, face, lost, 0, 0.0, None, DESTROYED, None, _tests(tx, tables, unit, [], near))
    dice = D6 if line.dice == 1 else sum_of(line.dice, D6)
    roll = tx.roll(dice, f"rout move: {unit.label}") if line.dice else 0
    wanted = float(line.inches + roll)
    slide = _plan(tx, unit_id, foe, wanted)
    passed = [f for f in slide.passed_through if not unit_data(tx.state.units[f]).routed]
    pikes = next((f for f in passed if _lowers_pikes(tx.state, tables, f, unit_id, lower_pikes)), None)
    if pikes is not None:
        passed = passed[:passed.index(pikes)]
        leave_field(tx, unit_id, DESTROYED, f"{tx.state.units[pikes].label} lowered their pikes on it")
        return Flight(unit_id, face, lost, roll, wanted, None, DESTROYED, pikes,
                      _tests(tx, tables, unit, passed, near))
    fate, by = _move(tx, unit_id, slide)
    return Flight(unit_id, face, lost, roll, wanted, slide, fate, by, _tests(tx, tables, unit, passed, near))


def _plan(tx: Tx, unit_id: str, foe: str | None, inches: float) -> Slide:
    unit = tx.state.units[unit_id]
    heading = flight_heading(tx.state, unit, foe)
    turned = unit.base.moved_to(unit.x, unit.y, heading)
    size = (tx.table.width, tx.table.depth)
    return plan_slide(tx.state, unit, heading=heading, distance=inches, policy=Interpenetration.PASS_FRIENDS,
                      table=size, base=turned, ignore=not_in_the_way(tx.state, unit_id))


def _move(tx: Tx, unit_id: str, slide: Slide) -> tuple[str, str | None]:
    """Carry out the flight; its fate and the enemy that captured it."""
    unit = tx.state.units[unit_id]
    before = (unit.x, unit.y)
    if slide.distance > EPSILON:
        carry_out(tx, unit_id, slide, "routs")
    elif angle_between(slide.end.facing, unit.facing) > EPSILON:
        tx.emit(UnitTurned(unit=unit_id, facing=slide.end.facing, reason="routs"))
    carry(tx, unit_id, before, "swept along in the rout")
    overrun_officers(tx, unit_id)
    stopper = slide.stopped_by
    if stopper is not None and tx.state.units[stopper].side != unit.side:
        leave_field(tx, unit_id, CAPTURED, f"ran into {tx.state.units[stopper].label}")
        return CAPTURED, stopper
    if slide.off_table:
        leave_field(tx, unit_id, ROUTED_OFF, "fled off the table")
        return ROUTED_OFF, None
    return STILL_ROUTED, None


def _lowers_pikes(state: GameState, tables: Tables, friend_id: str, router_id: str,
                  ask: LowerPikes | None) -> bool:
    own = unit_data(state.units[friend_id])
    if own.pike_stands == 0 or own.routed:
        return False
    return ask(state, friend_id, router_id) if ask is not None else tables.rout.lower_pikes


def _friends_within(state: GameState, unit: Unit, inches: float) -> list[str]:
    """Friendly units (not officers, not guns with a unit) within ``inches``, nearest first."""
    found = [f for f in state.iter_troops(unit.side) if f.id != unit.id and not unit_data(f).is_officer
             and unit_data(f).attached_to is None and is_within(unit.base, f.base, inches)]
    return [f.id for f in sorted(found, key=lambda f: (base_distance(unit.base, f.base), f.id))]


def _tests(tx: Tx, tables: Tables, router: Unit, passed: list[str], near: list[str]) -> tuple[Outcome, ...]:
    """B: friends passed through, then those within 6" as it routed, test once each."""
    out: list[Outcome] = []
    for friend in dict.fromkeys((*passed, *near)):
        piece = tx.state.units[friend]
        if not piece.in_play or unit_data(piece).routed or unit_data(piece).attached_to is not None:
            continue
        why = f"{router.label} routed through it" if friend in passed else f"{router.label} routed near it"
        out.append(fail_plainly(tx, tables, friend, morale_test(tx, tables, friend, why), why))
    return tuple(out)


def fail_plainly(tx: Tx, tables: Tables, unit_id: str, result: MoraleResult, why: str, *,
                 foe: str | None = None) -> Outcome:
    """The plain results (11 D, chosen): passed, nothing; failed by ``[morale]
    fall_back_within`` or less, it falls back disordered; by more, or in flank or rear
    (13 C), it routs (away from ``foe`` when named)."""
    if result.passed:
        return Outcome(result)
    if result.flank_or_rear or result.failed_by_more_than(tables.morale.fall_back_within):
        return Outcome(result, flight=rout(tx, tables, unit_id, why, foe=foe))
    return Outcome(result, fell_back=fall_back(tx, tables, unit_id, why))


def routed_fired_on(tx: Tx, tables: Tables, unit_id: str, why: str, *, foe: str | None = None) -> Outcome:
    """H: a routed unit that took casualties from fire tests; passing, it stands routed;
    failing, it routs again (its ½D6 is the new rout's)."""
    result = morale_test(tx, tables, unit_id, why)
    if result.passed:
        return Outcome(result)
    return Outcome(result, flight=rout(tx, tables, unit_id, why, foe=foe))


def routed_attacked(tx: Tx, tables: Tables, unit_id: str, why: str, *, foe: str | None = None) -> Flight:
    """I: a routed unit attacked in close combat routs again at once, as a rout from close
    combat (only friends it passes through test)."""
    return rout(tx, tables, unit_id, why, foe=foe, after_melee=True)


def officer_fell(tx: Tx, tables: Tables, unit_id: str) -> Outcome | None:
    """When to test (11 B, lost: chosen, ``[morale.triggers] officer_killed``): a unit
    whose front-rank officer falls tests at once, with the plain results; None when the
    trigger is off or the unit is gone or routed (H and I say what a routed unit does)."""
    unit = tx.state.units[unit_id]
    if not tables.morale.triggers.officer_killed or not unit.in_play or unit_data(unit).routed:
        return None
    why = "its officer fell"
    return fail_plainly(tx, tables, unit_id, morale_test(tx, tables, unit_id, why), why)
