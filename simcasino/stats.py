"""Statistics for comparing strategies: paired means with confidence intervals, Wilson
intervals for win rates, Bonferroni's correction for several comparisons at once with the
simultaneous intervals that agree with it, and the variance reduction pairing buys. These are
fixed-sample statistics: they hold for a run whose size was set before it started; a run whose
size its data decided (an SPRT stop, a run grown after a look) needs `sequential`'s.

Why Bonferroni and not Holm: a verdict and the interval printed beside it must never
disagree. A t interval at level 1 - α/m excludes 0 exactly when the Bonferroni-adjusted p
(m·p) is below α, so the two say the same thing by construction; Holm's step-down rejects
more, and no simple interval is consistent with it (an interval with 0 inside next to a
"finding" is what a reader cannot interpret).

The unit of analysis is the deck (every deck is played once per seat rotation, so the luck
of the cards cancels inside a unit); these functions take one number per unit, or the sums
(count, Σx, Σx²) a chunked run adds up: integer sums add up to the same answer in any order,
which is why an experiment's tables do not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats as _scipy


@dataclass(frozen=True)
class Estimate:
    """A mean over independent units with its standard error, CI and two-sided p-value
    (one-sample t-test against zero)."""

    mean: float
    se: float
    ci_low: float
    ci_high: float
    n: int
    p_value: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)

    @property
    def significant(self) -> bool:
        """The CI excludes zero."""
        return self.ci_low > 0 or self.ci_high < 0


def mean_ci(values: Sequence[float] | np.ndarray, level: float = 0.95) -> Estimate:
    """Mean of ``values`` with a Student-t confidence interval at ``level``."""
    x = np.asarray(values, dtype=np.float64)
    need_two(x.size)
    return _estimate(float(x.mean()), float(x.var(ddof=1)), x.size, level)


def mean_ci_from_sums(
    n: int, total: int, total_sq: int, scale: float = 1.0, level: float = 0.95
) -> Estimate:
    """`mean_ci` of n values x / ``scale`` given only Σx and Σx² (exact when they are integers)."""
    need_two(n)
    return _estimate(*sums_moments(n, total, total_sq, scale), n, level)


def sums_moments(n: int, total: int, total_sq: int, scale: float = 1.0) -> tuple[float, float]:
    """Mean and variance of n values x / ``scale`` from Σx and Σx²; the spread n·Σx² − (Σx)² =
    n(n−1)·variance is worked out in Python integers, exact where int64 would overflow."""
    n, total, total_sq = (
        v.item() if isinstance(v, np.generic) else v for v in (n, total, total_sq)
    )
    spread = n * total_sq - total * total
    return total / n / scale, spread / (n * (n - 1)) / scale**2


def need_two(n: int) -> None:
    if n < 2:
        raise ValueError(f"need at least 2 units for a confidence interval; got {n}")


def constant_estimate(mean: float, n: int) -> Estimate:
    """Units without any spread (A against A): the interval is the mean itself, and p is 1 at
    a mean of 0 and 0 elsewhere."""
    return Estimate(mean, 0.0, mean, mean, n, 1.0 if mean == 0.0 else 0.0)


def _estimate(mean: float, variance: float, n: int, level: float) -> Estimate:
    se = float(np.sqrt(max(variance, 0.0) / n))
    if se == 0.0:
        return constant_estimate(mean, n)
    half = float(_scipy.t.ppf(0.5 + level / 2, df=n - 1)) * se
    p_value = float(2 * _scipy.t.sf(abs(mean) / se, df=n - 1))
    return Estimate(mean, se, mean - half, mean + half, n, p_value)


def sd_ci(
    values: Sequence[float] | np.ndarray,
    counts: Sequence[int] | np.ndarray,
    units: int | None = None,
    level: float = 0.95,
) -> Estimate:
    """The standard deviation of a distribution given as a histogram (each value and how often
    it occurs), with an asymptotic CI: Var(s²) ≈ (m4 − s⁴) / n, the interval for s² taken to
    its square root. ``units``: how many independent units the values come from (default:
    their count; fewer when several values share a unit, e.g. every player's points in a deal)."""
    x, c = np.asarray(values, dtype=np.float64), np.asarray(counts, dtype=np.float64)
    total = c.sum()
    need_two(int(total))
    deviation = x - (c * x).sum() / total
    variance = float((c * deviation**2).sum() / (total - 1))
    fourth = float((c * deviation**4).sum() / total)
    n = int(units or total)
    se = float(np.sqrt(max(fourth - variance**2, 0.0) / n))
    half = float(_scipy.norm.ppf(0.5 + level / 2)) * se
    sd = float(np.sqrt(variance))
    return Estimate(
        sd,
        se / (2 * sd) if sd else 0.0,
        float(np.sqrt(max(variance - half, 0.0))),
        float(np.sqrt(variance + half)),
        n,
        None,
    )


def wilson_ci(successes: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion (sound near 0 and 1, unlike mean ± 1.96 se)."""
    if n <= 0:
        raise ValueError(f"need at least one trial; got {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}; got {successes}")
    z = float(_scipy.norm.ppf(0.5 + level / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # exactly 0 and 1 at the ends (rounding would leave a 100% rate just above its interval)
    return 0.0 if successes == 0 else float(centre - half), 1.0 if successes == n else float(
        centre + half
    )


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni-adjusted p-values (same order as given): m·p, at most 1; reject where < α."""
    m = len(p_values)
    return [min(1.0, m * p) for p in p_values]


def simultaneous_level(level: float, comparisons: int) -> float:
    """The level of each of ``comparisons`` intervals so that all cover together at ``level``
    (Bonferroni): 1 - (1 - level) / m. Such an interval excludes 0 exactly when the
    `bonferroni` p is below 1 - ``level``."""
    if comparisons < 1:
        raise ValueError(f"need at least one comparison; got {comparisons}")
    return 1 - (1 - level) / comparisons


def variance_reduction(play_variance: float, plays_per_unit: int, unit_variance: float) -> float:
    """How many times more deals an unpaired design would need for the same interval.

    Unpaired, each deal is an independent unit with variance ``play_variance``; a paired unit
    spends ``plays_per_unit`` deals (one per seat rotation) for a mean of variance
    ``unit_variance``. The ratio of the two variances at equal cost is the factor (inf when
    pairing cancels all the noise, as in an A-versus-A run).
    """
    if unit_variance <= 0.0:
        return float("inf") if play_variance > 0.0 else 1.0
    return play_variance / plays_per_unit / unit_variance
