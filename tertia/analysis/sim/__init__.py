"""Balance studies: thousands of AI-against-AI battles, on one machine or on Ray, with
honest statistics and plots.

- :mod:`~tertia.analysis.sim.games`: one game from (spec, master seed, index) to a row
- :mod:`~tertia.analysis.sim.runner`: :func:`run` on the local or the Ray backend
- :mod:`~tertia.analysis.sim.scheduler`: batching, progress and Ctrl-C, for every backend
- :mod:`~tertia.analysis.sim.stats`: Wilson intervals, means, paired differences
- :mod:`~tertia.analysis.sim.summary` and :mod:`~tertia.analysis.sim.sweep`: what rows say
- :mod:`~tertia.analysis.sim.storage` and :mod:`~tertia.analysis.sim.plots`: Parquet and PNG
"""

from tertia.analysis.sim.games import GameSpec, Row, columns, game_seed, make_spec, play_game
from tertia.analysis.sim.runner import BACKENDS, Backend, Study, run
from tertia.analysis.sim.stats import Interval, mean_interval, paired_difference, wilson, wilson_share
from tertia.analysis.sim.summary import summarize
from tertia.analysis.sim.sweep import compare

__all__ = [
    "BACKENDS",
    "Backend",
    "GameSpec",
    "Interval",
    "Row",
    "Study",
    "columns",
    "compare",
    "game_seed",
    "make_spec",
    "mean_interval",
    "paired_difference",
    "play_game",
    "run",
    "summarize",
    "wilson",
    "wilson_share",
]
