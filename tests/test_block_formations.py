"""rules.formations: stands laid out by formation, footprints, formation changes, and
ranges and arcs from the closest stand (Declare Thee Sir, Formations and Fire)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tertia.core.geometry import Base, base_distance, bases_overlap
from tertia.rules.formations import (
    COLUMN,
    HEDGEHOG,
    LINE,
    closest_stand,
    distance_between,
    footprint,
    reformed_centre,
    stand_bases,
    stands_in_arc,
)


def test_line_stands_side_by_side_and_column_front_to_rear() -> None:
    """Formations a and b: "multiple stand units in side contact" / "arranged front to rear"."""
    line = stand_bases(10.0, 10.0, 0.0, LINE, 3, 1.5, 1.0)
    assert [(s.x, s.y) for s in line] == [(8.5, 10.0), (10.0, 10.0), (11.5, 10.0)]
    column = stand_bases(10.0, 10.0, 0.0, COLUMN, 3, 1.5, 1.0)
    assert [(s.x, s.y) for s in column] == [(10.0, 11.0), (10.0, 10.0), (10.0, 9.0)]
    assert footprint(LINE, 3, 1.5, 1.0) == (4.5, 1.0)
    assert footprint(COLUMN, 3, 1.5, 1.0) == (1.5, 3.0)


def test_stands_follow_the_facing() -> None:
    east = stand_bases(0.0, 0.0, 90.0, LINE, 2, 2.0, 1.0)
    assert [(s.x, s.y, s.facing) for s in east] == [(0.0, 1.0, 90.0), (0.0, -1.0, 90.0)]


def test_a_hedgehog_is_compact_and_faces_all_round() -> None:
    assert footprint(HEDGEHOG, 4, 1.5, 1.0) == (3.0, 2.0)
    assert HEDGEHOG.all_round and not LINE.all_round
    assert len(stand_bases(0.0, 0.0, 0.0, HEDGEHOG, 1, 1.5, 1.0)) == 1


@given(st.floats(-20, 20), st.floats(-20, 20), st.floats(0, 359), st.integers(1, 6),
       st.sampled_from([LINE, COLUMN, HEDGEHOG]))
def test_stands_fill_the_footprint_without_overlapping(x: float, y: float, facing: float, n: int,
                                                         formation: object) -> None:
    assert formation in (LINE, COLUMN, HEDGEHOG)
    stands = stand_bases(x, y, facing, formation, n, 1.5, 1.0)  # type: ignore[arg-type]
    w, d = footprint(formation, n, 1.5, 1.0)  # type: ignore[arg-type]
    whole = Base(x, y, facing, w + 1e-6, d + 1e-6)
    assert len(stands) == n
    for i, s in enumerate(stands):
        assert all(not bases_overlap(s, t) for t in stands[i + 1:])
        for corner in s.corners():
            right, forward = whole.to_local(corner)
            assert abs(right) <= whole.width / 2 + 1e-6 and abs(forward) <= whole.depth / 2 + 1e-6


def test_a_formation_change_keeps_the_front_edge() -> None:
    before = Base(10.0, 10.0, 0.0, 4.5, 1.0)
    x, y = reformed_centre(before, 3.0)
    after = Base(x, y, 0.0, 1.5, 3.0)
    assert after.front_centre() == pytest.approx(before.front_centre())
    assert (x, y) == (10.0, 9.0)


def test_range_is_to_the_closest_stand_edge() -> None:
    """Fire: "determine if in range (to closest stand edge)": a column is nearer by its
    head than by its centre."""
    column = stand_bases(0.0, 0.0, 0.0, COLUMN, 3, 2.0, 1.0)
    target = Base(0.0, 8.0, 180.0, 2.0, 1.0)
    index, gap = closest_stand(column, target)
    assert (index, gap) == (0, pytest.approx(6.0))
    assert base_distance(Base(0.0, 0.0, 0.0, 2.0, 3.0), target) == pytest.approx(6.0)
    assert distance_between(column, [target]) == pytest.approx(6.0)
    with pytest.raises(ValueError, match="no stands"):
        closest_stand((), target)


def test_only_stands_with_the_target_in_their_arc_may_fire() -> None:
    line = stand_bases(0.0, 0.0, 0.0, LINE, 3, 2.0, 1.0)
    assert stands_in_arc(line, Base(0.0, 5.0, 180.0, 1.0, 1.0)) == (0, 1, 2)
    assert stands_in_arc(line, Base(5.0, 3.0, 180.0, 1.0, 1.0)) == (2,)
    assert stands_in_arc(line, Base(0.0, -5.0, 0.0, 1.0, 1.0)) == ()
