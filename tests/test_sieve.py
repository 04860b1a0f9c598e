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


def _changed(state: GameState, step: Change, together: bool, *, keep_command: bool) -> tuple[GameState, bool]:
    """``state`` after one drawn change: a new piece arrives (no check follows), or a piece
    moves, leaves play or comes back, taking the drawn command unless ``keep_command``;
    and whether a piece in the state changed."""
    i, dx, command, leaves, arrives = step
    uid = f"u{i:02d}"
    old = state.units.get(uid)
    if old is None:
        if arrives:
            state = state.with_unit(Unit(uid, "red", UnitKind.HORSE, command, 0.0, 9.0, 0.0, 4.0, 2.0))
        return state, False
    new = old.evolve(x=old.x + dx, command=old.command if keep_command else command,
                     removed="routed" if leaves else None)
    return (state.with_units([new]) if together else state.with_unit(new)), True


@settings(max_examples=150, deadline=None)
@given(st.lists(change, max_size=30), st.booleans())
def test_pieces_where_is_every_piece_passing_in_play_order(changes: list[Change], together: bool) -> None:
    state = _state(20)
    state.pieces_where("a", _in_a)  # remembered now, so every change below refiles a piece
    for side in (None, "red", "blue"):
        list(state.iter_units(side))
        list(state.iter_troops(side))
    for step in changes:
        state, changed = _changed(state, step, together, keep_command=False)
        if not changed:
            continue
        fresh = _fresh(state)
        assert [u.id for u in state.pieces_where("a", _in_a)] == \
            [u.id for u in fresh.iter_units() if _in_a(u)]
        for side in (None, "red", "blue"):
            assert list(state.iter_units(side)) == list(fresh.iter_units(side))
            assert list(state.iter_troops(side)) == list(fresh.iter_troops(side))
            assert list(state.iter_units(side, include_removed=True)) == \
                list(fresh.iter_units(side, include_removed=True))


@settings(max_examples=150, deadline=None)
@given(st.lists(change, max_size=30), st.booleans())
def test_a_fixed_sieve_is_every_piece_passing_while_pieces_keep_their_commands(
        changes: list[Change], together: bool) -> None:
    state = _state(20)
    state.pieces_where("fixed a", _in_a, fixed=True)
    for step in changes:
        state, changed = _changed(state, step, together, keep_command=True)
        if not changed:
            continue
        assert [u.id for u in state.pieces_where("fixed a", _in_a, fixed=True)] == \
            [u.id for u in _fresh(state).iter_units() if _in_a(u)]


def test_a_fixed_sieve_tests_only_a_piece_coming_into_play() -> None:
    tested: list[str] = []

    def in_a(u: Unit) -> bool:
        tested.append(u.id)
        return u.command == "a"

    state = _state(4)
    state.pieces_where("fixed a", in_a, fixed=True)
    tested.clear()
    moved = state.with_unit(state.units["u01"].evolve(x=50.0))
    gone = moved.with_unit(moved.units["u02"].evolve(removed="routed"))
    back = gone.with_unit(gone.units["u02"].evolve(removed=None))
    assert tested == ["u02"]  # the move tested nothing, the leaving nothing, the return u02
    assert [u.id for u in back.pieces_where("fixed a", in_a, fixed=True)] == ["u00", "u01", "u02", "u03"]
    unfixed = _state(4)
    unfixed.pieces_where("a", in_a)
    tested.clear()
    unfixed.with_unit(unfixed.units["u01"].evolve(x=50.0))
    assert tested == ["u01"]  # a test that may read what changes is asked again
