"""Declare Thee Sir's Melee Chart (Game Mechanics 5d), cell by cell against the text."""

from __future__ import annotations

import re

import pytest

from tertia.rulesets.declare_thee_sir.chart import (
    CHART,
    HOLD,
    LEVELS,
    PB1D6,
    PB2D6,
    ROUT,
    ROUT_STAR,
    chart_result,
    chart_row,
    is_rout,
    push_dice,
)

PRINTED = """\
12+ROUT*ROUT*ROUT*
11ROUTROUTPB2D6
10ROUTPB2D6PB2D6
9ROUTPB2D6PB1D6
8PB2D6PBTD6PB1D6
7PB2D6PB16HOLD
6PB1D6HOLDHOLD
5PB1D6HOLDHOLD
4 -HOLDHOLDHOLD
"""
"""The chart's rows as the scraped text prints them (columns Poor, Good, Excellent)."""

OCR = {"PBTD6": PB1D6, "PB16": PB1D6}
"""The text's misread cells: "PBTD6" and "PB16" are PB1D6."""


def printed_rows() -> dict[str, tuple[str, str, str]]:
    out: dict[str, tuple[str, str, str]] = {}
    for line in PRINTED.splitlines():
        found = re.fullmatch(r"(12\+|4 -|\d+)((?:ROUT\*|ROUT|PB2D6|PB1D6|PBTD6|PB16|HOLD){3})", line)
        assert found is not None, line
        cells = re.findall(r"ROUT\*|ROUT|PB2D6|PB1D6|PBTD6|PB16|HOLD", found.group(2))
        poor, good, excellent = (OCR.get(c, c) for c in cells)
        out[found.group(1)] = (poor, good, excellent)
    return out


SUMS = {"12+": (12, 13, 16, 30), "4 -": (4, 3, 0, -5)}
"""The sums each open-ended row stands for."""


@pytest.mark.parametrize("row", list(printed_rows()))
@pytest.mark.parametrize("level", LEVELS)
def test_every_cell_reads_as_the_text_prints_it(row: str, level: str) -> None:
    expected = printed_rows()[row][LEVELS.index(level)]
    for total in SUMS[row] if row in SUMS else (int(row),):
        assert chart_result(total, level) == expected, (total, level)


def test_the_chart_has_the_texts_nine_rows_and_results() -> None:
    assert sorted(CHART) == list(range(4, 13))
    assert {c for row in CHART.values() for c in row} == {HOLD, PB1D6, PB2D6, ROUT, ROUT_STAR}
    assert [chart_row(s) for s in (-2, 4, 5, 11, 12, 19)] == [4, 4, 5, 11, 12, 12]


def test_the_ocr_reading_fits_the_charts_steps() -> None:
    """Each column is its neighbour moved along: excellent at a sum reads as good one
    lower, good as poor two lower; the misread cells (good at 8 and 7) fit only as PB1D6."""
    for total in range(6, 12):
        assert chart_result(total, "excellent") == chart_result(total - 1, "good")
    for total in range(6, 12):
        assert chart_result(total, "good") == chart_result(total - 2, "poor")
    assert (chart_result(8, "good"), chart_result(7, "good")) == (PB1D6, PB1D6)


def test_a_level_off_the_chart_is_refused() -> None:
    with pytest.raises(ValueError, match="no Melee Chart column 'untested'"):
        chart_result(7, "untested")


def test_rout_star_is_a_rout_and_pushes_are_counted_in_dice() -> None:
    assert [is_rout(r) for r in (HOLD, PB1D6, PB2D6, ROUT, ROUT_STAR)] == [False, False, False, True, True]
    assert [push_dice(r) for r in (HOLD, PB1D6, PB2D6, ROUT, ROUT_STAR)] == [0, 1, 2, 0, 0]
