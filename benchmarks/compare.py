"""Battles per CPU second of two checkouts of Tertia, in interleaved pairs.

Each checkout needs its own built virtualenv (``make -C <checkout> .venv/.installed``). A
round runs ``benchmarks/battles.py`` of the baseline, then of the candidate, for each rule
set, so a machine whose speed drifts slows both alike; the ratio candidate/baseline of
each pair is reported with its median and range.

On a shared machine CPU seconds still swing by a third from run to run. With
``--instructions`` the script counts instead the machine instructions a battle takes
under valgrind's callgrind (installed with ``apt-get install valgrind``): the same every
run (string hashing is seeded alike, numpy's BLAS starts no threads of its own and, with
``setarch``, addresses are not randomised, so sets of objects iterate alike), so one pair
per rule set says the ratio (battles 2 to 4 of each seed run, the imports and the warm-up
battle taken away).

Usage::

    git worktree add /tmp/tertia-before <old commit> && make -C /tmp/tertia-before .venv/.installed
    python benchmarks/compare.py /tmp/tertia-before . --rounds 5
    python benchmarks/compare.py /tmp/tertia-before . --instructions
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

CASES = (
    ("edgehill", "larger-battles", 10),
    ("edgehill", "d3-commands", 6),
    ("chalgrove", "d3-cards", 10),
    ("edgehill", "declare-thee-sir", 2),
    ("naseby", "charge-yr-pikes", 2),
)
"""(scenario, rule set, battles per run) timed each round."""

RATE = re.compile(r"per CPU second: ([0-9.]+)")
COLLECTED = re.compile(r"Collected : ([0-9]+)")


def run(checkout: Path, scenario: str, rules: str, games: int, *, under: tuple[str, ...] = ()
        ) -> subprocess.CompletedProcess[str]:
    """One run of ``checkout``'s benchmark (``under`` another program, such as valgrind)."""
    python = checkout / ".venv" / "bin" / "python"
    script = Path(__file__).resolve().parent / "battles.py"
    return subprocess.run(
        [*under, str(python), str(script), "--scenario", scenario, "--rules", rules,
         "--games", str(games)],
        capture_output=True, text=True, check=True, cwd=checkout,
        # String hashes (and set orders) alike every run; numpy's BLAS with no threads of its
        # own, whose spinning callgrind would count, a different number each run.
        env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"},
    )


def rate(checkout: Path, scenario: str, rules: str, games: int) -> float:
    """Battles per CPU second of one run of ``checkout``'s benchmark."""
    out = run(checkout, scenario, rules, games).stdout
    found = RATE.search(out)
    if found is None:
        raise SystemExit(f"{checkout}: no rate in the benchmark's output:\n{out}")
    return float(found.group(1))


def instructions(checkout: Path, scenario: str, rules: str, games: int) -> int:
    """Machine instructions of one run of ``checkout``'s benchmark, counted by callgrind."""
    fixed = ("setarch", platform.machine(), "--addr-no-randomize") if shutil.which("setarch") else ()
    err = run(checkout, scenario, rules, games,
              under=(*fixed, "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")).stderr
    found = COLLECTED.search(err)
    if found is None:
        raise SystemExit(f"{checkout}: callgrind counted nothing:\n{err[-2000:]}")
    return int(found.group(1))


def per_battle(checkout: Path, scenario: str, rules: str) -> float:
    """Instructions per battle: four battles' run less one battle's, over three. A run
    unmeasured comes first, so that neither counts Python compiling a source edited since
    its bytecode was cached."""
    run(checkout, scenario, rules, 1)
    return (instructions(checkout, scenario, rules, 4) - instructions(checkout, scenario, rules, 1)) / 3


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("baseline", type=Path, help="the checkout to compare against")
    parser.add_argument("candidate", type=Path, help="the checkout measured")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved pairs per rule set (5)")
    parser.add_argument("--rules", nargs="+", default=None, metavar="ID",
                        help="only these rule sets' cases (all five by default)")
    parser.add_argument("--games", type=int, default=None,
                        help="battles a run, the same for every case (each case's own by default)")
    parser.add_argument("--instructions", action="store_true",
                        help="count machine instructions under callgrind instead of timing")
    args = parser.parse_args()
    for checkout in (args.baseline, args.candidate):
        if not (checkout / ".venv" / "bin" / "python").exists():
            print(f"{checkout}: no built .venv (make -C {checkout} .venv/.installed)", file=sys.stderr)
            return 2
    cases = [c for c in CASES if args.rules is None or c[1] in args.rules]
    if args.instructions:
        for scenario, rules, _ in cases:
            before = per_battle(args.baseline, scenario, rules)
            after = per_battle(args.candidate, scenario, rules)
            print(f"{rules}: {before / 1e6:.1f} -> {after / 1e6:.1f} million instructions a battle "
                  f"(candidate/baseline speed x{before / after:.3f})", flush=True)
        return 0
    ratios: dict[str, list[float]] = {rules: [] for _, rules, _ in cases}
    for i in range(args.rounds):
        for scenario, rules, games in cases:
            games = args.games or games
            before = rate(args.baseline, scenario, rules, games)
            after = rate(args.candidate, scenario, rules, games)
            ratios[rules].append(after / before)
            print(f"round {i + 1} {rules}: {before:.2f} -> {after:.2f} battles per CPU second "
                  f"(x{after / before:.3f})", flush=True)
    print()
    for rules, found in ratios.items():
        print(f"{rules}: candidate/baseline median x{statistics.median(found):.3f} "
              f"(range x{min(found):.3f} to x{max(found):.3f}, {len(found)} pairs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
