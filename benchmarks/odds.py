"""Time of a typical exact-odds query, in process.

The queries, from tests/scenarios/odds.toml: infantry attacking infantry (opposed D6s
and the ammunition check); the same with a supporting unit and an encouraging commander
(adding the commander's misfortune test); and a gun's bombardment.

Usage: python benchmarks/odds.py [--repeat 50]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from tertia.analysis.odds import odds
from tertia.core.game import Game
from tertia.io.scenario_file import load_scenario
from tertia.rulesets import get_ruleset

POSITION = Path(__file__).resolve().parent.parent / "tests" / "scenarios" / "odds.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    game = Game(get_ruleset("larger-battles"), load_scenario(POSITION))
    state = game.ruleset.initial_state(game.scenario)
    queries = {
        "melee": game.ruleset.query(state, "melee", "p-foot", "r-foot", {}),
        "melee, support and commander": game.ruleset.query(
            state, "melee", "p-foot", "r-foot", {"supports": ("p-support",), "commander": "p-cmd"}),
        "bombardment": game.ruleset.query(state, "bombard", "p-gun", "r-horse", {}),
    }
    for label, (ready, action) in queries.items():
        odds(game, ready, action)  # warm up
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = odds(game, ready, action)
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{label}: {len(result.outcomes)} outcomes; median {statistics.median(times):.1f} ms, "
              f"p95 {p95:.1f} ms over {args.repeat} queries")


if __name__ == "__main__":
    main()
