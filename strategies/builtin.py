"""Built-in policies, compiled into the engine and chosen per seat by an integer id.

Every built-in has one signature (see docs/policies.md)::

    policy_nb(point, seat, held, pub, known, up, discard, legal,
              card_value, card_key, ri, params, memory, rng) -> action

``known[seat, owner, pos]`` is what *this seat* knows of every layout (card id or -1), ``up``
the public face-up flags, ``pub`` the public counters (codes.PUB_*), ``discard`` the public
pile (bottom to top), ``held`` the card the seat holds now (-1 if none), ``legal`` the mask of
legal actions, ``memory[seat]`` a scratch row that lives for one round, ``params[seat]`` the
seat's strategy parameters and ``rng[STREAM_SEAT0 + seat]`` its own random stream.

Built-ins are handed whole arrays plus the seat index because a row view passed between
compiled functions costs a reference-count round trip per call, more than a greedy decision;
they read only their own seat's rows. Policies written by users get per-seat views.
"""

from __future__ import annotations

import numpy as np
from simulator.jit import hot

from simulator import codes as K
from simulator.layout import can_replace_nb
from simulator.rng import STREAM_SEAT0, below_nb

POLICY_RANDOM = 0
POLICY_GREEDY = 1
N_MEMORY = 8
MEM_PLANNED_POS = 0


@hot
def lowest_legal_nb(legal, lo, hi):
    for a in range(lo, hi):
        if legal[a]:
            return a
    return -1


