"""``ev``: expected values over the cards it has not seen: takes the discard only when that
beats the expected gain of a draw, and ends the round only when its estimate is low enough
and below every opponent's by its margin."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP, MAX_PLAYERS,
                                  MAX_POS)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb
from strategies.common import (draw_or_flip_nb, EPS, estimate_nb, estimate_of_nb, flip_nb,
                               lowest_legal_nb, MEM_PLANNED_POS, PAR_EV_T, PAR_MARGIN,
                               reveal_apart_nb, unseen_pool_nb, would_end_nb)
from strategies.powers import decide_others_nb


@hot
def _ev_may_end_nb(g, rt, seat, E, u, par):
    """May ``ev`` end the round with estimate E? When E <= T and E + margin is at most every
    opponent's estimate (their cards as it knows them, unknown ones worth u); always once the
    stock has been reshuffled (the round drags on)."""
    if g[ix(G_PUB + K.PUB_RESHUFFLES)] > 0:
        return True
    if E > par[seat, PAR_EV_T] + EPS:
        return False
    for s in range(rt[K.R_PLAYERS]):
        if s != seat and E + par[seat, PAR_MARGIN] > estimate_of_nb(g, rt, seat, s, -1, -1,
                                                                    u) + EPS:
            return False
    return True


@hot
def _ev_best_nb(g, rt, seat, card, u, par, final):
    """(position, gain) for ``card``: the replaceable position with the largest estimated gain
    (any sign; ties to the lowest), leaving out a placement that would end the round when the
    estimate after it may not end it -- unless nothing else is left. (-1, 0) if none."""
    ending = not final and would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    return _ev_best_from_nb(g, rt, seat, card, u, par, ending,
                            estimate_nb(g, rt, seat, -1, -1, u))


@hot
def _ev_best_from_nb(g, rt, seat, card, u, par, ending, before):
    """``_ev_best_nb`` given whether a placement may end the round and the estimate before it
    (the same for every card it weighs at one decision)."""
    fallback = -1
    fallback_gain = 0.0
    best = -1
    best_gain = 0.0
    for p in range(rt[K.R_NPOS]):
        if not can_replace_nb(g, rt, seat, p):
            continue
        after = estimate_nb(g, rt, seat, p, card, u)
        gain = before - after
        if ending and g[ix(G_UP + seat * MAX_POS + p)] == 0 and \
                not _ev_may_end_nb(g, rt, seat, after, u, par):
            if fallback < 0 or gain > fallback_gain + EPS:
                fallback = p
                fallback_gain = gain
            continue
        if best < 0 or gain > best_gain + EPS:
            best = p
            best_gain = gain
    if best < 0:
        return fallback, fallback_gain
    return best, best_gain


@hot
def _ev_draw_value_nb(g, rt, seat, n, u, par, final, may_discard):
    """The expected gain of drawing: over every card it has not seen (grouped by key and
    value: the rule set's card types), the best placement's gain, or 0 when discarding it is
    better and allowed."""
    ntypes = rt[K.RT_TYPE_N]
    for t in range(ntypes):  # unseen copies: the deck's, less the discard pile's and known ones
        g[ix(K.G_SCRATCH + t)] = rt[ix(K.RT_TYPE_COPIES + t)]
    for j in range(g[ix(G_PUB + K.PUB_DISCARD_N)]):
        t = rt[ix(K.RT_TYPE + g[ix(G_DISCARD + j)])]
        if t >= 0:
            g[ix(K.G_SCRATCH + t)] -= 1
    for s in range(rt[K.R_PLAYERS]):
        row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
        for p in range(rt[K.R_NPOS]):
            d = g[ix(row + p)]
            if d >= 0:
                t = rt[ix(K.RT_TYPE + d)]
                if t >= 0:
                    g[ix(K.G_SCRATCH + t)] -= 1
    ending = not final and would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    before = estimate_nb(g, rt, seat, -1, -1, u)
    total = 0.0
    for t in range(ntypes):
        count = g[ix(K.G_SCRATCH + t)]
        if count <= 0:
            continue
        p, gain = _ev_best_from_nb(g, rt, seat, rt[ix(K.RT_TYPE_CARD + t)], u, par, ending,
                                   before)
        if p < 0 or (may_discard and gain < 0.0):
            gain = 0.0
        total += count * gain
    return total / n


@hot
def ev_nb(point, seat, held, g, rt, rng, par):
    """``ev`` (parameters T, margin): a card counter that compares expected values. Its pool
    is every card it has not seen; an unknown card is worth the pool's mean. It takes the
    discard when the best placement of that card gains at least as much as drawing is expected
    to (the mean over the pool of each card's best gain, or 0 if it would discard it); it
    places a drawn card where it gains most, if anything; and it ends the round (knock, flip
    all, or turn its last card up) only when its estimate is at most T and at least margin
    below every opponent's (tip S-14, docs/rules.md#s-14)."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    final = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    if point == K.DP_TURN:
        n, S = unseen_pool_nb(g, rt, seat, -1)
        if n <= 0:
            return lowest_legal_nb(g, 0, K.N_ACTIONS)
        u = S / n
        E = estimate_nb(g, rt, seat, -1, -1, u)
        if (g[ix(G_LEGAL + K.A_KNOCK)] or g[ix(G_LEGAL + K.A_FLIP_ALL)]) and \
                _ev_may_end_nb(g, rt, seat, E, u, par):
            return K.A_KNOCK if g[ix(G_LEGAL + K.A_KNOCK)] else K.A_FLIP_ALL
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)]:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p, gain = _ev_best_nb(g, rt, seat, top, u, par, final)
            if p >= 0 and (not g[ix(G_LEGAL + K.A_DRAW_STOCK)] or gain >= _ev_draw_value_nb(
                    g, rt, seat, n, u, par, final, rt[K.R_STOCK_MAY_DISCARD] != 0) - EPS):
                g[ix(mem + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
        return draw_or_flip_nb(g)
    if point == K.DP_PLACE_TAKEN or point == K.DP_PLACE_DRAWN:
        p = g[ix(mem + MEM_PLANNED_POS)] if point == K.DP_PLACE_TAKEN else -1
        if not (0 <= p < MAX_POS and g[ix(G_LEGAL + p)]):
            n, S = unseen_pool_nb(g, rt, seat, held)
            p, gain = _ev_best_nb(g, rt, seat, held, S / n if n > 0 else 0.0, par, final)
            if g[ix(G_LEGAL + K.A_DISCARD)] and (p < 0 or gain <= EPS):
                return K.A_DISCARD
        if p >= 0 and g[ix(G_LEGAL + p)]:
            g[ix(mem + MEM_PLANNED_POS)] = p
            return p
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_FACE:
        n, S = unseen_pool_nb(g, rt, seat, held)
        p = g[ix(mem + MEM_PLANNED_POS)]
        if 0 <= p < MAX_POS and n > 0 and not final and would_end_nb(g, rt, seat) and \
                g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(G_LEGAL + K.A_FACE_DOWN)] and \
                not _ev_may_end_nb(g, rt, seat, estimate_nb(g, rt, seat, p, held, S / n),
                                   S / n, par):
            return K.A_FACE_DOWN
        if g[ix(G_LEGAL + K.A_FACE_UP)]:
            return K.A_FACE_UP
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_FLIP:
        return flip_nb(g, rt, seat)
    if point == K.DP_REVEAL:
        return reveal_apart_nb(g, rt, seat)
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


def ev_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_others_nb(point, seat, held, g, rt, rng, par, ev_nb)
