"""GameState.pieces_where hands out the pieces in play that pass a test, in play order,
however the pieces have changed, arrived and left since it was first asked; and the
selections it keeps current by a piece's place in them (iter_units, iter_troops) stay
those of a fresh state."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tertia.core.state import GameState, Unit, UnitKind

Change = tuple[int, float, str, bool, bool]
change = st.tuples(st.integers(min_value=0, max_value=24), st.sampled_from([0.0, 1.0, 5.0]),
                   st.sampled_from(["a", "b"]), st.booleans(), st.booleans())


def _state(n: int) -> GameState:
    units = {f"u{i:02d}": Unit(f"u{i:02d}", "blue" if i % 2 else "red",
                               UnitKind.COMMANDER if i % 7 == 0 else UnitKind.FOOT, "a",
                               4.0 * i, 0.0, 0.0, 4.0, 2.0) for i in range(n)}
    return GameState(("red", "blue"), 1, "red", "move", units)


def _in_a(u: Unit) -> bool:
    return u.command == "a"


def _fresh(state: GameState) -> GameState:
    return GameState(*state.fields())


@settings(max_examples=150, deadline=None)
@given(st.lists(change, max_size=30), st.booleans())
def test_pieces_where_is_every_piece_passing_in_play_order(changes: list[Change], together: bool) -> None:
    state = _state(20)
    state.pieces_where("a", _in_a)  # remembered now, so every change below refiles a piece
    for side in (None, "red", "blue"):
        list(state.iter_units(side))
        list(state.iter_troops(side))
    for i, dx, command, leaves, arrives in changes:
        uid = f"u{i:02d}"
        old = state.units.get(uid)
        if old is None:
            if arrives:
                state = state.with_unit(Unit(uid, "red", UnitKind.HORSE, command, 0.0, 9.0, 0.0, 4.0, 2.0))
            continue
        new = old.evolve(x=old.x + dx, command=command, removed="routed" if leaves else None)
        state = state.with_units([new]) if together else state.with_unit(new)
        fresh = _fresh(state)
        assert [u.id for u in state.pieces_where("a", _in_a)] == \
            [u.id for u in fresh.iter_units() if _in_a(u)]
        for side in (None, "red", "blue"):
            assert list(state.iter_units(side)) == list(fresh.iter_units(side))
            assert list(state.iter_troops(side)) == list(fresh.iter_troops(side))
            assert list(state.iter_units(side, include_removed=True)) == \
                list(fresh.iter_units(side, include_removed=True))
