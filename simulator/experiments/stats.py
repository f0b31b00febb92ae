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
ALPHA = 1 - LEVEL          # the error rate of every test: of each alone, or of a family (Holm)
ALONE = "the 95% interval"
FAMILY = "the Holm-adjusted 95% interval"


@dataclass(frozen=True)
class Verdict:
    """The one decision behind every claim about an effect: a table's mark, a verdict line, a
    set of values that cannot be told apart (``verdict``). ``kind`` is one of

    * ``clear``: the interval ``effect ± half_width`` leaves out zero;
    * ``negligible``: it does not, but it is already narrower than the resolution (±);
    * ``open``: neither; ``needed`` deals would narrow it below ``target``;
    * ``identical``: no spread and no difference (the two sides agree on every deal);
    * ``unknown``: too few deals for a standard error.

    ``interval`` names the interval (``ALONE``: the 95% interval of the effect taken alone;
    ``FAMILY``: the interval at the level Holm's step-down tests it at, ``holm_levels``)."""
    kind: str
    effect: float
    half_width: float     # of the interval the decision is made with, crit * se
    n: int                # deals played
    resolution: float
    needed: int | None = None
    interval: str = ALONE

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
            return f"clear at {at}: {shown}, {self.interval} leaves out 0"
        if self.kind == "negligible":
            return (f"no clear effect at {at}: {shown}, within the resolution of "
                    f"{scale * self.resolution:.{digits}f}{unit}")
        if self.kind == "open":
            return (f"not clear at {at}: {shown}; about {self.needed:,} {noun} would narrow "
                    f"{self.interval} to ±{scale * self.target:.{digits}f}{unit}")
        if self.kind == "identical":
            return f"no difference on any of the {at}"
        return f"unknown at {at}: too few for an interval"


def verdict(effect: float, se: float, n: int, resolution: float, crit: float = Z,
            interval: str = ALONE) -> Verdict:
    """Is ``effect`` (a mean difference over ``n`` deals, with standard error ``se``) clear at
    this size, and if not, about how many deals would settle it?

    Clear means the interval ``effect ± crit·se`` leaves out zero: ``crit`` is the quantile of
    the test behind the claim (Z = 1.96 for a normal 95% interval; ``interval_verdict`` and
    ``holm_verdicts`` give the Student-t and the Holm-adjusted ones), so a table that shows
    that interval and the verdict cannot disagree. Otherwise the count aims at a half-width
    below ``target = max(|effect|, resolution)``: below the observed |effect| the interval
    would leave out zero if the effect held at that size, and for an effect nearer zero than
    ``resolution`` (say 0.2 percentage points) it would rule out effects of that size. The
    standard error falls as 1/√n, so

        needed = n · (crit · se / target)²

    rounded up to two significant digits ("about"). When that is no more than ``n`` the
    interval is already narrower than the resolution: the effect is ``negligible``."""
    effect, se = float(effect), float(se)
    if not (math.isfinite(effect) and math.isfinite(se)) or n < 2:
        return Verdict("unknown", effect, math.nan, int(n), resolution, interval=interval)
    if se == 0:
        kind = "identical" if effect == 0 else "clear"
        return Verdict(kind, effect, 0.0, int(n), resolution, interval=interval)
    half_width = float(crit) * se
    if abs(effect) > half_width:
        return Verdict("clear", effect, half_width, int(n), resolution, interval=interval)
    target = max(abs(effect), resolution)
    needed = n * (half_width / target) ** 2 if target > 0 else math.inf
    if needed <= n:
        return Verdict("negligible", effect, half_width, int(n), resolution,
                       interval=interval)
    return Verdict("open", effect, half_width, int(n), resolution, _about(needed),
                   interval=interval)


def interval_verdict(iv: Interval, n: int, resolution: float) -> Verdict:
    """``verdict`` of the effect whose 95% interval (scalar ``Interval``, e.g. Student's t,
    as a table shows it) is ``iv``: clear exactly when that interval leaves out zero."""
    se = float(iv.se)
    hw = float(iv.hi - iv.lo) / 2
    crit = hw / se if se > 0 and math.isfinite(hw) else Z
    return verdict(float(iv.mean), se, n, resolution, crit)


def paired_p(mean, se, n) -> np.ndarray:
    """Two-sided p-values of "mean difference 0" for paired differences (Student t with n-1
    degrees of freedom, the distribution behind the intervals here: p <= 0.05 exactly when
    the 95% interval leaves out 0). A difference with no spread at all is 0 (p = 1) or not
    (p = 0)."""
    mean, se = np.asarray(mean, dtype=float), np.asarray(se, dtype=float)
    df = np.maximum(np.asarray(n, dtype=float) - 1, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = 2 * stats.t.sf(np.abs(mean) / se, df)
    return np.where(se == 0, np.where(mean == 0, 1.0, 0.0), p)


def holm(p: np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (reject where adjusted p <= alpha); NaN stays NaN."""
    p = np.asarray(p, dtype=float)
    adjusted = np.full(p.size, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    m = finite.size
    running = 0.0
    for rank, i in enumerate(finite[np.argsort(p[finite], kind="stable")]):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def holm_levels(p: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """Per hypothesis, the two-sided level Holm's step-down tests it at: alpha / k, where k
    is m - rank (ranks by p, from 0) up to the first hypothesis the procedure keeps, and that
    hypothesis' k for it and every one after it (they are all kept). A hypothesis is rejected
    exactly when its p is at most its level, which is exactly when its Holm-adjusted p
    (``holm``) is at most alpha. NaN stays NaN."""
    p = np.asarray(p, dtype=float)
    levels = np.full(p.size, np.nan)
    finite = np.flatnonzero(np.isfinite(p))
    m = finite.size
    stop = None
    for rank, i in enumerate(finite[np.argsort(p[finite], kind="stable")]):
        k = m - rank
        if stop is None and p[i] > alpha / k:
            stop = k
        levels[i] = alpha / (k if stop is None else stop)
    return levels


def holm_verdicts(mean, se, n, resolution: float, alpha: float = ALPHA,
                  exclude: int | None = None) -> list:
    """The verdicts of a family of paired differences (arrays), Holm-corrected over every
    member but ``exclude`` (whose verdict is None): each is ``verdict`` with the Student-t
    quantile of its Holm level (``holm_levels``), so it is clear exactly when Holm's procedure
    rejects "no difference" (Holm-adjusted p <= alpha), and the interval it shows is the one
    that decides it."""
    mean, se = np.asarray(mean, dtype=float), np.asarray(se, dtype=float)
    n = np.asarray(n, dtype=float)
    p = paired_p(mean, se, n)
    if exclude is not None:
        p[exclude] = np.nan
    crit = stats.t.isf(holm_levels(p, alpha) / 2, np.maximum(n - 1, 1))
    return [None if c == exclude else
            verdict(mean[c], se[c], int(n[c]), resolution, float(crit[c]), FAMILY)
            for c in range(mean.size)]


def _about(x: float) -> int:
    """``x`` rounded up to two significant digits (at least 1)."""
    if not math.isfinite(x):
        return 0
    x = max(1.0, x)
    step = 10 ** max(0, math.floor(math.log10(x)) - 1)
    return int(math.ceil(x / step - 1e-9) * step)
