"""The statistics of a balance study: proportions and shares with Wilson score intervals,
means with normal intervals (clipped to what the quantity can be, where that is known),
and paired differences between two rule variants fought on the same seeds.

Every interval here is a two-sided 95% interval unless ``z`` says otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with the low and high ends of its confidence interval."""

    estimate: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high}

    def __str__(self) -> str:
        return f"{self.estimate:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson(successes: float, trials: int, z: float = Z95) -> Interval:
    """The proportion ``successes / trials`` with its Wilson score interval.

    Unlike the textbook ``p ± z·sqrt(p(1-p)/n)``, the Wilson interval stays inside [0, 1]
    and keeps its coverage near 0 and 1 and for small ``n`` (Newcombe 1998, method 3).
    ``successes`` may be fractional: :func:`wilson_share` sums shares of a trial.

    >>> print(wilson(81, 263))
    0.308 [0.255, 0.366]
    >>> print(wilson(0, 4))
    0.000 [0.000, 0.490]
    """
    if trials <= 0:
        raise ValueError("a proportion needs at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes ({successes}) must be between 0 and trials ({trials})")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # Clamp rounding noise so that 0/n starts at exactly 0 and n/n ends at exactly 1.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(p, low, high)


def wilson_share(shares: Sequence[float], z: float = Z95) -> Interval:
    """The mean of ``shares``, each a share in [0, 1] from one trial, with the Wilson score
    interval of that mean over ``len(shares)`` trials.

    A share in [0, 1] with mean ``p`` varies at most as much as a win or a loss with the same
    mean (its variance is at most ``p(1-p)``), so the interval is the Wilson interval of
    ``sum(shares)`` successes in ``len(shares)`` trials: it never leaves [0, 1], and is not
    zero-width when every share is 0 or every share is 1.

    >>> print(wilson_share([0.0, 0.0, 0.0, 0.0]))
    0.000 [0.000, 0.490]
    >>> print(wilson_share([0.5, 1.0]))
    0.750 [0.198, 0.973]
    """
    if not shares:
        raise ValueError("a share needs at least one trial")
    if any(not 0.0 <= share <= 1.0 for share in shares):
        raise ValueError("every share must be between 0 and 1")
    return wilson(math.fsum(shares), len(shares), z)


Bounds = tuple[float, float]
"""The least and the most a quantity can be (a battle's turns: 0 to its last turn)."""


def mean_interval(values: Sequence[float], z: float = Z95, bounds: Bounds | None = None) -> Interval:
    """The mean of ``values`` with a normal-approximation interval, mean ± z·s/√n
    (``s`` the sample standard deviation); a single value has a zero-width interval.

    With ``bounds``, the least and the most each value can be, the interval is clipped to
    them: the mean of such values cannot be outside them either, though the normal
    approximation, symmetric about the mean, would reach past an end for a mean near it.

    >>> print(mean_interval([1.0, 2.0, 3.0]))
    2.000 [0.868, 3.132]
    >>> print(mean_interval([8.0, 8.0, 8.0, 7.0, 7.0]))
    7.600 [7.120, 8.080]
    >>> print(mean_interval([8.0, 8.0, 8.0, 7.0, 7.0], bounds=(0, 8)))
    7.600 [7.120, 8.000]
    """
    n = len(values)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    if bounds is not None and not bounds[0] <= min(values) <= max(values) <= bounds[1]:
        raise ValueError(f"every value must be between {bounds[0]:g} and {bounds[1]:g}")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    low, high = mean - half, mean + half
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return Interval(mean, low, high)


def paired_difference(
    treated: Sequence[float], baseline: Sequence[float], z: float = Z95, bounds: Bounds | None = None
) -> Interval:
    """The mean of the per-pair differences ``treated[i] - baseline[i]`` with a normal
    interval on those differences, clipped to ``bounds`` (the least and the most each
    difference can be) when given, as :func:`mean_interval` clips.

    Each pair is one seed fought under two variants, so whatever the two games share
    cancels out of the difference and the interval is narrower than comparing two
    independent samples would give. With 0/1 outcomes (a win or not) this is the paired
    difference in win rate, whose bounds are -1 and 1.

    >>> paired_difference([1, 1, 0, 1], [0, 1, 0, 0]).estimate
    0.5
    >>> print(paired_difference([1, 1, 1, 1, 0], [0, 0, 0, 0, 0], bounds=(-1, 1)))
    0.800 [0.408, 1.000]
    """
    if len(treated) != len(baseline):
        raise ValueError("paired samples must have the same length")
    return mean_interval([t - b for t, b in zip(treated, baseline, strict=True)], z, bounds)
