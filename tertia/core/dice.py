"""Dice: every random draw in Tertia is a chance node with a distribution and a purpose.

Only this module touches a random number generator. Play samples with a seeded RNG and
logs each draw; replay feeds the logged values back and fails loudly on any mismatch;
tests script the values; exact odds walk every branch (see :mod:`tertia.analysis.odds`).
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Distribution:
    """A finite distribution over integers with integer weights (a die, or a sum of dice)."""

    name: str
    outcomes: tuple[tuple[int, int], ...]  # (value, weight), values ascending
    total_weight: int = field(init=False, repr=False, compare=False)
    """The weights added up, once: every roll reads it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "total_weight", sum(w for _, w in self.outcomes))

    def probability(self, value: int) -> Fraction:
        return Fraction(sum(w for v, w in self.outcomes if v == value), self.total_weight)

    def values(self) -> tuple[int, ...]:
        return tuple(v for v, _ in self.outcomes)

    def __contains__(self, value: object) -> bool:
        return any(v == value for v, _ in self.outcomes)


def die(name: str, faces: Iterable[int]) -> Distribution:
    """A die with equally likely faces (faces may repeat, as on a D3 marked 1,1,2,2,3,3)."""
    counts: dict[int, int] = {}
    for f in faces:
        counts[f] = counts.get(f, 0) + 1
    return Distribution(name, tuple(sorted(counts.items())))


def sum_of(n: int, d: Distribution) -> Distribution:
    """The distribution of the sum of ``n`` independent copies of ``d``, as one node
    (worked out once for each ``n`` and ``d``: a close combat asks for it on every walk of
    its odds).

    >>> sum_of(2, D6).probability(7)
    Fraction(1, 6)
    >>> sum_of(2, D6) is sum_of(2, D6)
    True
    """
    found = _SUMS.get((n, d))
    if found is None:
        found = _SUMS[(n, d)] = _sum_of(n, d)
    return found


_SUMS: dict[tuple[int, Distribution], Distribution] = {}
"""Sums already worked out (a distribution never changes)."""


def _sum_of(n: int, d: Distribution) -> Distribution:
    acc: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for a, wa in acc.items():
            for b, wb in d.outcomes:
                nxt[a + b] = nxt.get(a + b, 0) + wa * wb
        acc = nxt
    return Distribution(f"{n}{d.name}", tuple(sorted(acc.items())))


def count_of(n: int, d: Distribution, faces: Iterable[int]) -> Distribution:
    """How many of ``n`` independent copies of ``d`` show one of ``faces``, as one node
    (a binomial count: "each stand rolls one D6 ... each hit kills one casting"). Named
    ``<n><die>@<faces>``, so a log names the very distribution rolled.

    >>> four = count_of(4, D6, (5, 6))
    >>> four.name, four.probability(0), four.probability(4)
    ('4d6@5,6', Fraction(16, 81), Fraction(1, 81))
    """
    hit = frozenset(faces) & frozenset(d.values())
    weights = {True: sum(w for v, w in d.outcomes if v in hit),
               False: sum(w for v, w in d.outcomes if v not in hit)}
    acc: dict[int, int] = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for count, w in acc.items():
            for hits, extra in ((True, 1), (False, 0)):
                if weights[hits]:
                    nxt[count + extra] = nxt.get(count + extra, 0) + w * weights[hits]
        acc = nxt
    return Distribution(f"{n}{d.name}@{','.join(map(str, sorted(hit)))}", tuple(sorted(acc.items())))


D6 = die("d6", range(1, 7))
D3 = die("d3", (1, 1, 2, 2, 3, 3))
"""The D3 of the D3 rule sets: a six-sided die marked 1,1,2,2,3,3."""
D10 = die("d10", range(1, 11))

_NAMED = {"d6": D6, "d3": D3, "d10": D10}


