"""The statistics of balance studies: Wilson intervals against published values, means,
paired differences, summaries and sweep pairing on hand-made rows."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest

from tertia.analysis.sim.stats import mean_interval, paired_difference, wilson, wilson_share
from tertia.analysis.sim.summary import summarize
from tertia.analysis.sim.sweep import compare, paired_rows


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Statistics in Medicine 17:857-872, Table I, method 3 (score, no continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # Symmetry: 5 of 10.
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_matches_published_intervals(successes: int, trials: int, low: float, high: float) -> None:
    interval = wilson(successes, trials)
    assert interval.estimate == successes / trials
    assert round(interval.low, 4) == low
    assert round(interval.high, 4) == high


def test_wilson_is_symmetric_and_stays_in_the_unit_interval() -> None:
    for n in (1, 2, 7, 50):
        for k in range(n + 1):
            a, b = wilson(k, n), wilson(n - k, n)
            assert 0.0 <= a.low <= a.estimate <= a.high <= 1.0
            assert math.isclose(a.low, 1 - b.high, abs_tol=1e-12)
    assert wilson(10, 10).high == 1.0 and wilson(0, 10).low == 0.0


def test_wilson_narrows_with_more_trials() -> None:
    widths = [wilson(n // 2, n).high - wilson(n // 2, n).low for n in (10, 100, 1000)]
    assert widths[0] > widths[1] > widths[2]


@pytest.mark.parametrize(("k", "n"), [(1, 0), (-1, 5), (6, 5)])
def test_wilson_refuses_impossible_counts(k: int, n: int) -> None:
    with pytest.raises(ValueError):
        wilson(k, n)


def test_mean_interval_is_mean_plus_minus_z_standard_errors() -> None:
    interval = mean_interval([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    sd = math.sqrt(32 / 7)
    assert interval.estimate == 5.0
    assert math.isclose(interval.high - 5.0, 1.959963984540054 * sd / math.sqrt(8))
    assert mean_interval([3.0]).low == mean_interval([3.0]).high == 3.0


def test_paired_difference_cancels_what_pairs_share() -> None:
    base = [10.0, 20.0, 30.0, 40.0]
    treated = [11.0, 21.0, 31.0, 41.0]
    diff = paired_difference(treated, base)
    assert diff.estimate == diff.low == diff.high == 1.0  # unpaired, the spread would swamp it
    with pytest.raises(ValueError):
        paired_difference([1.0], [1.0, 2.0])


def _row(index: int, winner: str | None, turns: int = 8, first: str = "a", error: str | None = None,
         seed: int | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {"index": index, "seed": 1000 + index if seed is None else seed, "winner": winner,
                           "turns": turns, "first_side": first, "error": error,
                           "score_a": 3, "score_b": 1, "lost_a_foot": 1, "lost_b_foot": 2,
                           "units_lost_a": 1, "units_lost_b": 2}
    if error is not None:
        row.update(winner=None, turns=None, first_side=None, score_a=None, score_b=None,
                   lost_a_foot=None, lost_b_foot=None, units_lost_a=None, units_lost_b=None)
    return row


FIELDED = {"a": {"foot": 2}, "b": {"foot": 4}}


def test_summary_counts_wins_draws_and_failures_separately() -> None:
    rows = [_row(0, "a"), _row(1, "a", first="b"), _row(2, "b"), _row(3, None), _row(4, None, error="boom")]
    s = summarize(rows, ("a", "b"), FIELDED, requested=6)
    assert (s["requested"], s["games"], s["completed"], s["failed"]) == (6, 5, 4, 1)
    assert s["wins"] == {"a": 2, "b": 1} and s["draws"] == 1
    assert s["win_rate"]["a"] == wilson(2, 4).as_dict()
    assert s["errors"] == [{"index": 4, "seed": 1004, "error": "boom"}]
    # Decided games: 0 (a first, a won), 1 (b first, a won), 2 (a first, b won).
    assert s["first_mover"]["decided"] == 3 and s["first_mover"]["first_mover_wins"] == 1
    assert s["loss_rate"]["a"]["foot"]["rate"]["estimate"] == 0.5
    assert s["loss_rate"]["b"]["foot"]["mean_lost"] == 2.0


def test_summary_measures_no_first_mover_where_no_game_names_one() -> None:
    rows = [_row(0, "a"), _row(1, "b")]
    for row in rows:
        row["first_side"] = None  # a rule set whose cards decide who acts
    assert summarize(rows, ("a", "b"), FIELDED)["first_mover"] is None
    assert summarize([_row(0, "a")], ("a", "b"), FIELDED)["first_mover"]["decided"] == 1


def test_loss_rate_intervals_stay_within_zero_and_one() -> None:
    rows = [_row(0, "a"), _row(1, "a")]
    rows[0]["lost_b_foot"] = 4  # every foot unit lost in one game, half in the other
    rate = summarize(rows, ("a", "b"), FIELDED)["loss_rate"]["b"]["foot"]["rate"]
    assert rate == wilson(1.5, 2).as_dict()
    assert 0.0 < rate["low"] < rate["estimate"] == 0.75 < rate["high"] < 1.0


@pytest.mark.parametrize("lost", [0, 2])
def test_a_loss_rate_of_none_or_all_has_a_wilson_interval_over_the_games(lost: int) -> None:
    rows = [_row(i, "a") for i in range(4)]
    for row in rows:
        row["lost_a_foot"] = lost
    rate = summarize(rows, ("a", "b"), FIELDED)["loss_rate"]["a"]["foot"]["rate"]
    assert rate == wilson(4 * lost // 2, 4).as_dict()
    assert rate["high"] - rate["low"] > 0.45  # 0 of 4 games reaches 0.49, not 0


def test_wilson_share_counts_each_trial_as_its_share() -> None:
    assert wilson_share([0.0, 0.0, 0.0, 0.0]) == wilson(0, 4)
    assert wilson_share([1.0, 0.5, 0.0]) == wilson(1.5, 3)
    with pytest.raises(ValueError):
        wilson_share([])
    with pytest.raises(ValueError):
        wilson_share([1.5])


def test_summary_of_only_failures_has_no_rates() -> None:
    s = summarize([_row(0, None, error="boom")], ("a", "b"), FIELDED)
    assert s["completed"] == 0 and s["win_rate"] == {"a": None, "b": None} and s["mean_turns"] is None


def test_sweep_pairs_by_seed_and_skips_failed_pairs() -> None:
    base = [_row(0, "a", turns=8), _row(1, "b", turns=8), _row(2, "a", turns=6)]
    treated = [_row(0, "a", turns=9), _row(1, "a", turns=9), _row(2, "a", error="boom")]
    treated[0].update(score_a=5, units_lost_b=4)  # seed 0: margin 2 -> 4, b loses 2 more
    assert [(b["index"], t["index"]) for b, t in paired_rows(base, treated)] == [(0, 0), (1, 1)]
    effect = compare(base, treated, ("a", "b"))
    assert effect["paired_games"] == 2
    assert effect["win_rate_difference"]["a"]["estimate"] == 0.5
    assert effect["turns_difference"] == {"estimate": 1.0, "low": 1.0, "high": 1.0}
    assert effect["vp_margin_difference"]["estimate"] == 1.0  # (2 + 0) / 2 seeds
    assert effect["units_lost_difference"]["b"]["estimate"] == 1.0
    assert effect["units_lost_difference"]["a"] == {"estimate": 0.0, "low": 0.0, "high": 0.0}


def test_plots_count_in_whole_numbers_and_keep_long_side_names_apart() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from tertia.analysis.sim.plots import game_length_figure, scores_figure, win_rates_figure

    rows = [_row(0, "a", turns=3), _row(1, "b", turns=4), _row(2, "a", turns=4)]
    for fig in (game_length_figure(rows, "t"), scores_figure(rows, ("a", "b"), {}, "t")):
        FigureCanvasAgg(fig).draw()
        ax = fig.axes[0]
        for ticks in (ax.get_xticks(), ax.get_yticks()):
            assert all(float(t).is_integer() for t in ticks), ticks
    names = {"a": "The Army of the Eastern Association", "b": "The King's Oxford Army and its Horse"}
    fig = win_rates_figure(summarize(rows, ("a", "b"), FIELDED), ("a", "b"), names, "t", 3)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    boxes = [label.get_window_extent(canvas.get_renderer()) for label in fig.axes[0].get_xticklabels()]
    assert len(boxes) == 3
    for left, right in itertools.pairwise(boxes):
        assert left.x1 < right.x0, "tick labels overlap"


LONG_TITLE = ("Edgehill, 23 October 1642 — Larger Battles (Parliament (Earl of Essex): doctrine, "
              "Royalists (King Charles I): random)")


def _titles_fit(fig: Any) -> None:
    """Every title of ``fig`` (each axes' and the figure's own) lies within the figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    fig.tight_layout()
    canvas.draw()
    renderer = canvas.get_renderer()
    titles = [ax.title for ax in fig.axes] + ([fig._suptitle] if fig._suptitle is not None else [])
    shown = [t for t in titles if t.get_text()]
    assert shown
    for title in shown:
        box = title.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= fig.bbox.width, (title.get_text(), box, fig.bbox.width)


