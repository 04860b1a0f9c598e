"""The registry of rule sets by engine id.

The shipped rule sets are known by id from the start, by their :class:`Manifest`, and
each is imported when first played (:data:`SHIPPED`): a battle under one rule set never
pays for importing the other four. Any other rule set registers itself with
:func:`register_ruleset` when its module is imported; a module can be named to every
front end (the command line, the server, simulations) without editing Tertia, by listing
it in the ``TERTIA_RULESETS`` environment variable (modules separated by commas) or as an
entry point in the ``tertia.rulesets`` group of an installed package. A second rule set
under a taken id is refused, naming both.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, TypeVar

from tertia.core.ruleset import RuleSet

R = TypeVar("R", bound=type[RuleSet])


@dataclass(frozen=True)
class Manifest:
    """What the scenario loader and the catalogue ask of every rule set before any is
    played, answered without importing it: where its class is, whether it declares a
    ``SCENARIO_EXTENSION``, its ``SCENARIO_TOP_LEVEL`` and ``SCENARIO_FILES``. The
    registry holds a shipped rule set's until it is first played (kept equal to its class
    by ``tests/test_ruleset_loading.py``)."""

    module: str
    name: str
    extension: bool = False
    scenario_top_level: tuple[str, ...] = ()
    scenario_files: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, ruleset: type[RuleSet]) -> Manifest:
        """The manifest of a rule set's class, read from the class."""
        return cls(ruleset.__module__, ruleset.__qualname__, ruleset.SCENARIO_EXTENSION is not None,
                   ruleset.SCENARIO_TOP_LEVEL, ruleset.SCENARIO_FILES)

    def load(self) -> type[RuleSet]:
        cls: type[RuleSet] = getattr(importlib.import_module(self.module), self.name)
        return cls


SHIPPED: dict[str, Manifest] = {
    "larger-battles": Manifest("tertia.rulesets.larger_battles", "LargerBattles", True, ("supplies",)),
    "d3-commands": Manifest("tertia.rulesets.d3_commands", "D3Commands"),
    "d3-cards": Manifest("tertia.rulesets.d3_cards", "D3Cards"),
    "declare-thee-sir": Manifest("tertia.rulesets.declare_thee_sir", "DeclareTheeSir", True),
    "charge-yr-pikes": Manifest("tertia.rulesets.charge_yr_pikes", "ChargeYrPikes", True),
}
"""The rule sets Tertia ships, by id, in the order they are listed."""

_REGISTRY: dict[str, type[RuleSet] | Manifest] = {}
"""Each rule set's class, or its manifest while it is not yet imported."""
_loaded = False
_loading = False
_LOCK = threading.RLock()

PLUGINS_VARIABLE = "TERTIA_RULESETS"
ENTRY_POINT_GROUP = "tertia.rulesets"


def register_ruleset(cls: R) -> R:
    """Make ``cls`` playable under its ``id`` (usable as a class decorator); raises
    ValueError when another class already has that id (a shipped rule set's included,
    whether or not it is imported yet)."""
    known = _load().get(cls.id)
    if known is None or known is cls:
        pass
    elif isinstance(known, type) or known.load() is not cls:
        held = known if isinstance(known, Manifest) else Manifest.of(known)
        raise ValueError(f"rule set id {cls.id!r} is taken by {held.module}.{held.name}; "
                         f"{cls.__module__}.{cls.__qualname__} cannot register under it")
    _REGISTRY[cls.id] = cls
    return cls


@contextmanager
def registered(cls: type[RuleSet]) -> Iterator[type[RuleSet]]:
    """``cls`` registered for the length of a ``with`` block, then taken away again (for
    tests and tools that play a rule set without making it known for good); raises like
    :func:`register_ruleset` when its id is taken."""
    _load()
    if cls.id in _REGISTRY and ruleset_class(cls.id) is cls:
        yield cls
        return
    register_ruleset(cls)
    try:
        yield cls
    finally:
        _REGISTRY.pop(cls.id, None)


def _load() -> dict[str, type[RuleSet] | Manifest]:
    """The registry, with the shipped rule sets and the named plugins in it.

    The shipped rule sets are listed, not imported. Loading the plugins may take a while,
    so threads asking meanwhile wait for it rather than see a registry filled in part; a
    failed load is tried again on the next call. Within the loading thread (a plugin
    asking for the registry as it is imported) the registry is answered as it stands."""
    global _loaded, _loading
    if _loaded:
        return _REGISTRY
    with _LOCK:
        if _loaded or _loading:
            return _REGISTRY
        _loading = True
        try:
            for ruleset_id, shipped in SHIPPED.items():
                _REGISTRY.setdefault(ruleset_id, shipped)
            for name in filter(None, (n.strip() for n in os.environ.get(PLUGINS_VARIABLE, "").split(","))):
                try:
                    importlib.import_module(name)
                except ImportError as exc:
                    raise ValueError(f"{PLUGINS_VARIABLE}: cannot import {name!r}: {exc}") from None
            for point in entry_points(group=ENTRY_POINT_GROUP):
                loaded = point.load()
                if isinstance(loaded, type) and issubclass(loaded, RuleSet):
                    register_ruleset(loaded)
            _loaded = True
        finally:
            _loading = False
    return _REGISTRY


def load_rulesets() -> list[str]:
    """Load the registry now (a server does so before its first request, so that none
    waits for it) and return the ids registered; raises like :func:`ruleset_class` would
    for a plugin that cannot be imported."""
    return ruleset_ids()


def ruleset_ids() -> list[str]:
    return list(_load())


def ruleset_class(ruleset_id: str) -> type[RuleSet]:
    """The class registered under ``ruleset_id``, a shipped one imported now if it was not
    yet; raises ValueError naming the known ids."""
    registry = _load()
    if ruleset_id not in registry:
        raise ValueError(f"unknown rule set {ruleset_id!r}; known: {', '.join(registry)}")
    found = registry[ruleset_id]
    if isinstance(found, Manifest):
        with _LOCK:
            found = registry[ruleset_id]
            if isinstance(found, Manifest):
                found = registry[ruleset_id] = found.load()
    return found


def manifest(ruleset_id: str) -> Manifest:
    """What the registry knows of a rule set, without importing a shipped one; raises
    KeyError for an unknown id."""
    found = _load()[ruleset_id]
    return found if isinstance(found, Manifest) else Manifest.of(found)


def get_ruleset(ruleset_id: str, **options: Any) -> RuleSet:
    """Build a rule set by id with options; raises ValueError naming the known ids."""
    return ruleset_class(ruleset_id)(**options)


def editions_on_trial() -> list[str]:
    """The rule sets whose doctrine has a later edition on trial (``AiSpec.second_edition``),
    played by name as ``doctrine-2``; elsewhere that name plays the doctrine itself."""
    specs = {rid: ruleset_class(rid).AI for rid in ruleset_ids()}
    return [rid for rid, spec in specs.items() if spec is not None and spec.second_edition]
