"""The one reducer: ``reduce(state, event) -> state``. Nothing else changes a state in play."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from tertia.core import events as ev
from tertia.core.decision import Decision
from tertia.core.state import GameState, Stand

POSITION_DECIMALS = 6
"""Positions are rounded so that states hash alike on every machine's maths library."""

E = TypeVar("E", bound=ev.Event)
_HANDLERS: dict[type[ev.Event], Callable[[GameState, Any], GameState]] = {}


Handler = Callable[[GameState, E], GameState]


def handles(cls: type[E]) -> Callable[[Handler[E]], Handler[E]]:
    def register(fn: Handler[E]) -> Handler[E]:
        _HANDLERS[cls] = fn
        return fn

    return register


def reduce(state: GameState, event: ev.Event) -> GameState:
    handler = _HANDLERS.get(type(event))
    return state if handler is None else handler(state, event)


@handles(ev.GameStarted)
def _started(s: GameState, e: ev.GameStarted) -> GameState:
    return s.evolve(first_side=e.first_side)


@handles(ev.TurnBegan)
def _turn(s: GameState, e: ev.TurnBegan) -> GameState:
    return s.evolve(turn=e.turn, active=e.side, marks={})


@handles(ev.PhaseBegan)
def _phase(s: GameState, e: ev.PhaseBegan) -> GameState:
    return s.evolve(phase=e.phase)


@handles(ev.Marked)
def _marked(s: GameState, e: ev.Marked) -> GameState:
    return s.with_mark(e.mark, e.ident)


@handles(ev.UnitMoved)
def _moved(s: GameState, e: ev.UnitMoved) -> GameState:
    u = s.units[e.unit]
    x, y = e.path[-1]
    return s.with_unit(
        u.evolve(
            x=round(x, POSITION_DECIMALS),
            y=round(y, POSITION_DECIMALS),
            facing=round(e.facing % 360.0, POSITION_DECIMALS),
        )
    )


@handles(ev.UnitFormed)
def _formed(s: GameState, e: ev.UnitFormed) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(
        formation=e.formation, x=round(e.x, POSITION_DECIMALS), y=round(e.y, POSITION_DECIMALS),
        width=e.width, depth=e.depth,
    ))


@handles(ev.StandsScattered)
def _scattered(s: GameState, e: ev.StandsScattered) -> GameState:
    u = s.units[e.unit]
    gone = e.gone or (False,) * len(e.places)
    stands = tuple(Stand(round(x, POSITION_DECIMALS), round(y, POSITION_DECIMALS), u.facing, e.width,
                         e.depth, "off the table" if out else None)
                   for (x, y), out in zip(e.places, gone, strict=True))
    flag = next((st for st in stands if st.removed is None), stands[0])
    return s.with_unit(u.evolve(x=flag.x, y=flag.y, width=e.width, depth=e.depth, stands=stands))


@handles(ev.StandsGathered)
def _gathered(s: GameState, e: ev.StandsGathered) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(x=round(e.x, POSITION_DECIMALS), y=round(e.y, POSITION_DECIMALS),
                                facing=round(e.facing % 360.0, POSITION_DECIMALS), width=e.width,
                                depth=e.depth, stands=()))


@handles(ev.UnitTurned)
def _turned(s: GameState, e: ev.UnitTurned) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(facing=round(e.facing % 360.0, POSITION_DECIMALS)))


@handles(ev.UnitDeployed)
def _deployed(s: GameState, e: ev.UnitDeployed) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(
        u.evolve(
            x=round(e.x, POSITION_DECIMALS),
            y=round(e.y, POSITION_DECIMALS),
            facing=round(e.facing % 360.0, POSITION_DECIMALS),
            removed=None,
        )
    )


@handles(ev.UnitRemoved)
def _removed(s: GameState, e: ev.UnitRemoved) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(removed=e.reason))


@handles(ev.ObjectiveTaken)
def _objective(s: GameState, e: ev.ObjectiveTaken) -> GameState:
    return s.evolve(
        objectives=tuple(
            replace(o, taken_by=e.side) if o.name == e.objective else o for o in s.objectives
        ),
    )


@handles(ev.DecisionAwaited)
def _awaited(s: GameState, e: ev.DecisionAwaited) -> GameState:
    return s.evolve(decisions=(*s.decisions, Decision(e.side, e.kind, e.context)))


@handles(ev.DecisionMade)
def _made(s: GameState, e: ev.DecisionMade) -> GameState:
    return s.evolve(decisions=_without_first(s.decisions, e.side, e.kind))


def _without_first(decisions: tuple[Decision, ...], side: str, kind: str) -> tuple[Decision, ...]:
    """The awaited decisions without the first that ``side`` was asked of ``kind``."""
    for i, d in enumerate(decisions):
        if d.side == side and d.kind == kind:
            return (*decisions[:i], *decisions[i + 1:])
    return decisions


@handles(ev.UnitStatusChanged)
def _status(s: GameState, e: ev.UnitStatusChanged) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(extra={**u.extra, e.key: e.value}))


@handles(ev.GameDataChanged)
def _data(s: GameState, e: ev.GameDataChanged) -> GameState:
    return s.with_values({e.key: e.value})


@handles(ev.GameEnded)
def _ended(s: GameState, e: ev.GameEnded) -> GameState:
    return s.evolve(
        phase="over",
        result={
            "winner": e.winner,
            "score": dict(e.score),
            "reason": e.reason,
            "breakdown": dict(e.breakdown),
        },
    )
