"""The optional mypyc build: the compiled modules play exactly the games their sources do,
stale extensions are refused, ``TERTIA_PURE_PYTHON=1`` runs the sources, and game states
still pickle. See ``tertia/_build.py`` and ``setup.py``."""

from __future__ import annotations

import copy
import copyreg
import importlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from tertia import _build
from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import fight_battle
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import Base
from tertia.core.state import UnitKind
from tertia.rules.modifiers import Modifier
from tertia.rules.movement import plan_move
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.routing import HitLimit
from tertia.scenarios import load_builtin

PACKAGE = Path(_build.__file__).resolve().parent
ROOT = PACKAGE.parent

BATTLES = [("larger-battles", "edgehill", 7), ("larger-battles", "skirmish", 3),
           ("d3-commands", "edgehill", 5), ("d3-cards", "chalgrove", 2)]

# Fights each battle and prints, as JSON, where tertia came from, which listed modules are
# compiled, and per battle: its length, a digest of every action, state and die, and the
# final state's hash. Pickles each final state into argv[2], and loads the states another
# build pickled from argv[3], if given ("loaded": their hashes).
FIGHT = """
import hashlib, json, pathlib, pickle, sys
import tertia
from tertia import _build
from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import fight_battle
from tertia.core.actions import Move
from tertia.core.game import Game
from tertia.core.geometry import Base
from tertia.core.state import UnitKind
from tertia.rules.modifiers import Modifier
from tertia.rules.movement import plan_move
from tertia.rulesets import get_ruleset
from tertia.rulesets.larger_battles.profile import profile
from tertia.rulesets.larger_battles.routing import HitLimit
from tertia.scenarios import load_builtin

games, loaded = {}, {}
for rules, scenario, seed in json.loads(sys.argv[1]):
    game = Game(get_ruleset(rules), load_builtin(scenario))
    record = fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, seed)
    h = hashlib.sha256(record.initial_state.state_hash().encode())
    for step in record.steps:
        h.update(f"{step.side}|{step.action!r}|{step.state.state_hash()}".encode())
    h.update(repr(record.rolls).encode())
    key = f"{rules}-{scenario}-{seed}"
    games[key] = [len(record.steps), h.hexdigest(), record.final_state.state_hash()]
    pathlib.Path(sys.argv[2], key + ".pickle").write_bytes(pickle.dumps(record.final_state))
for path in sorted(pathlib.Path(sys.argv[3]).glob("*.pickle")) if len(sys.argv) > 3 else ():
    loaded[path.stem] = pickle.loads(path.read_bytes()).state_hash()
print(json.dumps({"package": tertia.__file__, "compiled": _build.compiled_modules(),
                  "games": games, "loaded": loaded}))
"""


def _copy_sources(dest: Path) -> Path:
    """The package's sources and data, without extensions or the build's record."""
    shutil.copytree(PACKAGE, dest / "tertia", ignore=shutil.ignore_patterns(
        "__pycache__", _build.RECORD, *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES)))
    return dest


