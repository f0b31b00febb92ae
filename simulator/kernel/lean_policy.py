"""``greedy`` and ``knock-threshold`` as the game flow's lean build plays them: inline, from
a cache of what each seat knows of its own layout, kept as the cards move.

Both policies score a placement by the card-counting estimate of simulator/kernel/estimate.py,
which the general engine's policies (strategies/builtin.py) compute from what a seat may see at
each decision. Here the flow calls ``learn`` whenever a seat learns one of its own cards, and
the cache (codes.G_OWN .. G_KNOCK_T) keeps each position's share of the estimate, so that a
decision is a vector search over the positions (lanes.py) and a knock decision two
multiplications. The decisions are the general engine's, decision for decision
(tests/test_lean.py plays both on the same seeds).
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_BN, G_EKN, G_EKS, G_EN, G_ES, G_KK, G_KNOCK_T, G_KNOWN_N,
                                  G_KNOWN_SUM, G_KQ, G_KV, G_NEGQ, G_OWN, G_PLANNED, G_POLICY,
                                  G_U, G_UPMASK, G_UQ, G_XN, MAX_POS, POLICY_KNOCK_THRESHOLD,
                                  POLICY_LOOKAHEAD, RT_KEY, RT_VALUE)
from simulator.kernel.estimate import best_scan_nb, estimate_cards_nb
from simulator.kernel.jit import hot, ix
from simulator.kernel.lanes import NO_KEY, POS_MASK, best_key, set_column

# lanes.set_column writes the six fields from G_XN at equal strides, in this order
assert (G_BN, G_KQ, G_NEGQ, G_U, G_UQ) == tuple(G_XN + k * (G_BN - G_XN) for k in range(1, 6))
assert MAX_POS <= POS_MASK + 1   # a 16-lane search covers every position


@hot(inline="always")
def own(seat):
    """Where what ``seat`` knows of its own layout starts (codes.G_OWN)."""
    return G_OWN + seat * MAX_POS


@hot(inline="always")
def replaceable_mask(up, rt):
    """Bit p set when layout.can_replace_nb allows a new card at p, for a face-up mask (on a
    layout without empty positions or spent replacements)."""
    full = (1 << rt[K.R_NPOS]) - 1
    if rt[K.R_REPLACE_FACE_UP] == 0:
        return full & ~up
    if rt[K.R_LOCK_FACE_UP_COLUMNS] == 0:
        return full
    cols = rt[K.R_COLS]
    low = (1 << cols) - 1
    up_other = ((up >> cols) & low) | ((up << cols) & ~low)
    return full & ~(up & up_other)


@hot(inline="always")
def vector_scope(rt):
    """Do the policies search with the vector cache below (no pairs, or columns of two rows)?
    Other pair scopes pair a card with several positions, and the seat's estimate then needs
    a matching (estimate.estimate_cards_nb), computed from the known cards at each decision."""
    scope = rt[K.R_PAIR_SCOPE]
    return scope == K.PAIR_NONE or (scope == K.PAIR_COLUMN and rt[K.R_ROWS] == 2)


# Both policies score a placement as n*G(p) = n*(E now - E with the card at p), where a known
# card counts n times its value and an unknown one S (n cards of value S unseen). Per position
# the cache holds that gain as a*n + b*S - v(card)*n (and the gain when the card would pair
# with the other card of the column). b only ever counts unknown cards, the position's own and
# its partner's, so it is kept as two masks (-1 when unknown): a decision then costs one
# multiplication and a few masks per gain (lanes.py). Refreshed only when the seat learns a card.
# Other pair scopes keep no cache: their searches read the known cards (best_placement).
@hot(inline="always")
def _refresh(g, rt, seat, p):
    """Recompute the cache of position p and of the position that pairs with it."""
    base = seat * MAX_POS
    scope = rt[K.R_PAIR_SCOPE]
    if scope != K.PAIR_COLUMN:
        if scope != K.PAIR_NONE:
            _whole_estimate(g, rt, seat)
            return
        i = base + p
        known = np.int64(g[ix(own(seat) + p)] >= 0)
        g[ix(G_XN + i)] = g[ix(G_KV + i)]
        g[ix(G_KQ + i)] = NO_KEY
        g[ix(G_U + i)] = known - 1
        _set_estimate(g, rt, seat, i, g[ix(G_KV + i)], 1 - known)
        return
    if rt[K.R_ROWS] != 2:
        _whole_estimate(g, rt, seat)
        return
    cols = rt[K.R_COLS]
    keep = np.int64(rt[K.R_NEG_PAIRS_KEEP] != 0)
    top = p - cols * np.int64(p >= cols)  # two rows (checked above): no division or branch
    i = base + top
    j = i + cols
    va = g[ix(G_KV + i)]
    vb = g[ix(G_KV + j)]
    ka = np.int64(g[ix(own(seat) + top)] >= 0)
    kb = np.int64(g[ix(own(seat) + top + cols)] >= 0)
    kka = g[ix(G_KK + i)]
    kkb = g[ix(G_KK + j)]
    equal = set_column(g, G_XN, G_BN - G_XN, i, j, va, vb, ka, kb, kka, kkb, keep)
    # knock-threshold's estimate lets every known pair cancel (strategies/greedy.layout_estimate_nb)
    _set_estimate(g, rt, seat, i, (va + vb) * (1 - equal), 2 - ka - kb)


@hot
def _whole_estimate(g, rt, seat):
    """The pair scopes without a vector cache (vector_scope) search from the known cards
    themselves (best_placement); knock-threshold's estimate E*n = G_EN*n + G_ES*S is kept
    whole instead of per position: G_EN the known cards' values less those paired as
    estimate.estimate_cards_nb pairs them, G_ES the unknown ones."""
    if (rt[K.R_END_TRIGGERS] & K.END_KNOCK) == 0:
        return  # only a knock decision reads it
    g[ix(G_EN + seat)] = estimate_cards_nb(g, own(seat), g, 0, 0, rt, -1, -1, 1, 0)
    g[ix(G_ES + seat)] = rt[K.R_NPOS] - g[ix(G_KNOWN_N + seat)]


@hot(inline="always")
def _set_estimate(g, rt, seat, i, en, es):
    """Position i now adds en*n + es*S to the seat's estimated score."""
    if (rt[K.R_END_TRIGGERS] & K.END_KNOCK) == 0:
        return  # only a knock decision reads it
    g[ix(G_EN + seat)] += en - g[ix(G_EKN + i)]
    g[ix(G_ES + seat)] += es - g[ix(G_EKS + i)]
    g[ix(G_EKN + i)] = en
    g[ix(G_EKS + i)] = es


