"""Battles shipped with Tertia: the ``*.toml`` files in this package.

A built-in scenario is named by its file's stem (the catalogue of every scenario that may
be named, these and the battles registered rule sets ship, is
:mod:`tertia.scenarios.catalogue`):

>>> [s.name for s in list_builtin()]
['chalgrove', 'edgehill', 'naseby', 'roundway_down', 'skirmish']
>>> skirmish = load_builtin("skirmish")
>>> skirmish.table.width, skirmish.side_ids
(48.0, ('parliament', 'royalist'))
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from tertia.core.scenario import Scenario
from tertia.io.files import exists, shown_name
from tertia.io.scenario_file import Problem, ScenarioError, load_scenario


@dataclass(frozen=True, slots=True)
class ScenarioEntry:
    """A scenario in the catalogue: its name, title, the rule sets it is written for, its
    size (as written, and as each of those rule sets fields it), the rule set shipping it
    (None for a built-in) and its sides' names."""

    name: str
    title: str
    rules: tuple[str, ...]
    units: Mapping[str, int]
    """Troop units per side id, as the file lists them."""
    shipped_by: str | None = None
    side_names: Mapping[str, str] = field(default_factory=dict)
    """Each side's name by its id, as a game names it (:meth:`Scenario.side_names
    <tertia.core.scenario.Scenario.side_names>`)."""
    units_by_rules: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Troop units per side id as each rule set it is written for fields them: a rule set
    may split or join the file's units (Charge yr Pikes! fields a brigade's regiments, the
    d3-cards Edgehill its own order of battle)."""
    description: str = ""
    """The battle's story (:attr:`Scenario.description <tertia.core.scenario.Scenario.description>`)."""
    notes_by_rules: Mapping[str, str] = field(default_factory=dict)
    """How the order of battle is drawn up, as each rule set it is written for fields it
    (:attr:`Scenario.notes <tertia.core.scenario.Scenario.notes>`; a rule set's own order
    of battle says its own)."""

    def listing(self) -> dict[str, Any]:
        """The entry as the catalogues list it (``tertia scenarios --json``, the server's
        ``/api/catalogue``), as JSON values."""
        return {"name": self.name, "title": self.title, "rules": list(self.rules), "units": dict(self.units),
                "units_by_rules": {r: dict(n) for r, n in self.units_by_rules.items()},
                "description": self.description, "notes_by_rules": dict(self.notes_by_rules)}


BuiltinScenario = ScenarioEntry


def _files() -> dict[str, Traversable]:
    return {
        entry.name.removesuffix(".toml"): entry
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".toml") and entry.is_file()
    }


def builtin_files() -> dict[str, Path]:
    """Each built-in scenario's file on disk, by name (none where the package is not
    installed as files, as from a zip)."""
    return {name: entry for name, entry in _files().items() if isinstance(entry, Path)}


def builtin_names() -> list[str]:
    """Names of the built-in scenarios, sorted."""
    return sorted(_files())


def list_builtin() -> list[ScenarioEntry]:
    """Every built-in scenario, sorted by name."""
    return [describe_scenario(name, load_builtin(name), partial(_load_builtin, name))
            for name in builtin_names()]


@cache
def rules_listed(name: str) -> tuple[str, ...]:
    """The rule sets a built-in scenario's ``rules`` list names, read from its file without
    checking the rest (:func:`load_builtin` checks it all, under every rule set it names)."""
    listed = tomllib.loads(_files()[name].read_text(encoding="utf-8")).get("rules", [])
    return tuple(str(rules) for rules in listed)


