"""stats.verdict: is an effect clear at the deals played, and if not, how many would settle it;
every expected number below is worked out by hand from needed = n * (1.96 * se / target)^2.
Then the one decision every table mark and verdict line comes from: the interval a table
shows (interval_verdict) and Holm's step-down over a family (holm_levels, holm_verdicts)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import t as student_t

from simulator.experiments.stats import (ALPHA, Z, holm, holm_levels, holm_verdicts,
                                         interval_verdict, paired_p, verdict)


def test_an_interval_that_leaves_out_zero_is_clear():
    v = verdict(0.01, 0.002, 10_000, 0.002)        # 1.00 pp ± 0.39 pp
    assert v.kind == "clear" and v.clear and v.needed is None
    assert v.half_width == pytest.approx(0.00392, abs=1e-5)
    assert v.text(100, " pp") == ("clear at 10,000 deals: +1.00 ± 0.39 pp, the 95% interval "
                                  "leaves out 0")
    assert verdict(-0.5, 0.2, 400, 0.1).clear     # 0.5 > 1.96 * 0.2 = 0.392, either sign


def test_an_unclear_effect_larger_than_the_resolution_aims_at_its_own_size():
    # half-width 1.96 * 0.002 = 0.00392 against |effect| 0.003:
    # 10,000 * (0.00392 / 0.003)^2 = 17,073 -> about 18,000
    v = verdict(0.003, 0.002, 10_000, 0.002)
    assert v.kind == "open" and not v.clear and v.target == 0.003
    assert v.needed == 18_000
    assert v.text(100, " pp") == ("not clear at 10,000 deals: +0.30 ± 0.39 pp; about 18,000 "
                                  "deals would narrow the 95% interval to ±0.30 pp")


def test_an_effect_near_zero_aims_at_the_resolution():
    # |effect| 0.001 is below the resolution 0.002: 10,000 * (0.00392 / 0.002)^2 = 38,415
    v = verdict(-0.001, 0.002, 10_000, 0.002)
    assert v.kind == "open" and v.target == 0.002 and v.needed == 39_000
    # a score difference: 0.05 points, se 0.1 over 2,000 deals, resolution 0.1 points:
    # 2,000 * (0.196 / 0.1)^2 = 7,683 -> about 7,700
    assert verdict(0.05, 0.1, 2_000, 0.1).needed == 7_700


def test_an_interval_narrower_than_the_resolution_is_negligible():
    v = verdict(0.0005, 0.0005, 10_000, 0.002)      # ± 0.098 pp, well inside ± 0.2 pp
    assert v.kind == "negligible" and v.needed is None
    assert v.text(100, " pp") == ("no clear effect at 10,000 deals: +0.05 ± 0.10 pp, within "
                                  "the resolution of 0.20 pp")


def test_no_spread_and_too_few_deals():
    assert verdict(0.0, 0.0, 500, 0.002).kind == "identical"
    assert verdict(0.25, 0.0, 500, 0.002).kind == "clear"
    assert verdict(0.1, math.nan, 1, 0.002).kind == "unknown"
    assert verdict(0.1, 0.05, 1, 0.002).kind == "unknown"


def test_the_count_scales_with_the_square_of_the_standard_error():
    assert Z == pytest.approx(1.959964, abs=1e-6)
    small = verdict(0.001, 0.001, 1_000, 0.002)      # 1,000 * 0.98^2 = 960 -> negligible
    assert small.kind == "negligible"
    # doubling the standard error quadruples the deals: 1,000 * 1.96^2 = 3,842 -> 3,900
    assert verdict(0.001, 0.002, 1_000, 0.002).needed == 3_900


# ---- the one decision behind a table's mark and its verdict -----------------------------------
def test_a_verdict_is_decided_by_the_interval_the_table_shows():
    """compare's tables show Student-t intervals; its verdict is decided by that very interval,
    not by a normal one of its own: at 30 deals an effect 2.0 standard errors from 0 lies
    inside t(29)'s 95% interval (±2.045 se) but outside the normal one (±1.96 se)."""
    from simulator.experiments import compare as cmp
    from simulator.experiments.stats import Interval, paired_interval

    n, se = 30, 0.01
    d = np.full(n, 0.02) + np.resize([-1.0, 1.0], n) * se * math.sqrt(n - 1)
    iv = paired_interval(d.sum(), (d * d).sum(), n)
    assert float(iv.se) == pytest.approx(se) and float(iv.lo) < 0 < float(iv.hi)
    assert verdict(float(iv.mean), se, n, 0.002).clear          # the normal test alone
    v = interval_verdict(Interval(*(float(x) for x in (iv.mean, iv.se, iv.lo, iv.hi))), n,
                         0.002)
    assert not v.clear and v.kind == "open"
    assert v.half_width == pytest.approx(float(iv.hi - iv.lo) / 2)
    effect = cmp.Effect(None, "win_share", "table", "table", n, n, iv, iv, iv, iv, True)
    assert cmp.effect_verdict(effect, n).kind == v.kind == "open"
    # an interval that leaves out 0 is clear, with the table's half-width in its text
    shifted = Interval(0.05, se, 0.05 - 0.0204, 0.05 + 0.0204)
    assert interval_verdict(shifted, n, 0.002).clear
    assert "±" in interval_verdict(shifted, n, 0.002).text(100, " pp")
    assert "+5.00 ± 2.04 pp" in interval_verdict(shifted, n, 0.002).text(100, " pp")


