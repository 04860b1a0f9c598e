"""The local backend: games in this process (one worker) or in a pool of worker processes
started once per run. Each worker receives the specs once, when it starts, builds each
game once, and is then sent only (variant, index) pairs."""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Collection, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext

from tertia.analysis.sim.games import ChunkResult, GameSpec, Job, run_chunk
from tertia.analysis.sim.scheduler import WorkerLost

START_METHOD = "forkserver"
"""Workers forked from a fresh interpreter (the fork server) that has imported the engine
and the rule sets a run plays once: no state inherited from the parent, and no worker
pays for the imports again. ``spawn`` (each worker a fresh interpreter importing it all)
where the platform has no fork server."""


def worker_context(specs: Sequence[GameSpec]) -> BaseContext:
    """The start method's context, its fork server told to import what ``specs`` play (a
    fork server already running keeps what it imported: the modules are a head start,
    never a condition)."""
    if START_METHOD not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    from tertia.rulesets import manifest

    context = multiprocessing.get_context(START_METHOD)
    modules = dict.fromkeys([__name__, *(manifest(spec.rules).module for spec in specs)])
    context.set_forkserver_preload(list(modules))
    return context


class InProcessPool:
    """Runs each batch (of one game) when it is waited for, so Ctrl-C loses no finished game."""

    max_batch = 1

    def __init__(self, specs: Sequence[GameSpec], master_seed: int) -> None:
        self.slots = 1
        self._specs = list(specs)
        self._seed = master_seed
        self._results: dict[int, ChunkResult] = {}
        self._jobs: dict[int, tuple[Job, ...]] = {}
        self._next = 0

    def submit(self, jobs: tuple[Job, ...]) -> int:
        self._next += 1
        self._jobs[self._next] = jobs
        return self._next

    def wait(self, handles: Collection[int]) -> list[int]:
        first = min(handles)
        if first not in self._results:
            self._results[first] = run_chunk(self._specs, self._seed, self._jobs.pop(first))
        return [first]

    def result(self, handle: int) -> ChunkResult:
        return self._results.pop(handle)

    def cancel(self, handles: Collection[int]) -> list[int]:
        for h in handles:
            self._jobs.pop(h, None)
        return [h for h in handles if h in self._results]

    def close(self) -> None:
        self._jobs.clear()


_WORKER_SPECS: list[GameSpec] = []
_WORKER_SEED = 0


def _start_worker(specs: list[GameSpec], master_seed: int) -> None:
    """Worker start-up: keep the specs, and leave Ctrl-C to the main process, which
    decides what to keep."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER_SEED
    _WORKER_SPECS[:] = specs
    _WORKER_SEED = master_seed


def _run_in_worker(jobs: tuple[Job, ...]) -> ChunkResult:
    return run_chunk(_WORKER_SPECS, _WORKER_SEED, jobs)


class ProcessPool:
    """A pool of ``workers`` processes; batches are futures."""

    max_batch = 256

    def __init__(self, specs: Sequence[GameSpec], master_seed: int, workers: int) -> None:
        self.slots = workers
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=worker_context(specs),
            initializer=_start_worker,
            initargs=(list(specs), master_seed),
        )

    def submit(self, jobs: tuple[Job, ...]) -> Future[ChunkResult]:
        try:
            return self._executor.submit(_run_in_worker, jobs)
        except BrokenProcessPool as exc:
            raise WorkerLost(f"a worker process died: {exc}") from exc

    def wait(self, handles: Collection[Future[ChunkResult]]) -> list[Future[ChunkResult]]:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        return [h for h in handles if h in done]

    def result(self, handle: Future[ChunkResult]) -> ChunkResult:
        try:
            return handle.result()
        except BrokenProcessPool as exc:
            raise WorkerLost(f"a worker process died: {exc}") from exc

    def cancel(self, handles: Collection[Future[ChunkResult]]) -> list[Future[ChunkResult]]:
        return [h for h in handles if not h.cancel()]

    def close(self) -> None:
        """Stop the workers once their current batch (a fraction of a second) is done;
        Ctrl-C here stops waiting for them."""
        try:
            self._executor.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:
            self._executor.shutdown(wait=False, cancel_futures=True)
