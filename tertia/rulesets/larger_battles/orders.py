"""Sequence of Play, Orders: two orders a player turn, each to a command or one unit,
needed to move or to bombard."""

from __future__ import annotations

from tertia.core.narration import command_by_role, possessive
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.violations import CoreCode, Violation, not_own, side_named, side_whose
from tertia.rules.codes import MovementCode
from tertia.rulesets.larger_battles import clauses
from tertia.rulesets.larger_battles.actions import GiveOrder
from tertia.rulesets.larger_battles.codes import LargerBattlesCode

ORDERS_PER_TURN = 2
PURPOSES = ("move", "bombard")


def orders_left(state: GameState) -> int:
    return ORDERS_PER_TURN - len(state.marked("orders"))


def command_members(state: GameState, side: str, command: str) -> list[Unit]:
    """Pieces of ``side`` in play that belong to ``command`` (commanders included)."""
    return [u for u in state.iter_units(side) if u.command == command]


def is_ordered(state: GameState, unit: Unit, purpose: str) -> bool:
    """Is the unit covered by an order for ``purpose`` this turn (its own or its command's)?"""
    mark = f"ordered_{purpose}"
    return state.is_marked(mark, unit.id) or state.is_marked(mark, f"{unit.side}:{unit.command}")


def ordered_units(state: GameState, side: str, purpose: str) -> list[Unit]:
    """The pieces of ``side`` in play that :func:`is_ordered` for ``purpose``, in play
    order; the orders given are read once, not once for each piece."""
    given = state.marked(f"ordered_{purpose}")
    if not given:
        return []
    prefix = f"{side}:"
    commands = {key[len(prefix):] for key in given if key.startswith(prefix)}
    units = set(given)
    return [u for u in state.iter_units(side) if u.command in commands or u.id in units]


def order_key(state: GameState, side: str, target: str) -> str | None:
    """What an order's target names: a unit id, or ``side:command``; None when neither."""
    if target in state.units:
        return target
    if command_members(state, side, target):
        return f"{side}:{target}"
    return None


def validate_order(state: GameState, action: GiveOrder) -> list[Violation]:
    side = state.active
    if action.purpose not in PURPOSES:
        return [Violation(MovementCode.BAD_PATH, f"an order is to move or to bombard, not {action.purpose!r}",
                          clauses.ORDERS)]
    allowed_phases = ("movement", "bombardment") if action.purpose == "bombard" else ("movement",)
    if state.phase not in allowed_phases:
        return [Violation(CoreCode.WRONG_PHASE,
                          f"a {action.purpose} order cannot be given in the {state.phase} phase",
                          clauses.ORDERS)]
    key = order_key(state, side, action.target)
    if key is None:
        return [Violation(CoreCode.UNKNOWN_COMMAND, _no_command_of(state, side, action.target),
                          clauses.ORDERS)]
    if key in state.units:
        unit = state.units[key]
        if unit.side != side:
            return [not_own(unit, side, clauses.ORDERS)]
        if not unit.in_play:
            return [Violation(CoreCode.UNIT_REMOVED, f"{unit.label} is no longer in play",
                              clauses.ORDERS)]
        targets = [unit]
    else:
        targets = command_members(state, side, action.target)
    if action.purpose == "bombard" and not any(u.kind is UnitKind.ARTILLERY for u in targets):
        return [Violation(CoreCode.CANNOT_ACT, f"{_ordered_name(state, key, targets)} has no artillery to "
                          "bombard", clauses.ORDERS)]
    if orders_left(state) <= 0:
        return [Violation(LargerBattlesCode.NO_ORDERS_LEFT,
                          f"{side_named(side)}: both of this turn's {ORDERS_PER_TURN} orders are "
                          "given",
                          clauses.ORDERS)]
    if key in state.marked(f"ordered_{action.purpose}"):
        return [Violation(LargerBattlesCode.ALREADY_ORDERED,
                          f"{_ordered_name(state, key, targets)} already has a {action.purpose} order "
                          "this turn",
                          clauses.ORDERS)]
    if action.purpose == "move" and not any(may_still_move(state, u) for u in targets):
        why = _idle(state, targets[0]) if key in state.units else _idle_command(targets, action.target)
        return [Violation(LargerBattlesCode.MOVES_NOTHING, why, clauses.ORDERS)]
    if action.purpose == "bombard" and not any(may_still_bombard(state, u) for u in targets):
        return [Violation(LargerBattlesCode.BOMBARDS_NOTHING, _silent(state, targets, action.target),
                          clauses.ORDERS)]
    return []


