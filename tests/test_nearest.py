"""NearestFirst hands out pieces in exactly the order of sorting them all by (edge-to-edge
distance, id), measuring only as far as it is read."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tertia.core.geometry import base_distance
from tertia.core.state import Unit, UnitKind
from tertia.rules.nearest import NearestFirst

coordinate = st.floats(min_value=-30.0, max_value=30.0, allow_nan=False).map(lambda v: round(v, 1))
piece = st.tuples(coordinate, coordinate, st.sampled_from([0.0, 45.0, 90.0, 180.0, 300.0]),
                  st.sampled_from([(4.0, 2.0), (2.0, 2.0), (6.0, 1.0), (0.5, 0.5)]))


Spec = tuple[float, float, float, tuple[float, float]]


def _unit(i: int, spec: Spec) -> Unit:
    x, y, facing, (width, depth) = spec
    return Unit(f"u{i:02d}", "blue", UnitKind.FOOT, "c", x, y, facing, width, depth)


@settings(max_examples=200, deadline=None)
@given(st.lists(piece, min_size=1, max_size=25), st.floats(min_value=0.0, max_value=40.0))
def test_order_and_reach_match_a_full_sort(specs: list[tuple[float, float, float, tuple[float, float]]],
                                           inches: float) -> None:
    me, *others = [_unit(i, s) for i, s in enumerate(specs)]
    expected = sorted(others, key=lambda u: (base_distance(me.base, u.base), u.id))
    near = NearestFirst(me, others)
    assert [u.id for u in near] == [u.id for u in expected]
    assert [near.gap(i) for i in range(len(near))] == [base_distance(me.base, u.base) for u in expected]
    within = [u.id for u in NearestFirst(me, others).within(inches)]
    assert within == [u.id for u in expected if base_distance(me.base, u.base) <= inches]
    assert bool(near) == bool(others) and (near.first() is None) == (not others)


def test_reads_only_what_it_needs() -> None:
    me = Unit("me", "red", UnitKind.FOOT, "c", 0.0, 0.0, 0.0, 4.0, 2.0)
    line = [Unit(f"e{i}", "blue", UnitKind.FOOT, "c", 10.0 * i, 0.0, 0.0, 4.0, 2.0) for i in range(1, 40)]
    near = NearestFirst(me, reversed(line))
    assert near[0].id == "e1" and near.measured <= 2
