"""Game state: plain, immutable data that round-trips exactly through JSON.

States are values. A change makes a new state sharing everything it did not touch
(``evolve`` plus one new dict of units), so search and simulation can
clone thousands of positions a second. Only the reducer (:mod:`tertia.core.reducer`)
builds changed states during play.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, Final, final

from tertia.core.decision import Decision
from tertia.core.geometry import EPSILON, Base, Polygon, polygons_overlap
from tertia.core.grid import Grid
from tertia.core.memo import Measured, Memo
from tertia.core.records import slot_of, written
from tertia.core.ruledata import RuleData, rule_data_from_dict
from tertia.core.sieve import Sieve

_GEOMETRY = frozenset({"x", "y", "facing", "width", "depth"})


def _with_piece(
    selected: Mapping[str | None, tuple[Unit, ...]],
    places: Mapping[str | None, Mapping[str, int]],
    unit: Unit,
) -> dict[str | None, tuple[Unit, ...]]:
    """Remembered selections of pieces with ``unit`` in place of the piece it replaces
    (one that neither arrives nor leaves): each keeps its roster and its order (``places``:
    each piece's place in its roster)."""
    patched: dict[str | None, tuple[Unit, ...]] = {}
    for side, found in selected.items():
        if side is None or side == unit.side:
            i = places[side].get(unit.id)
            if i is not None:
                copied = list(found)  # copied whole in C, quicker than slices put together
                copied[i] = unit
                found = tuple(copied)
        patched[side] = found
    return patched


class UnitKind(StrEnum):
    """Troop types shared by every rule set (each maps them to its own words)."""

    FOOT = "foot"
    HORSE = "horse"
    DRAGOONS = "dragoons"
    COMMANDED_SHOT = "commanded_shot"
    ARTILLERY = "artillery"
    COMMANDER = "commander"


TROOP_KINDS = frozenset(
    {UnitKind.FOOT, UnitKind.HORSE, UnitKind.DRAGOONS, UnitKind.COMMANDED_SHOT, UnitKind.ARTILLERY}
)


@dataclass(frozen=True, slots=True)
class Stand:
    """One stand of a unit that has separated from the rest (a rout of stands, each moving
    on its own): where it stands, its size, and whether it is still in play."""

    x: float
    y: float
    facing: float
    width: float
    depth: float
    removed: str | None = None

    @property
    def base(self) -> Base:
        return Base(self.x, self.y, self.facing, self.width, self.depth)


UNIT_FIELDS = ("id", "side", "kind", "command", "x", "y", "facing", "width", "depth", "name",
               "traits", "removed", "own", "extra", "stands")
"""A unit's fields, in the order its constructor takes them: the one list of them (a test
holds the constructor, :meth:`Unit.fields` and serialisation to it)."""

_UNIT_FIELDS = frozenset(UNIT_FIELDS)
_UNIT_DEFAULTS: Final[Mapping[str, Any]] = {
    "name": "", "traits": (), "removed": None, "own": None, "extra": None, "stands": ()}


@final
class Unit:
    """A unit or a commander on the table: identity, side, kind, group (``command``),
    where it stands and its status.

    ``removed`` is ``None`` while the piece is in play, else why it left ("routed",
    "raided", "misfortune" ...). ``own`` holds the values its rule set keeps for it (hits,
    ammunition, morale points, figures ...; see :mod:`tertia.core.ruledata`), and
    ``extra`` a rule set's free-form per-unit data; both are replaced, never mutated.
    ``base``, the footprint, follows from the position, facing and size; ``stands`` lists
    the stands that have separated from it, each with its own place (empty while the unit
    stands together). ``footprints`` is all the table it takes up (its base, or each of its
    separated stands in play), and ``reach`` the radius about its centre that holds them.

    A value, written out rather than a dataclass because units change thousands of times
    a battle: equal units have equal fields, and a unit never changes (:meth:`evolve`
    makes a new one).
    """

    __slots__ = (*UNIT_FIELDS, "base", "footprints", "reach", "_canonical_text")

    def __init__(
        self,
        id: str,
        side: str,
        kind: UnitKind,
        command: str,
        x: float,
        y: float,
        facing: float,
        width: float,
        depth: float,
        name: str = "",
        traits: tuple[str, ...] = (),
        removed: str | None = None,
        own: RuleData | None = None,
        extra: Mapping[str, Any] | None = None,
        stands: tuple[Stand, ...] = (),
        *,
        _base: Base | None = None,
    ) -> None:
        self.id: Final = id
        self.side: Final = side
        self.kind: Final = kind
        self.command: Final = command
        self.x: Final = x
        self.y: Final = y
        self.facing: Final = facing
        self.width: Final = width
        self.depth: Final = depth
        self.name: Final = name
        self.traits: Final = traits
        self.removed: Final = removed
        self.own: Final = own
        self.extra: Final[Mapping[str, Any]] = {} if extra is None else extra
        self.stands: Final = stands
        # A unit that kept its place keeps its base, so memos keyed on the base still hold.
        self.base: Final = Base(x, y, facing, width, depth) if _base is None else _base
        footprints = _footprints(self.base, stands)
        self.footprints: Final[tuple[Base, ...]] = footprints
        self.reach: Final[float] = _reach(x, y, self.base.radius, footprints) if stands else self.base.radius
        self._canonical_text: str | None = None

    def canonical_text(self) -> str:
        """Its canonical projection as the JSON text :meth:`GameState.state_hash` digests,
        worked out once (a unit never changes, and most of an army is shared from one
        state to the next)."""
        if self._canonical_text is None:
            self._canonical_text = _json_text(_canonical_unit(self))
        return self._canonical_text

    def overlaps(self, area: Polygon, tolerance: float = EPSILON) -> bool:
        """Does ``area`` (a convex polygon) share area with the table this piece takes up
        (:attr:`footprints`: its base, or any of its separated stands)?"""
        return any(polygons_overlap(area, f.corners(), tolerance) for f in self.footprints)

    def fields(self) -> tuple[Any, ...]:
        """The values of :data:`UNIT_FIELDS`, in order."""
        # Written out: a unit's fields are read thousands of times a battle (a test holds
        # this, the constructor and :meth:`evolve` to UNIT_FIELDS).
        return (self.id, self.side, self.kind, self.command, self.x, self.y, self.facing,
                self.width, self.depth, self.name, self.traits, self.removed, self.own,
                self.extra, self.stands)

    def evolve(self, **changes: Any) -> Unit:
        """This unit with some fields changed. A name that is not one of
        :data:`UNIT_FIELDS` changes the rule set's own values (:attr:`own`)."""
        if not _UNIT_FIELDS.issuperset(changes):
            own_changes = {k: changes.pop(k) for k in list(changes) if k not in _UNIT_FIELDS}
            if self.own is None:
                raise TypeError(f"a unit has no field {sorted(own_changes)[0]!r}")
            changes["own"] = self.own.evolve(**own_changes)
        get = changes.get
        return Unit(
            get("id", self.id), get("side", self.side), get("kind", self.kind),
            get("command", self.command), get("x", self.x), get("y", self.y),
            get("facing", self.facing), get("width", self.width), get("depth", self.depth),
            get("name", self.name), get("traits", self.traits), get("removed", self.removed),
            get("own", self.own), get("extra", self.extra), get("stands", self.stands),
            _base=self.base if _GEOMETRY.isdisjoint(changes) else None,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unit):
            return NotImplemented
        return self.fields() == other.fields()

    __hash__ = None  # type: ignore[assignment]  # equal by value, and ``extra`` is a dict

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(UNIT_FIELDS, self.fields(), strict=True)
                          if n not in _UNIT_DEFAULTS or v != _UNIT_DEFAULTS[n])
        return f"Unit({shown})"

    def __reduce__(self) -> tuple[type[Unit], tuple[Any, ...]]:
        return (Unit, self.fields())

    @property
    def in_play(self) -> bool:
        return self.removed is None

    @property
    def is_commander(self) -> bool:
        return self.kind is UnitKind.COMMANDER

    @property
    def label(self) -> str:
        return self.name or self.id

    def to_dict(self) -> dict[str, Any]:
        d = dict(zip(UNIT_FIELDS, self.fields(), strict=True))
        d["kind"] = self.kind.value
        d["traits"] = list(self.traits)
        d["own"] = None if self.own is None else self.own.to_dict()
        d["extra"] = dict(self.extra)
        d["stands"] = [asdict(st) for st in self.stands]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Unit:
        data = {k: v for k, v in d.items() if k in _UNIT_FIELDS}
        data["kind"] = UnitKind(data["kind"])
        data["traits"] = tuple(data.get("traits", ()))
        own = data.get("own")
        data["own"] = None if own is None else rule_data_from_dict(own)
        data["extra"] = dict(data.get("extra", {}))
        data["stands"] = tuple(Stand(**st) for st in data.get("stands", ()))
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Objective:
    """A place a scenario asks a side (or either side) to take."""

    name: str
    x: float
    y: float
    radius: float
    side: str | None = None
    taken_by: str | None = None


