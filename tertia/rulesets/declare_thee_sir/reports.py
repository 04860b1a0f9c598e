"""What Declare Thee Sir shows a player beside the table: the activation in brief (the
unit whose card is drawn, the option declared, its rolled move, volleys left, the cards
still to draw), a unit's card (its stands, formation and morale, "untested" until first
tested) and a placed move's length against the allowance its ground takes.

Morale (B.3): "Other units start the game untested. A unit's morale points are
determined when it is first fired upon, melees, or is called for by an event card":
until then a unit's card says "untested", never a number.
"""

from __future__ import annotations

from typing import Any

from tertia.activation import deck
from tertia.core.actions import Action, Move
from tertia.core.state import GameState
from tertia.core.terrain import Battlefield
from tertia.rules.morale import DECLARE_LEVELS
from tertia.rules.movement import plan_move
from tertia.rulesets.declare_thee_sir import clauses, movement
from tertia.rulesets.declare_thee_sir.data import game_data, unit_data
from tertia.rulesets.declare_thee_sir.generals import attached_generals
from tertia.rulesets.declare_thee_sir.victory import OBJECTIVE_POINTS, scores, units_lost

UNTESTED = "untested"

ALLOWANCE_KEYS = ("open", "difficult", "road")


def declared_words(declared: str | None) -> str | None:
    """The option as it reads ("advance and fire", "rally (retire)")."""
    if declared is None:
        return None
    option, _, how = declared.partition(":")
    return option.replace("_", " ") + (f" ({how})" if how else "")


def allowance_words(allowance: Any) -> dict[str, int]:
    """A rolled move as each kind of ground reads: {"open ground": 7, ...}."""
    if not allowance:
        return {}
    return {movement.GROUND_WORDS[k]: int(allowance[k]) for k in ALLOWANCE_KEYS if k in allowance}


def move_words(allowance: Any) -> str | None:
    """A rolled move in a line: '7" over open ground, 3" through difficult ground or to a
    flank'; None before it is rolled."""
    words = allowance_words(allowance)
    return ", ".join(f'{inches}" {ground}' for ground, inches in words.items()) if words else None


def summary(state: GameState, objective_points: int = OBJECTIVE_POINTS) -> dict[str, Any]:
    """The activation in brief: ``activated`` (the piece whose card is drawn, or None),
    ``declared`` (its option in words), ``allowance`` (its rolled move by ground),
    ``volleys_left``, ``cards_left`` (still to draw this turn), and the score so far."""
    game = game_data(state)
    return {
        "activated": game.activated,
        "declared": declared_words(game.declared),
        "allowance": allowance_words(game.allowance),
        "volleys_left": game.volleys,
        "cards_left": len(deck.left(state)),
        "score": {side: sum(points.values()) for side, points in scores(state, objective_points).items()},
        "units_lost": {side: units_lost(state, side)[0] for side in state.sides},
    }


def morale_words(morale: int | None, first: int | None) -> str:
    """Morale as a player reads it: "untested", or the points left of those first
    rolled with their level ("3 of 4 points: excellent")."""
    if morale is None:
        return UNTESTED
    of = f" of {first}" if first is not None and first != morale else ""
    return f"{morale}{of} point{'s' if (first or morale) != 1 else ''}: {DECLARE_LEVELS.name(morale)}"


def unit_report(state: GameState, unit_id: str) -> dict[str, Any]:
    """A piece's card: troop, formation, stands, morale ("untested" until first tested),
    what it is doing (routing, pursuing, stopped at an obstacle), who is attached, and,
    when its card is drawn, the option declared and the move rolled."""
    u = state.units[unit_id]
    own = unit_data(u)
    report: dict[str, Any] = {
        "id": u.id, "name": u.name, "side": u.side, "type": u.kind.value, "x": u.x, "y": u.y,
        "facing": u.facing, "in_play": u.in_play, "removed": u.removed,
        "troop": own.troop.replace("_", " "),
    }
    game = game_data(state)
    if own.is_general:
        report["attached_to"] = own.attached_to
    else:
        report.update(
            formation=own.formation.replace("_", " "),
            stands=own.stands_left,
            morale=morale_words(own.morale, own.morale_max),
            routing=own.routing,
            pursuing=own.pursuing,
            at_obstacle=own.at_obstacle,
            damp_powder=own.damp_powder,
            firelocks=own.firelocks,
            general=[g.id for g in attached_generals(state, u.id)],
        )
        if own.troop == "dragoons":
            report["mounted"] = own.mounted
    report["activated"] = game.activated == u.id
    if game.activated == u.id:
        report.update(declared=declared_words(game.declared), move=move_words(game.allowance),
                      volleys_left=game.volleys or None, moved=game.moved)
    return report


def measure_move(table: Battlefield, state: GameState, action: Action) -> dict[str, Any] | None:
    """A placed move of the activated unit against its rolled allowance: ``length``, the
    ``allowance`` its ``ground`` takes and every ground's figure (``allowances``); None
    for anything else, or before the move is rolled."""
    game = game_data(state)
    if not isinstance(action, Move) or action.unit != game.activated or game.allowance is None:
        return None
    unit = state.units.get(action.unit)
    if unit is None:
        return None
    plan = plan_move(unit, action)
    limit = movement.limit_of(table, plan, unit_data(unit), game.allowance)
    return {"length": plan.length, "allowance": limit.inches, "rule": clauses.MOVEMENT,
            "ground": movement.GROUND_WORDS[limit.kind], "allowances": allowance_words(game.allowance)}
