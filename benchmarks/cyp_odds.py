"""How many Charge yr Pikes! odds questions answer within a time limit, and how long they take.

At the start of each battle (Naseby and Edgehill by default), every troop unit is asked
``fire``, ``charge`` and ``morale`` at its nearest enemy troop unit, as the page asks
(``POST /api/games/{id}/question``): readied from its own side's observation, with the
rule set's odds worked out under a time limit (``--seconds``, the page's 10 by default).
A question the rules refuse in that position (no line of fire, a charge blocked) is
counted as illegal and timed no further.

Printed for each battle and word: the questions asked, illegal, answered within the
limit, answered later (the limit bounds the walk of the chance tree, not the reading of
its branches after it); the median and 95th percentile time of the legal
ones (a refused question counts at the time it took to give up); and the same over all.
``--verbose`` prints each question's time and answer as it goes.

Usage: python benchmarks/cyp_odds.py [--battles naseby edgehill] [--words fire charge morale]
       [--seconds 10] [--every N] [--verbose]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tertia.analysis.enumerate import TooManyBranches
from tertia.analysis.odds import odds
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.hidden import is_hidden, view_of
from tertia.core.state import GameState, Unit
from tertia.core.violations import IllegalAction
from tertia.rulesets import get_ruleset
from tertia.rulesets.charge_yr_pikes.data import unit_data
from tertia.scenarios import resolve_scenario

RULES = "charge-yr-pikes"
WORDS = ("fire", "charge", "morale")


@dataclass(frozen=True)
class Asked:
    battle: str
    word: str
    unit: str
    target: str
    result: str  # "answered", "refused" or "illegal"
    seconds: float
    outcomes: int = 0


def troops(state: GameState) -> list[Unit]:
    return [u for u in state.iter_units() if u.in_play and not unit_data(u).is_officer]


def nearest_enemy(seen: GameState, unit: Unit) -> Unit | None:
    """The nearest enemy troop unit the unit's side sees on the table."""
    shown = [u for u in troops(seen) if u.side != unit.side and not is_hidden(u.extra.get("position"))]
    return min(shown, key=lambda u: (base_distance(unit.base, u.base), u.id), default=None)


def ask(game: Game, state: GameState, unit: Unit, word: str, seconds: float, battle: str) -> Asked | None:
    """One question from the unit's side's observation, as the page asks it."""
    seen = game.observed_state(state, unit.side)
    target = nearest_enemy(seen, unit)
    if target is None:
        return None
    start = time.perf_counter()
    try:
        ready, action = game.ruleset.query(seen, word, unit.id, target.id, {})
        if view_of(ready) is not None:
            ready = game.ruleset.sample_hidden(game.table, ready, unit.side, random.Random(seen.step))
        found = odds(game, ready, action, seconds=seconds)
    except IllegalAction:
        return Asked(battle, word, unit.id, target.id, "illegal", time.perf_counter() - start)
    except TooManyBranches:
        return Asked(battle, word, unit.id, target.id, "refused", time.perf_counter() - start)
    return Asked(battle, word, unit.id, target.id, "answered", time.perf_counter() - start,
                 len(found.outcomes))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def report(label: str, found: Sequence[Asked], seconds: float) -> None:
    legal = [a for a in found if a.result != "illegal"]
    answered = [a for a in legal if a.result == "answered"]
    within = sum(a.seconds <= seconds for a in answered)
    line = (f"{label:16} asked {len(found):3}, illegal {len(found) - len(legal):3}, "
            f"answered within {seconds:g} s {within:3} of {len(legal):3}")
    if legal:
        times = [a.seconds for a in legal]
        line += (f" ({100 * within / len(legal):3.0f}%), later {len(answered) - within:2}; "
                 f"median {statistics.median(times):6.2f} s, p95 {percentile(times, 0.95):6.2f} s")
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", nargs="+", default=["naseby", "edgehill"])
    parser.add_argument("--words", nargs="+", default=list(WORDS), choices=WORDS)
    parser.add_argument("--seconds", type=float, default=10.0, help="the time limit of one question")
    parser.add_argument("--every", type=int, default=1, help="ask of every Nth troop unit only")
    parser.add_argument("--verbose", action="store_true", help="print each question as it is answered")
    args = parser.parse_args()
    everything: list[Asked] = []
    for battle in args.battles:
        game = Game(get_ruleset(RULES), resolve_scenario(battle, rules_id=RULES))
        state = game.ruleset.initial_state(game.scenario)
        found: list[Asked] = []
        for unit in troops(state)[::args.every]:
            for word in args.words:
                asked = ask(game, state, unit, word, args.seconds, battle)
                if asked is None:
                    continue
                found.append(asked)
                if args.verbose:
                    print(f"  {battle} {word:6} {asked.unit:28} at {asked.target:28} {asked.seconds:6.2f} s "
                          f"{asked.result}{f' ({asked.outcomes} outcomes)' if asked.outcomes else ''}",
                          flush=True)
        for word in args.words:
            report(f"{battle} {word}", [a for a in found if a.word == word], args.seconds)
        everything.extend(found)
    report("all", everything, args.seconds)


if __name__ == "__main__":
    main()