def _env(pythonpath: Path | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", _build.PURE_ENV)}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return {**env, **extra}


def _python(code: str, *args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _fight(cwd: Path, env: dict[str, str], pickles: Path, load: Path | None = None) -> dict[str, Any]:
    pickles.mkdir()
    done = _python(FIGHT, json.dumps(BATTLES), str(pickles), *([str(load)] if load else []), cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_compiled_modules_play_the_same_games_as_their_sources(tmp_path: Path) -> None:
    compiled = _build.compiled_modules()
    if not compiled:
        # A pure build has no second build to compare with; it must say so, and be so. A
        # machine may lack a C compiler, but the sources must always be fit for mypyc.
        assert _build.describe().startswith("pure Python")
        assert not any(_build.is_compiled(sys.modules[m]) for m in _build.COMPILED_MODULES)
        failed = (_build.read_record() or {}).get("failed") or ""
        assert not failed.startswith("mypyc could not compile"), failed
        return
    assert compiled == list(_build.COMPILED_MODULES), "a partly compiled build"
    record = _build.read_record()
    assert record is not None and list(record["modules"]) == compiled and not _build.stale_modules()
    sources = _copy_sources(tmp_path / "sources")
    elsewhere = tmp_path / "elsewhere"  # a working directory with no package in it
    elsewhere.mkdir()

    built = _fight(elsewhere, _env(), tmp_path / "built")
    pure = _fight(elsewhere, _env(pythonpath=sources), tmp_path / "pure", load=tmp_path / "built")

    assert Path(built["package"]).parent == PACKAGE and built["compiled"] == compiled
    assert Path(pure["package"]).parent == sources / "tertia" and pure["compiled"] == []
    assert pure["games"] == built["games"]
    assert len({digest for _, digest, _ in built["games"].values()}) == len(BATTLES)
    # A state pickled by either build loads in the other (this process is the built one).
    finals = {key: final for key, (_, _, final) in built["games"].items()}
    assert pure["loaded"] == finals
    pickled_by_pure = {p.stem: pickle.loads(p.read_bytes()) for p in (tmp_path / "pure").iterdir()}
    assert {key: state.state_hash() for key, state in pickled_by_pure.items()} == finals


def _fake_compiled_tree(tmp_path: Path, module: str) -> tuple[Path, Path]:
    """A copy of the sources in which ``module`` looks compiled: an (unloadable) extension
    beside it, and a record of the source it was built from."""
    tree = _copy_sources(tmp_path / "tree")
    source = Path(_build.source_path(module, str(tree)))
    extension = source.with_name(source.stem + EXTENSION_SUFFIXES[0])
    extension.write_bytes(b"not a shared library")
    record = {"modules": {module: _build.digest(str(source))}}
    (tree / "tertia" / _build.RECORD).write_text(json.dumps(record), encoding="utf-8")
    return tree, source


def test_an_extension_older_than_its_source_stops_the_import(tmp_path: Path) -> None:
    tree, source = _fake_compiled_tree(tmp_path, "tertia.rules.sight")
    fresh = _python("import tertia", cwd=tmp_path, env=_env(pythonpath=tree))
    assert fresh.returncode == 0, fresh.stderr

    source.write_text(source.read_text(encoding="utf-8") + "\n# edited after the build\n", encoding="utf-8")
    stale = _python("import tertia", cwd=tmp_path, env=_env(pythonpath=tree))
    assert stale.returncode != 0
    last = stale.stderr.strip().splitlines()[-1]
    assert last.startswith("tertia._build.StaleBuild: tertia.rules.sight is compiled from an older ")
    assert "rules/sight.py" in last and "make" in last

    pure = _python("import tertia", cwd=tmp_path, env=_env(pythonpath=tree, TERTIA_PURE_PYTHON="1"))
    assert pure.returncode == 0, pure.stderr


def test_pure_python_at_run_time_imports_the_sources_beside_extensions(tmp_path: Path) -> None:
    tree, source = _fake_compiled_tree(tmp_path, "tertia.rules.sight")
    code = "import tertia.rules.sight as m; print(m.__file__)"
    compiled = _python(code, cwd=tmp_path, env=_env(pythonpath=tree))
    assert compiled.returncode != 0 and "ImportError" in compiled.stderr  # the extension is taken first
    pure = _python(code, cwd=tmp_path, env=_env(pythonpath=tree, TERTIA_PURE_PYTHON="1"))
    assert pure.returncode == 0, pure.stderr
    assert Path(pure.stdout.strip()) == source


def test_the_makefile_rebuilds_when_a_listed_source_changes() -> None:
    """The Makefile runs this module as a script for its list of compiled sources."""
    done = subprocess.run([sys.executable, "-I", str(PACKAGE / "_build.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split()
    assert listed == [m.replace(".", "/") + ".py" for m in _build.COMPILED_MODULES]
    assert all((ROOT / path).is_file() for path in listed)
    # Modules that roll or read dice stay plain Python: exact odds watch the die values'
    # own operators, which compiled code does not call.
    dice_readers = {"tertia/core/dice.py", "tertia/core/ruleset.py",
                    "tertia/rulesets/larger_battles/resolution.py",
                    "tertia/rulesets/larger_battles/commanders.py",
                    "tertia/rulesets/larger_battles/sequence.py"}
    assert dice_readers.isdisjoint(listed)
    assert not any(p.startswith(("tertia/web/", "tertia/cli/", "tertia/io/")) for p in listed)


def test_game_states_and_frozen_values_pickle_and_copy() -> None:
    """Compiled frozen dataclasses (bases, hit limits ...) are rebuilt from their fields."""
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    record = fight_battle(game, {s: DoctrinePlayer() for s in game.scenario.side_ids}, 11)
    state = record.steps[len(record.steps) // 2].state
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert again == state and again.state_hash() == state.state_hash()
        for uid, unit in state.units.items():
            assert again.units[uid].base.corners() == unit.base.corners()

    unit = next(state.iter_troops(state.active))
    values = [Base(1.5, 2, 33, 4, 2), Modifier(1, "+1 cavalry"), HitLimit(3, ("cover",)),
              profile(UnitKind.HORSE), plan_move(unit, Move(unit=unit.id, waypoints=((unit.x, unit.y + 2),)))]
    for value in values:
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert again == value and type(again) is type(value)
    for module in _build.COMPILED_MODULES:
        for value in vars(importlib.import_module(module)).values():
            params = getattr(value, "__dataclass_params__", None)
            if isinstance(value, type) and value.__module__ == module and params and params.frozen:
                assert value in copyreg.dispatch_table, value
