"""AI-against-AI full battles per second on one core (default: Edgehill, larger-battles).

Usage: python benchmarks/battles.py [--scenario edgehill] [--rules larger-battles] [--games 20]
"""

from __future__ import annotations

import argparse
import time

from tertia.ai.doctrine import DoctrinePlayer
from tertia.battle import fight_battle
from tertia.core.game import Game
from tertia.rulesets import get_ruleset
from tertia.scenarios import resolve_scenario


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scenario", default="edgehill")
    parser.add_argument("--rules", default="larger-battles")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = Game(get_ruleset(args.rules), resolve_scenario(args.scenario))
    players = {side: DoctrinePlayer() for side in game.scenario.side_ids}
    fight_battle(game, players, args.seed)  # warm caches and imports
    actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.games):
        record = fight_battle(game, players, args.seed + i)
        actions += len(record.steps)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(f"{args.games} battles of {args.scenario} under {args.rules} in {elapsed:.2f} s "
          f"({cpu:.2f} s of CPU)")
    print(f"battles/s: {args.games / elapsed:.2f} (per CPU second: {args.games / cpu:.2f})  "
          f"actions/s: {actions / elapsed:.0f}  mean actions per battle: {actions / args.games:.0f}")


if __name__ == "__main__":
    main()
