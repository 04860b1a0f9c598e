"""Exact enumeration of a dice-driven procedure: every branch with its probability.

The procedure is the rule set's own resolution code, run again and again with dice that
walk the tree of chance nodes depth first. To keep the tree small, each die value handed
to the rules is a probe that notes how the rules use it: when a value is only compared
with constants ("5 or more hits"), faces that answer every comparison alike lead to the
same play and are explored once, with their probabilities added. A value used any other
way (arithmetic, formatting, lookups) makes every face count on its own, and so does a
value still consulted after a later die has been rolled (found out by a restart), so the
grouping is always exact.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from tertia.core.dice import DiceDivergence, Distribution

T = TypeVar("T")

MAX_LEAVES = 50_000
"""A procedure with more branches than this is refused rather than left to run for ever."""

MAX_DEPTH = 200
"""Dice in one branch beyond which a procedure is taken to have no end (re-rolling ties
for ever has no finite tree to walk)."""


class TooManyBranches(RuntimeError):
    """The procedure has more chance branches than enumeration allows."""


class _RolledAgain(BaseException):
    """The attempt begun at ``mark`` (a depth in the walk) decided nothing."""

    def __init__(self, mark: int) -> None:
        self.mark = mark


class _LateUse(BaseException):
    """A die value was consulted after a later die was rolled: group its faces no more."""

    def __init__(self, purpose: str) -> None:
        self.purpose = purpose


@dataclass
class _Slot:
    """One chance node met on a walk: its distribution, purpose and how its value was used."""

    dist: Distribution
    purpose: str
    value: int
    walker: _Walker
    index: int
    tests: list[tuple[Callable[[int, int], bool], int]] = field(default_factory=list)
    opaque: bool = False

    def note(self, test: Callable[[int, int], bool] | None, other: int = 0) -> None:
        """Record one use of this value by the rules while the walk is running."""
        walker = self.walker
        if not walker.running or self.opaque:
            return
        if self.index != len(walker.slots) - 1:
            raise _LateUse(self.purpose)
        if test is None:
            self.opaque = True
        else:
            self.tests.append((test, other))

    def classes(self) -> list[frozenset[int]]:
        """Faces grouped by how they would have answered every use of this value."""
        if self.walker.running:
            raise AssertionError("classes are known only once the walk is over")
        key = (self.dist, self.opaque, tuple(self.tests))
        found = _GROUPS.get(key)
        if found is None:
            found = _GROUPS[key] = _group_faces(self.dist, self.opaque, self.tests)
        return found


_GROUPS: dict[object, list[frozenset[int]]] = {}
"""Face groupings already worked out, by distribution and the uses made of the value."""


def _group_faces(
    dist: Distribution, opaque: bool, tests: list[tuple[Callable[[int, int], bool], int]]
) -> list[frozenset[int]]:
    if opaque:
        return [frozenset({value}) for value, _ in dist.outcomes]
    groups: dict[tuple[bool, ...], set[int]] = {}
    for value, _ in dist.outcomes:
        groups.setdefault(tuple(test(value, other) for test, other in tests), set()).add(value)
    return [frozenset(g) for g in groups.values()]


def _noting(name: str) -> Callable[[Any, Any], Any]:
    test = getattr(operator, name)

    def compare(self: Probe, other: Any) -> Any:
        if type(other) is int:
            self._slot.note(test, other)
        else:
            self._slot.note(None)
            if isinstance(other, Probe):
                other._slot.note(None)
        plain_other = int.__int__(other) if isinstance(other, int) else other
        return test(int.__int__(self), plain_other)

    return compare


def _opaque(name: str) -> Callable[..., Any]:
    base = getattr(int, name)

    def use(self: Probe, *args: Any) -> Any:
        self._slot.note(None)
        plain_args = []
        for a in args:
            if isinstance(a, Probe):
                a._slot.note(None)
                plain_args.append(int.__int__(a))
            else:
                plain_args.append(a)
        return base(int.__int__(self), *plain_args)

    return use


class Probe(int):
    """A die value that tells the enumerator how the rules used it."""

    _slot: _Slot

    def __new__(cls, value: int, slot: _Slot) -> Probe:
        probe = super().__new__(cls, value)
        probe._slot = slot
        return probe

    __lt__ = _noting("lt")
    __le__ = _noting("le")
    __gt__ = _noting("gt")
    __ge__ = _noting("ge")
    __eq__ = _noting("eq")
    __ne__ = _noting("ne")


for _name in (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__floordiv__",
    "__rfloordiv__", "__truediv__", "__rtruediv__", "__mod__", "__rmod__", "__divmod__",
    "__rdivmod__", "__neg__",
    "__pos__", "__abs__", "__hash__", "__index__", "__int__", "__float__", "__bool__",
    "__str__", "__repr__", "__format__", "__and__", "__or__", "__xor__", "__lshift__",
    "__rshift__", "__pow__", "__rpow__", "__round__", "__trunc__", "__floor__", "__ceil__",
):
    setattr(Probe, _name, _opaque(_name))


class _Walker:
    """Dice for one walk: replays a prefix of chosen faces, then takes the first face of
    each new chance node."""

    def __init__(self, prefix: list[int], opaque: frozenset[str]) -> None:
        self.prefix = prefix
        self.opaque = opaque
        self.slots: list[_Slot] = []
        self.attempts: list[int] = []
        self.running = True

    def attempt_begins(self) -> int:
        """Note where an attempt that may be rolled again begins (:class:`RollsAgain`)."""
        self.attempts.append(len(self.slots))
        return len(self.slots)

    def attempt_rolled_again(self, mark: int) -> None:
        """End this walk: its share of the attempt goes to the attempt's other outcomes."""
        raise _RolledAgain(mark)

    def roll(self, dist: Distribution, purpose: str) -> int:
        depth = len(self.slots)
        if depth >= MAX_DEPTH:
            raise TooManyBranches(f"more than {MAX_DEPTH} dice in one branch ({purpose})")
        if depth < len(self.prefix):
            value = self.prefix[depth]
            if value not in dist:
                raise DiceDivergence(f"enumeration: {value} is not a face of {dist.name} ({purpose})")
        else:
            value = dist.outcomes[0][0]
        slot = _Slot(dist, purpose, value, self, depth, opaque=purpose in self.opaque)
        self.slots.append(slot)
        return Probe(value, slot)


