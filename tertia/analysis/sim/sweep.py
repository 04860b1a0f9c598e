"""Paired comparison of rule variants fought on the same seeds.

Game ``i`` of every variant uses the same seed, so the dice start the same and the two
games differ only where the rule change makes them differ (common random numbers). The
effect of a variant is the mean over seeds of the per-seed difference from the baseline
(the first value): +1, 0 or -1 for a side's win, a number of turns for game length, of
victory points for the first side's margin over the second, of units for a side's losses. The
interval is a normal approximation on those per-seed differences, mean ± 1.96·s/√n; only
seeds that completed without error under both variants count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tertia.analysis.sim.games import Row
from tertia.analysis.sim.stats import paired_difference


def paired_rows(baseline: Sequence[Row], treated: Sequence[Row]) -> list[tuple[Row, Row]]:
    """The (baseline, treated) rows of every seed that both completed without error."""
    by_seed = {r["seed"]: r for r in baseline if r.get("error") is None}
    return [(by_seed[r["seed"]], r) for r in treated if r.get("error") is None and r["seed"] in by_seed]


def compare(baseline: Sequence[Row], treated: Sequence[Row], sides: Sequence[str]) -> dict[str, Any]:
    """The paired effect of ``treated`` against ``baseline`` on each side's win rate, the
    draw rate, game length, the first side's victory-point margin over the second and each
    side's units lost, each as ``{"estimate", "low", "high"}``."""
    pairs = paired_rows(baseline, treated)
    if not pairs:
        return {"paired_games": 0, "win_rate_difference": dict.fromkeys(sides),
                "draw_rate_difference": None, "turns_difference": None, "vp_margin_difference": None,
                "units_lost_difference": dict.fromkeys(sides)}

    def diff(value: Any) -> dict[str, float]:
        t = [float(value(tr)) for _, tr in pairs]
        b = [float(value(ba)) for ba, _ in pairs]
        return paired_difference(t, b).as_dict()

    return {
        "paired_games": len(pairs),
        "win_rate_difference": {side: diff(lambda r, s=side: r.get("winner") == s) for side in sides},
        "draw_rate_difference": diff(lambda r: r.get("winner") is None),
        "turns_difference": diff(lambda r: r["turns"]),
        "vp_margin_difference": diff(lambda r: r[f"score_{sides[0]}"] - r[f"score_{sides[1]}"]),
        "units_lost_difference": {side: diff(lambda r, s=side: r[f"units_lost_{s}"]) for side in sides},
    }
