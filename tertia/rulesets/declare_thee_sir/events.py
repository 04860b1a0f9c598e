"""Declare Thee Sir's own actions and events (Game Play): a card activates a unit, its
commander declares one of the six options, the unit carries it out, the activation ends.

Each event says how the reducer applies it and how the log tells it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.actions import Action
from tertia.core.events import DiceRolled, Event
from tertia.core.narration import Narrating, Sentence, humanise, of, tells
from tertia.core.reducer import handles
from tertia.core.state import GameState, UnitKind
from tertia.rulesets.declare_thee_sir.chart import PB2D6, is_rout
from tertia.rulesets.declare_thee_sir.values import game_data

DECLARE = "declare"
"""The decision awaited when a card is drawn: the unit's commander declares an option."""

# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """The activated unit's commander declares one of the six options (Game Play);
    ``how`` says, for Rally, whether the unit ``rest``s or ``retire``s (rearward
    movement)."""

    type: ClassVar[str] = "dts_declare"
    unit: str
    option: str
    how: str | None = None


@dataclass(frozen=True, slots=True)
class ChangeFormation(Action):
    """Option 1, Formation Change: the activated unit takes up ``formation``."""

    type: ClassVar[str] = "dts_change_formation"
    unit: str
    formation: str


@dataclass(frozen=True, slots=True)
class Fire(Action):
    """Options 3 and 4: one volley of the activated unit at ``target`` (Fire)."""

    type: ClassVar[str] = "dts_fire"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class Charge(Action):
    """Option 2 carried into melee: the activated unit advances straight at ``target``
    and tests to close (Melee a)."""

    type: ClassVar[str] = "dts_charge"
    unit: str
    target: str


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitActivated(Event):
    """``card`` was drawn: ``unit`` of ``side`` is activated."""

    type: ClassVar[str] = "dts_unit_activated"
    side: str
    unit: str
    card: str


@dataclass(frozen=True, slots=True)
class OptionDeclared(Event):
    type: ClassVar[str] = "dts_option_declared"
    unit: str
    option: str
    how: str | None = None


@dataclass(frozen=True, slots=True)
class MoveWorkedOut(Event):
    """The unit's move for this activation (Movement): the dice ``roll`` (9 for a general),
    the ``modifiers`` and the inches allowed over ``open`` ground, ``difficult`` ground and
    by ``road`` (``None``: no road figure)."""

    type: ClassVar[str] = "dts_move_worked_out"
    unit: str
    roll: int
    modifiers: tuple[tuple[int, str], ...]
    open: int
    difficult: int
    road: int | None = None


@dataclass(frozen=True, slots=True)
class ObstacleReached(Event):
    """The unit stopped at an obstacle (``reached``) or crossed it (not ``reached``)."""

    type: ClassVar[str] = "dts_obstacle_reached"
    unit: str
    reached: bool


@dataclass(frozen=True, slots=True)
class VolleyFired(Event):
    """The activated unit fired one of its volleys at ``target``."""

    type: ClassVar[str] = "dts_volley_fired"
    unit: str
    target: str


@dataclass(frozen=True, slots=True)
class VolleyWorkedOut(Event):
    """What a volley did (Fire): the range rolled (``reach``, inches) against the
    ``distance`` to the target; in range, the two dice's modified ``total``, the chart's
    ``result`` for the target's morale and the morale ``points`` it lost. It changes
    nothing by itself: the losses and push-backs are events of their own."""

    type: ClassVar[str] = "dts_volley_worked_out"
    unit: str
    target: str
    reach: int
    distance: float
    total: int | None = None
    result: str | None = None
    points: int = 0


@dataclass(frozen=True, slots=True)
class DragoonsMounted(Event):
    """Dragoons took to their horses (``mounted``) or dismounted."""

    type: ClassVar[str] = "dts_dragoons_mounted"
    unit: str
    mounted: bool


@dataclass(frozen=True, slots=True)
class GeneralAttached(Event):
    """``general`` is now attached to ``unit`` (``None``: he stands on his own)."""

    type: ClassVar[str] = "dts_general_attached"
    general: str
    unit: str | None


@dataclass(frozen=True, slots=True)
class ActivationEnded(Event):
    type: ClassVar[str] = "dts_activation_ended"
    unit: str


def _game(s: GameState, **values: Any) -> GameState:
    return s.evolve(own=game_data(s).evolve(**values))


@handles(UnitActivated)
def _activated(s: GameState, e: UnitActivated) -> GameState:
    return _game(s.evolve(active=e.side), activated=e.unit, card=e.card, declared=None,
                 allowance=None, moved=False, volleys=0)


VOLLEYS = {"stand_and_fire": 2, "advance_and_fire": 1}
"""Game Play: "Advance and fire (1/2 move & one volley of fire)", "Stand and fire (two
volleys)"."""


@handles(OptionDeclared)
def _declared(s: GameState, e: OptionDeclared) -> GameState:
    return _game(s, declared=e.option if e.how is None else f"{e.option}:{e.how}",
                 volleys=VOLLEYS.get(e.option, 0))


@handles(VolleyFired)
def _volley(s: GameState, e: VolleyFired) -> GameState:
    return _game(s, volleys=max(0, game_data(s).volleys - 1))


