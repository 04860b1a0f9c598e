"""Which modules the install compiles with mypyc, and whether this copy of Tertia did.

The modules in :data:`COMPILED_MODULES` are plain, fully typed Python that ``setup.py``
turns into C extensions at install time (battles about twice as fast). When it cannot
(no C compiler, no Python headers, mypyc fails) or when ``TERTIA_PURE_PYTHON=1``, the same
sources run as they are. Games and exact odds are identical either way.

An extension sits next to its source, so an edited source would be shadowed by the code
compiled from the old one. The build records a digest of every source it compiled
(:data:`RECORD`), and importing ``tertia`` fails at once, naming the module, when a
compiled module's source no longer matches. ``TERTIA_PURE_PYTHON=1`` at run time ignores
the extensions and runs the sources (:func:`on_import`): the listed modules' doctests run
so, since mypyc keeps no docstrings (``conftest.py``, the Makefile's ``unit`` target), and
so does the plain side of ``tests/test_odds_builds.py``.

This module uses only the standard library and no other ``tertia`` module: ``setup.py``
loads it from the source tree, and the Makefile runs it as a script
(``python -I tertia/_build.py``) for the list of sources. :func:`describe` says
which build is installed::

    .venv/bin/python -c 'from tertia._build import describe; print(describe())'
"""

from __future__ import annotations

import copyreg
import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

COMPILED_MODULES: tuple[str, ...] = (
    "tertia.core.geometry",
    "tertia.core.records",
    "tertia.core.grid",
    "tertia.core.memo",
    "tertia.core.sieve",
    "tertia.core.state",
    "tertia.core.reducer",
    "tertia.rules.pieces",
    "tertia.core.terrain",
    "tertia.rules.measuring",
    "tertia.rules.movement",
    "tertia.rules.sight",
    "tertia.rules.modifiers",
    "tertia.rulesets.larger_battles.bombardment",
    "tertia.rulesets.larger_battles.combat",
    "tertia.rulesets.larger_battles.routing",
    "tertia.rulesets.larger_battles.movement",
    "tertia.rulesets.larger_battles.orders",
    "tertia.rulesets.larger_battles.profile",
    "tertia.rulesets.larger_battles.losses",
    "tertia.rulesets.larger_battles.victory",
    "tertia.rulesets.d3.movement",
    "tertia.rulesets.d3.cohesion",
    "tertia.rulesets.d3.contact",
    "tertia.rulesets.d3_commands.organisation",
    "tertia.rulesets.d3_commands.movement",
    "tertia.ai.moves",
    "tertia.ai.targets",
    "tertia.rulesets.larger_battles.ai.doctrine",
    "tertia.rulesets.larger_battles.ai.doctrine2",
    "tertia.rulesets.d3.ai.proposals",
    "tertia.rulesets.d3.ai.doctrine",
    "tertia.rulesets.d3.ai.doctrine2",
    "tertia.rulesets.d3_commands.ai.proposals",
    "tertia.rulesets.d3_commands.ai.doctrine",
    "tertia.rulesets.d3_commands.ai.doctrine2",
    "tertia.rulesets.d3_cards.ai.proposals",
    "tertia.rulesets.d3_cards.ai.doctrine",
    "tertia.rulesets.d3_cards.ai.doctrine2",
    "tertia.rules.nearest",
    "tertia.rules.formations",
    "tertia.rules.involuntary",
    "tertia.rulesets.charge_yr_pikes.values",
    "tertia.rulesets.charge_yr_pikes.traits",
    "tertia.rulesets.charge_yr_pikes.charge_path",
    "tertia.rulesets.charge_yr_pikes.cards",
    "tertia.rulesets.charge_yr_pikes.stands",
    "tertia.rulesets.charge_yr_pikes.points",
    "tertia.rulesets.charge_yr_pikes.sight",
    "tertia.rulesets.charge_yr_pikes.attached",
    "tertia.rulesets.charge_yr_pikes.melee_dice",
    "tertia.rulesets.charge_yr_pikes.movement",
    "tertia.rulesets.charge_yr_pikes.ai.doctrine",
    "tertia.rulesets.charge_yr_pikes.ai.outlook",
    "tertia.rulesets.charge_yr_pikes.ai.doctrine2",
    "tertia.rulesets.declare_thee_sir.values",
    "tertia.rulesets.declare_thee_sir.movement",
    "tertia.rulesets.declare_thee_sir.modifiers",
    "tertia.rulesets.declare_thee_sir.victory",
    "tertia.rulesets.declare_thee_sir.stands",
    "tertia.rulesets.declare_thee_sir.edge",
    "tertia.rulesets.declare_thee_sir.reach",
    "tertia.rulesets.declare_thee_sir.ai.judgement",
    "tertia.rulesets.declare_thee_sir.ai.generals",
    "tertia.rulesets.declare_thee_sir.ai.doctrine",
    "tertia.rulesets.declare_thee_sir.ai.threats",
    "tertia.rulesets.declare_thee_sir.ai.detours",
    "tertia.rulesets.declare_thee_sir.ai.postings",
    "tertia.rulesets.declare_thee_sir.ai.doctrine2",
)
"""The hot modules mypyc compiles. Never list:

- a module that could get hold of a die value: one that imports anything from
  ``core.dice`` (``core.game``, which hands the dice to the rules, does), rolls
  (``core.ruleset``, the rule modules that call ``tx.roll``), or calls a function that rolls
  and returns something. Exact odds (:mod:`tertia.analysis.enumerate`) learn how the rules
  use a die value from the value's own Python operators, and compiled code compares and
  adds plain C integers without calling them, so the odds would silently go wrong.
  ``tests/test_build_safety.py`` reads every listed module's source for this, and
  ``tests/test_odds_builds.py`` compares the exact odds of both builds;
- a pydantic model, or the web, command-line and io modules.

mypyc type-checks everything the listed modules import, in an isolated build environment:
a third-party package they reach must be in ``[build-system] requires`` (pydantic is, for
``tertia.core.scenario``), or the install falls back to pure Python and
``tests/test_build.py`` fails.
"""

