"""Doctests of the modules compiled with mypyc run from their sources.

mypyc keeps no docstrings, and pytest will not collect a module whose imported file is an
extension rather than the ``.py`` it was given. So for each compiled module,
``--doctest-modules`` loads the source as a module of its own and runs its examples as
plain Python, under the usual test names; the compiled code is what every other test runs.
In a pure build nothing changes.

Importing ``tertia`` here also stops the run at once when a compiled module is older than
its source (see ``tertia/_build.py``).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Generator
from pathlib import Path
from types import ModuleType

import pytest
from _pytest.doctest import DoctestModule
from hypothesis import settings

from tertia import _build

# Speed is measured by benchmarks, never by tests: no per-example deadline, which a busy
# machine would turn into failures that say nothing about correctness.
settings.register_profile("tertia", deadline=None)
settings.load_profile("tertia")

_COMPILED = {Path(_build.source_path(m)).resolve(): m for m in _build.compiled_modules()}


class SourceDoctestModule(DoctestModule):
    """The doctests of a compiled module, collected from its source."""

    def _getobj(self) -> ModuleType:
        name = _COMPILED[self.path.resolve()]
        alias = f"{name}__source"  # its own entry, so the doctest finder owns its objects
        spec = importlib.util.spec_from_file_location(alias, self.path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[alias] = module
        spec.loader.exec_module(module)
        module.__name__ = name  # test ids as in a pure build
        return module


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(
    file_path: Path, parent: pytest.Collector
) -> Generator[None, list[pytest.Collector], list[pytest.Collector]]:
    collected = yield
    if file_path.resolve() not in _COMPILED:
        return collected
    return [SourceDoctestModule.from_parent(parent, path=file_path) if type(c) is DoctestModule else c
            for c in collected]
