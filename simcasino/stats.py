"""Statistics for comparing strategies: paired means with confidence intervals, Wilson
intervals for win rates, and Holm's correction for several comparisons at once.

The unit of analysis is the deck (every deck is played once per seat rotation, so the luck
of the cards cancels inside a unit); these functions take one number per unit.
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
    n = x.size
    if n < 2:
        raise ValueError(f"need at least 2 units for a confidence interval; got {n}")
    mean = float(x.mean())
    sd = float(x.std(ddof=1))
    se = sd / np.sqrt(n)
    if se == 0.0:
        p_value = 1.0 if mean == 0.0 else 0.0
        return Estimate(mean, 0.0, mean, mean, n, p_value)
    half = float(_scipy.t.ppf(0.5 + level / 2, df=n - 1)) * se
    p_value = float(2 * _scipy.t.sf(abs(mean) / se, df=n - 1))
    return Estimate(mean, se, mean - half, mean + half, n, p_value)


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
    return float(centre - half), float(centre + half)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values (same order as given): reject where adjusted < α."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[index]))
        adjusted[index] = running
    return adjusted.tolist()
