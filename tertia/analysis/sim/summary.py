"""What a set of game rows says: who wins and how often, how battles end and how long
they last, whether moving first helps, and what each troop type loses. Games, not units,
are the independent trials, so every interval is over games, and every rate's is a
Wilson score interval.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from tertia.analysis.sim.games import Row
from tertia.analysis.sim.stats import Interval, mean_interval, wilson, wilson_share

MAX_ERRORS_LISTED = 20


def _interval(value: Interval | None) -> dict[str, float] | None:
    return None if value is None else value.as_dict()


def completed(rows: Sequence[Row]) -> list[Row]:
    """The games that ended without an error."""
    return [r for r in rows if r.get("error") is None]


def summarize(
    rows: Sequence[Row],
    sides: Sequence[str],
    fielded: Mapping[str, Mapping[str, int]],
    *,
    requested: int | None = None,
    last_turn: int | None = None,
    least_score: float | None = None,
) -> dict[str, Any]:
    """The summary of a run as plain JSON-ready data (see ``docs/simulation.md``).

    ``fielded`` is the troop units per side and type at the start; ``requested`` the
    games asked for (defaults to the rows given); ``last_turn`` the last turn a battle can
    reach (:attr:`~tertia.analysis.sim.games.GameSpec.last_turn`), to which the interval
    of the mean game length is clipped (unclipped when None); ``least_score`` the least
    score a side can have (:attr:`~tertia.analysis.sim.games.GameSpec.least_score`), the
    floor of the interval of each side's mean score (none when None).
    """
    done = completed(rows)
    failed = [r for r in rows if r.get("error") is not None]
    n = len(done)
    wins = {side: sum(1 for r in done if r.get("winner") == side) for side in sides}
    draws = sum(1 for r in done if r.get("winner") is None)
    turns = [float(r["turns"]) for r in done]
    score_bounds = None if least_score is None else (least_score, math.inf)
    summary: dict[str, Any] = {
        "requested": len(rows) if requested is None else requested,
        "games": len(rows),
        "completed": n,
        "failed": len(failed),
        "errors": [
            {"index": r["index"], "seed": r["seed"], "error": r["error"]}
            for r in failed[:MAX_ERRORS_LISTED]
        ],
        "wins": wins,
        "draws": draws,
        "win_rate": {side: _interval(wilson(wins[side], n)) if n else None for side in sides},
        "draw_rate": _interval(wilson(draws, n)) if n else None,
        "mean_turns": statistics.fmean(turns) if turns else None,
        "turns": _turns(turns, last_turn),
        "mean_score": {
            side: _interval(mean_interval([float(r[f"score_{side}"]) for r in done], bounds=score_bounds))
            if n else None
            for side in sides
        },
        "endings": _endings(done),
        "first_mover": _first_mover(done, sides),
        "loss_rate": _loss_rates(done, fielded),
    }
    return summary


def _endings(done: Sequence[Row]) -> dict[str, Any] | None:
    """How the games ended, by the rule set's endings (most first), and the share decided
    on the field rather than by the turn limit or darkness; None when the rule set
    declares no endings (no game has one)."""
    named = [r for r in done if r.get("ending") is not None]
    if not named:
        return None
    n = len(done)
    counts = Counter(r["ending"] for r in named)
    decides = {r["ending"]: bool(r["decided"]) for r in named}
    decided = sum(1 for r in named if r["decided"])
    return {
        "by_ending": {name: {"games": k, "decided": decides[name], "rate": _interval(wilson(k, n))}
                      for name, k in sorted(counts.items(), key=lambda item: (-item[1], item[0]))},
        "not_declared": n - len(named),
        "decided": decided,
        "decided_rate": _interval(wilson(decided, n)),
    }


def _turns(turns: Sequence[float], last_turn: int | None) -> dict[str, Any] | None:
    """Game length: the mean with its interval, clipped to 0 and the last turn a battle
    can reach (or the longest game played, were one longer), the median and the range;
    ``last`` that last turn (None when not known)."""
    if not turns:
        return None
    bounds = None if last_turn is None else (0.0, float(max(last_turn, *turns)))
    return {
        "mean": mean_interval(turns, bounds=bounds).as_dict(),
        "median": statistics.median(turns),
        "min": min(turns),
        "max": max(turns),
        "last": last_turn,
    }


def _first_mover(done: Sequence[Row], sides: Sequence[str]) -> dict[str, Any] | None:
    """How the side that moved first fared: its win rate among games with a winner
    (``decided``: won by either side, at the turn limit or on the field; 0.5 means no
    advantage), and each side's win rate when it moved first and when it moved second;
    None when no completed game names a side that moved first (none was completed, or the
    rule set names none: its rows leave ``first_side`` empty)."""
    if not any(r.get("first_side") is not None for r in done):
        return None
    decided = [r for r in done if r.get("winner") is not None and r.get("first_side") is not None]
    first_wins = sum(1 for r in decided if r["winner"] == r["first_side"])
    by_side: dict[str, Any] = {}
    for side in sides:
        went_first = [r for r in done if r.get("first_side") == side]
        went_second = [r for r in done if r.get("first_side") not in (side, None)]
        by_side[side] = {
            "games_first": len(went_first),
            "win_rate_first": _interval(_rate(went_first, side)),
            "games_second": len(went_second),
            "win_rate_second": _interval(_rate(went_second, side)),
        }
    return {
        "decided": len(decided),
        "first_mover_wins": first_wins,
        "win_rate": _interval(wilson(first_wins, len(decided))) if decided else None,
        "by_side": by_side,
    }


def _rate(rows: Sequence[Row], side: str) -> Interval | None:
    if not rows:
        return None
    return wilson(sum(1 for r in rows if r.get("winner") == side), len(rows))


def _loss_rates(done: Sequence[Row], fielded: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """Per side and troop type: units fielded, mean units lost a game, and the mean
    fraction lost with a Wilson interval over games (:func:`wilson_share`)."""
    out: dict[str, Any] = {}
    for side, kinds in fielded.items():
        out[side] = {}
        for kind, count in kinds.items():
            lost = [float(r[f"lost_{side}_{kind}"]) for r in done]
            out[side][kind] = {
                "fielded": count,
                "mean_lost": statistics.fmean(lost) if lost else None,
                "rate": _interval(wilson_share([x / count for x in lost])) if lost else None,
            }
    return out
