"""A game: one rule set on one scenario's table. The public entry point for play.

>>> from tertia.scenarios import load_builtin
>>> from tertia.rulesets import get_ruleset
>>> from tertia.core.dice import SeededDice
>>> game = Game(get_ruleset("larger-battles"), load_builtin("skirmish"))
>>> state, events = game.start(SeededDice(1))
>>> state.turn
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tertia.core.actions import Action
from tertia.core.dice import Dice
from tertia.core.events import Event
from tertia.core.hidden import VIEW_OF, refuse_view
from tertia.core.presentation import PieceCard
from tertia.core.ruleset import RuleSet, Tx
from tertia.core.scenario import Scenario
from tertia.core.state import GameState
from tertia.core.violations import IllegalAction, Violation

_JUDGED_ALIKE = "judged alike"
"""Where a playable state keeps the position whose validation answers it shares."""


class Game:
    """Binds a rule set to a scenario's table; states flow through it as values. The
    scenario kept is the battle as the rule set fights it (:meth:`Scenario.for_rules`:
    the rule set's own order of battle, where the file gives one)."""

    def __init__(self, ruleset: RuleSet, scenario: Scenario) -> None:
        self.ruleset = ruleset
        self.scenario = scenario.for_rules(ruleset.id)
        self.table = scenario.build_battlefield()
        self._deployed: GameState | None = None
        self.side_names: dict[str, str] = self.scenario.side_names()
        """Each side's name in this battle, by its id (:meth:`Scenario.side_names`)."""

    def start(self, dice: Dice) -> tuple[GameState, list[Event]]:
        """The deployed position, then the rule set's opening procedure (first player ...).
        The deployed position follows from the scenario and the rule set alone, so it is
        worked out once a game; each battle starts from a state of its own (with its own
        memos) holding the same values."""
        tx = Tx(self.table, self.deployed(), dice)
        self.ruleset.begin(tx)
        return tx.state, tx.events

    def deployed(self) -> GameState:
        """The position as deployed, before the opening procedure: the state a telling of
        the opening's events starts from. A state of its own each call."""
        if self._deployed is None:
            self._deployed = self.ruleset.initial_state(self.scenario)
        return GameState(*self._deployed.fields())

    def validate(self, state: GameState, action: Action) -> list[Violation]:
        """Every reason ``action`` is illegal in ``state`` (empty when legal), each side it
        names named as this battle names it (:meth:`named`). The answer is remembered on
        the state, which never changes, so asking twice costs nothing.
        Raises :class:`~tertia.core.hidden.HiddenInformation` for a side's view."""
        if VIEW_OF in state.extra:
            refuse_view(state)
        key = ("validate", action)
        try:
            found: list[Violation] | None = state.cache.get(key)
        except TypeError:  # an action holding unhashable data from outside
            return self.named(self.ruleset.validate(self.table, state, action))
        if found is None:
            found = state.cache[key] = self.named(self.ruleset.validate(self.table, state, action))
            # A playable state made from a position the rules judge alike (see
            # playable_state) hands its answers on to that position (never the other
            # way: a player learns nothing from answers worked out on the position).
            alike: GameState | None = state.cache.get(_JUDGED_ALIKE)
            if alike is not None:
                alike.cache.setdefault(key, found)
        return list(found)

    def named(self, violations: Sequence[Violation]) -> list[Violation]:
        """``violations`` with each side they mention named as this battle names it (its
        :attr:`side_names`): the rules know a side by its id alone. Every refusal a player
        may read passes through here, :meth:`validate`'s and those the rule set raises
        itself (an odds question's, say)."""
        return [v.named(self.side_names) for v in violations]

    def is_legal(self, state: GameState, action: Action) -> bool:
        """Whether ``action`` is legal in ``state``: the rule set's cheap test of refusal
        (:meth:`RuleSet.surely_refused`) first, then :meth:`validate`."""
        if VIEW_OF in state.extra:
            refuse_view(state)
        return not (self.ruleset.surely_refused(self.table, state, action) or self.validate(state, action))

    def apply(self, state: GameState, action: Action, dice: Dice) -> tuple[GameState, list[Event]]:
        """Apply a legal action; raises :class:`IllegalAction` (state untouched) otherwise."""
        violations = self.validate(state, action)
        if violations:
            raise IllegalAction(violations)
        tx = Tx(self.table, state, dice)
        self.ruleset.resolve(tx, action)
        return tx.state.evolve(step=state.step + 1), tx.events

    def observe(self, state: GameState, side: str) -> dict[str, Any]:
        """What ``side`` may see, as JSON-ready data."""
        return self.ruleset.observe(self.table, state, known_side(state, side))

    def observed_state(self, state: GameState, side: str) -> GameState:
        """The position as ``side`` may see it (another side's secrets hidden)."""
        return self.ruleset.observed_state(self.table, state, known_side(state, side))

    def sample_hidden(self, observation: GameState, side: str, rng: random.Random) -> GameState:
        """A full state consistent with ``side``'s observation (see
        :meth:`RuleSet.sample_hidden`), on which actions may be tried."""
        return self.ruleset.sample_hidden(self.table, observation, known_side(observation, side), rng)

    def playable_state(self, state: GameState, side: str, seed: int) -> GameState:
        """``side``'s observation of ``state`` with its hidden values sampled by a stream
        seeded with ``seed`` (see :meth:`RuleSet.playable_state`). Under a rule set whose
        hidden values never bear on legality (``RuleSet.HIDDEN_NEVER_JUDGED``) what
        :meth:`validate` finds on the playable state holds for ``state`` too: a player's
        own check of the action it chooses is not made again when the action is applied."""
        view = self.ruleset.playable_state(self.table, state, known_side(state, side), seed)
        if view is not state and self.ruleset.HIDDEN_NEVER_JUDGED and VIEW_OF not in state.extra:
            view.cache[_JUDGED_ALIKE] = state
        return view

    def piece(self, state: GameState, unit_id: str, viewer: str | None = None) -> PieceCard:
        """``unit_id`` as ``viewer`` sees it (``None``: a referee, who sees everything):
        its facts worked out from ``viewer``'s observation of ``state``
        (:meth:`Presentation.piece <tertia.core.presentation.Presentation.piece>`)."""
        seen = state if viewer is None else self.observed_state(state, viewer)
        return self.ruleset.presentation().piece(self.table, seen, unit_id, viewer)


def known_side(state: GameState, side: str) -> str:
    """``side``, when it is one of the battle's sides; else :class:`ValueError` naming
    them: a side's name mistyped would otherwise get, without a word, a view that is no
    side's."""
    if side not in state.sides:
        raise ValueError(f"no side {side!r} in this battle (its sides: {', '.join(state.sides)})")
    return side
