"""Exact odds are the same in the compiled build as in plain Python.

Exact odds learn how the rules use a die value through the value's own Python operators
(:mod:`tertia.analysis.enumerate`), which code compiled with mypyc does not call: a die
value reaching a compiled module would change them without an error. Here the odds of
every dice-driven action of the conformance playouts (``tests/test_conformance.py``) are
computed in this process, with whichever build is installed, and again in a subprocess
with ``TERTIA_PURE_PYTHON=1``, which runs the plain sources of the same install; every
probability must be the same fraction.

In a compiled build this compares the two builds. When the install is plain Python
(no C compiler, or ``TERTIA_PURE_PYTHON`` set for the whole run) both sides run the same
sources: the test still runs, and only shows that the odds do not depend on the process.
``tests/test_build_safety.py`` checks, from the sources, that compiled modules cannot
reach die values by themselves; this test catches one handed to them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import tertia
from tertia import _build
from tertia.analysis.enumerate import TooManyBranches
from tertia.analysis.odds import odds
from tertia.core.events import DiceRolled
from tertia.core.violations import IllegalAction
from tests.test_conformance import cases, play

INSTALLED = Path(tertia.__file__).resolve().parent.parent  # where this tertia is imported from
HERE = Path(__file__).resolve().parent.parent  # where these tests are
SEED = 11  # the conformance playouts' seed

PURE_SIDE = """
import json
import tertia
from tertia import _build
from tests.test_odds_builds import conformance_odds

print(json.dumps({"package": tertia.__file__, "compiled": _build.compiled_modules(),
                  "odds": conformance_odds()}))
"""


def conformance_odds() -> dict[str, list[Any]]:
    """Per conformance playout, for each step that rolled dice: the action, and every
    outcome of it from the position before, with its exact probability and the exact
    chances the odds summarise (or why there are no odds); as JSON, fractions as text."""
    found: dict[str, list[Any]] = {}
    for name, rules in cases():
        for kind in ("doctrine", "random"):
            record = play(name, rules, kind, seed=SEED)
            before = record.initial_state
            steps: list[Any] = []
            for index, step in enumerate(record.steps):
                if any(isinstance(e, DiceRolled) for e in step.events):
                    try:
                        result = odds(record.game, before, step.action)
                    except (IllegalAction, TooManyBranches) as exc:
                        answer: Any = f"{type(exc).__name__}: {exc}"
                    else:
                        answer = {
                            "outcomes": [[o.probability, o.description, o.effects] for o in result.outcomes],
                            "summary": {k: v for k, v in result.summary.items() if k.endswith("_exact")},
                        }
                    steps.append([index, step.action.to_dict(), answer])
                before = step.state
            found[f"{name} under {rules}, {kind} players"] = steps
    as_json: dict[str, list[Any]] = json.loads(json.dumps(found, default=str))  # fractions as "7/36"
    return as_json


def _first_difference(ours: dict[str, list[Any]], theirs: dict[str, list[Any]]) -> str:
    for key in sorted(set(ours) | set(theirs)):
        a, b = ours.get(key, []), theirs.get(key, [])
        for mine, pure in zip(a, b, strict=False):
            if mine != pure:
                return (f"{key}, step {mine[0]} ({json.dumps(mine[1])}):\n"
                        f"  this build:  {json.dumps(mine[2])}\n  pure Python: {json.dumps(pure[2])}")
        if len(a) != len(b):
            return f"{key}: {len(a)} dice-driven steps here, {len(b)} in pure Python"
    return "no difference"


def test_exact_odds_are_the_same_compiled_and_in_pure_python() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env[_build.PURE_ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join(  # the same tertia, and these tests
        dict.fromkeys([str(INSTALLED), str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]))
    with subprocess.Popen([sys.executable, "-c", PURE_SIDE], cwd=INSTALLED, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as side:
        try:
            ours = conformance_odds()  # meanwhile
            out, err = side.communicate(timeout=900)
        finally:
            side.kill()
    assert side.returncode == 0, err
    pure = json.loads(out)
    assert Path(pure["package"]) == Path(tertia.__file__) and pure["compiled"] == []

    assert sum(len(steps) for steps in ours.values()) > 100  # the playouts do roll dice
    assert ours == pure["odds"], (
        f"exact odds differ between this build ({_build.describe()}) and pure Python; "
        "a compiled module handles die values (tertia/_build.py):\n"
        + _first_difference(ours, pure["odds"])
    )
