"""The scenario format: a battle's table, armies and conditions, validated with pydantic.

Field names and meanings are the TOML file's. Semantic checks that need a rule set
(base sizes, overlaps, command make-up) live in :mod:`tertia.io.scenario_file`.
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    field_validator,
    model_validator,
)

from tertia.core.narration import default_side_name
from tertia.core.terrain import KIND_PATTERN, Battlefield, TerrainFeature, terrain_kind

Finite = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Positive = Annotated[float, Field(strict=True, gt=0, allow_inf_nan=False)]
Flag = Annotated[bool, Field(strict=True)]


def _printable(text: str, allowed: str = "") -> str:
    """Refuse control and formatting characters (terminal escapes, bidirectional
    overrides): names are shown to players as written, on a terminal and in the page."""
    for ch in text:
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Cf"):
            raise ValueError(f"contains the control character U+{ord(ch):04X}")
    return text


def _named(ident: str) -> str:
    """An id a piece or place is known by: printable, and more than spaces (the page and
    the log show it where no name is given)."""
    if not ident.strip():
        raise ValueError("is blank: spaces alone name nothing")
    return _printable(ident)


def _shown(text: str) -> str:
    """A name shown to players: printable (:func:`_printable`), and not blank where it is
    given at all (a name of spaces alone would show a piece with no name; left out, its id
    is shown)."""
    if text and not text.strip():
        raise ValueError("is blank: give it a name, or leave the field out")
    return _printable(text)


def _printable_lines(text: str) -> str:
    return _printable(text, allowed="\n\t")


Text = Annotated[str, Field(strict=True, max_length=200), AfterValidator(_shown)]
"""A name or reference shown to players: printable, at most 200 characters."""
Ident = Annotated[str, Field(strict=True, min_length=1, max_length=64), AfterValidator(_named)]
Prose = Annotated[str, Field(strict=True, max_length=20_000), AfterValidator(_printable_lines)]
Coordinate = tuple[Finite, Finite]

UNIT_TYPES = ("foot", "horse", "dragoons", "commanded_shot", "artillery")
"""The broad kinds of troops every rule set knows (a rule set's own troop classes go in its
extension table)."""

MAX_EXTENSION_BYTES = 1_000_000
"""The largest extension table a scenario may carry for one rule set, as JSON."""


class Strict(BaseModel):
    """A scenario table's model: unknown fields refused, values frozen (a rule set's
    extension table derives from it too)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


MAX_TABLE = 1000.0
"""The largest table width or depth accepted, in inches: far beyond any real table (a 6' x 4'
table is 72" x 48"), small enough that maps and reports stay bounded."""
MAX_PIECES = 500
"""Units, commanders, terrain features or markers a scenario may list, each."""
MAX_POINTS = 2000
"""Points in one terrain outline or line."""

TableLength = Annotated[float, Field(strict=True, gt=0, le=MAX_TABLE, allow_inf_nan=False)]


class TableSpec(Strict):
    width: TableLength
    depth: TableLength


class SideSpec(Strict):
    id: Ident
    name: Text = ""
    edge: Literal["south", "north"]

MOST_COMMANDER_VALUE = 10
"""The highest value a scenario may give a commander."""


class CommanderSpec(Strict):
    id: Ident
    name: Text = ""
    side: Text
    command: Ident
    x: Finite
    y: Finite
    facing: Finite = 0.0
    general: Flag = False
    value: Annotated[int, Field(strict=True, ge=0, le=MOST_COMMANDER_VALUE)] = 1
    width: Positive | None = None
    depth: Positive | None = None


class UnitSpec(Strict):
    id: Ident
    name: Text = ""
    side: Text
    type: Literal["foot", "horse", "dragoons", "commanded_shot", "artillery"]
    command: Ident
    x: Finite
    y: Finite
    facing: Finite = 0.0
    width: Positive | None = None
    depth: Positive | None = None
    traits: Annotated[tuple[Text, ...], Field(max_length=20)] = ()


Commanders = Annotated[tuple[CommanderSpec, ...], Field(max_length=MAX_PIECES)]
Units = Annotated[tuple[UnitSpec, ...], Field(max_length=MAX_PIECES)]

