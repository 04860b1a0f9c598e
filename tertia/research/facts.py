"""The columns a rule set's declared facts add to each piece's row of the observation.

Every rule set declares the facts its pieces may show a player (``Presentation.FACTS``:
hits against the hit limit, figures, formation, morale, an officer's grade ...). Each
declared fact gets columns of its own, the same for every battle of the rule set, chosen
by its kind alone:

- every fact: ``fact.<key>``, 1 when the piece shows it (a flag or badge set, a value
  there), else 0;
- a count and pips (``COUNT``, ``PIPS``), and words (``WORD``, which some rule sets give
  a number: Charge yr Pikes!' morale points): ``fact.<key>.number``, a number shown
  divided by the fact's scale (:func:`fact_scales`: the largest number the rule set
  declares it can show, ``FactSpec.most``, where it declares one), clipped to [0, 1];
- a count also: ``fact.<key>.limit``, its limit divided by that scale, and
  ``fact.<key>.fraction``, the value as a fraction of the limit (hits taken against the
  hit limit, figures left of those the unit began with);
- words also: where the rule set declares every word the fact can be
  (``FactSpec.words``), ``fact.<key>=<word>`` for each, 1 when the fact is that word
  (a one-hot; all 0 for none, or a number), else ``fact.<key>.word``, the word's code
  (:func:`word_code`); and ``fact.<key>.piece``, the piece the word names (an officer's
  unit, the unit pursued) as its slot plus one over the number of slots.

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
"""The least scale of the numbers of a fact without a declared largest number: numbers up
to it read linearly whatever the deployment shows."""

PARTS: Mapping[FactKind, tuple[str, ...]] = {
    FactKind.COUNT: ("number", "limit", "fraction"),
    FactKind.PIPS: ("number",),
    FactKind.WORD: ("number", "word", "piece"),
}
"""The columns of a fact beyond ``fact.<key>`` by its kind (none for flags, badges and
hidden facts, whose ``fact.<key>`` is their value); a word fact with declared words has a
column for each word (``fact.<key>=<word>``) in place of ``word``."""

_CODES = 2 ** 24
"""Word codes are multiples of 1/2**24, which float32 holds exactly."""


def word_code(word: str) -> float:
    """The code of ``word`` in a ``fact.<key>.word`` column (a fact whose words the rule
    set does not declare): a number in (0, 1], the same for the same word in every battle,
    0 standing for no word. Compare a column with the code of the word sought
    (``row[i] == word_code("Colonel Hollis")``) to read it as a category."""
    return (zlib.crc32(word.encode("utf-8")) % _CODES + 1) / _CODES


@dataclass(frozen=True)
class FactColumns:
    """One declared fact's columns: its ``key`` and ``kind``, the ``scale`` its numbers
    are divided by and the ``words`` it is declared to take (None: not declared)."""

    key: str
    kind: FactKind
    scale: float
    words: tuple[str, ...] | None = None

    def names(self) -> tuple[str, ...]:
        """The columns' names, without the piece's prefix (``fact.hits.fraction``,
        ``fact.formation=line``)."""
        head = f"fact.{self.key}"
        names = [head]
        for part in PARTS.get(self.kind, ()):
            if self._one_hot(part):
                names += [f"{head}={word}" for word in self.words or ()]
            else:
                names.append(f"{head}.{part}")
        return tuple(names)

    def values(self, fact: Fact | None, slots: Mapping[str, int], max_pieces: int) -> list[float]:
        """The columns for ``fact``, the piece's value of this fact (None when it shows
        none); ``slots``: the slot of each piece of the view, to place a piece it names."""
        if fact is None:
            return [0.0] * len(self.names())
        values = [float(fact.shown())]
        for part in PARTS.get(self.kind, ()):
            if self._one_hot(part):
                values += [float(fact.value == word) for word in self.words or ()]
            else:
                values.append(_READERS[part](self, fact, slots, max_pieces))
        return values

    def _one_hot(self, part: str) -> bool:
        """Is ``part`` read as a column a declared word rather than as one column?"""
        return part == "word" and self.words is not None

    def scaled(self, number: float | None) -> float:
        """``number`` divided by the scale, clipped to [0, 1]; 0 for no number."""
        return 0.0 if number is None else unit_interval(number / self.scale)


def fact_columns(game: Game) -> tuple[FactColumns, ...]:
    """The columns of each fact ``game``'s rule set declares, in declared order."""
    scales = fact_scales(game)
    return tuple(FactColumns(spec.key, spec.kind, scales[spec.key], spec.words) for spec in declared(game))


def declared(game: Game) -> tuple[FactSpec, ...]:
    """The facts ``game``'s rule set declares."""
    return tuple(game.ruleset.presentation().FACTS)


def fact_scales(game: Game) -> dict[str, float]:
    """What each fact's numbers are divided by: the largest number the rule set declares
    it can show (``FactSpec.most``), the same in every battle of the rule set; for a fact
    without one, the greatest number (value or limit) it shows on any piece of the battle
    as deployed, as either side sees it (the scenario's figures, stands ...), and at least
    :data:`MIN_SCALE`. The deployment follows from the scenario alone, so every battle of
    it has the same scales."""
    specs = declared(game)
    scales = {spec.key: MIN_SCALE for spec in specs if spec.most is None}
    for fact in _deployed_facts(game) if scales else ():
        for number in (_number(fact.value), _number(fact.limit)):
            if number is not None and fact.key in scales:
                scales[fact.key] = max(scales[fact.key], number)
    return {spec.key: scales[spec.key] if spec.most is None else spec.most for spec in specs}


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
