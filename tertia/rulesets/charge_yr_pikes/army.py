"""Army morale (50% rules, "Effects on the entire army"): each army's casualties as a
share of its figures, the fright test at the end of every turn and the three steps of an
army that takes fright.

"At the end of every turn the commander of each side must test to see if his army takes
fright. Count the number of figures off the table due to casualties, routs from the field,
and taken prisoner. Do not count units that have pursued enemy forces off the battlefield
to their rear. Roll a D 10 and consult the following chart" (``tables.toml
[army_morale]``). "Modifiers to the die roll: +1 if one vital point is lost, +2 if two
vital points are lost."

Read so:

- **The army's figures** are every figure its regiments, batteries and dragoons started
  with; officers and the baggage train's wagons are not counted (``[army_morale]
  uncounted``).
- **Figures off the table**: a unit in play counts the figures it has lost; a unit that
  has left the table counts every figure it started with (killed, routed from the field,
  taken prisoner, deserted, or plundering: "Units off table plundering are counted as
  dead for major army morale or victory conditions", Plunder E), except a unit that left
  pursuing the enemy off the battlefield (:data:`PURSUING`) or, in the pursuit phase,
  escaped off its own edge (:data:`ESCAPED`), which counts only its casualties.
- **The chart**: a percentage falls in the highest band it reaches ("0 - 19%" holds
  19.5%); at "50%+ Casualties, army takes fright" without a roll. The D10 reads 1 to 10
  ("Morale steady 1-10, Fright 11+": its 0 is 10). Each vital point lost adds 1 (three
  lost add 3); a vital point is lost while the enemy holds it
  (:func:`~tertia.rulesets.charge_yr_pikes.points.vital_points_lost`).
- **The steps**, in order: "1. All routed units are removed from the field. 2. All units
  with a morale level of 1 rout. 3. All units with casualties lower their morale 1 level."
  A unit at 1 or lower routs (one worse than 1 is no steadier); a unit routed in step 2
  that has casualties is lowered in step 3 too. A unit with casualties that has never
  tested has its morale rated now (section 11 A: the first time it is needed), then
  lowered. The units are the army whose figures were counted: the baggage train's
  wagons, outside the count, take no step (the movement table gives "Artillery &
  Wagons" no rout move, and the train's loss is felt through its vital point), nor do
  officers. A club that counts the wagons (``[army_morale] uncounted`` without them)
  has them take the steps too.

Figures are kept exactly (whole figures over whole figures); percentages are fractions,
never rounded.

>>> from tertia.rulesets.charge_yr_pikes.tables import default_tables
>>> losses = ArmyLosses("king", lost=30, strength=150)
>>> losses.percent, fright_needs(losses.percent, default_tables().army_morale)
(Fraction(20, 1), 10)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from tertia.core.dice import D10
from tertia.core.events import Event, UnitRemoved
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rulesets.charge_yr_pikes.casualties import DESTROYED
from tertia.rulesets.charge_yr_pikes.morale import change_rating
from tertia.rulesets.charge_yr_pikes.points import vital_points_lost
from tertia.rulesets.charge_yr_pikes.rout import ROUTED_OFF
from tertia.rulesets.charge_yr_pikes.tables import ArmyMorale, Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

# Why a unit left the table (``UnitRemoved.reason``), as this rule set writes it.
ROUTED = "routed"
"""Routed from the field: off the table in its rout, removed when its army takes fright
(step 1), a routed loser in the pursuit phase (step 2)."""
CAPTURED = "captured"
"""Taken prisoner: Routing E, the pursuit phase (steps 4, 5)."""
DESERTED = "deserted"
"""Over 50% lost and failing its test: "the regiment's colonel pulling his men out"."""
PLUNDERING = "plundering"
"""Horse off the enemy's rear plundering (Plunder B); back in play when it re-enters."""
PURSUING = "pursuing"
"""Pursued enemy forces off the battlefield to their rear: not counted."""
ESCAPED = "escaped"
"""A loser that got off its own edge in the pursuit phase: "will live"."""

VITAL_POINTS_LOST = "vital_points_lost"
"""The army morale die's modifier: "+1 if one vital point is lost, +2 if two"."""

ALIVE_OFF_TABLE = frozenset({PURSUING, ESCAPED})
"""Reasons for leaving the table that lose the army no more than the unit's casualties."""
WHOLE_BY_REASON = {ROUTED: "routed", ROUTED_OFF: "routed", CAPTURED: "captured", PLUNDERING: "plundering",
                   DESERTED: "deserted"}
"""Each reason for leaving the table, as ``tables.toml [victory] count_whole`` names it: a
unit that fled off the table in its rout (``rout.ROUTED_OFF``) is routed as much as one
removed routed."""


