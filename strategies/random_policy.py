"""``random``: a legal action drawn uniformly from the seat's own stream."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_LEGAL
from simulator.kernel.estimate import trailing_zeros
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import below_nb, STREAM_SEAT0


@hot(inline="always")
def random_pick_nb(rng, seat, legal):
    """Uniform over the actions of bit mask ``legal`` (bit a: action a), counted in ascending
    action order, from the seat's stream; -1 when none is legal (after the same draw). Random's
    own build (the lean flow, which keeps no legal mask in ``g``) asks this directly."""
    count = 0
    m = legal
    while m != 0:
        m &= m - 1
        count += 1
    k = below_nb(rng, STREAM_SEAT0 + seat, count)
    m = legal
    for _ in range(k):
        m &= m - 1
    return trailing_zeros(m) if m != 0 else -1


@hot
def random_nb(point, seat, held, g, rt, rng, par):
    """Uniform over the legal actions (counted in ascending action order)."""
    legal = 0
    for a in range(K.N_ACTIONS):
        legal |= g[ix(G_LEGAL + a)] << a
    return random_pick_nb(rng, seat, legal)


# (``aux`` is a policy's scratch between decisions; only lookahead uses it)
def random_entry(point, seat, held, g, rt, rng, par, aux):
    return random_nb(point, seat, held, g, rt, rng, par)
