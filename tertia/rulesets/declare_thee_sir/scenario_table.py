"""Declare Thee Sir's own table in a scenario file, ``[extensions."declare-thee-sir"]``.

Every unit and commander of the scenario plays without it, with its troop type's
defaults (:mod:`tertia.rulesets.declare_thee_sir.troops`); the table gives what a battle
needs beyond them: a regiment's stands and formation (commanded musketeers may start in
forlorn hope), cavalry carrying firelocks (who may caracole), dragoons starting mounted
or on foot, a general attached to a unit, and the size of each troop type's stands at
the battle's scale.

Example::

    [extensions."declare-thee-sir"]
    stands = { horse = { width = 2.0, depth = 2.0 } }

    [[extensions."declare-thee-sir".regiments]]
    unit = "r-wilmot"
    stands = 3
    formation = "line"
    firelocks = true

    [[extensions."declare-thee-sir".generals]]
    commander = "r-hopton"
    attached_to = "r-cornish-foot"
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

from pydantic import Field

from tertia.core.scenario import MAX_PIECES, Flag, Ident, Positive, Scenario, Strict
from tertia.core.table_checks import Pieces, named_once
from tertia.rulesets.declare_thee_sir.troops import MOST_STANDS

Formation = Literal["line", "long_march", "hedgehog", "caracole", "forlorn_hope"]
"""Game Mechanics I: Line, Long March (column) and Hedgehog (square); Optional Rules b:
the caracole (cavalry with firelocks, with the option on); Optional Rules a: the forlorn
hope (commanded musketeers, with the option on)."""


class StandSizeSpec(Strict):
    """One troop type's stand: frontage and depth in inches."""

    width: Positive
    depth: Positive


class RegimentSpec(Strict):
    """What the table says of one unit (``unit`` is its id in ``[[units]]``)."""

    unit: Ident
    stands: Annotated[int, Field(strict=True, ge=1, le=MOST_STANDS)] | None = None
    """How many stands (foot: three divisions; horse: two or three)."""
    formation: Formation = "line"
    firelocks: Flag = False
    """Cavalry with firelocks, who may form a caracole (Optional Rules b)."""
    mounted: Flag = True
    """Dragoons only: whether they start the battle mounted."""


class GeneralSpec(Strict):
    """A commander's command stand: ``attached_to`` names the unit it starts with."""

    commander: Ident
    attached_to: Ident | None = None


class DeclareTable(Strict):
    """``[extensions."declare-thee-sir"]``: regiments, generals and stand sizes."""

    regiments: Annotated[tuple[RegimentSpec, ...], Field(max_length=MAX_PIECES)] = ()
    generals: Annotated[tuple[GeneralSpec, ...], Field(max_length=MAX_PIECES)] = ()
    stands: dict[Literal["foot", "horse", "dragoons", "commanded_shot", "artillery", "general"],
                 StandSizeSpec] = Field(default_factory=dict)

    def table_problems(self, scenario: Scenario) -> Iterator[tuple[str, str]]:
        """What the table names, checked against the battle (``scenario``, as this rule
        set fields it): see :func:`regiment_problems` and :func:`general_problems`."""
        pieces = Pieces(scenario)
        yield from regiment_problems(self, pieces)
        yield from general_problems(self, pieces)


def regiment_problems(table: DeclareTable, pieces: Pieces) -> Iterator[tuple[str, str]]:
    """Each regiment a unit of the battle, listed once; firelocks only for horse ("Cavalry
    with firelocks", Optional Rules b), and only dragoons start on foot."""
    for i, problem in named_once([r.unit for r in table.regiments], "regiments", "unit", pieces.unit_problem,
                                 "a regiment has one entry"):
        if problem is not None:
            yield problem
            continue
        r, at = table.regiments[i], f"regiments[{i}]"
        kind = pieces.units[r.unit].type
        if r.firelocks and kind != "horse":
            yield f"{at}.firelocks", f"{r.unit} is {kind}: only horse carry firelocks (Optional Rules b)"
        if not r.mounted and kind != "dragoons":
            yield f"{at}.mounted", f"{r.unit} is {kind}: only dragoons start on foot"


def general_problems(table: DeclareTable, pieces: Pieces) -> Iterator[tuple[str, str]]:
    """Each general a commander of the battle, listed once ("General and aide on a
    command stand": one stand, in one place), attached (``attached_to``) to a unit of his
    own side."""
    for i, problem in named_once([g.commander for g in table.generals], "generals", "commander",
                                 pieces.commander_problem, "a general's stand has one entry"):
        if problem is not None:
            yield problem
            continue
        g, at = table.generals[i], f"generals[{i}]"
        if g.attached_to is not None:
            side = pieces.commanders[g.commander].side
            why = pieces.unit_problem(g.attached_to, side, whose=f"{g.commander}'s")
            if why is not None:
                yield f"{at}.attached_to", why
