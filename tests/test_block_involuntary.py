"""rules.involuntary: push-backs, routs of stands and pursuits along a heading, with an
interpenetration policy and a report of who was passed through (Declare Thee Sir:
"Units that move or rout through another unit cause a moral check ... on each unit
involved")."""

from __future__ import annotations

import pytest

from tertia.core.geometry import Base
from tertia.core.state import Unit
from tertia.rules.involuntary import (
    Interpenetration,
    Slide,
    away_from,
    carry_out,
    facing_from_clear,
    plan_scatter,
    plan_slide,
    towards,
)

from .block_support import TABLE, A, B, piece, state_of, tx_with

SIZE = (TABLE.width, TABLE.depth)
PASS, STOP, BLOCKED = Interpenetration.PASS_FRIENDS, Interpenetration.STOP, Interpenetration.BLOCKED


def line_up(*others: tuple[str, str, float]) -> tuple[Unit, ...]:
    """A unit at y=20 facing north, pushed south (heading 180) onto pieces at the ys given."""
    me = piece("me", A, 20.0, 20.0)
    return (me, *(piece(uid, side, 20.0, y) for uid, side, y in others))


def slide(*others: tuple[str, str, float], distance: float, policy: Interpenetration) -> Slide:
    units = line_up(*others)
    state = state_of(*units)
    return plan_slide(state, state.units["me"], heading=180.0, distance=distance, policy=policy,
                      table=SIZE)


def test_a_clear_push_back_goes_its_full_distance() -> None:
    s = slide(("far", A, 5.0), distance=4.0, policy=PASS)
    assert s.distance == 4.0 and s.end.y == 16.0 and s.end.facing == 0.0
    assert s.passed_through == () and s.stopped_by is None and not s.off_table


def test_passing_through_a_friend_is_reported_and_ends_clear_of_it() -> None:
    s = slide(("friend", A, 16.0), distance=3.0, policy=PASS)
    assert s.passed_through == ("friend",)
    # Clear of the friend: its south edge is at 15, so my north edge (y+1) reaches 15.
    assert s.end.y == pytest.approx(14.0) and s.distance == pytest.approx(6.0)


def test_passing_beyond_a_friend_keeps_the_distance_rolled() -> None:
    s = slide(("friend", A, 16.0), distance=9.0, policy=PASS)
    assert s.passed_through == ("friend",) and s.distance == 9.0


def test_an_enemy_stops_a_push_back_in_contact() -> None:
    s = slide(("foe", B, 15.0), distance=6.0, policy=PASS)
    assert s.stopped_by == "foe" and s.passed_through == ()
    assert s.distance == pytest.approx(3.0)


def test_an_enemy_behind_a_friend_stops_it_short_of_the_friend() -> None:
    """It never ends inside a friend: the enemy just beyond stops it before the friend."""
    s = slide(("friend", A, 16.0), ("foe", B, 13.5), distance=6.0, policy=PASS)
    assert s.stopped_by == "foe" and s.passed_through == ()
    assert s.distance == pytest.approx(2.0)


def test_going_on_to_clear_a_friend_it_passes_the_next_beyond_the_distance_wanted() -> None:
    """Clearing the first friend (6") carries it onto a second lying beyond the 3" wanted:
    it goes on until clear of that one too, never ending inside a friend."""
    s = slide(("friend", A, 16.0), ("next", A, 12.5), distance=3.0, policy=PASS)
    assert s.passed_through == ("friend", "next") and s.stopped_by is None
    assert s.distance == pytest.approx(9.5) and s.end.y == pytest.approx(10.5)


def test_an_enemy_met_only_in_going_on_to_clear_a_friend_stops_it_short_of_the_friend() -> None:
    """The enemy lies beyond the 3" wanted but before the friend is cleared: it stops short
    of the friend, in contact with neither."""
    s = slide(("friend", A, 16.0), ("foe", B, 12.5), distance=3.0, policy=PASS)
    assert s.stopped_by == "foe" and s.passed_through == ()
    assert s.distance == pytest.approx(2.0)