@dataclass(frozen=True, slots=True)
class ArmyLosses:
    """A side's casualties in figures (``lost``) of the figures it started with."""

    side: str
    lost: int
    strength: int

    @property
    def percent(self) -> Fraction:
        """Casualties as a percentage of the army, exactly (0 for an army of no figures)."""
        return Fraction(100 * self.lost, self.strength) if self.strength else Fraction(0)


def is_counted(unit: Unit, tables: Tables) -> bool:
    """Is ``unit`` part of its army's figures (not an officer, not the wagons)?"""
    return unit_data(unit).troop not in tables.army_morale.uncounted


def counted_units(state: GameState, side: str, tables: Tables) -> Iterator[Unit]:
    """``side``'s pieces that are part of its army's figures (:func:`is_counted`), removed
    ones too: what its army's morale (15 L) and the degree of victory (19 D) count."""
    uncounted = tables.army_morale.uncounted
    return (u for u in state.iter_units(side, include_removed=True) if unit_data(u).troop not in uncounted)


def figures_off_table(unit: Unit) -> int:
    """"Count the number of figures off the table due to casualties, routs from the
    field, and taken prisoner. Do not count units that have pursued enemy forces off the
    battlefield to their rear": a unit gone from the table counts all its figures, one
    gone pursuing (or escaping in the pursuit phase) or still here its casualties."""
    own = unit_data(unit)
    if unit.removed is None or unit.removed in ALIVE_OFF_TABLE:
        return own.lost
    return own.start


def exact_casualties(unit: Unit, count_whole: Collection[str]) -> int:
    """Section 19 D, "Count exact casualties except:" the kinds of unit in
    ``count_whole`` (``tables.toml [victory]``), which count every figure: routed (off
    the table or still on it), captured, plundering, deserted. Horse off the table
    plundering count whole whatever the list says ("counted as dead for ... victory
    conditions", Plunder E), and a destroyed unit's every figure is its exact casualty."""
    own = unit_data(unit)
    if unit.removed in (DESTROYED, PLUNDERING):
        return own.start
    kind = "routed" if unit.removed is None and own.routed else WHOLE_BY_REASON.get(unit.removed or "")
    return own.start if kind in count_whole else own.lost


def losses(state: GameState, side: str, tables: Tables, count: Callable[[Unit], int]) -> ArmyLosses:
    """``side``'s casualties, each counted unit (:func:`is_counted`; removed ones too)
    counted by ``count``."""
    lost = strength = 0
    for unit in counted_units(state, side, tables):
        lost += count(unit)
        strength += unit_data(unit).start
    return ArmyLosses(side, lost, strength)


def fright_losses(state: GameState, side: str, tables: Tables) -> ArmyLosses:
    """The casualties the fright test counts (:func:`figures_off_table`)."""
    return losses(state, side, tables, figures_off_table)


def final_losses(state: GameState, side: str, tables: Tables) -> ArmyLosses:
    """The casualties counted at darkness and for the degree of victory
    (:func:`exact_casualties`)."""
    whole = tables.victory.count_whole
    return losses(state, side, tables, lambda u: exact_casualties(u, whole))


def fright_needs(percent: Fraction, chart: ArmyMorale) -> int | None:
    """The D10 total at or above which the army takes fright at ``percent`` casualties;
    None at "50%+ Casualties, army takes fright" (no roll)."""
    if percent >= chart.fright_at:
        return None
    reached = [at for bound, at in sorted(chart.bands) if percent >= bound]
    return reached[-1]


@dataclass(frozen=True, slots=True)
class FrightTest:
    """Sequence L's test of a side's army as it stands: the ``losses`` counted, the vital
    points lost and the modifier they add to the D10, and the total ``needed`` for fright
    (None: "50%+ Casualties, army takes fright" without a roll)."""

    losses: ArmyLosses
    vital_lost: int
    modifier: int
    needed: int | None

    @property
    def roll(self) -> int | None:
        """The D10 face at or above which the army takes fright, the modifier counted
        (None: no roll is made); it may lie beyond the die's faces."""
        return None if self.needed is None else self.needed - self.modifier

    @property
    def chance(self) -> Fraction:
        """The chance the army takes fright on this test, exactly."""
        if self.roll is None:
            return Fraction(1)
        return sum((D10.probability(face) for face in D10.values() if face >= self.roll), Fraction(0))


def fright_test(state: GameState, side: str, tables: Tables) -> FrightTest:
    """The fright test ``side`` would take now (15 L): its figures off the table, the
    chart's total for them and "+1 if one vital point is lost, +2 if two"."""
    counted = fright_losses(state, side, tables)
    vital_lost = vital_points_lost(state, side, tables)
    return FrightTest(counted, vital_lost, vital_lost * tables.army_morale.vital_point_lost,
                      fright_needs(counted.percent, tables.army_morale))


