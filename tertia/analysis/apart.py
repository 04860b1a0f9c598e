"""Steps of the rules settled apart while exact odds are walked.

A step the rules mark with :meth:`Tx.apart <tertia.core.ruleset.Tx.apart>` (a morale
check, say) depends only on the position it starts in and on plain arguments, and what
follows reads only what it did to the position and what it returned, never its dice.
Walked as it runs, every way its dice fall is replayed with everything after it: three
friends' checks multiply their branches. Settled apart, the step is walked on its own from
the position it starts in, once for each such position (memoised by the position, found
by a cheap key, the pieces that differ from the first position a step started in, and
confirmed equal), and its branches merged by outcome: the position it leaves, its events
and what it returns, each with its dice left out, and what it returns for the record only
(:mod:`tertia.analysis.sealed`). The walk it is part of then goes on down one branch for
each distinct outcome, with that outcome's chance. This is the plain walk with equal
positions merged, so it needs no claim that steps are independent: each is worked out
from the very position it starts in.

What makes it exact is checked as the walk goes, and a step that fails a check is walked
as it runs, as it always was:

- it is a module's function (no closure, no bound object: nothing it reads is hidden from
  the memo's key) given plain values (no die among them);
- it reads none of the events before it (its own walk starts with none);
- it reads no die rolled before it (:class:`~tertia.analysis.enumerate.NotApart`): its
  outcomes would then hang on faces its position does not show;
- nothing after it reads its dice or its record (its events and what it returns hold those
  of one branch standing for all the merged ones): such a read while the walk goes on breaks the
  seal (:class:`~tertia.analysis.enumerate.SealBroken`) and the walk is begun again with
  the step walked as it runs. Its dice may still be kept for the record
  (:func:`~tertia.core.dice.recorded`), read once the walk is over as any die kept is;
- a step that raises, or whose own walk has no end, is walked as it runs (where it
  raises, or is refused, as it always did); one that takes the work or the branches
  left to the whole walk refuses it (:class:`~tertia.analysis.enumerate.OverBudget`):
  its branches count with the walk's against the one ``max_leaves``, so a chain of
  steps, each settled from a position of its own, cannot walk many times that many.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import math
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from tertia.analysis.enumerate import (
    Branch,
    NotApart,
    OverBudget,
    Probe,
    SealBroken,
    TooManyBranches,
    Total,
    WorkMeter,
    _Walker,
)
from tertia.analysis.sealed import record_fields, sealed
from tertia.core.dice import Distribution
from tertia.core.events import Event
from tertia.core.ruleset import Tx
from tertia.core.state import STATE_FIELDS, GameState
from tertia.core.tagged import field_names

T = TypeVar("T")

Walk = Callable[..., list[Branch[Any]]]
""":func:`~tertia.analysis.enumerate.enumerate_branches`, which walks a step's own tree."""


@dataclass(frozen=True)
class StepOutcome:
    """One distinct outcome of a step settled apart: the position it leaves, its events
    and what it returned (those of one branch standing for all merged into it)."""

    state: GameState
    events: tuple[Event, ...]
    value: Any


@dataclass(frozen=True)
class Settled:
    """A step's distinct outcomes, likeliest first, as a chance node over their indices."""

    outcomes: tuple[StepOutcome, ...]
    node: Distribution


_DIE = ("die",)
"""Where a die stood in an outcome's events or returned value (left out of its key)."""


def _plain_argument(x: object) -> bool:
    if x is None or isinstance(x, (bool, str, float, enum.Enum)):
        return True
    if isinstance(x, int):
        return not isinstance(x, Probe)
    if isinstance(x, tuple):
        return all(_plain_argument(i) for i in x)
    return False


def _module_function(procedure: object) -> bool:
    """A function of a module's own: no closure and no bound object to hide what it reads."""
    return isinstance(procedure, types.FunctionType) and procedure.__closure__ is None


