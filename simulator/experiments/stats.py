"""Means and differences with 95% intervals, computed from running sums.

Long comparisons keep only sums (count, sum, sum of squares) of per-round observations, so
memory stays flat and sums of disjoint blocks of rounds add up. The intervals are Student-t
intervals from ``scipy.stats.t`` (with millions of rounds they equal normal intervals):

* a mean: ``mean ± t(0.975, n-1) · s/√n``;
* a paired difference (both sides observed on the same rounds): the mean of the per-round
  differences ``d = y - x`` with ``s_d/√n``, so whatever the two sides share (the deal) cancels;
* an unpaired difference (what independent samples of the same sizes would give): Welch's
  ``√(s_x²/n_x + s_y²/n_y)`` with the Welch-Satterthwaite degrees of freedom.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

LEVEL = 0.95


@dataclass(frozen=True)
class Interval:
    """Estimates (arrays of any shape) with standard errors and 95% interval bounds."""
    mean: np.ndarray
    se: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    @property
    def half_width(self) -> np.ndarray:
        return (self.hi - self.lo) / 2


def variance(total, total_sq, n) -> np.ndarray:
    """Sample variance (ddof 1) from a sum and a sum of squares; NaN below two observations."""
    total = np.asarray(total, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        var = (np.asarray(total_sq, dtype=float) - total * total / n) / (n - 1)
    return np.where(n >= 2, np.maximum(var, 0.0), np.nan)


def _t_interval(mean, se, df) -> Interval:
    mean = np.asarray(mean, dtype=float)
    se = np.asarray(se, dtype=float)
    with np.errstate(invalid="ignore"):
        lo, hi = stats.t.interval(LEVEL, np.maximum(df, 1), loc=mean, scale=np.maximum(se, 0))
    # a spread of exactly zero (e.g. a quantity a rule cannot change): the interval is a point
    lo = np.where(se == 0, mean, lo)
    hi = np.where(se == 0, mean, hi)
    return Interval(mean, se, np.asarray(lo, dtype=float), np.asarray(hi, dtype=float))


def mean_interval(total, total_sq, n) -> Interval:
    """The mean of ``n`` observations given their sum and sum of squares."""
    n_arr = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.asarray(total, dtype=float) / n_arr
        se = np.sqrt(variance(total, total_sq, n) / n_arr)
    return _t_interval(mean, se, n_arr - 1)


def paired_interval(d_sum, d_sq, n) -> Interval:
    """The mean difference of ``n`` paired observations ``d = y - x``."""
    return mean_interval(d_sum, d_sq, n)


def unpaired_interval(x_sum, x_sq, n_x, y_sum, y_sq, n_y) -> Interval:
    """The difference of means ``mean(y) - mean(x)`` treating the two samples as independent
    (Welch): the interval a comparison without common random numbers would give."""
    nx = np.asarray(n_x, dtype=float)
    ny = np.asarray(n_y, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        vx = variance(x_sum, x_sq, n_x) / nx
        vy = variance(y_sum, y_sq, n_y) / ny
        mean = np.asarray(y_sum, dtype=float) / ny - np.asarray(x_sum, dtype=float) / nx
        se = np.sqrt(vx + vy)
        df = (vx + vy) ** 2 / (vx ** 2 / (nx - 1) + vy ** 2 / (ny - 1))
    df = np.where(np.isfinite(df), df, np.minimum(nx, ny) - 1)
    return _t_interval(mean, se, df)
