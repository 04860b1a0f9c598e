"""Exact enumeration of a dice-driven procedure: every branch with its probability.

The procedure is the rule set's own resolution code, run again and again with dice that
walk the tree of chance nodes depth first. To keep the tree small, each die value handed
to the rules is a probe that notes how the rules use it. Sums, differences and multiples
of dice (with each other or with constants) are probes too, and so is every comparison
the rules make of them with constants or with each other ("5 or more hits", "the two dice
are doubles", "the attacker's score beats the defender's"). Faces that answer every such
comparison alike lead to the same play and are explored once, with their probabilities
added; dice compared together are grouped jointly, so a combat of two opposed dice walks
one branch for each way it goes, not one for each pair of faces (the convolution icepool
works out, found by the rules' own code). A value used any other way (formatting, table
lookups, division) makes every face of its dice count on its own from where it was so
used (the faces a die stood for until then played alike, as they do before a comparison);
a die compared or so used across an attempt rolled again, or a sum kept to the end of a
walk after later dice, is walked face by face from the start (found out by a restart), so
the grouping is always exact.

A step the rules settle apart (:meth:`Tx.apart <tertia.core.ruleset.Tx.apart>`) is
walked on its own from the position it starts in, once for each such position, and the
walk goes on down one branch for each of its distinct outcomes
(:mod:`tertia.analysis.apart`).
"""

from __future__ import annotations

import heapq
import math
import operator
import random
import weakref
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from tertia.core.dice import DiceDivergence, Distribution
from tertia.core.narration import percent

if TYPE_CHECKING:
    from tertia.analysis.apart import Settler

T = TypeVar("T")

MAX_LEAVES = 50_000
"""A procedure with more branches than this is refused rather than left to run for ever:
the branches of every step settled apart count with those of the walk it is part of
(:attr:`WorkMeter.branches`)."""

MAX_DEPTH = 200
"""Dice in one branch beyond which a procedure is taken to have no end (re-rolling ties
for ever has no finite tree to walk)."""

