"""Statistics for runs whose size the data decided: Wald's sequential probability ratio test
(SPRT), which stops a comparison once its data favour one of two stated gains, and the
normal-mixture confidence sequence, an interval that holds at every size of a run at once.

Why two kinds of interval: a fixed-sample (Student-t) interval holds the truth 95 times in 100 for a
size chosen before the run started. A run stopped by the SPRT, or grown after its result was seen,
has a size its own data chose, and its t interval holds less often (90.2% of 400 SPRT-stopped runs,
benchmarks/NOTES-sequential.md) and leans toward the boundary that stopped it. A confidence sequence
holds at all sizes together, so it holds at whatever size a stop or a look picked.

The boundary (Robbins' normal mixture; Howard, Ramdas, McAuliffe and Sekhon 2021, eq. 14):
for n units with standard deviation σ whose deviations from the true mean sum to S_n,

    |S_n| < σ·sqrt((n + n0)·ln((n + n0) / (n0·α²)))   for every n at once, with chance ≥ 1 − α.

It is Ville's inequality applied to the likelihood ratio of "the mean is μ + λσ" against "it
is μ", averaged over λ ~ N(0, 1/n0); n0 (`MIXING_DECKS`) sets the size where the interval is
narrowest. The guarantee is exact for normal data of known σ; here σ is the standard deviation
of the decks so far (a plug-in) and deck values are not normal, so it is asymptotic: it holds
as n grows (Waudby-Smith et al. 2023, "time-uniform central limit theory"), not from the first
deck. That is why it is given only from `ANYTIME_FROM` decks on; measured on greedy − random
(benchmarks/NOTES-sequential.md), the printed anytime interval held the truth in all of 400
SPRT-stopped runs. The same mixture against the mean 0 gives the always-valid p-value of the
mixture SPRT (Johari, Pekelis and Walsh 2017), 1 / Λ_n; it is below α exactly when the interval
at level 1 − α leaves 0 out, so a verdict and its interval agree here as they do for fixed runs
(`stats`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simcasino.stats import Estimate, constant_estimate, need_two, sums_moments

# n0 of the mixture, in decks: the interval is narrowest near 4,000 decks and at most 1.72 times
# as wide as a fixed one from 1,000 to 100,000 decks (1.88 at a million, 2.2 at 256) for one
# comparison at 95%, the sizes this toolkit's runs and SPRT stops have.
MIXING_DECKS = 500
# the SPRT looks from this many decks on. Its variance is estimated from the data: on a few
# lumpy deck values it can come out near 0 and decide on nothing, and on a few hundred the skew
# of real decks still shows (3,000 simulated runs of greedy − random's decks resampled, "at most
# 0" against "at least 0.25" at 0: α 6.2% looking from 64 decks, 5.2% from 256)
FIRST_LOOK = 256
# the confidence sequence is given from this many decks on, the SPRT's first look, for the
# same reason: its σ is estimated from the decks, and on fewer a lumpy, skewed handful can fake
# a narrow spread (fewer decks: an interval from -inf to inf, and p = 1)
ANYTIME_FROM = FIRST_LOOK


def confidence_radius(n: int, sd: float, level: float = 0.95) -> float:
    """Half the width of the confidence sequence around the mean of n units of spread ``sd``."""
    alpha, wide = 1 - level, n + MIXING_DECKS
    return sd * math.sqrt(wide * math.log(wide / (MIXING_DECKS * alpha * alpha))) / n


def always_valid_p(n: int, mean: float, sd: float) -> float:
    """The mixture SPRT's p-value against a true mean of 0: 1 / Λ_n, at most 1, where
    Λ_n = sqrt(n0 / (n + n0))·exp(n²·mean² / (2σ²(n + n0))) (in logs: Λ_n overflows)."""
    wide = n + MIXING_DECKS
    log_ratio = 0.5 * math.log(MIXING_DECKS / wide) + (n * mean) ** 2 / (2 * sd * sd * wide)
    return math.exp(-max(log_ratio, 0.0))


def anytime_ci_from_sums(
    n: int, total: int, total_sq: int, scale: float = 1.0, level: float = 0.95
) -> Estimate:
    """`stats.mean_ci_from_sums` with the confidence sequence's interval and the always-valid
    p; before `ANYTIME_FROM` decks no interval yet (from -inf to inf, p = 1), unless the decks
    are all alike."""
    need_two(n)
    mean, variance = sums_moments(n, total, total_sq, scale)
    sd = math.sqrt(max(variance, 0.0))
    if sd == 0.0:
        return constant_estimate(mean, n)
    if n < ANYTIME_FROM:
        return Estimate(mean, sd / math.sqrt(n), -math.inf, math.inf, n, 1.0)
    half = confidence_radius(n, sd, level)
    return Estimate(
        mean, sd / math.sqrt(n), mean - half, mean + half, n, always_valid_p(n, mean, sd)
    )


@dataclass(frozen=True)
class Sprt:
    """Wald's sequential test of H0 "a gain of at most ``low``" against H1 "a gain of at least
    ``high``" (high > low, in the units of the data, e.g. points per deal). ``alpha`` and
    ``beta`` are the error rates of a family of comparisons together: over m comparisons each
    is tested at alpha / m and beta / m (Bonferroni), so that across the family a gain of at
    most ``low`` is taken for H1 in about alpha of runs, and one of at least ``high`` for H0
    in about beta (about: see below). Between the two either answer may come.

    The log-likelihood ratio is that of normal data with the variance estimated from the data
    so far (a GSPRT, as engine testers such as fishtest run); it grows with the mean, so the
    error at a single gain ``low`` (``high``) bounds the error at every gain below (above).
    The bounds are Wald's strict ones, ln(1 / α) and ln β. For a true likelihood ratio, a
    martingale under each hypothesis, they would give α' ≤ α(1 − β') and β' ≤ β(1 − α')
    (Wald 1945) whatever the overshoot. This statistic is not one: its variance is estimated
    from the data, and deck values are neither normal nor symmetric, so the error rates hold
    only approximately. Measured on greedy − random (``python benchmarks/bench_sequential.py
    errors``, 1,000 runs each, minutes on one core; benchmarks/NOTES-sequential.md): α 6.0%
    [4.7, 7.6] and β 4.4% [3.3, 5.9] for a nominal 5% when looking after every deck; off the
    engine, α 4.9% on real deck values resampled and 5.3% on normal data of their spread
    (3,000 runs each)."""

    low: float
    high: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.high > self.low:
            raise ValueError(
                f"SPRT bounds must have high > low; got low={self.low}, high={self.high}"
            )
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(
                f"SPRT alpha and beta must be in (0, 0.5); got {self.alpha}, {self.beta}"
            )

    def bounds(self, comparisons: int = 1) -> tuple[float, float]:
        """(lower, upper) on the log-likelihood ratio of each of ``comparisons``: at or below
        lower it accepts H0, at or above upper H1."""
        return math.log(self.beta / comparisons), math.log(comparisons / self.alpha)

    def llr(
        self, n: float | np.ndarray, mean: float | np.ndarray, variance: float | np.ndarray
    ) -> float | np.ndarray:
        """Log-likelihood ratio of H1 to H0 after n units with this mean and variance (numbers
        or arrays); ±inf where the variance is 0 and the mean is off the middle, 0 on it."""
        offset = np.asarray(mean, dtype=np.float64) - (self.low + self.high) / 2
        variance = np.asarray(variance, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = np.where(
                variance > 0,
                (self.high - self.low) * n * offset / variance,
                np.sign(offset) * np.inf,
            )
        value = np.where(offset == 0, 0.0, value)
        return float(value) if value.ndim == 0 else value

    def first_decision(
        self, n: np.ndarray, mean: np.ndarray, variance: np.ndarray, comparisons: int = 1
    ) -> tuple[int, str] | None:
        """The first of a sequence of looks (n units so far, their mean and variance) where the
        test decides, from `FIRST_LOOK` units on: (its index, "H1" or "H0"), or None."""
        lower, upper = self.bounds(comparisons)
        value = np.asarray(self.llr(n, mean, variance))
        crossed = np.flatnonzero(
            (np.asarray(n) >= FIRST_LOOK) & ((value >= upper) | (value <= lower))
        )
        if crossed.size == 0:
            return None
        first = int(crossed[0])
        return first, "H1" if value[first] >= upper else "H0"