def distribution_named(name: str) -> Distribution:
    """Look up a distribution by the name a roll is logged under: ``d6``, ``d3`` (marked
    1,1,2,2,3,3), ``d10``, any other ``d<n>`` (faces 1 to n, as a card drawn from n), or
    ``<k><die>`` sums, or ``<k><die>@<faces>`` counts of dice showing those faces
    (:func:`count_of`). Every die the rules roll is named so, so a log says exactly which
    distribution each value came from.

    >>> distribution_named("d9").values(), distribution_named("2d3").probability(6)
    ((1, 2, 3, 4, 5, 6, 7, 8, 9), Fraction(1, 9))
    """
    if name in _NAMED:
        return _NAMED[name]
    plain = re.fullmatch(r"d([1-9][0-9]{0,3})", name)
    if plain is not None:
        return die(name, range(1, int(plain.group(1)) + 1))
    summed = re.fullmatch(r"([1-9][0-9]{0,2})(d[1-9][0-9]{0,3})", name)
    if summed is not None:
        return sum_of(int(summed.group(1)), distribution_named(summed.group(2)))
    counted = re.fullmatch(r"([1-9][0-9]{0,2})(d[1-9][0-9]{0,3})@([1-9][0-9]{0,3}(?:,[1-9][0-9]{0,3})*)?",
                           name)
    if counted is not None:
        faces = [int(f) for f in (counted.group(3) or "").split(",") if f]
        found = count_of(int(counted.group(1)), distribution_named(counted.group(2)), faces)
        if found.name == name:
            return found
    raise KeyError(f"unknown dice distribution {name!r}")


def read_face(face: int, dist: Distribution, reading: Callable[[int], T]) -> T:
    """What ``reading`` gives for ``face``, a face of ``dist``, found by comparing the
    face with the bounds of the runs of faces ``reading`` reads alike, and by nothing
    else. A table read off a die after adding modifiers (``min(6, face + 1) in (5, 6)``,
    ``table[face + bonus]``) reads the face by arithmetic, so exact odds
    (:mod:`tertia.analysis.enumerate`) walk every face of it; read through this, they
    walk one branch for each run of faces that read alike. ``reading`` is worked out
    on plain numbers: what it gives is the same for every face, and so is play.

    >>> hits = lambda f: min(6, f + 1) in (5, 6)
    >>> read_face(5, D6, hits), read_face(3, D6, hits)
    (True, False)
    """
    runs: list[tuple[int, T]] = []  # (the run's highest face, what it reads)
    for value in dist.values():
        read = reading(value)
        if runs and runs[-1][1] == read:
            runs[-1] = (value, read)
        else:
            runs.append((value, read))
    for highest, read in runs[:-1]:
        if face <= highest:
            return read
    return runs[-1][1]


def summed(*terms: int) -> int:
    """The sum of dice faces and modifiers, to be compared (with a score, or another such
    sum) and nothing else: exact odds (:mod:`tertia.analysis.enumerate`) then group the
    dice in it jointly, one branch for each way the comparisons go (two opposed dice
    beating, tying or losing: three branches, not 36). Read whole (a table looked up, a
    record written) it counts its dice face by face. In play it is the plain sum.

    >>> summed(4, 2, -1)
    5
    """
    for term in terms:
        summed_with = getattr(term, "summed_with", None)
        if summed_with is not None:
            found: int = summed_with(terms)
            return found
    return sum(terms)


def recorded(face: int) -> int:
    """A die's face as a plain number for the record only (an event's text or score):
    exact odds (:mod:`tertia.analysis.enumerate`) are not told of this use, so faces the
    rules compare alike stay one branch; nothing may decide on what this returns. In play
    the face is a plain number and this returns it.

    >>> recorded(4)
    4
    """
    return int.__int__(face)


@dataclass(frozen=True, slots=True)
class Roll:
    """One logged draw."""

    purpose: str
    die: str
    value: int


class DiceDivergence(Exception):
    """Raised when replayed or scripted dice do not match what the rules ask for."""


class Dice(Protocol):
    """The one interface the rules use for randomness."""

    def roll(self, dist: Distribution, purpose: str) -> int: ...


class RollsAgain(Protocol):
    """Dice that want to know when the rules roll an attempt again ("re-roll ties"):
    exact enumeration takes the attempt once, conditioned on its deciding, instead of
    walking attempt after attempt for ever. Other dice just roll again."""

    def attempt_begins(self) -> int:
        """An attempt is about to roll; returns a mark for :meth:`attempt_rolled_again`."""
        ...

    def attempt_rolled_again(self, mark: int) -> None:
        """The attempt begun at ``mark`` decided nothing and is rolled again."""
        ...


class SettlesApart(Protocol):
    """Dice that want to settle a step of the rules on its own (:meth:`Tx.apart
    <tertia.core.ruleset.Tx.apart>`): exact enumeration works out the step's outcomes once
    from the position it starts in and walks one branch for each distinct outcome, rather
    than replaying every fall of its dice with everything after it. Other dice just run it."""

    def settle_apart(self, tx: object, procedure: Callable[..., T], args: tuple[object, ...]) -> T:
        """What ``procedure(tx, *args)`` returns, its events and position left in ``tx``."""
        ...