MAX_JOINT = 1_296
"""The most combinations of faces (6^4) dice compared together are grouped over; dice
tied into more are walked face by face."""


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
    rolled again has left the walked branches' weights unsettled. ``sampled`` holds, when
    a walk was asked to (``sample``), results drawn at random from the branches it had not
    walked, each weighing an equal share of the chance not walked (:func:`sample_rest`)."""

    def __init__(self, message: str, partial: list[Branch[Any]] | None = None,
                 walked: Fraction | None = None, sampled: list[Branch[Any]] | None = None) -> None:
        super().__init__(message)
        self.partial = partial or []
        self.walked = walked
        self.sampled = sampled or []
        self.frontier: list[_Entry] = []
        """The entries the walk had still to walk when it gave up (for :func:`sample_rest`)."""
        self.told: dict[str, Any] | None = None
        """What an odds question's refusal tells in words, as data (set by
        :func:`tertia.analysis.odds.odds`): the chance walked, the draws made and each
        chance bounded and estimated."""


class SealBroken(BaseException):
    """The rules read a die of a step settled apart (``label``) after the step: its
    outcomes were merged over faces the rules tell apart after all, so it must be walked
    as any other step."""

    def __init__(self, label: str) -> None:
        self.label = label


class NotApart(BaseException):
    """A step being settled apart read a die rolled before it: it is no such step here."""


class OverBudget(BaseException):
    """A step settled apart took the work, or the branches, left to the walk it was
    settled from."""


class _RolledAgain(BaseException):
    """The attempt begun at ``mark`` (a depth in the walk) decided nothing."""

    def __init__(self, mark: int) -> None:
        self.mark = mark


class _LateUse(BaseException):
    """Dice must be walked face by face from the start: one was used whole after a later
    die was rolled, or compared across an attempt rolled again, or tied into too many."""

    def __init__(self, purposes: Sequence[str]) -> None:
        self.purposes = frozenset(purposes)


Faces = tuple[int, ...]
"""The faces of some dice of a walk, in the order they were rolled."""


@dataclass(frozen=True)
class _Slot:
    """One chance node met on a walk: its distribution, purpose and the face walked."""

    dist: Distribution
    purpose: str
    value: int
    opaque: bool


@dataclass(frozen=True)
class _Test:
    """One use of dice by the rules while ``time`` was the deepest die rolled. A test of
    ``slots`` either reads a die's face whole (``op`` ``"face"``) or compares a sum of
    their faces, each times its ``coefficients``, with ``constant`` (``op`` one of
    ``lt le gt ge eq ne``): faces that answer it alike play alike."""

    time: int
    slots: tuple[int, ...]
    op: str
    coefficients: tuple[int, ...] = ()
    constant: int = 0


_OPS: dict[str, Callable[[int, int], bool]] = {
    name: getattr(operator, name) for name in ("lt", "le", "gt", "ge", "eq", "ne")}


class Probe(int):
    """A die's face that tells the enumerator how the rules used it (``_slots``: which die
    of the walk it is)."""

    _walker: _Walker
    _slots: tuple[int, ...]

    def __new__(cls, value: int, walker: _Walker, slot: int) -> Probe:
        probe = super().__new__(cls, value)
        probe._walker = walker
        probe._slots = (slot,)
        return probe

    def _linear(self) -> tuple[dict[int, int], int]:
        return {self._slots[0]: 1}, 0

    def summed_with(self, terms: Sequence[int]) -> Total | int:
        """:func:`tertia.core.dice.summed` of ``terms``, this among them."""
        if not self._walker.running:
            _check_seal(self)
            return sum(t.value if isinstance(t, Total) else int.__int__(t) for t in terms)
        return Total.of(self._walker, terms)


class Total:
    """A sum of dice and constants (:func:`tertia.core.dice.summed`) while exact odds are
    walked: comparing it groups the dice in it jointly; adding to it makes another. It
    is not an ``int``, so nothing can read it without the enumerator hearing: any other
    use (a table lookup, formatting, ``int()``) counts its dice face by face from when it
    was worked out, and so does keeping it past the walk (:meth:`_Walker.kept`)."""

    __slots__ = ("__weakref__", "_coefficients", "_constant", "_slots", "_time", "_walker", "value")

    def __init__(self, walker: _Walker, value: int, coefficients: dict[int, int], constant: int) -> None:
        self._walker = walker
        self.value = value
        self._coefficients = coefficients
        self._constant = constant
        self._slots = tuple(sorted(coefficients))
        self._time = len(walker.slots) - 1
        walker.totals.append(weakref.ref(self))  # (a WeakSet would hash it: a use)

    def _linear(self) -> tuple[dict[int, int], int]:
        return self._coefficients, self._constant

    @staticmethod
    def of(walker: _Walker, terms: Sequence[Any], signs: Sequence[int] | None = None) -> Total:
        coefficients: dict[int, int] = {}
        constant = value = 0
        for index, term in enumerate(terms):
            sign = 1 if signs is None else signs[index]
            _check_seal(term)
            if _traced(term, walker):
                own, own_constant = term._linear()
                for slot, c in own.items():
                    coefficients[slot] = coefficients.get(slot, 0) + sign * c
                constant += sign * own_constant
                value += sign * _plain(term)
            else:
                plain = _plain(term)
                constant += sign * plain
                value += sign * plain
        return Total(walker, value, {s: c for s, c in coefficients.items() if c}, constant)

    def summed_with(self, terms: Sequence[int]) -> Total | int:
        if not self._walker.running:
            _check_seal(self)
            return sum(t.value if isinstance(t, Total) else int.__int__(t) for t in terms)
        return Total.of(self._walker, terms)

    def __add__(self, other: Any) -> Any:
        if not isinstance(other, (int, Total)):
            return NotImplemented
        return Total.of(self._walker, (self, other))

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if not isinstance(other, (int, Total)):
            return NotImplemented
        return Total.of(self._walker, (self, other), (1, -1))

    def __rsub__(self, other: Any) -> Any:
        if not isinstance(other, int):
            return NotImplemented
        return Total.of(self._walker, (other, self), (1, -1))

    def __neg__(self) -> Total:
        return Total.of(self._walker, (self,), (-1,))

    def __pos__(self) -> Total:
        return self

    def _whole(self) -> int:
        self._walker.opaque_use(self._slots)
        return self.value

    def __int__(self) -> int:
        return self._whole()

    __index__ = __int__

    def __float__(self) -> float:
        return float(self._whole())

    def __bool__(self) -> bool:
        return bool(self._whole())

    def __hash__(self) -> int:
        return hash(self._whole())

    def __str__(self) -> str:
        return str(self._whole())

    def __repr__(self) -> str:
        return repr(self._whole())

    def __format__(self, spec: str) -> str:
        return format(self._whole(), spec)


Traced = Probe | Total
"""What a walk hands out or works out from dice."""


def _traced(x: Any, walker: _Walker | None = None) -> bool:
    return isinstance(x, (Probe, Total)) and x._walker.running and (walker is None or x._walker is walker)


def _check_seal(x: Any) -> None:
    """Refuse a use of a die by a step settled apart when the die was rolled before the
    step, and by what follows the step when the die is the step's (:mod:`tertia.analysis.apart`)."""
    if isinstance(x, (Probe, Total)):
        walker = x._walker
        if walker.settling or not walker.running:
            walker.heard()


def _plain(x: Any) -> Any:
    """``x`` as a plain number (a face or a sum's value), anything else as it is."""
    if isinstance(x, Total):
        return x.value
    return int.__int__(x) if isinstance(x, int) else x