def test_plot_titles_that_name_the_players_stay_on_the_figure(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Any) -> None:
    from matplotlib.figure import Figure

    from tertia.analysis.sim import plots
    from tertia.analysis.sim.ladder import Battle, Game, standings

    rows = [_row(0, "a", turns=3), _row(1, "b", turns=4), _row(2, "a", turns=4)]
    summary = summarize(rows, ("a", "b"), FIELDED, last_turn=8)
    _titles_fit(plots.win_rates_figure(summary, ("a", "b"), {}, LONG_TITLE, 3))
    _titles_fit(plots.game_length_figure(rows, LONG_TITLE))
    _titles_fit(plots.scores_figure(rows, ("a", "b"), {}, LONG_TITLE))
    drawn: list[Figure] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig) or path)
    effects = [None, compare(rows, rows, ("a", "b"), last_turn=8)]
    plots.plot_sweep("k", ["1", "2"], [summary, summary], effects, ("a", "b"), {}, tmp_path / "s.png",
                     f"{LONG_TITLE}: 3 paired games per value")
    _titles_fit(drawn[0])
    games = [Game(Battle("edgehill", "larger-battles"), 0, "doctrine", "random", 1.0, 3, (1, 2))]
    battles = ", ".join(f"Edgehill, 23 October 1642 ({rules})" for rules in
                        ("Larger Battles", "D3 (2022)", "D3 (earlier)", "Declare Thee Sir"))
    table = standings(["doctrine", "random"], games)
    _titles_fit(plots.ladder_figure(table, f"doctrine v random: {battles}"))


