"""Bonus and breakthrough moves (section 12 I-K; Sequence of play I: "Make any bonus or
breakthrough moves resulting from close combats and fight any bonus close combats").

- **I**: "When all close combats have been resolved any units that won the close combat
  on the turn that it began may test morale and if passed, are eligiable for bonus
  movement. Foot units may make a normal non-combat move. Command response need not be
  tested." Who tests is :func:`~tertia.rulesets.charge_yr_pikes.melee.bonus_moves` (the
  winners of combats begun this turn, not horse riding off to plunder); :func:`offer`
  records those that passed (:class:`BonusOffered`).
- **J**: "Horse may make a bonus move the same as infantry or they may have a
  'Breakthrough' move and attack another unit in close combat. Normal movment is used,
  not charge movement. The morale test to see if the bonus move or breakthrough may be
  done counts as the 'to close' die roll if passed."
- **K**: "Units attempting bonus movement who fail the morale test stand in place, no
  other effects."

Read so:

- The bonus moves are a step of their own after the close combats: each side in turn,
  the first side first, gives its bonus units their orders, then ends them (``EndPhase``),
  as in the fire steps. A unit owed a bonus move may make one normal move (the core's
  ``Move``, judged as a move on a card: its allowance, the ground, friends and its
  tertia), or stand; horse may instead break through (:class:`~tertia.rulesets.
  charge_yr_pikes.actions.Breakthrough`). A formation change is not a move and is not
  offered.
- A breakthrough goes straight at its target and halts 1" away, as a charge does, but its
  path may be no longer than the unit's normal move ("Normal movment is used"), so it
  never tires the horse. Its target is "another unit": an enemy unit in play, not one
  the horse fought in the combat it just won, nor one locked in a melee to be fought on
  next turn (that melee has its own units).
- The bonus close combats are fought once every side has given its orders, gathered as
  the turn's charges are (charges on one unit fight together), with the usual tests
  save the breakthrough horse's test to close, already passed. A bonus combat's winners
  have no bonus move of their own: the phase has one round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from tertia.core.actions import Action, EndPhase, Move
from tertia.core.events import Event, PhaseBegan
from tertia.core.reducer import handles
from tertia.core.ruleset import Tx
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.core.violations import CoreCode, Violation
from tertia.rulesets.charge_yr_pikes import melee
from tertia.rulesets.charge_yr_pikes.actions import Breakthrough
from tertia.rulesets.charge_yr_pikes.charge import MoraleStep
from tertia.rulesets.charge_yr_pikes.charge_path import charge_path
from tertia.rulesets.charge_yr_pikes.codes import CypCode
from tertia.rulesets.charge_yr_pikes.movement import allowance
from tertia.rulesets.charge_yr_pikes.tables import Tables
from tertia.rulesets.charge_yr_pikes.values import game_data, unit_data

BONUS_MOVES = "bonus_moves"
"""The phase (and its step) of Sequence of play I."""
RULE = "Close combat 12 I-K"


@dataclass(frozen=True, slots=True)
class BonusOffered(Event):
    """``unit`` won its close combat and passed its test: it may make a bonus move, or,
    ``breakthrough``, break through (12 I, J); ``foes`` are the units it fought."""

    type: ClassVar[str] = "cyp_bonus_offered"
    unit: str
    breakthrough: bool
    foes: tuple[str, ...] = ()


@handles(BonusOffered)
def _offered(s: GameState, e: BonusOffered) -> GameState:
    g = game_data(s)
    return s.evolve(own=g.evolve(bonus=(*g.bonus, (e.unit, e.breakthrough, e.foes))))


@dataclass(frozen=True, slots=True)
class BonusSpent(Event):
    """``units`` have made their bonus move, or their side has given its orders."""

    type: ClassVar[str] = "cyp_bonus_spent"
    units: tuple[str, ...]


@handles(BonusSpent)
def _spent(s: GameState, e: BonusSpent) -> GameState:
    g = game_data(s)
    return s.evolve(own=g.evolve(bonus=tuple(b for b in g.bonus if b[0] not in e.units)))


@dataclass(frozen=True, slots=True)
class CloseCombatOver(Event):
    """The close combat phase is over, bonus combats and all: the turn's charges, bonus
    moves and the reactions to charges are spent."""

    type: ClassVar[str] = "cyp_close_combat_over"


@handles(CloseCombatOver)
def _over(s: GameState, e: CloseCombatOver) -> GameState:
    return s.evolve(own=game_data(s).evolve(charges=(), bonus=(), steadied=()))


def offer(tx: Tx, results: Sequence[melee.MeleeResult], test: MoraleStep) -> bool:
    """12 I-K: the winners of the combats begun this turn test; those that pass are owed
    a bonus move (K: those that fail stand). True when any is owed one."""
    moves = melee.bonus_moves(tx.state, results, test)
    if not moves:
        return False
    foes: dict[str, tuple[str, ...]] = {}
    for r in results:
        for f in r.fighters:
            foes[f.unit] = (*foes.get(f.unit, ()), *f.foes)
    tx.emit(PhaseBegan(phase=BONUS_MOVES))
    for m in moves:
        tx.emit(BonusOffered(unit=m.unit, breakthrough=m.breakthrough, foes=foes.get(m.unit, ())))
    return True


def owed(state: GameState, side: str) -> list[str]:
    """The units of ``side`` still owed a bonus move (and in play)."""
    return [b[0] for b in game_data(state).bonus
            if b[0] in state.units and state.units[b[0]].in_play and state.units[b[0]].side == side]


def side_done(tx: Tx, side: str) -> None:
    """``side`` has given its bonus orders: the rest of its units stand."""
    left = tuple(b[0] for b in game_data(tx.state).bonus if tx.state.units[b[0]].side == side)
    if left:
        tx.emit(BonusSpent(units=left))


def problems(table: Battlefield, state: GameState, action: Action, tables: Tables) -> list[Violation]:
    """What the bonus step refuses before the move or charge is judged as any other: an
    action other than a bonus move, a breakthrough or the end of the orders; a unit owed
    no bonus move; a breakthrough by foot, at a unit just fought or locked in melee, or
    beyond the normal move."""
    if isinstance(action, EndPhase):
        return []
    if not isinstance(action, Move | Breakthrough):
        return [Violation(CoreCode.WRONG_PHASE, "only bonus moves and breakthroughs are made now", RULE)]
    entry = next((b for b in game_data(state).bonus if b[0] == action.unit), None)
    unit = state.units.get(action.unit)
    if entry is None or unit is None or not unit.in_play or unit.side != state.active:
        named = unit.label if unit is not None else repr(action.unit)
        return [Violation(CypCode.NO_BONUS_MOVE, f"{named} has no bonus move to make", RULE)]
    if isinstance(action, Move):
        return []
    _, may_break, foes = entry
    if not may_break:
        return [Violation(CypCode.NO_BREAKTHROUGH, f"{unit.label} may make a bonus move but not break "
                          "through (horse only)", "Close combat 12 J")]
    target = state.units.get(action.target)
    if target is None or target.side == unit.side:
        return []  # the charge's own checks name it
    if action.target in foes:
        return [Violation(CypCode.SAME_FOE, f"{target.label} is the unit {unit.label} just fought: a "
                          "breakthrough attacks another", "Close combat 12 J")]
    if any(action.target in c[:2] for c in game_data(state).locked):
        return [Violation(CoreCode.CANNOT_ACT, f"{target.label} is locked in a melee", "Close combat 12 J")]
    path = charge_path(table, state, unit, target)
    reach = allowance(tables, unit_data(unit), on_road=False) or 0.0
    if path.blocked_by is None and path.length > reach + 1e-6:
        return [Violation(CypCode.TOO_FAR, f"{unit.label} breaks through on its normal move, {reach:g}\", "
                          f"not {path.length:.1f}\"", "Close combat 12 J")]
    return []


def breakers(state: GameState) -> frozenset[str]:
    """The units that broke through this turn: their test to close is passed (12 J)."""
    return frozenset(c[0] for c in game_data(state).charges)
