"""Exact odds are the same in the compiled build as in plain Python.

Exact odds learn how the rules use a die value through the value's own Python operators
(:mod:`tertia.analysis.enumerate`), which code compiled with mypyc does not call: a die
value reaching a compiled module would change them without an error. Here the odds of
every dice-driven action of the conformance playouts (``tests/test_conformance.py``) are
computed in this process, with whichever build is installed, and again in a subprocess
with ``TERTIA_PURE_PYTHON=1``, which runs the plain sources of the same install; every
probability must be the same fraction. The playouts are played here (once a run, for
``tests/test_conformance.py`` as well: :mod:`tests.battles`); the subprocess is handed
each position asked about (as JSON, read back to the same state hash) and works out its
odds from it.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tertia
from tertia import _build
from tertia.analysis.enumerate import MAX_LEAVES, TooManyBranches
from tertia.analysis.odds import odds
from tertia.core.actions import Action, action_from_dict
from tertia.core.events import DiceRolled
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin
from tertia.scenarios.catalogue import load_named
from tests.battles import fought
from tests.plugin_rules import with_plugins
from tests.test_conformance import cases

INSTALLED = Path(tertia.__file__).resolve().parent.parent  # where this tertia is imported from
HERE = Path(__file__).resolve().parent.parent  # where these tests are
SEED = 11  # the conformance playouts' seed

PURE_SIDE = """
import json
import sys
import tertia
from tertia import _build
from tests.test_odds_builds import handed_odds

print(json.dumps({"package": tertia.__file__, "compiled": _build.compiled_modules(),
                  "odds": handed_odds(json.load(sys.stdin))}))
"""


LEAVES: dict[str, int] = {"declare-thee-sir": 200, "example-declare": 200}
"""Branches walked before a step is refused, where a rule set needs fewer than the
enumerator's own limit: Declare Thee Sir's breaks send each stand 2D6 and a pursuit after
it, so its charges are refused at any limit, and walking 50,000 branches for each would
take hours; its steps within 200 branches are compared in full, the rest by their refusal.
The example plugin's slice of it (``tests/example_rules``) likewise."""

PER_KIND = 3
"""Steps compared per action type and playout, the first that roll dice: every kind of
dice-driven action is reached, and a die value handed to compiled code shows in any of
them."""

FIGHTING_ONLY = {"declare-thee-sir"}
"""Rule sets whose steps are compared for their dice-driven kinds (the fighting) alone:
Declare Thee Sir draws a card per activation, a thousand steps a battle."""

NO_STEPS = {"charge-yr-pikes"}
"""Rule sets compared by their questions alone: Charge yr Pikes! has no dice-driven
player action (its dice fall in the phases a side's "done" sets off, whose odds are a
whole turn's)."""

QUESTIONS: tuple[tuple[str, str, str, str, str], ...] = (
    ("declare-thee-sir", "edgehill", "fire", "p-guns-left", "r-rupert-horse"),
    ("charge-yr-pikes", "naseby", "ball", "p-guns-right", "r-hopton-foot"),
    ("charge-yr-pikes", "naseby", "morale", "p-butler-horse", "r-york-foot"),
)
"""Odds asked of a built-in scenario as deployed (``tertia odds``): (rule set, scenario,
word, attacker, target)."""


def _answer(game: Game, state: GameState, action: Action, max_leaves: int) -> Any:
    """Every outcome with its exact probability and the exact chances the odds summarise,
    or why there are no odds."""
    try:
        result = odds(game, state, action, max_leaves=max_leaves)
    except (IllegalAction, TooManyBranches) as exc:
        return f"{type(exc).__name__}: {exc}"
    return {
        "outcomes": [[o.probability, o.description, o.effects] for o in result.outcomes],
        "summary": {k: v for k, v in result.summary.items() if k.endswith("_exact")},
    }


@dataclass(frozen=True)
class Playout:
    """The steps of a conformance playout whose odds are compared: (index, the position
    before the step, the action)."""

    rules: str
    scenario: str
    steps: list[tuple[int, GameState, Action]]


def conformance_playouts() -> dict[str, Playout]:
    """Per conformance playout, its first :data:`PER_KIND` steps of each action type that
    rolled dice (:func:`_compared_steps`)."""
    return {f"{name} under {rules}, {kind} players": Playout(rules, name, _compared_steps(name, rules, kind))
            for name, rules in cases() for kind in ("doctrine", "random") if rules not in NO_STEPS}


