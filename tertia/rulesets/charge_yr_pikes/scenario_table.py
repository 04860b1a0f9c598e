"""Charge yr Pikes!' own table in a scenario file, ``[extensions."charge-yr-pikes"]``.

The shared ``[[units]]`` and ``[[commanders]]`` place the pieces; a unit's ``command``
is its tertia. This table says what the rules need beyond that: each regiment's troop
type and morale class and, where it differs from its type's organisation, its figures;
each officer's rank (and grade, when it is fixed rather than rolled) and the unit he
starts in the front rank of; each side's objectives and vital points (section 19); the
year, which decides whether cavalry may flinch into a caracole (before 1645); and any
table a club reads otherwise (:mod:`~tertia.rulesets.charge_yr_pikes.tables`).

Example::

    [extensions."charge-yr-pikes"]
    year = 1645

    [[extensions."charge-yr-pikes".regiments]]
    unit = "p-skippon"
    troop = "foot"
    morale_class = "elite_foot"

    [[extensions."charge-yr-pikes".regiments]]
    unit = "p-forlorn-hope"
    troop = "musketeers"
    detached_from = ["p-skippon", "p-hardress", "p-pickering", "p-montagu"]

    [[extensions."charge-yr-pikes".officers]]
    commander = "p-fairfax"
    rank = "army"

    [[extensions."charge-yr-pikes".points]]
    side = "parliament"
    kind = "vital"
    role = "baggage"
    name = "Baggage train"
    x = 40.0
    y = 4.0
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from tertia.core.scenario import MAX_PIECES, Finite, Flag, Ident, Positive, Scenario, Strict, Text
from tertia.core.table_checks import Pieces, first_seen, named_once
from tertia.rulesets.charge_yr_pikes.tables import Grade, MoraleClass, Rank
from tertia.rulesets.charge_yr_pikes.troops import TROOPS

TroopName = Literal["foot", "musketeers", "highlanders", "horse", "lobsters", "scots_horse",
                    "dragoons", "artillery", "wagons"]
Figures = Annotated[int, Field(strict=True, ge=0, le=200)]


class RegimentSpec(Strict):
    """What the table says of one unit (``unit`` is its id in ``[[units]]``)."""

    unit: Ident
    troop: TroopName
    morale_class: MoraleClass | None = None
    """Section 11 A; by default the line its troop type and flags give
    (:func:`~tertia.rulesets.charge_yr_pikes.setup.morale_class_of`: foot "Foot or elite
    trained bands", trained bands "2nd rate Foot or trained bands", elite foot "Elite Foot")."""
    elite: Flag = False
    trained_bands: Flag = False
    firelocks: Flag = False
    pike: Figures | None = None
    shot: Figures | None = None
    men: Figures | None = None
    """Figures, where they differ from the type's organisation (foot: 16 pike, 16 shot)."""
    formation: Literal["line", "column", "square", "deployed"] = "line"
    gun: Literal["galloper", "field", "heavy"] | None = None
    mounted: Flag = True
    """Dragoons only: whether they start the battle mounted."""
    attached_to: Ident | None = None
    """A galloper gun: the regiment it is attached to (it must touch it)."""
    detached_from: Annotated[tuple[Ident, ...], Field(max_length=MAX_PIECES)] = ()
    """Commanded musketeers (Special rules D): the 4 to 8 foot units each giving it a stand
    of shot (:mod:`~tertia.rulesets.charge_yr_pikes.commanded`)."""


class OfficerSpec(Strict):
    """A commander's rank; ``grade`` fixes his value (else it is rolled, with the option
    officer_grades on); ``attached_to`` puts him in a unit's front rank."""

    commander: Ident
    rank: Rank
    grade: Grade | None = None
    attached_to: Ident | None = None
    commands: Annotated[tuple[Ident, ...], Field(max_length=MAX_PIECES)] = ()
    """A wing commander: the tertias of his wing (besides his own)."""


class PointSpec(Strict):
    """An objective a side means to take, or a vital point it defends (section 19 A, B)."""

    side: Ident
    kind: Literal["objective", "vital"]
    name: Text
    x: Finite
    y: Finite
    role: Literal["baggage", "retreat", "other"] = "other"
    """Vital points: one must be the baggage train if it is on the table, one a road off
    the table behind the army (its line of retreat)."""


class StandSizeSpec(Strict):
    """One arm's stand: frontage and depth in inches."""

    width: Positive
    depth: Positive


class PikesTable(Strict):
    """``[extensions."charge-yr-pikes"]``."""

    stands: dict[Literal["foot", "horse", "artillery", "officer"], StandSizeSpec] = Field(
        default_factory=dict)
    """Stand sizes at the battle's scale, by arm (else ``layout.STAND_SIZES``)."""
    year: Annotated[int, Field(strict=True, ge=1600, le=1700)] = 1643
    regiments: Annotated[tuple[RegimentSpec, ...], Field(max_length=MAX_PIECES)] = ()
    officers: Annotated[tuple[OfficerSpec, ...], Field(max_length=MAX_PIECES)] = ()
    points: Annotated[tuple[PointSpec, ...], Field(max_length=24)] = ()
    tables: dict[str, Any] = Field(default_factory=dict)
    """Tables replacing the built-in ones whole (checked when the game is set up)."""

    def table_problems(self, scenario: Scenario) -> Iterator[tuple[str, str]]:
        """What the table names, checked against the battle (``scenario``, as this rule
        set fields it): see :func:`regiment_problems`, :func:`officer_problems` and
        :func:`point_problems`."""
        pieces = Pieces(scenario)
        yield from regiment_problems(self, pieces)
        yield from officer_problems(self, pieces, scenario)
        yield from point_problems(self, pieces)


ARMY = "army"
WING = "wing"
GALLOPER = "galloper"
COMMANDER_IN_CHIEF = "Tertias and officers C"
"""Where the text names the officers: "Each army has three types of general officer; the
Commander-in chief, Wing commanders, and brigade commanders"."""


def troops_of(unit_type: str) -> tuple[str, ...]:
    """The troop types a unit of ``unit_type`` (``[[units]]``) may be: foot are foot or
    highlanders, horse are horse, lobsters or Scots horse, a battery's piece is artillery or
    wagons ..."""
    return tuple(t for t in get_args(TroopName) if TROOPS[t].kind.value == unit_type)


def regiment_problems(table: PikesTable, pieces: Pieces) -> Iterator[tuple[str, str]]:
    """Each regiment a unit of the battle, listed once, of a troop type its unit type may
    be (``foot`` are never ``horse``); a gun only for a battery, dismounted only for
    dragoons; attached (``attached_to``: a galloper gun, or commanded musketeers
    intermingled with horse) to another unit of its own side; drawing stands of shot
    (``detached_from``) from units of its own side."""
    for i, problem in named_once([r.unit for r in table.regiments], "regiments", "unit", pieces.unit_problem,
                                 "a regiment has one entry"):
        if problem is not None:
            yield problem
            continue
        r, at = table.regiments[i], f"regiments[{i}]"
        unit = pieces.units[r.unit]
        if TROOPS[r.troop].kind.value != unit.type:
            yield (f"{at}.troop", f"{r.unit} is a {unit.type} unit in the order of battle, and troop "
                   f"{r.troop!r} is {TROOPS[r.troop].kind.value}; a {unit.type} unit's troop is one of: "
                   f"{', '.join(troops_of(unit.type))}")
        if r.gun is not None and r.troop != "artillery":
            yield f"{at}.gun", f"{r.unit} is {r.troop}: only a battery (troop artillery) has a gun"
        if not r.mounted and r.troop != "dragoons":
            yield f"{at}.mounted", f"{r.unit} is {r.troop}: only dragoons start dismounted"
        if r.attached_to is not None:
            serves = r.troop == "musketeers" or (r.troop == "artillery" and r.gun == GALLOPER)
            why = (f"{r.unit} is {r.troop}: only a galloper gun or commanded musketeers are attached to "
                   "a unit" if not serves else
                   f"{r.unit} is attached to itself" if r.attached_to == r.unit else
                   pieces.unit_problem(r.attached_to, unit.side, whose=f"{r.unit}'s"))
            if why is not None:
                yield f"{at}.attached_to", why
        for parent in dict.fromkeys(r.detached_from):
            why = None if parent == r.unit else pieces.unit_problem(parent, unit.side, whose=f"{r.unit}'s")
            if why is not None:
                yield f"{at}.detached_from", f"{r.unit}: {why}"


def officer_problems(table: PikesTable, pieces: Pieces, scenario: Scenario) -> Iterator[tuple[str, str]]:
    """Each officer a commander of the battle, listed once (one rank); one army commander
    a side, the Commander-in-chief (Tertias and officers C), counting the side's general
    when the table gives him no rank; in a unit's front rank (``attached_to``) only of his
    own side; tertias (``commands``) given only to a wing commander, each one of his side's,
    named once, and in one wing only (a wing commander's own tertia is his wing's)."""
    listed: dict[str, int] = {}
    for i, problem in named_once([o.commander for o in table.officers], "officers", "commander",
                                 pieces.commander_problem, "an officer has one rank"):
        if problem is not None:
            yield problem
        else:
            listed[table.officers[i].commander] = i
    for cid, i in listed.items():
        o, side = table.officers[i], pieces.commanders[cid].side
        if o.attached_to is not None:
            why = pieces.unit_problem(o.attached_to, side, whose=f"{cid}'s")
            if why is not None:
                yield f"officers[{i}].attached_to", why
    armies = list(_army_problems(table, pieces, scenario, listed))
    yield from (problem for _, problem in armies)
    # A second army commander given tertias is named once, for his rank.
    blamed = {who for who, _ in armies}
    yield from _wing_problems(table, pieces, {cid: i for cid, i in listed.items() if cid not in blamed})


def _army_problems(table: PikesTable, pieces: Pieces, scenario: Scenario,
                   listed: dict[str, int]) -> Iterator[tuple[str | None, tuple[str, str]]]:
    """One army commander a side: the general of ``[[commanders]]`` is one when the table
    gives him no rank (as :func:`~tertia.rulesets.charge_yr_pikes.setup.officer` sets him up).
    Each problem comes with the officer it blames (None when it blames none)."""
    for side in scenario.side_ids:
        general = next((c.id for c in scenario.commanders
                        if c.side == side and c.general and c.id not in listed), None)
        ranked = [cid for cid, i in listed.items()
                  if pieces.commanders[cid].side == side and table.officers[i].rank == ARMY]
        if general is None and not ranked:
            yield None, ("officers", f"{side} has no army commander: each army has one Commander-in-chief "
                         f"({COMMANDER_IN_CHIEF}); give one officer rank \"army\"")
            continue
        kept = general if general is not None else ranked[0]
        for cid in ranked:
            if cid != kept:
                whose = " (the side's general)" if kept == general else ""
                yield cid, (f"officers[{listed[cid]}].rank", f"{side} has two army commanders, {kept}{whose} "
                            f"and {cid}: each army has one Commander-in-chief ({COMMANDER_IN_CHIEF})")


def _wing_problems(table: PikesTable, pieces: Pieces, listed: dict[str, int]) -> Iterator[tuple[str, str]]:
    """The tertias given (``commands``) to the officers ``listed`` (id: index in the table)."""
    wing_of: dict[str, str] = {}
    for cid, i in listed.items():
        if table.officers[i].rank == WING:
            wing_of.setdefault(pieces.commanders[cid].command, cid)
    for cid, i in listed.items():
        o = table.officers[i]
        if not o.commands:
            continue
        at, side = f"officers[{i}].commands", pieces.commanders[cid].side
        if o.rank != WING:
            yield (at, f"{cid} is of rank {o.rank}: only a wing commander is given tertias beyond his "
                       f"own ({COMMANDER_IN_CHIEF})")
            continue
        ours = pieces.commands(side)
        enemy = pieces.commands(next(s for s in pieces.sides if s != side))
        for tertia, times in {t: o.commands.count(t) for t in o.commands}.items():
            if times > 1:
                yield at, f"{cid} is given tertia {tertia!r} {times} times"
            elif tertia not in ours:
                yield at, (f"tertia {tertia!r} is the enemy's, not {side}'s: {cid} commands his own side's"
                           if tertia in enemy else
                           f"no tertia {tertia!r} of {side}; its tertias: {', '.join(sorted(ours))}")
            elif wing_of.setdefault(tertia, cid) != cid:
                yield at, f"tertia {tertia!r} is in {wing_of[tertia]}'s wing already: a tertia is in one wing"


def point_problems(table: PikesTable, pieces: Pieces) -> Iterator[tuple[str, str]]:
    """Each point a side's of the battle, and no side's point listed twice (19 A: three
    objectives and three vital points, each a place of its own)."""
    again = first_seen((p.side, p.name) for p in table.points)
    for i, p in enumerate(table.points):
        why = pieces.side_problem(p.side)
        if why is not None:
            yield f"points[{i}].side", why
        elif i in again:
            yield (f"points[{i}].name", f"{p.side}'s point {p.name!r} is listed twice (also "
                   f"points[{again[i]}]): a side's points are three objectives and three vital points, "
                   "each its own (section 19 A)")