def _comparison(name: str) -> Callable[[Traced, Any], Any]:
    op = _OPS[name]

    def compare(self: Traced, other: Any) -> Any:
        mine = self._walker
        if mine.settling or not mine.running:
            mine.heard()
        if type(other) is int and type(self) is Probe:  # a die against a number: the common use
            found = op(int.__int__(self), other)
            if mine.running:
                mine.test(self._slots, name, (1,), other)
            return found
        _check_seal(other)
        if not isinstance(other, (int, Total)):
            self._walker.opaque_use(self._slots)
            return op(_plain(self), other)
        result = op(_plain(self), _plain(other))
        walker = self._walker if _traced(self) else None
        if walker is None and isinstance(other, Total) and _traced(other):
            walker = other._walker
        if walker is None:
            return result
        # self op other  <=>  (self - other) op 0  <=>  sum of c * face op constant
        coefficients: dict[int, int] = {}
        constant = 0
        for x, sign in ((self, 1), (other, -1)):
            if isinstance(x, (Probe, Total)) and _traced(x, walker):
                own, own_constant = x._linear()
                for slot, c in own.items():
                    coefficients[slot] = coefficients.get(slot, 0) + sign * c
                constant -= sign * own_constant
            else:
                constant -= sign * _plain(x)
        slots = tuple(sorted(s for s, c in coefficients.items() if c))
        walker.test(slots, name, tuple(coefficients[s] for s in slots), constant)
        return result

    return compare


def _opaque(name: str) -> Callable[..., Any]:
    base = getattr(int, name)

    def use(self: Probe, *args: Any) -> Any:
        if any(isinstance(a, Total) for a in args):
            return NotImplemented  # the Total's own operator works it out
        self._walker.opaque_use(self._slots)
        plain_args = []
        for a in args:
            if isinstance(a, Probe):
                a._walker.opaque_use(a._slots)
            plain_args.append(_plain(a))
        return base(int.__int__(self), *plain_args)

    return use


for _name in _OPS:
    setattr(Probe, f"__{_name}__", _comparison(_name))
    setattr(Total, f"__{_name}__", _comparison(_name))
for _name in (
    "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__floordiv__",
    "__rfloordiv__", "__truediv__", "__rtruediv__", "__mod__", "__rmod__", "__divmod__",
    "__rdivmod__", "__neg__", "__pos__", "__abs__", "__hash__", "__index__", "__int__",
    "__float__", "__bool__", "__str__", "__repr__", "__format__", "__and__", "__or__",
    "__xor__", "__lshift__", "__rshift__", "__pow__", "__rpow__", "__round__", "__trunc__",
    "__floor__", "__ceil__",
):
    setattr(Probe, _name, _opaque(_name))


