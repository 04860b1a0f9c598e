"""Hands batches of games to a pool of workers and gathers their rows, the same way for
every backend. Batches grow until each takes about :data:`TARGET_BATCH_SECONDS`, so the cost
of handing work out is negligible whatever a game costs, and the tail of the run stays
balanced across workers. Batch sizes never change a row: each game's row depends only on
its spec, the master seed and its index.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from tertia.analysis.sim.games import ChunkResult, Job, Row

TARGET_BATCH_SECONDS = 0.25
MAX_BATCH = 256
IN_FLIGHT_PER_SLOT = 2

H = TypeVar("H")
Progress = Callable[[Sequence[tuple[int, Row]]], None]
"""Called in the main process with the rows of each finished batch; raising
``KeyboardInterrupt`` from it stops the run as Ctrl-C does."""


class WorkerLost(RuntimeError):
    """A worker process died or the cluster lost a task: the run cannot go on."""


class Pool(Protocol, Generic[H]):
    """What the scheduler needs of a backend; ``H`` is its handle for a submitted batch."""

    slots: int
    max_batch: int

    def submit(self, jobs: tuple[Job, ...]) -> H: ...

    def wait(self, handles: Collection[H]) -> list[H]:
        """Block until at least one of ``handles`` has finished; return the finished ones."""
        ...

    def result(self, handle: H) -> ChunkResult:
        """The finished batch's rows; raises :class:`WorkerLost` if it cannot be had."""
        ...

    def cancel(self, handles: Collection[H]) -> list[H]:
        """Cancel what has not started; return the handles still worth waiting for."""
        ...

    def close(self) -> None: ...


@dataclass
class RunOutcome:
    """The rows gathered (unordered) and why the run stopped early, if it did."""

    rows: list[tuple[int, Row]] = field(default_factory=list)
    stopped: str | None = None

    @property
    def interrupted(self) -> bool:
        return self.stopped is not None


class _Batcher:
    """Cuts the job list into batches sized from the time games have taken so far."""

    def __init__(self, jobs: Sequence[Job], slots: int, max_batch: int) -> None:
        self.jobs = jobs
        self.next = 0
        self.slots = slots
        self.max_batch = max_batch
        self.games_timed = 0
        self.seconds = 0.0

    @property
    def exhausted(self) -> bool:
        return self.next >= len(self.jobs)

    def record(self, result: ChunkResult) -> None:
        self.games_timed += len(result.rows)
        self.seconds += result.seconds

    def take(self) -> tuple[Job, ...]:
        remaining = len(self.jobs) - self.next
        if self.games_timed == 0 or self.seconds <= 0:
            size = 1
        else:
            size = round(TARGET_BATCH_SECONDS * self.games_timed / self.seconds)
        # Leave enough batches for every slot near the end, so no worker idles while
        # another finishes a long batch.
        tail = math.ceil(remaining / (IN_FLIGHT_PER_SLOT * self.slots))
        size = max(1, min(size, tail, self.max_batch))
        batch = tuple(self.jobs[self.next:self.next + size])
        self.next += len(batch)
        return batch


def run_jobs(pool: Pool[H], jobs: Sequence[Job], on_rows: Progress | None = None) -> RunOutcome:
    """Run every job on ``pool`` and gather the rows; always closes the pool.

    Ctrl-C (``KeyboardInterrupt``, also when raised by ``on_rows``) stops handing out
    work, cancels what has not started, keeps the rows of every finished game and of the
    batches already running, and returns with ``stopped`` set. A second Ctrl-C while
    those batches finish abandons them.
    """
    outcome = RunOutcome()
    batcher = _Batcher(jobs, pool.slots, pool.max_batch)
    in_flight: list[H] = []

    def fill() -> None:
        while not batcher.exhausted and len(in_flight) < IN_FLIGHT_PER_SLOT * pool.slots:
            in_flight.append(pool.submit(batcher.take()))

    def gather(handle: H) -> ChunkResult:
        in_flight.remove(handle)
        result = pool.result(handle)
        batcher.record(result)
        outcome.rows.extend(result.rows)
        return result

    try:
        fill()
        while in_flight:
            for handle in pool.wait(in_flight):
                result = gather(handle)
                if on_rows is not None:
                    on_rows(result.rows)
            fill()
    except KeyboardInterrupt:
        outcome.stopped = "interrupted"
        try:
            running = pool.cancel(in_flight)
            in_flight[:] = running
            while in_flight:
                for handle in pool.wait(in_flight):
                    gather(handle)
        except (KeyboardInterrupt, WorkerLost):
            pass
    except WorkerLost as exc:
        outcome.stopped = str(exc)
        with contextlib.suppress(WorkerLost):
            pool.cancel(in_flight)
    finally:
        pool.close()
    return outcome
