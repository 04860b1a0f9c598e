"""Sentences for a rule set's own events.

The narrator (:mod:`tertia.io.narrative`) tells the core's events and the shared blocks'
itself; a rule set tells its own by registering a sentence for each of its event types
with :func:`tells`, in its own package, so the log, replays and reports read them without
an edit anywhere else. An event with no sentence is still told, plainly, by its type and
fields.

A sentence gets the narrator (anything with :class:`Narrating`'s names and values), the
event and the dice rolled for it, and returns its text (``None`` to tell nothing) and the
kind of line it is (``order``, ``move``, ``hit``, ``loss``, ``status`` ... the page styles
each).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from tertia.core.events import DiceRolled, Event
from tertia.core.state import GameState

Sentence = tuple[str | None, str]
"""A line's text (``None``: nothing to tell) and its kind."""


class Narrating(Protocol):
    """What a sentence may ask of the narrator telling it."""

    @property
    def state(self) -> GameState | None:
        """The position before the event (``None`` when the narrator follows none)."""

    def label(self, unit_id: str) -> str:
        """A unit's or commander's display name."""

    def side(self, side_id: str | None) -> str:
        """A side's display name."""

    def target(self, ident: str) -> str:
        """A unit's name, or a command's ("centre" or "side:centre")."""

    def follows_attack_on(self, unit_id: str) -> bool:
        """Is the last line told (passing over notes) an attack this unit took part in?
        Then a sentence about it need not name the attack again."""


E = TypeVar("E", bound=Event)
Teller = Callable[[Any, Any, Sequence[DiceRolled]], Sentence]

SENTENCES: dict[type[Event], Teller] = {}
"""The sentence registered for each rule set's event type."""


def tells(event_type: type[E]) -> Callable[
        [Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]],
        Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]]:
    """Register the decorated function as the sentence for ``event_type``; a second
    sentence for one type is refused where it is registered."""
    def register(fn: Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]
                 ) -> Callable[[Narrating, E, Sequence[DiceRolled]], Sentence]:
        known = SENTENCES.get(event_type)
        where = (fn.__module__, fn.__qualname__)
        if known is not None and (known.__module__, known.__qualname__) != where:
            raise TypeError(f"{event_type.type!r} already has a sentence, "
                            f"{known.__module__}.{known.__qualname__}")
        SENTENCES[event_type] = fn
        return fn
    return register


def humanise(text: str) -> str:
    """An identifier as words: ``"charge_home"`` -> ``"charge home"``."""
    return text.replace("_", " ")


def plural(n: int, word: str) -> str:
    """``plural(2, "hit")`` -> ``"2 hits"``; ``plural(1, "hit")`` -> ``"1 hit"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def possessive(name: str) -> str:
    """``"Royalists"`` -> ``"Royalists'"``, ``"Parliament"`` -> ``"Parliament's"``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
