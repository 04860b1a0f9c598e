"""The battle's last lines of narrative, as the command line tells it, for ``render()``."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from tertia.core.events import Event
from tertia.core.game import Game
from tertia.io.narrative import Narrator
from tertia.io.safe_narration import tell_safely


class Telling:
    """Follows a battle from its deployed position and keeps the last ``keep`` lines told.
    With ``viewer``, only the events that side may see are told (the log it would read);
    without, every event (a referee's log)."""

    def __init__(self, game: Game, keep: int, viewer: str | None = None) -> None:
        self.game = game
        self.viewer = viewer
        self.narrator = Narrator.for_rules(game.ruleset, game.deployed(),
                                           side_names=game.scenario.side_names())
        self.lines: deque[str] = deque(maxlen=keep)

    def tell(self, events: Sequence[Event]) -> None:
        """Tell ``events``, the next the battle made."""
        if self.viewer is not None:
            events = [e for e in events if self.game.ruleset.event_visible_to(e, self.viewer)]
        self.lines.extend(line.text for line in tell_safely(self.narrator, events))

    def text(self) -> str:
        """The lines kept, one to a line."""
        return "\n".join(self.lines)
