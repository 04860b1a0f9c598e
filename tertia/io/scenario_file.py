"""Loading and checking scenario files.

A scenario file is TOML in the shape of :class:`tertia.core.scenario.Scenario`. Loading
never ends in a traceback: whatever is wrong (an unreadable file, a TOML syntax error, a
misspelt unit type, two bases on top of each other) comes back as a list of
:class:`Problem`, one line each, naming the file and the field::

    edgehill.toml: units[3] 'p-foot-2'.type: unknown unit type 'pikes'; known: foot, ...

Checks run in two stages. The file format (types, required fields, known names, finite
positive sizes, proper polygons) is pydantic's, translated here into field paths that
carry the unit's id. Once the model parses, the checks that need the whole battle run:
ids, sides, table edges, overlapping bases, generals, the pieces a rule set's table names
(:class:`~tertia.core.table_checks.CheckedTable`), and, when a rule set is named, its
own :meth:`~tertia.core.ruleset.RuleSet.scenario_problems`. A scenario named for a rule
set it is not written for (or an unknown rule set) is refused in that one line.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from tertia.core.geometry import Base, bases_overlap
from tertia.core.model_errors import explain, number_text
from tertia.core.ruleset import RuleSet
from tertia.core.scenario import (
    ORDER_OF_BATTLE,
    CommanderSpec,
    Scenario,
    UnitSpec,
)
from tertia.core.state import UnitKind
from tertia.core.table_checks import CheckedTable
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.io.compat import claim_top_level
from tertia.io.files import shown_name, unnamable

MAX_BYTES = 5 * 1024 * 1024
"""Largest scenario file read; a real battle is a few kilobytes."""

MAX_PROBLEMS = 50
"""Problems reported at most; the rest are counted in one last line."""

DEFAULT_RULES = "larger-battles"
"""The rule set whose base sizes are used when no rule set is named."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a scenario: the file, the field path and what is wrong."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        if self.path:
            return f"{self.file}: {self.path}: {self.message}"
        return f"{self.file}: {self.message}"


