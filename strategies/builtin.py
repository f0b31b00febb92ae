"""Built-in policies, compiled into the engine and chosen per seat by an integer id.

Every built-in has one signature (see docs/policies.md)::

    policy_nb(point, seat, held, g, rt, rng, par) -> action

``point`` is the decision point (codes.DP_*), ``held`` the card the seat holds now (-1 if
none), ``g`` the engine's state array, ``rt`` the rules and card tables, ``rng`` the random
streams and ``par[seat]`` the seat's row of the policy table (column 0 is the policy id, the
rest its parameters). A built-in reads only what its seat may see:

- the public slots ``g[G_PUB + PUB_*]`` and face-down counts ``g[G_FACE_DOWN + s]``,
- the face-up flags ``g[G_UP + s*MAX_POS + p]`` and the discard pile ``g[G_DISCARD + i]``,
- its own knowledge row ``g[G_KNOWN + (seat*MAX_PLAYERS + s)*MAX_POS + p]`` (card or -1),
- the legal mask ``g[G_LEGAL + a]``, its memory ``g[G_MEMORY + seat*MEMORY_SLOTS + i]`` and
  its own stream ``rng[STREAM_SEAT0 + seat]``.

Built-ins get the whole state array rather than per-seat copies because a call between compiled
functions costs about one stack word per array field; a test checks that scrambling everything
a seat may not see never changes a built-in's decision. Policies written by users get per-seat
views (issue 4).
"""

from __future__ import annotations

import numpy as np

from simulator import codes as K
from simulator.codes import G_DISCARD, G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, MAX_PLAYERS, MAX_POS
from simulator.codes import RT_KEY, RT_VALUE
from simulator.jit import hot
from simulator.layout import can_replace_nb, related_nb
from simulator.rng import STREAM_SEAT0, below_nb

POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICY_KNOCK_THRESHOLD = 2
MEM_PLANNED_POS = 0
PAR_ID = 0      # column of the policy table holding the policy id
PAR_T = 1       # knock-threshold: its threshold T


@hot(inline="always")
def lowest_legal_nb(g, lo, hi):
    for a in range(lo, hi):
        if g[G_LEGAL + a]:
            return a
    return -1


@hot
def random_nb(point, seat, held, g, rt, rng, par):
    """Uniform over the legal actions (counted in ascending action order)."""
    count = 0
    for a in range(K.N_ACTIONS):
        count += g[G_LEGAL + a]
    k = below_nb(rng, STREAM_SEAT0 + seat, count)
    for a in range(K.N_ACTIONS):
        if g[G_LEGAL + a]:
            if k == 0:
                return a
            k -= 1
    return -1


@hot(inline="always")
def _column_estimate_nb(ka, va, kb, vb, a_known, b_known, n, S, keep_negative):
    """n times the estimated score of a 2-card column: a known pair scores its pair value,
    known cards their values, an unknown card S/n (it pairs with nothing)."""
    if a_known and b_known:
        if ka == kb:
            return (va + vb) * n if keep_negative and va < 0 and vb < 0 else 0
        return (va + vb) * n
    if a_known:
        return va * n + S
    if b_known:
        return vb * n + S
    return 2 * S


@hot
def _layout_estimate_nb(g, rt, seat, at, card, n, S):
    """n times the estimated layout score for pair scopes other than 2-row columns, with
    ``card`` imagined at position ``at`` (at = -1: as it is). Unknown cards count S/n and pair
    with nothing; known cards pair among themselves by key."""
    npos = rt[K.R_NPOS]
    scope = rt[K.R_PAIR_SCOPE]
    cols = rt[K.R_COLS]
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    total = 0
    used = 0
    for p in range(npos):
        x = card if p == at else g[own + p]
        if x < 0:
            total += S
            continue
        if (used >> p) & 1:
            continue
        partner = -1
        if scope != K.PAIR_NONE:
            for q in range(p + 1, npos):
                y = card if q == at else g[own + q]
                if y >= 0 and not (used >> q) & 1 and rt[RT_KEY + y] == rt[RT_KEY + x] and \
                        related_nb(p, q, scope, cols):
                    partner = q
                    break
        if partner >= 0:
            used |= 1 << partner
        else:
            total += rt[RT_VALUE + x] * n
    return total


