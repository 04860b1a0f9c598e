"""Morale (section 11): the rating rolled when first needed, the test, and the changes to
the rating; the 50% rules for single units ("Effects on Individual units") and rallying
routed units (Routing D).

11 A: "The first time that a unit must test morale, consult this table to get a basic
morale point ... Then take the basic morale point and add the roll of one D6. If the
result equals or exceeds six, then the unit has passed it's morale test." C: "Add number
rolled on 6-sided die to units' current Morale rating." Tertias and officers E: "A general
that is in the front rank of a unit adds a bonus point to morale die rolls (varies with
rank)"; section 22: "E - EFFECTIVE ... Morale +1 to die roll", "NB ... Morale +2".

The rating follows the shared convention (:mod:`tertia.rules.morale`): ``morale`` is None
until the unit first tests; then one D6 on its class's line of ``tables.toml
[initial_morale]`` gives it (``morale_max`` keeps that first value), rolled through
``tx.roll`` so replays and exact odds see it. Lost lists (B, D, E, F) are chosen in
``tables.toml [morale]``:

- a test is rating + D6 + the temporary modifiers of ``[morale.modifiers]`` (disordered,
  falling back, in a town or works or deployed there, supported by a friendly unit in
  good order within 6" behind it) + the best front-rank officer's bonus (by his grade, or
  by his rank when he has none: ``[officer_bonus]``) + any the caller adds;
- permanent changes (``[morale.permanent]``) move the rating and never take it below 0
  (a unit at 0 still passes on a 6 and a bonus);
- over half its figures lost, a unit's rating drops once; it tests in phase J of that turn
  and every turn after, unless an officer is in its front rank; failing, it leaves the
  field ("the regiment's colonel pulling his men out", counted as deserted). The text says
  "more than 50%" here and "50% or more" in the sequence of play: the clause's own words
  are kept (:attr:`CypUnit.under_half`);
- a routed unit rallies at the end of the turn after the one it routed in (it "spends the
  entire next turn in the location to which it fled"): passing, it forms a line where it
  stands, in good order when ``[disorder.removal] rally_test`` says a rally steadies it;
  failing, it deserts if a whole stand is gone to casualties, else stays routed.

What a failure does (fall back or rout) is in :mod:`~tertia.rulesets.charge_yr_pikes.rout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.dice import D6, recorded
from tertia.core.events import Event
from tertia.core.geometry import base_distance
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit
from tertia.rules.measuring import pieces_near
from tertia.rules.morale import PointsTable, ensure_tested, lose_points
from tertia.rulesets.charge_yr_pikes.attached import front_rank_officers, leave_field, officer_line
from tertia.rulesets.charge_yr_pikes.data import DEPLOYED, LINE, CypUnit
from tertia.rulesets.charge_yr_pikes.events import change
from tertia.rulesets.charge_yr_pikes.secret_grades import MORALE, called_on
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import unit_data

SUPPORT_WITHIN = 6.0
"""``tables.toml [morale.modifiers] supported``: a friend in good order within 6" behind."""
WORKS = ("town", "works", "entrenchment")
"""Ground that gives ``in_town_or_works``: towns and field works (the core's entrenchment)."""


# --- the rating ---------------------------------------------------------------------------


def points_table(tables: Tables, own: CypUnit) -> PointsTable:
    """11 A: the class's line, one basic morale point for each face of a D6, as steps."""
    line = tables.initial_morale[own.morale_class]  # type: ignore[index]  # classes are checked at set-up
    steps = tuple((face, points) for face, points in enumerate(line, 1)
                  if face == 1 or line[face - 2] != points)
    return PointsTable(D6, steps)


def rating(tx: Tx, tables: Tables, unit_id: str, why: str = "first morale test") -> int:
    """``unit_id``'s morale rating, rolled now (one D6 on its class's line) the first
    time it is needed."""
    return ensure_tested(tx, unit_id, points_table(tables, unit_data(tx.state.units[unit_id])), why)


def change_rating(tx: Tx, tables: Tables, unit_id: str, by: int, why: str) -> int:
    """A permanent change (E) of ``by`` points to the rating (rolled first if untested);
    never below 0. Returns the rating after."""
    now = rating(tx, tables, unit_id, why)
    if by < 0:
        return lose_points(tx, unit_id, -by, why).after
    if by > 0:
        change(tx, unit_id, why, morale=now + by)
    return now + by


