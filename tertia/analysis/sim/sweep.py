"""Paired comparison of rule variants fought on the same seeds.

Game ``i`` of every variant uses the same seed, so the dice start the same and the two
games differ only where the rule change makes them differ (common random numbers). The
effect of a variant is the mean over seeds of the per-seed difference from the baseline
(the first value): +1, 0 or -1 for a side's win, a number of turns for game length, of
victory points for the first side's margin over the second, of units for a side's losses. The
interval is a normal approximation on those per-seed differences, mean ± 1.96·s/√n,
clipped to what the difference can be (:func:`compare`); only seeds that completed without
error under both variants count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tertia.analysis.sim.games import Row
from tertia.analysis.sim.stats import Bounds, paired_difference


def paired_rows(baseline: Sequence[Row], treated: Sequence[Row]) -> list[tuple[Row, Row]]:
    """The (baseline, treated) rows of every seed that both completed without error."""
    by_seed = {r["seed"]: r for r in baseline if r.get("error") is None}
    return [(by_seed[r["seed"]], r) for r in treated if r.get("error") is None and r["seed"] in by_seed]


def compare(baseline: Sequence[Row], treated: Sequence[Row], sides: Sequence[str], *,
            last_turn: int | None = None, fielded: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The paired effect of ``treated`` against ``baseline`` on each side's win rate, the
    draw rate, game length, the first side's victory-point margin over the second and each
    side's units lost, each as ``{"estimate", "low", "high"}``.

    Each interval is clipped to what the difference can be: -1 to 1 for a rate, and, when
    given, minus to plus ``last_turn`` (the last turn a battle of either variant can reach)
    for game length and minus to plus ``fielded[side]`` (the most troop units the side
    fields under either) for its units lost. The victory-point margin has no bound known
    here and is not clipped."""
    pairs = paired_rows(baseline, treated)
    if not pairs:
        return {"paired_games": 0, "win_rate_difference": dict.fromkeys(sides),
                "draw_rate_difference": None, "turns_difference": None, "vp_margin_difference": None,
                "units_lost_difference": dict.fromkeys(sides)}

    def diff(value: Callable[..., Any], most: float | None = None) -> dict[str, float]:
        t = [float(value(tr)) for _, tr in pairs]
        b = [float(value(ba)) for ba, _ in pairs]
        bounds: Bounds | None = None
        if most is not None:  # were a game past the bound, it would be the bound
            most = max(most, *(abs(d) for d in (x - y for x, y in zip(t, b, strict=True))))
            bounds = (-most, most)
        return paired_difference(t, b, bounds=bounds).as_dict()

    return {
        "paired_games": len(pairs),
        "win_rate_difference": {side: diff(lambda r, s=side: r.get("winner") == s, 1.0) for side in sides},
        "draw_rate_difference": diff(lambda r: r.get("winner") is None, 1.0),
        "turns_difference": diff(lambda r: r["turns"], last_turn),
        "vp_margin_difference": diff(lambda r: r[f"score_{sides[0]}"] - r[f"score_{sides[1]}"]),
        "units_lost_difference": {side: diff(lambda r, s=side: r[f"units_lost_{s}"],
                                             None if fielded is None else fielded[side])
                                  for side in sides},
    }
