"""PNG plots of a study and of a sweep (matplotlib, drawn off-screen with Agg)."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from tertia.analysis.sim.games import Row
from tertia.analysis.sim.summary import completed
from tertia.io.files import replacing

DPI = 110
DRAW_COLOUR = "#999999"
SIDE_COLOURS = ("#b8433b", "#3b5fb8")
LABEL_WIDTH = 18
"""Characters on one line of a bar's label."""
MAX_SCORE_BINS = 40
"""Bars of the scores' histogram at most: a rule set that scores in hundreds (Charge yr
Pikes! counts figures) has its points gathered into bins of several points each."""
TITLE_CHARACTERS_PER_INCH = 11
"""Characters of a title at 10 points that fit in an inch of the figure, with room to
spare: a title is folded to the figure's width so that none runs off its edges."""


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    with replacing(path) as tmp:
        fig.savefig(tmp, dpi=DPI, format="png")
    return path


def _at_least(ax: Axes, span: float) -> None:
    """Widen the y axis to at least ``span``, so that a nearly constant series looks flat
    rather than magnified into a trend."""
    low, high = ax.get_ylim()
    if high - low < span:
        middle = (low + high) / 2
        ax.set_ylim(middle - span / 2, middle + span / 2)


def _within(ax: Axes, low: float, high: float) -> None:
    """Keep the y axis within what the quantity drawn can be, ``low`` to ``high`` (0 to a
    battle's last turn): a window that reaches past an end (as :func:`_at_least` may widen
    it) is moved back inside, keeping its span where that fits."""
    bottom, top = ax.get_ylim()
    span = min(top - bottom, high - low)
    if top > high:
        top, bottom = high, high - span
    if bottom < low:
        bottom, top = low, low + span
    ax.set_ylim(bottom, top)


def _errors(intervals: Sequence[Mapping[str, float] | None]) -> tuple[list[float], list[list[float]]]:
    """Estimates and asymmetric error-bar lengths (empty intervals drawn as zero)."""
    est = [i["estimate"] if i else 0.0 for i in intervals]
    low = [i["estimate"] - i["low"] if i else 0.0 for i in intervals]
    high = [i["high"] - i["estimate"] if i else 0.0 for i in intervals]
    return est, [low, high]


def _whole_numbers(ax: Axes) -> None:
    """Counts (games, turns, points) are whole: no tick at 2.5 turns."""
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def _label(name: str) -> str:
    """A side's name folded onto lines short enough not to run into its neighbour's."""
    return "\n".join(textwrap.wrap(name, LABEL_WIDTH)) or name


def _title(text: str, fig: Figure, points: float = 10.0) -> str:
    """``text`` folded onto lines that fit across ``fig`` at ``points``: a title that
    names the players, or several battles, is longer than a figure is wide."""
    width = max(20, int(fig.get_figwidth() * TITLE_CHARACTERS_PER_INCH * 10.0 / points))
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False)) or text


def win_rates_figure(summary: Mapping[str, Any], sides: Sequence[str], names: Mapping[str, str],
                     title: str, games: int) -> Figure:
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    labels = [_label(names.get(s, s)) for s in sides] + ["draw"]
    est, err = _errors([summary["win_rate"][s] for s in sides] + [summary["draw_rate"]])
    ax.bar(range(len(labels)), est, yerr=err, capsize=6, color=[*SIDE_COLOURS[:len(sides)], DRAW_COLOUR])
    ax.set_xticks(range(len(labels)), labels, fontsize=9)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (95% Wilson interval)")
    ax.set_title(_title(f"{title}: outcomes of {games} games", fig), fontsize=10)
    return fig


def game_length_figure(done: Sequence[Row], title: str) -> Figure:
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    turns = [int(r["turns"]) for r in done]
    if turns:
        ax.hist(turns, bins=range(min(turns), max(turns) + 2), align="left", rwidth=0.85, color="#5a7d5a")
    _whole_numbers(ax)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.set_title(_title(f"{title}: game length", fig), fontsize=10)
    return fig


def _score_bins(scores: Sequence[int]) -> tuple[range, Literal["left", "mid"]]:
    """Bins for whole-number scores: one a point, each bar centred on its score, unless
    that makes more than :data:`MAX_SCORE_BINS`; then bins of as many points as keep
    within it, each bar spanning its bin."""
    low, high = min(scores), max(scores)
    step = max(1, math.ceil((high - low + 1) / MAX_SCORE_BINS))
    return range(low, high + step + 1, step), "left" if step == 1 else "mid"


def scores_figure(done: Sequence[Row], sides: Sequence[str], names: Mapping[str, str], title: str) -> Figure:
    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    scores = {s: [int(r[f"score_{s}"]) for r in done] for s in sides}
    every = [v for vs in scores.values() for v in vs]
    if every:
        bins, align = _score_bins(every)
        for colour, side in zip(SIDE_COLOURS, sides, strict=False):
            ax.hist(scores[side], bins=bins, align=align, histtype="step", linewidth=2,
                    color=colour, label=names.get(side, side))
        # above the bars, under the title: inside, it hid the tallest bar it stood over
        ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncols=len(sides), fontsize=8, frameon=False)
    _whole_numbers(ax)
    ax.set_xlabel("victory points at the end")
    ax.set_ylabel("games")
    ax.set_title(_title(f"{title}: scores", fig), fontsize=10, pad=20 if every else None)
    return fig


