"""rules.casualties: stands and figures lost, never below none."""

from __future__ import annotations

import pytest

from tertia.rules.casualties import (
    FiguresLost,
    StandsLost,
    figures_left,
    lose_figures,
    lose_stands,
    stands_left,
)

from .block_support import A, piece, state_of, tx_with


def test_stands_are_lost_down_to_none() -> None:
    tx = tx_with(state_of(piece("u", A, 10, 10, stands_left=3)))
    assert lose_stands(tx, "u", 2, "routed off the table") == 1
    assert lose_stands(tx, "u", 5, "routed off the table") == 0
    assert stands_left(tx.state.units["u"]) == 0
    cause = "routed off the table"
    assert tx.events == [StandsLost("u", 2, cause), StandsLost("u", 1, cause)]
    assert lose_stands(tx, "u", 1, "again") == 0 and len(tx.events) == 2


def test_figures_are_counted_only_where_the_rules_count_them() -> None:
    tx = tx_with(state_of(piece("u", A, 10, 10, figures=12), piece("v", A, 20, 10)))
    assert lose_figures(tx, "u", 3, "musketry") == 9
    assert figures_left(tx.state.units["u"]) == 9
    assert tx.events == [FiguresLost("u", 3, "musketry")]
    assert figures_left(tx.state.units["v"]) is None
    with pytest.raises(ValueError, match="does not count figures"):
        lose_figures(tx, "v", 1, "musketry")
