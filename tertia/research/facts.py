"""The columns a rule set's declared facts add to each piece's row of the observation.

Every rule set declares the facts its pieces may show a player (``Presentation.FACTS``:
hits against the hit limit, figures, formation, morale, an officer's grade ...). Each
declared fact gets columns of its own, the same for every battle of the rule set, chosen
by its kind alone:

- every fact: ``fact.<key>``, 1 when the piece shows it (a flag or badge set, a value
  there), else 0;
- a count and pips (``COUNT``, ``PIPS``), and words (``WORD``, which some rule sets give
  a number: Charge yr Pikes!' morale points): ``fact.<key>.number``, a number shown
  divided by the fact's scale (:func:`fact_scales`), clipped to [0, 1];
- a count also: ``fact.<key>.limit``, its limit divided by that scale, and
  ``fact.<key>.fraction``, the value as a fraction of the limit (hits taken against the
  hit limit, figures left of those the unit began with);
- words also: ``fact.<key>.word``, the word's code (:func:`word_code`), and
  ``fact.<key>.piece``, the piece the word names (an officer's unit, the unit pursued)
  as its slot plus one over the number of slots.

A fact's values come from :meth:`Presentation.piece <tertia.core.presentation.Presentation.piece>`
on the side's own view, which leaves out what the side may not see (another side's
``HIDDEN`` facts, secret values, everything of a piece whose place is hidden).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tertia.core.game import Game
from tertia.core.presentation import Fact, FactKind, FactSpec
from tertia.core.state import GameState

MIN_SCALE = 10.0
"""The least scale of a fact's numbers: numbers up to it read linearly whatever the
deployment shows."""

PARTS: Mapping[FactKind, tuple[str, ...]] = {
    FactKind.COUNT: ("number", "limit", "fraction"),
    FactKind.PIPS: ("number",),
    FactKind.WORD: ("number", "word", "piece"),
}
"""The columns of a fact beyond ``fact.<key>`` by its kind (none for flags, badges and
hidden facts, whose ``fact.<key>`` is their value)."""

_CODES = 2 ** 24
"""Word codes are multiples of 1/2**24, which float32 holds exactly."""


def word_code(word: str) -> float:
    """The code of ``word`` in a ``fact.<key>.word`` column: a number in (0, 1], the same
    for the same word in every battle, 0 standing for no word. Compare a column with the
    code of the word sought (``row[i] == word_code("square")``) to read it as a category."""
    return (zlib.crc32(word.encode("utf-8")) % _CODES + 1) / _CODES


@dataclass(frozen=True)
class FactColumns:
    """One declared fact's columns: its ``key`` and ``kind`` and the ``scale`` its
    numbers are divided by."""

    key: str
    kind: FactKind
    scale: float

    def names(self) -> tuple[str, ...]:
        """The columns' names, without the piece's prefix (``fact.hits.fraction``)."""
        head = f"fact.{self.key}"
        return (head, *(f"{head}.{part}" for part in PARTS.get(self.kind, ())))

    def values(self, fact: Fact | None, slots: Mapping[str, int], max_pieces: int) -> list[float]:
        """The columns for ``fact``, the piece's value of this fact (None when it shows
        none); ``slots``: the slot of each piece of the view, to place a piece it names."""
        parts = PARTS.get(self.kind, ())
        if fact is None:
            return [0.0] * (1 + len(parts))
        return [float(fact.shown()), *(_READERS[part](self, fact, slots, max_pieces) for part in parts)]

    def scaled(self, number: float | None) -> float:
        """``number`` divided by the scale, clipped to [0, 1]; 0 for no number."""
        return 0.0 if number is None else unit_interval(number / self.scale)


def fact_columns(game: Game) -> tuple[FactColumns, ...]:
    """The columns of each fact ``game``'s rule set declares, in declared order."""
    scales = fact_scales(game)
    return tuple(FactColumns(spec.key, spec.kind, scales[spec.key]) for spec in declared(game))


def declared(game: Game) -> tuple[FactSpec, ...]:
    """The facts ``game``'s rule set declares."""
    return tuple(game.ruleset.presentation().FACTS)


def fact_scales(game: Game) -> dict[str, float]:
    """What each fact's numbers are divided by: the greatest number (value or limit) it
    shows on any piece of the battle as deployed, as either side sees it (the scenario's
    figures, stands, gunners ...), and at least :data:`MIN_SCALE`. The deployment follows
    from the scenario alone, so every battle of it has the same scales."""
    scales = {spec.key: MIN_SCALE for spec in declared(game)}
    for fact in _deployed_facts(game):
        for number in (_number(fact.value), _number(fact.limit)):
            if number is not None:
                scales[fact.key] = max(scales[fact.key], number)
    return scales


def row_values(columns: Sequence[FactColumns], facts: Iterable[Fact], slots: Mapping[str, int],
               max_pieces: int) -> list[float]:
    """A piece's fact columns from the ``facts`` it shows."""
    shown = {fact.key: fact for fact in facts}
    return [value for column in columns for value in column.values(shown.get(column.key), slots, max_pieces)]


def unit_interval(value: float) -> float:
    """``value`` clipped to [0, 1]."""
    return min(1.0, max(0.0, value))


def _deployed_facts(game: Game) -> Iterable[Fact]:
    deployed = game.deployed()
    presentation = game.ruleset.presentation()
    for side in deployed.sides:
        view: GameState = game.observed_state(deployed, side)
        for uid in view.units:
            yield from (fact for fact, _ in presentation.piece(game.table, view, uid, side).facts)


def _number(value: object) -> float | None:
    # bool is an int to Python, but a flag is not a number to scale.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


def _fraction(fact: Fact) -> float:
    number = _number(fact.value)
    if number is None or not fact.limit:
        return 0.0
    return unit_interval(number / fact.limit)


def _word(value: object) -> float:
    return word_code(value) if isinstance(value, str) and value else 0.0


def _piece(value: object, slots: Mapping[str, int], max_pieces: int) -> float:
    slot = slots.get(value) if isinstance(value, str) else None
    return 0.0 if slot is None else (slot + 1) / max_pieces


_Reader = Callable[[FactColumns, Fact, Mapping[str, int], int], float]
_READERS: Mapping[str, _Reader] = {
    "number": lambda column, fact, _slots, _size: column.scaled(_number(fact.value)),
    "limit": lambda column, fact, _slots, _size: column.scaled(fact.limit),
    "fraction": lambda _column, fact, _slots, _size: _fraction(fact),
    "word": lambda _column, fact, _slots, _size: _word(fact.value),
    "piece": lambda _column, fact, slots, size: _piece(fact.value, slots, size),
}
"""How each part of :data:`PARTS` reads a fact."""