# --- the test -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoraleTested(Event):
    """``unit`` tested its morale (``why``): ``rating`` + ``die`` + ``modifiers`` (name,
    value) make ``total``; ``passed`` or not. Nothing in the state changes."""

    type: ClassVar[str] = "cyp_morale_tested"
    unit: str
    why: str
    rating: int
    die: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    passed: bool


@dataclass(frozen=True, slots=True)
class MoraleResult:
    """A test's outcome: ``margin`` is ``total`` less the score needed (negative: failed
    by that much); ``flank_or_rear``: the unit was attacked in flank or rear, and so routs
    on any failure; ``why`` it tested."""

    unit: str
    rating: int
    die: int
    modifiers: tuple[tuple[str, int], ...]
    total: int
    need: int
    passed: bool
    flank_or_rear: bool = False
    why: str = ""

    @property
    def margin(self) -> int:
        """For the record: the rules decide on :meth:`failed_by_more_than`."""
        return self.total - self.need

    def failed_by_more_than(self, points: int) -> bool:
        """Did the test fall short of the score needed by more than ``points``? Read on
        the die alone (see :func:`morale_test`)."""
        return self.die < self.need - points - self.rating - sum(v for _, v in self.modifiers)


def officer_bonus(tables: Tables, state: GameState, unit_id: str) -> int:
    """The best morale bonus of the officers in ``unit_id``'s front rank (4 E): by grade
    (section 22) when he has one, else by rank (a staff officer's is a brigadier's line
    of his own)."""
    best = 0
    for officer in front_rank_officers(state, unit_id):
        best = max(best, officer_line(tables, officer).morale)
    return best


def modifiers(tx: Tx, tables: Tables, unit_id: str) -> tuple[tuple[str, int], ...]:
    """The temporary changes (F) that apply to ``unit_id`` now, each named."""
    unit = tx.state.units[unit_id]
    own, table = unit_data(unit), tables.morale.modifiers
    found = []
    if own.disordered:
        found.append(("disordered", table.disordered))
    if own.falling_back:
        found.append(("falling back", table.falling_back))
    if own.formation == DEPLOYED or any(tx.table.contains_point(k, unit.base.centre) for k in WORKS
                                        if tx.table.has(k)):
        found.append(("in a town or works", table.in_town_or_works))
    if supported(tx.state, unit):
        found.append(("supported", table.supported))
    called_on(tx, front_rank_officers(tx.state, unit_id), MORALE)
    bonus = officer_bonus(tables, tx.state, unit_id)
    if bonus:
        found.append(("officer", bonus))
    return tuple((name, value) for name, value in found if value)


def supported(state: GameState, unit: Unit) -> bool:
    """Is a friendly unit in good order (not routed, disordered or falling back; not an
    officer or a gun with a unit) within 6" of ``unit`` with its centre behind
    ``unit``'s rear edge? Only the pieces filed near it are looked at (a base within 6"
    has its bounding circle there)."""
    for friend in pieces_near(state, unit.base, SUPPORT_WITHIN):
        if friend.side != unit.side or friend.is_commander:
            continue
        own = unit_data(friend)
        if (friend.id == unit.id or own.routed or own.disordered or own.falling_back or own.is_officer
                or own.attached_to is not None):
            continue
        if unit.base.to_local(friend.base.centre)[1] < -unit.depth / 2.0 and \
                base_distance(unit.base, friend.base) <= SUPPORT_WITHIN:
            return True
    return False


def morale_test(tx: Tx, tables: Tables, unit_id: str, why: str, *, flank_or_rear: bool = False,
                extra: Sequence[tuple[str, int]] = ()) -> MoraleResult:
    """11 A, C: rating + one D6 + modifiers; six or more passes. Flank/rear C: "Units
    attacked in flank/rear rout on any morale die result of less than 6": with
    ``[rout] flank_rear_reads = "die"`` a bare die under 6 fails whatever the total
    (with "total", the total decides as in any test; either way such a failure routs).

    What the test decides (passed; failed by more than some points, for what a failure
    does) is read by comparing the die with a score, never from the total: exact odds
    then walk one branch for each way a test can go, not one for each face of the die
    (:mod:`tertia.analysis.enumerate` groups faces that answer every comparison alike).
    The total is the record's (the event, :attr:`MoraleResult.total`)."""
    points = rating(tx, tables, unit_id, why)
    mods = (*modifiers(tx, tables, unit_id), *extra)
    die = tx.roll(D6, f"morale: {tx.state.units[unit_id].label} ({why})")
    bonus = points + sum(v for _, v in mods)
    total = bonus + recorded(die)
    need = tables.morale.pass_
    passed = die >= need - bonus
    if flank_or_rear and tables.rout.flank_rear_reads == "die" and die < need:
        passed = False
    tx.emit(MoraleTested(unit=unit_id, why=why, rating=points, die=die, modifiers=mods, total=total,
                         passed=passed))
    return MoraleResult(unit_id, points, die, mods, total, need, passed, flank_or_rear, why)


