"""``ev``: expected values over the cards it has not seen: takes the discard only when that
beats the expected gain of a draw, and ends the round only when its estimate is low enough
and below every opponent's by its margin."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP, MAX_PLAYERS,
                                  MAX_POS)
from simulator.kernel.estimate import key_group_nb, trailing_zeros
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb
from strategies.common import (component_nb, component_share_nb, draw_or_flip_nb, EPS,
                               estimate_nb, estimate_of_nb, flip_nb, lowest_legal_nb,
                               MEM_PLANNED_POS, PAR_EV_T, PAR_MARGIN, reveal_apart_nb,
                               unseen_pool_nb, unseen_types_nb, would_end_nb)
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


# where _ev_befores_nb writes, for each position p (after ``befores + p``): n times the share
# of p's component in the estimate as it is; that share with p empty; the component
BASE_AT, COMP_AT = MAX_POS, 2 * MAX_POS


@hot
def _ev_befores_nb(g, rt, seat, n, S, befores):
    """The positions where the seat may place a card (a bitmask), and for each such p what
    a placement there is weighed against (BASE_AT, COMP_AT): p's component
    (common.component_nb), n times its share in the seat's estimate as it is, and the same
    with a card at p that pairs with nothing and is worth 0 (the empty-position pseudo-card,
    whose key no card has) (n, S: the unseen pool)."""
    free = 0
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        # a column is a component: one share before for both of its positions
        cols = rt[K.R_COLS]
        for c in range(cols):
            comp = (1 << c) | (1 << (c + cols))
            before = component_share_nb(g, rt, seat, comp, -1, -1, n, S)
            for p in (c, c + cols):
                if can_replace_nb(g, rt, seat, p):
                    free |= 1 << p
                    g[ix(befores + COMP_AT + p)] = comp
                    g[ix(befores + p)] = before
                    g[ix(befores + BASE_AT + p)] = component_share_nb(g, rt, seat, comp, p,
                                                                      K.EMPTY0 + p, n, S)
        return free
    for p in range(rt[K.R_NPOS]):
        if can_replace_nb(g, rt, seat, p):
            free |= 1 << p
            comp = component_nb(rt, p)
            g[ix(befores + COMP_AT + p)] = comp
            g[ix(befores + p)] = component_share_nb(g, rt, seat, comp, -1, -1, n, S)
            g[ix(befores + BASE_AT + p)] = component_share_nb(g, rt, seat, comp, p,
                                                              K.EMPTY0 + p, n, S)
    return free


@hot(inline="always")
def _ev_after_nb(g, rt, seat, p, card, n, S, befores):
    """n times the share of p's component in the estimate with ``card`` at p. A card whose
    key no other known card of the component has pairs with nothing there and changes no
    other pairing (nor does the pseudo-card of BASE_AT, unless one of them has its key), so
    the share is BASE_AT's plus n times its value."""
    comp = g[ix(befores + COMP_AT + p)]
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    key = rt[ix(K.RT_KEY + card)]
    others = comp & ~(1 << p)
    while others != 0:
        q = trailing_zeros(others)
        others &= others - 1
        y = g[ix(own + q)]
        if y >= 0 and (rt[ix(K.RT_KEY + y)] == key or y == K.EMPTY0 + p):
            return component_share_nb(g, rt, seat, comp, p, card, n, S)
    return g[ix(befores + BASE_AT + p)] + n * rt[ix(K.RT_VALUE + card)]


@hot
def _ev_best_nb(g, rt, seat, card, n, S, par, final):
    """(position, n times its gain) for ``card``: the replaceable position with the largest
    estimated gain (any sign; ties to the lowest), leaving out a placement that would end the
    round when the estimate after it may not end it -- unless nothing else is left. (-1, 0)
    if none. (n, S): the unseen pool, or (1, 0) when it is empty (unknown cards worth 0)."""
    ending = not final and would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    befores = K.G_SCRATCH + rt[K.RT_TYPE_N]
    free = _ev_befores_nb(g, rt, seat, n, S, befores)
    return _ev_best_from_nb(g, rt, seat, card, n, S, par, ending, free, befores)


@hot
def _ev_best_from_nb(g, rt, seat, card, n, S, par, ending, free, befores):
    """``_ev_best_nb`` given whether a placement may end the round, the positions ``free``
    for it and the shares before it (``_ev_befores_nb``: the same for every card it weighs
    at one decision). A placement at p changes only p's component, so n times its gain is
    that component's share before less after, an integer: exact, and two gains differ by a
    multiple of 1/n (far more than EPS), so comparing them decides as comparing the float
    estimates within EPS does."""
    fallback = -1
    fallback_gain = 0
    best = -1
    best_gain = 0
    u = S / n
    left = free
    while left != 0:   # lowest position first
        p = trailing_zeros(left)
        left &= left - 1
        gain = g[ix(befores + p)] - _ev_after_nb(g, rt, seat, p, card, n, S, befores)
        if ending and g[ix(G_UP + seat * MAX_POS + p)] == 0 and \
                not _ev_may_end_nb(g, rt, seat, estimate_nb(g, rt, seat, p, card, u), u, par):
            if fallback < 0 or gain > fallback_gain:
                fallback = p
                fallback_gain = gain
            continue
        if best < 0 or gain > best_gain:
            best = p
            best_gain = gain
    if best < 0:
        return fallback, fallback_gain
    return best, best_gain


