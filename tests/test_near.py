"""GameState.near hands out every piece in play near a box, in play order, however the
pieces have moved, arrived and left; and a move forgets exactly the remembered facts
it may have changed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tertia.core.geometry import is_within
from tertia.core.state import GameState, Unit, UnitKind

coordinate = st.floats(min_value=-60.0, max_value=60.0, allow_nan=False).map(lambda v: round(v, 1))
size = st.sampled_from([(4.0, 2.0), (2.0, 2.0), (12.0, 3.0), (0.5, 0.5)])
Change = tuple[int, float, float, tuple[float, float], bool]
change = st.tuples(st.integers(min_value=0, max_value=29), coordinate, coordinate, size, st.booleans())


def _state(n: int) -> GameState:
    units = {f"u{i:02d}": Unit(f"u{i:02d}", "blue" if i % 2 else "red", UnitKind.FOOT, "c",
                               4.0 * i - 60.0, 3.0 * (i % 5), 0.0, 4.0, 2.0) for i in range(n)}
    return GameState(("red", "blue"), 1, "red", "move", units)


def _expected(state: GameState, x0: float, y0: float, x1: float, y1: float, inches: float) -> list[str]:
    return [u.id for u in state.iter_units()
            if x0 - inches - u.base.radius <= u.x <= x1 + inches + u.base.radius
            and y0 - inches - u.base.radius <= u.y <= y1 + inches + u.base.radius]


def _within(state: GameState, unit: Unit) -> list[str]:
    return [o.id for o in state.iter_units() if o.id != unit.id and is_within(unit.base, o.base, 3.0)]


@settings(max_examples=150, deadline=None)
@given(st.lists(change, max_size=30), coordinate, coordinate, st.floats(min_value=0.0, max_value=30.0))
def test_near_is_every_piece_near_in_play_order(changes: list[Change], x: float, y: float,
                                                inches: float) -> None:
    state = _state(30)
    state.near(0.0, 0.0, 0.0, 0.0, 1.0)  # filed now, so every change below refiles a piece
    for i, nx, ny, (width, depth), leaves in changes:
        old = state.units[f"u{i:02d}"]
        state = state.with_unit(old.evolve(x=nx, y=ny, width=width, depth=depth,
                                           removed="routed" if leaves else None))
    found = [u.id for u in state.near(x, y, x + 5.0, y, inches)]
    assert found == _expected(state, x, y, x + 5.0, y, inches)


@settings(max_examples=100, deadline=None)
@given(st.lists(change, min_size=1, max_size=12))
def test_a_move_forgets_what_it_may_have_changed(changes: list[Change]) -> None:
    state = _state(30)
    for i, nx, ny, (width, depth), leaves in changes:
        for u in state.iter_units():  # each piece remembers which pieces stand within 3"
            if state.recall(("near", u.id), u) is None:
                state.remember(("near", u.id), u, 3.0, _within(state, u))
        old = state.units[f"u{i:02d}"]
        state = state.with_unit(old.evolve(x=nx, y=ny, width=width, depth=depth,
                                           removed="routed" if leaves else None))
        for u in state.iter_units():
            held = state.recall(("near", u.id), u)
            assert held is None or held == _within(state, u)