# --- the 50% rules and rallying ---------------------------------------------------------


def over_half_adjustment(tx: Tx, tables: Tables, unit_id: str) -> bool:
    """"When a unit has lost more than 50% of it's strength, its morale is reduced by 1",
    once; returns whether it was reduced now."""
    own = unit_data(tx.state.units[unit_id])
    if own.half_lost or not own.under_half:
        return False
    change_rating(tx, tables, unit_id, tables.morale.permanent.over_half_lost, "over half its strength lost")
    change(tx, unit_id, "over half its strength lost", half_lost=True)
    return True


@dataclass(frozen=True, slots=True)
class HalfStrength:
    """Phase J for a unit over half lost: whether its rating dropped now, its test (None:
    an officer in its front rank spares it) and whether it left the field."""

    unit: str
    reduced: bool
    result: MoraleResult | None
    removed: bool


def half_strength_test(tx: Tx, tables: Tables, unit_id: str) -> HalfStrength | None:
    """"It must test morale during section J of the game sequence and in section J of all
    succeeding turns unless there is an officer attached to the unit ... If it fails, it is
    removed from the battlefield." None when the unit has not lost over half."""
    if not unit_data(tx.state.units[unit_id]).under_half:
        return None
    reduced = over_half_adjustment(tx, tables, unit_id)
    if front_rank_officers(tx.state, unit_id):
        return HalfStrength(unit_id, reduced, None, False)
    result = morale_test(tx, tables, unit_id, "over half its strength lost")
    if not result.passed:
        leave_field(tx, unit_id, "deserted", "its colonel pulls it out of the battle")
    return HalfStrength(unit_id, reduced, result, not result.passed)


def stand_missing(own: CypUnit) -> bool:
    """Has the unit a whole stand fewer than it started with ("a stand missing due to
    casualties")? Dragoons on foot count the stands their ranks began with, the horse
    holders apart."""
    return own.per_stand > 0 and own.stands_left < -(-(own.start - own.holders) // own.per_stand)


def may_rally(state: GameState, unit_id: str) -> bool:
    """Has a routed unit spent a whole turn where it fled (routed in an earlier turn)?"""
    own = unit_data(state.units[unit_id])
    return own.routed and (own.routed_turn is None or state.turn > own.routed_turn)


@dataclass(frozen=True, slots=True)
class Rally:
    """A rally test (phase K): the test, and whether the unit ``rallied`` or
    ``deserted`` (neither: it stands routed)."""

    unit: str
    result: MoraleResult
    rallied: bool
    deserted: bool


def rally_routed(tx: Tx, tables: Tables, unit_id: str) -> Rally | None:
    """Routing D: "A routed unit spends the entire next turn in the location to which it
    fled. At the end of that turn it tests morale. It must pass morale to rally. Less than
    that, it will desert the field if it has a stand missing due to casualties. If no
    stands are missing it may stand in place routed until it rallies." None when it may
    not test yet (or is not routed)."""
    if not may_rally(tx.state, unit_id):
        return None
    result = morale_test(tx, tables, unit_id, "rally")
    if result.passed:
        own = unit_data(tx.state.units[unit_id])
        change(tx, unit_id, "rallied", formation=LINE, falling_back=False,
               disordered=own.disordered and not tables.disorder.removal.rally_test)
        return Rally(unit_id, result, True, False)
    if stand_missing(unit_data(tx.state.units[unit_id])):
        leave_field(tx, unit_id, "deserted", "failed to rally with a stand lost")
        return Rally(unit_id, result, False, True)
    return Rally(unit_id, result, False, False)


def routed_units(state: GameState, side: str | None = None) -> list[str]:
    """The routed units in play, by id: those phase K tries to rally."""
    return sorted(u.id for u in state.iter_troops(side) if unit_data(u).routed)

