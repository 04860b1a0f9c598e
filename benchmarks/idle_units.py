"""How much of a player's army stands idle away from the enemy, under every rule set.

A unit is **idle** in a turn when, from the position as that turn began to the position
as the next began (or the battle ended), it moved less than :data:`STILL` inches while no
enemy troop stood within ``--far`` inches of it (between the circles about the bases,
:func:`nearest_enemy_gap`) as the turn began: too far off to fight, and not closing.
Guns and officers are left out (guns deployed stay put by the rules; officers are not
troops). Shown for each battle
written for each rule set (or those named), the player measured (``--player``, by default
the doctrine) on each side in turn against ``--against`` (by default the random player),
``--games`` seeds a side:

- the share of the measured side's unit-turns that were idle, with a 95% Wilson interval;
- the units idle most: each one's idle turns a battle, so a line that never moves (its
  way blocked, say) stands out from a reserve held back for a turn or two.

A unit may stand idle by design (a reserve, the guard of an objective or of a vital
point, a command with no order); the figures say where to look, not what is wrong.

Usage: python benchmarks/idle_units.py [--rules d3-commands ...] [--scenario edgehill ...]
    [--player doctrine] [--against random] [--games 20] [--seed 1] [--far 12]
    [--workers 2] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from pathlib import Path

from tertia.ai.players import UnknownPlayer, entry, make_player
from tertia.analysis.sim.stats import wilson
from tertia.battle import BattleRecord, fight_battle
from tertia.core.game import Game
from tertia.core.state import GameState, Unit, UnitKind
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import written_for

STILL = 0.5
"""Inches a unit must move in a turn not to count as standing still."""
LEFT_OUT = frozenset({UnitKind.ARTILLERY})
"""Troops not counted: guns, which stay where they deploy (officers are not troops)."""


def turn_starts(states: Iterable[GameState]) -> Iterator[GameState]:
    """The first of ``states`` (a battle's positions in order) in each turn."""
    turn: int | None = None
    for state in states:
        if state.turn != turn:
            turn = state.turn
            yield state


def nearest_enemy_gap(state: GameState, unit: Unit) -> float:
    """Inches from ``unit`` to the nearest enemy troop in play, between the circles about
    their bases (centres apart less both half-diagonals: never more than the gap between
    the bases, whatever their facings); infinite when there is none."""
    return min((math.hypot(e.x - unit.x, e.y - unit.y) - e.base.radius - unit.base.radius
                for e in state.iter_troops(state.opponent(unit.side))), default=math.inf)


def idle_turns(record: BattleRecord, side: str, far: float) -> tuple[Counter[str], int]:
    """Each of ``side``'s units' idle turns in the battle (see the module's note), and the
    side's unit-turns counted (a unit in play, neither gun nor officer, as a turn began and
    still in play as the next began)."""
    states = list(turn_starts([record.initial_state, *(step.state for step in record.steps)]))
    if record.final_state is not states[-1]:
        states.append(record.final_state)  # the last turn's end, unless it ended as it began
    idle: Counter[str] = Counter()
    counted = 0
    for start, end in pairwise(states):
        for unit in start.iter_troops(side):
            later = end.units.get(unit.id)
            if unit.kind in LEFT_OUT or later is None or not later.in_play:
                continue
            counted += 1
            still = math.hypot(later.x - unit.x, later.y - unit.y) < STILL
            if still and nearest_enemy_gap(start, unit) > far:
                idle[unit.id] += 1
    return idle, counted


@dataclass(frozen=True)
class Job:
    """One battle to fight: the side measured, its player and its opponent's."""

    rules: str
    scenario: str
    side: str
    player: str
    against: str
    seed: int
    far: float


def fight(job: Job) -> tuple[dict[str, int], int]:
    """One battle of ``job``: its measured side's idle turns by unit, and its unit-turns."""
    scenario = resolve_scenario(job.scenario, rules_id=job.rules)
    game = Game(get_ruleset(job.rules), scenario)
    players = {s: make_player(job.player if s == job.side else job.against) for s in scenario.side_ids}
    idle, counted = idle_turns(fight_battle(game, players, job.seed), job.side, job.far)
    return dict(idle), counted


@dataclass(frozen=True)
class Cell:
    """One side of one battle under one rule set, over its seeds."""

    rules: str
    scenario: str
    side: str
    battles: int
    unit_turns: int
    idle: int
    share: float
    interval: tuple[float, float]
    idlest: dict[str, float]
    """The units idle most, each one's idle turns a battle, most first."""


def cell(rules: str, scenario: str, side: str, results: Sequence[tuple[dict[str, int], int]],
         most: int = 5) -> Cell:
    """The measures of one side of one battle over ``results`` (at least one battle)."""
    idle: Counter[str] = Counter()
    for by_unit, _ in results:
        idle.update(by_unit)
    counted = sum(n for _, n in results)
    total = sum(idle.values())
    interval = wilson(total, max(1, counted))
    ranked = sorted(idle.items(), key=lambda item: (-item[1], item[0]))[:most]
    return Cell(rules=rules, scenario=scenario, side=side, battles=len(results), unit_turns=counted,
                idle=total, share=total / counted if counted else 0.0,
                interval=(interval.low, interval.high),
                idlest={uid: k / len(results) for uid, k in ranked})


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", action="append", default=None,
                        help="a rule set (repeatable; default: every one)")
    parser.add_argument("--scenario", action="append", default=None,
                        help="a battle (repeatable; default: every one written for the rule set)")
    parser.add_argument("--player", default="doctrine", help="the player measured (`tertia players`)")
    parser.add_argument("--against", default="random", help="its opponent (`tertia players`)")
    parser.add_argument("--games", type=int, default=20, help="seeds a side and battle")
    parser.add_argument("--seed", type=int, default=1, help="the first seed; the rest follow it")
    parser.add_argument("--far", type=float, default=12.0,
                        help="inches from the nearest enemy beyond which a unit standing still is idle")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the numbers here")
    args = parser.parse_args(argv)
    try:
        player, against = entry(args.player).name, entry(args.against).name
    except UnknownPlayer as exc:
        parser.error(str(exc))
    if args.games < 1 or args.workers < 1 or args.far < 0:
        parser.error("--games and --workers must be at least 1, and --far not below 0")
    known = ruleset_ids()
    for rules in args.rules or ():
        if rules not in known:
            parser.error(f"unknown rule set {rules!r}; known: {', '.join(known)}")
    cells: list[Cell] = []
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        for rules in args.rules or known:
            for name in args.scenario or [s.name for s in written_for(rules)]:
                for side in resolve_scenario(name, rules_id=rules).side_ids:
                    jobs = [Job(rules, name, side, player, against, seed, args.far)
                            for seed in range(args.seed, args.seed + args.games)]
                    found = cell(rules, name, side, pool.map(fight, jobs))
                    cells.append(found)
                    low, high = found.interval
                    units = ", ".join(f"{uid} {k:.1f}" for uid, k in found.idlest.items()) or "none"
                    print(f"{rules} {name}, {side} ({player} against {against}, {found.battles} battles): "
                          f"idle {found.idle} of {found.unit_turns} unit-turns, {found.share:.1%} "
                          f"[{low:.1%}, {high:.1%}]; idlest (turns a battle): {units}", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"player": player, "against": against, "far": args.far,
                                         "seed": args.seed, "games": args.games,
                                         "cells": [asdict(c) for c in cells]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
