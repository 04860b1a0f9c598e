"""One event whose sentence fails is told as untold; every other line reads as before."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pytest

from tertia.core import events as ev
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.narration import SENTENCES
from tertia.core.state import GameState
from tertia.io import narrative
from tertia.io.narrative import Narrator
from tertia.io.safe_narration import UNTOLD, tell_safely
from tertia.rulesets import get_ruleset
from tertia.scenarios import load_builtin


def opening() -> tuple[GameState, list[ev.Event], dict[str, str]]:
    """Skirmish's opening under larger-battles (dice, the start, a turn and a phase),
    followed by two moves and a removal of units named in it."""
    game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
    state, events = game.start(SeededDice(5))
    first, second = sorted(state.units)[:2]
    more: list[ev.Event] = [
        ev.UnitMoved(unit=first, path=((1.0, 1.0), (2.0, 2.0)), facing=0.0, reason="move"),
        ev.UnitMoved(unit=second, path=((3.0, 3.0), (4.0, 4.0)), facing=0.0, reason="move"),
        ev.UnitRemoved(unit=first, reason="routed"),
    ]
    before = game.ruleset.initial_state(game.scenario)
    names = {s.id: s.name or s.id for s in game.scenario.sides}
    return before, [*events, *more], names


def failing_for(event_type: type[ev.Event], monkeypatch: pytest.MonkeyPatch, *, times: int = 99) -> None:
    """Make telling ``event_type`` raise (the first ``times`` times)."""
    real = Narrator._entry
    calls = {"n": 0}

    def entry(self: Narrator, e: ev.Event, dice: Sequence[ev.DiceRolled]) -> narrative.NarrativeLine | None:
        if isinstance(e, event_type) and calls["n"] < times:
            calls["n"] += 1
            raise KeyError("a sentence that fails")
        return real(self, e, dice)

    monkeypatch.setattr(Narrator, "_entry", entry)


def test_without_a_fault_it_tells_exactly_what_entries_tells() -> None:
    before, events, names = opening()
    expected = Narrator(before, side_names=names).entries(events)
    assert tell_safely(Narrator(before, side_names=names), events) == expected
    assert all(line.kind != UNTOLD for line in expected)


def test_one_failing_event_is_untold_and_the_rest_read_as_before(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    before, events, names = opening()
    good = Narrator(before, side_names=names).entries(events)
    failing_for(ev.GameStarted, monkeypatch)
    with caplog.at_level(logging.ERROR, logger="tertia.narrative"):
        told = tell_safely(Narrator(before, side_names=names), events, where="game g1")
    untold = [line for line in told if line.kind == UNTOLD]
    assert [line.text for line in untold] == ["(this event could not be told: game_started)"]
    assert isinstance(untold[0].event, ev.GameStarted)
    # Every other line is the one told without the fault, in the same order.
    assert [line for line in told if line.kind != UNTOLD] == [
        line for line in good if not isinstance(line.event, ev.GameStarted)]
    faults = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(faults) == 1 and "game_started" in faults[0].getMessage()
    assert "game g1" in faults[0].getMessage() and faults[0].exc_info is not None


def test_the_narrator_follows_an_untold_event(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit moved by an untold event is named as it stands after it: the state the
    narrator keeps has the untold event applied."""
    before, events, names = opening()
    failing_for(ev.UnitMoved, monkeypatch)
    narrator = Narrator(before, side_names=names)
    told = tell_safely(narrator, events)
    assert [line.kind for line in told].count(UNTOLD) == 2
    assert told[-1].text.endswith("is routed and leaves the field")
    moved = next(e for e in events if isinstance(e, ev.UnitMoved))
    assert narrator.state is not None
    assert narrator.state.units[moved.unit].removed == "routed"
    second = [e for e in events if isinstance(e, ev.UnitMoved)][1]
    assert (narrator.state.units[second.unit].x, narrator.state.units[second.unit].y) == (4.0, 4.0)


def test_a_failing_last_event(monkeypatch: pytest.MonkeyPatch) -> None:
    before, events, names = opening()
    failing_for(ev.UnitRemoved, monkeypatch)
    told = tell_safely(Narrator(before, side_names=names), events)
    assert told[-1].kind == UNTOLD and told[-1].text.endswith("unit_removed)")
    assert sum(line.kind == UNTOLD for line in told) == 1


def test_a_registered_sentence_that_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule set's own sentence (registered with ``tells``) that raises."""
    from tertia.rulesets.larger_battles.events import OrderGiven

    def boom(narrator: object, e: object, dice: object) -> tuple[str, str]:
        raise ValueError("no words for this")

    monkeypatch.setitem(SENTENCES, OrderGiven, boom)
    before, events, names = opening()
    order = OrderGiven(side=before.sides[0], target="centre", purpose="move")
    told = tell_safely(Narrator(before, side_names=names), [*events[:-1], order, events[-1]])
    assert told[-2].kind == UNTOLD and told[-2].text == "(this event could not be told: order_given)"
    assert told[-1].text.endswith("is routed and leaves the field")
