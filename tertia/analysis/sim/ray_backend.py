"""The Ray backend: the same batches as the local backend, as Ray tasks.

Joins the cluster at ``address`` or starts a local Ray with ``workers`` CPUs, puts the
specs in the object store once, and shuts down afterwards whatever it started. Ray is an
optional dependency: ``pip install 'tertia[ray]'`` (on every node of a cluster).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from typing import Any

from tertia.analysis.sim.games import ChunkResult, GameSpec, Job, run_chunk
from tertia.analysis.sim.scheduler import WorkerLost


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster could not be reached."""


def require_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable("the Ray backend needs Ray: pip install 'tertia[ray]'") from None
    return ray


class RayPool:
    """Batches as Ray tasks of one CPU each; handles are object refs."""

    max_batch = 256

    def __init__(self, specs: Sequence[GameSpec], master_seed: int, workers: int,
                 address: str | None = None) -> None:
        ray = self._ray = require_ray()
        self._owned = not ray.is_initialized()
        if self._owned:
            try:
                if address:
                    ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
                else:
                    ray.init(num_cpus=workers, include_dashboard=False,
                             logging_level=logging.WARNING, log_to_driver=False)
            except Exception as exc:  # Ray raises many kinds here; all mean "no cluster"
                where = f"at {address}" if address else "locally"
                raise RayUnavailable(f"cannot start or join Ray {where}: {exc}") from exc
        cpus = int(ray.cluster_resources().get("CPU", workers))
        self.slots = max(1, cpus if address or not self._owned else workers)
        self._seed = master_seed
        self._specs = ray.put(list(specs))
        # A batch is a pure function of its seeds, so a batch lost with a node is safely rerun.
        self._task = ray.remote(num_cpus=1, max_retries=3)(run_chunk)

    def submit(self, jobs: tuple[Job, ...]) -> Any:
        return self._task.remote(self._specs, self._seed, jobs)

    def wait(self, handles: Collection[Any]) -> list[Any]:
        done, _ = self._ray.wait(list(handles), num_returns=1)
        return list(done)

    def result(self, handle: Any) -> ChunkResult:
        try:
            result: ChunkResult = self._ray.get(handle)
        except self._ray.exceptions.RayError as exc:
            raise WorkerLost(f"a Ray task failed: {exc}") from exc
        return result

    def cancel(self, handles: Collection[Any]) -> list[Any]:
        refs = list(handles)
        if not refs:
            return []
        done, running = self._ray.wait(refs, num_returns=len(refs), timeout=0)
        for ref in running:
            self._ray.cancel(ref, force=True)
        return list(done)

    def close(self) -> None:
        if self._owned:
            self._ray.shutdown()
