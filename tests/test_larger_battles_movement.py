"""Orders and Movement (larger-battles): allowances, turning, the 3" stop, terrain."""

from __future__ import annotations

import pytest

from tertia.core.actions import Move
from tertia.rules.hits import piece
from tertia.rulesets.larger_battles.actions import Bombard, GiveOrder
from tertia.rulesets.larger_battles.orders import is_ordered, ordered_units

from .support import P, R, act, codes, make_game, position, unit


def ordered(game, uid: str):  # type: ignore[no-untyped-def]
    return position(game, orders=((uid, "move"),))


@pytest.mark.parametrize(
    ("kind", "allowance"), [("foot", 6), ("dragoons", 9), ("horse", 12), ("artillery", 3)]
)
def test_movement_allowances(kind: str, allowance: float) -> None:
    """Movement Allowances: infantry 6", dragoons 9", cavalry 12", artillery 3"."""
    command = {"horse": "right"}.get(kind)
    game = make_game([unit("u", P, kind, 30, 5, command=command), unit("e", R, "foot", 60, 45, 180)])
    state = ordered(game, "u")
    assert not codes(game, state, Move(unit="u", waypoints=((30, 5 + allowance),)))
    assert codes(game, state, Move(unit="u", waypoints=((30, 5 + allowance + 0.1),))) == ["movement.TOO_FAR"]


def test_commanders_move_12() -> None:
    game = make_game([unit("u", P, "foot", 10, 5), unit("e", R, "foot", 60, 45, 180)],
                     commanders=[{"id": "c", "side": P, "command": "centre", "x": 30, "y": 5}])
    state = ordered(game, "c")
    assert not codes(game, state, Move(unit="c", waypoints=((30, 17),)))
    assert codes(game, state, Move(unit="c", waypoints=((30, 17.5),))) == ["movement.TOO_FAR"]


def test_a_move_needs_an_order_and_orders_are_two() -> None:
    """Orders: a player gives two orders a turn; one moves a unit or a whole command."""
    game = make_game([unit("a", P, "foot", 20, 5), unit("b", P, "foot", 30, 5),
                      unit("c", P, "horse", 50, 5, command="right"), unit("e", R, "foot", 60, 45, 180)])
    state = position(game)
    assert codes(game, state, Move(unit="a", waypoints=((20, 8),))) == ["larger-battles.NOT_ORDERED"]
    state, _ = act(game, state, GiveOrder(target="centre"))
    assert not codes(game, state, Move(unit="a", waypoints=((20, 8),)))
    assert not codes(game, state, Move(unit="b", waypoints=((30, 8),)))
    assert codes(game, state, GiveOrder(target="centre")) == ["larger-battles.ALREADY_ORDERED"]
    state, _ = act(game, state, GiveOrder(target="c"))
    assert codes(game, state, GiveOrder(target="right")) == ["larger-battles.NO_ORDERS_LEFT"]
    assert codes(game, state, GiveOrder(target="nowhere")) == ["core.UNKNOWN_COMMAND"]


def test_an_order_to_move_that_would_move_nothing_is_refused() -> None:
    """Orders: an order is "necessary to move" a unit or a command; one to a unit its
    command's order already covers, or to pieces that have all moved, moves nothing."""
    game = make_game([unit("a", P, "foot", 20, 5), unit("b", P, "foot", 30, 5),
                      unit("c", P, "horse", 50, 5, command="right"), unit("e", R, "foot", 60, 45, 180)])
    state, _ = act(game, position(game), GiveOrder(target="c"))
    state, _ = act(game, state, Move(unit="c", waypoints=((50, 9),)))
    assert codes(game, state, GiveOrder(target="right")) == ["larger-battles.MOVES_NOTHING"]
    refused = game.validate(state, GiveOrder(target="right"))[0].message
    assert refused.startswith("every piece of Parliament's right command has already moved")
    state, _ = act(game, position(game), GiveOrder(target="centre"))
    assert codes(game, state, GiveOrder(target="a")) == ["larger-battles.MOVES_NOTHING"]
    assert "already has a move order, its command's" in game.validate(state, GiveOrder(target="a"))[0].message
    # A piece that may still move keeps the order worth giving.
    state, _ = act(game, position(game), GiveOrder(target="a"))
    state, _ = act(game, state, Move(unit="a", waypoints=((20, 8),)))
    assert not codes(game, state, GiveOrder(target="centre"))  # b has not moved
    moved = game.validate(state, GiveOrder(target="a"))
    assert [v.code for v in moved] == ["larger-battles.ALREADY_ORDERED"]