class _Walker:
    """Dice for one walk: replays a prefix of chosen faces, then takes the first face of
    each new chance node, and notes every use the rules make of what it handed out."""

    def __init__(self, prefix: Sequence[int], opaque: frozenset[str], settler: Settler | None = None,
                 seal: tuple[Settler, str] | None = None) -> None:
        self.prefix = prefix
        self.opaque = opaque
        self.settler = settler
        """Settles the steps the rules settle apart (``None``: each is walked as it runs)."""
        self.seal = seal
        """For a walk of a step settled apart: the settler and the step, whose dice nothing
        may read after the step while the settler is sealing."""
        self.settling = False
        """A step is being settled apart from this walk: any use of its dice is the step's."""
        self.slots: list[_Slot] = []
        self.any_opaque = False
        """Whether any die of the walk is walked face by face."""
        self.tests: list[_Test] = []
        self.attempts: list[int] = []
        self.running = True
        self.totals: list[weakref.ref[Total]] = []
        """Sums of dice (:class:`Total`) worked out on this walk and still held."""

    def attempt_begins(self) -> int:
        """Note where an attempt that may be rolled again begins (:class:`RollsAgain`)."""
        self.attempts.append(len(self.slots))
        return len(self.slots)

    def attempt_rolled_again(self, mark: int) -> None:
        """End this walk: its share of the attempt goes to the attempt's other outcomes."""
        raise _RolledAgain(mark)

    def settle_apart(self, tx: Any, procedure: Callable[..., T], args: tuple[object, ...]) -> T:
        """:meth:`Tx.apart <tertia.core.ruleset.Tx.apart>`: settled by the settler, if any."""
        if self.settler is None or not self.running:
            return procedure(tx, *args)
        return self.settler.settle(self, tx, procedure, args)

    def choose(self, dist: Distribution, purpose: str) -> int:
        """A chance node of outcomes worked out elsewhere (a step settled apart): walked
        one outcome at a time, as a die read whole. Returns the outcome's index."""
        return self._next_face(dist, purpose, True)

    def heard(self) -> bool:
        """Whether a use of this walk's dice is to be heard now: raises where none may be
        made (a step settled apart from this walk reads its dice, or what follows a step
        reads the dice this walk rolled for it)."""
        if self.settling:
            raise NotApart
        if not self.running:
            if self.seal is not None and self.seal[0].sealing:
                raise SealBroken(self.seal[1])
            return False
        return True

    def roll(self, dist: Distribution, purpose: str) -> int:
        return Probe(self._next_face(dist, purpose, purpose in self.opaque), self, len(self.slots) - 1)

    def _next_face(self, dist: Distribution, purpose: str, opaque: bool) -> int:
        """The face this walk takes at the next chance node (its prefix's, else the
        first), noted with the node; ``opaque``: read whole, each face its own branch."""
        depth = len(self.slots)
        if depth >= MAX_DEPTH:
            raise TooManyBranches(f"more than {MAX_DEPTH} dice in one branch ({purpose})")
        if depth < len(self.prefix):
            value = self.prefix[depth]
            if value not in dist:
                raise DiceDivergence(f"enumeration: {value} is not a face of {dist.name} ({purpose})")
        else:
            value = dist.outcomes[0][0]
        self.slots.append(_Slot(dist, purpose, value, opaque))
        if opaque:
            self.any_opaque = True
            self.tests.append(_Test(depth, (depth,), FACE))
        return value

    def _live(self, slots: tuple[int, ...]) -> tuple[int, ...]:
        """Of ``slots``, the dice not already walked face by face."""
        if not self.any_opaque:
            return slots
        return tuple(s for s in slots if not self.slots[s].opaque)

    def opaque_use(self, slots: tuple[int, ...], time: int | None = None) -> None:
        """The rules used dice in a way only their faces answer (now, or at ``time`` for a
        sum kept to the walk's end): each counts on its own from then. Read now, a die
        rolled before others is split by its faces where it was read, as a comparison is
        (the faces it stood for played alike until then), unless an attempt rolled again
        lies between; a sum kept must be read where it was worked out."""
        if not self.heard():
            return
        now = time is None
        time = len(self.slots) - 1 if time is None else time
        live = self._live(slots)
        crossed = [m for m in self.attempts if live and min(live) < m <= time] if now else []
        late = [self.slots[s].purpose for s in live
                if (s < max(crossed) if crossed else not now and s != time)]
        if late:
            raise _LateUse(late)
        self.tests.extend(_Test(time, (s,), FACE) for s in live)

    def kept(self) -> None:
        """A sum of dice still held when the walk is over (in what it returned, or in an
        event, and so perhaps in the state) is read whole from when it was worked out:
        what reads it after the walk is not heard. A die kept as rolled is the record's
        (the faces a walk stands for answered every use alike), as it always was."""
        for ref in self.totals:
            held = ref()
            if held is not None:
                self.opaque_use(held._slots, held._time)

    def test(self, slots: tuple[int, ...], op: str, coefficients: tuple[int, ...], constant: int) -> None:
        """The rules compared a sum of dice: faces answering alike play alike."""
        if not self.heard():
            return
        time = len(self.slots) - 1
        live = self._live(slots)
        for s, c in zip(slots, coefficients, strict=True):
            if s not in live:  # walked face by face: fixed at the face walked
                constant -= c * int.__int__(self.slots[s].value)
        if not live:
            return
        if live != slots:
            coefficients = tuple(c for s, c in zip(slots, coefficients, strict=True) if s in live)
        crossed = [m for m in self.attempts if live[0] < m <= time]
        if crossed:
            raise _LateUse([self.slots[s].purpose for s in live if s < max(crossed)])
        self.tests.append(_Test(time, live, op, coefficients, constant))


FACE = "face"
"""The :class:`_Test` that reads a die's face whole."""


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
    """The work an enumeration did (in :data:`ODDS_BUDGET`'s units), read by benchmarks,
    how many times a step was settled apart (:mod:`tertia.analysis.apart`), and the
    branches found by the walk and by the walks of the steps settled apart from it, which
    ``max_leaves`` bounds together (those of a walk begun again are not counted twice)."""

    work: int = 0
    settled: int = 0
    branches: int = 0

    def over(self, max_leaves: int, budget: int | None) -> bool:
        """Whether the walk has found more than ``max_leaves`` branches or done ``budget``'s work."""
        return self.branches > max_leaves or (budget is not None and self.work >= budget)


Constraint = tuple[tuple[int, ...], frozenset[Faces]]
"""Dice of a walk and the combinations of their faces a walk stands for."""


class _EveryPurpose(frozenset[str]):
    """Every purpose: the dice of a walk made face by face."""

    def __contains__(self, purpose: object) -> bool:
        return True


FACE_BY_FACE: frozenset[str] = _EveryPurpose()
"""The purposes a plain walk reads face by face: all of them."""


