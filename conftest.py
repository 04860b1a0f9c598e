"""Doctests of the modules compiled with mypyc are collected only with ``TERTIA_PURE_PYTHON=1``.

They document the sources: mypyc keeps no docstrings, and pytest will not collect a module
whose imported file is an extension rather than the ``.py`` it was given. So
``--doctest-modules`` leaves the sources of ``COMPILED_MODULES`` (``tertia/_build.py``)
alone unless ``TERTIA_PURE_PYTHON=1`` has the process import them as plain Python, in
either build; ``make unit`` runs them in a pass of their own with it set. Every other test
runs whichever build is installed.

Importing ``tertia`` here also stops the run at once when a compiled module is older than
its source (see ``tertia/_build.py``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tertia import _build

# Speed is measured by benchmarks, never by tests: no per-example deadline, which a busy
# machine would turn into failures that say nothing about correctness.
settings.register_profile("tertia", deadline=None)
settings.load_profile("tertia")

collect_ignore = [] if _build.pure_requested() else [
    os.path.join(*module.split(".")) + ".py" for module in _build.COMPILED_MODULES
]
# Modules a test server is told to load as plugins (TERTIA_RULESETS): importing one adds
# its battles to a rule set, so collecting its doctests would change every whole-battle
# test's list of scenarios.
collect_ignore += ["tests/cyp_page_scenarios.py", "tests/d3_page_scenarios.py"]


def pytest_report_collectionfinish(config: pytest.Config) -> str | None:
    if collect_ignore and config.getoption("doctestmodules"):
        return (f"doctests of the {len(collect_ignore)} modules mypyc compiles are left out without "
                f"{_build.PURE_ENV}=1 (`make unit` runs them so, in a second pass)")
    return None