LISTS = ("commanders", "units")
"""The lists of pieces an order of battle may give in place of the shared ones."""
ORDER_OF_BATTLE = "order_of_battle"
"""The one field of a rule set's extension table that the core reads, not the rule set:
its own commanders and units (:class:`OrderOfBattle`), in place of the shared ones."""


class OrderOfBattle(Strict):
    """A rule set's own commanders and units, ``[[extensions."<id>".order_of_battle.units]]``
    and ``...commanders``, written as the scenario's own are; each list given replaces the
    shared one when the battle is fought under that rule set. Its ``notes`` (how it is
    drawn up) replace the scenario's :attr:`Scenario.notes` likewise."""

    commanders: Commanders = ()
    units: Units = ()
    notes: Prose = ""


class _OwnOrderOfBattle(BaseModel):
    """What the core checks of a rule set's extension table (the rest is the rule set's)."""

    model_config = ConfigDict(extra="ignore")
    order_of_battle: OrderOfBattle | None = None


_TABLES: TypeAdapter[dict[str, _OwnOrderOfBattle]] = TypeAdapter(dict[str, _OwnOrderOfBattle])


def _written_lists(table: dict[str, Any]) -> dict[str, Any]:
    """The fields of :class:`OrderOfBattle` an extension table writes (its lists and its
    notes: none, some or all)."""
    own = table.get(ORDER_OF_BATTLE)
    if not isinstance(own, dict):
        return {}
    return {name: own[name] for name in OrderOfBattle.model_fields if name in own}


class TerrainSpec(Strict):
    type: Annotated[str, Field(pattern=KIND_PATTERN)]
    """A kind of ground: one the core knows (``TerrainKind``) or one a rule set adds; the
    rule set played says which it knows (``RuleSet.TERRAIN_KINDS``)."""
    name: Text = ""
    polygon: Annotated[tuple[Coordinate, ...], Field(max_length=MAX_POINTS)] | None = None
    line: Annotated[tuple[Coordinate, ...], Field(max_length=MAX_POINTS)] | None = None
    width: Positive | None = None
    hedged: Flag = False
    height: Annotated[int, Field(strict=True, ge=1, le=5)] = 1

    @model_validator(mode="after")
    def _shape(self) -> TerrainSpec:
        if (self.polygon is None) == (self.line is None):
            raise ValueError("give exactly one of polygon or line")
        if self.polygon is not None:
            if len(self.polygon) < 3:
                raise ValueError("a polygon needs at least 3 points")
            if abs(_signed_area(self.polygon)) < 1e-6:
                raise ValueError("the polygon is degenerate (zero area)")
            from shapely.geometry import Polygon

            if not Polygon(self.polygon).is_valid:
                raise ValueError("the polygon crosses itself")
        if self.line is not None:
            if len(self.line) < 2:
                raise ValueError("a line needs at least 2 points")
            if self.width is None:
                raise ValueError("a line needs a width")
            length = sum(math.dist(a, b) for a, b in zip(self.line, self.line[1:], strict=False))
            if length < 1e-6:
                raise ValueError("the line is degenerate (zero length)")
        return self

    def to_feature(self) -> TerrainFeature:
        return TerrainFeature(
            kind=terrain_kind(self.type),
            outline=tuple(self.polygon or ()),
            line=tuple(self.line or ()),
            width=float(self.width or 0.0),
            name=self.name,
            hedged=self.hedged,
            height=self.height,
        )


class ObjectiveSpec(Strict):
    name: Text
    x: Finite
    y: Finite
    radius: Positive
    side: Text | None = None
    ends_game: Flag = True


DRAWN_UP = "As drawn up here."
"""The words before a scenario's :attr:`Scenario.notes` wherever they are told after its
story (the report's head, the terminal's narrative; the page says the same)."""


