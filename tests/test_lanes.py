"""The vector placement search (simulator/kernel/lanes.py) picks exactly the position the plain loop
of the lean kernel's definition picks, at both widths, on random caches that exercise every
branch: pairing and its negative-pairs exception, the known/unknown threshold, positions
that may not be replaced, ties, and no eligible position at all."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.game import codes as K
from simulator.kernel import flow
from simulator.kernel.jit import hot
from simulator.kernel.lanes import GAIN_LIMIT, NO_KEY, POS_MASK, best_key
from simulator.game.rules import Rules, flatten
from strategies import builtin

FIELDS = 6  # xn, bn, kq, negq, u, uq: 16 lanes each from base


@hot(cache=False)
def _search(w, base, lanes, rep, kc, vcn, negc, n, S):
    b = base   # npos = lanes: best_key takes the width of that name
    key = best_key(w, lanes, b, b + 16, b + 32, b + 48, b + 64, b + 80,
                   rep, kc, vcn, negc, n, S)
    return -1 if key < 0 else POS_MASK - (key & POS_MASK)


def _loop(w, base, lanes, rep, kc, vcn, negc, n, S):
    """The definition, as lean._best_placement wrote it before it was vectorised: a known
    card counts n times its value, an unknown one S; xs and bs count the unknown cards (the
    position's own, and its own and its partner's), thr is 1 over a known card."""
    xn, bn, kq, negq, u, uq = (w[base + 16 * k: base + 16 * k + 16].astype(int)
                               for k in range(FIELDS))
    xs = (u != 0).astype(int)
    bs = xs + (uq != 0)
    thr = 1 - xs
    best, best_gain = -1, None
    for p in range(lanes):
        if kq[p] == kc and not (negc and negq[p] != 0):
            gain = bn[p] * n + bs[p] * S
        else:
            gain = xn[p] * n + xs[p] * S - vcn
        if (rep >> p) & 1 and gain >= thr[p] * n and (best_gain is None or gain > best_gain):
            best, best_gain = p, gain
    return best


@pytest.mark.parametrize("lanes", [4, 8, 16])
def test_vector_search_equals_the_loop(lanes):
    rng = np.random.default_rng(lanes)
    picked = set()
    for trial in range(4000):
        w = np.zeros(400, np.int32)
        base = int(rng.integers(0, 400 - 16 * FIELDS))
        # small ranges make ties, pairs and ineligible positions common
        w[base:base + 32] = rng.integers(-6, 12, 32)          # xn, bn
        w[base + 32:base + 48] = rng.integers(0, 4, 16)       # kq
        w[base + 48:base + 64] = rng.integers(0, 2, 16)       # negq
        w[base + 64:base + 96] = -rng.integers(0, 2, 32)      # u, uq: masks
        rep = int(rng.integers(0, 1 << lanes))
        kc, n = int(rng.integers(0, 4)), int(rng.integers(1, 60))
        S, vc = int(rng.integers(-20, 400)), int(rng.integers(-5, 11))
        args = (w, base, lanes, rep, kc, vc * n, vc < 0, n, S)
        want = _loop(*args)
        assert _search(*args) == want, (trial, args)
        picked.add(want)
    assert picked == set(range(-1, lanes))   # every outcome was exercised


def test_gains_near_the_limit_stay_exact():
    w = np.zeros(200, np.int32)
    g = GAIN_LIMIT - 1
    w[0:2] = (g, g)          # xn: gains of g * n at lanes 0 and 1, with n = 1
    w[64:66] = (-1, -1)      # u: unknown cards, eligible from a gain of 0
    w[32:48] = NO_KEY   # kq: nothing pairs
    assert _search(w, 0, 4, 0b11, 0, 0, False, 1, 0) == 0        # tie to the lowest
    assert _search(w, 0, 8, 0b11, 0, 0, False, 1, 0) == 0
    w[1] = g - 1
    assert _search(w, 0, 16, 0b10, 0, 0, False, 1, 0) == 1


def test_values_that_could_overflow_the_lanes_go_to_the_general_engine():
    ri = flatten(Rules.preset("six_card"), 4).ri.copy()
    assert flow.eligible(ri, [builtin.POLICY_GREEDY])
    ri[K.R_MAX_ABS_VALUE] = (GAIN_LIMIT - 1) // (5 * int(ri[K.R_NCARDS]))   # still exact
    assert flow.eligible(ri, [builtin.POLICY_GREEDY])
    ri[K.R_MAX_ABS_VALUE] = -(-GAIN_LIMIT // (5 * int(ri[K.R_NCARDS])))  # just reaches it
    assert 5 * int(ri[K.R_NCARDS]) * int(ri[K.R_MAX_ABS_VALUE]) >= GAIN_LIMIT
    assert not flow.eligible(ri, [builtin.POLICY_GREEDY])