def test_the_ordered_units_are_those_ordered_alone_or_by_command() -> None:
    game = make_game([unit("a", P, "foot", 20, 5), unit("b", P, "foot", 30, 5),
                      unit("c", P, "horse", 50, 5, command="right"),
                      unit("d", P, "horse", 60, 5, command="right"), unit("e", R, "foot", 60, 45, 180)])
    given = ((), (("c", "move"),), ((f"{P}:centre", "move"), ("d", "move")), ((f"{P}:right", "bombard"),))
    for orders in given:
        state = position(game, orders=orders)
        for purpose in ("move", "bombard"):
            expected = [u.id for u in state.iter_units(P) if is_ordered(state, u, purpose)]
            assert [u.id for u in ordered_units(state, P, purpose)] == expected
    assert [u.id for u in ordered_units(position(game, orders=((f"{P}:centre", "move"), ("d", "move"))),
                                        P, "move")] == ["a", "b", "d"]


def test_each_unit_moves_once() -> None:
    game = make_game([unit("a", P, "foot", 20, 5), unit("e", R, "foot", 60, 45, 180)])
    state, _ = act(game, ordered(game, "a"), Move(unit="a", waypoints=((20, 7),)))
    assert codes(game, state, Move(unit="a", waypoints=((20, 9),))) == ["core.ALREADY_MOVED"]


def test_turning_limits_the_move_to_3() -> None:
    """Turning: pivot at the start and/or end; all movement is limited to 3" when turning."""
    game = make_game([unit("h", P, "horse", 30, 10, command="right"), unit("e", R, "foot", 60, 45, 180)])
    state = ordered(game, "h")
    assert not codes(game, state, Move(unit="h", waypoints=((33, 10),), face_before=90))
    assert codes(game, state, Move(unit="h", waypoints=((33.5, 10),), face_before=90)) == ["movement.TOO_FAR"]
    assert codes(game, state, Move(unit="h", waypoints=((30, 14),), face_after=45)) == ["movement.TOO_FAR"]
    assert not codes(game, state, Move(unit="h", waypoints=(), face_before=180, face_after=200))


def test_units_stop_on_reaching_3_inches_of_the_enemy() -> None:
    """Enemy Units: units must cease movement upon moving to within 3" of an enemy unit."""
    game = make_game([unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 17, 180)])
    state = ordered(game, "a")
    # Fronts are 5" apart; 2" closes to exactly 3".
    assert not codes(game, state, Move(unit="a", waypoints=((30, 12),)))
    assert codes(game, state, Move(unit="a", waypoints=((30, 13),))) == ["movement.ENEMY_ZONE"]
    # Passing through the zone and out again is not allowed either.
    assert codes(game, state, Move(unit="a", waypoints=((34, 12.5), (40, 12.5)))) != []


def test_within_3_inches_only_turn_or_move_directly_away() -> None:
    """Enemy Units: "They can only turn or move directly away from the enemy." """
    game = make_game([unit("a", P, "foot", 30, 10), unit("e", R, "foot", 30, 14, 180)])
    state = ordered(game, "a")
    assert not codes(game, state, Move(unit="a", waypoints=((30, 5),)))
    assert codes(game, state, Move(unit="a", waypoints=((35, 10),))) == ["movement.NOT_AWAY"]
    assert not codes(game, state, Move(unit="a", waypoints=(), face_before=45))


def test_no_interpenetration() -> None:
    """Interpenetration: no unit or commander may pass through other units."""
    game = make_game([unit("a", P, "foot", 30, 5), unit("b", P, "foot", 30, 9, command="left"),
                      unit("e", R, "foot", 60, 45, 180)])
    state = ordered(game, "a")
    assert codes(game, state, Move(unit="a", waypoints=((30, 11),))) == ["movement.COLLISION"]
    # Sliding round the friend is fine; ending in base contact is fine.
    assert not codes(game, state, Move(unit="a", waypoints=((26, 5),)))
    assert not codes(game, state, Move(unit="a", waypoints=((30, 7),)))


@pytest.mark.parametrize("kind", ["woods", "marsh", "lake"])
def test_impassable_terrain(kind: str) -> None:
    """Terrain 1 and 4: woods, marshland and lakes are impassable to all units."""
    patch = {"type": kind, "polygon": [[25, 10], [35, 10], [35, 14], [25, 14]]}
    game = make_game([unit("h", P, "horse", 30, 5, command="right"), unit("e", R, "foot", 60, 45, 180)],
                     terrain=[patch])
    state = ordered(game, "h")
    assert codes(game, state, Move(unit="h", waypoints=((30, 16),))) == ["movement.IMPASSABLE"]
    assert not codes(game, state, Move(unit="h", waypoints=((30, 8.9),)))