def test_stop_halts_at_the_first_friend_and_blocked_does_not_move() -> None:
    stopped = slide(("friend", A, 16.0), distance=5.0, policy=STOP)
    assert stopped.stopped_by == "friend" and stopped.distance == pytest.approx(2.0)
    blocked = slide(("friend", A, 16.0), distance=5.0, policy=BLOCKED)
    assert blocked.stopped_by == "friend" and blocked.distance == 0.0
    free = slide(("friend", A, 4.0), distance=5.0, policy=BLOCKED)
    assert free.distance == 5.0 and free.stopped_by is None


def test_a_piece_it_touches_behind_does_not_stop_a_slide_away() -> None:
    """The victor in contact in front does not hold a push-back away from it."""
    s = slide(("victor", B, 22.0), distance=2.0, policy=STOP)
    assert s.distance == 2.0 and s.stopped_by is None


def test_leaving_the_table_is_reported() -> None:
    s = slide(distance=25.0, policy=PASS)
    assert s.off_table and s.end.y == -5.0


def test_headings_away_and_towards() -> None:
    foe, me = Base(0.0, 10.0, 180.0, 4.0, 2.0), Base(0.0, 7.0, 0.0, 4.0, 2.0)
    assert away_from(foe, me) == 180.0 and towards(me, foe) == 0.0


def test_a_rout_moves_each_stand_its_own_distance() -> None:
    """ "Roll 2D6 for each unit stand and move that many inches away from foe"."""
    me = piece("me", A, 20.0, 20.0, width=6.0, depth=1.0)
    friend = piece("friend", A, 18.0, 15.0, width=2.0, depth=1.0)
    state = state_of(me, friend)
    stands = [Base(x, 20.0, 0.0, 2.0, 1.0) for x in (18.0, 20.0, 22.0)]
    slides = plan_scatter(state, state.units["me"], stands, [7.0, 3.0, 25.0], heading=180.0,
                          policy=PASS, table=SIZE)
    assert [s.passed_through for s in slides] == [("friend",), (), ()]
    assert [s.end.y for s in slides] == [13.0, 17.0, -5.0]
    assert [s.off_table for s in slides] == [False, False, True]
    with pytest.raises(ValueError, match="3 stands but 1 distances"):
        plan_scatter(state, state.units["me"], stands, [1.0], heading=0.0, policy=PASS, table=SIZE)


def test_carrying_out_a_slide_moves_the_piece_keeping_its_facing() -> None:
    state = state_of(piece("me", A, 20.0, 20.0))
    tx = tx_with(state)
    s = plan_slide(state, state.units["me"], heading=180.0, distance=3.0, policy=PASS, table=SIZE)
    carry_out(tx, "me", s, "push back")
    moved = tx.state.units["me"]
    assert (moved.x, moved.y, moved.facing) == (20.0, 17.0, 0.0)
    assert tx.events[0].reason == "push back"
    nowhere = plan_slide(state, state.units["me"], heading=180.0, distance=0.0, policy=PASS, table=SIZE)
    carry_out(tx, "me", nowhere, "push back")
    assert len(tx.events) == 1


@pytest.mark.parametrize(("other_x", "blocked_by"), [
    (73.3, "other"),  # its flank swings a third of an inch over the piece beside it
    (73.62, None),  # a thousandth of an inch over: it touches
    (78.0, None),  # well clear
])
def test_a_charger_turned_where_it_stands_over_another_piece_is_blocked_by_it(
        other_x: float, blocked_by: str | None) -> None:
    """A charger turns to face its target where it stands: a regiment of horse (6.25" wide)
    turning through 105 degrees swings its flank over a piece standing just beside it, which
    then keeps it from facing the target there, though the charge would leave it behind.
    Coming a hair over the piece's edge is a touch; further off, it faces the target where
    it stands."""
    charger = piece("me", A, 70.34, 50.71, 5.56, 6.25, 1.25)
    other = piece("other", B, other_x, 54.22, 180.0, 6.25, 1.25)
    target = piece("target", B, 60.5, 49.06, 80.0)
    state = state_of(charger, other, target)
    turned = charger.evolve(facing=260.48)
    facing = facing_from_clear(state, turned, target, SIZE)
    assert facing.blocked_by == blocked_by and facing.back == 0.0 and facing.start == turned.base