def enumerate_branches(
    run: Callable[[_Walker], T], *, max_leaves: int = MAX_LEAVES, budget: int | None = None,
    meter: WorkMeter | None = None, face_by_face: bool = False, apart: bool = True,
    settler: Settler | None = None, seal: str | None = None, sample: int = 0,
) -> list[Branch[T]]:
    """Run ``run(dice)`` down every branch of its chance tree; probabilities sum to 1.

    ``max_leaves`` bounds the branches of the whole walk, those of the steps settled apart
    from it included (:attr:`WorkMeter.branches`). ``budget`` bounds the work the walk may
    do (:data:`ODDS_BUDGET`), for a front end that must answer while someone waits: a tree
    not walked within it is refused (:class:`TooManyBranches`, with the branches walked)
    as one with too many branches is, never answered in part. The answer, or the refusal,
    depends only on the tree.

    ``face_by_face`` walks every face of every die on its own, grouping nothing, and
    settles no step apart: the plain walk the grouped one is checked against (the same
    branches, merged). ``apart`` settles apart the steps the rules mark so
    (:mod:`tertia.analysis.apart`); without it each is walked as it runs. ``settler`` and
    ``seal`` are for the walk of such a step: the settler of the walk it is part of, and
    the step's name. ``sample``: the work a walk refused over its ``budget`` may go on to
    spend drawing at random from the branches it has not walked (:func:`sample_rest`), for
    an estimate beside the bounds its refusal proves."""
    opaque: frozenset[str] = FACE_BY_FACE if face_by_face else frozenset()
    meter = meter if meter is not None else WorkMeter()
    owner = settler is None and apart and not face_by_face
    if owner:
        settler = _apart.Settler(enumerate_branches, budget, meter, max_leaves)
    begun = meter.branches
    try:
        while True:
            try:
                return _walk_all(run, opaque, max_leaves, budget, meter, settler, seal)
            except _LateUse as late:
                opaque = opaque | late.purposes
            except SealBroken as broken:
                if not owner or settler is None:
                    raise  # the walk the step was settled from is begun again
                settler.refuse(broken.label)
            meter.branches = begun  # begun again: its branches are found again
    except TooManyBranches as refused:
        if owner and sample > 0 and settler is not None and budget is not None:
            refused.sampled = sample_rest(run, refused, settler, budget + sample)
        raise
    finally:
        if owner and settler is not None:
            settler.close()


def _walk_all(
    run: Callable[[_Walker], T], opaque: frozenset[str], max_leaves: int, budget: int | None,
    meter: WorkMeter, settler: Settler | None = None, seal: str | None = None,
) -> list[Branch[T]]:
    """Likeliest first over the chance tree. An entry is a prefix of faces to replay with
    the combinations of faces it stands for (:data:`Constraint`); the walk that first
    plays a new representative may split them further (:class:`_Grouping`). Entries are
    walked in order of the chance they stand for (the same on any machine: ties go to the
    latest found), so a walk refused over its budget has walked the likeliest branches
    and its bounds are as narrow as the work allows.

    An attempt the rules roll again ends its walk; what it would have had is shared out
    over the attempt's outcomes that decide, in proportion (the chance of each outcome
    given that the attempt decides), which is what rolling again and again comes to."""
    found: _Found[T] = []
    rolled_again: dict[tuple[int, ...], Fraction] = {}
    sealed = None if seal is None or settler is None else (settler, seal)
    queue: list[_Entry] = [(-1.0, 0, [], {}, ())]
    pushed = 0
    while queue:
        if budget is not None and meter.work >= budget:
            raise _refusal(found, rolled_again, queue)
        entry = heapq.heappop(queue)
        _, _, prefix, groups, _ = entry
        stands_for = list(groups.values())
        walker = _Walker(prefix, opaque, settler, sealed)
        again: int | None = None
        try:
            result = run(walker)
            walker.kept()
        except _RolledAgain as rolled:
            again = rolled.mark
        except OverBudget:
            raise _over(found, rolled_again, meter, max_leaves, [entry, *queue]) from None
        finally:
            walker.running = False
            meter.work += 1 + len(walker.slots)
        grouping = _Grouping(walker, stands_for, max(0, len(prefix) - 1))
        for mass, sibling, groups, dists in grouping.siblings:
            pushed += 1
            heapq.heappush(queue, (-mass, -pushed, sibling, groups, dists))
        chosen = [slot.value for slot in walker.slots]
        if again is not None:
            node = tuple(chosen[:again])
            n0, d0 = grouping.reached[again]
            numerator, denominator = grouping.reached[-1]
            share = Fraction(numerator * d0, denominator * n0)  # given the attempt was reached
            rolled_again[node] = rolled_again.get(node, Fraction(0)) + share
            continue
        rolls = tuple((s.purpose, s.dist.name, s.value) for s in walker.slots)
        nodes = [tuple(chosen[:mark]) for mark in walker.attempts]
        found.append((result, Fraction(*grouping.reached[-1]), rolls, nodes))
        meter.branches += 1
        if meter.branches > max_leaves:
            raise _too_many(max_leaves)
    if any(share >= 1 for share in rolled_again.values()):
        raise TooManyBranches("an attempt the rules roll again whatever the dice show")
    return _settled(found, rolled_again)


