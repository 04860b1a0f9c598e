"""Whole battles fought once a test run, for the tests that read a battle rather than
watch it being fought: the conformance playouts (``tests/test_conformance.py``), whose
players and seed other tests use as their battle to read (the odds compared between the
builds, the hashes of positions along a battle, Charge yr Pikes!' battles fought to their
end by random players).

A battle is fought by :func:`tertia.battle.fight_battle`, the players of every side of one
kind (``doctrine`` or ``random``) and the rule set's default options, on a scenario of the
catalogue (the example plugin's rule set registered, :mod:`tests.plugin_rules`). Each
process keeps the battles it has read; the processes of one run (``pytest -n``) share
them through a folder the run names in :data:`FOLDER_ENV` (``conftest.py``), where the
first to ask for a battle fights it and writes it down (pickled) while any other asking
waits for it. A record read here is the same for every reader: none may change it.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tertia.ai.doctrine import DoctrinePlayer
from tertia.ai.player import Player
from tertia.ai.random_player import RandomPlayer
from tertia.battle import BattleRecord, fight_battle
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios.catalogue import load_named
from tests.plugin_rules import with_plugins

FOLDER_ENV = "TERTIA_TEST_BATTLES"
"""The folder where the processes of a test run keep the battles fought (set by
``conftest.py`` for the run; without it each process fights its own)."""

PLAYERS: dict[str, type[Player]] = {"doctrine": DoctrinePlayer, "random": RandomPlayer}

_READ: dict[tuple[str, str, str, int], BattleRecord] = {}


def fought(scenario: str, rules: str, players: str, seed: int) -> BattleRecord:
    """The battle of ``scenario`` under ``rules`` (its default options), every side played
    by ``players``, with ``seed``: fought once a run."""
    key = (scenario, rules, players, seed)
    if key not in _READ:
        folder = os.environ.get(FOLDER_ENV)
        if folder is None:
            _READ[key] = _fight(*key)
        else:
            path = Path(folder) / f"{scenario}-{rules}-{players}-{seed}.pickle"
            with _alone(path.with_suffix(".lock")):
                if not path.exists():
                    written = path.with_name(f"{path.name}.{os.getpid()}")
                    written.write_bytes(pickle.dumps(_fight(*key), protocol=pickle.HIGHEST_PROTOCOL))
                    written.replace(path)
                _READ[key] = pickle.loads(path.read_bytes())
    return _READ[key]


def _fight(scenario: str, rules: str, players: str, seed: int) -> BattleRecord:
    with with_plugins():
        game = Game(get_ruleset(rules), load_named(scenario))
        return fight_battle(game, {side: PLAYERS[players]() for side in game.scenario.side_ids}, seed)


@contextmanager
def _alone(lock: Path) -> Iterator[None]:
    """Held by one process of the run at a time (where the system locks files)."""
    try:
        import fcntl
    except ImportError:  # no file locks: a battle may be fought twice, and written whole each time
        yield
        return
    with lock.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)
