"""Do the estimates of refused odds questions hold the truth?

A question too dear to walk within the work budget is refused with the bounds its walked
branches prove and an estimate of each chance drawn from the branches it did not walk
(:func:`~tertia.analysis.enumerate.sample_rest`). Here the refused questions of
``benchmarks/odds_questions.py`` (the same battles, positions and questions, every
``--every``-th unit's) are each played out ``--draws`` times with dice of their own (a
plain simulation, :func:`~tertia.analysis.odds.played_out`), and every chance the refusal
estimates (each piece's flags, its rout and its leaving play, the target's and the
attacker's) is compared with the simulation's.

Printed for each rule set: the refused questions estimated, the chances compared, how many
of the simulation's values lie within the estimate's 95% interval widened by the
simulation's own 95% error (about 95% of them should, if the estimates are sound), the
mean and largest gap between estimate and simulation, and the mean width of the
estimates' intervals beside that of the bounds. ``--verbose`` prints every chance
compared.

Usage: python benchmarks/odds_estimates.py [--rules ID ...] [--seed 1] [--every 4] [--draws 2000]
       [--budget N] [--sample N] [--verbose] [--smoke]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches
from tertia.analysis.odds import estimates, odds, played_out, summary_of
from tertia.analysis.questions import legal_questions, positions
from tertia.analysis.sim.stats import Z95
from tertia.core.game import Game
from tertia.core.violations import IllegalAction
from tertia.rulesets import get_ruleset
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import written_for


@dataclass(frozen=True)
class Compared:
    """One chance of a refused question: its bounds, its estimate and interval, and the
    simulation's value with its own 95% error."""

    question: str
    chance: str
    low: float
    high: float
    estimate: float
    estimate_low: float
    estimate_high: float
    simulated: float
    error: float

    @property
    def held(self) -> bool:
        return self.estimate_low - self.error <= self.simulated <= self.estimate_high + self.error


def compared(game: Game, every: int, seed: int, draws: int, budget: int, sample: int | None,
             questions: int | None = None) -> list[Compared]:
    """Every chance the refused questions of ``game`` estimate (of the first ``questions``
    of them, when given), against the simulation."""
    found: list[Compared] = []
    measures = game.ruleset.ODDS_MEASURES
    asked: set[str] = set()
    for state in positions(game, seed):
        for q in legal_questions(game, state, every=every):
            if questions is not None and len(asked) >= questions:
                return found
            try:
                odds(game, q.ready, q.action, responses=q.responses, budget=budget, sample=sample)
                continue
            except IllegalAction:
                continue
            except TooManyBranches as refused:
                if not refused.sampled or refused.walked is None:
                    continue
                walked, estimated, rest = refused.partial, refused.sampled, 1 - refused.walked
            proved, attacker, target = summary_of(game, q.ready, q.action, walked)
            guess, _, _ = summary_of(game, q.ready, q.action, [*walked, *estimated])
            plain, _, _ = summary_of(game, q.ready, q.action,
                                     played_out(game, q.ready, q.action, responses=q.responses, draws=draws,
                                                seed=seed))
            names = {who: who for who, uid in (("target", target), ("attacker", attacker)) if uid is not None}
            asked.add(f"{q.step} {q.unit} {q.word} {q.target}")
            for who, told in estimates(proved, guess, measures, names, rest, len(estimated)):
                for e in told:
                    simulated = float(plain.get(f"{who}_{e.key}_exact") or 0)
                    error = Z95 * math.sqrt(max(simulated * (1 - simulated), 1 / draws) / draws)
                    found.append(Compared(f"{q.step} {q.unit} {q.word} {q.target}", f"{who} {e.title}",
                                          e.proved_low, e.proved_high, e.estimate, e.low, e.high, simulated,
                                          error))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", nargs="+", default=["charge-yr-pikes", "declare-thee-sir"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=4, help="ask of every Nth unit only")
    parser.add_argument("--draws", type=int, default=2000, help="plays of each question simulated")
    parser.add_argument("--budget", type=int, default=ODDS_BUDGET)
    parser.add_argument("--sample", type=int, default=None,
                        help="work of the draws from the rest (default: half the budget)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--smoke", action="store_true",
                        help="one question of one battle, with a small budget, to check it runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.rules, args.budget, args.sample, args.draws = ["declare-thee-sir"], 300, 3000, 100
    for rules in args.rules:
        found: list[Compared] = []
        for scenario in written_for(rules)[:1] if args.smoke else written_for(rules):
            game = Game(get_ruleset(rules), resolve_scenario(scenario.name, rules_id=rules))
            here = compared(game, args.every, args.seed, args.draws, args.budget, args.sample,
                            1 if args.smoke else None)
            if args.verbose:
                for c in here:
                    print(f"  {scenario.name} {c.question}: {c.chance} bounds {c.low:.1%}-{c.high:.1%}, "
                          f"estimate {c.estimate:.1%} ({c.estimate_low:.1%}-{c.estimate_high:.1%}), "
                          f"simulated {c.simulated:.1%} ±{c.error:.1%}{'' if c.held else '  MISSED'}",
                          flush=True)
            found.extend(here)
        if not found:
            print(f"{rules:18} no refused question estimated")
            continue
        gaps = [abs(c.estimate - c.simulated) for c in found]
        held = sum(c.held for c in found)
        print(f"{rules:18} questions {len({c.question for c in found})}, chances {len(found)}, "
              f"simulation within the estimate's interval (widened by its own error) {held} "
              f"({100 * held / len(found):.1f}%); gap mean {100 * statistics.mean(gaps):.2f} points, "
              f"largest {100 * max(gaps):.2f}; interval width mean "
              f"{100 * statistics.mean(c.estimate_high - c.estimate_low for c in found):.2f} points "
              f"against the bounds' {100 * statistics.mean(c.high - c.low for c in found):.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
