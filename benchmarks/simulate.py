"""Games per second of ``tertia simulate`` on 1 and 2 workers (local backend), the scaling
between them, the time 10,000 games would take, and the machinery's cost against a bare
loop of ``fight_battle`` over the same seeds.

Wall-clock rates depend on what else the machine is doing; CPU seconds per game do not,
so both are printed: on an otherwise idle machine, W workers approach W / (CPU per game).

Every side is played by ``--player`` (the doctrine by default; ``doctrine-2`` measures
a second edition before it is made the doctrine, ``baseline`` the first edition).

Usage: python benchmarks/simulate.py [--scenario edgehill] [--rules larger-battles]
                                     [--games 200] [--workers 1 2] [--seed 1]
                                     [--player doctrine]
"""

from __future__ import annotations

import argparse
import resource
import time

from tertia.ai.players import DEFAULT_PLAYER, make_player
from tertia.analysis.sim import make_spec, run
from tertia.analysis.sim.games import game_seed
from tertia.battle import fight_battle
from tertia.scenarios import resolve_scenario

TARGET_GAMES = 10_000


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bare_loop(scenario: str, rules: str, games: int, seed: int, player: str = DEFAULT_PLAYER
              ) -> tuple[float, float]:
    """Games per second and CPU seconds per game of fight_battle alone, in this process,
    on the simulation's seeds, ``player`` playing every side."""
    spec = make_spec(scenario, resolve_scenario(scenario, rules_id=rules), rules)
    game = spec.build_game()
    for i in range(3):  # warm imports and caches, as a worker's first games do
        fight_battle(game, {side: make_player(player) for side in spec.sides}, game_seed(seed + 1, i))
    cpu, start = cpu_seconds(), time.perf_counter()
    for i in range(games):
        fight_battle(game, {side: make_player(player) for side in spec.sides}, game_seed(seed, i))
    return games / (time.perf_counter() - start), (cpu_seconds() - cpu) / games


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenario", default="edgehill")
    parser.add_argument("--rules", default="larger-battles")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default=DEFAULT_PLAYER,
                        help="who plays every side (default: the doctrine)")
    args = parser.parse_args()
    scenario = resolve_scenario(args.scenario, rules_id=args.rules)
    players = dict.fromkeys(scenario.side_ids, args.player)
    spec = make_spec(args.scenario, scenario, args.rules, players=players)
    print(f"{args.games} games of {args.scenario} under {args.rules}, local backend, "
          f"{args.player} on every side")
    bare_rate, bare_cpu = bare_loop(args.scenario, args.rules, args.games, args.seed, args.player)
    print(f"  bare fight_battle loop, 1 process: {bare_rate:.2f} games/s, "
          f"{1000 * bare_cpu:.0f} ms CPU a game")
    rates: dict[int, float] = {}
    for workers in args.workers:
        cpu = cpu_seconds()
        study = run([spec], args.games, args.seed, workers=workers)
        per_game = (cpu_seconds() - cpu) / args.games
        failed = sum(1 for r in study.rows[0] if r["error"] is not None)
        rates[workers] = study.games_per_second
        # Worker processes are the fork server's children, not this process's: their CPU
        # is counted only when the games are played here (one worker).
        cpu_note = f"{1000 * per_game:.0f} ms CPU a game (start-up included); " if workers == 1 else ""
        print(f"  {workers} worker{'s' if workers > 1 else ' '}: {study.games_per_second:.2f} games/s "
              f"({study.seconds:.1f} s, start-up included; {failed} failed), {cpu_note}"
              f"{TARGET_GAMES:,} games in ~{TARGET_GAMES / study.games_per_second:.0f} s")
    if 1 in rates:
        print(f"  machinery at 1 worker: {100 * (bare_rate / rates[1] - 1):+.1f}% wall time "
              f"against the bare loop")
        for workers, rate in rates.items():
            if workers > 1:
                print(f"  scaling 1 -> {workers} workers: x{rate / rates[1]:.2f} "
                      f"({100 * rate / rates[1] / workers:.0f}% efficiency)")


if __name__ == "__main__":
    main()
