"""The rule set's panels beside the table (the deck of cards, the objectives and who holds
them, the orders left ...), as one viewer is shown them: the one way the served page and
``tertia inspect`` build them.

Each panel is the rule set's presentation's own
(:meth:`Presentation.panel <tertia.core.presentation.Presentation.panel>`), asked for
each panel the rule set declares (``RuleSet.PANELS``) with a
:class:`~tertia.core.presentation.PanelContext` made here.

- :func:`panels`: every panel as one side is shown it, from its observation (the page's).
- :func:`side_panels`: the same, each with the sides that see it, for a side's inspection.
- :func:`referee_panels`: the referee's, who sees everything: each panel as every side
  would be shown it from the whole position, once where all are shown the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tertia.core.events import Event
from tertia.core.game import Game
from tertia.core.presentation import Panel, PanelContext
from tertia.core.state import GameState
from tertia.core.vocabulary import PanelKind

Recent = Callable[[], Iterable[Sequence[Event]]]
"""The events the viewer may see of each action, newest first (the battle's start last)."""


def _nothing_recent() -> Iterable[Sequence[Event]]:
    return ()


def panels(game: Game, state: GameState, seen: GameState, viewer: str, *, recent: Recent = _nothing_recent,
           watching: bool = False) -> list[tuple[PanelKind, Panel]]:
    """Each panel the rule set declares, as ``viewer`` is shown it in ``seen`` (its
    observation of ``state``, the whole position, which says who is to act); ``watching``:
    the one it is shown to sees as ``viewer`` but does not play it, so the panels name
    the side where they would say "you"."""
    ruleset = game.ruleset
    presentation = ruleset.presentation()
    names = game.scenario.side_names()
    shown = []
    for spec in ruleset.PANELS:
        kind = ruleset.action_kind(spec.action) if spec.action else None
        context = PanelContext(
            viewer=viewer, to_act=state.to_act, pending=bool(seen.decisions),
            phases=tuple(kind.phases) if kind is not None else (), side_names=names,
            recent=recent, watching=watching)
        shown.append((spec, presentation.panel(spec.name, seen, context)))
    return shown


@dataclass(frozen=True)
class PanelView:
    """A panel as the sides in ``seen_by`` are shown it."""

    spec: PanelKind
    panel: Panel
    seen_by: tuple[str, ...]

    @property
    def empty(self) -> bool:
        """Does the panel show nothing now (its action alone, or nothing at this moment)?"""
        return not self.panel.sections

    def to_dict(self) -> dict[str, Any]:
        """The page's panel (its declaration, sections and labels) with the sides it is
        shown to."""
        return {**self.spec.to_dict(), **self.panel.to_dict(), "seen_by": list(self.seen_by)}


def side_panels(game: Game, state: GameState, seen: GameState, side: str,
                recent: Recent = _nothing_recent) -> list[PanelView]:
    """Every panel as ``side`` is shown it, from ``seen``, its observation of ``state``;
    the side named, as to one who watches it."""
    return [PanelView(spec, panel, (side,))
            for spec, panel in panels(game, state, seen, side, recent=recent, watching=True)]


def referee_panels(game: Game, state: GameState, recent: Recent = _nothing_recent) -> list[PanelView]:
    """Every panel as a referee sees it: as each side would be shown it from the whole
    position ``state``, the sides named. A panel every side is shown alike is given once;
    else each side's that shows anything (the orders left to the side to act; each
    side's own order of cards), or once empty when none does."""
    by_side = {side: panels(game, state, state, side, recent=recent, watching=True) for side in state.sides}
    views: list[PanelView] = []
    for i, spec in enumerate(game.ruleset.PANELS):
        shown = {side: by_side[side][i][1] for side in state.sides}
        views.extend(_merged(spec, shown))
    return views


def _merged(spec: PanelKind, shown: dict[str, Panel]) -> list[PanelView]:
    """One panel as each side is shown it: once for all when they are alike, else each
    side's with anything in it, or once empty when none has."""
    sides = tuple(shown)
    first = shown[sides[0]]
    if all(panel == first for panel in shown.values()):
        return [PanelView(spec, first, sides)]
    views = [PanelView(spec, panel, (side,)) for side, panel in shown.items() if panel.sections]
    return views or [PanelView(spec, Panel(), sides)]