def conformance_odds(playouts: dict[str, Playout]) -> dict[str, list[Any]]:
    """For each step of ``playouts``: the action, and its odds from the position before
    (:func:`_answer`); then the :data:`QUESTIONS`; as JSON, fractions as text."""
    found: dict[str, list[Any]] = {}
    with with_plugins():
        for key, playout in playouts.items():
            game = Game(get_ruleset(playout.rules), load_named(playout.scenario))
            leaves = LEAVES.get(playout.rules, MAX_LEAVES)
            found[key] = [[index, action.to_dict(), _answer(game, state, action, leaves)]
                          for index, state, action in playout.steps]
    return _as_json({**found, **_questions()})


def handed(playouts: dict[str, Playout]) -> dict[str, Any]:
    """``playouts`` as JSON for the other side: each position whole, with its state hash."""
    return {key: {"rules": p.rules, "scenario": p.scenario,
                  "steps": [[index, state.to_dict(), state.state_hash(), action.to_dict()]
                            for index, state, action in p.steps]}
            for key, p in playouts.items()}


def handed_odds(sent: dict[str, Any]) -> dict[str, list[Any]]:
    """:func:`conformance_odds` of the playouts :func:`handed` over, each position read back
    (to the hash it was sent with) and each action too."""
    playouts: dict[str, Playout] = {}
    with with_plugins():
        for key, p in sent.items():
            steps = []
            for index, data, digest, action in p["steps"]:
                state = GameState.from_dict(data)
                assert state.state_hash() == digest, f"{key}, step {index}: read back to another position"
                steps.append((index, state, action_from_dict(action)))
            playouts[key] = Playout(p["rules"], p["scenario"], steps)
    return conformance_odds(playouts)


def _questions() -> dict[str, list[Any]]:
    """The :data:`QUESTIONS`, asked of each scenario as deployed."""
    found: dict[str, list[Any]] = {}
    for rules, name, word, attacker, target in QUESTIONS:
        game = Game(get_ruleset(rules), load_builtin(name))
        ready, action = game.ruleset.query(game.ruleset.initial_state(game.scenario), word, attacker, target)
        found[f"{name} under {rules}: {word} {attacker} at {target}"] = [
            [0, action.to_dict(), _answer(game, ready, action, MAX_LEAVES)]]
    return found


def _as_json(found: dict[str, list[Any]]) -> dict[str, list[Any]]:
    as_json: dict[str, list[Any]] = json.loads(json.dumps(found, default=str))  # fractions as "7/36"
    return as_json


def _compared_steps(name: str, rules: str, kind: str) -> list[tuple[int, GameState, Action]]:
    """The first :data:`PER_KIND` steps of each action type that rolled dice in the
    conformance playout (its players, dice and seed: fought once a run, :mod:`tests.battles`),
    each with the position before it."""
    record = fought(name, rules, kind, SEED)
    game = record.game
    steps: list[tuple[int, GameState, Action]] = []
    counted: dict[str, int] = {}
    state = record.initial_state
    for index, step in enumerate(record.steps):
        action = step.action
        declared = game.ruleset.action_kind(action.type)
        fights = declared is not None and declared.dice_driven
        wanted = counted.get(action.type, 0) < PER_KIND and (rules not in FIGHTING_ONLY or fights)
        if wanted and any(isinstance(e, DiceRolled) for e in step.events):
            counted[action.type] = counted.get(action.type, 0) + 1
            steps.append((index, state, action))
        state = step.state
    return steps


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


def test_exact_odds_are_the_same_compiled_and_in_pure_python(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env[_build.PURE_ENV] = "1"
    env["PYTHONPATH"] = os.pathsep.join(  # the same tertia, and these tests
        dict.fromkeys([str(INSTALLED), str(HERE), *filter(None, [os.environ.get("PYTHONPATH")])]))
    with (tmp_path / "stderr").open("w+") as errors, subprocess.Popen(
            [sys.executable, "-c", PURE_SIDE], cwd=INSTALLED, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors) as side:
        try:
            playouts = conformance_playouts()  # while the other side starts
            sending, side.stdin = side.stdin, None  # written and closed here, not by communicate
            assert sending is not None
            try:
                with sending:
                    sending.write(json.dumps(handed(playouts)))
            except BrokenPipeError:  # it stopped: its errors say why
                pass
            ours = conformance_odds(playouts)  # meanwhile
            out, _ = side.communicate(timeout=900)
        finally:
            side.kill()
        errors.seek(0)
        assert side.returncode == 0, errors.read()
    pure = json.loads(out)
    assert Path(pure["package"]) == Path(tertia.__file__) and pure["compiled"] == []

    assert sum(len(steps) for steps in ours.values()) > 40  # the playouts do roll dice
    assert ours == pure["odds"], (
        f"exact odds differ between this build ({_build.describe()}) and pure Python; "
        "a compiled module handles die values (tertia/_build.py):\n"
        + _first_difference(ours, pure["odds"])
    )