def may_still_bombard(state: GameState, unit: Unit) -> bool:
    """Would an order to bombard let ``unit`` fire: a gun in play that has not bombarded
    this turn and is not already covered by a bombard order (its command's)? An order is
    "necessary ... to order an artillery bombardment" (Sequence of Play, Orders); one that
    fires no gun is no order a player gives."""
    return (unit.kind is UnitKind.ARTILLERY and unit.in_play and not state.is_marked("bombarded", unit.id)
            and not is_ordered(state, unit, "bombard"))


def _silent(state: GameState, targets: list[Unit], target: str) -> str:
    """Why an order to bombard would fire no gun, in words."""
    if len(targets) == 1:
        gun = targets[0]
        why = ("has bombarded this turn" if state.is_marked("bombarded", gun.id)
               else "already has a bombard order, its command's")
        return f"{gun.label} {why}: an order to bombard would fire no gun"
    return (f"every gun of {_command_name(targets, target)} has bombarded this turn or has its own "
            "bombard order: an order would fire no gun")


def may_still_move(state: GameState, unit: Unit) -> bool:
    """Would an order to move let ``unit`` move: in play, not moved this turn and not
    already covered by a move order (its command's)? An order is "necessary to move" a
    unit (Sequence of Play, Orders); one that lets nothing move is no order a player gives."""
    return unit.in_play and not state.is_marked("moved", unit.id) and not is_ordered(state, unit, "move")


def _idle(state: GameState, unit: Unit) -> str:
    """Why an order to move ``unit`` would move nothing, in words."""
    why = ("has already moved this turn" if state.is_marked("moved", unit.id)
           else "already has a move order, its command's")
    return f"{unit.label} {why}: an order to move it would move nothing"


def _idle_command(members: list[Unit], command: str) -> str:
    """Why an order to move ``command`` would move nothing, in words."""
    return (f"every piece of {_command_name(members, command)} has already moved or has its own move "
            "order: an order would move nothing")


def _command_name(members: list[Unit], command: str, *, whose: bool = True) -> str:
    """A command (of ``members``, pieces of one side) in words as players call it: its
    commander's ("Sir John Merrick's command"), else by its side, named as the battle
    names it, and what it is ("the King's Army's artillery command"; without the side,
    ``whose`` false, where the words go on to say whose it is: "the artillery command")."""
    leader = next((u for u in members if u.is_commander), None)
    if leader is None:
        side = members[0].side if members else None
        return command_by_role(command, side, side_whose(side) if whose and side else None)
    return f"{possessive(leader.label, person=True)} command"


def _ordered_name(state: GameState, key: str, targets: list[Unit]) -> str:
    """What an order (:func:`order_key` ``key``, given to ``targets``) goes to, in words: the
    unit by its name, a command as players call it."""
    return targets[0].label if key in state.units else _command_name(targets, key.partition(":")[2])


def _no_command_of(state: GameState, side: str, target: str) -> str:
    """Why ``target`` names nothing of ``side``'s to order: a command of the other side's
    alone by its name (the armies' commands are no secret); else as it was typed."""
    foe = state.opponent(side)
    theirs = command_members(state, foe, target)
    if theirs:
        return f"{_command_name(theirs, target, whose=False)} is {side_whose(foe)}, not {side_whose(side)}"
    return f"{target!r} is neither a unit nor a command of {side_named(side)}"