@dataclass(frozen=True, slots=True)
class ArmyMoraleTested(Event):
    """A side tested its army's morale: ``lost`` of ``strength`` figures, ``vital_lost``
    vital points lost, the D10 rolled (None: none needed; it reads 1 to 10), the
    ``modifiers`` added to it (name and value: ``vital_points_lost``), their ``total``
    and the total ``needed`` for fright (None: fright without a roll); ``fright`` whether
    the army takes fright. The game keeps each side that has taken fright."""

    type: ClassVar[str] = "cyp_army_morale_tested"
    side: str
    lost: int
    strength: int
    vital_lost: int
    roll: int | None
    needed: int | None
    fright: bool
    modifiers: tuple[tuple[str, int], ...] = ()
    total: int | None = None


def has_taken_fright(state: GameState, side: str) -> bool:
    """Has ``side``'s army taken fright (15 L) at some turn's end of the battle so far?"""
    return side in game_data(state).fright


@handles(ArmyMoraleTested)
def _tested(s: GameState, e: ArmyMoraleTested) -> GameState:
    game = game_data(s)
    if not e.fright or e.side in game.fright:
        return s
    return s.evolve(own=game.evolve(fright=(*game.fright, e.side)))


@dataclass(frozen=True, slots=True)
class FrightSteps:
    """What taking fright did: the routed units removed (step 1), the units that routed
    (step 2) and those whose morale was lowered (step 3)."""

    removed: tuple[str, ...]
    routed: tuple[str, ...]
    lowered: tuple[str, ...]


def army_morale(tx: Tx, side: str, tables: Tables, rout: Callable[[str], None]) -> FrightSteps | None:
    """Sequence L, at the end of every turn: test whether ``side``'s army takes fright
    and, if it does, take the three steps (:func:`take_fright`; ``rout(unit_id)`` routs a
    unit as Routing A-F has it). Returns the steps taken, or None when morale holds."""
    test = fright_test(tx.state, side, tables)
    counted, needed, vital = test.losses, test.needed, test.modifier
    roll = None if needed is None else tx.roll(D10, f"army morale: {side}")
    modifiers = ((VITAL_POINTS_LOST, vital),) if vital else ()
    total = None if roll is None else roll + vital
    fright = needed is None or (total is not None and total >= needed)
    tx.emit(ArmyMoraleTested(side=side, lost=counted.lost, strength=counted.strength,
                             vital_lost=test.vital_lost, roll=roll, needed=needed, fright=fright,
                             modifiers=modifiers, total=total))
    return take_fright(tx, side, tables, rout) if fright else None


def take_fright(tx: Tx, side: str, tables: Tables, rout: Callable[[str], None]) -> FrightSteps:
    """"If the army takes fright, take the following steps in order: 1. All routed units
    are removed from the field. 2. All units with a morale level of 1 rout. 3. All units
    with casualties lower their morale 1 level." ``rout(unit_id)`` makes a unit rout
    (its rout move, casualties and morale loss: Routing A-F, written with the morale
    tests); the removal and the lowering are done here. Only the units the army's count
    takes in (:func:`is_counted`) take the steps: not the wagons."""
    removed = tuple(u.id for u in _army(tx.state, side, tables) if unit_data(u).routed)
    for unit_id in removed:
        tx.emit(UnitRemoved(unit=unit_id, reason=ROUTED, detail="its army took fright"))
    shaken = tuple(u.id for u in _army(tx.state, side, tables) if _at_one_or_lower(u))
    for unit_id in shaken:
        rout(unit_id)
    hurt = tuple(u.id for u in _army(tx.state, side, tables) if unit_data(u).lost > 0)
    for unit_id in hurt:
        _lower(tx, unit_id, tables)
    return FrightSteps(removed, shaken, hurt)


def _army(state: GameState, side: str, tables: Tables) -> list[Unit]:
    """``side``'s units in play that its army's count takes in (not the wagons)."""
    return [u for u in state.iter_troops(side) if is_counted(u, tables)]


def _at_one_or_lower(unit: Unit) -> bool:
    """Step 2's "morale level of 1" (or lower), for a unit that has tested and not routed."""
    morale = unit_data(unit).morale
    return not unit_data(unit).routed and morale is not None and morale <= 1


def _lower(tx: Tx, unit_id: str, tables: Tables) -> None:
    """Lower a unit's morale a level, rating it first if it has never tested."""
    change_rating(tx, tables, unit_id, tables.morale.permanent.army_fright, "its army takes fright")

