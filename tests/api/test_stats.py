"""simcasino.stats against scipy and hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as scipy_stats

from simcasino.stats import bonferroni, mean_ci, simultaneous_level, wilson_ci


def test_mean_ci_matches_scipy_t_test() -> None:
    x = [1.5, -0.5, 2.0, 0.0, 3.0, 1.0, -1.0, 2.5]
    est = mean_ci(x)
    test = scipy_stats.ttest_1samp(x, 0.0)
    ci = test.confidence_interval(0.95)
    assert est.mean == pytest.approx(np.mean(x))
    assert est.p_value == pytest.approx(test.pvalue)
    assert (est.ci_low, est.ci_high) == pytest.approx((ci.low, ci.high))
    assert est.n == 8


def test_mean_ci_by_hand() -> None:
    """Mean 2, sd 1 over 4 units: se 0.5, t(0.975, 3) = 3.182446."""
    est = mean_ci([1.0, 2.0, 3.0, 2.0], level=0.95)
    sd = math.sqrt(((1 - 2) ** 2 + 0 + 1 + 0) / 3)
    assert est.se == pytest.approx(sd / 2)
    assert est.ci_high - est.mean == pytest.approx(3.182446 * sd / 2, rel=1e-6)


def test_mean_ci_constant_and_too_small() -> None:
    assert mean_ci([2.0, 2.0, 2.0]).p_value == 0.0
    assert mean_ci([0.0, 0.0]).p_value == 1.0
    with pytest.raises(ValueError, match="at least 2"):
        mean_ci([1.0])


def test_wilson_by_hand() -> None:
    """Wilson 95% for 8 of 10: centre (0.8 + z²/20)/(1 + z²/10), z = 1.959964."""
    z = 1.959964
    centre = (0.8 + z * z / 20) / (1 + z * z / 10)
    half = z / (1 + z * z / 10) * math.sqrt(0.8 * 0.2 / 10 + z * z / 400)
    assert wilson_ci(8, 10) == pytest.approx((centre - half, centre + half), rel=1e-6)
    low, high = wilson_ci(0, 20)
    assert low == pytest.approx(0.0, abs=1e-12) and 0.15 < high < 0.17


def test_wilson_matches_scipy_binomtest() -> None:
    ci = scipy_stats.binomtest(37, 90).proportion_ci(0.95, method="wilson")
    assert wilson_ci(37, 90) == pytest.approx((ci.low, ci.high))


def test_bonferroni_by_hand() -> None:
    """p = .01 .04 .03 .3 (m = 4): 4p, at most 1."""
    assert bonferroni([0.01, 0.04, 0.03, 0.3]) == pytest.approx([0.04, 0.16, 0.12, 1.0])
    assert simultaneous_level(0.95, 4) == pytest.approx(0.9875)
    with pytest.raises(ValueError, match="at least one"):
        simultaneous_level(0.95, 0)


@pytest.mark.slow
def test_simultaneous_intervals_cover_together_at_their_stated_rate() -> None:
    """Five comparisons with true effects (0 and not): all five intervals hold their true
    means together in about 95% of 2,000 simulated experiments (the unadjusted ones would
    hold together in only about 0.95^5 = 77%), and each interval leaves out 0 exactly when
    its Bonferroni p is below 0.05."""
    rng = np.random.default_rng(16)
    truths = np.array([0.0, 0.0, 0.1, 0.3, -0.2])
    level, trials = simultaneous_level(0.95, len(truths)), 2000
    together, plain = 0, 0
    for _ in range(trials):
        samples = rng.normal(truths[:, None], 1.0, size=(len(truths), 60))
        sims, ests = [mean_ci(x, level=level) for x in samples], [mean_ci(x) for x in samples]
        together += all(e.ci_low <= t <= e.ci_high for e, t in zip(sims, truths))
        plain += all(e.ci_low <= t <= e.ci_high for e, t in zip(ests, truths))
        for sim, adjusted in zip(sims, bonferroni([e.p_value for e in ests])):
            assert sim.significant == (adjusted < 0.05)
    low, high = wilson_ci(together, trials)
    assert low <= 0.95 <= high, (together, trials)
    assert plain / trials < 0.82


def test_a_versus_a_false_positive_rate_near_nominal() -> None:
    """Under the null the 95% CI excludes zero about 5% of the time."""
    rng = np.random.default_rng(3)
    hits = sum(mean_ci(rng.normal(size=40)).significant for _ in range(4000))
    assert 0.04 < hits / 4000 < 0.06
