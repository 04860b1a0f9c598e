"""Geometry properties: distances, faces and arcs (hypothesis), plus worked cases."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertia.core import terrain
from tertia.core.geometry import (
    Base,
    Face,
    angle_between,
    base_distance,
    bases_overlap,
    face_towards,
    is_in_arc,
    is_within,
)
from tertia.core.terrain import Battlefield, TerrainFeature, TerrainKind

coord = st.floats(min_value=-50, max_value=50, allow_nan=False)
facing = st.floats(min_value=0, max_value=360, allow_nan=False, exclude_max=True)
size = st.floats(min_value=0.5, max_value=6, allow_nan=False)
bases = st.builds(Base, coord, coord, facing, size, size)


def rotate(b: Base, angle: float, about: tuple[float, float] = (0.0, 0.0)) -> Base:
    r = math.radians(angle)
    dx, dy = b.x - about[0], b.y - about[1]
    # Clockwise rotation by ``angle`` (facings are clockwise from north).
    x = about[0] + dx * math.cos(r) + dy * math.sin(r)
    y = about[1] - dx * math.sin(r) + dy * math.cos(r)
    return Base(x, y, (b.facing + angle) % 360, b.width, b.depth)


@given(bases, bases)
def test_distance_is_symmetric_and_non_negative(a: Base, b: Base) -> None:
    d1, d2 = base_distance(a, b), base_distance(b, a)
    assert d1 >= 0 and math.isclose(d1, d2, abs_tol=1e-9)


@given(bases, bases)
def test_distance_at_most_centre_distance(a: Base, b: Base) -> None:
    assert base_distance(a, b) <= math.hypot(a.x - b.x, a.y - b.y) + 1e-9


@given(bases, bases, facing)
def test_distance_and_arcs_survive_rotating_the_table(a: Base, b: Base, angle: float) -> None:
    ra, rb = rotate(a, angle), rotate(b, angle)
    assert math.isclose(base_distance(a, b), base_distance(ra, rb), abs_tol=1e-6)
    # Arcs are judged with a hair of tolerance at their edges.
    if is_in_arc(a, b) != is_in_arc(ra, rb):
        shrunk = Base(b.x, b.y, b.facing, b.width * 0.999, b.depth * 0.999)
        grown = Base(b.x, b.y, b.facing, b.width * 1.001, b.depth * 1.001)
        assert not is_in_arc(a, shrunk) or is_in_arc(ra, rotate(grown, angle))


@given(bases, st.floats(min_value=0.01, max_value=20, allow_nan=False), facing)
def test_a_base_moved_clear_does_not_overlap(a: Base, gap: float, direction: float) -> None:
    """Two bases whose circles are apart by ``gap`` never overlap and are over ``gap`` apart."""
    r = math.radians(direction)
    reach = 2 * a.radius + gap
    b = Base(a.x + math.sin(r) * reach, a.y + math.cos(r) * reach, a.facing, a.width, a.depth)
    assert not bases_overlap(a, b)
    assert base_distance(a, b) >= gap - 1e-9


@settings(max_examples=50)
@given(bases)
def test_a_base_overlaps_itself_but_touching_is_not_overlap(a: Base) -> None:
    assert bases_overlap(a, a)
    ahead = Base(a.x + math.sin(math.radians(a.facing)) * a.depth,
                 a.y + math.cos(math.radians(a.facing)) * a.depth, a.facing, a.width, a.depth)
    assert not bases_overlap(a, ahead)
    assert is_within(a, ahead, 0.0)


def test_faces_of_a_base() -> None:
    b = Base(0, 0, 90, 4, 2)  # facing east
    assert face_towards(b, (5, 0)) is Face.FRONT
    assert face_towards(b, (-5, 0)) is Face.REAR
    assert face_towards(b, (0, 5)) is Face.LEFT
    assert face_towards(b, (0, -5)) is Face.RIGHT


def test_angle_between_wraps() -> None:
    assert angle_between(359, 1) == 2
    assert angle_between(0, 180) == 180


@given(bases, bases)
def test_minkowski_difference_matches_the_hull_of_all_offsets(a: Base, b: Base) -> None:
    from tertia.core.geometry import convex_hull, minkowski_difference, polygon_distance

    merged = minkowski_difference(a.corners(), b.corners())
    hull = convex_hull([(fx - mx, fy - my) for fx, fy in a.corners() for mx, my in b.corners()])
    probe = (a.x + 7.0, b.y - 3.0)
    assert math.isclose(polygon_distance(merged, (probe,) * 3), polygon_distance(hull, (probe,) * 3),
                        abs_tol=1e-6)


@given(bases, facing, st.floats(min_value=0.0, max_value=4.0, allow_nan=False))
def test_first_contact_stops_exactly_at_the_clearance(a: Base, direction: float, clearance: float) -> None:
    """Sliding a base by the free run leaves it exactly ``clearance`` from the obstacle."""
    from tertia.core.geometry import first_contact, heading_vector

    ux, uy = heading_vector(direction)
    obstacle = Base(a.x + ux * 20, a.y + uy * 20, 45.0, 4, 2)
    t = first_contact(a.corners(), obstacle.corners(), (ux, uy), clearance)
    if math.isinf(t) or t == 0.0:
        return
    moved = Base(a.x + ux * t, a.y + uy * t, a.facing, a.width, a.depth)
    assert math.isclose(base_distance(moved, obstacle), clearance, abs_tol=1e-6)


@given(bases, bases)
def test_edge_distance_agrees_with_shapely(a: Base, b: Base) -> None:
    import shapely

    expected = shapely.Polygon(a.corners()).distance(shapely.Polygon(b.corners()))
    assert math.isclose(base_distance(a, b), expected, abs_tol=1e-7)


def test_lines_of_sight_are_remembered_and_forgotten_without_changing_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Battlefield.line_crosses keeps answers, and starts again past its limit."""
    wood = TerrainFeature(TerrainKind.WOODS, outline=((10, 10), (20, 10), (20, 20), (10, 20)))
    table = Battlefield(72, 48, (wood,))
    monkeypatch.setattr(terrain, "LINE_MEMO_LIMIT", 3)
    heights = [5.0, 10.0, 12.0, 15.0, 18.0, 20.0, 25.0, 30.0]  # 10 and 20 run along its edges
    expected = [False, False, True, True, True, False, False, False]
    for _ in range(2):  # asked twice: the second round mixes remembered and forgotten answers
        answers = [table.line_crosses([TerrainKind.WOODS], (0.0, y), (30.0, y)) for y in heights]
        assert answers == expected
    assert table.line_crosses([TerrainKind.TOWN], (0.0, 15.0), (30.0, 15.0)) is False