def test_scores_in_hundreds_are_gathered_into_few_bins() -> None:
    from tertia.analysis.sim.plots import MAX_SCORE_BINS, _score_bins

    assert _score_bins([0, 8]) == (range(0, 10), "left")  # a bar for each point, on its score
    bins, align = _score_bins([81, 647])
    assert align == "mid" and len(bins) - 1 <= MAX_SCORE_BINS
    assert bins[0] == 81 and bins[-1] > 647 and bins.step > 1


def test_a_bounded_mean_interval_is_clipped_to_what_the_mean_can_be() -> None:
    turns = [8.0, 8.0, 8.0, 7.0, 7.0]  # an 8-turn battle: the normal interval reaches 8.08
    assert mean_interval(turns).high > 8.0
    clipped = mean_interval(turns, bounds=(0.0, 8.0))
    assert clipped.as_dict() == {**mean_interval(turns).as_dict(), "high": 8.0}
    assert mean_interval([0.0, 0.0, 1.0], bounds=(0.0, 8.0)).low == 0.0
    with pytest.raises(ValueError, match="between 0 and 8"):
        mean_interval([9.0, 8.0], bounds=(0.0, 8.0))


def test_a_paired_difference_in_win_rate_stays_within_minus_one_and_one() -> None:
    won = paired_difference([1, 1, 1, 1, 0], [0, 0, 0, 0, 0])
    assert won.high > 1.0  # the normal interval alone
    assert paired_difference([1, 1, 1, 1, 0], [0, 0, 0, 0, 0], bounds=(-1, 1)).high == 1.0


def test_summary_clips_mean_turns_to_the_last_turn_a_battle_can_reach() -> None:
    rows = [_row(i, "a", turns=t) for i, t in enumerate((8, 8, 8, 7, 7))]
    unbounded = summarize(rows, ("a", "b"), FIELDED)["turns"]
    assert unbounded["mean"]["high"] > 8.0 and unbounded["last"] is None
    turns = summarize(rows, ("a", "b"), FIELDED, last_turn=8)["turns"]
    assert turns["last"] == 8
    assert turns["mean"] == {"estimate": 7.6, "low": unbounded["mean"]["low"], "high": 8.0}