@hot(inline="always")
def learn(g, rt, seat, p, card):
    """The owner of (seat, p) now knows it holds ``card``: its knowledge and the cache."""
    i = own(seat) + p
    # whether the position was known is data: arithmetic instead of a branch (a known card's
    # value is already in G_KV, an unknown one's is 0 there)
    was = np.int64(g[ix(i)] >= 0)
    v = rt[ix(RT_VALUE + card)]
    g[ix(G_KNOWN_N + seat)] += 1 - was
    g[ix(G_KNOWN_SUM + seat)] += v - g[ix(G_KV + seat * MAX_POS + p)]
    g[ix(i)] = card
    g[ix(G_KV + seat * MAX_POS + p)] = v
    g[ix(G_KK + seat * MAX_POS + p)] = rt[ix(RT_KEY + card)]
    _refresh(g, rt, seat, p)


@hot
def unlearn(g, rt, seat, p):
    """The owner of (seat, p) no longer knows the card there (forgetful forgets it): its
    knowledge and the cache as for a card it never saw."""
    i = seat * MAX_POS + p
    g[ix(G_KNOWN_N + seat)] -= 1
    g[ix(G_KNOWN_SUM + seat)] -= g[ix(G_KV + i)]
    g[ix(own(seat) + p)] = -1
    g[ix(G_KV + i)] = 0
    g[ix(G_KK + i)] = NO_KEY
    _refresh(g, rt, seat, p)


@hot
def unknown_layout(g, rt, s):
    """Seat s knows none of its cards: its knowledge and the cache as _refresh would compute
    them for a layout of unknown cards, written directly."""
    unknown_layouts(g, rt, s, 1)


@hot(inline="always")
def unknown_layouts(g, rt, first, seats):
    """unknown_layout for seats first..first+seats-1. Only the lanes a search reads are
    written, 4, 8 or 16 a field as in lanes.best_key: a count known when compiled becomes a
    few vector stores, where a variable one was a call to memset per field (4% of W2)."""
    npos = rt[K.R_NPOS]
    column = rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN
    cols = rt[K.R_COLS]
    for s in range(first, first + seats):
        g[ix(G_KNOWN_N + s)] = 0
        g[ix(G_KNOWN_SUM + s)] = 0
        g[ix(G_EN + s)] = 0
        g[ix(G_ES + s)] = npos
        if npos <= 4:
            _blank_seat(g, s, 4, column, cols)
        elif npos <= 8:
            _blank_seat(g, s, 8, column, cols)
        else:
            _blank_seat(g, s, 16, column, cols)