@hot
def _ev_blank_best_nb(g, rt, seat, free, befores):
    """(position, n times its gain less the card's value) shared by every card whose key the
    seat knows no card of in its layout: each such card gains, at every p, the share before
    less BASE_AT's less n times its value (``_ev_after_nb``), so its best position is the
    same. (-1, 0) when no card can share it: no free position, or a pseudo-card away from its
    position (BASE_AT's would pair with it)."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    for q in range(rt[K.R_NPOS]):
        y = g[ix(own + q)]
        if y >= K.EMPTY0 and y != K.EMPTY0 + q:
            return -1, 0
    best = -1
    best_gain = 0
    left = free
    while left != 0:   # lowest position first
        p = trailing_zeros(left)
        left &= left - 1
        gain = g[ix(befores + p)] - g[ix(befores + BASE_AT + p)]
        if best < 0 or gain > best_gain:
            best = p
            best_gain = gain
    return best, best_gain


@hot
def _ev_draw_value_nb(g, rt, seat, n, S, par, ending, free, befores, may_discard, beat):
    """n * n times the expected gain of drawing: over every card it has not seen (grouped by
    key and value: the rule set's card types), the best placement's gain, or 0 when
    discarding it is better and allowed (``_ev_best_from_nb``'s arguments). Without an
    ending in sight, a card of a key it knows no card of takes ``_ev_blank_best_nb``'s.
    Where a drawn card may be discarded no card adds less than 0, so once the sum passes
    ``beat`` it is returned as it is (the caller only asks whether the draw beats that)."""
    unseen_types_nb(g, rt, seat)
    blank, blank_gain = _ev_blank_best_nb(g, rt, seat, free, befores)
    shared = blank >= 0 and not ending
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    total = 0
    for t in range(rt[K.RT_TYPE_N]):
        count = g[ix(K.G_SCRATCH + t)]
        if count <= 0:
            continue
        card = rt[ix(K.RT_TYPE_CARD + t)]
        if shared and key_group_nb(g, own, g, 0, 0, rt, rt[ix(K.RT_KEY + card)]) == 0:
            p, gain = blank, blank_gain - n * rt[ix(K.RT_VALUE + card)]
        else:
            p, gain = _ev_best_from_nb(g, rt, seat, card, n, S, par, ending, free, befores)
        if p >= 0 and not (may_discard and gain < 0):
            total += count * gain
            if may_discard and total > beat:
                return total
    return total


@hot
def _ev_take_nb(g, rt, seat, n, S, par, final):
    """Where ``ev`` puts the top discard if it takes it, else -1: when the best placement's
    gain is at least the draw's mean gain (or it may not draw)."""
    top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
    ending = not final and would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    befores = K.G_SCRATCH + rt[K.RT_TYPE_N]
    free = _ev_befores_nb(g, rt, seat, n, S, befores)
    p, gain = _ev_best_from_nb(g, rt, seat, top, n, S, par, ending, free, befores)
    if p < 0 or not g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
        return p
    may_discard = rt[K.R_STOCK_MAY_DISCARD] != 0
    if may_discard and gain < 0:
        return -1   # where a drawn card may be discarded, drawing is worth at least 0
    # both sides times n * n (the gain is n times, the draw's value n * n times)
    if gain * n >= _ev_draw_value_nb(g, rt, seat, n, S, par, ending, free, befores,
                                     may_discard, gain * n):
        return p
    return -1


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
        if (g[ix(G_LEGAL + K.A_KNOCK)] or g[ix(G_LEGAL + K.A_FLIP_ALL)]) and \
                _ev_may_end_nb(g, rt, seat, estimate_nb(g, rt, seat, -1, -1, u), u, par):
            return K.A_KNOCK if g[ix(G_LEGAL + K.A_KNOCK)] else K.A_FLIP_ALL
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)]:
            p = _ev_take_nb(g, rt, seat, n, S, par, final)
            if p >= 0:
                g[ix(mem + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
        return draw_or_flip_nb(g)
    if point == K.DP_PLACE_TAKEN or point == K.DP_PLACE_DRAWN:
        p = g[ix(mem + MEM_PLANNED_POS)] if point == K.DP_PLACE_TAKEN else -1
        if not (0 <= p < MAX_POS and g[ix(G_LEGAL + p)]):
            n, S = unseen_pool_nb(g, rt, seat, held)
            if n <= 0:
                n, S = 1, 0
            p, gain = _ev_best_nb(g, rt, seat, held, n, S, par, final)
            if g[ix(G_LEGAL + K.A_DISCARD)] and (p < 0 or gain <= 0):
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
