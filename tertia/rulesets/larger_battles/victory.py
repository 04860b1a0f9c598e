"""How to Win: the end of the battle and victory points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tertia.core.events import ObjectiveTaken
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, UnitKind
from tertia.rules.hits import piece
from tertia.rules.victory import end_by_points, holds
from tertia.rulesets.larger_battles.events import supplies_of
from tertia.rulesets.larger_battles.losses import troops_at_start, units_lost

ROUTED_POINTS = 1
SUPPLY_POINTS = 3
COMMANDER_POINTS = -2
GENERAL_POINTS = -4
HALF_ARMY_POINTS = 6
OBJECTIVE_POINTS = 6


def score_breakdown(state: GameState, side: str, options: Mapping[str, Any]) -> dict[str, int]:
    """Victory points of ``side`` item by item (How to Win)."""
    enemy = state.opponent(side)
    routed = sum(
        1 for u in state.iter_units(enemy, include_removed=True)
        if u.kind is not UnitKind.COMMANDER and u.removed == "routed"
    )
    raided = sum(1 for s in supplies_of(state) if s.side == enemy and s.raided_by == side)
    lost_commanders = [
        u for u in state.iter_units(side, include_removed=True)
        if u.kind is UnitKind.COMMANDER and u.removed is not None
    ]
    commander_points = 0
    for c in lost_commanders:
        if piece(c).general:
            commander_points += GENERAL_POINTS
            if options["general_loss_also_counts_as_commander"]:
                commander_points += COMMANDER_POINTS
        else:
            commander_points += COMMANDER_POINTS
    start = len(troops_at_start(state, enemy))
    half = HALF_ARMY_POINTS if start and units_lost(state, enemy) > start / 2 else 0
    objectives = sum(OBJECTIVE_POINTS for o in state.objectives if o.taken_by == side)
    return {
        "routed_enemy_units": routed * ROUTED_POINTS,
        "supplies_attacked": raided * SUPPLY_POINTS,
        "commanders_lost": commander_points,
        "enemy_reduced_by_half": half,
        "objectives_taken": objectives,
    }


def scores(state: GameState, options: Mapping[str, Any]) -> dict[str, int]:
    return {s: sum(score_breakdown(state, s, options).values()) for s in state.sides}


def check_objectives(tx: Tx) -> bool:
    """At the end of a player turn, the active side takes any objective it holds: one of its
    troop units' centre within the radius and no enemy troop unit's centre within it. An
    objective that does not end the game may be taken back later; it scores for the side
    holding it at the end. Returns True when a taken objective ends the game."""
    side = tx.state.active
    ends = False
    for obj in tx.state.objectives:
        if obj.taken_by != side and holds(tx.state, side, obj):
            tx.emit(ObjectiveTaken(objective=obj.name, side=side))
            ends = ends or bool(tx.state.value("objective_ends", {}).get(obj.name, True))
    return ends


OBJECTIVE_TAKEN = "objective taken"
"""Why a battle ends when an objective that ends it is taken (Objectives)."""


def end_game(tx: Tx, reason: str, options: Mapping[str, Any]) -> None:
    state = tx.state
    end_by_points(tx, scores(state, options), reason,
                  {s: score_breakdown(state, s, options) for s in state.sides}
                  | {"units_lost": {s: units_lost(state, s) for s in state.sides}})