def plot_study(rows: Sequence[Row], summary: Mapping[str, Any], sides: Sequence[str],
               names: Mapping[str, str], directory: Path, title: str) -> list[Path]:
    """``win_rates.png``, ``game_length.png`` and ``scores.png`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    done = completed(rows)
    return [
        _save(win_rates_figure(summary, sides, names, title, len(done)), directory / "win_rates.png"),
        _save(game_length_figure(done, title), directory / "game_length.png"),
        _save(scores_figure(done, sides, names, title), directory / "scores.png"),
    ]


def plot_sweep(key: str, values: Sequence[str], summaries: Sequence[Mapping[str, Any]],
               effects: Sequence[Mapping[str, Any] | None], sides: Sequence[str],
               names: Mapping[str, str], path: Path, title: str) -> Path:
    """Above: each side's win rate and the mean game length at each value of the varied
    option. Below: the paired effect of each value against the first. All with 95%
    intervals (Wilson for rates, normal for means and paired differences, clipped to what
    each can be); the game length's axis stops at the last turn a battle can reach."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = Figure(figsize=(10, 7))
    rates, turns = fig.add_subplot(2, 2, 1), fig.add_subplot(2, 2, 2)
    d_rates, d_turns = fig.add_subplot(2, 2, 3), fig.add_subplot(2, 2, 4)
    x = list(range(len(values)))
    offsets = [(-0.06 + 0.12 * i) for i in range(len(sides))]
    for colour, offset, side in zip(SIDE_COLOURS, offsets, sides, strict=False):
        label = names.get(side, side)
        est, err = _errors([s["win_rate"][side] for s in summaries])
        rates.errorbar([v + offset for v in x], est, yerr=err, fmt="o-", capsize=5, color=colour, label=label)
        est, err = _errors([None if e is None else e["win_rate_difference"][side] for e in effects])
        d_rates.errorbar([v + offset for v in x[1:]], est[1:], yerr=[err[0][1:], err[1][1:]], fmt="o",
                         capsize=5, color=colour, label=label)
    est, err = _errors([s["draw_rate"] for s in summaries])
    rates.errorbar(x, est, yerr=err, fmt="s--", capsize=5, color=DRAW_COLOUR, label="draw")
    rates.set_ylim(0, 1)
    rates.set_ylabel("win rate")
    rates.legend(fontsize=8)
    est, err = _errors([(s["turns"] or {}).get("mean") for s in summaries])
    # clip_on off: a mean at the last turn, the axis's top, is drawn whole
    turns.errorbar(x, est, yerr=err, fmt="o-", capsize=5, color="#5a7d5a", clip_on=False)
    turns.set_ylabel("mean turns")
    est, err = _errors([None if e is None else e["turns_difference"] for e in effects])
    d_turns.errorbar(x[1:], est[1:], yerr=[err[0][1:], err[1][1:]], fmt="o", capsize=5, color="#5a7d5a")
    d_rates.set_ylabel(f"win rate minus at {key}={values[0]}")
    d_rates.legend(fontsize=8)
    d_turns.set_ylabel(f"turns minus at {key}={values[0]}")
    for ax in (d_rates, d_turns):
        ax.axhline(0, color="black", linewidth=0.8)
    _at_least(turns, 2.0)
    lasts = [s["turns"]["last"] for s in summaries if s["turns"] and s["turns"].get("last") is not None]
    if lasts:  # no axis past the last turn, nor below none
        _within(turns, 0.0, max(max(lasts), *(s["turns"]["max"] for s in summaries if s["turns"])))
    _at_least(d_turns, 2.0)
    _at_least(d_rates, 0.2)
    for ax in (rates, turns, d_rates, d_turns):
        ax.set_xticks(x, values)
        ax.set_xlabel(key)
        ax.set_xlim(-0.5, len(values) - 0.5)
    fig.suptitle(_title(title, fig) + "\n95% intervals: Wilson for rates, normal for means and paired "
                 "differences, clipped to what each can be", fontsize=10)
    return _save(fig, path)


def ladder_figure(standings: Mapping[str, Any], title: str) -> Figure:
    """The ladder's ratings with their intervals, beside its win matrix (each row's player's
    score against each column's)."""
    ratings = standings["ratings"]
    players = [r["player"] for r in ratings]
    fig = Figure(figsize=(11, 4.5))
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1]})
    estimates = [r["rating"] for r in ratings]
    spread = [[r["rating"] - r["low"] for r in ratings], [r["high"] - r["rating"] for r in ratings]]
    left.errorbar(estimates, range(len(players)), xerr=spread, fmt="o", color=SIDE_COLOURS[1], capsize=4)
    left.set_yticks(range(len(players)), [_label(p) for p in players])
    left.invert_yaxis()
    left.axvline(0.0, color=DRAW_COLOUR, linewidth=0.8)
    left.set_xlabel("rating (Elo scale, mean 0) with 95% interval")
    left.set_title("Ratings")
    matrix = standings["matrix"]
    grid = [[matrix[a][b]["score"] if b in matrix[a] else float("nan") for b in players] for a in players]
    shown = right.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdBu")
    for i, a in enumerate(players):
        for j, b in enumerate(players):
            if b in matrix[a]:
                score = matrix[a][b]["score"]
                right.text(j, i, f"{score:.2f}", ha="center", va="center", fontsize=9,
                           color="white" if abs(score - 0.5) > 0.3 else "black")
    right.set_xticks(range(len(players)), [_label(p) for p in players])
    right.set_yticks(range(len(players)), [_label(p) for p in players])
    right.set_title("Score of the row's player against the column's")
    fig.colorbar(shown, ax=right, fraction=0.046)
    fig.suptitle(_title(title, fig, points=12.0), fontsize=12)
    return fig


def plot_ladder(standings: Mapping[str, Any], directory: Path, title: str) -> Path:
    """``ladder.png`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    return _save(ladder_figure(standings, title), directory / "ladder.png")
