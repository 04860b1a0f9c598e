"""The Melee Chart (Game Mechanics 5d), which fire (4b, 4c) and morale checks read too.

The chart as printed, rows by the modified dice sum and columns by the target's morale::

    Dice Sum   Poor    Good    Excellent
    12+        ROUT*   ROUT*   ROUT*
    11         ROUT    ROUT    PB2D6
    10         ROUT    PB2D6   PB2D6
    9          ROUT    PB2D6   PB1D6
    8          PB2D6   PB1D6   PB1D6
    7          PB2D6   PB1D6   HOLD
    6          PB1D6   HOLD    HOLD
    5          PB1D6   HOLD    HOLD
    4 -        HOLD    HOLD    HOLD

(The scraped text prints "PBTD6" and "PB16" for the good column's PB1D6 at 8 and 7: each
column is the one to its left moved one step, so both are PB1D6. "4 -" is 4 or less.
ROUT* is a ROUT that opens the capture of Optional Rules c.)

"PB1D6 and PB2D6 indicate target is pushed back that many inches in good order facing the
foe. HOLD means target holds ground unaffected. ROUT in melee indicates the target unit is
broken."

>>> chart_result(7, "good"), chart_result(13, "poor"), chart_result(-3, "excellent")
('PB1D6', 'ROUT*', 'HOLD')
"""

from __future__ import annotations

from functools import cache

HOLD = "HOLD"
PB1D6 = "PB1D6"
PB2D6 = "PB2D6"
ROUT = "ROUT"
ROUT_STAR = "ROUT*"
RESULTS = (HOLD, PB1D6, PB2D6, ROUT, ROUT_STAR)

LEVELS = ("poor", "good", "excellent")
"""The chart's columns: the target's morale level (:data:`tertia.rules.morale.DECLARE_LEVELS`)."""

TOP = 12
"""The top row, "12+": every sum from 12 up."""
BOTTOM = 4
"""The bottom row, "4 -": every sum from 4 down."""

CHART: dict[int, tuple[str, str, str]] = {
    12: (ROUT_STAR, ROUT_STAR, ROUT_STAR),
    11: (ROUT, ROUT, PB2D6),
    10: (ROUT, PB2D6, PB2D6),
    9: (ROUT, PB2D6, PB1D6),
    8: (PB2D6, PB1D6, PB1D6),
    7: (PB2D6, PB1D6, HOLD),
    6: (PB1D6, HOLD, HOLD),
    5: (PB1D6, HOLD, HOLD),
    4: (HOLD, HOLD, HOLD),
}
"""Melee Chart (5d): each row (12 standing for 12+, 4 for 4 or less) gives the result for
a target of poor, good and excellent morale, in that order."""


def chart_row(modified_sum: int) -> int:
    """The row a modified sum is read on: 12 for 12 and more, 4 for 4 and less."""
    return max(BOTTOM, min(TOP, modified_sum))


def chart_result(modified_sum: int, level: str) -> str:
    """Melee Chart (5d): the result of ``modified_sum`` against a target of morale
    ``level`` ("poor", "good" or "excellent").

    The sum is only compared, with the lowest row of each run of rows giving one result
    in the column, so exact odds walk one branch for each result, not one for each sum
    (:func:`~tertia.core.dice.summed`)."""
    if level not in LEVELS:
        raise ValueError(f"no Melee Chart column {level!r}; columns: {', '.join(LEVELS)}")
    column = LEVELS.index(level)
    for lowest, result in _runs(column):
        if modified_sum >= lowest:
            return result
    return CHART[BOTTOM][column]


@cache
def _runs(column: int) -> tuple[tuple[int, str], ...]:
    """The column's runs of rows giving one result above the bottom row's, highest first:
    (the run's lowest row, its result); worked out once a column."""
    runs: list[tuple[int, str]] = []
    for row in range(TOP, BOTTOM, -1):
        result = CHART[row][column]
        if runs and runs[-1][1] == result:
            runs[-1] = (row, result)
        else:
            runs.append((row, result))
    if runs and runs[-1][1] == CHART[BOTTOM][column]:
        runs.pop()
    return tuple(runs)


def is_rout(result: str) -> bool:
    """ROUT or ROUT* (a ROUT at 12+, where a capture may be tried)."""
    return result in (ROUT, ROUT_STAR)


def push_dice(result: str) -> int:
    """How many D6 a result pushes the target back: 1 for PB1D6, 2 for PB2D6, else 0."""
    return {PB1D6: 1, PB2D6: 2}.get(result, 0)
