"""The AI's moves in served games, played on a background thread.

Whenever a game changes, the runner looks at whom it awaits; if that side is the AI's,
it plays one action, saves it like any other, and looks again. Games take turns, one
action at a time, so a slow watched game never holds up another. ``pace`` is the pause
between AI actions in a game against a person; ``watch_pace`` in a game the AI plays on
both sides, so a spectator can follow it.

**Timing.** The AI chooses from its own side's observation, which holds its own secrets
(its hidden pieces, its officers' values, its fire orders), and applying its action works
on the whole position (sight over its hidden pieces): how long either takes could tell the
person playing against it something of them. So an action is first worked out (chosen,
its dice drawn, applied) and only then *published*: made part of the game, saved, its
version seen by ``/wait`` and every view. While the rules keep anything from the person
(in the position before or after the action) it is published at a
fixed cadence: ``quantum`` seconds after the AI could begin (the last change to the game,
plus the pause when that change was the AI's own), or at the first later multiple of
``quantum`` when working it out took longer. With ``quantum`` larger than the slowest
decision, each answer comes at the same moment whatever is hidden. Nothing of the game
changes until publication, so the AI works outside the game's lock and the person's own
requests are answered meanwhile, not when the AI is done. A game that hides nothing from
its person, and one the AI plays on both sides (its spectator may look from either side),
publish at once.

**Attention.** The AI plays on in a game only while someone has asked about it lately
(:data:`~tertia.web.games.ATTENTION_SECONDS`): a battle of the AI against itself whose
spectator has gone stops where it is, holding neither the runner nor memory, and goes on
when it is next asked for.
"""

from __future__ import annotations

import heapq
import logging
import math
import threading
import time
from collections.abc import Callable

from tertia.core.actions import EndPhase
from tertia.web.errors import ServiceError
from tertia.web.games import GameService
from tertia.web.live import LiveGame, Prepared

log = logging.getLogger("tertia.web")

ERRORS_KEPT = 100
"""The AI's latest faults an :class:`AiRunner` lists (:attr:`AiRunner.errors`): enough to
see what went wrong, in tests and when looking at a running server; each is in the
server's log too, with its traceback. A fault that recurs (a game whose every position
fails the AI, looked at again whenever it is asked for) must not grow a server's memory
for as long as it runs."""
QUANTUM = 1.0
"""Seconds between the AI's published actions while something is hidden from its person
(the default of ``tertia serve --ai-quantum``): a round figure above the slowest Charge yr
Pikes! decision measured on Naseby and Edgehill (see docs/web.md)."""