class SeededDice:
    """Samples with a seeded RNG and keeps a log of every draw."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.log: list[Roll] = []

    def roll(self, dist: Distribution, purpose: str) -> int:
        r = self._rng.randrange(dist.total_weight)
        value = dist.outcomes[-1][0]
        for face, weight in dist.outcomes:
            if r < weight:
                value = face
                break
            r -= weight
        self.log.append(Roll(purpose, dist.name, value))
        return value


class ScriptedDice:
    """Returns values from a script, in order: worked examples in tests use these."""

    def __init__(self, values: Sequence[int]) -> None:
        self._values = list(values)
        self.log: list[Roll] = []

    @property
    def remaining(self) -> int:
        return len(self._values)

    def roll(self, dist: Distribution, purpose: str) -> int:
        if not self._values:
            raise DiceDivergence(f"script exhausted: the rules asked for {dist.name} ({purpose})")
        value = self._values.pop(0)
        if value not in dist:
            raise DiceDivergence(f"scripted {value} is not a face of {dist.name} ({purpose})")
        self.log.append(Roll(purpose, dist.name, value))
        return value


class ReplayDice:
    """Feeds logged rolls back; any difference in what is asked is a divergence."""

    def __init__(self, rolls: Sequence[Roll]) -> None:
        self._rolls = list(rolls)
        self._next = 0
        self.log: list[Roll] = []

    @property
    def exhausted(self) -> bool:
        return self._next >= len(self._rolls)

    def roll(self, dist: Distribution, purpose: str) -> int:
        if self._next >= len(self._rolls):
            raise DiceDivergence(f"roll {self._next + 1}: the record has no more dice ({purpose})")
        logged = self._rolls[self._next]
        if logged.die != dist.name or logged.purpose != purpose:
            raise DiceDivergence(
                f"roll {self._next + 1}: the record has {logged.die} for {logged.purpose!r}, "
                f"the rules asked for {dist.name} for {purpose!r}"
            )
        if logged.value not in dist:
            raise DiceDivergence(f"roll {self._next + 1}: {logged.value} is not a face of {dist.name}")
        self._next += 1
        self.log.append(logged)
        return logged.value


class SeedCheckedDice(ReplayDice):
    """Replays logged rolls while drawing the same dice, with the distributions the rules
    ask for, from the seeded stream: each logged value is checked against the seed (a
    changed seed or die is caught even where play would end the same), and afterwards
    :attr:`seeded` stands where the log ends, ready to continue the game.

    With ``strict=False`` a value that differs from the seed's is kept (the log is the
    history) and counted in :attr:`mismatches` instead of raising."""

    def __init__(self, rolls: Sequence[Roll], seed: int, *, strict: bool = True) -> None:
        super().__init__(rolls)
        self.seeded = SeededDice(seed)
        self.strict = strict
        self.mismatches = 0

    def roll(self, dist: Distribution, purpose: str) -> int:
        value = super().roll(dist, purpose)
        expected = self.seeded.roll(dist, purpose)
        if value != expected:
            if self.strict:
                raise DiceDivergence(
                    f"rolls[{len(self.log) - 1}]: the record has {value} for {purpose!r}, but its "
                    f"seed gives {expected}"
                )
            self.mismatches += 1
            self.seeded.log[-1] = Roll(purpose, dist.name, value)
        return value


WIDE_SEED = 2**63
"""Master seeds from here up (drawn by the server, 128 bits) derive 128-bit stream seeds,
so that nobody can search the streams' seeds from the dice they have seen; smaller ones
(chosen by a person for reproducibility) derive 63-bit seeds, as they always have."""


def derive_seed(master: int, *labels: object) -> int:
    """A seed derived from a master seed and labels by hashing, stable on every machine:
    63 bits, or 128 for a master seed of :data:`WIDE_SEED` or more.

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    >>> derive_seed(2**127, "dice").bit_length() > 64
    True
    """
    text = ":".join([str(master), *map(str, labels)])
    digest = hashlib.sha256(text.encode()).digest()
    if master >= WIDE_SEED:
        return int.from_bytes(digest[:16], "big")
    return int.from_bytes(digest[:8], "big") >> 1
