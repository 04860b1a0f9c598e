"""Is every legal odds question answered exactly, and how much does each cost?

For each rule set (``--rules``, all registered by default) and each built-in scenario
written for it, one battle of the baseline doctrine against itself is played on a fixed seed, and
at its start, a third and two thirds through (counted in actions) every troop unit in
play is asked each of the rule set's words (:attr:`RuleSet.ACTION_WORDS`) of its nearest
enemies, in order of distance, until 3 answer legally (at most ``--tries`` are tried a
word). Each question is asked as the page asks it: readied from the unit's side's
observation, what that side cannot see sampled from it, and walked under the one work
budget every front end shares (:data:`~tertia.analysis.enumerate.ODDS_BUDGET`, or
``--budget``). A question the rules refuse in that position (no line of fire, no charge
possible) is not legal and not counted.

Printed for each rule set: the questions asked, answered and refused, the share answered
within 1 s of CPU, the median, 95th percentile and largest CPU time, the largest work,
and the largest CPU time a unit of work cost (what the budget is sized by: at most about
1 s of CPU for the whole budget). ``--verbose`` prints every question; ``--json FILE``
writes them all. ``--smoke`` asks a handful of questions of one position per rule set and
checks the script still runs (``make test`` runs it so).

The CPU times are of this checkout as it is installed (compiled or not): compare
checkouts by running each one's copy of this script.

Usage: python benchmarks/odds_questions.py [--rules ID ...] [--seed 1] [--budget N]
       [--tries 8] [--every N] [--verbose] [--json FILE] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from tertia.analysis.enumerate import ODDS_BUDGET, TooManyBranches, WorkMeter
from tertia.analysis.odds import odds
from tertia.analysis.questions import Question, legal_questions, played, positions
from tertia.core.game import Game
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction
from tertia.rulesets import get_ruleset, ruleset_ids
from tertia.scenarios import resolve_scenario
from tertia.scenarios.catalogue import written_for

WITHIN = 1.0
"""The CPU seconds nearly every question should be answered in."""


@dataclass(frozen=True)
class Asked:
    """One legal question and what it cost."""

    rules: str
    scenario: str
    step: int
    word: str
    unit: str
    target: str
    answered: bool
    cpu: float
    work: int
    outcomes: int
    refusal: str = ""
    walked: float | None = None
    """A refused question's share of the chance walked (exact, when it is known)."""


def smoke(game: Game, seed: int, label: str, budget: int, tries: int) -> list[Asked]:
    """A few questions in the first position of a battle (every 20th looked at) that has any."""
    for step, state in enumerate(played(game, seed)):
        if step % 20 == 0:
            found = list(questions(game, state, label, budget, tries, 3))
            if found:
                return found
    return []


def ask(game: Game, question: Question, budget: int, label: str) -> Asked | None:
    """One question walked under ``budget``; ``None`` when an answer the rules ask for in
    it is refused (not a legal question after all)."""
    meter = WorkMeter()
    start = time.process_time()
    common = (game.ruleset.id, label, question.step, question.word, question.unit, question.target)
    try:
        found = odds(game, question.ready, question.action, responses=question.responses, budget=budget,
                     meter=meter)
    except IllegalAction:
        return None
    except TooManyBranches as refused:
        walked = None if refused.walked is None else float(refused.walked)
        return Asked(*common, False, time.process_time() - start, meter.work, 0, str(refused), walked)
    return Asked(*common, True, time.process_time() - start, meter.work, len(found.outcomes))


def questions(game: Game, state: GameState, label: str, budget: int, tries: int, limit: int | None,
              every: int = 1) -> Iterator[Asked]:
    """Every unit's questions in ``state`` (every ``every``-th unit's): each word of its 3
    nearest legal targets, the first ``limit`` of them when given."""
    asked = 0
    for question in legal_questions(game, state, tries=tries, every=every):
        found = ask(game, question, budget, label)
        if found is None:
            continue
        yield found
        asked += 1
        if limit is not None and asked >= limit:
            return


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by the nearest rank, never below the median for ``q`` >= 0.5."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 1))
    return ordered[int(rank) - 1]


