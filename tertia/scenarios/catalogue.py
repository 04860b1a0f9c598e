"""One catalogue of the scenarios that may be named: the built-in ones (the ``*.toml``
files of :mod:`tertia.scenarios`) and the battles every registered rule set ships beside
itself (:attr:`RuleSet.SCENARIO_FILES <tertia.core.ruleset.RuleSet.SCENARIO_FILES>`), so
a rule set from a plugin brings its battles to every front end: ``tertia battle``,
``scenarios``, ``simulate``, ``sweep``, ``validate``, ``inspect`` and ``odds``, the
server, and the whole-battle tests.

A scenario is named by its built-in file's stem or by its key in ``SCENARIO_FILES``. A
built-in's name, or one a rule set registered earlier already ships, is not offered again
(the first claim wins). A battle a rule set ships is checked under that rule set when
listed, and is written for the rule sets its file's ``rules`` list names, or for that rule
set alone when the list is empty.

Without plugins the catalogue is the built-ins:

>>> [s.name for s in scenario_catalogue()]
['chalgrove', 'edgehill', 'naseby', 'roundway_down', 'skirmish']
>>> [s.name for s in written_for("d3-cards")]
['chalgrove', 'edgehill']
>>> default_scenario("charge-yr-pikes"), default_scenario("no-such-rules")
('edgehill', 'edgehill')
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

from tertia import scenarios as builtin
from tertia.core.scenario import Scenario
from tertia.io.files import exists, shown_name
from tertia.io.scenario_file import Problem, ScenarioError, load_scenario
from tertia.rulesets import manifest, ruleset_ids
from tertia.scenarios import ScenarioEntry

DEFAULT_SCENARIO = "edgehill"
"""The battle fought when none is named, under every rule set it suits."""


def shipped_files() -> dict[str, tuple[str, Path]]:
    """The battles registered rule sets ship, by name: the rule set shipping each and its
    file, in the registry's order and by name within a rule set; built-in names and names
    already shipped are left out (the first claim wins)."""
    taken = set(builtin.builtin_names())
    found: dict[str, tuple[str, Path]] = {}
    for rules in ruleset_ids():
        for name, file in sorted(manifest(rules).scenario_files.items()):
            if name not in taken and name not in found:
                found[name] = (rules, Path(file))
    return found


def scenario_files() -> dict[str, Path]:
    """The file of every scenario the catalogue names, by name: the built-ins' (where
    installed as files) and those the rule sets ship."""
    return {**builtin.builtin_files(), **{name: path for name, (_, path) in shipped_files().items()}}


def scenario_names() -> list[str]:
    """Every name the catalogue answers to: the built-ins, sorted, then the shipped ones."""
    return [*builtin.builtin_names(), *shipped_files()]


def shipped_scenarios() -> list[ScenarioEntry]:
    """The battles registered rule sets ship, each checked under the rule set shipping it
    and described with the rule sets it is written for (that one when its file names none).

    Raises :class:`~tertia.io.scenario_file.ScenarioError` for a file with problems."""
    found = []
    for name, (rules, path) in shipped_files().items():
        described = builtin.describe_scenario(name, _load_shipped(name, rules, path, rules),
                                              partial(_load_shipped, name, rules, path))
        found.append(replace(described, rules=described.rules or (rules,), shipped_by=rules))
    return found


def scenario_catalogue() -> list[ScenarioEntry]:
    """Every scenario that may be named: the built-ins, then the battles rule sets ship."""
    return [*builtin.list_builtin(), *shipped_scenarios()]


def written_for(rules_id: str) -> list[ScenarioEntry]:
    """The scenarios written for ``rules_id``, in catalogue order."""
    return [s for s in scenario_catalogue() if rules_id in s.rules]


def default_scenario(rules_id: str) -> str:
    """The battle fought under ``rules_id`` when none is named: Edgehill if it is written
    for the rule set, or if nothing is; else the first scenario written for it (a built-in
    before one a rule set ships, so a plugin's rule set fights its own battle)."""
    suited = [name for name in builtin.builtin_names() if rules_id in builtin.rules_listed(name)]
    if not suited:  # only then are the battles rule sets ship read (checked, so slower)
        suited = [s.name for s in shipped_scenarios() if rules_id in s.rules]
    return DEFAULT_SCENARIO if DEFAULT_SCENARIO in suited or not suited else suited[0]


def is_named(name: str) -> bool:
    """Whether ``name`` is a scenario in the catalogue."""
    return name in builtin.builtin_names() or name in shipped_files()


def load_named(name: str, *, rules_id: str | None = None) -> Scenario:
    """The scenario the catalogue names ``name``, checked (under ``rules_id`` when given).

    Raises :class:`~tertia.io.scenario_file.ScenarioError` for a name it does not hold
    (shown as :func:`~tertia.io.files.shown_name` shows it), listing those it does, or for
    a file with problems.
    """
    if name in builtin.builtin_names():
        return builtin.load_builtin(name, rules_id=rules_id)
    shipped = shipped_files()
    if name not in shipped:
        shown = shown_name(name)
        raise ScenarioError([Problem(shown, "", f"no scenario '{shown}'; scenarios: {known_names()}")])
    rules, path = shipped[name]
    return _load_shipped(name, rules, path, rules_id)


def known_names() -> str:
    """The catalogue's names, for a message."""
    return ", ".join(scenario_names()) or "none"


def _load_shipped(name: str, rules: str, path: Path, rules_id: str | None) -> Scenario:
    if not exists(path, "file"):
        raise ScenarioError([Problem(str(path), "", f"scenario {name!r} shipped by rule set {rules!r}: "
                                                    f"no such file")])
    return load_scenario(path, source_name=path.name, rules_id=rules_id)