class _Grouping:
    """What one walk stands for, worked out die by die in the order they were rolled.

    The dice the rules compared together form groups; each group holds the combinations
    of its faces that answered every use so far as the walk's faces did. At each die,
    the uses made then split its groups: the combinations that answered otherwise are
    other branches (``siblings``: their chance, a prefix of faces and what it stands for), pushed only
    from ``start`` on (before it, the walk replays what its parent walked). ``reached``
    holds, for each depth, the chance of coming to it, as (numerator, denominator)."""

    def __init__(self, walker: _Walker, stands_for: list[Constraint], start: int) -> None:
        self.slots = walker.slots
        self.siblings: list[tuple[float, list[int], dict[int, Constraint], tuple[Distribution, ...]]] = []
        self.reached: list[tuple[int, int]] = [(1, 1)]
        self.root: list[int] = []
        self.groups: dict[int, tuple[tuple[int, ...], frozenset[Faces]]] = {}
        self.weight: dict[int, int] = {}
        self.numerator = self.denominator = 1
        by_time: dict[int, list[_Test]] = {}
        for t in walker.tests:
            by_time.setdefault(t.time, []).append(t)
        limits: dict[int, list[Constraint]] = {}
        for constraint in stands_for:
            limits.setdefault(constraint[0][-1], []).append(constraint)
        for time, slot in enumerate(self.slots):
            self.root.append(time)
            # a die on its own stands for all its faces: their weight is the die's
            whole = slot.dist.total_weight
            self.groups[time] = ((time,), _all_faces(slot.dist))
            self.weight[time] = whole
            self.numerator *= whole
            for slots, allowed in limits.get(time, ()):
                root = self._join(slots)
                own, faces = self.groups[root]
                if own == slots:
                    self._set(root, own, faces & allowed)
                else:
                    picks = tuple(own.index(s) for s in slots)
                    self._set(root, own, frozenset(f for f in faces if tuple(f[i] for i in picks) in allowed))
            self.denominator *= slot.dist.total_weight
            tests = by_time.get(time)
            if tests:
                self._split_at(time, tests, start)
            self.reached.append((self.numerator, self.denominator))

    def _split_at(self, time: int, tests: list[_Test], start: int) -> None:
        for test in tests:
            self._join(test.slots)
        touched: dict[int, list[_Test]] = {}
        for test in tests:
            touched.setdefault(self._find(test.slots[0]), []).append(test)
        splits = []
        for root, own_tests in touched.items():
            own, faces = self.groups[root]
            parts = _split(tuple(self.slots[s].dist for s in own), own, faces, own_tests)
            mine = next(k for k, part in parts if tuple(self.slots[s].value for s in own) in part)
            splits.append((root, own, parts, mine))
        for root, own, parts, mine in splits:
            if time >= start:
                for key, other in parts:
                    if key != mine:
                        self._push(time, root, own, other)
            self._set(root, own, next(part for key, part in parts if key == mine))

    def _find(self, s: int) -> int:
        root = self.root
        while root[s] != s:
            s = root[s]
        return s

    def _set(self, root: int, slots: tuple[int, ...], faces: frozenset[Faces]) -> None:
        old = self.weight.get(root)
        self.groups[root] = (slots, faces)
        new = _weight(tuple(self.slots[s].dist for s in slots), faces)
        self.weight[root] = new
        self.numerator = (self.numerator // old if old else self.numerator) * new

    def _join(self, slots: tuple[int, ...]) -> int:
        """One group of the dice ``slots`` and those already grouped with them."""
        if len(slots) == 1:
            return self._find(slots[0])
        roots = list(dict.fromkeys(self._find(s) for s in slots))
        if len(roots) == 1:
            return roots[0]
        size = 1
        for r in roots:
            size *= len(self.groups[r][1])
        if size > MAX_JOINT:
            joined = sorted(s for r in roots for s in self.groups[r][0])
            raise _LateUse([self.slots[s].purpose for s in joined[:-1]])
        merged_slots: tuple[int, ...] = ()
        merged: list[Faces] = [()]
        for r in roots:
            own, faces = self.groups.pop(r)
            self.numerator //= self.weight.pop(r)
            merged_slots += own
            merged = [m + f for m in merged for f in faces]
        order = sorted(range(len(merged_slots)), key=merged_slots.__getitem__)
        root = min(roots)
        for r in roots:
            self.root[r] = root
        self._set(root, tuple(merged_slots[i] for i in order),
                  frozenset(tuple(m[i] for i in order) for m in merged))
        return root

    def _push(self, time: int, root: int, own: tuple[int, ...], other: frozenset[Faces]) -> None:
        """Another branch: this walk's faces up to ``time``, with ``root``'s dice at the
        least combination of ``other``, standing for ``other``; the groups split before it
        at this die stand for what this walk's faces answered, those after for all they
        held before it (as they stand now), and the others as now."""
        rep = min(other)
        prefix = [s.value for s in self.slots[:time + 1]]
        for s, v in zip(own, rep, strict=True):
            prefix[s] = v
        groups = dict(self.groups)
        groups[root] = (own, other)
        dists = tuple(self.slots[s].dist for s in own)
        mass = self.numerator * _weight(dists, other) / (self.weight[root] * self.denominator)
        self.siblings.append((mass, prefix, groups, tuple(s.dist for s in self.slots[:time + 1])))


def _all_faces(dist: Distribution) -> frozenset[Faces]:
    found = _ALL_FACES.get(dist)
    if found is None:
        found = _ALL_FACES[dist] = frozenset((v,) for v, _ in dist.outcomes)
    return found


_ALL_FACES: dict[Distribution, frozenset[Faces]] = {}


def _weight(dists: tuple[Distribution, ...], faces: frozenset[Faces]) -> int:
    """The weight of the combinations ``faces`` of dice with distributions ``dists``."""
    key = (dists, faces)
    found = _WEIGHTS.get(key)
    if found is None:
        weights = [dict(d.outcomes) for d in dists]
        found = 0
        for f in faces:
            w = 1
            for i, v in enumerate(f):
                w *= weights[i][v]
            found += w
        if len(_WEIGHTS) > _MEMO_LIMIT:
            _WEIGHTS.clear()
        _WEIGHTS[key] = found
    return found


def _split(dists: tuple[Distribution, ...], own: tuple[int, ...], faces: frozenset[Faces],
           tests: list[_Test]) -> list[tuple[Hashable, frozenset[Faces]]]:
    """The combinations ``faces`` of the dice ``own`` by how they answer ``tests``."""
    signature = tuple((t.op, tuple(own.index(s) for s in t.slots), t.coefficients, t.constant) for t in tests)
    key = (dists, faces, signature)
    found = _SPLITS.get(key)
    if found is None:
        readers: list[tuple[Callable[[int, int], bool] | None, tuple[int, ...], tuple[int, ...], int]] = []
        for op, picks, coefficients, constant in signature:
            if op == FACE:
                readers.append((None, picks, coefficients, constant))
            else:
                readers.append((_OPS[op], picks, coefficients, constant))
        parts: dict[tuple[Hashable, ...], set[Faces]] = {}
        for f in faces:
            answer = tuple(
                f[picks[0]] if compare is None
                else compare(sum(c * f[i] for c, i in zip(coefficients, picks, strict=True)), constant)
                for compare, picks, coefficients, constant in readers)
            parts.setdefault(answer, set()).add(f)
        found = [(k, frozenset(v)) for k, v in parts.items()]
        if len(_SPLITS) > _MEMO_LIMIT:
            _SPLITS.clear()
        _SPLITS[key] = found
    return found


_MEMO_LIMIT = 100_000
_SPLITS: dict[object, list[tuple[Hashable, frozenset[Faces]]]] = {}
"""Combinations of faces already split by the uses made of them."""
_WEIGHTS: dict[object, int] = {}
"""Weights of combinations of faces already added up."""


def _settled(found: _Found[T], rolled_again: dict[tuple[int, ...], Fraction]) -> list[Branch[T]]:
    """The branches found, each attempt rolled again shared out over its other outcomes."""
    branches: list[Branch[T]] = []
    for result, probability, rolls, nodes in found:
        for node in nodes:
            probability /= 1 - rolled_again.get(node, Fraction(0))
        branches.append(Branch(result, probability, rolls))
    return branches


def _too_many(max_leaves: int) -> TooManyBranches:
    """The refusal of a walk with more than ``max_leaves`` branches, its steps' included."""
    return TooManyBranches(f"more than {max_leaves} branches")


def _over(found: _Found[T], rolled_again: dict[tuple[int, ...], Fraction], meter: WorkMeter,
          max_leaves: int, frontier: list[_Entry]) -> TooManyBranches:
    """The refusal of a walk whose step settled apart passed the branches or the work left
    to it (``frontier``: what was still to walk, the entry being walked among it)."""
    return _too_many(max_leaves) if meter.branches > max_leaves else _refusal(found, rolled_again, frontier)


def _refusal(found: _Found[T], rolled_again: dict[tuple[int, ...], Fraction],
             frontier: list[_Entry]) -> TooManyBranches:
    """The refusal of a walk over its budget, with what the walked branches prove: their
    share of all chance, exact unless an attempt rolled again is not yet fully walked."""
    walked = None if rolled_again else sum((f[1] for f in found), Fraction(0))
    share = "" if walked is None else f", {percent(float(walked), 1)} of the chance"
    walked_count = f"{len(found):,} branch{'es' if len(found) != 1 else ''}"
    refused = TooManyBranches(f"more work than a question may cost ({walked_count} walked{share})",
                              [] if rolled_again else _settled(found, {}), walked)
    if walked is not None:
        refused.frontier = list(frontier)
    return refused


_Entry = tuple[float, int, list[int], dict[int, Constraint], tuple[Distribution, ...]]
"""A branch still to walk: minus the chance it stands for (the queue's order), minus its
place in the order entries were found (ties go to the latest), the faces to replay, the
combinations of faces it stands for, and the distributions of the dice replayed."""

SAMPLE_SEED = 1642
"""The seed of the draws :func:`sample_rest` makes: the same estimate on any machine."""

LEAST_SAMPLES = 50
"""Fewer draws than this make no estimate."""


def sample_rest(run: Callable[[_Walker], T], refused: TooManyBranches, settler: Settler,
                until: int) -> list[Branch[T]]:
    """Results drawn at random from what a walk refused over its budget had not walked
    (its :attr:`~TooManyBranches.frontier`), until the work meter reaches ``until``: an
    entry chosen by the chance it stands for, one of the combinations of faces it stands
    for by theirs, then the dice rolled as they fall (:class:`_Sampler`). Each result
    weighs the chance not walked over the number drawn, so that the walked branches and
    these together estimate the whole; none when too few were drawn
    (:data:`LEAST_SAMPLES`), or where a draw cannot be made as the walk would (an attempt
    rolled again that began before the entry, a branch without end, the rules raising)."""
    if refused.walked is None or not refused.frontier:
        return []
    meter = settler.meter
    settler.budget = until  # the steps settled apart on the way share the sampling's work
    rng = random.Random(SAMPLE_SEED)
    entries = refused.frontier
    masses = [-entry[0] for entry in entries]
    results: list[T] = []
    while meter.work < until:
        entry = rng.choices(entries, weights=masses)[0]
        prefix = _member(entry, rng)
        replay = len(prefix)
        while True:
            sampler = _Sampler(prefix, settler, rng)
            try:
                result = run(sampler)
                break
            except _RolledAgain as rolled:
                if rolled.mark < replay:
                    return []
                prefix = [slot.value for slot in sampler.slots[:rolled.mark]]
            except OverBudget:
                return _weighed(results, 1 - refused.walked)
            except (Exception, SealBroken):
                return []
            finally:
                sampler.running = False
                meter.work += 1 + len(sampler.slots)
        results.append(result)
    return _weighed(results, 1 - refused.walked)


def _weighed(results: list[T], rest: Fraction) -> list[Branch[T]]:
    """Each of ``results`` as a branch weighing its share of ``rest``."""
    if len(results) < LEAST_SAMPLES:
        return []
    share = rest / len(results)
    return [Branch(result, share, ()) for result in results]


def _member(entry: _Entry, rng: random.Random) -> list[int]:
    """One combination of the faces ``entry`` stands for, drawn by its chance."""
    _, _, prefix, groups, dists = entry
    faces = list(prefix)
    for slots, allowed in groups.values():
        if len(allowed) == 1:
            combination = next(iter(allowed))
        else:
            ordered = sorted(allowed)
            weights = [dict(dists[s].outcomes) for s in slots]
            chances = [math.prod(weights[i][v] for i, v in enumerate(f)) for f in ordered]
            combination = rng.choices(ordered, weights=chances)[0]
        for s, v in zip(slots, combination, strict=True):
            faces[s] = v
    return faces


class _Sampler(_Walker):
    """Dice for one draw of :func:`sample_rest`: replays ``prefix``, then rolls each die as
    it falls; the uses the rules make of them are not noted (nothing is grouped)."""

    def __init__(self, prefix: Sequence[int], settler: Settler, rng: random.Random) -> None:
        super().__init__(prefix, frozenset(), settler)
        self.rng = rng

    def _next_face(self, dist: Distribution, purpose: str, opaque: bool) -> int:
        depth = len(self.slots)
        if depth >= MAX_DEPTH:
            raise TooManyBranches(f"more than {MAX_DEPTH} dice in one branch ({purpose})")
        if depth < len(self.prefix):
            value = self.prefix[depth]
        else:
            value = self.rng.choices([v for v, _ in dist.outcomes], weights=[w for _, w in dist.outcomes])[0]
        self.slots.append(_Slot(dist, purpose, value, opaque))
        return value

    def settle_apart(self, tx: Any, procedure: Callable[..., T], args: tuple[object, ...]) -> T:
        """A step settled apart where the walk met it, as the walk chose its outcome; past
        what is replayed, run as it is (its dice rolled as they fall: the same chances,
        at a fraction of the work of settling a position never met before)."""
        if len(self.slots) >= len(self.prefix):
            return procedure(tx, *args)
        return super().settle_apart(tx, procedure, args)

    def opaque_use(self, slots: tuple[int, ...], time: int | None = None) -> None:
        self.heard()

    def test(self, slots: tuple[int, ...], op: str, coefficients: tuple[int, ...], constant: int) -> None:
        self.heard()

    def kept(self) -> None:
        return None


from tertia.analysis import apart as _apart  # noqa: E402  # it walks its steps with this module