@dataclass(frozen=True)
class Branch(Generic[T]):
    """One way the dice can fall: what the procedure returned, and how likely it is."""

    result: T
    probability: Fraction
    rolls: tuple[tuple[str, str, int], ...]  # (purpose, die, representative face)


def enumerate_branches(
    run: Callable[[_Walker], T], *, max_leaves: int = MAX_LEAVES, seconds: float | None = None
) -> list[Branch[T]]:
    """Run ``run(dice)`` down every branch of its chance tree; probabilities sum to 1.

    ``seconds`` bounds the time the walk may take, for a front end that must answer while
    someone waits: a tree not walked by then is refused (:class:`TooManyBranches`) as one
    with too many branches is, never answered in part. Without it the answer depends only
    on the tree."""
    opaque: frozenset[str] = frozenset()
    deadline = None if seconds is None else time.monotonic() + seconds
    while True:
        try:
            return _walk_all(run, opaque, max_leaves, deadline, seconds)
        except _LateUse as late:
            opaque = opaque | {late.purpose}


def _walk_all(
    run: Callable[[_Walker], T], opaque: frozenset[str], max_leaves: int,
    deadline: float | None = None, seconds: float | None = None,
) -> list[Branch[T]]:
    """Depth first over the chance tree. A stack entry is a prefix of faces to replay, each
    with the set of faces it stands for. Uses of a value before the next die are the same
    for every face a set holds only if they were worked out with one of them, so the walk
    that first plays a new representative may split its set further.

    An attempt the rules roll again ends its walk; what it would have had is shared out
    over the attempt's outcomes that decide, in proportion (the chance of each outcome
    given that the attempt decides), which is what rolling again and again comes to."""
    found: list[tuple[T, Fraction, tuple[tuple[str, str, int], ...], list[tuple[int, ...]]]] = []
    rolled_again: dict[tuple[int, ...], Fraction] = {}
    stack: list[tuple[list[int], list[frozenset[int]]]] = [([], [])]
    walked = 0
    while stack:
        if deadline is not None and time.monotonic() > deadline:
            raise TooManyBranches(f"more branches than can be walked in {seconds:g} seconds "
                                  f"({walked} walked, {len(stack)} still to walk)")
        walked += 1
        prefix, stands_for = stack.pop()
        walker = _Walker(prefix, opaque)
        again: int | None = None
        try:
            result = run(walker)
        except _RolledAgain as rolled:
            again = rolled.mark
        finally:
            walker.running = False
        numerator = denominator = 1
        chosen: list[int] = []
        chosen_sets: list[frozenset[int]] = []
        reached: list[tuple[int, int]] = []  # the chance of coming to each depth of this walk
        for depth, slot in enumerate(walker.slots):
            reached.append((numerator, denominator))
            weights = dict(slot.dist.outcomes)
            allowed = stands_for[depth] if depth < len(prefix) else frozenset(weights)
            classes = [c & allowed for c in slot.classes()]
            mine = next(c for c in classes if slot.value in c)
            if depth >= len(prefix) - 1:
                for other in classes:
                    if other and other is not mine:
                        stack.append(([*chosen, min(other)], [*chosen_sets, other]))
            numerator *= sum(weights[v] for v in mine)
            denominator *= slot.dist.total_weight
            chosen.append(slot.value)
            chosen_sets.append(mine)
        reached.append((numerator, denominator))
        if again is not None:
            node = tuple(chosen[:again])
            n0, d0 = reached[again]
            share = Fraction(numerator * d0, denominator * n0)  # given the attempt was reached
            rolled_again[node] = rolled_again.get(node, Fraction(0)) + share
            continue
        rolls = tuple((s.purpose, s.dist.name, s.value) for s in walker.slots)
        nodes = [tuple(chosen[:mark]) for mark in walker.attempts]
        found.append((result, Fraction(numerator, denominator), rolls, nodes))
        if len(found) > max_leaves:
            raise TooManyBranches(f"more than {max_leaves} branches")
    if any(share >= 1 for share in rolled_again.values()):
        raise TooManyBranches("an attempt the rules roll again whatever the dice show")
    branches: list[Branch[T]] = []
    for result, probability, rolls, nodes in found:
        for node in nodes:
            probability /= 1 - rolled_again.get(node, Fraction(0))
        branches.append(Branch(result, probability, rolls))
    return branches