@hot
def random_nb(point, seat, held, pub, known, up, discard, legal, card_value, card_key, ri,
              params, memory, rng):
    """Uniform over the legal actions."""
    count = 0
    for a in range(K.N_ACTIONS):
        count += legal[a]
    k = below_nb(rng, STREAM_SEAT0 + seat, count)
    for a in range(K.N_ACTIONS):
        if legal[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@hot
def _column_estimate_nb(a, b, n, S, ri, card_value, card_key):
    """n times the estimated score of a 2-card column (a, b card ids or -1 unknown)."""
    if a >= 0 and b >= 0:
        if card_key[a] == card_key[b]:
            return np.int64(0) if ri[K.R_NEG_PAIRS_KEEP] == 0 or card_value[a] >= 0 or \
                card_value[b] >= 0 else (card_value[a] + card_value[b]) * n
        return (card_value[a] + card_value[b]) * n
    if a >= 0:
        return card_value[a] * n + S
    if b >= 0:
        return card_value[b] * n + S
    return 2 * S


@hot
def _layout_estimate_nb(known, seat, at, card, n, S, ri, card_value, card_key):
    """n times the estimated layout score for pair scopes other than 2-row columns, with
    ``card`` imagined at position ``at`` (at = -1: as it is). Unknown cards count S/n and pair
    with nothing; known cards pair among themselves by key."""
    npos = ri[K.R_NPOS]
    scope = ri[K.R_PAIR_SCOPE]
    cols = ri[K.R_COLS]
    total = np.int64(0)
    used = 0
    for p in range(npos):
        x = card if p == at else known[seat, seat, p]
        if x < 0:
            total += S
            continue
        if (used >> p) & 1:
            continue
        partner = -1
        if scope != K.PAIR_NONE:
            for q in range(p + 1, npos):
                y = card if q == at else known[seat, seat, q]
                if y >= 0 and not (used >> q) & 1 and card_key[y] == card_key[x] and \
                        (scope == K.PAIR_ANYWHERE or q % cols == p % cols):
                    partner = q
                    break
        if partner >= 0:
            used |= 1 << partner
        else:
            total += card_value[x] * n
    return total


@hot
def best_placement_nb(card, known, seat, up, n, S, ri, card_value, card_key):
    """BENCHMARK W1's placement rule generalised: the legal position with the largest gain
    n*G(p) among eligible ones (G >= 1 over a known card, G >= 0 over an unknown one), ties to
    the lowest position; -1 if none is eligible."""
    npos = ri[K.R_NPOS]
    best = -1
    best_gain = np.int64(0)
    if ri[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and ri[K.R_ROWS] == 2:
        cols = ri[K.R_COLS]
        for p in range(npos):
            if not can_replace_nb(up, seat, p, ri):
                continue
            c = p % cols
            top = known[seat, seat, c]
            bottom = known[seat, seat, c + cols]
            other = bottom if p < cols else top
            before = _column_estimate_nb(top, bottom, n, S, ri, card_value, card_key)
            after = _column_estimate_nb(card, other, n, S, ri, card_value, card_key)
            gain = before - after
            need = n if known[seat, seat, p] >= 0 else 0
            if gain >= need and (best < 0 or gain > best_gain):
                best = p
                best_gain = gain
        return best
    before = _layout_estimate_nb(known, seat, -1, -1, n, S, ri, card_value, card_key)
    for p in range(npos):
        if not can_replace_nb(up, seat, p, ri):
            continue
        gain = before - _layout_estimate_nb(known, seat, p, card, n, S, ri, card_value, card_key)
        need = n if known[seat, seat, p] >= 0 else 0
        if gain >= need and (best < 0 or gain > best_gain):
            best = p
            best_gain = gain
    return best


@hot
def greedy_nb(point, seat, held, pub, known, up, discard, legal, card_value, card_key, ri,
              params, memory, rng):
    """BENCHMARK W1 ``greedy``: card-counting, one-step placement gain."""
    if point == K.DP_TURN:
        if legal[K.A_TAKE_DISCARD]:
            # U = cards neither face up in a grid nor in the discard pile
            n = ri[K.R_NCARDS] - pub[K.PUB_FACEUP_N] - pub[K.PUB_DISCARD_N]
            S = ri[K.R_DECK_SUM] - pub[K.PUB_FACEUP_SUM] - pub[K.PUB_DISCARD_SUM]
            top = discard[pub[K.PUB_DISCARD_N] - 1]
            p = best_placement_nb(top, known, seat, up, n, S, ri, card_value, card_key) \
                if n > 0 else -1
            if p >= 0:
                memory[seat, MEM_PLANNED_POS] = p
                return K.A_TAKE_DISCARD
        if legal[K.A_DRAW_STOCK]:
            return K.A_DRAW_STOCK
        return lowest_legal_nb(legal, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_TAKEN:
        p = np.int64(memory[seat, MEM_PLANNED_POS])
        if p >= 0 and legal[p]:
            return p
        return lowest_legal_nb(legal, 0, K.MAX_POS)
    if point == K.DP_PLACE_DRAWN:
        n = ri[K.R_NCARDS] - pub[K.PUB_FACEUP_N] - pub[K.PUB_DISCARD_N] - 1
        S = ri[K.R_DECK_SUM] - pub[K.PUB_FACEUP_SUM] - pub[K.PUB_DISCARD_SUM] - card_value[held]
        p = best_placement_nb(held, known, seat, up, n, S, ri, card_value, card_key) \
            if n > 0 else -1
        if p >= 0:
            return p
        if legal[K.A_DISCARD]:
            return K.A_DISCARD
        return lowest_legal_nb(legal, 0, K.MAX_POS)
    if point == K.DP_FLIP and legal[K.A_PASS]:
        return K.A_PASS
    if point == K.DP_FACE:
        return K.A_FACE_UP
    return lowest_legal_nb(legal, 0, K.N_ACTIONS)


@hot
def decide_nb(policy, point, seat, held, pub, known, up, discard, legal, card_value, card_key,
              ri, params, memory, rng):
    if policy == POLICY_GREEDY:
        return greedy_nb(point, seat, held, pub, known, up, discard, legal, card_value, card_key,
                         ri, params, memory, rng)
    return random_nb(point, seat, held, pub, known, up, discard, legal, card_value, card_key,
                     ri, params, memory, rng)
