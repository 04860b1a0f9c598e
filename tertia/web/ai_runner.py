"""The AI's moves in served games, played on a background thread.

Whenever a game changes, the runner looks at whom it awaits; if that side is the AI's,
it plays one action, saves it like any other, and looks again. Games take turns, one
action at a time, so a slow watched game never holds up another. ``pace`` is the pause
between AI actions in a game against a person; ``watch_pace`` in a game the AI plays on
both sides, so a spectator can follow it.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time

from tertia.core.actions import EndPhase
from tertia.web.errors import ServiceError
from tertia.web.games import GameService

log = logging.getLogger("tertia.web")


class AiRunner:
    """One thread playing the AI's side of every game that awaits it."""

    def __init__(self, service: GameService, *, pace: float = 0.0, watch_pace: float = 0.6) -> None:
        self.service = service
        self.pace = pace
        self.watch_pace = watch_pace
        self._due: list[tuple[float, int, str]] = []
        self._count = 0
        self._wake = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="tertia-ai", daemon=True)
        self.errors: list[str] = []

    def start(self) -> None:
        """Start the thread (again, after a stop: an application may be started more than
        once, as test clients do) and schedule the games that await the AI."""
        if not self._thread.is_alive():
            self._stopping = False
            self._thread = threading.Thread(target=self._run, name="tertia-ai", daemon=True)
            self._thread.start()
        for game_id in self.service.store.unfinished_games():
            self.schedule(game_id)

    def stop(self) -> None:
        with self._wake:
            self._stopping = True
            self._wake.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def schedule(self, game_id: str, delay: float = 0.0) -> None:
        with self._wake:
            self._count += 1
            heapq.heappush(self._due, (time.monotonic() + delay, self._count, game_id))
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._stopping and (not self._due or self._due[0][0] > time.monotonic()):
                    timeout = self._due[0][0] - time.monotonic() if self._due else None
                    self._wake.wait(timeout)
                if self._stopping:
                    return
                _, _, game_id = heapq.heappop(self._due)
            try:
                again = self.play_one(game_id)
            except ServiceError:
                again = None  # the game is gone
            except Exception as exc:  # a fault in one game must not stop the others
                log.exception("the AI failed in game %s", game_id)
                self.errors.append(f"{game_id}: {exc}")
                again = None
            if again is not None:
                self.schedule(game_id, again)

    def play_one(self, game_id: str) -> float | None:
        """Play one AI action in a game if it awaits the AI; the pause before the next, or
        ``None`` when the AI has nothing to do."""
        service = self.service
        live = service.live(game_id)
        with live.lock:
            state = live.state
            if state.is_over or live.controller(state.to_act) != "ai":
                return None
            side = state.to_act
            player, rng = live.player(side)
            action = player.choose(live.game, state, rng)
            if not live.game.is_legal(state, action):
                log.warning("the AI chose an illegal action in %s: %s", game_id, action)
                action = EndPhase()
                if not live.game.is_legal(state, action):
                    return None
            service.apply(live, side, action)
            nxt = live.state
            more = not nxt.is_over and live.controller(nxt.to_act) == "ai"
        if not more:
            return None
        return self.watch_pace if live.row.mode == "watch" else self.pace
