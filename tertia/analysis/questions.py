"""Every legal odds question in a position, asked as the page asks it.

For each troop unit in play (every ``every``-th), each word of odds its rule set answers
(:attr:`RuleSet.ACTION_WORDS <tertia.core.ruleset.RuleSet.ACTION_WORDS>`) is asked of
its nearest enemies in order of distance until ``targets`` answer legally (at most
``tries`` are tried a word). A question is readied from the unit's side's observation,
what that side cannot see sampled from it, as the page readies it; one the rules refuse
in that position (no line of fire, no charge possible) is not legal and not yielded.

The positions a benchmark or a test asks in are those of a battle of the doctrine against
itself on a fixed seed (:func:`played`): its start, a third and two thirds through.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tertia.ai.doctrine import BaselinePlayer
from tertia.battle import dice_seed, player_seed
from tertia.core.actions import Action
from tertia.core.dice import SeededDice
from tertia.core.game import Game
from tertia.core.geometry import base_distance
from tertia.core.hidden import is_hidden, view_of
from tertia.core.state import GameState, Unit
from tertia.core.violations import IllegalAction

TARGETS = 3
"""Legal targets asked about for each unit and word: its nearest."""


@dataclass(frozen=True)
class Question:
    """One legal odds question: ``word`` asked of ``unit`` against ``target`` in the
    position ``ready`` (readied for it), as ``action`` with ``responses``."""

    step: int
    word: str
    unit: str
    target: str
    ready: GameState
    action: Action
    responses: Sequence[Action] | None


def played(game: Game, seed: int) -> Iterator[GameState]:
    """The positions of the battle of the doctrine's first edition (the ``baseline``
    player) against itself that :func:`~tertia.battle.fight_battle` fights on ``seed``
    (its dice and players' streams), as it is played, the last before its end. The
    baseline, as the golden transcripts are: a later doctrine leaves the questions asked
    of these positions, and what they measure, as they were."""
    dice = SeededDice(dice_seed(seed))
    players = {side: BaselinePlayer() for side in game.scenario.side_ids}
    rngs = {side: random.Random(player_seed(seed, side)) for side in players}
    state = game.start(dice)[0]
    while not state.is_over:
        yield state
        state = game.apply(state, players[state.to_act].choose(game, state, rngs[state.to_act]), dice)[0]


def positions(game: Game, seed: int) -> list[GameState]:
    """The start of a battle of the baseline against itself (:func:`played`), and the
    positions a third and two thirds through it."""
    states = list(played(game, seed))
    return [states[len(states) * share // 3] for share in (0, 1, 2)]


def troops(state: GameState) -> list[Unit]:
    return [u for u in state.iter_units() if u.in_play and not u.is_commander]


def nearest_enemies(seen: GameState, unit: Unit) -> list[Unit]:
    """The enemies the unit's side sees on the table, nearest first."""
    shown = [u for u in troops(seen) if u.side != unit.side and not is_hidden(u.extra.get("position"))]
    return sorted(shown, key=lambda u: (base_distance(unit.base, u.base), u.id))


def readied(game: Game, seen: GameState, unit: Unit, word: str, target: Unit) -> Question | None:
    """The question as the page asks it, or ``None`` when the rules refuse it here."""
    try:
        ready, action = game.ruleset.query(seen, word, unit.id, target.id, {})
        if view_of(ready) is not None:
            ready = game.ruleset.sample_hidden(game.table, ready, unit.side, random.Random(seen.step))
        responses = game.ruleset.query_responses(ready, {})
        if game.validate(ready, action):
            return None
    except (IllegalAction, NotImplementedError):
        return None
    return Question(seen.step, word, unit.id, target.id, ready, action, responses)


def legal_questions(game: Game, state: GameState, *, targets: int = TARGETS, tries: int = 8,
                    every: int = 1) -> Iterator[Question]:
    """Every unit's legal questions in ``state`` (every ``every``-th unit's): each word of
    its ``targets`` nearest legal targets."""
    for unit in troops(state)[::every]:
        seen = game.observed_state(state, unit.side)
        if unit.id not in seen.units:
            continue
        mine = seen.units[unit.id]
        for word in game.ruleset.ACTION_WORDS:
            legal = 0
            for target in nearest_enemies(seen, mine)[:tries]:
                found = readied(game, seen, mine, word, target)
                if found is None:
                    continue
                yield found
                legal += 1
                if legal == targets:
                    break