class AiRunner:
    """One thread playing the AI's side of every game that awaits it. ``clock`` is read
    for every time it keeps (the service's changes are read on it too)."""

    def __init__(self, service: GameService, *, pace: float = 0.0, watch_pace: float = 0.6,
                 quantum: float = QUANTUM, clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.pace = pace
        self.watch_pace = watch_pace
        self.quantum = quantum
        self.clock = clock
        service.clock = clock
        self._due: list[tuple[float, int, str]] = []
        self._queued: dict[str, float] = {}
        """Each game's one time to be looked at: a game is never in the queue twice, so it
        is never played at twice the pace."""
        self._count = 0
        self._wake = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="tertia-ai", daemon=True)
        self._pending: dict[str, tuple[LiveGame, Prepared, float]] = {}
        self.errors: list[str] = []
        """The latest :data:`ERRORS_KEPT` faults of the AI, oldest first."""

    def start(self) -> None:
        """Start the thread (again, after a stop: an application may be started more than
        once, as test clients do) and schedule the games that await the AI."""
        if not self._thread.is_alive():
            self._stopping = False
            self._thread = threading.Thread(target=self._run, name="tertia-ai", daemon=True)
            self._thread.start()
        for game_id in self.service.store.unfinished_games():
            self.service.attend(game_id)  # games awaiting the AI resume at once
            self.schedule(game_id)

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        for game_id in list(self._pending):
            # Its dice were drawn for an action never published: rebuilt from the store.
            del self._pending[game_id]
            self.service.forget(game_id)

    def schedule(self, game_id: str, delay: float = 0.0) -> None:
        """Look at the game after ``delay`` seconds (sooner if it is to be looked at sooner
        already)."""
        with self._wake:
            due = self.clock() + delay
            if self._queued.get(game_id, math.inf) <= due:
                return
            self._queued[game_id] = due
            self._count += 1
            heapq.heappush(self._due, (due, self._count, game_id))
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._stopping and (not self._due or self._due[0][0] > self.clock()):
                    timeout = self._due[0][0] - self.clock() if self._due else None
                    self._wake.wait(timeout)
                if self._stopping:
                    return
                due, _, game_id = heapq.heappop(self._due)
                if self._queued.get(game_id) != due:
                    continue  # brought forward since: looked at then
                del self._queued[game_id]
            try:
                again = self.play_one(game_id)
            except ServiceError:
                again = None  # the game is gone, or cannot be resumed (its refusal says why)
            except Exception as exc:  # a fault in one game must not stop the others
                log.exception("the AI failed in game %s", game_id)
                self.errors.append(f"{game_id}: {exc}")
                del self.errors[:-ERRORS_KEPT]
                again = None
            if again is not None:
                self.schedule(game_id, again)

    # --- one action ------------------------------------------------------------------------

    def play_one(self, game_id: str) -> float | None:
        """Work out one AI action in a game if it awaits the AI, and publish it if it is
        due (else keep it until it is); the time until the runner should look at the game
        again (a publication due, or the pause before the next action), or ``None`` when
        the AI has nothing to do."""
        if game_id in self._pending:
            return self._publish_when_due(game_id)
        if not self.service.attended(game_id):
            return None  # nobody is looking: it goes on when next asked for
        live = self.service.live(game_id, asked=False)
        with live.lock:
            state = live.state
            if state.is_over or live.controller(state.to_act) != "ai":
                return None
            side = state.to_act
            player, rng = live.player(side)
            start = self._start(live)
        # Outside the lock: only the runner changes a game that awaits the AI, and nothing
        # anyone may read changes before publication.
        try:
            action = player.choose(live.game, state, rng)
            if not live.game.is_legal(state, action):
                log.warning("the AI chose an illegal action in %s: %s", game_id, action)
                action = EndPhase()
                if not live.game.is_legal(state, action):
                    return None
            prepared = live.prepare(side, action)
            due = self._due_time(live, prepared, start)
        except BaseException:
            self.service.forget(game_id)  # dice may have been drawn: rebuilt from the store
            raise
        self._pending[game_id] = (live, prepared, due)
        return self._publish_when_due(game_id)

    def due(self, game_id: str) -> float | None:
        """When the action worked out for a game is to be published, if one waits."""
        pending = self._pending.get(game_id)
        return None if pending is None else pending[2]

    def _publish_when_due(self, game_id: str) -> float | None:
        live, prepared, due = self._pending[game_id]
        wait = due - self.clock()
        if wait > 0:
            return wait
        del self._pending[game_id]
        with live.lock:
            if not self.service.holds(live) or live.state is not prepared.before:
                # Dropped from memory meanwhile (rebuilt from the store when asked for), or
                # changed: its dice drawn for nothing, it is worked out again on a copy
                # rebuilt from the store.
                if self.service.holds(live):
                    self.service.forget(game_id)
                return 0.0
            self.service.publish(live, prepared)
            nxt = live.state
            more = not nxt.is_over and live.controller(nxt.to_act) == "ai"
        return self._pause(live) if more else None

    def _pause(self, live: LiveGame) -> float:
        return self.watch_pace if live.row.mode == "watch" else self.pace

    def _start(self, live: LiveGame) -> float:
        """When the AI could begin its action: at the game's last change, after the pause
        when that was its own action."""
        if live.changed_at is None:  # loaded since: from now
            return self.clock()
        own = bool(live.steps) and live.controller(live.steps[-1].side) == "ai"
        return live.changed_at + (self._pause(live) if own else 0.0)

    def _due_time(self, live: LiveGame, prepared: Prepared, start: float) -> float:
        """When to publish an action worked out now: at once, unless something is hidden
        from the game's person; then at the first multiple of ``quantum`` after ``start``
        by which it was ready."""
        ready = self.clock()
        if self.quantum <= 0 or not self._hides_from_person(live, prepared):
            return ready
        return start + max(1, math.ceil((ready - start) / self.quantum)) * self.quantum

    @staticmethod
    def _hides_from_person(live: LiveGame, prepared: Prepared) -> bool:
        """Do the rules keep anything from a person playing this game, in the position
        before or after the action? Each is told to the person (``status.secret``) once
        the action is published, so publishing at once or at the cadence tells them
        nothing more. (In the rule sets here an event is kept from a side only about a
        secret a position before or after it holds.)"""
        return any(live.hides_in(prepared.before, person) or live.hides_in(prepared.after, person)
                   for person in live.sides if live.controller(person) == "human")