def summary(rules: str, found: Sequence[Asked]) -> str:
    if not found:
        return f"{rules:18} no legal questions"
    cpu = [a.cpu for a in found]
    answered = sum(a.answered for a in found)
    within = sum(a.answered and a.cpu <= WITHIN for a in found)
    per_unit = max(a.cpu / a.work for a in found if a.work)
    return (f"{rules:18} asked {len(found):5}, answered {answered:5}, refused {len(found) - answered:4}, "
            f"within {WITHIN:g} s {100 * within / len(found):5.1f}%; "
            f"CPU median {statistics.median(cpu):.3f} s, p95 {percentile(cpu, 0.95):.3f} s, "
            f"max {1000 * max(cpu):.1f} ms; work max {max(a.work for a in found):,}; "
            f"CPU a unit of work at most {1e6 * per_unit:.0f} µs{refusals(found)}")


def _count(found: Sequence[Asked], word: str) -> int:
    return sum(a.word == word for a in found)


def refusals(found: Sequence[Asked]) -> str:
    """What the refused questions were (how many of each word's), how much of their
    chance was walked before the budget ran out, and how many also estimate their chances
    from draws of the rest (:func:`~tertia.analysis.enumerate.sample_rest`)."""
    refused = [a for a in found if not a.answered]
    if not refused:
        return ""
    words = sorted({a.word for a in found})
    by_word = ", ".join(f"{word} {_count(refused, word)} of {_count(found, word)}" for word in words)
    shares = [a.walked for a in refused if a.walked is not None]
    walked = (f"; chance walked median {100 * statistics.median(shares):.1f}%, least {100 * min(shares):.1f}%"
              if shares else "")
    estimated = sum(ESTIMATED in a.refusal for a in refused)
    return f"\n{'':18} refused by word: {by_word}{walked}; estimated {estimated} of {len(refused)}"


ESTIMATED = "draws from the chance not walked"
"""The words of a refusal that drew from the chance it did not walk."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", nargs="+", default=None, help="rule set ids (all by default)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=ODDS_BUDGET, help="units of work a question may cost")
    parser.add_argument("--tries", type=int, default=8, help="nearest enemies tried for each word")
    parser.add_argument("--every", type=int, default=1, help="ask of every Nth unit only (a sample)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", type=Path, help="write every question here")
    parser.add_argument("--smoke", action="store_true", help="a few questions a rule set, to check it runs")
    args = parser.parse_args(argv)
    everything: list[Asked] = []
    for rules in args.rules or ruleset_ids():
        found: list[Asked] = []
        for scenario in written_for(rules)[:1] if args.smoke else written_for(rules):
            game = Game(get_ruleset(rules), resolve_scenario(scenario.name, rules_id=rules))
            if args.smoke:
                asked_here: Iterable[Asked] = smoke(game, args.seed, scenario.name, args.budget, args.tries)
            else:
                asked_here = (a for state in positions(game, args.seed)
                              for a in questions(game, state, scenario.name, args.budget, args.tries, None,
                                                 args.every))
            for asked in asked_here:
                found.append(asked)
                if args.verbose:
                    verdict = f"{asked.outcomes} outcomes" if asked.answered else asked.refusal
                    print(f"  {scenario.name} step {asked.step} {asked.unit} {asked.word} {asked.target}: "
                          f"{asked.cpu:.3f} s, work {asked.work:,}: {verdict}", flush=True)
        print(summary(rules, found), flush=True)
        everything.extend(found)
    if args.json:
        args.json.write_text(json.dumps([asdict(a) for a in everything], indent=1))
    if len(everything) > 1:
        print(summary("all", everything))
    return 0 if everything else 1


if __name__ == "__main__":
    sys.exit(main())
