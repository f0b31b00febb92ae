"""stats.verdict: is an effect clear at the deals played, and if not, how many would settle it;
every expected number below is worked out by hand from needed = n * (1.96 * se / target)^2."""

from __future__ import annotations

import math

import pytest

from simulator.experiments.stats import Z, verdict


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