class Scenario(Strict):
    """A battle: a table, two sides, their commanders and units, terrain and objectives."""

    name: Annotated[str, Field(strict=True, min_length=1, max_length=200), AfterValidator(_shown)]
    turns: Annotated[int, Field(strict=True, ge=1, le=200)] = 12
    rules: tuple[Text, ...] = ()
    description: Prose = ""
    """The battle's story: who fought, where and why, as it was."""
    notes: Prose = ""
    """How the order of battle is drawn up: the choices made where the sources differ or
    say nothing, and what the table leaves out. A rule set's own order of battle gives its
    own (:class:`OrderOfBattle`), said in their place when the battle is fought under it."""
    sources: Annotated[tuple[Prose, ...], Field(max_length=100)] = ()
    first: Text | None = None
    table: TableSpec
    sides: tuple[SideSpec, SideSpec]
    commanders: Commanders = ()
    units: Units = ()
    terrain: Annotated[tuple[TerrainSpec, ...], Field(max_length=MAX_PIECES)] = ()
    objectives: Annotated[tuple[ObjectiveSpec, ...], Field(max_length=MAX_PIECES)] = ()
    extensions: Annotated[dict[Ident, dict[str, Any]], Field(max_length=20)] = {}
    """Each rule set's own order of battle, keyed by its id (``[extensions."<id>"]`` in
    the file): its troop classes, command structure, officer grades ... The rule set
    validates its table (:meth:`RuleSet.scenario_extension
    <tertia.core.ruleset.RuleSet.scenario_extension>`), so one battle can be fought under
    several rule sets, each with its own. A table's ``order_of_battle``
    (:class:`OrderOfBattle`) gives the rule set its own commanders and units, read by the
    core and checked here as the shared ones are: :meth:`for_rules` fields them."""

    @field_validator("extensions")
    @classmethod
    def _bounded_extensions(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for rules, table in v.items():
            size = len(json.dumps(table, default=str))
            if size > MAX_EXTENSION_BYTES:
                raise ValueError(f"the table for {rules!r} is {size} bytes, more than {MAX_EXTENSION_BYTES}")
        return v

    @field_validator("extensions")
    @classmethod
    def _valid_orders_of_battle(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Each table's own order of battle parses as the shared lists do; an error is
        located at ``extensions.<id>.order_of_battle.units[i].<field>``."""
        if any(ORDER_OF_BATTLE in table for table in v.values()):
            _TABLES.validate_python(v)
        return v

    @field_validator("sides")
    @classmethod
    def _distinct_sides(cls, v: tuple[SideSpec, SideSpec]) -> tuple[SideSpec, SideSpec]:
        if v[0].id == v[1].id:
            raise ValueError(f"both sides have the id {v[0].id!r}")
        if v[0].edge == v[1].edge:
            raise ValueError(f"both sides have the {v[0].edge} edge; one side needs the other edge")
        return v

    @property
    def side_ids(self) -> tuple[str, str]:
        return (self.sides[0].id, self.sides[1].id)

    def side(self, side_id: str) -> SideSpec:
        return next(s for s in self.sides if s.id == side_id)

    def side_names(self) -> dict[str, str]:
        """Each side's name by its id: the scenario's, else the id in words
        (:func:`~tertia.core.narration.default_side_name`), as a game names it."""
        return {s.id: s.name or default_side_name(s.id) for s in self.sides}

    def extension(self, rules_id: str) -> dict[str, Any]:
        """Rule set ``rules_id``'s own table as its model reads it: without the
        ``order_of_battle`` the core reads; empty when the file has none."""
        table = self.extensions.get(rules_id, {})
        return {k: v for k, v in table.items() if k != ORDER_OF_BATTLE}

    def own_lists(self, rules_id: str) -> tuple[str, ...]:
        """Which of ``commanders`` and ``units`` rule set ``rules_id``'s own order of
        battle replaces (none when it has none)."""
        return tuple(n for n in _written_lists(self.extensions.get(rules_id, {})) if n in LISTS)

    def for_rules(self, rules_id: str) -> Scenario:
        """The battle as rule set ``rules_id`` fights it: the commanders, units and notes
        of its own order of battle in place of the shared ones, where it gives them; else
        this scenario. The table stays, so asking again gives the same battle."""
        own = _written_lists(self.extensions.get(rules_id, {}))
        if not own:
            return self
        army = OrderOfBattle.model_validate(own)
        update = {name: getattr(army, name) for name in own}
        if all(getattr(self, name) == value for name, value in update.items()):
            return self
        return self.model_copy(update=update)

    def build_battlefield(self) -> Battlefield:
        return Battlefield(
            width=self.table.width,
            depth=self.table.depth,
            features=tuple(t.to_feature() for t in self.terrain),
        )


def _signed_area(points: tuple[Coordinate, ...]) -> float:
    return 0.5 * sum(
        a[0] * b[1] - b[0] * a[1] for a, b in zip(points, points[1:] + points[:1], strict=False)
    )
