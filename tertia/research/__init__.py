"""The research API: a battle as a PettingZoo AEC environment (:mod:`tertia.research.environment`),
with the observation it gives each side (:mod:`~tertia.research.observation`, its rule
set's facts in columns of their own: :mod:`~tertia.research.facts`) and the candidate
actions its action indices stand for (:mod:`~tertia.research.candidates`).

PettingZoo and Gymnasium are the ``research`` extra (``pip install 'tertia[research]'``):
the environment is imported from here only when asked for, so the rest of Tertia runs
without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tertia.research.environment import CandidateRefused, TertiaEnv, env

__all__ = ["CandidateRefused", "TertiaEnv", "env"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from tertia.research import environment

        return getattr(environment, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