NEAR_SLACK: Final = 1e-6
"""Inches :meth:`GameState.near` adds to every reach, against rounding in the callers' own
(exact) measures: it may hand out a piece a hair further than asked, never one fewer."""

MARK_SCAN: Final = 8
"""Marks up to this long are searched in place; longer ones through a set."""

# The selections of pieces a state remembers: those in play, the troops among them, and
# every piece, removed ones included.
_IN_PLAY: Final = 0
_TROOPS: Final = 1
_EVERY_PIECE: Final = 2

STATE_FIELDS = ("sides", "turn", "active", "phase", "units", "objectives", "first_side",
                "marks", "decisions", "result", "step", "own", "extra")
"""A state's fields, in the order its constructor takes them: the one list of them (a test
holds the constructor, :meth:`GameState.fields` and serialisation to it)."""

_STATE_FIELDS = frozenset(STATE_FIELDS)


@final
class GameState:
    """Everything that changes during a battle.

    ``marks`` is the current player turn's bookkeeping: named sets of ids (units moved,
    units that attacked, orders given ...), cleared when the turn passes. ``decisions`` are
    what the rules await before play goes on (a defender's reaction, a hidden choice), in
    the order they arose; :attr:`pending` is the first, whose side is to act. ``own`` holds
    the game-wide values the rule set declares (:mod:`tertia.core.ruledata`), ``extra`` its
    free-form global data.

    A value, written out rather than a dataclass because a battle makes thousands of
    states: equal states have equal fields, and a state never changes (:meth:`evolve`
    makes a new one). Beside its fields it carries memos of derived queries, which are
    never compared or serialised.
    """

    __slots__ = (*STATE_FIELDS, "cache", "grid", "mark_sets", "measured", "places", "ranks", "rosters",
                 "selected", "sieves")

    def __init__(
        self,
        sides: tuple[str, str],
        turn: int,
        active: str,
        phase: str,
        units: Mapping[str, Unit],
        objectives: tuple[Objective, ...] = (),
        first_side: str | None = None,
        marks: Mapping[str, tuple[str, ...]] | None = None,
        decisions: tuple[Decision, ...] = (),
        result: Mapping[str, Any] | None = None,
        step: int = 0,
        own: RuleData | None = None,
        extra: Mapping[str, Any] | None = None,
        *,
        _pieces_of: GameState | None = None,
    ) -> None:
        self.sides: Final = sides
        self.turn: Final = turn
        self.active: Final = active
        self.phase: Final = phase
        self.units: Final = units
        self.objectives: Final = objectives
        self.first_side: Final = first_side
        self.marks: Final[Mapping[str, tuple[str, ...]]] = {} if marks is None else marks
        self.decisions: Final = decisions
        self.result: Final = result
        self.step: Final = step
        self.own: Final = own
        self.extra: Final[Mapping[str, Any]] = {} if extra is None else extra
        self.cache: Final[dict[Any, Any]] = {}
        """Memo for derived queries on this state (each new state starts empty)."""
        self.mark_sets: dict[str, frozenset[str]] | None = None
        """Memo of the longer marks as sets (see :meth:`is_marked`); shared by states with
        the same marks."""
        # The memos of where the pieces stand and which are in play. ``_pieces_of``, a
        # state with the very same pieces, shares its own (most states a battle makes
        # change no piece, and each would otherwise make a dozen containers to drop).
        if _pieces_of is not None:
            self.measured: Memo = _pieces_of.measured
            self.rosters: tuple[dict[str | None, tuple[str, ...]], ...] = _pieces_of.rosters
            self.places: tuple[dict[str | None, dict[str, int]], ...] = _pieces_of.places
            self.selected: tuple[dict[str | None, tuple[Unit, ...]], ...] = _pieces_of.selected
            self.grid: Grid | None = _pieces_of.grid
            self.ranks: dict[str, int] | None = _pieces_of.ranks
            self.sieves: dict[Any, Sieve] = _pieces_of.sieves
            return
        self.measured = Memo()
        """Memo for what depends only on where the pieces in play stand (see
        :meth:`remember`); states that share every piece's base share it, and a move forgets
        only what lies near."""
        self.rosters = ({}, {}, {})
        """Memo of which pieces are in play, per selection (see :meth:`_select`) by side;
        lasts until one arrives or leaves."""
        self.places = ({}, {}, {})
        """Memo of each piece's place in its rosters (see :attr:`rosters`), kept with them."""
        self.selected = ({}, {}, {})
        """Memo of the pieces themselves, per selection by side; shared by states with the
        same pieces."""
        self.grid = None
        """Memo of where the pieces in play stand, by cell (see :meth:`near`); a move
        refiles only the piece that moved."""
        self.ranks = None
        """Memo of each piece's place in :attr:`units`, the order every list of pieces
        keeps; lasts until a new piece arrives."""
        self.sieves = {}
        """Memo of the pieces in play that pass a test, by the test's key (see
        :meth:`pieces_where`); each change of a piece refiles only that piece."""

    def fields(self) -> tuple[Any, ...]:
        """The values of :data:`STATE_FIELDS`, in order."""
        # Written out, as Unit's are (a test holds them to STATE_FIELDS).
        return (self.sides, self.turn, self.active, self.phase, self.units, self.objectives,
                self.first_side, self.marks, self.decisions, self.result, self.step, self.own,
                self.extra)

    def evolve(self, **changes: Any) -> GameState:
        """This state with some fields changed (and an empty cache)."""
        # A state is evolved for nearly every event, nearly always in one or two fields:
        # each change is matched to its field (the commonest first), rather than every
        # field looked up among the changes.
        sides, turn, active, phase, units, objectives, first_side, marks, decisions, result, step, \
            own, extra = self.fields()
        pieces_kept = marks_kept = True
        for name, value in changes.items():
            if name == "marks":
                marks, marks_kept = value, False
            elif name == "units":
                units, pieces_kept = value, False
            elif name == "phase":
                phase = value
            elif name == "step":
                step = value
            elif name == "own":
                own = value
            elif name == "decisions":
                decisions = value
            elif name == "turn":
                turn = value
            elif name == "active":
                active = value
            elif name == "result":
                result = value
            elif name == "extra":
                extra = value
            elif name == "first_side":
                first_side = value
            elif name == "objectives":
                objectives = value
            elif name == "sides":
                sides = value
            else:
                raise TypeError(f"a state has no field {sorted(set(changes) - _STATE_FIELDS)[0]!r}")
        new = GameState(sides, turn, active, phase, units, objectives, first_side, marks, decisions,
                        result, step, own, extra, _pieces_of=self if pieces_kept else None)
        if marks_kept:
            new.mark_sets = self.mark_sets
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.fields() == other.fields()

    __hash__ = None  # type: ignore[assignment]  # equal by value, and holds dicts

    def __repr__(self) -> str:
        shown = ", ".join(f"{n}={v!r}" for n, v in zip(STATE_FIELDS, self.fields(), strict=True))
        return f"GameState({shown})"

    def __reduce__(self) -> tuple[type[GameState], tuple[Any, ...]]:
        return (GameState, self.fields())

    # --- queries -------------------------------------------------------------------------

    @property
    def pending(self) -> Decision | None:
        """The decision to answer now (the first awaited), or None."""
        return self.decisions[0] if self.decisions else None

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def to_act(self) -> str:
        """The side whose decision the game awaits."""
        if self.decisions:
            return self.decisions[0].side
        return self.active

    def opponent(self, side: str) -> str:
        a, b = self.sides
        return b if side == a else a

    def unit(self, unit_id: str) -> Unit:
        return self.units[unit_id]

    def iter_units(self, side: str | None = None, *, include_removed: bool = False) -> Iterator[Unit]:
        """Pieces (units and commanders) of a side, or of both; in play unless asked."""
        return iter(self._select(side, _EVERY_PIECE if include_removed else _IN_PLAY))

    def iter_troops(self, side: str | None = None) -> Iterator[Unit]:
        """Units in play that are troops (not commanders)."""
        return iter(self._select(side, _TROOPS))

    def _select(self, side: str | None, selection: int) -> tuple[Unit, ...]:
        # Rules ask for the same lists many times per position; a state never changes.
        found: tuple[Unit, ...] | None = self.selected[selection].get(side)
        if found is None:
            rosters = self.rosters[selection]
            ids = rosters.get(side)
            if ids is None:
                ids = rosters[side] = tuple(
                    u.id for u in self.units.values()
                    if (selection == _EVERY_PIECE or u.removed is None)
                    and (side is None or u.side == side)
                    and not (selection == _TROOPS and u.kind is UnitKind.COMMANDER)
                )
                self.places[selection][side] = {uid: i for i, uid in enumerate(ids)}
            found = self.selected[selection][side] = tuple(map(self.units.__getitem__, ids))
        return found

    def pieces_where(
        self, key: Any, test: Callable[[Unit], bool], *, fixed: bool = False
    ) -> tuple[Unit, ...]:
        """The pieces in play that pass ``test``, a test of the piece alone (the same test
        under the same ``key``), in the order of :meth:`iter_units`. Remembered from one
        state to the next: a change of a piece tests only that piece again, and, where
        the test is ``fixed`` (it reads only a piece's side, kind and command, which no
        piece changes), only a piece that comes into play."""
        sieve = self.sieves.get(key)
        if sieve is None:
            sieve = self.sieves[key] = Sieve.of(test, ((u.id, u) for u in self.iter_units()), fixed)
        return tuple(map(self.units.__getitem__, sieve.ids))

    def _ranks(self) -> dict[str, int]:
        """Each piece's place in :attr:`units`, the order every list of pieces keeps."""
        ranks = self.ranks
        if ranks is None:
            ranks = self.ranks = {uid: i for i, uid in enumerate(self.units)}
        return ranks

    def near(self, x0: float, y0: float, x1: float, y1: float, inches: float) -> list[Unit]:
        """The pieces in play whose bounding circles (of radius :attr:`Unit.reach`) come
        within ``inches`` of the box from (x0, y0) to (x1, y1), in the order of
        :meth:`iter_units`: every piece that could come that near anything in the box, and
        perhaps some a hair further (the caller measures). However many pieces there are,
        only those filed near the box are read."""
        found = self._near_unordered(x0, y0, x1, y1, inches)
        n = len(found)
        if n > 1:
            # each piece's place in play and its index here packed in one integer, sorted
            # as integers: many times quicker than a key function called for each piece
            ranks = self._ranks()
            packed = sorted([ranks[u.id] * n + i for i, u in enumerate(found)])
            return [found[k % n] for k in packed]
        return found

    def _near_unordered(self, x0: float, y0: float, x1: float, y1: float, inches: float) -> list[Unit]:
        """:meth:`near`, in no particular order."""
        grid = self.grid
        if grid is None:
            grid = self.grid = Grid.of((u.id, u.x, u.y, u.reach) for u in self.iter_units())
        units = self.units
        # a dict's own lookup is quicker in compiled code than a mapping's
        pieces: dict[str, Unit] = units if isinstance(units, dict) else dict(units)
        found: list[Unit] = []
        for uid in grid.ids_near(x0, y0, x1, y1, inches + NEAR_SLACK):
            u = pieces[uid]
            r = inches + u.reach + NEAR_SLACK
            if x0 - r <= u.x <= x1 + r and y0 - r <= u.y <= y1 + r:
                found.append(u)
        return found

    def _near_places(self, x: float, y: float, inches: float) -> list[tuple[str, float, float, float]]:
        """:meth:`near` a point, each piece as its id, centre and half-diagonal (what a
        :class:`~tertia.core.memo.Memo` reads)."""
        return [(u.id, u.x, u.y, u.reach) for u in self._near_unordered(x, y, x, y, inches)]

    def _stands_here(self, unit: Unit) -> bool:
        """Is ``unit`` where its piece in this state stands (not a hypothetical one)?"""
        own = self.units.get(unit.id)
        return own is not None and own.base is unit.base

    def recall(self, key: Any, unit: Unit) -> Any:
        """What :meth:`remember` stored under ``key`` about ``unit``, or None; never for a
        unit standing elsewhere than its piece in this state (a hypothetical one)."""
        found = self.measured.get(unit.id, key) if self._stands_here(unit) else None
        return None if found is None else found.value

    def remember(self, key: Any, unit: Unit, reach: float, value: Any) -> None:
        """Keep ``value``, a fact about ``unit`` that depends only on the pieces in play
        within ``reach`` inches (edge to edge) of it; it lasts until one of them moves,
        arrives or leaves."""
        # a piece out of play is near none (see :meth:`near`), so a move could not forget it
        own = self.units.get(unit.id)
        if own is not None and own.base is unit.base and own.removed is None:
            self.measured.put(key, Measured(unit.id, reach, value))

    def marked(self, name: str) -> tuple[str, ...]:
        found = self._mark(name)
        return () if found is None else found

    def _mark(self, name: str) -> tuple[str, ...] | None:
        marks = self.marks
        if isinstance(marks, dict):
            # marks are asked of every unit, many times an action: a dict's own lookup is
            # quicker in compiled code than a mapping's
            found: tuple[str, ...] | None = marks.get(name)
            return found
        return marks.get(name)

    def value(self, key: str, default: Any = None) -> Any:
        """A game-wide value of the rule set, by the key its events write (a field of
        :attr:`own`, or ``"<field>:<side>"`` for one kept per side; else :attr:`extra`);
        ``default`` when it holds nothing there."""
        own = self.own
        if own is not None:
            slot = slot_of(type(own), key)
            if slot is not None:
                found = getattr(own, slot[0])
                if slot[1] is not None:
                    found = found.get(slot[1])
                return default if found is None else found
        return self.extra.get(key, default)

    def with_values(self, values: Mapping[str, Any]) -> GameState:
        """The state with game-wide values replaced, each where :meth:`value` reads it: one
        new state. A rule set that declares its values (:attr:`own`) keeps every value
        there; writing one it does not declare raises KeyError."""
        own = self.own
        if own is None:
            return self.evolve(extra={**self.extra, **values})
        return self.evolve(own=written(own, values))

    def is_marked(self, name: str, ident: str) -> bool:
        found = self._mark(name)
        if found is None:
            return False
        if len(found) <= MARK_SCAN:
            return ident in found
        # a mark holding much of an army is asked of each unit: a set, once a position
        sets = self.mark_sets
        if sets is None:
            sets = self.mark_sets = {}
        held = sets.get(name)
        if held is None:
            held = sets[name] = frozenset(found)
        return ident in held

    # --- changes (used by the reducer) ---------------------------------------------------

    def with_unit(self, unit: Unit) -> GameState:
        units = dict(self.units)
        old = units.get(unit.id)
        units[unit.id] = unit
        arrives_or_leaves = old is None or old.removed != unit.removed
        new = self.evolve(units=units) if arrives_or_leaves else self._with_pieces(units)
        if self.grid is not None:
            new.grid = self.grid.moved(
                unit.id, None if old is None or old.removed is not None else (old.x, old.y),
                None if unit.removed is not None else (unit.x, unit.y), unit.reach)
        if old is not None:
            new.ranks = self.ranks
        if self.sieves:
            now = None if unit.removed is not None else unit
            ranks = new._ranks()
            stays = not arrives_or_leaves
            new.sieves = {key: sieve.after(unit.id, now, ranks, stays) for key, sieve in self.sieves.items()}
        if arrives_or_leaves:
            if old is not None:
                new.measured = self.measured.after_move(unit.id, _places(old, unit), new._near_places)
            return new
        assert old is not None  # the piece was there (and stays in, or out of, play)
        # the pieces first: forgetting what the move may have changed reads where they stand
        new.selected = tuple(
            _with_piece(by_side, places, unit)
            for by_side, places in zip(self.selected, self.places, strict=True)
        )
        moved = old.base is not unit.base
        new.measured = self.measured.after_move(unit.id, _places(old, unit), new._near_places) \
            if moved else self.measured
        return new

    def with_units(self, changed: Iterable[Unit]) -> GameState:
        """The state with each of ``changed`` in place of its piece: one new state, equal to
        :meth:`with_unit` of each in turn. Pieces that keep their places and stay in (or
        out of) play keep every memo; any other change is made one piece at a time."""
        changed = list(changed)
        units = dict(self.units)
        for unit in changed:
            old = units.get(unit.id)
            if old is None or old.removed != unit.removed or old.base is not unit.base:
                state = self
                for piece in changed:
                    state = state.with_unit(piece)
                return state
            units[unit.id] = unit
        if not changed:
            return self
        new = self._with_pieces(units)
        ids = {u.id for u in changed}
        new.selected = tuple(
            {side: found if ids.isdisjoint(places[side]) else tuple(map(units.__getitem__, rosters[side]))
             for side, found in by_side.items()}
            for by_side, rosters, places in zip(self.selected, self.rosters, self.places, strict=True)
        )
        if self.sieves:
            ranks = new._ranks()
            new.sieves = {key: _sifted(sieve, changed, ranks) for key, sieve in self.sieves.items()}
        return new

    def _with_pieces(self, units: Mapping[str, Unit]) -> GameState:
        """This state with ``units`` in place of its own, each piece still in (or out of)
        play, in the same order: it starts from this state's memos of the pieces (but the
        sieves), and the caller replaces those the change touches."""
        new = GameState(self.sides, self.turn, self.active, self.phase, units, self.objectives,
                        self.first_side, self.marks, self.decisions, self.result, self.step, self.own,
                        self.extra, _pieces_of=self)
        new.mark_sets = self.mark_sets
        new.sieves = {}
        return new

    def with_mark(self, name: str, ident: str) -> GameState:
        marks = dict(self.marks)
        marks[name] = (*marks.get(name, ()), ident)
        return self.evolve(marks=marks)

    # --- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": list(self.sides),
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "units": [u.to_dict() for u in self.units.values()],
            "objectives": [
                {f.name: getattr(o, f.name) for f in fields(o)} for o in self.objectives
            ],
            "first_side": self.first_side,
            "marks": {k: list(v) for k, v in self.marks.items()},
            "decisions": [d.to_dict() for d in self.decisions],
            "result": None if self.result is None else dict(self.result),
            "step": self.step,
            "own": None if self.own is None else self.own.to_dict(),
            "extra": dict(self.extra),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameState:
        return cls(
            sides=(d["sides"][0], d["sides"][1]),
            turn=int(d["turn"]),
            active=d["active"],
            phase=d["phase"],
            units={u["id"]: Unit.from_dict(u) for u in d["units"]},
            objectives=tuple(Objective(**o) for o in d.get("objectives", ())),
            first_side=d.get("first_side"),
            marks={k: tuple(v) for k, v in d.get("marks", {}).items()},
            decisions=tuple(Decision.from_dict(x) for x in d.get("decisions", ())),
            result=d.get("result"),
            step=int(d.get("step", 0)),
            own=None if d.get("own") is None else rule_data_from_dict(d["own"]),
            extra=dict(d.get("extra", {})),
        )

    def canonical(self) -> dict[str, Any]:
        """The state as a canonical projection: where each value lives does not matter.

        Each unit shows its identity, group, geometry and status, then every value its rule
        set keeps for it (its own fields and its ``extra``) together under ``rules``; the
        state shows the turn, phase, marks, pending decisions (a list) and result, then
        every game-wide value of its rule set together under ``rules`` (one kept per side
        as one entry per side, ``"<field>:<side>"``, as events write it). A rule-set value
        that is empty, zero, false or ``None`` is left out, so a field that moves, or
        gains a default, leaves the projection (and :meth:`state_hash`) unchanged.
        """
        return {**self._canonical_head(), "units": {u.id: _canonical_unit(u) for u in self.units.values()}}

    def _canonical_head(self) -> dict[str, Any]:
        """The canonical projection but its units."""
        return {
            "sides": list(self.sides),
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "first_side": self.first_side,
            "step": self.step,
            "marks": {k: list(v) for k, v in self.marks.items()},
            "pending": [d.to_dict() for d in self.decisions],
            "result": None if self.result is None else dict(self.result),
            "objectives": [{f.name: getattr(o, f.name) for f in fields(o)} for o in self.objectives],
            "rules": _present({**self.extra, **({} if self.own is None else self.own.flat_values())}),
        }

    def state_hash(self) -> str:
        """A stable digest of the state's canonical projection (:meth:`canonical`), equal on
        every machine for equal states and wherever the rules keep their values."""
        # The text of the whole projection, put together from each unit's own (worked out
        # once a unit): "units" sorts after every other key, and the units by id.
        head = _json_text(self._canonical_head())
        units = ",".join(f"{json.dumps(uid)}:{self.units[uid].canonical_text()}"
                         for uid in sorted(self.units))
        text = f'{head[:-1]},"units":{{{units}}}}}'
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _sifted(sieve: Sieve, changed: Iterable[Unit], ranks: Mapping[str, int]) -> Sieve:
    """``sieve`` once each of ``changed``, none arriving or leaving play, is in place."""
    for unit in changed:
        sieve = sieve.after(unit.id, None if unit.removed is not None else unit, ranks, True)
    return sieve


