"""The doctrines' nearest enemy is the least (distance between centres, id) over every
enemy troop that qualifies, as a sort of them all would give."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from tertia.ai.targets import goal, nearest_enemy
from tertia.core.state import GameState, Unit, UnitKind

KINDS = (UnitKind.FOOT, UnitKind.HORSE, UnitKind.COMMANDER, UnitKind.ARTILLERY)
coordinate = st.integers(min_value=-20, max_value=20).map(lambda v: v * 1.5)  # ties of distance too
Spec = tuple[str, UnitKind, float, float, bool]
piece = st.tuples(st.sampled_from(["red", "blue"]), st.sampled_from(KINDS), coordinate, coordinate,
                  st.booleans())


def _state(specs: list[Spec]) -> GameState:
    units = {f"u{i:02d}": Unit(f"u{i:02d}", side, kind, "c", x, y, 0.0, 4.0, 2.0,
                               removed="routed" if gone else None)
             for i, (side, kind, x, y, gone) in enumerate(specs)}
    return GameState(("red", "blue"), 1, "red", "movement", units)


@settings(max_examples=300, deadline=None)
@given(st.lists(piece, max_size=40), coordinate, coordinate, st.sampled_from([None, True, False]))
def test_the_nearest_enemy_is_the_least_distance_then_id(
        specs: list[Spec], x: float, y: float, horse: bool | None) -> None:
    state = _state(specs)
    pool = [u for u in state.iter_troops("blue") if horse is None or (u.kind is UnitKind.HORSE) == horse]
    expected = min(pool, key=lambda u: (math.hypot(u.x - x, u.y - y), u.id), default=None)
    assert nearest_enemy(state, "red", x, y, horse=horse) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(piece, min_size=1, max_size=30))
def test_horse_seek_horse_and_foot_advance_as_a_line(specs: list[Spec]) -> None:
    state = _state(specs)
    enemies = list(state.iter_troops("blue"))
    for unit in state.iter_troops("red"):
        found = goal(state, unit)
        if not enemies:
            assert found is None
            continue
        pool = [e for e in enemies if e.kind is UnitKind.HORSE] if unit.kind is UnitKind.HORSE else []
        cx, cy = unit.x, unit.y
        if unit.kind is UnitKind.FOOT:
            line = [u for u in state.iter_troops("red") if u.kind is unit.kind]
            cx, cy = sum(u.x for u in line) / len(line), sum(u.y for u in line) / len(line)
        target = min(pool or enemies, key=lambda e: (math.hypot(e.x - cx, e.y - cy), e.id))
        assert found is not None and found[1] == target
        assert found[0] == (unit.x + target.x - cx, unit.y + target.y - cy) if unit.kind is UnitKind.FOOT \
            else (target.x, target.y)
