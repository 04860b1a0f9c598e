"""The moves an action caused, for the page to draw on the table: every path a piece
went along, whether it moved itself or was moved (pushed back, routed, pursuing), and
each stand of a unit whose stands scattered in a rout or gathered again.

Each is ``{"unit", "path", "reason"}`` (``path`` a list of ``[x, y]`` points, the start
first; ``reason`` the event's: ``move``, ``charge``, ``pushed back`` ..., ``scattered`` or
``gathered``), a scattered stand with its index among the unit's stands (``stand``).
Where a stand starts is read from the position as it stood when the stands scattered,
so the events are run through the reducer up to each of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tertia.core.events import Event, StandsGathered, StandsScattered, UnitMoved
from tertia.core.reducer import reduce
from tertia.core.state import GameState

STANDS = (StandsScattered, StandsGathered)


def moves_of(before: GameState, events: Sequence[Event], shown: Sequence[Event]) -> list[dict[str, Any]]:
    """The moves among ``shown`` (those of ``events`` the viewer may see), in order;
    ``before`` is the position the events began from."""
    visible = {id(e) for e in shown}
    if not any(isinstance(e, STANDS) for e in shown):
        return [_moved(e) for e in events if isinstance(e, UnitMoved) and id(e) in visible]
    out: list[dict[str, Any]] = []
    state = before
    for e in events:
        if id(e) in visible:
            if isinstance(e, UnitMoved):
                out.append(_moved(e))
            elif isinstance(e, StandsScattered):
                out.extend(_scattered(state, e))
            elif isinstance(e, StandsGathered) and e.unit in state.units:
                u = state.units[e.unit]
                out.append({"unit": e.unit, "path": [[u.x, u.y], [e.x, e.y]], "reason": "gathered"})
        state = reduce(state, e)
    return out


def _moved(e: UnitMoved) -> dict[str, Any]:
    return {"unit": e.unit, "path": [list(p) for p in e.path], "reason": e.reason}


def _scattered(state: GameState, e: StandsScattered) -> list[dict[str, Any]]:
    """Each stand from where it stood (its own place if the unit had already scattered,
    else the unit's centre) to where it fled."""
    u = state.units.get(e.unit)
    if u is None:
        return []
    together = len(u.stands) != len(e.places)
    starts = [(u.x, u.y)] * len(e.places) if together else [(s.x, s.y) for s in u.stands]
    return [{"unit": e.unit, "path": [list(a), list(b)], "reason": "scattered", "stand": i}
            for i, (a, b) in enumerate(zip(starts, e.places, strict=True))
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) > 1e-6]