class ScenarioError(Exception):
    """A scenario that cannot be used, with every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


# --- entry points ---------------------------------------------------------------------


def load_scenario(
    source: Path | str | bytes,
    *,
    source_name: str | None = None,
    rules_id: str | None = None,
) -> Scenario:
    """Read, parse and check a scenario; raise :class:`ScenarioError` listing every problem.

    ``source`` is a file (a :class:`~pathlib.Path`), TOML text (a ``str``) or a file's
    raw contents (``bytes``). ``source_name`` names it in problems (default: the path, or
    ``<scenario>``). Base sizes come from ``rules_id``'s rule set, else from the first
    rule set the scenario is written for, else larger-battles;
    naming a rule set also checks that the scenario is written for it and runs the rule
    set's own scenario checks, and the battle returned is the one that rule set fights
    (:meth:`Scenario.for_rules <tertia.core.scenario.Scenario.for_rules>`: its own order
    of battle, where the file gives one).

    >>> load_scenario('name = "x"', source_name="x.toml")
    Traceback (most recent call last):
    ...
    tertia.io.scenario_file.ScenarioError: x.toml: table: required field is missing
    x.toml: sides: required field is missing
    """
    data: str | bytes
    if isinstance(source, Path):
        name = source_name or str(source)
        data = _read_file(source, name)
    else:
        name = source_name or "<scenario>"
        data = source
    document = _parse_toml(data, name)
    moved = claim_top_level(document)
    twice = _written_twice(document)
    if twice:
        raise ScenarioError(_capped(name, [Problem(name, path, m) for path, m in twice]))
    try:
        scenario = Scenario.model_validate(document)
    except ValidationError as exc:
        raise ScenarioError(_capped(name, _as_written(_translate(exc, document, name), moved))) from None
    problems = semantic_problems(scenario, rules_id=rules_id, source_name=name)
    if problems:
        raise ScenarioError(_capped(name, _as_written(problems, moved)))
    return scenario if rules_id is None else scenario.for_rules(rules_id)


def check_scenario(path: str | Path, rules_id: str | None = None) -> list[Problem]:
    """Every problem in a scenario file; an empty list means it is valid."""
    try:
        load_scenario(Path(path), source_name=str(path), rules_id=rules_id)
    except ScenarioError as exc:
        return exc.problems
    return []


def written_for(path: str | Path) -> tuple[str, ...] | None:
    """The rule sets a scenario file says it is written for (its ``rules`` list), read
    even when the rest of the file has problems; None when the file cannot be read as
    TOML or names no list of rule sets. A front end choosing the rule set to check a
    faulty file under needs this: under any other, the file's one reported problem would
    be that it is not written for it, hiding the problems it has."""
    source = Path(path)
    try:
        document = _parse_toml(_read_file(source, str(source)), str(source))
    except ScenarioError:
        return None
    rules = document.get("rules")
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        return None
    return tuple(rules)


def semantic_problems(
    scenario: Scenario, *, rules_id: str | None = None, source_name: str = "<scenario>"
) -> list[Problem]:
    """Problems in a parsed scenario that need the whole battle to see.

    The rule set's own :meth:`~tertia.core.ruleset.RuleSet.scenario_problems` runs only
    when ``rules_id`` is given and every generic check has passed, so a rule set may
    rely on known sides, unique ids and a clear table. Under a rule set with its own
    order of battle (``[[extensions."<id>".order_of_battle.units]]`` ...) the pieces
    checked are its own; with no rule set named, the shared ones and then each rule set's
    own, under that rule set. Problems in a rule set's own pieces name them where the file
    writes them.
    """
    file = source_name
    problems: list[Problem] = []
    ruleset: RuleSet | None = None
    if rules_id is not None:
        ruleset, message = _ruleset(rules_id)
        if ruleset is None:
            return [Problem(file, "", message)]
        if scenario.rules and rules_id not in scenario.rules:
            # Nothing more is said: the rest would be what another rule set's battle is
            # not under this one (its commands, its bases), one line a piece.
            return [Problem(file, "rules", f"the scenario is not written for rule set {rules_id!r}; "
                                           f"it lists: {', '.join(scenario.rules)}")]
    sizer = ruleset if ruleset is not None else _own_sizer(scenario)
    played = scenario.for_rules(ruleset.id) if ruleset is not None else scenario
    moved = _army_paths(scenario, ruleset.id) if ruleset is not None else {}
    generic = [
        *_side_problems(played),
        *_vocabulary_problems(played, ruleset),
        *_extension_problems(scenario, ruleset),
        *_terrain_kind_problems(scenario, ruleset),
        *_id_problems(played),
        *_general_problems(played),
        *_table_problems(played, sizer),
        *_terrain_problems(scenario),
    ]
    if ruleset is not None:
        generic.extend(_trait_problems(played, ruleset))
    problems.extend(Problem(file, path, message) for path, message in _renamed(generic, moved))
    if ruleset is None:
        problems.extend(Problem(file, path, message) for path, message in _own_army_problems(scenario))
    if ruleset is not None and not problems:
        own = _renamed(ruleset.scenario_problems(played), moved)
        problems.extend(Problem(file, path, message) for path, message in own)
    return list(dict.fromkeys(problems))  # a shared piece fielded under two rule sets is named once


def _own_army_problems(scenario: Scenario) -> Iterator[tuple[str, str]]:
    """Each known rule set's own order of battle, checked as the shared one is (sides, ids,
    vocabulary, generals, bases on the table and apart) under that rule set, and named
    where the file writes it."""
    from tertia.rulesets import ruleset_ids

    known = ruleset_ids()
    for rules in scenario.extensions:
        if rules not in known or not scenario.own_lists(rules):
            continue
        ruleset, _ = _ruleset(rules)
        army = scenario.for_rules(rules)
        found = [
            *_piece_side_problems(army),
            *_vocabulary_problems(army, ruleset),
            *_id_problems(army),
            *_general_problems(army),
            *_piece_table_problems(army, ruleset),
        ]
        if ruleset is not None:
            found.extend(_trait_problems(army, ruleset))
        yield from _renamed(found, _army_paths(scenario, rules))


def _table_fits(ruleset: RuleSet, scenario: Scenario) -> bool:
    """Whether the rule set's table of ``scenario`` meets its model and names the pieces
    it should (:class:`~tertia.core.table_checks.CheckedTable`)."""
    try:
        table = ruleset.scenario_extension(scenario)
    except ValidationError:
        return False
    return not isinstance(table, CheckedTable) or not any(True for _ in table.table_problems(scenario))


def _army_paths(scenario: Scenario, rules_id: str) -> dict[str, str]:
    """Where the file writes each list rule set ``rules_id``'s own table replaces."""
    return {name: f"extensions.{rules_id}.{ORDER_OF_BATTLE}.{name}" for name in scenario.own_lists(rules_id)}


