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


ODDS_BUDGET = 6_000
"""The work a question of odds may cost before it is refused, shared by every front end
(the terminal, the page, the benchmark): one unit for each walk down the chance tree and
one for each die rolled on it, about the cost of running the rules once. Counted in work,
never seconds, so whether a question is answered, and its refusal's words, are the same
on any machine under any load; sized with ``benchmarks/odds_questions.py`` (the CPU a unit of
work costs at most) so that no question costs the server much more than a second of CPU."""


class TooManyBranches(RuntimeError):
    """The procedure has more chance branches than enumeration allows.

    ``partial`` holds the branches walked before it gave up and ``walked`` their chance
    (the share of all chance they prove), when that is exact: ``None`` when an attempt
    rolled again has left the walked branches' weights unsettled."""

    def __init__(self, message: str, partial: list[Branch[Any]] | None = None,
                 walked: Fraction | None = None) -> None:
        super().__init__(message)
        self.partial = partial or []
        self.walked = walked


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


_Found = list[tuple[T, Fraction, tuple[tuple[str, str, int], ...], list[tuple[int, ...]]]]
"""Branches found on a walk: the result, its chance before any attempt rolled again is
shared out, the dice, and the attempts it passed through."""


@dataclass
class WorkMeter:
    """The work an enumeration did (in :data:`ODDS_BUDGET`'s units), read by benchmarks."""

    work: int = 0


def enumerate_branches(
    run: Callable[[_Walker], T], *, max_leaves: int = MAX_LEAVES, budget: int | None = None,
    meter: WorkMeter | None = None,
) -> list[Branch[T]]:
    """Run ``run(dice)`` down every branch of its chance tree; probabilities sum to 1.

    ``budget`` bounds the work the walk may do (:data:`ODDS_BUDGET`), for a front end that
    must answer while someone waits: a tree not walked within it is refused
    (:class:`TooManyBranches`, with the branches walked) as one with too many branches is,
    never answered in part. The answer, or the refusal, depends only on the tree."""
    opaque: frozenset[str] = frozenset()
    meter = meter if meter is not None else WorkMeter()
    while True:
        try:
            return _walk_all(run, opaque, max_leaves, budget, meter)
        except _LateUse as late:
            opaque = opaque | {late.purpose}


def _walk_all(
    run: Callable[[_Walker], T], opaque: frozenset[str], max_leaves: int, budget: int | None,
    meter: WorkMeter,
) -> list[Branch[T]]:
    """Depth first over the chance tree. A stack entry is a prefix of faces to replay, each
    with the set of faces it stands for. Uses of a value before the next die are the same
    for every face a set holds only if they were worked out with one of them, so the walk
    that first plays a new representative may split its set further.

    An attempt the rules roll again ends its walk; what it would have had is shared out
    over the attempt's outcomes that decide, in proportion (the chance of each outcome
    given that the attempt decides), which is what rolling again and again comes to."""
    found: _Found[T] = []
    rolled_again: dict[tuple[int, ...], Fraction] = {}
    stack: list[tuple[list[int], list[frozenset[int]]]] = [([], [])]
    while stack:
        if budget is not None and meter.work >= budget:
            raise _refusal(found, rolled_again)
        prefix, stands_for = stack.pop()
        walker = _Walker(prefix, opaque)
        again: int | None = None
        try:
            result = run(walker)
        except _RolledAgain as rolled:
            again = rolled.mark
        finally:
            walker.running = False
            meter.work += 1 + len(walker.slots)
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
    return _settled(found, rolled_again)


def _settled(found: _Found[T], rolled_again: dict[tuple[int, ...], Fraction]) -> list[Branch[T]]:
    """The branches found, each attempt rolled again shared out over its other outcomes."""
    branches: list[Branch[T]] = []
    for result, probability, rolls, nodes in found:
        for node in nodes:
            probability /= 1 - rolled_again.get(node, Fraction(0))
        branches.append(Branch(result, probability, rolls))
    return branches


def _refusal(found: _Found[T], rolled_again: dict[tuple[int, ...], Fraction]) -> TooManyBranches:
    """The refusal of a walk over its budget, with what the walked branches prove: their
    share of all chance, exact unless an attempt rolled again is not yet fully walked."""
    walked = None if rolled_again else sum((f[1] for f in found), Fraction(0))
    share = "" if walked is None else f", {float(walked):.1%} of the chance"
    return TooManyBranches(f"more work than a question may cost ({len(found):,} branches walked{share})",
                           [] if rolled_again else _settled(found, {}), walked)
