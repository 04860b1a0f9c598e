"""Telling events so that one sentence that fails cannot take the whole log down.

:func:`tell_safely` tells a run of events with a :class:`~tertia.io.narrative.Narrator`,
exactly as :meth:`Narrator.entries <tertia.io.narrative.Narrator.entries>` does. Should
telling one event raise (a fault in a sentence, or in the narrative), that event is given
one line of its own, of kind :data:`UNTOLD` ("(this event could not be told:
hits_inflicted)"), the fault is logged with its traceback, and the events around it are
told as usual. Front ends (the server's log, the command line's narrative) call it instead
of ``entries`` so a game plays on and its log reads on whatever one sentence does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence

from tertia.core.events import Event
from tertia.core.reducer import reduce
from tertia.core.state import GameState
from tertia.io.narrative import NarrativeLine, Narrator

log = logging.getLogger("tertia.narrative")

UNTOLD = "untold"
"""The kind of the line standing in for an event that could not be told."""


def untold_line(event: Event) -> NarrativeLine:
    """The line told in place of ``event`` when its own sentence failed."""
    return NarrativeLine(f"(this event could not be told: {event.type})", UNTOLD, event)


class _Feed:
    """``events[start:end]`` handed out one at a time, remembering the index of the last
    one handed out: the event the narrator was telling when it failed."""

    def __init__(self, events: Sequence[Event], start: int, end: int) -> None:
        self.events, self.start, self.end = events, start, end
        self.at = start

    def __iter__(self) -> Iterator[Event]:
        for index in range(self.start, self.end):
            self.at = index
            yield self.events[index]


def tell_safely(narrator: Narrator, events: Iterable[Event], *, where: str = "") -> list[NarrativeLine]:
    """``narrator.entries(events)``, with every event whose telling raises given an
    :func:`untold_line` instead, its fault logged (``where`` names the game or entry in
    the log). The narrator still follows every event, the untold ones included, so the
    lines after them read as they would have."""
    pending = list(events)
    out: list[NarrativeLine] = []
    start, end = 0, len(pending)
    while start < len(pending):
        before = narrator.state
        feed = _Feed(pending, start, end)
        try:
            out.extend(narrator.entries(feed))
        except Exception:
            failed = feed.at
            narrator.state = before
            log.exception("could not tell a %s event%s", pending[failed].type, f" ({where})" if where else "")
            if failed > start:
                # Tell the events before it as usual (their dice and headings together),
                # then this one alone.
                end = failed
                continue
        else:
            if end == len(pending):
                break
            failed = end
        out.append(untold_line(pending[failed]))
        narrator.state = _followed(narrator.state, pending[failed])
        start, end = failed + 1, len(pending)
    return out


def _followed(state: GameState | None, event: Event) -> GameState | None:
    """The position after an event told as untold (as it was when that fails too)."""
    if state is None:
        return None
    try:
        return reduce(state, event)
    except Exception:
        return state
