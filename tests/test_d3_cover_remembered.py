"""The cover between two centres in the D3 rule sets (``tertia.rulesets.d3.terrain.cover``)
is remembered by the table (``Battlefield.recall``): every answer must be the ground's
own, asked once or again, past the memo's limit, whoever charged whom."""

from __future__ import annotations

import itertools

import pytest

from tertia.core import terrain as core_terrain
from tertia.rulesets.d3 import terrain
from tertia.rulesets.d3_commands.melee import MELEE_COVER
from tertia.rulesets.d3_commands.shooting import SHOOTING_COVER

from .d3_support import COMMANDS, foot, horse
from .support import P, R, make_game

GROUND = [
    {"type": "hedge", "line": [[20, 12], [40, 12]], "width": 0.5},
    {"type": "town", "polygon": [[44, 30], [52, 30], [52, 38], [44, 38]]},
    {"type": "woods", "polygon": [[4, 30], [14, 30], [14, 40], [4, 40]]},
    {"type": "hill", "polygon": [[50, 2], [70, 2], [70, 14], [50, 14]], "height": 1},
    {"type": "entrenchment", "line": [[20, 24], [40, 24]], "width": 0.5},
]
PLACES = [(30.0, 8.0), (30.0, 15.0), (30.0, 20.0), (30.0, 28.0), (48.0, 34.0), (9.0, 35.0),
          (60.0, 8.0), (60.0, 20.0)]
KINDS = [MELEE_COVER, SHOOTING_COVER, (terrain.WOODS, terrain.FIELDS, terrain.TOWN, terrain.HEDGE,
                                        terrain.ENTRENCHMENT, terrain.HILL, terrain.CLUBMEN)]


def test_the_cover_a_table_remembers_is_the_ground_s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pair of places, every list of kinds and every charger: the remembered answer,
    asked twice and with the memo forgetting as it fills, is the one the ground gives; and
    who charged whom changes some answers (a hedge shelters the unit charged), so the
    memory must tell them apart."""
    game = make_game([horse("h", P, 30, 8), foot("d", R, 30, 15, 180)], rules=COMMANDS, terrain=GROUND)
    state = game.deployed()
    table = game.table
    monkeypatch.setattr(core_terrain, "LINE_MEMO_LIMIT", 40)
    attacker, target = state.units["h"], state.units["d"]
    told_apart = False
    for _ in range(2):
        for (ax, ay), (tx, ty) in itertools.permutations(PLACES, 2):
            a, t = attacker.evolve(x=ax, y=ay), target.evolve(x=tx, y=ty)
            for kinds in KINDS:
                answers = {charger: terrain.cover(table, a, t, kinds, charger)
                           for charger in (None, a.id, t.id)}
                for charger, answer in answers.items():
                    assert answer == terrain._first_cover(table, a, t, tuple(kinds), charger), \
                        (a.x, a.y, t.x, t.y, kinds, charger)
                told_apart = told_apart or len(set(answers.values())) > 1
    assert told_apart


def test_the_table_measures_a_cover_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same question again is answered from memory, not measured again."""
    game = make_game([horse("h", P, 30, 8), foot("d", R, 30, 15, 180)], rules=COMMANDS, terrain=GROUND)
    state = game.deployed()
    measured: list[tuple[str, ...]] = []
    first_cover = terrain._first_cover

    def counted(*args: object) -> str | None:
        measured.append(args[3])  # type: ignore[arg-type]
        return first_cover(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(terrain, "_first_cover", counted)
    a, t = state.units["h"], state.units["d"]
    assert terrain.cover(game.table, a, t, MELEE_COVER, a.id) == terrain.HEDGE
    assert terrain.cover(game.table, a, t, list(MELEE_COVER), a.id) == terrain.HEDGE
    assert terrain.cover(game.table, a, t, SHOOTING_COVER) is None
    assert measured == [MELEE_COVER, SHOOTING_COVER]


def test_the_table_forgets_what_it_remembered_at_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A served battle asks its table for ever: the answers it keeps (cover and lines of
    sight alike) never number more than their bound, and after forgetting it still answers
    as the ground does."""
    game = make_game([horse("h", P, 30, 8), foot("d", R, 30, 15, 180)], rules=COMMANDS, terrain=GROUND)
    state = game.deployed()
    table = game.table
    monkeypatch.setattr(core_terrain, "LINE_MEMO_LIMIT", 25)
    a, t = state.units["h"], state.units["d"]
    for n in range(200):
        moved = a.evolve(x=20.0 + n / 10, y=8.0)
        assert terrain.cover(table, moved, t, MELEE_COVER, moved.id) == terrain._first_cover(
            table, moved, t, MELEE_COVER, moved.id)
        table.line_crosses(["woods"], (0.0, 35.0 + n / 100), (20.0, 35.0))
        assert len(table._memo) <= 25 + 2
