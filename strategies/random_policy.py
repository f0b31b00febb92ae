"""``random``: a legal action drawn uniformly from the seat's own stream."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_LEGAL
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import below_nb, STREAM_SEAT0


@hot
def random_nb(point, seat, held, g, rt, rng, par):
    """Uniform over the legal actions (counted in ascending action order)."""
    count = 0
    for a in range(K.N_ACTIONS):
        count += g[ix(G_LEGAL + a)]
    k = below_nb(rng, STREAM_SEAT0 + seat, count)
    for a in range(K.N_ACTIONS):
        if g[ix(G_LEGAL + a)]:
            if k == 0:
                return a
            k -= 1
    return -1


# (``aux`` is a policy's scratch between decisions; only lookahead uses it)
def random_entry(point, seat, held, g, rt, rng, par, aux):
    return random_nb(point, seat, held, g, rt, rng, par)