def _places(before: Unit, after: Unit) -> tuple[tuple[float, float, float], ...]:
    """A piece's two places, before and after a change, as a memo reads them (one when it
    kept its base)."""
    first = (before.x, before.y, before.reach)
    return (first,) if before.base is after.base else (first, (after.x, after.y, after.reach))


def _footprints(base: Base, stands: tuple[Stand, ...]) -> tuple[Base, ...]:
    """The table a piece takes up: its base, or each of its separated stands still in play."""
    if not stands:
        return (base,)
    return tuple(s.base for s in stands if s.removed is None) or (base,)


def _reach(x: float, y: float, radius: float, footprints: tuple[Base, ...]) -> float:
    """The radius about (x, y) that holds every one of ``footprints`` (at least ``radius``)."""
    return max(radius, *(math.hypot(b.x - x, b.y - y) + b.radius for b in footprints))


def _json_text(value: Any) -> str:
    """``value`` as the canonical JSON text: keys sorted, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _present(values: Mapping[str, Any]) -> dict[str, Any]:
    """The entries of ``values`` that say something: not empty, zero, false or ``None``."""
    return {k: v for k, v in values.items() if not _empty(v)}


def _empty(value: Any) -> bool:
    if value is None or value is False or isinstance(value, list | tuple | dict | str):
        return not value
    return isinstance(value, int | float) and value == 0


def _canonical_unit(u: Unit) -> dict[str, Any]:
    """A unit's canonical projection (see :meth:`GameState.canonical`)."""
    return {
        "side": u.side,
        "kind": u.kind.value,
        "group": u.command,
        "name": u.name,
        "traits": list(u.traits),
        "x": u.x, "y": u.y, "facing": u.facing, "width": u.width, "depth": u.depth,
        "status": u.removed,
        "rules": _present({**({} if u.own is None else u.own.values()), **u.extra}),
    }
