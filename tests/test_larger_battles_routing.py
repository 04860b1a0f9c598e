"""Routing Units: hit limits, cover, rivers, support and immediate reassessment
(larger-battles), including the author's two support examples from the comments."""

from __future__ import annotations

import pytest

from tertia.core.actions import EndPhase, Move
from tertia.core.state import GameState
from tertia.rulesets.larger_battles.routing import hit_limit

from .support import P, R, act, make_game, position, unit


def limit(game, state: GameState, uid: str) -> int:  # type: ignore[no-untyped-def]
    return hit_limit(game.table, state, state.units[uid], game.ruleset.options).value


def with_hits(state: GameState, uid: str, hits: int) -> GameState:
    return state.with_unit(state.units[uid].evolve(hits=hits))


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("foot", 3), ("commanded_shot", 3), ("horse", 2), ("dragoons", 2), ("artillery", 1)],
)
def test_base_hit_limits(kind: str, expected: int) -> None:
    """"Infantry units rout on taking 3 or more hits, cavalry and dragoons 2 or more hits,
    and artillery 1 or more hits." """
    game = make_game([unit("a", P, kind, 30, 10), unit("e", R, "foot", 30, 40, 180)])
    assert limit(game, position(game), "a") == expected


def test_three_in_a_line_only_the_centre_gains() -> None:
    """Author's reply: "A line of say 3 infantry units, all engaged, the centre unit would be
    able to withstand an additional hit as it is the only one within two other units." """
    game = make_game([
        unit("l", P, "foot", 20, 10), unit("c", P, "foot", 25, 10), unit("r", P, "foot", 30, 10),
        unit("e1", R, "foot", 20, 15, 180), unit("e2", R, "foot", 25, 15, 180),
        unit("e3", R, "foot", 30, 15, 180),
    ])
    state = position(game)
    assert [limit(game, state, u) for u in ("l", "c", "r")] == [3, 4, 3]


def test_two_in_line_with_a_third_behind_all_gain() -> None:
    """Author's reply: "two infantry units in a line with a third infantry unit in a second
    row supporting would allow all 3 units to withstand an additional hit." """
    game = make_game([
        unit("a", P, "foot", 20, 10), unit("b", P, "foot", 25, 10), unit("c", P, "foot", 22.5, 7),
        unit("e", R, "foot", 22, 15, 180),
    ])
    state = position(game)
    assert [limit(game, state, u) for u in ("a", "b", "c")] == [4, 4, 4]


def test_support_must_be_similar_units() -> None:
    """Support: infantry for infantry and cavalry for cavalry."""
    game = make_game([
        unit("f", P, "foot", 25, 10), unit("h1", P, "horse", 20, 10, command="right"),
        unit("h2", P, "horse", 30, 10, command="right"), unit("e", R, "foot", 25, 40, 180),
    ])
    assert limit(game, position(game), "f") == 3


def test_dragoons_in_towns_and_hedged_fields_gain_cover() -> None:
    """Routing 1, Cover: dragoons in hedged fields or towns increase their hit limit by 1."""
    town = {"type": "town", "polygon": [[10, 5], [20, 5], [20, 15], [10, 15]]}
    hedged = {"type": "field", "hedged": True, "polygon": [[30, 5], [40, 5], [40, 15], [30, 15]]}
    open_field = {"type": "field", "polygon": [[50, 5], [60, 5], [60, 15], [50, 15]]}
    game = make_game(
        [unit("d1", P, "dragoons", 15, 10), unit("d2", P, "dragoons", 35, 10),
         unit("d3", P, "dragoons", 55, 10), unit("d4", P, "dragoons", 65, 30),
         unit("f", P, "foot", 15, 30), unit("e", R, "foot", 40, 44, 180)],
        terrain=[town, hedged, open_field],
    )
    state = position(game)
    assert [limit(game, state, u) for u in ("d1", "d2", "d3", "d4")] == [3, 3, 2, 2]
    broad = make_game(
        [unit("d3", P, "dragoons", 55, 10), unit("e", R, "foot", 40, 44, 180)],
        terrain=[open_field], dragoon_cover="fields-broken-and-towns",
    )
    assert limit(broad, position(broad), "d3") == 3


def test_defending_a_river_against_attackers_across_it() -> None:
    """Routing 2, Rivers: +1 if defending a river and all attacking units are on the
    opposite bank; one enemy on the same bank removes the bonus."""
    river = {"type": "river", "line": [[0, 20], [72, 20]], "width": 2}
    game = make_game(
        [unit("d", P, "foot", 30, 17.5), unit("e", R, "foot", 30, 22.5, 180)], terrain=[river]
    )
    state = position(game)
    assert limit(game, state, "d") == 4
    flanker = make_game(
        [unit("d", P, "foot", 30, 17.5), unit("e", R, "foot", 30, 22.5, 180),
         unit("e2", R, "foot", 36, 17.5, 270)],
        terrain=[river],
    )
    assert limit(flanker, position(flanker), "d") == 3


def test_a_unit_routs_at_its_limit_and_is_removed() -> None:
    """A unit is routed and removed from play once it has reached its hit limit."""
    game = make_game([unit("h", P, "horse", 30, 10, command="right"), unit("e", R, "foot", 30, 40, 180)])
    state = with_hits(position(game, phase="combat"), "h", 2)
    state, _ = act(game, state, EndPhase())
    assert state.units["h"].removed == "routed"


def test_reassess_when_support_moves_away() -> None:
    """"Whenever a unit situation changes, for example ... a unit lacks support, always
    reassess immediately": a centre unit with 3 hits holds only while both neighbours stay."""
    game = make_game([
        unit("l", P, "foot", 20, 10, command="left"), unit("c", P, "foot", 25, 10),
        unit("r", P, "foot", 30, 10, command="right"), unit("e", R, "foot", 25, 40, 180),
    ])
    state = with_hits(position(game, orders=((f"{P}:right", "move"),)), "c", 3)
    assert limit(game, state, "c") == 4
    state, _ = act(game, state, Move(unit="r", waypoints=((30, 5),)))
    assert state.units["c"].removed == "routed"


def test_a_routed_unit_shows_its_hits_without_a_limit_from_where_its_base_lies() -> None:
    """The hit limit is "as things stand": support raises it for a unit in play, but a
    unit gone from the field stands nowhere, so its hits are shown without a limit (its
    base still lies among its supports)."""
    game = make_game([
        unit("a", P, "foot", 20, 10), unit("b", P, "foot", 25, 10), unit("c", P, "foot", 22.5, 7),
        unit("e", R, "foot", 22, 15, 180),
    ])
    state = with_hits(position(game), "a", 3)
    presentation = game.ruleset.presentation()
    [hits] = [f for f in presentation.facts(game.table, state, state.units["a"], P) if f.key == "hits"]
    assert (hits.value, hits.limit) == (3, 4) and hits.note
    gone = state.with_unit(state.units["a"].evolve(hits=4, removed="routed"))
    [hits] = [f for f in presentation.facts(game.table, gone, gone.units["a"], P) if f.key == "hits"]
    assert (hits.value, hits.limit, hits.note) == (4, None, None)
