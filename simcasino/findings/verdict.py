"""The verdicts in plain words, every interval of the page in one family.

Why one family: a page of a few hundred intervals at 95% each would show about one in twenty
wrong by chance, and a reader picks the striking ones. So every interval the page shows is a
Bonferroni interval over all of them (`Family`): with K intervals each is a 1 − 0.05/K
interval, and all K cover their true values together at least 95% of the time; the page says
K. A verdict is judged on the interval printed with it, so words and numbers never disagree:

- `words` (a measure in a sentence): "no effect larger than ±δ" when the interval lies inside
  the equivalence margin δ (`experiment.summary.inside_margin`, the experiments' own test),
  checked first, since an effect sure to be tiny is no reason to change one's play; "gains" /
  "loses" when it leaves out 0; "too rare to judge (n positions)" below `RARE` contested
  positions; "cannot tell" otherwise;
- `adoption` (the word on adopting advice, from its worth a deal): "either way", "adopt it",
  "don't", "unproven", in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as _scipy

from simcasino.experiment.summary import inside_margin
from simcasino.stats import simultaneous_level

LEVEL = 0.95
RARE = 10  # fewer contested positions than this: too rare to judge
POSITION_MARGIN = 0.05  # δ, points per contested position
DEAL_MARGIN = 0.02  # δ, points per deal


@dataclass(frozen=True)
class Measured:
    """A mean with its standard error over ``n`` units (``clusters`` deals for positions)."""

    mean: float
    se: float
    n: int
    clusters: int = 0


def clustered_mean(values: Sequence[float], clusters: Sequence[int]) -> Measured:
    """The mean of ``values`` with a standard error clustered by ``clusters`` (the deal each
    position comes from: positions of one deal share its cards, so they are not independent):
    the sandwich estimate Σ_c (Σ_{i∈c} (x_i − x̄))² / N², times C/(C − 1)."""
    x = np.asarray(values, dtype=float)
    mean = float(x.mean()) if len(x) else 0.0
    ids = (
        np.unique(np.asarray(clusters), return_inverse=True)[1]
        if len(x)
        else np.zeros(0, dtype=int)
    )
    count = int(ids.max()) + 1 if len(x) else 0
    if count < 2:
        return Measured(mean, float("nan"), len(x), count)
    sums = np.bincount(ids, weights=x - mean, minlength=count)
    variance = float((sums**2).sum()) / len(x) ** 2 * count / (count - 1)
    return Measured(mean, variance**0.5, len(x), count)


def runner_se(low: float, high: float, n: int, level: float = LEVEL) -> float:
    """The standard error behind an experiment's fixed ``level`` interval (t with n − 1 df)."""
    return (high - low) / (2 * float(_scipy.t.ppf(0.5 + level / 2, df=max(n - 1, 1))))


@dataclass(frozen=True)
class Family:
    """``size`` intervals simultaneous at ``level`` (Bonferroni): each at 1 − (1 − level)/size."""

    size: int
    level: float = LEVEL

    @property
    def z(self) -> float:
        return float(_scipy.norm.ppf(0.5 + simultaneous_level(self.level, self.size) / 2))

    def interval(self, m: Measured) -> tuple[float, float]:
        half = self.z * m.se
        return m.mean - half, m.mean + half


def words(m: Measured, family: Family, margin: float, unit: str, rare: int = 0) -> str:
    """The verdict on ``m`` (see the module docstring), ``unit`` naming what the points are per."""
    if m.n < rare:
        return f"too rare to judge ({m.n} positions)"
    if not np.isfinite(m.se):
        return f"too few deals to judge ({m.clusters})"
    low, high = family.interval(m)
    interval = f"[{low:+.3f}, {high:+.3f}]"
    if inside_margin(low, high, margin):
        return f"no effect larger than ±{margin:g} points a {unit} ({m.mean:+.3f} {interval})"
    if low > 0:
        return f"gains {m.mean:.3f} points a {unit} {interval}"
    if high < 0:
        return f"loses {-m.mean:.3f} points a {unit} {interval}"
    return f"cannot tell ({m.mean:+.3f} points a {unit} {interval})"


def adoption(m: Measured, family: Family, margin: float) -> str:
    """The word on adopting a rule, from its worth a deal to the player who adopts it: "either
    way" (the interval inside ±``margin``, checked first: a tiny sure effect is no reason to
    change one's play), "adopt it", "don't", or "unproven"."""
    low, high = family.interval(m)
    if inside_margin(low, high, margin):
        return "either way"
    return "adopt it" if low > 0 else "don't" if high < 0 else "unproven"
