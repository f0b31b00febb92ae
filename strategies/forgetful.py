"""``forgetful``: knock-threshold with an imperfect memory: each face-down card it knows may
be forgotten at each of its turns (``decay``)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP, G_UPMASK, MAX_PLAYERS,
                                  MAX_POS, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import below_nb, STREAM_SEAT0
from strategies.common import (DECAY_ONE, decide_with_nb, FORGET_OPPONENTS, MEM_FORGOTTEN,
                               MEM_FORGOTTEN_OPP, MEM_LAST_TURN, PAR_DECAY, PAR_T)
from strategies.greedy import knock_power_nb, layout_estimate_nb, own_card_nb, place_or_draw_nb
from strategies.powers import power_game_nb


@hot
def _forget_nb(g, rt, rng, seat, decay):
    """The start of an own turn: each own face-down card it still remembers is forgotten with
    probability ``decay`` (one draw per such card, in position order, from its own stream)."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    hide = g[ix(mem + MEM_FORGOTTEN)]
    limit = np.int64(decay * DECAY_ONE)
    power = power_game_nb(rt)
    for p in range(MAX_POS if power else rt[K.R_NPOS]):
        if (hide >> p) & 1 == 0 and g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(own + p)] >= 0:
            if below_nb(rng, STREAM_SEAT0 + seat, DECAY_ONE) < limit:
                hide |= 1 << p
    g[ix(mem + MEM_FORGOTTEN)] = hide
    if not power:
        return
    # power games: what it knows of the next seats' face-down cards fades alike (the
    # seats after the FORGET_OPPONENTS-th are remembered: no room in memory)
    players = rt[K.R_PLAYERS]
    for k in range(1, min(players, FORGET_OPPONENTS + 1)):
        s = (seat + k) % players
        row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
        lost = g[ix(mem + MEM_FORGOTTEN_OPP + k - 1)]
        for p in range(MAX_POS):
            if (lost >> p) & 1 == 0 and g[ix(G_UP + s * MAX_POS + p)] == 0 and \
                    g[ix(row + p)] >= 0:
                if below_nb(rng, STREAM_SEAT0 + seat, DECAY_ONE) < limit:
                    lost |= 1 << p
        g[ix(mem + MEM_FORGOTTEN_OPP + k - 1)] = lost


@hot
def forget_lean_nb(g, rt, rng, par, seat):
    """_forget_nb in forgetful's own build (the lean flow, simulator/kernel/flow/build.py
    FORGETFUL): what it forgets it unlearns from the flow's cache of what it knows, so its
    decisions are knock-threshold's from there; the same draws, in the same order."""
    decay = par[seat, PAR_DECAY]
    if decay <= 0:
        return
    limit = np.int64(decay * DECAY_ONE)
    up = g[ix(G_UPMASK + seat)]
    for p in range(rt[K.R_NPOS]):
        if (up >> p) & 1 == 0 and g[ix(LP.own(seat) + p)] >= 0:
            if below_nb(rng, STREAM_SEAT0 + seat, DECAY_ONE) < limit:
                LP.unlearn(g, rt, seat, p)


@hot
def seen_again_nb(g, rt, seat, s, p):
    """It looks at, or puts a card it knows at, (s, p): that position is remembered again."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    if s == seat:
        g[ix(mem + MEM_FORGOTTEN)] &= ~(1 << p)
        return
    k = (s - seat) % rt[K.R_PLAYERS]
    if 1 <= k <= FORGET_OPPONENTS:
        g[ix(mem + MEM_FORGOTTEN_OPP + k - 1)] &= ~(1 << p)


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
    if power_game_nb(rt):
        # in power games every decision sees what it remembers: a forgotten card, its own or
        # an opponent's, counts as unknown (powers.py's est, pools and peek targets)
        a = knock_power_nb(point, seat, held, g, rt, par, hide, True)
        if (point == K.DP_PLACE_DRAWN or point == K.DP_PLACE_TAKEN) and 0 <= a < MAX_POS:
            seen_again_nb(g, rt, seat, seat, a)
        elif point == K.DP_TARGET_POS and 0 <= a < MAX_POS:
            seen_again_nb(g, rt, seat, g[ix(G_PUB + K.PUB_TARGET_SEAT)], a)
        return a
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
