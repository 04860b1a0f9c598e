"""The registry of rule sets by engine id.

The shipped rule sets register themselves when first asked for. Any other rule set
registers itself with :func:`register_ruleset` when its module is imported; a module can
be named to every front end (the command line, the server, simulations) without editing
Tertia, by listing it in the ``TERTIA_RULESETS`` environment variable (modules separated
by commas) or as an entry point in the ``tertia.rulesets`` group of an installed package.
A second rule set under a taken id is refused, naming both.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import entry_points
from typing import Any, TypeVar

from tertia.core.ruleset import RuleSet

R = TypeVar("R", bound=type[RuleSet])

_REGISTRY: dict[str, type[RuleSet]] = {}
_loaded = False
_loading = False
_LOCK = threading.RLock()

PLUGINS_VARIABLE = "TERTIA_RULESETS"
ENTRY_POINT_GROUP = "tertia.rulesets"


def register_ruleset(cls: R) -> R:
    """Make ``cls`` playable under its ``id`` (usable as a class decorator); raises
    ValueError when another class already has that id."""
    known = _REGISTRY.get(cls.id)
    if known is not None and known is not cls:
        raise ValueError(f"rule set id {cls.id!r} is taken by {known.__module__}.{known.__qualname__}; "
                         f"{cls.__module__}.{cls.__qualname__} cannot register under it")
    _REGISTRY[cls.id] = cls
    return cls


@contextmanager
def registered(cls: type[RuleSet]) -> Iterator[type[RuleSet]]:
    """``cls`` registered for the length of a ``with`` block, then taken away again (for
    tests and tools that play a rule set without making it known for good); raises like
    :func:`register_ruleset` when its id is taken."""
    _load()
    if _REGISTRY.get(cls.id) is cls:
        yield cls
        return
    register_ruleset(cls)
    try:
        yield cls
    finally:
        _REGISTRY.pop(cls.id, None)


def _load() -> dict[str, type[RuleSet]]:
    """The registry, with the shipped rule sets and the named plugins in it.

    Loading takes a while (it imports every rule set), so threads asking meanwhile wait
    for it rather than see a registry filled in part; a failed load is tried again on the
    next call. Within the loading thread (a plugin asking for the registry as it is
    imported) the registry is answered as it stands."""
    global _loaded, _loading
    if _loaded:
        return _REGISTRY
    with _LOCK:
        if _loaded or _loading:
            return _REGISTRY
        _loading = True
        try:
            from tertia.rulesets.charge_yr_pikes import ChargeYrPikes
            from tertia.rulesets.d3_cards import D3Cards
            from tertia.rulesets.d3_commands import D3Commands
            from tertia.rulesets.declare_thee_sir import DeclareTheeSir
            from tertia.rulesets.larger_battles import LargerBattles

            for cls in (LargerBattles, D3Commands, D3Cards, DeclareTheeSir, ChargeYrPikes):
                register_ruleset(cls)
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
    """The class registered under ``ruleset_id``; raises ValueError naming the known ids."""
    registry = _load()
    if ruleset_id not in registry:
        raise ValueError(f"unknown rule set {ruleset_id!r}; known: {', '.join(registry)}")
    return registry[ruleset_id]


def get_ruleset(ruleset_id: str, **options: Any) -> RuleSet:
    """Build a rule set by id with options; raises ValueError naming the known ids."""
    return ruleset_class(ruleset_id)(**options)