@pytest.mark.parametrize("seed", range(20))
def test_holm_levels_reject_exactly_what_holms_adjusted_p_rejects(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 0.08, size=rng.integers(1, 12)) ** rng.uniform(0.5, 2)
    levels = holm_levels(p)
    assert ((p <= levels) == (holm(p) <= ALPHA)).all()


def test_holm_levels_step_down_and_stop():
    # sorted 0.001 (x4), 0.013 (x3), 0.02 (x2, fails: 0.02 > 0.025? no), 0.04 (x1)
    p = np.array([0.04, 0.001, 0.02, 0.013])
    assert np.allclose(holm_levels(p), [0.05, 0.0125, 0.025, 0.05 / 3])
    assert (p <= holm_levels(p)).all() and (holm(p) <= ALPHA).all()
    # the step-down stops at the first kept hypothesis: 0.02 > 0.05 / 3; every later one is
    # tested at that level too, so 0.026 is kept although it is below its own 0.05 / 2
    p = np.array([0.001, 0.02, 0.026, 0.9])
    assert np.allclose(holm_levels(p), [0.0125, 0.05 / 3, 0.05 / 3, 0.05 / 3])
    assert (holm(p) <= ALPHA).tolist() == [True, False, False, False]
    assert np.isnan(holm_levels(np.array([np.nan, 0.01]))[0])


def test_a_family_verdict_is_clear_exactly_when_holm_rejects():
    """Three differences of 0, 2.1 and 2.8 standard errors (p about 1, 0.036 and 0.005) and a
    best (excluded): taken alone the second and third are clear; Holm's step-down over three
    rejects the third (0.005 < 0.05 / 3) and keeps the second (0.036 > 0.05 / 2). The
    verdicts decide with the Holm level's t quantile, and say so."""
    n = np.full(4, 400.0)
    se = np.full(4, 0.01)
    mean = np.array([0.0, 0.0, -0.021, -0.028])
    judged = holm_verdicts(mean, se, n, 0.002, exclude=0)
    p = holm(np.r_[np.nan, paired_p(mean[1:], se[1:], n[1:])])
    assert judged[0] is None
    assert [v.clear for v in judged[1:]] == [False, False, True] == list(p[1:] <= ALPHA)
    assert verdict(mean[2], se[2], 400, 0.002).clear          # the unadjusted test says clear
    assert judged[2].kind == "open" and "Holm-adjusted" in judged[2].text(100, " pp")
    assert judged[3].half_width == pytest.approx(0.01 * student_t.isf(0.05 / 6, 399))
    assert "the Holm-adjusted 95% interval leaves out 0" in judged[3].text(100, " pp")
