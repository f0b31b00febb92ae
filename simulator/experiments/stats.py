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

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

LEVEL = 0.95
Z = float(stats.norm.ppf(0.5 + LEVEL / 2))   # 1.959963984540054
# The smallest effects worth telling from none (a verdict's ``resolution``): of a share
# (win share, first-player advantage) 0.2 percentage points, of a score 0.1 points, of a
# round's length 0.1 turns.
RESOLUTION_SHARE = 0.002
RESOLUTION_POINTS = 0.1
RESOLUTION_TURNS = 0.1


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


# ---- verdicts ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    """Whether an effect is clear at the number of deals played, and if not, about how many
    deals would settle it (``verdict``). ``kind`` is one of

    * ``clear``: the 95% interval leaves out zero;
    * ``negligible``: it does not, but it is already narrower than the resolution (±);
    * ``open``: neither; ``needed`` deals would narrow it below ``target``;
    * ``identical``: no spread and no difference (the two sides agree on every deal);
    * ``unknown``: too few deals for a standard error.
    """
    kind: str
    effect: float
    half_width: float     # of the 95% interval, Z * se
    n: int                # deals played
    resolution: float
    needed: int | None = None

    @property
    def clear(self) -> bool:
        return self.kind == "clear"

    @property
    def target(self) -> float:
        """The half-width the count of ``needed`` deals aims at."""
        return max(abs(self.effect), self.resolution)

    def text(self, scale: float = 1.0, unit: str = "", digits: int = 2,
             noun: str = "deals") -> str:
        """One line for a printed summary; ``scale`` and ``unit`` give the shown unit (e.g.
        100 and " pp" for a difference of shares)."""
        e, hw = scale * self.effect, scale * self.half_width
        shown = f"{e:+.{digits}f} ± {hw:.{digits}f}{unit}"
        at = f"{self.n:,} {noun}"
        if self.kind == "clear":
            return f"clear at {at}: {shown}, the 95% interval leaves out 0"
        if self.kind == "negligible":
            return (f"no clear effect at {at}: {shown}, within the resolution of "
                    f"{scale * self.resolution:.{digits}f}{unit}")
        if self.kind == "open":
            return (f"not clear at {at}: {shown}; about {self.needed:,} {noun} would narrow "
                    f"the 95% interval to ±{scale * self.target:.{digits}f}{unit}")
        if self.kind == "identical":
            return f"no difference on any of the {at}"
        return f"unknown at {at}: too few for an interval"


def verdict(effect: float, se: float, n: int, resolution: float) -> Verdict:
    """Is ``effect`` (a mean difference over ``n`` deals, with standard error ``se``) clear at
    this size, and if not, about how many deals would settle it?

    Clear means the 95% interval ``effect ± Z·se`` (Z = 1.96) leaves out zero. Otherwise the
    count aims at a half-width below ``target = max(|effect|, resolution)``: below the observed
    |effect| the interval would leave out zero if the effect held at that size, and for an
    effect nearer zero than ``resolution`` (say 0.2 percentage points) it would rule out
    effects of that size. The standard error falls as 1/√n, so

        needed = n · (Z · se / target)²

    rounded up to two significant digits ("about"). When that is no more than ``n`` the
    interval is already narrower than the resolution: the effect is ``negligible``. The
    intervals of the tables use Student's t; at the sizes played the two agree."""
    effect, se = float(effect), float(se)
    if not (math.isfinite(effect) and math.isfinite(se)) or n < 2:
        return Verdict("unknown", effect, math.nan, int(n), resolution)
    half_width = Z * se
    if se == 0:
        kind = "identical" if effect == 0 else "clear"
        return Verdict(kind, effect, 0.0, int(n), resolution)
    if abs(effect) > half_width:
        return Verdict("clear", effect, half_width, int(n), resolution)
    target = max(abs(effect), resolution)
    needed = n * (half_width / target) ** 2 if target > 0 else math.inf
    if needed <= n:
        return Verdict("negligible", effect, half_width, int(n), resolution)
    return Verdict("open", effect, half_width, int(n), resolution, _about(needed))


def _about(x: float) -> int:
    """``x`` rounded up to two significant digits (at least 1)."""
    if not math.isfinite(x):
        return 0
    x = max(1.0, x)
    step = 10 ** max(0, math.floor(math.log10(x)) - 1)
    return int(math.ceil(x / step - 1e-9) * step)
