"""AI-against-AI full battles per second on one core (default: Edgehill, larger-battles).

Usage: python benchmarks/battles.py [--scenario edgehill] [--rules larger-battles] [--games 20]
    [--option NAME=VALUE ...]  (a rule set option, its value as JSON: --option secret_deployment=true)
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule set option, its value as JSON (repeatable)")
    args = parser.parse_args()
    options = {name: json.loads(value) for name, _, value in (o.partition("=") for o in args.option)}
    game = Game(get_ruleset(args.rules, **options), resolve_scenario(args.scenario, rules_id=args.rules))
    players = {side: DoctrinePlayer() for side in game.scenario.side_ids}
    fight_battle(game, players, args.seed)  # warm caches and imports
    actions = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(args.games):
        record = fight_battle(game, players, args.seed + i)
        actions += len(record.steps)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    shown = "".join(f" {k}={json.dumps(v)}" for k, v in options.items())
    print(f"{args.games} battles of {args.scenario} under {args.rules}{shown} in {elapsed:.2f} s "
          f"({cpu:.2f} s of CPU)")
    print(f"battles/s: {args.games / elapsed:.2f} (per CPU second: {args.games / cpu:.2f})  "
          f"actions/s: {actions / elapsed:.0f}  mean actions per battle: {actions / args.games:.0f}")


if __name__ == "__main__":
    main()