def test_rivers_only_at_fords_and_bridges() -> None:
    """Terrain 6: rivers may only be crossed via bridges or fords."""
    river = {"type": "river", "line": [[0, 12], [72, 12]], "width": 2}
    ford = {"type": "ford", "polygon": [[27, 10], [33, 10], [33, 14], [27, 14]]}
    game = make_game([unit("h", P, "horse", 30, 5, command="right"),
                      unit("g", P, "horse", 50, 5, command="right"), unit("e", R, "foot", 60, 45, 180)],
                     terrain=[river, ford])
    state = position(game, orders=((f"{P}:right", "move"),))
    assert not codes(game, state, Move(unit="h", waypoints=((30, 17),)))
    assert codes(game, state, Move(unit="g", waypoints=((50, 17),))) == ["movement.RIVER"]


def test_cavalry_may_not_end_in_a_town() -> None:
    """Terrain 2: cavalry may not end their move in a town (infantry may)."""
    town = {"type": "town", "polygon": [[25, 8], [35, 8], [35, 14], [25, 14]]}
    game = make_game([unit("h", P, "horse", 30, 4, command="right"), unit("f", P, "foot", 30, 20),
                      unit("e", R, "foot", 60, 45, 180)], terrain=[town])
    state = position(game, orders=((f"{P}:right", "move"), ("f", "move")))
    assert codes(game, state, Move(unit="h", waypoints=((30, 11),))) == ["movement.CANNOT_END_HERE"]
    assert not codes(game, state, Move(unit="h", waypoints=((30, 16),)))
    assert not codes(game, state, Move(unit="f", waypoints=((30, 14),)))


def test_moving_up_a_hill_is_3_inches() -> None:
    """Terrain 5: all units move 3" when moving up a hill."""
    hill = {"type": "hill", "polygon": [[20, 10], [40, 10], [40, 30], [20, 30]]}
    game = make_game([unit("h", P, "horse", 30, 5, command="right"),
                      unit("g", P, "horse", 30, 20, command="right"), unit("e", R, "foot", 60, 45, 180)],
                     terrain=[hill])
    state = position(game, orders=((f"{P}:right", "move"),))
    assert codes(game, state, Move(unit="h", waypoints=((30, 9),))) == []
    assert codes(game, state, Move(unit="h", waypoints=((30, 12),))) == ["movement.TOO_FAR"]
    # Moving along the top of the hill is not moving up it.
    assert not codes(game, state, Move(unit="g", waypoints=((30, 28),)))


def test_road_bonus_only_if_the_whole_move_is_on_the_road() -> None:
    """Terrain 7: +3" if the entire move is spent on the road; not when charging."""
    road = {"type": "road", "line": [[30, 0], [30, 48]], "width": 3}
    game = make_game([unit("f", P, "foot", 30, 5), unit("g", P, "foot", 40, 5, command="left"),
                      unit("e", R, "foot", 60, 45, 180)], terrain=[road])
    state = position(game, orders=((f"{P}:centre", "move"), (f"{P}:left", "move")))
    assert not codes(game, state, Move(unit="f", waypoints=((30, 14),)))
    assert codes(game, state, Move(unit="g", waypoints=((40, 14),))) == ["movement.TOO_FAR"]


def test_road_bonus_not_when_charging() -> None:
    road = {"type": "road", "line": [[30, 0], [30, 48]], "width": 3}
    game = make_game([unit("f", P, "foot", 30, 5), unit("e", R, "foot", 30, 19, 180)], terrain=[road])
    state = ordered(game, "f")
    # Ending within 3" of the enemy is a charge: the 9" road move is refused.
    assert codes(game, state, Move(unit="f", waypoints=((30, 14),))) == ["movement.TOO_FAR"]


def test_artillery_stays_put_once_fired() -> None:
    """Movement, Artillery: once fired they must remain stationary and can only pivot."""
    game = make_game([unit("g", P, "artillery", 30, 5), unit("e", R, "foot", 30, 20, 180)])
    state = position(game, phase="bombardment", orders=(("g", "bombard"),))
    state, _ = act(game, state, Bombard(gun="g", target="e"), [3])
    assert piece(state.units["g"]).fired

    state = state.evolve(phase="movement", marks={"ordered_move": ("g",), "orders": ("g",)})
    assert codes(game, state, Move(unit="g", waypoints=((30, 6),))) == ["movement.STATIONARY"]
    assert not codes(game, state, Move(unit="g", waypoints=(), face_before=20))


def test_units_stay_on_the_table() -> None:
    game = make_game([unit("h", P, "horse", 5, 5, command="right"), unit("e", R, "foot", 60, 45, 180)])
    state = ordered(game, "h")
    assert codes(game, state, Move(unit="h", waypoints=((1, 5),))) == ["movement.OFF_TABLE"]
