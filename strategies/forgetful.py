"""``forgetful``: knock-threshold with an imperfect memory: each face-down card it knows may
be forgotten at each of its turns (``decay``)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP, MAX_PLAYERS, MAX_POS,
                                  RT_VALUE)
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import below_nb, STREAM_SEAT0
from strategies.common import (DECAY_ONE, decide_with_nb, MEM_FORGOTTEN, MEM_LAST_TURN, PAR_DECAY,
                               PAR_T)
from strategies.greedy import layout_estimate_nb, own_card_nb, place_or_draw_nb


@hot
def _forget_nb(g, rt, rng, seat, decay):
    """The start of an own turn: each own face-down card it still remembers is forgotten with
    probability ``decay`` (one draw per such card, in position order, from its own stream)."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    hide = g[ix(mem + MEM_FORGOTTEN)]
    limit = np.int64(decay * DECAY_ONE)
    for p in range(rt[K.R_NPOS]):
        if (hide >> p) & 1 == 0 and g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(own + p)] >= 0:
            if below_nb(rng, STREAM_SEAT0 + seat, DECAY_ONE) < limit:
                hide |= 1 << p
    g[ix(mem + MEM_FORGOTTEN)] = hide


@hot
def forgetful_nb(point, seat, held, g, rt, rng, par):
    """``forgetful`` (parameters T, decay): knock-threshold whose memory of its own face-down
    cards fades. At the start of each own turn every face-down card it remembers (peeked, or
    placed face down) is forgotten with probability ``decay``; a forgotten card counts as
    unknown (worth S/n, and back in the pool) until it sees it again: face up, or because it
    put a new card there. With decay = 0 it plays exactly as knock-threshold."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    if point == K.DP_TURN and g[ix(mem + MEM_LAST_TURN)] != g[ix(G_PUB + K.PUB_TURN)] + 1:
        g[ix(mem + MEM_LAST_TURN)] = g[ix(G_PUB + K.PUB_TURN)] + 1
        if par[seat, PAR_DECAY] > 0:
            _forget_nb(g, rt, rng, seat, par[seat, PAR_DECAY])
    hide = g[ix(mem + MEM_FORGOTTEN)]
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    for p in range(rt[K.R_NPOS]):
        c = own_card_nb(g, seat, p, hide)
        if 0 <= c < K.EMPTY0:
            n -= 1
            S -= rt[ix(RT_VALUE + c)]
    if point == K.DP_TURN and g[ix(G_LEGAL + K.A_KNOCK)] and n > 0:
        nE = layout_estimate_nb(g, rt, seat, -1, -1, n, S, hide)
        if nE <= par[seat, PAR_T] * n:
            return K.A_KNOCK
    a = place_or_draw_nb(point, seat, held, g, rt, n, S, hide)
    if (point == K.DP_PLACE_DRAWN or point == K.DP_PLACE_TAKEN) and 0 <= a < MAX_POS:
        g[ix(mem + MEM_FORGOTTEN)] = hide & ~(1 << a)  # it knows the card it puts there
    return a


def forgetful_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, forgetful_nb)
