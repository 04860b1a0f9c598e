"""Charge yr Pikes!' own events. Each says how the reducer applies it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.events import Event
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.rulesets.charge_yr_pikes.values import game_data


@dataclass(frozen=True, slots=True)
class CommandResponded(Event):
    """A command response die (Movement 5 A): ``officer`` (None: "Regiment without
    officer") rolled ``face`` on a D10 for ``units``; ``obeyed`` is whether they may move.
    The units that may move on the card being played gather in the game's ``moving``."""

    type: ClassVar[str] = "cyp_command_responded"
    card: str
    officer: str | None
    units: tuple[str, ...]
    face: int
    obeyed: bool


def _game(s: GameState, **values: Any) -> GameState:
    return s.evolve(own=game_data(s).evolve(**values))


@handles(CommandResponded)
def _responded(s: GameState, e: CommandResponded) -> GameState:
    if not e.obeyed:
        return s
    moving = game_data(s).moving
    return _game(s, moving=(*moving, *(u for u in e.units if u not in moving)))


@dataclass(frozen=True, slots=True)
class UnitChanged(Event):
    """Some of a unit's own values changed (its formation, disorder, morale ...):
    ``values`` holds (field, new value) pairs; ``why`` says what caused it, for the log."""

    type: ClassVar[str] = "cyp_unit_changed"
    unit: str
    values: tuple[tuple[str, Any], ...]
    why: str


@handles(UnitChanged)
def _changed(s: GameState, e: UnitChanged) -> GameState:
    u = s.units[e.unit]
    return s.with_unit(u.evolve(**dict(e.values)))


def change(tx: Tx, unit_id: str, why: str, **values: Any) -> None:
    """Record that ``unit_id``'s values change to ``values`` (nothing when none differs)."""
    own = tx.state.units[unit_id].own
    changed = tuple((k, v) for k, v in values.items() if getattr(own, k) != v)
    if changed:
        tx.emit(UnitChanged(unit=unit_id, values=changed, why=why))


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A brigade card was turned over: ``side`` acts on it (Sequence of play A)."""

    type: ClassVar[str] = "cyp_card_played"
    card: str
    side: str


@handles(CardPlayed)
def _played(s: GameState, e: CardPlayed) -> GameState:
    return _game(s.evolve(active=e.side), card=e.card, moving=(), moved_on_card=(), reformed=())


@dataclass(frozen=True, slots=True)
class CardDone(Event):
    """The side has finished with the card in play."""

    type: ClassVar[str] = "cyp_card_done"
    card: str


@handles(CardDone)
def _done(s: GameState, e: CardDone) -> GameState:
    return _game(s, card=None, moving=(), moved_on_card=(), reformed=())


@dataclass(frozen=True, slots=True)
class MovedOnCard(Event):
    """``unit`` moved (``moved``) or changed formation (not ``moved``) on the card."""

    type: ClassVar[str] = "cyp_moved_on_card"
    unit: str
    moved: bool = True


@handles(MovedOnCard)
def _moved_on_card(s: GameState, e: MovedOnCard) -> GameState:
    g = game_data(s)
    if e.moved:
        return _game(s, moved_on_card=(*g.moved_on_card, e.unit))
    return _game(s, reformed=(*g.reformed, e.unit))


@dataclass(frozen=True, slots=True)
class ChargeMade(Event):
    """``attacker`` charged ``target`` from (``x``, ``y``) facing ``facing``, losing
    ``fatigued`` men to fatigue; the combat is fought in the close combat phase."""

    type: ClassVar[str] = "cyp_charge_made"
    attacker: str
    target: str
    x: float
    y: float
    facing: float
    fatigued: int = 0


@handles(ChargeMade)
def _charged(s: GameState, e: ChargeMade) -> GameState:
    made = (e.attacker, e.target, e.x, e.y, e.facing, e.fatigued)
    return _game(s, charges=(*game_data(s).charges, made))


@dataclass(frozen=True, slots=True)
class PhaseStep(Event):
    """``side`` gives its orders for fire step ``step`` (Sequence of play C, D, E)."""

    type: ClassVar[str] = "cyp_phase_step"
    step: str
    side: str


@handles(PhaseStep)
def _step(s: GameState, e: PhaseStep) -> GameState:
    return _game(s.evolve(active=e.side), step=e.step, step_side=e.side)


@dataclass(frozen=True, slots=True)
class FireOrdered(Event):
    """``unit`` is ordered to fire at ``target`` this step: ``kind`` is "musket",
    "galloper", "ball" or "canister"; ``side`` gave the order (the other side may not see
    it until the step is worked out)."""

    type: ClassVar[str] = "cyp_fire_ordered"
    unit: str
    target: str
    kind: str
    side: str = ""


@handles(FireOrdered)
def _ordered(s: GameState, e: FireOrdered) -> GameState:
    return _game(s, orders=(*game_data(s).orders, (e.unit, e.target, e.kind)))


@dataclass(frozen=True, slots=True)
class OrdersDone(Event):
    """``side`` has given all its fire orders for the step."""

    type: ClassVar[str] = "cyp_orders_done"
    side: str


@dataclass(frozen=True, slots=True)
class StepOver(Event):
    """A fire step was worked out (its orders are spent), or the close combat phase was
    fought (``charges`` too: the turn's charges are spent)."""

    type: ClassVar[str] = "cyp_step_over"
    charges: bool = False


@handles(StepOver)
def _step_over(s: GameState, e: StepOver) -> GameState:
    if e.charges:
        return _game(s, orders=(), step=None, step_side=None, charges=(), locked=())
    return _game(s, orders=(), step=None, step_side=None)


@dataclass(frozen=True, slots=True)
class MeleeLocked(Event):
    """A melee ended with equal casualties and both sides standing (Close combat 12 G):
    its ``charges`` (as the game keeps them) are fought on in the next turn."""

    type: ClassVar[str] = "cyp_melee_locked"
    charges: tuple[tuple[str, str, float, float, float, int], ...]


@handles(MeleeLocked)
def _locked(s: GameState, e: MeleeLocked) -> GameState:
    return _game(s, locked=(*game_data(s).locked, *e.charges))
