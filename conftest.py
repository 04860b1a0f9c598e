"""Doctests of the modules compiled with mypyc are collected only with ``TERTIA_PURE_PYTHON=1``.

They document the sources: mypyc keeps no docstrings, and pytest will not collect a module
whose imported file is an extension rather than the ``.py`` it was given. So
``--doctest-modules`` leaves the sources of ``COMPILED_MODULES`` (``tertia/_build.py``)
alone unless ``TERTIA_PURE_PYTHON=1`` has the process import them as plain Python, in
either build; ``make unit`` runs them in a pass of their own with it set. Every other test
runs whichever build is installed.

Importing ``tertia`` here also stops the run at once when a compiled module is older than
its source (see ``tertia/_build.py``).

A run names a fresh folder, shared by its workers, where ``tests/battles.py`` keeps the
battles it fights once a run (:func:`pytest_configure`).

``--dist loadgroup`` keeps the tests of one ``xdist_group`` on one worker by the group's
name, which pytest-xdist adds to each test's id; from pytest 9.2 an id is kept where
xdist 3.8 no longer writes it, and :func:`pytest_collection_modifyitems` adds the name
itself (pytest-xdist issue 1386).
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator

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


BATTLES_ENV = "TERTIA_TEST_BATTLES"
"""``tests.battles.FOLDER_ENV``: named here without importing the engine."""


def pytest_configure(config: pytest.Config) -> None:
    """A fresh folder for this run's battles (``tests/battles.py``), removed when it ends;
    xdist's workers, started after this, are handed its name by their environment.

    The terminal size the environment names (xdist's workers are handed ``COLUMNS=80``)
    is dropped: the command line folds its tables to ``COLUMNS``, and a test that
    wants a width names its own."""
    for variable in ("COLUMNS", "LINES"):
        os.environ.pop(variable, None)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    folder = tempfile.mkdtemp(prefix="tertia-battles-")
    os.environ[BATTLES_ENV] = folder

    def remove() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        if os.environ.get(BATTLES_ENV) == folder:
            del os.environ[BATTLES_ENV]

    config.add_cleanup(remove)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """An xdist worker, its tests done, exits as soon as the run is over: what it holds is
    left to the process's end (``gc.freeze``) rather than walked again by the garbage
    collector as the interpreter shuts down, which took some 2.5 s at the end of a run,
    the other processes waiting for it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a worker of ``--dist loadgroup``, each test of an ``xdist_group`` has its group's
    name after an ``@`` in its id, as pytest-xdist means it to (the id is where the
    scheduler reads the group from); nothing is done where xdist has done it already."""
    _distinct_ids(items)
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        suffix = f"@{'_'.join(names)}"
        if names and not item.nodeid.endswith(suffix):
            _set_id(item, item.nodeid + suffix)


def _distinct_ids(items: list[pytest.Item]) -> None:
    """Tests that share one id are each given their own from the parameters in their name.

    pytest-xdist hands out tests by id, so of tests sharing one it runs the first alone.
    schemathesis names each API operation it fuzzes (``test_x[POST /api/games]``) but
    leaves every one its function's id, so under ``-n`` only one operation was fuzzed."""
    counts = Counter(item.nodeid for item in items)
    for item in items:
        _, bracket, params = item.name.partition("[")
        if counts[item.nodeid] > 1 and bracket and "[" not in item.nodeid:
            _set_id(item, f"{item.nodeid}[{params}")


def _set_id(item: pytest.Item, nodeid: str) -> None:
    """``item``'s id made ``nodeid`` (the id pytest-xdist schedules by), where pytest
    keeps one of its own to set."""
    if hasattr(item, "_id"):
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(nodeid)


def pytest_report_collectionfinish(config: pytest.Config) -> str | None:
    if collect_ignore and config.getoption("doctestmodules"):
        return (f"doctests of the {len(collect_ignore)} modules mypyc compiles are left out without "
                f"{_build.PURE_ENV}=1 (`make unit` runs them so, in a second pass)")
    return None


@pytest.fixture
def plugins_registered() -> Iterator[None]:
    """The example plugin's rule set registered for a test
    (:func:`tests.plugin_rules.with_plugins`): a test over the whole registry asks for it."""
    from tests.plugin_rules import with_plugins

    with with_plugins():
        yield
