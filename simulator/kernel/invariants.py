"""The invariants the general build checks after every turn when asked (``check``): every card
of the deck is in exactly one place, and the public counters match the layouts and piles (and,
in a power round, no card lies beyond the span the built-ins look at, codes.PRIV_SPAN)."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_LAY, G_PRIV, G_PUB, G_STOCK, G_UP,
                                  MAX_POS, RT_DECK, RT_VALUE)
from simulator.kernel.jit import hot, ix


@hot
def conservation_ok_nb(g, rt, held, counts):
    """Every card of the deck is in exactly one place (``held``: a card in hand, or -1), and
    the public counters match. ``counts``: int64 scratch of at least MAX_IDS."""
    n_ids = counts.size
    for i in range(n_ids):
        counts[i] = 0
    players = rt[K.R_PLAYERS]
    span = g[ix(G_PRIV + K.PRIV_SPAN)]
    up_n = 0
    up_sum = 0
    for s in range(players):
        fd = 0
        # every position: a power-card game's layout grows beyond the grid
        for p in range(MAX_POS):
            card = g[ix(G_LAY + s * MAX_POS + p)]
            if card < 0:          # beyond the grid of a layout that cannot grow
                continue
            if card >= K.EMPTY0:  # empty (removed, matched, snapped): face up, but no card
                if card != K.EMPTY0 + p or not g[ix(G_UP + s * MAX_POS + p)]:
                    return False
                continue
            if span != 0 and p >= span:
                return False
            counts[card] += 1
            if g[ix(G_UP + s * MAX_POS + p)]:
                up_n += 1
                up_sum += rt[ix(RT_VALUE + card)]
            else:
                fd += 1
        if fd != g[ix(G_FACE_DOWN + s)]:
            return False
    for i in range(g[ix(G_PUB + K.PUB_STOCK_N)]):
        counts[g[ix(G_STOCK + i)]] += 1
    disc_sum = 0
    for i in range(g[ix(G_PUB + K.PUB_DISCARD_N)]):
        counts[g[ix(G_DISCARD + i)]] += 1
        disc_sum += rt[ix(RT_VALUE + g[G_DISCARD + i])]
    if held >= 0:
        counts[held] += 1
    for i in range(rt[K.R_NCARDS]):
        c = rt[ix(RT_DECK + i)]
        if counts[c] != 1:
            return False
        counts[c] = 0
    for i in range(n_ids):
        if counts[i] != 0:
            return False
    return up_n == g[ix(G_PUB + K.PUB_FACEUP_N)] and \
        up_sum == g[ix(G_PUB + K.PUB_FACEUP_SUM)] and \
        disc_sum == g[ix(G_PUB + K.PUB_DISCARD_SUM)]
