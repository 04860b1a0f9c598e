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

from typing import Annotated, Any, Literal

from pydantic import Field

from tertia.core.scenario import MAX_PIECES, Finite, Flag, Ident, Positive, Strict, Text
from tertia.rulesets.charge_yr_pikes.tables import Grade, MoraleClass, Rank

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
