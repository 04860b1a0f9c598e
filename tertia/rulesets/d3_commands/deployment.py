"""Deployment, when a scenario does not set it (option ``deployment = "procedure"``):
the sides roll a D6, the higher (ties rolled again) deploying first in every step; then
the centre, the right flank to the right of the centre, the left flank to the left of
the centre (or of the right flank), the reserve behind a deployed command, and the
independent units (artillery in front of the centre or on a hill; dragoons and commanded
shot in front of a flank or beside a flank unit). Tertia adds a last step for the
commander.

Every piece starts off the table (``removed = "undeployed"``); a :class:`Deploy` action
places one, and the state awaits the deploying side (``pending["kind"] == "deploy"``)
until every piece of the step is down. The text sets no deployment zone: Tertia's is the
``deployment_zone`` inches (16 by default) nearest the side's own table edge.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from tertia.core.actions import Action
from tertia.core.events import (
    DecisionAwaited,
    DecisionMade,
    GameDataChanged,
    Narrated,
    PhaseBegan,
    UnitDeployed,
)
from tertia.core.geometry import base_distance, bases_overlap
from tertia.core.narration import side_verbs
from tertia.core.ruleset import Tx
from tertia.core.state import GameState, Unit, UnitKind
from tertia.core.terrain import Battlefield, TerrainKind
from tertia.core.violations import CoreCode, Violation
from tertia.rules.codes import MovementCode
from tertia.rulesets.d3.codes import D3Code
from tertia.rulesets.d3.placement import forbidden_ground
from tertia.rulesets.d3.victory import UNDEPLOYED
from tertia.rulesets.d3_commands import clauses
from tertia.rulesets.d3_commands.organisation import command_card

side_verbs("deploy")  # the note "<side> deploy first in every step"

KIND = "deploy"
STEPS = ("centre", "right", "left", "reserve", "independent", "commander")
BESIDE = 2.0
"""A unit "beside" a flank unit is within 2" of it, level with it."""


@dataclass(frozen=True, slots=True)
class Deploy(Action):
    """Place one waiting piece on the table, facing ``facing`` (default: the enemy)."""

    type: ClassVar[str] = "deploy"
    unit: str
    x: float
    y: float
    facing: float | None = None


def step_of(unit: Unit) -> str:
    return "commander" if unit.is_commander else command_card(unit.command)


def waiting(state: GameState, side: str, step: str) -> list[Unit]:
    return sorted(
        (u for u in state.iter_units(side, include_removed=True)
         if u.removed == UNDEPLOYED and step_of(u) == step),
        key=lambda u: u.id,
    )


def begin(tx: Tx) -> bool:
    """Roll for who deploys first and await the first piece; False when nothing waits."""
    tx.emit(PhaseBegan(phase="deployment"))
    first = tx.roll_off("deploy first")
    tx.emit(GameDataChanged(key="deploy_first", value=first))
    tx.emit(Narrated(text=f"{first} deploy first in every step ({clauses.DEPLOYMENT})"))
    return advance(tx)


def advance(tx: Tx) -> bool:
    """Await the next piece to place; False when every piece is down."""
    first = str(tx.state.value("deploy_first"))
    order = (first, tx.state.opponent(first))
    for step in STEPS:
        for side in order:
            ready = waiting(tx.state, side, step)
            if ready:
                tx.emit(DecisionAwaited(side=side, kind=KIND,
                                        context={"step": step, "units": [u.id for u in ready]}))
                return True
    return False


def facing_to_enemy(state: GameState, side: str) -> float:
    return 0.0 if state.value("edges", {}).get(side) == "south" else 180.0


def frame(state: GameState, side: str, x: float, y: float, depth: float) -> tuple[float, float]:
    """(to the right, forward from the own edge) as the side sees the table."""
    if state.value("edges", {}).get(side) == "south":
        return x, y
    return -x, depth - y


def placed(state: GameState, action: Deploy) -> Unit:
    unit = state.units[action.unit]
    facing = facing_to_enemy(state, unit.side) if action.facing is None else float(action.facing) % 360
    return unit.evolve(x=float(action.x), y=float(action.y), facing=facing, removed=None)