@handles(VolleyWorkedOut)
def _volley_worked_out(s: GameState, e: VolleyWorkedOut) -> GameState:
    return s


@handles(MoveWorkedOut)
def _worked_out(s: GameState, e: MoveWorkedOut) -> GameState:
    road = {} if e.road is None else {"road": e.road}
    return _game(s, allowance={"open": e.open, "difficult": e.difficult, **road})


@handles(ObstacleReached)
def _obstacle(s: GameState, e: ObstacleReached) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(at_obstacle=e.reached))


@handles(DragoonsMounted)
def _mounted(s: GameState, e: DragoonsMounted) -> GameState:
    return s.with_unit(s.units[e.unit].evolve(mounted=e.mounted))


@handles(GeneralAttached)
def _attached(s: GameState, e: GeneralAttached) -> GameState:
    return s.with_unit(s.units[e.general].evolve(attached_to=e.unit))


@handles(ActivationEnded)
def _ended(s: GameState, e: ActivationEnded) -> GameState:
    return _game(s, activated=None, card=None, declared=None, allowance=None, moved=False, volleys=0)


# --- how the log tells them ------------------------------------------------------------------


@tells(UnitActivated)
def _tell_activated(n: Narrating, e: UnitActivated, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.side(e.side)}: {of('card', n.label(e.unit))}", "heading"  # as the deck drew it, by side


@tells(OptionDeclared)
def _tell_declared(n: Narrating, e: OptionDeclared, dice: Sequence[DiceRolled]) -> Sentence:
    how = f" ({e.how})" if e.how else ""
    return f"{n.label(e.unit)}: {humanise(e.option)}{how}", "order"


@tells(MoveWorkedOut)
def _tell_move(n: Narrating, e: MoveWorkedOut, dice: Sequence[DiceRolled]) -> Sentence:
    mods = "".join(f" {m:+d} {why}" for m, why in e.modifiers)
    road = f", {e.road}\" by road" if e.road is not None else ""
    # Advance and fire halves the move (Movement); the event keeps the roll, not the option.
    halved = ", halved as it fires too" if e.open < e.roll + sum(m for m, _ in e.modifiers) else ""
    return (f"{n.label(e.unit)} may move {e.open}\" ({e.roll}{mods}{halved}; {e.difficult}\" through "
            f"difficult ground or to a flank{road})"), "move"


@tells(ObstacleReached)
def _tell_obstacle(n: Narrating, e: ObstacleReached, dice: Sequence[DiceRolled]) -> Sentence:
    if e.reached:
        return f"{n.label(e.unit)} halts at an obstacle", "move"
    return None, "move"


@tells(VolleyFired)
def _tell_volley(n: Narrating, e: VolleyFired, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} fires at {n.label(e.target)}", "attack"


@tells(VolleyWorkedOut)
def _tell_volley_worked_out(n: Narrating, e: VolleyWorkedOut, dice: Sequence[DiceRolled]) -> Sentence:
    if e.result is None:
        away = f"{e.distance:.1f}"
        if float(away) <= e.reach:  # a tenth would hide why it fell short: 7.03" against 7"
            away = f"{e.distance:.2f}"
        return f"The volley falls short of {n.label(e.target)}: it reaches {e.reach}\", {away}\" away", "note"
    lost = (f"{e.points} morale point{'' if e.points == 1 else 's'} lost" if e.points
            else "no morale lost")
    return f"The volley at {n.label(e.target)}: {_chart_reading(n, e)}; {lost}", \
        "hit" if e.points else "note"


def _chart_reading(n: Narrating, e: VolleyWorkedOut) -> str:
    """The chart's result and what it does to the target of fire: musketry takes a point
    more on a ROUT (4c); a gun's PB2D6 or ROUT pushes it back 1D6 (4b). The melee's
    push-backs (PB1D6, PB2D6) are not fire's."""
    reading = f"{e.total} on the chart ({e.result})"
    firer = n.state.units.get(e.unit) if n.state is not None else None
    if firer is None or e.result is None:
        return reading
    if firer.kind is UnitKind.ARTILLERY:
        pushed = e.result == PB2D6 or is_rout(e.result)
        return reading + (": pushed back 1D6\"" if pushed
                          else ": no push-back (a gun's volley pushes back only on PB2D6 or ROUT)")
    return reading + (": a rout, a morale point more" if is_rout(e.result) else ": short of a rout")


@tells(DragoonsMounted)
def _tell_mounted(n: Narrating, e: DragoonsMounted, dice: Sequence[DiceRolled]) -> Sentence:
    return f"{n.label(e.unit)} {'mount' if e.mounted else 'dismount'}", "move"


@tells(GeneralAttached)
def _tell_attached(n: Narrating, e: GeneralAttached, dice: Sequence[DiceRolled]) -> Sentence:
    if e.unit is None:
        return f"{n.label(e.general)} rides off on his own", "move"
    return f"{n.label(e.general)} joins {n.label(e.unit)}", "move"


@tells(ActivationEnded)
def _tell_ended(n: Narrating, e: ActivationEnded, dice: Sequence[DiceRolled]) -> Sentence:
    return None, "phase"


def allowance_of(state: GameState) -> Mapping[str, int] | None:
    """The activated unit's move worked out this activation, if any."""
    return game_data(state).allowance
