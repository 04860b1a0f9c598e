"""rules.casualties: stands and figures lost, never below none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from tertia.core.events import Casualties, Event, event_from_dict
from tertia.io.narrative import Narrator
from tertia.rules.casualties import (
    FiguresLost,
    StandsLost,
    figures_left,
    lose_figures,
    lose_stands,
    stands_left,
)
from tertia.rules.hits import HitsInflicted, HitsRemoved
from tertia.rules.morale import MoraleLost

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


@pytest.mark.parametrize(("event", "amount", "noun"), [
    (StandsLost("u", 2, "rout"), 2, "stand"),
    (FiguresLost("u", 3, "musketry"), 3, "figure"),
    (MoraleLost("u", 1, "fire"), 1, "morale point"),
    (HitsInflicted(unit="u", hits=2, cause="combat"), 2, "hit"),
])
def test_every_block_casualty_is_of_the_core_kind(event: Casualties, amount: int, noun: str) -> None:
    assert isinstance(event, Casualties) and isinstance(event, Event)
    assert (event.unit, event.amount, event.noun) == ("u", amount, noun)
    assert event_from_dict(event.to_dict()) == event


@dataclass(frozen=True, slots=True)
class BaggageLost(Casualties, Event):
    type: ClassVar[str] = "test_baggage_lost"
    measure: ClassVar[str] = "wagons"
    noun: ClassVar[str] = "wagon"
    unit: str
    wagons: int
    cause: str


def test_the_narrator_tells_any_casualties_without_a_sentence_of_their_own() -> None:
    narrator = Narrator(state_of(piece("u", A, 10, 10)))
    assert narrator.line(StandsLost("u", 2, "routed off the table")).endswith(
        "loses 2 stands (routed off the table)")
    assert narrator.line(BaggageLost("u", 1, "plundered")).endswith("loses 1 wagon (plundered)")
    assert not isinstance(HitsRemoved(unit="u", hits=1, cause="rally"), Casualties)
