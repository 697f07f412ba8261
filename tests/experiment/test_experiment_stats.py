"""The experiment's statistics against hand-computed values and scipy; the A-versus-A false
positive rate near 5%; what pairing buys on real deals (the SPRT's: tests/api/test_sequential.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

import simcasino
from simcasino.core.rng import seed_key
from simcasino.core.rules import SWEDISH
from simcasino.experiment.chunk import deal_values
from simcasino.stats import mean_ci, mean_ci_from_sums, variance_reduction
from simcasino.strategies import parse_strategy


def test_from_sums_equals_from_values_and_scipy() -> None:
    x = np.array([3, -1, 4, 1, -5, 9, 2, 6, -5, 3])
    scale = 2
    est = mean_ci_from_sums(x.size, int(x.sum()), int((x * x).sum()), scale=scale)
    direct = mean_ci(x / scale)
    test = scipy_stats.ttest_1samp(x / scale, 0.0)
    assert est.as_dict() == pytest.approx(direct.as_dict())
    assert est.p_value == pytest.approx(test.pvalue)
    assert (est.ci_low, est.ci_high) == pytest.approx(tuple(test.confidence_interval(0.95)))


def test_from_sums_is_exact_where_int64_products_overflow() -> None:
    """A billion decks of values 90 and 110: Σx and Σx² fit in the chunks' int64 columns, but
    the spread n·Σx² − (Σx)² = n(n−1)·variance passes 2⁶³; it is worked out in Python
    integers, exactly."""
    n = 10**9
    total, total_sq = n * 100, n // 2 * (90**2 + 110**2)
    assert total_sq < 2**63 <= n * total_sq - total**2  # the case: int64 inputs, a spread int64 cannot hold
    with np.errstate(over="ignore"):
        wrapped = np.int64(n) * np.int64(total_sq) - np.int64(total) ** 2
    assert wrapped != n * total_sq - total**2  # int64 arithmetic would have gone wrong here
    est = mean_ci_from_sums(np.int64(n), np.int64(total), np.int64(total_sq))
    assert est.mean == 100.0 and est.se == pytest.approx(math.sqrt(100 * n / (n - 1) / n), rel=1e-12)


def test_variance_reduction_by_hand() -> None:
    """Single deals vary 4.0; a deck (2 rotations) averages them with variance 0.5: unpaired
    needs 4 / 2 / 0.5 = 4 times the deals."""
    assert variance_reduction(4.0, 2, 0.5) == 4.0
    assert variance_reduction(4.0, 2, 0.0) == math.inf
    assert variance_reduction(0.0, 2, 0.0) == 1.0


@pytest.fixture(scope="module")
def real_deck_diffs() -> np.ndarray:
    """Per-deck differences (points per deal) of greedy against random on 3000 real decks."""
    values, _, _ = deal_values(SWEDISH, parse_strategy("greedy"), parse_strategy("random"), seed_key(9), 0, 3000, None)
    return values[:, :, 0].sum(axis=1) / 2


def test_a_versus_a_rate_near_nominal_on_real_decks(real_deck_diffs: np.ndarray) -> None:
    """A-versus-A on data shaped like real decks: random signs make the true mean exactly zero
    while keeping the spread and lumps of real per-deck differences; 2000 runs of 60 decks."""
    rng = np.random.default_rng(5)
    diffs = real_deck_diffs - real_deck_diffs.mean()
    hits = sum(mean_ci(rng.choice(diffs, 60) * rng.choice((-1, 1), 60)).significant for _ in range(2000))
    assert 0.035 < hits / 2000 < 0.065


def test_a_versus_a_in_the_engine_is_exactly_zero() -> None:
    """The same strategy in both seats, rotated: every deck's two plays mirror each other."""
    result = simcasino.compare("greedy", "greedy", decks=500, seed=4)
    assert (result.mean_diff, result.ci_low, result.ci_high, result.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_pairing_reduces_variance_on_real_decks() -> None:
    result = simcasino.compare("greedy", "random", decks=3000, seed=3)
    assert result.variance_reduction > 1.05