def test_areas_entering_ground_are_remembered_and_forgotten_without_changing_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Battlefield.overlaps (and a river's barrier) keeps each footprint's answer, the
    same as measured afresh, and starts again past its limit: a unit halted at a bank
    tries the same moves at every decision."""
    wood = TerrainFeature(TerrainKind.WOODS, outline=((10, 10), (20, 10), (20, 20), (10, 20)))
    river = TerrainFeature(TerrainKind.RIVER, line=((0, 30), (72, 30)), width=2.0)
    table = Battlefield(72, 48, (wood, river))
    monkeypatch.setattr(terrain, "LINE_MEMO_LIMIT", 3)
    boxes = [Base(x, 15.0, 0.0, 4, 2) for x in (5.0, 8.0, 9.0, 15.0, 22.0, 30.0)]  # 8 touches its edge
    expected = [False, False, True, True, False, False]
    banks = [Base(40.0, y, 0.0, 4, 2) for y in (27.0, 28.0, 29.5, 33.0)]  # 28 touches the water
    crossing = [False, False, True, False]
    for _ in range(2):  # asked twice: the second round mixes remembered and forgotten answers
        assert [table.overlaps(TerrainKind.WOODS, b.corners()) for b in boxes] == expected
        assert [table.blocks_by_river(b.corners()) for b in banks] == crossing
    monkeypatch.setattr(terrain, "LINE_MEMO_LIMIT", 100)
    table = Battlefield(72, 48, (wood, river))
    assert table.overlaps(TerrainKind.WOODS, boxes[3].corners()) is True
    assert table.blocks_by_river(banks[2].corners()) is True
    assert len(table._memo) == 2  # each answer kept, to be read when asked again


def test_the_ground_under_a_point_is_remembered_without_changing_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Battlefield.contains_point, hill_level and climbs keep their answers (a piece that
    stands still is asked about where it stands again and again), the same as measured
    afresh, and start again past the limit."""
    town = TerrainFeature(TerrainKind.TOWN, outline=((10, 10), (20, 10), (20, 20), (10, 20)))
    hill = TerrainFeature(TerrainKind.HILL, outline=((40, 10), (60, 10), (60, 30), (40, 30)), height=2)
    monkeypatch.setattr(terrain, "LINE_MEMO_LIMIT", 3)
    table = Battlefield(72, 48, (town, hill))
    points = [(5.0, 15.0), (10.0, 15.0), (15.0, 15.0), (45.0, 20.0), (40.0, 20.0)]
    for _ in range(2):  # asked twice: the second round mixes remembered and forgotten answers
        in_town = [table.contains_point(TerrainKind.TOWN, p) for p in points]
        assert in_town == [False, True, True, False, False]
        assert [table.hill_level(p) for p in points] == [0, 0, 0, 2, 2]
        assert table.climbs([(30.0, 20.0), (50.0, 20.0)]) is True
        assert table.climbs([(50.0, 20.0), (30.0, 20.0)]) is False
    monkeypatch.setattr(terrain, "LINE_MEMO_LIMIT", 100)
    table = Battlefield(72, 48, (town, hill))
    table.contains_point(TerrainKind.TOWN, (15.0, 15.0))
    table.hill_level((45.0, 20.0))
    table.climbs([(30.0, 20.0), (50.0, 20.0)])
    held = len(table._memo)
    assert held >= 3  # each answer kept (with the hill's edges), to be read when asked again
    table.contains_point(TerrainKind.TOWN, (15.0, 15.0))
    table.hill_level((45.0, 20.0))
    assert len(table._memo) == held