GROUP = "tertia._native"
"""mypyc's group name: its shared library is ``tertia/_native__mypyc.*.so``."""

RECORD = "_native.json"
"""Written by the build beside the extensions, in the package directory:
``{"modules": {module: sha256 of the source compiled}}``, or ``{"modules": {},
"failed": reason}`` when compiling failed and the install fell back to pure Python."""

PURE_ENV = "TERTIA_PURE_PYTHON"

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_PACKAGE_DIR)


class StaleBuild(ImportError):
    """A compiled module was built from a source that has changed since."""


def pure_requested() -> bool:
    """True when ``TERTIA_PURE_PYTHON`` is set (to anything but ``0``)."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def source_path(module: str, root: str = _ROOT) -> str:
    """The ``.py`` file of a module below ``root`` (the directory holding ``tertia/``)."""
    return os.path.join(root, *module.split(".")) + ".py"


def extension_path(module: str, root: str = _ROOT) -> str | None:
    """The compiled extension beside a module's source, if there is one."""
    stem = os.path.join(root, *module.split("."))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    return None


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_record(package_dir: str = _PACKAGE_DIR) -> dict[str, Any] | None:
    """What the build recorded, or ``None`` when nothing was (a plain source tree)."""
    try:
        with open(os.path.join(package_dir, RECORD), encoding="utf-8") as f:
            record: dict[str, Any] = json.load(f)
    except FileNotFoundError:
        return None
    return record


def stale_modules(root: str = _ROOT) -> list[str]:
    """Compiled modules whose source has changed since they were compiled."""
    record = read_record(os.path.join(root, "tertia")) or {}
    stale = []
    for module, compiled_from in record.get("modules", {}).items():
        source = source_path(module, root)
        if (extension_path(module, root) is not None and os.path.exists(source)
                and digest(source) != compiled_from):
            stale.append(module)
    return stale


def check_fresh() -> None:
    """Raise :class:`StaleBuild` naming the first compiled module whose source changed."""
    stale = stale_modules()
    if stale:
        module = stale[0]
        others = f" (and {len(stale) - 1} more)" if len(stale) > 1 else ""
        rel = os.path.relpath(source_path(module), os.getcwd())
        raise StaleBuild(
            f"{module}{others} is compiled from an older {rel}: rebuild with `make` "
            f"(or `pip install -e .`), or set {PURE_ENV}=1 to run the sources"
        )


