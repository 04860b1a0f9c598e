"""What a decision costs two players on the same positions: is a doctrine's new edition
within its budget (issue: mean at most 1.5 times the baseline's, p99 at most 10 ms)?

Each player's own battles are fought differently (a bolder player's battles are fought
closer, where every check of the rules costs more), so timing each in its own battles
mixes what it thinks with where it stands. Here the two fight each other, each seed once
from each side, and every decision either meets is put to both (each answering from a
random stream of its own drawn from the battle's; only the player whose turn it is
plays its answer).

The player asked second finds what the first has worked out of the same position (the
state's memo of legal actions, the table's of cover and sight) and answers cheaper than
it would alone: so the two are asked in turn, first one and then the other first, and
each player's cost is its mean over the decisions it was asked first (as in its own
game, where no one has asked before it). Reported: decisions, CPU mean and 99th
percentile of each asked first, the second's mean over the first's, and the same over
every decision (asked first or second) for comparison.

Usage: python benchmarks/decisions.py [--rules charge-yr-pikes] [--scenario edgehill ...]
    [--players baseline doctrine] [--games 3] [--seed 1] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tertia.ai.player import Player
from tertia.ai.players import UnknownPlayer, entry, make_player
from tertia.battle import fight_battle
from tertia.core.actions import Action
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.io.scenario_file import ScenarioError
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import written_for


@dataclass
class Tally:
    """The CPU times of each player's answers, shared by both sides' seats: all of them,
    and apart those it gave asked first; ``asked`` counts the decisions, so that the
    players are asked first in turn."""

    every: dict[str, list[float]]
    first: dict[str, list[float]]
    asked: int = 0


class BothAsked:
    """A side's seat: ``lead`` plays; every decision is also put to the other player, the
    two asked first in turn, and each one's CPU time noted in the ``tally``."""

    def __init__(self, lead: str, names: Sequence[str], tally: Tally) -> None:
        self.name = lead
        self.lead = lead
        self.players: dict[str, Player] = {n: make_player(n) for n in names}
        self.tally = tally

    def choose(self, game: Game, state: GameState, rng: random.Random) -> Action:
        chosen: Action | None = None
        streams = {name: random.Random(rng.random()) for name in self.players}
        order = list(self.players)
        if self.tally.asked % 2:
            order.reverse()
        self.tally.asked += 1
        for place, name in enumerate(order):
            began = time.process_time()
            action = self.players[name].choose(game, state, streams[name])
            spent = time.process_time() - began
            self.tally.every[name].append(spent)
            if place == 0:
                self.tally.first[name].append(spent)
            if name == self.lead:
                chosen = action
        assert chosen is not None
        return chosen


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="charge-yr-pikes")
    parser.add_argument("--scenario", action="append", default=None,
                        help="a battle (repeatable; default: every one written for the rule set)")
    parser.add_argument("--players", nargs=2, default=["baseline", "doctrine"], metavar="NAME",
                        help="the two players (`tertia players`); the ratio is the second's over the first's")
    parser.add_argument("--games", type=int, default=3, help="seeds a battle, each fought both ways round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None, metavar="FILE", help="write the numbers here")
    args = parser.parse_args(argv)
    for name in args.players:
        try:
            entry(name)
        except UnknownPlayer as exc:
            parser.error(f"--players: {exc}")
    if args.rules not in ruleset_ids():
        parser.error(f"--rules: unknown rule set {args.rules!r}; known: {', '.join(ruleset_ids())}")
    first, second = args.players
    scenarios = args.scenario or [s.name for s in written_for(args.rules)]
    try:
        games = [Game(get_ruleset(args.rules), resolve_scenario(name, rules_id=args.rules))
                 for name in scenarios]
    except ScenarioError as exc:
        parser.error(f"--scenario: {exc}")
    tally = Tally(every={first: [], second: []}, first={first: [], second: []})
    started = time.perf_counter()
    for game in games:
        sides = game.scenario.side_ids
        for seed in range(args.seed, args.seed + args.games):
            for lead in (first, second):
                other = second if lead == first else first
                fight_battle(game, {sides[0]: BothAsked(lead, args.players, tally),
                                    sides[1]: BothAsked(other, args.players, tally)}, seed)
    summary = {name: {"decisions": len(ts), "mean_ms": 1e3 * statistics.mean(ts),
                      "p99_ms": 1e3 * percentile(ts, 0.99),
                      "mean_ms_every": 1e3 * statistics.mean(tally.every[name])}
               for name, ts in tally.first.items()}
    ratio = summary[second]["mean_ms"] / summary[first]["mean_ms"]
    ratio_every = summary[second]["mean_ms_every"] / summary[first]["mean_ms_every"]
    print(f"{args.rules} ({', '.join(scenarios)}), {args.games} seeds a battle both ways round, "
          f"every decision put to both players, each asked first in turn:")
    for name, s in summary.items():
        print(f"  {name:12s} {s['decisions']:6d} decisions asked first, mean {s['mean_ms']:.3f} ms, "
              f"p99 {s['p99_ms']:.2f} ms")
    print(f"  {second} over {first}: {ratio:.2f}x the mean asked first ({ratio_every:.2f}x over every "
          f"decision, asked first or second); done in {time.perf_counter() - started:.1f} s")
    if args.json is not None:
        found = {"rules": args.rules, "scenarios": scenarios, "games": args.games, "seed": args.seed,
                 "players": summary, "ratio": ratio, "ratio_every": ratio_every}
        args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