def _shape(x: Any) -> Any:
    """``x`` as a hashable key with every die left out (:data:`_DIE`)."""
    if isinstance(x, (Probe, Total)):
        return _DIE
    if x is None or isinstance(x, (bool, int, float, str, bytes, enum.Enum)):
        return x
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(_shape(i) for i in x))
    if isinstance(x, Mapping):
        return ("mapping", tuple((_shape(k), _shape(v)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return ("set", tuple(sorted((_shape(i) for i in x), key=repr)))
    if dataclasses.is_dataclass(type(x)):
        return (type(x), tuple(_shape(getattr(x, name)) for name in field_names(type(x))))
    return (type(x), repr(x))


class _StepEvents(list[Event]):
    """The events of a step's own walk: the step may add to them but not read them (it
    would read the events before it, which its own walk does not hold)."""

    def _refused(self, *args: Any, **kwargs: Any) -> Any:
        raise NotApart

    __getitem__ = __iter__ = __len__ = __contains__ = __reversed__ = _refused
    __setitem__ = __delitem__ = index = count = copy = pop = remove = _refused


class Settler:
    """Settles apart the steps of one walk of exact odds (and of the steps' own walks),
    sharing its work meter, budget and bound on branches; memoises each step's outcomes
    by the position it starts in."""

    def __init__(self, walk: Walk, budget: int | None, meter: WorkMeter, max_leaves: int) -> None:
        self.walk = walk
        self.budget = budget
        self.meter = meter
        self.max_leaves = max_leaves
        self.sealing = True
        """While the walk goes on, no die of a settled step may be read (its seal)."""
        self.refused: set[str] = set()
        """Steps found not to be settled apart here: walked as they run."""
        self.memo: dict[tuple[Any, ...], list[tuple[GameState, Settled | None]]] = {}
        self.chain: list[_Walker] = []
        """The walks steps are being settled from, outermost first."""
        self.base: GameState | None = None
        """The first position a step started in: others are told apart by what differs."""

    def position(self, state: GameState) -> tuple[Any, ...]:
        """A cheap key of ``state``: equal positions have equal keys (confirm with
        :func:`_same`). A walk's positions share every piece nothing changed with the
        position it began in, so the pieces that are not :attr:`base`'s own name it."""
        if self.base is None:
            self.base = state
        units, old = state.units, self.base.units
        changed = tuple(uid for uid, u in units.items() if old.get(uid) is not u)
        arrived = sum(uid not in old for uid in changed)
        if len(units) - arrived != len(old):  # a piece of the base has gone: by its digest
            return ("digest", state.state_hash())
        return (state.turn, state.active, state.phase, state.step, changed,
                tuple(units[uid].canonical_text() for uid in changed))

    def close(self) -> None:
        """The walk is over: its dice, kept, are the record's."""
        self.sealing = False

    def refuse(self, label: str) -> None:
        """The step ``label`` broke its seal: from now on it is walked as it runs."""
        self.refused.add(label)
        self.memo.clear()

    @contextlib.contextmanager
    def _bookkeeping(self) -> Iterator[None]:
        """Keys worked out for memo and merging are no use of dice by the rules: no walk
        hears them and no seal is broken by them."""
        running = [(w, w.running, w.settling) for w in self.chain]
        sealing = self.sealing
        for w in self.chain:
            w.running, w.settling = False, False
        self.sealing = False
        try:
            yield
        finally:
            for w, was_running, was_settling in running:
                w.running, w.settling = was_running, was_settling
            self.sealing = sealing

    def settle(self, walker: _Walker, tx: Tx, procedure: Callable[..., T], args: tuple[object, ...]) -> T:
        """``procedure(tx, *args)`` settled apart from ``walker``'s walk, or run as it is
        where it cannot be (see the module's note)."""
        label = f"{procedure.__module__}.{procedure.__qualname__}"
        if label in self.refused or not _plain_argument(args) or not _module_function(procedure):
            return procedure(tx, *args)
        start = tx.state
        self.chain.append(walker)
        try:
            with self._bookkeeping():
                key = (procedure, args, tx.ends_with_action, self.position(start))
                known = [s for old, s in self.memo.get(key, ()) if _same(old, start)]
            found = known[0] if known else self._work_out(walker, tx, procedure, args, label)
            if not known:
                self.memo.setdefault(key, []).append((start, found))
        finally:
            self.chain.pop()
        if found is None:
            return procedure(tx, *args)
        self.meter.settled += 1
        index = 0 if len(found.outcomes) == 1 else walker.choose(found.node, f"settled apart: {label}")
        outcome = found.outcomes[index]
        tx.state = outcome.state
        tx.events.extend(outcome.events)
        result: T = outcome.value
        return result

    def _work_out(self, walker: _Walker, tx: Tx, procedure: Callable[..., Any], args: tuple[object, ...],
                  label: str) -> Settled | None:
        """The step's distinct outcomes from ``tx``'s position, or ``None`` where it is to
        be walked as it runs."""
        start, table, alone = tx.state, tx.table, tx.ends_with_action

        def run(dice: _Walker) -> tuple[GameState, list[Event], Any]:
            sub = Tx(table, start, dice, ends_with_action=alone)
            sub.events = _StepEvents()
            value = procedure(sub, *args)
            return sub.state, list.copy(sub.events), value

        for w in self.chain:
            w.settling = True
        try:
            branches = self.walk(run, max_leaves=self.max_leaves, budget=self.budget, meter=self.meter,
                                 settler=self, seal=label)
        except NotApart:
            return None
        except TooManyBranches:
            if self.meter.over(self.max_leaves, self.budget):
                raise OverBudget from None
            return None
        except Exception:  # the step raises: walked as it runs, where it raises as before
            return None
        except BaseException as other:  # the action ends within the step, say
            if isinstance(other, (KeyboardInterrupt, SystemExit, OverBudget, SealBroken)):
                raise
            return None
        finally:
            for w in self.chain:
                w.settling = False
        with self._bookkeeping():
            return _merged(branches, self, label)


def _same(a: GameState, b: GameState) -> bool:
    """Whether two positions of equal :meth:`Settler.position` keys are equal: their pieces
    not shared, and all else."""
    if a is b:
        return True
    fields_a, fields_b = a.fields(), b.fields()
    units = STATE_FIELDS.index("units")
    if fields_a[:units] + fields_a[units + 1:] != fields_b[:units] + fields_b[units + 1:]:
        return False
    return len(a.units) == len(b.units) and all(u is b.units.get(uid) or u == b.units.get(uid)
                                                for uid, u in a.units.items())


def _merged(branches: list[Branch[tuple[GameState, list[Event], Any]]], settler: Settler,
            label: str) -> Settled:
    """The branches of the step ``label`` merged by outcome (see :class:`StepOutcome`; what
    it returns for the record only is left out, and sealed: :mod:`tertia.analysis.sealed`),
    likeliest first."""
    buckets: dict[Any, list[int]] = {}
    outcomes: list[StepOutcome] = []
    chances: list[Fraction] = []
    for branch in branches:
        state, events, value = branch.result
        record = record_fields(value)
        shown = (type(value), tuple(_DIE if name in record else _shape(getattr(value, name))
                                    for name in field_names(type(value)))) if record else _shape(value)
        key = (settler.position(state), _shape(events), shown)
        same = next((i for i in buckets.get(key, ()) if _same(outcomes[i].state, state)), None)
        if same is None:
            buckets.setdefault(key, []).append(len(outcomes))
            kept = sealed(value, settler, label) if record else value
            outcomes.append(StepOutcome(state, tuple(events), kept))
            chances.append(branch.probability)
        else:
            chances[same] += branch.probability
    order = sorted(range(len(outcomes)), key=lambda i: -chances[i])
    common = math.lcm(*(c.denominator for c in chances))
    node = Distribution(f"{len(order)} outcomes",
                        tuple((rank, int(chances[i] * common)) for rank, i in enumerate(order)))
    return Settled(tuple(outcomes[i] for i in order), node)