@hot
def best_placement_nb(g, rt, seat, card, n, S):
    """BENCHMARK W1's placement rule generalised: the replaceable position with the largest
    gain n*G(p) among eligible ones (G >= 1 over a known card, G >= 0 over an unknown one),
    ties to the lowest position; -1 if none is eligible."""
    npos = rt[K.R_NPOS]
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    best = -1
    best_gain = 0
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        keep = rt[K.R_NEG_PAIRS_KEEP] != 0
        kc = rt[RT_KEY + card]
        vc = rt[RT_VALUE + card]
        for c in range(cols):
            a = g[own + c]
            b = g[own + c + cols]
            ka = rt[RT_KEY + a] if a >= 0 else -1
            va = rt[RT_VALUE + a] if a >= 0 else 0
            kb = rt[RT_KEY + b] if b >= 0 else -1
            vb = rt[RT_VALUE + b] if b >= 0 else 0
            before = _column_estimate_nb(ka, va, kb, vb, a >= 0, b >= 0, n, S, keep)
            if can_replace_nb(g, rt, seat, c):  # the top card of the column
                gain = before - _column_estimate_nb(kc, vc, kb, vb, True, b >= 0, n, S, keep)
                if gain >= (n if a >= 0 else 0) and (best < 0 or gain > best_gain or
                                                     (gain == best_gain and c < best)):
                    best = c
                    best_gain = gain
            if can_replace_nb(g, rt, seat, c + cols):  # the bottom card
                gain = before - _column_estimate_nb(ka, va, kc, vc, a >= 0, True, n, S, keep)
                if gain >= (n if b >= 0 else 0) and (best < 0 or gain > best_gain or
                                                     (gain == best_gain and c + cols < best)):
                    best = c + cols
                    best_gain = gain
        return best
    before = _layout_estimate_nb(g, rt, seat, -1, -1, n, S)
    for p in range(npos):
        if not can_replace_nb(g, rt, seat, p):
            continue
        gain = before - _layout_estimate_nb(g, rt, seat, p, card, n, S)
        if gain >= (n if g[own + p] >= 0 else 0) and (best < 0 or gain > best_gain):
            best = p
            best_gain = gain
    return best


@hot
def _place_or_draw_nb(point, seat, held, g, rt, n, S):
    """The placement rule shared by greedy and knock-threshold, given the seat's unseen pool
    (n cards worth S, the held card not yet removed): take the discard if it has an eligible
    placement, else draw; place a drawn card at its best eligible position, else discard."""
    if point == K.DP_TURN:
        if g[G_LEGAL + K.A_TAKE_DISCARD] and n > 0:
            top = g[G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1]
            p = best_placement_nb(g, rt, seat, top, n, S)
            if p >= 0:
                # decided before taking: remembered for the placement that follows
                g[G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS] = p
                return K.A_TAKE_DISCARD
        if g[G_LEGAL + K.A_DRAW_STOCK]:
            return K.A_DRAW_STOCK
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_TAKEN:
        p = g[G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS]
        if p >= 0 and g[G_LEGAL + p]:
            return p
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_PLACE_DRAWN:
        n -= 1
        S -= rt[RT_VALUE + held]
        p = best_placement_nb(g, rt, seat, held, n, S) if n > 0 else -1
        if p >= 0:
            return p
        if g[G_LEGAL + K.A_DISCARD]:
            return K.A_DISCARD
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_FLIP and g[G_LEGAL + K.A_PASS]:
        return K.A_PASS
    if point == K.DP_FACE:
        return K.A_FACE_UP
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def greedy_nb(point, seat, held, g, rt, rng, par):
    """BENCHMARK W1 ``greedy``: card-counting, one-step placement gain. Its pool U: cards
    neither face up in a grid nor in the discard pile (nor the card just drawn)."""
    n = rt[K.R_NCARDS] - g[G_PUB + K.PUB_FACEUP_N] - g[G_PUB + K.PUB_DISCARD_N]
    S = rt[K.R_DECK_SUM] - g[G_PUB + K.PUB_FACEUP_SUM] - g[G_PUB + K.PUB_DISCARD_SUM]
    return _place_or_draw_nb(point, seat, held, g, rt, n, S)


@hot
def knock_threshold_nb(point, seat, held, g, rt, rng, par):
    """BENCHMARK W2 ``knock-threshold`` (parameter T): its pool U is every card but the
    discard pile and its own known cards (what it has seen elsewhere is not subtracted); it
    knocks at the start of a turn when its estimated score E <= T, else plays greedy's
    placement rule with that pool."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    n = rt[K.R_NCARDS] - g[G_PUB + K.PUB_DISCARD_N]
    S = rt[K.R_DECK_SUM] - g[G_PUB + K.PUB_DISCARD_SUM]
    for p in range(rt[K.R_NPOS]):
        c = g[own + p]
        if c >= 0:
            n -= 1
            S -= rt[RT_VALUE + c]
    if point == K.DP_TURN and g[G_LEGAL + K.A_KNOCK] and n > 0:
        nE = _layout_estimate_nb(g, rt, seat, -1, -1, n, S)
        if nE <= par[seat, PAR_T] * n:
            return K.A_KNOCK
    return _place_or_draw_nb(point, seat, held, g, rt, n, S)


@hot
def decide_nb(point, seat, held, g, rt, rng, par):
    policy = np.int64(par[seat, PAR_ID])
    if policy == POLICY_GREEDY:
        return greedy_nb(point, seat, held, g, rt, rng, par)
    if policy == POLICY_KNOCK_THRESHOLD:
        return knock_threshold_nb(point, seat, held, g, rt, rng, par)
    return random_nb(point, seat, held, g, rt, rng, par)