_PATH_HEAD = re.compile(r"^(commanders|units)(?=[\[ ]|$)")
_LABEL = re.compile(r"(?<![\w.])(commanders|units)(?=\[)")


def _renamed(found: Iterable[tuple[str, str]], moved: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    """Problems with the pieces of a rule set's own lists (``moved``: list name to where
    the file writes it) named there, in the path and in the message."""
    if not moved:
        yield from found
        return

    def where(match: re.Match[str]) -> str:
        return moved.get(match.group(1), match.group(1))

    for path, message in found:
        yield _PATH_HEAD.sub(where, path), _LABEL.sub(where, message)


def _trait_problems(scenario: Scenario, ruleset: RuleSet) -> Iterator[tuple[str, str]]:
    """Traits the rule set does not know, with the nearest known one when it looks misspelt."""
    known = sorted(ruleset.TRAITS)
    for i, unit in enumerate(scenario.units):
        for k, trait in enumerate(unit.traits):
            if trait in ruleset.TRAITS:
                continue
            close = difflib.get_close_matches(trait, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else (
                f"; it knows: {', '.join(known)}" if known else "; it has no traits")
            yield (f"{_element('units', i, unit.id)}.traits[{k}]",
                   f"rule set {ruleset.id!r} knows no trait {trait!r}{hint}")


# --- reading and parsing --------------------------------------------------------------


def _read_file(path: Path, name: str) -> bytes:
    def fail(message: str) -> ScenarioError:
        return ScenarioError([Problem(shown_name(name), "", message)])

    reason = unnamable(path)
    if reason is not None:  # a name too long, or holding a NUL: nothing could be read under it
        raise fail(f"cannot read the file: {reason}")
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise fail("no such file") from None
    except IsADirectoryError:
        raise fail("is a directory, not a scenario file") from None
    except PermissionError:
        raise fail("cannot read the file: permission denied") from None
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise fail(f"cannot read the file: {reason}") from None
    return data


def _parse_toml(data: str | bytes, name: str) -> dict[str, Any]:
    def fail(message: str) -> ScenarioError:
        return ScenarioError([Problem(name, "", message)])

    if len(data) > MAX_BYTES:
        raise fail(f"file is too large (over {MAX_BYTES // (1024 * 1024)} MB); "
                   "a scenario file is a few kilobytes of TOML")
    if isinstance(data, bytes):
        if b"\x00" in data:
            raise fail("binary file, not a TOML scenario")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            raise fail(
                f"not UTF-8 text (byte 0x{data[exc.start]:02x} at line {line}, "
                f"column {column}); save the file as UTF-8"
            ) from None
    else:
        text = data
        if "\x00" in text:
            raise fail("binary file, not a TOML scenario")
    if not text.strip():
        raise fail("empty file; a scenario needs at least name, table and sides")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise fail(f"invalid TOML: {exc}") from None
    except RecursionError:
        raise fail("invalid TOML: arrays or tables nested too deeply") from None


def _capped(file: str, problems: list[Problem]) -> list[Problem]:
    if len(problems) <= MAX_PROBLEMS:
        return problems
    rest = len(problems) - MAX_PROBLEMS
    return [*problems[:MAX_PROBLEMS], Problem(file, "", f"... and {rest} more problems")]


# --- pydantic errors as field paths ---------------------------------------------------


def _translate(exc: ValidationError, document: Mapping[str, Any], file: str,
               root: type[BaseModel] = Scenario) -> list[Problem]:
    """Each of pydantic's errors as a problem; ``root`` is the model ``document`` was
    checked against (a rule set's table, say)."""
    return [
        Problem(file, *explain(err, document, root))
        for err in exc.errors(include_url=False)
    ]




















# --- checks on the parsed battle ------------------------------------------------------


def _ruleset(rules_id: str) -> tuple[RuleSet | None, str]:
    from tertia.rulesets import get_ruleset

    try:
        return get_ruleset(rules_id), ""
    except ValueError as exc:
        return None, str(exc)


def _own_sizer(scenario: Scenario) -> RuleSet | None:
    """The rule set whose bases a scenario checked under none is placed with: the first
    it is written for that is known (its pieces are placed for that rule set's bases),
    else larger-battles."""
    for rules_id in (*scenario.rules, DEFAULT_RULES):
        found, _ = _ruleset(rules_id)
        if found is not None:
            return found
    return None


def _element(kind: str, index: int, ident: str | None) -> str:
    return f"{kind}[{index}] {ident!r}" if ident else f"{kind}[{index}]"


def _pieces(scenario: Scenario) -> Iterator[tuple[str, CommanderSpec | UnitSpec]]:
    for i, c in enumerate(scenario.commanders):
        yield _element("commanders", i, c.id), c
    for i, u in enumerate(scenario.units):
        yield _element("units", i, u.id), u


def _unknown_side(scenario: Scenario, side: str) -> str:
    return f"unknown side {side!r}; known: {', '.join(scenario.side_ids)}"


def _side_problems(scenario: Scenario) -> Iterator[tuple[str, str]]:
    sides = scenario.side_ids
    if scenario.first is not None and scenario.first not in sides:
        yield "first", _unknown_side(scenario, scenario.first)
    yield from _piece_side_problems(scenario)
    for i, o in enumerate(scenario.objectives):
        if o.side is not None and o.side not in sides:
            yield f"{_element('objectives', i, o.name)}.side", _unknown_side(scenario, o.side)


def _piece_side_problems(scenario: Scenario) -> Iterator[tuple[str, str]]:
    """Pieces of a side the scenario does not have, and sides without a unit."""
    for label, piece in _pieces(scenario):
        if piece.side not in scenario.side_ids:
            yield f"{label}.side", _unknown_side(scenario, piece.side)
    for i, side in enumerate(scenario.sides):
        if not any(u.side == side.id for u in scenario.units):
            yield _element("sides", i, side.id), f"side {side.id!r} has no units"


def _candidates(scenario: Scenario) -> list[type[RuleSet]]:
    """The registered rule sets a scenario checked without one may be played under: those
    its ``rules`` list names, or every registered one when it names none."""
    from tertia.rulesets import ruleset_class, ruleset_ids

    known = ruleset_ids()
    named = [r for r in scenario.rules if r in known]
    return [ruleset_class(r) for r in (named or known)]


def _vocabulary_problems(scenario: Scenario, ruleset: RuleSet | None) -> Iterator[tuple[str, str]]:
    """Commands and commander values the rule set knows; without a rule set, those some
    rule set the scenario is written for knows (:func:`_candidates`)."""
    classes = [type(ruleset)] if ruleset is not None else _candidates(scenario)
    if all(cls.COMMANDS for cls in classes):
        commands = list(dict.fromkeys(c for cls in classes for c in cls.COMMANDS))
        for label, piece in _pieces(scenario):
            if piece.command not in commands:
                yield f"{label}.command", f"unknown command {piece.command!r}; known: {', '.join(commands)}"
    values = range(min(cls.COMMANDER_VALUES.start for cls in classes),
                   max(cls.COMMANDER_VALUES.stop for cls in classes))
    for i, c in enumerate(scenario.commanders):
        if c.value not in values:
            rules = f" under {ruleset.id}" if ruleset is not None else ""
            yield (f"{_element('commanders', i, c.id)}.value",
                   f"must be from {values.start} to {values.stop - 1}{rules}, got {c.value}")


def _terrain_kind_problems(scenario: Scenario, ruleset: RuleSet | None) -> Iterator[tuple[str, str]]:
    """Terrain of kinds the rule set played gives no meaning; with no rule set, of kinds
    neither the core nor a rule set the scenario may be played under knows (a misspelt
    kind, say)."""
    if ruleset is not None:
        known, whose = ruleset.TERRAIN_KINDS, f"rule set {ruleset.id!r} has no"
    else:
        known = frozenset(TerrainKind).union(*(cls.TERRAIN_KINDS for cls in _candidates(scenario)))
        whose = "unknown"
    for i, t in enumerate(scenario.terrain):
        if t.type not in known:
            yield (f"{_element('terrain', i, t.name or None)}.type",
                   f"{whose} terrain{'' if ruleset is not None else ' type'} {t.type!r}; "
                   f"{'it knows' if ruleset is not None else 'known'}: {', '.join(sorted(known))}")


def _extension_problems(scenario: Scenario, ruleset: RuleSet | None) -> Iterator[tuple[str, str]]:
    """Each extension table belongs to a known rule set, and each is checked against the
    model its rule set declares (the one played, or every one the file carries) and, when
    the model checks what it names (:class:`~tertia.core.table_checks.CheckedTable`),
    against the pieces that rule set fields; its ``order_of_battle`` is the core's,
    checked with the scenario."""
    from tertia.rulesets import manifest, ruleset_class, ruleset_ids

    known = ruleset_ids()
    for i, rules in enumerate(scenario.rules):
        if rules not in known:
            yield f"rules[{i}]", f"no rule set {rules!r}; known: {', '.join(known)}"
    for rules in scenario.extensions:
        if rules not in known:
            yield f"extensions.{rules}", f"no rule set {rules!r}; known: {', '.join(known)}"
            continue
        own = scenario.extension(rules)
        if not manifest(rules).extension:
            for name in own:
                yield (f"extensions.{rules}.{name}",
                       f"unknown field {name!r}; rule set {rules!r} takes only {ORDER_OF_BATTLE} here")
        elif ruleset is None or ruleset.id == rules:
            model = ruleset_class(rules).SCENARIO_EXTENSION
            assert model is not None  # its manifest said so
            try:
                table = model.model_validate(own)
            except ValidationError as exc:
                for problem in _translate(exc, own, "", model):
                    yield f"extensions.{rules}.{problem.path}".rstrip("."), problem.message
                continue
            if isinstance(table, CheckedTable):
                for path, message in table.table_problems(scenario.for_rules(rules)):
                    yield f"extensions.{rules}.{path}", message


def _written_twice(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Fields a rule set's table claims from the top level, written both there and in the
    table: which to read is not ours to guess."""
    from tertia.rulesets import manifest, ruleset_ids

    return [(name, f"written twice: here and in [extensions.\"{rules}\"]; keep one")
            for rules in ruleset_ids() for name in manifest(rules).scenario_top_level
            if name in document]


def _as_written(problems: list[Problem], moved: Mapping[str, str]) -> list[Problem]:
    """Problems with the paths of moved fields as the file writes them (see
    :func:`~tertia.io.compat.claim_top_level`)."""
    out = []
    for p in problems:
        for table_path, own in moved.items():
            if p.path == table_path or p.path.startswith(tuple(table_path + c for c in "[ .")):
                p = Problem(p.file, own + p.path[len(table_path):], p.message)
        out.append(p)
    return out


def _id_problems(scenario: Scenario) -> Iterator[tuple[str, str]]:
    first_seen: dict[str, str] = {}
    for label, piece in _pieces(scenario):
        if piece.id in first_seen:
            yield f"{label}.id", f"duplicate id {piece.id!r} (also {first_seen[piece.id]})"
        else:
            first_seen[piece.id] = label


def _general_problems(scenario: Scenario) -> Iterator[tuple[str, str]]:
    generals: dict[str, str] = {}
    for i, c in enumerate(scenario.commanders):
        if not c.general:
            continue
        label = _element("commanders", i, c.id)
        if c.side in generals:
            yield (
                f"{label}.general",
                f"side {c.side!r} has more than one general (also {generals[c.side]})",
            )
        else:
            generals[c.side] = label


def _base(scenario: Scenario, piece: CommanderSpec | UnitSpec, sizer: RuleSet | None) -> Base | str:
    """The piece's base, or why its size is unknown."""
    kind = UnitKind(piece.type) if isinstance(piece, UnitSpec) else UnitKind.COMMANDER
    width, depth = piece.width, piece.depth
    if width is None or depth is None:
        if sizer is None:
            return f"no rule set gives a base size for {kind.value}; give width and depth"
        try:
            frontage, deep = sizer.piece_size(scenario, piece.id, kind)
        except KeyError:
            return f"rule set {sizer.id!r} has no {kind.value} bases; give width and depth"
        width = frontage if width is None else width
        depth = deep if depth is None else depth
    return Base(piece.x, piece.y, piece.facing, width, depth)


def _table_size(table: Battlefield) -> str:
    return f'{number_text(table.width)}" x {number_text(table.depth)}"'


def _table_problems(scenario: Scenario, sizer: RuleSet | None) -> Iterator[tuple[str, str]]:
    yield from _piece_table_problems(scenario, sizer)
    table = Battlefield(width=scenario.table.width, depth=scenario.table.depth)
    markers = [(_element("objectives", i, o.name), o) for i, o in enumerate(scenario.objectives)]
    for label, marker in markers:
        if not table.inside_table(((marker.x, marker.y),)):
            at = f"({number_text(marker.x)}, {number_text(marker.y)})"
            yield label, f"{at} is off the {_table_size(table)} table"


def _piece_table_problems(scenario: Scenario, sizer: RuleSet | None) -> Iterator[tuple[str, str]]:
    """Bases of unknown size, off the table, or on top of each other."""
    if sizer is not None and not _table_fits(sizer, scenario):
        return  # the table's own problems are named; bases it sizes would be guesses
    table = Battlefield(width=scenario.table.width, depth=scenario.table.depth)
    size = _table_size(table)
    placed: list[tuple[str, Base]] = []
    for label, piece in _pieces(scenario):
        base = _base(scenario, piece, sizer)
        if isinstance(base, str):
            yield label, base
            continue
        if not table.inside_table(base.corners()):
            yield label, (
                f"base at ({number_text(piece.x)}, {number_text(piece.y)}) is off the {size} table"
            )
        placed.append((label, base))
    yield from _overlaps(placed)


def _overlaps(placed: list[tuple[str, Base]]) -> Iterator[tuple[str, str]]:
    """Pairs of interpenetrating bases, by a sweep along x (touching is fine)."""
    order = sorted(range(len(placed)), key=lambda i: placed[i][1].x - placed[i][1].radius)
    pairs: list[tuple[int, int]] = []
    for n, i in enumerate(order):
        a = placed[i][1]
        reach = a.x + a.radius
        for j in order[n + 1 :]:
            b = placed[j][1]
            if b.x - b.radius >= reach:
                break
            if bases_overlap(a, b):
                pairs.append((max(i, j), min(i, j)))
    for later, earlier in sorted(pairs):
        yield placed[later][0], f"base overlaps {placed[earlier][0]}"


def _terrain_problems(scenario: Scenario) -> Iterator[tuple[str, str]]:
    table = Battlefield(width=scenario.table.width, depth=scenario.table.depth)
    for i, t in enumerate(scenario.terrain):
        field = "polygon" if t.polygon is not None else "line"
        points = t.polygon if t.polygon is not None else t.line or ()
        for k, point in enumerate(points):
            if not table.inside_table((point,)):
                x, y = (number_text(c) for c in point)
                yield (
                    f"{_element('terrain', i, t.name)}.{field}[{k}]",
                    f"point ({x}, {y}) is outside the "
                    f'{number_text(table.width)}" x {number_text(table.depth)}" table',
                )
                break
