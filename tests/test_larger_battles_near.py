"""larger-battles' questions near a combat or a mover (commanders within reach, supports)
read only the pieces near it, and answer as reading every piece would."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tertia.core.state import GameState, Unit, UnitKind
from tertia.rules.measuring import within
from tertia.rulesets.larger_battles.commanders import (
    COMMAND_REACH,
    TOUCH,
    iter_contacted_commanders,
    iter_eligible_commanders,
)
from tertia.rulesets.larger_battles.routing import SUPPORT_RANGE, is_supported, supporters

coordinate = st.floats(min_value=-20.0, max_value=20.0, allow_nan=False).map(lambda v: round(v, 2))
Place = tuple[float, float, float, bool]
place = st.tuples(coordinate, coordinate, st.sampled_from([0.0, 90.0, 33.0]), st.booleans())


def _state(places: list[Place]) -> GameState:
    units: dict[str, Unit] = {}
    for i, (x, y, facing, commander) in enumerate(places):
        kind = UnitKind.COMMANDER if commander else (UnitKind.FOOT if i % 3 else UnitKind.HORSE)
        width, depth = (1.0, 1.0) if commander else (4.0, 2.0)
        units[f"u{i:02d}"] = Unit(f"u{i:02d}", "blue" if i % 2 else "red", kind, "c", x, y, facing,
                                  width, depth)
    return GameState(("red", "blue"), 1, "red", "combat", units)


@settings(max_examples=150, deadline=None)
@given(st.lists(place, min_size=3, max_size=30))
def test_near_questions_answer_as_reading_every_piece(places: list[Place]) -> None:
    state = _state(places)
    pieces = list(state.iter_units())
    for a in pieces:
        for side in state.sides:
            combatants = (a, pieces[0])
            expected = [c.id for c in state.iter_units(side) if c.is_commander
                        and any(within(c, u, COMMAND_REACH) for u in combatants)]
            assert [c.id for c in iter_eligible_commanders(state, side, combatants)] == expected
        touched = [] if a.is_commander else [
            c.id for c in state.iter_units(state.opponent(a.side)) if c.is_commander and within(a, c, TOUCH)]
        assert [c.id for c in iter_contacted_commanders(state, a)] == touched
        assert is_supported(state, a) == (len(supporters(state, a)) >= 2)
        assert all(within(a, s, SUPPORT_RANGE) for s in supporters(state, a))