def validate(table: Battlefield, state: GameState, action: Deploy, zone: float) -> list[Violation]:
    rule = clauses.DEPLOYMENT
    pending = state.pending
    if pending is None or pending.get("kind") != KIND:
        return [Violation(CoreCode.NOTHING_PENDING, "no side is deploying now", rule)]
    if action.unit not in pending.get("units", ()):
        asked = state.units.get(action.unit)
        named = repr(action.unit) if asked is None else asked.label
        waiting = ", ".join(state.units[u].label for u in pending["units"])
        return [Violation(D3Code.BAD_DEPLOYMENT,
                          f"{named} is not waiting to deploy in the {pending['step']} step; "
                          f"waiting: {waiting}", rule)]
    numbers = (action.x, action.y) + (() if action.facing is None else (action.facing,))
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in numbers):
        return [Violation(D3Code.BAD_DEPLOYMENT, "x, y and facing must be finite numbers", rule)]
    unit = placed(state, action)
    base = unit.base
    if not table.inside_table(base.corners()):
        return [Violation(MovementCode.OFF_TABLE, f"{unit.label} would stand partly off the table", rule)]
    forward = [frame(state, unit.side, x, y, table.depth)[1] for x, y in base.corners()]
    if max(forward) > zone + 1e-6:
        return [Violation(D3Code.BAD_DEPLOYMENT,
                          f"{unit.label} would reach {max(forward):.1f}\" from its own table edge; "
                          f"deploy within {zone:g}\"", rule)]
    for other in state.iter_units():
        if other.id != unit.id and bases_overlap(base, other.base):
            return [Violation(MovementCode.COLLISION, f"{unit.label} would overlap {other.label}", rule)]
    ground = _ground_problem(table, unit)
    if ground:
        return [Violation(MovementCode.IMPASSABLE, ground, rule)]
    problem = _step_problem(table, state, unit, str(pending["step"]))
    return [Violation(D3Code.BAD_DEPLOYMENT, problem, rule)] if problem else []


def _ground_problem(table: Battlefield, unit: Unit) -> str | None:
    kind = forbidden_ground(table, unit, commander_in_town=True)
    if kind is None:
        return None
    return f"{unit.label} cannot stand in {'the river' if kind is TerrainKind.RIVER else kind}"


def _step_problem(table: Battlefield, state: GameState, unit: Unit, step: str) -> str | None:
    side = unit.side
    depth = table.depth

    def at(u: Unit) -> tuple[float, float]:
        return frame(state, side, u.x, u.y, depth)

    def deployed(*steps: str) -> list[Unit]:
        return [u for u in state.iter_troops(side) if step_of(u) in steps]

    r, f = at(unit)
    half = unit.width / 2.0
    centre = deployed("centre")
    if step == "right" and centre:
        edge = max(at(u)[0] + u.width / 2.0 for u in centre)
        if r - half < edge - 1e-6:
            return f"{unit.label} must deploy to the right of the centre"
    if step == "left":
        anchor = centre or deployed("right")
        if anchor:
            edge = min(at(u)[0] - u.width / 2.0 for u in anchor)
            if r + half > edge + 1e-6:
                which = "centre" if centre else "right flank"
                return f"{unit.label} must deploy to the left of the {which}"
    if step == "reserve":
        front = deployed("centre", "right", "left")
        if front and not any(_in_line(unit, u, r, at(u)[0]) and f < at(u)[1] for u in front):
            return f"{unit.label} must deploy behind one of the deployed commands"
    if step == "independent":
        return _independent_problem(table, unit, deployed, at, r, f)
    return None


def _in_line(unit: Unit, other: Unit, r: float, r_other: float) -> bool:
    """Their frontages overlap, seen from the side's own edge."""
    return abs(r - r_other) < (unit.width + other.width) / 2.0 - 1e-6


def _independent_problem(
    table: Battlefield, unit: Unit, deployed: Any, at: Any, r: float, f: float
) -> str | None:
    if unit.kind is UnitKind.ARTILLERY:
        centre = deployed("centre")
        on_hill = table.hill_level((unit.x, unit.y)) > 0
        ahead = any(_in_line(unit, u, r, at(u)[0]) and f > at(u)[1] for u in centre)
        if centre and not (on_hill or ahead):
            return f"{unit.label}: artillery deploys in front of the centre or on a hill"
        return None
    flanks = deployed("right", "left")
    if not flanks:
        return None
    ahead = any(_in_line(unit, u, r, at(u)[0]) and f > at(u)[1] for u in flanks)
    beside = any(
        base_distance(unit.base, u.base) <= BESIDE + 1e-6 and abs(f - at(u)[1]) <= u.depth
        for u in flanks
    )
    if not (ahead or beside):
        return f"{unit.label} deploys in front of a flank or beside a flank unit"
    return None


def resolve(tx: Tx, action: Deploy) -> bool:
    """Place the piece; returns True while more pieces wait."""
    pending = tx.state.pending
    assert pending is not None
    unit = placed(tx.state, action)
    tx.emit(DecisionMade(side=str(pending["side"]), kind=KIND, choice=unit.id))
    tx.emit(UnitDeployed(unit=unit.id, x=unit.x, y=unit.y, facing=unit.facing))
    return advance(tx)


def suggestions(unit: Unit, home: tuple[float, float]) -> list[Deploy]:
    """Places to try for a piece, nearest its scenario position ``home`` first: for
    players proposing deployments (the rules still judge each)."""
    out: list[Deploy] = []
    for ring in range(0, 8):
        for dx, dy in _ring(ring):
            out.append(Deploy(unit=unit.id, x=home[0] + dx * 2.5, y=home[1] + dy * 2.0))
    return out


def _ring(n: int) -> list[tuple[int, int]]:
    if n == 0:
        return [(0, 0)]
    return [(dx, dy) for dx in range(-n, n + 1) for dy in range(-n, n + 1) if max(abs(dx), abs(dy)) == n]


def zone_of(options: Mapping[str, Any]) -> float:
    return float(options["deployment_zone"])
