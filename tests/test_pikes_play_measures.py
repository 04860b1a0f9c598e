"""The measures ``benchmarks/pikes_play.py`` reports of Charge yr Pikes! battles: which
objectives each side held (19 C), counted battle by battle."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "pikes_play.py"


@pytest.fixture(scope="module")
def pikes_play() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pikes_play", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pikes_play"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_battle_won_by_objectives_counts_every_objective_of_the_victor_held(pikes_play: ModuleType) -> None:
    """19 C: a battle is won by occupying all three objectives, so the victor's three are
    among those held, and each is counted once for the battle."""
    battle = next((b for b in map(pikes_play.fight, (("edgehill", "doctrine", s) for s in range(1, 11)))
                   if b.decided), None)
    assert battle is not None, "no Edgehill battle of seeds 1-10 was decided by objectives"
    held_by = {side for side, _ in battle.objectives_held}
    victors = [side for side in held_by
               if all((side, name) in battle.objectives_held for s, name in battle.objectives if s == side)]
    assert len(victors) == 1
    tally = pikes_play._battles_holding([battle])[victors[0]]
    assert len(tally) == 3 and set(tally.values()) == {1}


def test_an_objective_never_held_is_listed_with_no_battles(pikes_play: ModuleType) -> None:
    """Every objective of each side is listed in the scenario's order, those held in no
    battle with 0, the rest with the battles that held them."""
    blank = pikes_play.Battle(seed=1, decided=False, foot=0, foot_charged=0, foot_in_melee=0, horse_lost=0,
                              fright=(), horse_fielded={}, horse_lost_by={}, most_objectives=0,
                              objectives=(("a", "Y"), ("a", "X"), ("b", "Z")))
    battles = [replace(blank, objectives_held=(("a", "X"),)),
               replace(blank, seed=2, objectives_held=(("a", "X"), ("b", "Z")))]
    tally = pikes_play._battles_holding(battles)
    assert tally == {"a": {"Y": 0, "X": 2}, "b": {"Z": 1}}
    assert list(tally["a"]) == ["Y", "X"]
