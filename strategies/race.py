"""The race that decides how many deals each of lookahead's candidate moves is tried on.

Every move still in the race is played on each deal (the same deals and reshuffles for all:
the margins are paired). From MIN_DEALS deals on, a move whose mean paired difference from the
leader's margins (the lowest sum) is above z standard errors is dropped, and so is a move that
did exactly as the leader on every deal (the first of equals stays): the clear losers stop
early, close moves get the whole budget. Fewer than MIN_DEALS deals estimate the variance too
poorly (at 4, a race with z = 3 lost a quarter of a point a round against trying every move).

Each function takes its columns of the player's scratch, one entry per candidate: ``sums``
(margins summed), ``alive`` (still in the race), ``deal`` (margins on the current deal) and
``sq`` (n x n, row-major by the larger index: squared paired differences summed).
"""

from __future__ import annotations

import numpy as np

from simulator.kernel.jit import hot

MIN_DEALS = 8


@hot(inline="always")
def enter_nb(sums, alive, sq, c):
    """Candidate ``c`` joins the race (candidates 0..c-1 are in it)."""
    stride = alive.shape[0]
    sums[c] = 0
    alive[c] = 1
    for e in range(c + 1):
        sq[c * stride + e] = 0


@hot(inline="always")
def leader_nb(sums, alive, n):
    """The candidate still in the race with the lowest sum (the first of equals)."""
    best = -1
    for c in range(n):
        if alive[c] and (best < 0 or sums[c] < sums[best]):
            best = c
    return best


@hot
def race_nb(sums, alive, deal, sq, n, deals, z):
    """After ``deals`` deals (this one's margins in ``deal``, already added to ``sums``), drop
    the moves the race drops; returns the moves left."""
    stride = alive.shape[0]
    left = 0
    for c in range(n):
        if not alive[c]:
            continue
        left += 1
        for e in range(c):
            if alive[e]:
                d = deal[c] - deal[e]
                sq[c * stride + e] += d * d
    if deals < MIN_DEALS or left < 2:
        return left
    lead = leader_nb(sums, alive, n)
    k = np.float64(deals)
    z2 = z * z
    for c in range(n):
        if c == lead or not alive[c]:
            continue
        diff = sums[c] - sums[lead]
        s = sq[max(c, lead) * stride + min(c, lead)]
        # mean > z * se with the sample variance (s - diff^2/k)/(k-1): squared, rearranged
        if (diff > 0 and np.float64(diff) * diff * (k - 1 + z2) > z2 * k * s) or s == 0:
            alive[c] = 0
            left -= 1
    return left