@hot(inline="always")
def _blank_seat(g, s, lanes, column, cols):
    """One seat's unknown layout over its first ``lanes`` positions (a constant at each call:
    each field compiles to one vector store); a search never reads a lane past the layout."""
    b = s * MAX_POS
    _fill(g, own(s), lanes, -1)
    _fill(g, G_KV + b, lanes, 0)
    _fill(g, G_KK + b, lanes, NO_KEY)
    _fill(g, G_XN + b, lanes, 0)
    _fill(g, G_BN + b, lanes, 0)
    _fill(g, G_KQ + b, lanes, NO_KEY)
    _fill(g, G_NEGQ + b, lanes, 0)
    _fill(g, G_U + b, lanes, -1)
    _fill(g, G_UQ + b, lanes, -1)
    _fill(g, G_EKN + b, lanes, 0)
    # knock-threshold's estimate: a column of two unknown cards counts 2S at its top
    # position, a lone unknown card S
    if column:
        _fill(g, G_EKS + b, lanes, 0)
        for c in range(cols):
            g[ix(G_EKS + b + c)] = 2
    else:
        _fill(g, G_EKS + b, lanes, 1)


@hot(inline="always")
def _fill(g, start, count, value):
    for i in range(count):
        g[ix(start + i)] = value


@hot(inline="always")
def best_placement(g, rt, seat, card, n, S, vector):
    """greedy.best_placement_nb (strategies/greedy.py) from the cache: the replaceable position with the largest
    gain, eligible when it is >= n over a known card and >= 0 over an unknown one, ties to the
    lowest position; -1 when none is eligible. ``vector``: vector_scope(rt)."""
    i = seat * MAX_POS
    rep = replaceable_mask(g[ix(G_UPMASK + seat)], rt)
    if not vector:
        return best_scan_nb(g, own(seat), g, 0, 0, rt, rep, card, n, S)
    vc = rt[ix(RT_VALUE + card)]
    kc = rt[ix(RT_KEY + card)]
    key = best_key(g, rt[K.R_NPOS], G_XN + i, G_BN + i, G_KQ + i, G_NEGQ + i, G_U + i,
                   G_UQ + i, rep, kc, vc * n, vc < 0, n, S)
    return -1 if key < 0 else POS_MASK - (key & POS_MASK)


@hot(inline="always")
def seat_policies(g, par, players, triggers):
    """Each seat's policy and knock threshold, read once: par is float and a conversion per
    turn shows."""
    for s in range(players):
        policy = np.int64(par[s, 0])
        # the lookahead player models itself in its rollouts as knock-threshold with its own
        # T (par[seat, 1]) in knock games, else as greedy; any other policy as greedy
        if policy == POLICY_LOOKAHEAD and (triggers & K.END_KNOCK) != 0:
            policy = POLICY_KNOCK_THRESHOLD
        g[ix(G_POLICY + s)] = policy
        t = par[s, 1] if par.shape[1] > 1 else 0.0
        # a whole T compares exactly in integers (E*n <= T*n); any other in floats, as ever
        g[ix(G_KNOCK_T + s)] = np.int64(t) if t == np.floor(t) and abs(t) < (1 << 24) \
            else NO_KEY


@hot(inline="always")
def unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum):
    """(n, S): the cards the seat's policy counts as unseen and their value sum."""
    if g[ix(G_POLICY + seat)] == POLICY_KNOCK_THRESHOLD:
        return (rt[K.R_NCARDS] - n_disc - g[ix(G_KNOWN_N + seat)],
                rt[K.R_DECK_SUM] - sum_disc - g[ix(G_KNOWN_SUM + seat)])
    return rt[K.R_NCARDS] - up_n - n_disc, rt[K.R_DECK_SUM] - up_sum - sum_disc


@hot(inline="always")
def turn_action(g, rt, par, seat, n, S, top, draw_ok, take_ok, knock_ok, vector):
    """greedy's or knock-threshold's action at the start of a turn; a discard to take goes to
    the position kept in G_PLANNED."""
    if g[ix(G_POLICY + seat)] == POLICY_KNOCK_THRESHOLD and knock_ok and n > 0:
        en = g[ix(G_EN + seat)] * n + g[ix(G_ES + seat)] * S
        t = g[ix(G_KNOCK_T + seat)]
        if (en <= t * n) if t != NO_KEY else (en <= par[seat, 1] * n):
            return K.A_KNOCK
    if take_ok and n > 0:
        p = best_placement(g, rt, seat, top, n, S, vector)
        if p >= 0:
            g[ix(G_PLANNED + seat)] = p
            return K.A_TAKE_DISCARD
    return K.A_DRAW_STOCK if draw_ok else (K.A_TAKE_DISCARD if take_ok else K.A_KNOCK)