def describe_scenario(name: str, scenario: Scenario,
                      under: Callable[[str], Scenario] | None = None) -> ScenarioEntry:
    """A scenario's name, title, story, rule sets, troop units per side and sides' names,
    for a catalogue; with ``under`` (the scenario as a rule set fields it), its troop units
    per side and how they are drawn up under each registered rule set it is written for.

    >>> entry = describe_scenario("edgehill", load_builtin("edgehill"),
    ...                           lambda rules: load_builtin("edgehill", rules_id=rules))
    >>> entry.side_names["royalist"]
    'Royalists (King Charles I)'
    >>> entry.units["royalist"], entry.units_by_rules["charge-yr-pikes"]["royalist"]
    (18, 30)
    >>> entry.notes_by_rules["d3-cards"][:60]
    'These rules are written for six to eight units a side, so ea'
    """
    from tertia.rulesets import ruleset_ids

    known = ruleset_ids()
    played = {} if under is None else {rules: under(rules) for rules in scenario.rules if rules in known}
    return ScenarioEntry(name, scenario.name, scenario.rules, _troops_by_side(scenario),
                         side_names=scenario.side_names(),
                         units_by_rules={rules: _troops_by_side(s) for rules, s in played.items()},
                         description=scenario.description,
                         notes_by_rules={rules: s.notes for rules, s in played.items()})


def _troops_by_side(scenario: Scenario) -> dict[str, int]:
    counts = {side: 0 for side in scenario.side_ids}
    for unit in scenario.units:
        counts[unit.side] += 1
    return counts


def load_builtin(name: str, *, rules_id: str | None = None) -> Scenario:
    """A built-in scenario by name, checked (under ``rules_id`` when given).

    Raises :class:`~tertia.io.scenario_file.ScenarioError` for an unknown name, shown as
    :func:`~tertia.io.files.shown_name` shows it. Scenarios are immutable, so each is read
    once and shared.
    """
    return _load_builtin(name, rules_id)


@cache
def _load_builtin(name: str, rules_id: str | None) -> Scenario:
    files = _files()
    if name not in files:
        shown = shown_name(name)  # a name from anywhere: cut short and its control characters escaped
        raise ScenarioError(
            [Problem(shown, "", f"no built-in scenario '{shown}'; built-ins: {_known(files)}")]
        )
    return load_scenario(files[name].read_bytes(), source_name=f"{name}.toml", rules_id=rules_id)


def resolve_scenario(name_or_path: str | Path, *, rules_id: str | None = None) -> Scenario:
    """A scenario by name (a built-in, or a battle a registered rule set ships: the
    :mod:`catalogue <tertia.scenarios.catalogue>`), or a scenario file by path.

    Raises :class:`~tertia.io.scenario_file.ScenarioError` when it is neither (an empty
    name is neither: it never stands for the current directory or a default; nor is a
    name no file may have, too long or holding a NUL character), listing the catalogue's
    names, or when the file has problems.
    """
    from tertia.scenarios import catalogue

    if isinstance(name_or_path, str) and not name_or_path.strip():
        raise ScenarioError([Problem(repr(name_or_path), "", "an empty name is no scenario; give a "
                                     f"scenario's name ({catalogue.known_names()}) or a TOML file")])
    if isinstance(name_or_path, str) and name_or_path in _files():
        return load_builtin(name_or_path, rules_id=rules_id)
    if isinstance(name_or_path, str) and catalogue.is_named(name_or_path):
        return catalogue.load_named(name_or_path, rules_id=rules_id)
    path = Path(name_or_path)
    if exists(path):  # a name too long, or holding a NUL, names no file
        return load_scenario(path, source_name=str(name_or_path), rules_id=rules_id)
    raise ScenarioError(
        [
            Problem(
                shown_name(name_or_path),
                "",
                f"no such file, and no scenario of that name{_nearest(str(name_or_path))}; "
                f"scenarios: {catalogue.known_names()}",
            )
        ]
    )


def _nearest(name: str) -> str:
    """" (did you mean X?)" for the catalogue's name nearest ``name`` (rule sets' ids are
    written with hyphens, scenarios' names with underscores: ``roundway-down`` is
    ``roundway_down``), or nothing where none is near.

    >>> _nearest("roundway-down")
    ' (did you mean roundway_down?)'
    >>> _nearest("marston_moor")
    ''
    """
    from tertia.scenarios import catalogue

    names = catalogue.scenario_names()
    near = difflib.get_close_matches(name.strip().lower().replace("-", "_").replace(" ", "_"), names, n=1)
    return f" (did you mean {near[0]}?)" if near else ""


def _known(files: Mapping[str, Traversable]) -> str:
    return ", ".join(sorted(files)) or "none"