def test_sweep_effects_are_clipped_to_what_each_difference_can_be() -> None:
    base = [_row(i, "b", turns=1) for i in range(5)]
    treated = [_row(i, "a", turns=8) for i in range(4)] + [_row(4, "b", turns=1)]
    for row in base + treated:
        row["units_lost_b"] = 0
    for row in treated[:4]:
        row["units_lost_b"] = 4  # all b fields
    effect = compare(base, treated, ("a", "b"), last_turn=8, fielded={"a": 2, "b": 4})
    assert paired_difference([1, 1, 1, 1, 0], [0] * 5).high > 1.0  # what the normal interval gives
    assert effect["win_rate_difference"]["a"]["high"] == 1.0
    assert effect["win_rate_difference"]["b"]["low"] == -1.0
    assert effect["turns_difference"]["high"] == 8.0
    assert effect["units_lost_difference"]["b"]["high"] == 4.0
    unbounded = compare(base, treated, ("a", "b"))  # no last turn, no troops known: only rates clipped
    assert unbounded["turns_difference"]["high"] > 8.0
    assert unbounded["units_lost_difference"]["b"]["high"] > 4.0
    assert unbounded["win_rate_difference"]["a"]["high"] == 1.0


def test_a_spec_knows_the_last_turn_its_battles_can_reach() -> None:
    from tertia.analysis.sim import make_spec
    from tertia.scenarios import resolve_scenario

    chalgrove = make_spec("chalgrove", resolve_scenario("chalgrove", rules_id="d3-cards"), "d3-cards")
    assert chalgrove.last_turn == 8
    # Charge yr Pikes!: its own turn limit, then a D6 to darkness
    naseby = make_spec("naseby", resolve_scenario("naseby", rules_id="charge-yr-pikes"), "charge-yr-pikes")
    assert naseby.last_turn == 16


def test_the_sweep_plot_draws_no_turn_past_the_last(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from matplotlib.figure import Figure

    from tertia.analysis.sim import plots

    drawn: list[Figure] = []
    monkeypatch.setattr(plots, "_save", lambda fig, path: drawn.append(fig) or path)
    values = ["8", "6", "4"]
    runs = [[_row(i, "a", turns=8) for i in range(5)], [_row(i, "a", turns=8) for i in range(5)],
            [_row(i, "a", turns=t) for i, t in enumerate((8, 8, 8, 7, 7))]]
    summaries = [summarize(rows, ("a", "b"), FIELDED, last_turn=8) for rows in runs]
    effects = [None, *(compare(runs[0], rows, ("a", "b"), last_turn=8) for rows in runs[1:])]
    plots.plot_sweep("rout_after", values, summaries, effects, ("a", "b"), {}, tmp_path / "sweep.png", "t")
    turns = drawn[0].axes[1]
    assert turns.get_ylabel() == "mean turns"
    low, high = turns.get_ylim()
    assert high == 8.0 and high - low >= 2.0


def test_summary_counts_how_the_games_ended_and_the_share_decided_on_the_field() -> None:
    """Each ending's games, most first, with whether it is a decision; the share decided is
    over every completed game, one whose reason no ending declares counted apart."""
    ended = [("darkness", 0), ("objectives", 1), ("darkness", 0), ("darkness", 0), (None, None)]
    rows = [_row(i, "a") | {"ending": e, "decided": d} for i, (e, d) in enumerate(ended)]
    rows.append(_row(9, None, error="boom"))
    endings = summarize(rows, ("a", "b"), FIELDED)["endings"]
    assert list(endings["by_ending"]) == ["darkness", "objectives"]
    assert endings["by_ending"]["darkness"] == {"games": 3, "decided": False, "rate": wilson(3, 5).as_dict()}
    assert endings["by_ending"]["objectives"]["decided"] is True
    assert (endings["decided"], endings["not_declared"]) == (1, 1)
    assert endings["decided_rate"] == wilson(1, 5).as_dict()


def test_summary_has_no_endings_where_the_rule_set_declares_none() -> None:
    rows = [_row(0, "a") | {"ending": None, "decided": None}, _row(1, "b")]
    assert summarize(rows, ("a", "b"), FIELDED)["endings"] is None


def test_a_mean_score_s_interval_stops_at_the_least_score_a_side_can_have() -> None:
    """A side that scored once in five games: the interval about its mean (0.2) reaches
    below nothing, which a rule set whose points are only won (``LEAST_SCORE``) floors at
    0; one whose points may be lost leaves it."""
    rows = [{**_row(i, "a"), "score_b": 1 if i == 0 else 0} for i in range(5)]
    floored = summarize(rows, ("a", "b"), FIELDED, least_score=0.0)["mean_score"]["b"]
    free = summarize(rows, ("a", "b"), FIELDED)["mean_score"]["b"]
    assert free["low"] < 0.0
    assert floored["low"] == 0.0 and floored["high"] == free["high"]
    assert floored["estimate"] == free["estimate"] == pytest.approx(0.2)