def _rebuild(cls: type[Any], values: dict[str, Any]) -> Any:
    return cls(**values)


def _by_fields(obj: Any) -> tuple[Any, tuple[type[Any], dict[str, Any]]]:
    """Pickle and copy a frozen dataclass as a call to its class with its fields."""
    return _rebuild, (type(obj), {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init})


def _pickle_by_fields() -> None:
    """Compiled with mypyc, a frozen dataclass cannot be unpickled or copied attribute by
    attribute (FrozenInstanceError), and game states hold them (bases, cached hit limits):
    every frozen dataclass of a listed module is rebuilt from its fields instead, the
    same way in both builds, so a state pickled by one loads in the other.

    Run after each listed module is loaded, for all those loaded so far: compiled code
    loads the modules it imports from its own library without asking ``sys.meta_path``."""
    for name in COMPILED_MODULES:
        module = sys.modules.get(name)
        for value in list(vars(module).values()) if module is not None else ():
            params = getattr(value, "__dataclass_params__", None)  # on dataclasses only
            if isinstance(value, type) and value.__module__ == name and params and params.frozen:
                copyreg.pickle(value, _by_fields)


class _ExtensionLoader(importlib.machinery.ExtensionFileLoader):
    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        _pickle_by_fields()


class _SourceLoader(importlib.machinery.SourceFileLoader):
    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        _pickle_by_fields()


class _ListedModules(importlib.abc.MetaPathFinder):
    """Finds the listed modules as usual (the extension beside a source wins), or from
    their sources only (``TERTIA_PURE_PYTHON=1`` at run time); either way their frozen
    dataclasses then pickle by their fields."""

    def __init__(self, sources_only: bool) -> None:
        self.sources_only = sources_only

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _LISTED or path is None:
            return None
        if self.sources_only:
            name = fullname.rpartition(".")[2] + ".py"
            sources = [os.path.join(entry, name) for entry in path]
            spec = next((importlib.util.spec_from_file_location(fullname, s)
                         for s in sources if os.path.isfile(s)), None)
        else:
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = spec.loader if spec is not None else None
        if isinstance(loader, importlib.machinery.ExtensionFileLoader):
            spec.loader = _ExtensionLoader(loader.name, loader.path)  # type: ignore[union-attr]
        elif isinstance(loader, importlib.machinery.SourceFileLoader):
            spec.loader = _SourceLoader(loader.name, loader.path)  # type: ignore[union-attr]
        return spec


_LISTED = frozenset(COMPILED_MODULES)


def on_import() -> None:
    """Run by ``tertia/__init__.py``: refuse stale extensions unless ``TERTIA_PURE_PYTHON``
    asks for the sources, and find the listed modules (see :class:`_ListedModules`)."""
    pure = pure_requested()
    if not pure:
        check_fresh()
    if not any(isinstance(f, _ListedModules) for f in sys.meta_path):
        sys.meta_path.insert(0, _ListedModules(sources_only=pure))


def is_compiled(module: ModuleType) -> bool:
    """True when a module was loaded from a C extension."""
    return str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_modules() -> list[str]:
    """The listed modules that run compiled in this process (importing them)."""
    import importlib

    return [m for m in COMPILED_MODULES if is_compiled(importlib.import_module(m))]


def describe() -> str:
    """One line: which build this is, and why when it is not compiled."""
    compiled = compiled_modules()
    if compiled:
        return f"compiled with mypyc: {len(compiled)} of {len(COMPILED_MODULES)} modules"
    if pure_requested():
        return f"pure Python ({PURE_ENV} is set)"
    failed = (read_record() or {}).get("failed")
    return f"pure Python (compiling failed: {failed})" if failed else "pure Python"


if __name__ == "__main__":  # the Makefile's list of sources: a change to one rebuilds
    for module in COMPILED_MODULES:
        print(os.path.relpath(source_path(module), _ROOT))
