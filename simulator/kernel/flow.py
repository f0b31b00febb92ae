"""The game flow for the common family of rule sets, written once and compiled per build.

A build is this module compiled with the lines between the build markers below set for it:

- the lean build (this file as it is): every seat plays ``greedy`` or ``knock-threshold``,
  whose arithmetic runs inline from a cache of what each seat knows of its own layout, kept
  as the cards move. W1 and W2 run here, and lookahead's rollouts (``play_nb``);
- a user build (``policy_api.user_kernel`` writes the copy): every seat plays one user policy,
  compiled into the loop; each decision first publishes the views the policy reads
  (codes.G_*: the public counters, the legal mask, what every seat knows) exactly as the
  general engine shows them.

``USER`` is a module constant, so Numba drops the branches of the other build before it
compiles anything, and each build pays only for what it uses. The state is the general
engine's array ``g`` (codes.G_*), of which the flow touches ``g[:G_FLOW]``; the counters of
a round (stock, discard pile, face-up cards, turn, ender) live in local variables, and a user
build copies them into the public slots before it asks. The deal, the reshuffles, every
decision and the scores are the general engine's (tests/test_lean.py and
tests/test_user_kernel.py play both on the same seeds, rule set by rule set), so which build
plays a run never changes its results; ``eligible`` decides, and anything a build was not
written for goes to the general engine (simulator/kernel/features.py). Rules stay data: one
compiled build serves every eligible rule set.
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_BN, G_CHOSEN, G_DISCARD, G_EKN, G_EKS, G_EN, G_ES,
                                  G_FACE_DOWN, G_KK, G_KNOCK_T, G_KNOWN, G_KNOWN_N, G_KNOWN_SUM,
                                  G_KQ, G_KV, G_LAY, G_LEGAL, G_MEMORY, G_NEGQ, G_OWN, G_PLANNED,
                                  G_POLICY, G_PRIV, G_PUB, G_STOCK, G_U, G_UP, G_UPMASK, G_UQ,
                                  G_XN, MAX_IDS, MAX_PLAYERS, MAX_POS, POLICY_GREEDY,
                                  POLICY_KNOCK_THRESHOLD, POLICY_LOOKAHEAD, RT_KEY, RT_VALUE)
from simulator.kernel.estimate import best_scan_nb, estimate_cards_nb, trailing_zeros
from simulator.kernel.features import lacking, needed_from_ri
from simulator.kernel.jit import hot, ix
from simulator.kernel.lanes import GAIN_LIMIT, NO_KEY, POS_MASK, best_key, set_column
from simulator.kernel.rng import N_STREAMS, STREAM_DEAL, STREAM_SEAT0, shuffle_nb, stream_state_nb
from simulator.kernel.scoring import TMP_SIZE, hole_scores_nb, layout_values_nb
from simulator.kernel.tally import _add_hole_nb

# ---- the build: policy_api.user_kernel replaces these lines in each copy ----
USER = False


def _no_user(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
             params):
    return -1


user_decide = hot(_no_user, inline="always", cache=False)   # copied where it is asked
user_decide_call = hot(_no_user, cache=False)               # called (rare decisions)
# ---- end of the build ----

ERR_ILLEGAL_ACTION = 1   # as engine.ERR_ILLEGAL_ACTION (tests/test_user_kernel.py)

# lanes.set_column writes the six fields from G_XN at equal strides, in this order
assert (G_BN, G_KQ, G_NEGQ, G_U, G_UQ) == tuple(G_XN + k * (G_BN - G_XN) for k in range(1, 6))
assert MAX_POS <= POS_MASK + 1   # a 16-lane search covers every position


def eligible(ri: np.ndarray, policy_ids) -> bool:
    """Can the lean build play these rules and policies exactly as the general engine does?"""
    if any(int(p) not in (POLICY_GREEDY, POLICY_KNOCK_THRESHOLD) for p in policy_ids):
        return False
    return rules_eligible(ri)


def rules_eligible(ri: np.ndarray, build: str = "lean") -> bool:
    """Does the flow's ``build`` (lean, user_kernel, lookahead_rollout) play these rules? Only
    when it has every feature they need (simulator/kernel/features.py), so an option it was
    never written for is refused, not ignored."""
    return (
        not lacking(build, needed_from_ri(ri))
        and int(ri[K.R_NPOS]) <= MAX_POS
        # the searches' 32-bit lanes: |gain| <= 5 * cards * |value| must stay exact
        and 5 * int(ri[K.R_NCARDS]) * int(ri[K.R_MAX_ABS_VALUE]) < GAIN_LIMIT
    )


class FlowState:
    """Scratch arrays of one thread (the flow allocates nothing)."""

    def __init__(self, players: int):
        self.g = np.zeros(K.G_FLOW, dtype=np.int32)
        self.rng = np.zeros(N_STREAMS, dtype=np.uint64)
        self.out = np.zeros(K.N_OUT_SLOTS, dtype=np.int64)
        self.scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.L = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.quads = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.extra = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.tmp = np.zeros(TMP_SIZE, dtype=np.int64)

    def arrays(self):
        return (self.g, self.rng, self.out, self.scores, self.L, self.quads, self.extra,
                self.tmp)


@hot(inline="always")
def own(seat):
    """Where what ``seat`` knows of its own layout starts: its row of codes.G_KNOWN where
    policies read the views (a user build), else the compact codes.G_OWN."""
    if USER:
        return G_KNOWN + seat * (MAX_PLAYERS + 1) * MAX_POS
    return G_OWN + seat * MAX_POS


@hot(inline="always")
def known_at(obs, seat, p):
    return G_KNOWN + (obs * MAX_PLAYERS + seat) * MAX_POS + p


# ---- what may be replaced ---------------------------------------------------------------------
@hot(inline="always")
def _replaceable_mask(up, rt):
    """Bit p set when layout.can_replace_nb allows a new card at p, for a face-up mask."""
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
def _lowest_replaceable(g, rt, seat):
    rep = _replaceable_mask(g[ix(G_UPMASK + seat)], rt)
    return -1 if rep == 0 else trailing_zeros(rep)


# ---- what each seat knows of its own layout, cached for its policy ----------------------------
@hot(inline="always")
def _vector_scope(rt):
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
# Other pair scopes keep no cache: their searches read the known cards (_best_placement).
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
    # knock-threshold's estimate lets every known pair cancel (builtin._layout_estimate_nb)
    _set_estimate(g, rt, seat, i, (va + vb) * (1 - equal), 2 - ka - kb)


@hot
def _whole_estimate(g, rt, seat):
    """The pair scopes without a vector cache (_vector_scope) search from the known cards
    themselves (_best_placement); knock-threshold's estimate E*n = G_EN*n + G_ES*S is kept
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
    """The owner of (seat, p) now knows it holds ``card``."""
    i = own(seat) + p
    if USER:   # a user policy reads the views, not the cache
        g[ix(i)] = card
        return
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


# ---- card moves: each with the knowledge it creates ------------------------------------------
@hot(inline="always")
def _turn_up(g, rt, seat, p):
    """(seat, p) turns face up: everyone now knows it. Returns its value."""
    card = g[ix(G_LAY + seat * MAX_POS + p)]
    g[ix(G_UPMASK + seat)] |= 1 << p
    g[ix(G_FACE_DOWN + seat)] -= 1
    learn(g, rt, seat, p, card)
    if USER:
        g[ix(G_UP + seat * MAX_POS + p)] = 1
        for obs in range(rt[K.R_PLAYERS]):
            g[ix(known_at(obs, seat, p))] = card
    return rt[ix(RT_VALUE + card)]


@hot(inline="always")
def _put(g, rt, seat, p, card, face_up, public_card):
    """``card`` goes to (seat, p), face up or down; ``public_card``: everyone saw it (taken
    from the discard pile). Returns the card it replaces, which was face up when the seat's
    face-up mask had bit p before the call."""
    i = G_LAY + seat * MAX_POS + p
    old = g[ix(i)]
    bit = 1 << p
    up = g[ix(G_UPMASK + seat)]
    was_up = (up >> p) & 1   # data, so arithmetic rather than a branch
    g[ix(G_FACE_DOWN + seat)] -= 1 - was_up
    g[ix(i)] = card
    if face_up:
        g[ix(G_UPMASK + seat)] = up | bit
    else:
        g[ix(G_UPMASK + seat)] = up & ~bit
        g[ix(G_FACE_DOWN + seat)] += 1
    learn(g, rt, seat, p, card)
    if USER:
        g[ix(G_UP + seat * MAX_POS + p)] = 1 if face_up else 0
        for obs in range(rt[K.R_PLAYERS]):
            # a face-down card is known to its owner, and to all if it came from the discard
            g[ix(known_at(obs, seat, p))] = card if (face_up or obs == seat or public_card) \
                else -1
    return old


# ---- the deal ---------------------------------------------------------------------------------
@hot
def unknown_layout(g, rt, s):
    """Seat s knows none of its cards: its knowledge and the cache as _refresh would compute
    them for a layout of unknown cards, written directly."""
    _unknown_layouts(g, rt, s, 1)


@hot(inline="always")
def _unknown_layouts(g, rt, first, seats):
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
def _deal(g, rt, rng, seed, round_index):
    """Shuffle, deal position by position from the first player, and set what each seat
    knows; returns the stock's size."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    if USER:
        for s in range(players):
            rng[STREAM_SEAT0 + s] = stream_state_nb(seed, round_index, STREAM_SEAT0 + s)
        for i in range(K.N_PUB_SLOTS):
            g[ix(G_PUB + i)] = 0
        for i in range(players * K.MEMORY_SLOTS):
            g[ix(G_MEMORY + i)] = 0
        for s in range(players):
            for p in range(npos):
                g[ix(G_UP + s * MAX_POS + p)] = 0
            for obs in range(players):
                for p in range(npos):
                    g[ix(known_at(obs, s, p))] = -1
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    for i in range(ncards):
        g[ix(G_STOCK + i)] = rt[ix(K.RT_DECK + i)]
    shuffle_nb(g, G_STOCK, ncards, rng, STREAM_DEAL)
    n = ncards
    for p in range(npos):
        for s in range(players):
            n -= 1
            g[ix(G_LAY + s * MAX_POS + p)] = g[ix(G_STOCK + n)]
    if not USER:   # (a user build's views were cleared above, and it keeps no cache)
        _unknown_layouts(g, rt, 0, players)
    view_all = rt[K.R_OWNER_VIEW_ALL] != 0
    for s in range(players):
        g[ix(G_UPMASK + s)] = 0
        g[ix(G_FACE_DOWN + s)] = npos
        g[ix(G_PLANNED + s)] = 0
        if view_all:   # the owner holds its cards in hand and sees them all
            for p in range(npos):
                learn(g, rt, s, p, g[ix(G_LAY + s * MAX_POS + p)])
    return n


@hot
def copy_state_nb(dst, src, players, n_stock, n_disc):
    """dst = src for everything the lean build reads or writes, for ``players`` seats, a
    stock of ``n_stock`` and a discard pile of ``n_disc`` cards (the lookahead player restores
    one loaded deal before each move it tries: a copy instead of dealing it again)."""
    for i in range(G_LAY, G_LAY + players * MAX_POS):
        dst[ix(i)] = src[ix(i)]
    for field in range(G_OWN, G_UPMASK, MAX_PLAYERS * MAX_POS):
        for i in range(field, field + players * MAX_POS):
            dst[ix(i)] = src[ix(i)]
    for i in range(G_STOCK, G_STOCK + n_stock):
        dst[ix(i)] = src[ix(i)]
    for i in range(G_DISCARD, G_DISCARD + n_disc):
        dst[ix(i)] = src[ix(i)]
    for field in range(G_UPMASK, K.G_FLOW, MAX_PLAYERS):
        for i in range(field, field + players):
            dst[ix(i)] = src[ix(i)]
    for i in range(G_FACE_DOWN, G_FACE_DOWN + players):
        dst[ix(i)] = src[ix(i)]


# ---- asking a user policy (user builds) -------------------------------------------------------
@hot(inline="always")
def _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
             reshuffles):
    """The round's counters into the public slots a user policy reads."""
    g[ix(G_PUB + K.PUB_STOCK_N)] = n_stock
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n_disc
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] = sum_disc
    g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
    g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum
    g[ix(G_PUB + K.PUB_TURN)] = turn
    g[ix(G_PUB + K.PUB_ENDER)] = ender
    g[ix(G_PUB + K.PUB_FINAL_LEFT)] = final_left
    g[ix(G_PUB + K.PUB_KNOCKED)] = knocked
    g[ix(G_PUB + K.PUB_RESHUFFLES)] = reshuffles


@hot(inline="always")
def _checked(g, point, seat, a):
    """The policy's answer when legal; else -1, with the error described as
    engine._ask_nb describes it."""
    if a < 0 or a >= K.N_ACTIONS or g[ix(G_LEGAL + a)] == 0:
        g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_ILLEGAL_ACTION
        g[ix(G_PRIV + K.PRIV_ERR_SEAT)] = seat
        g[ix(G_PRIV + K.PRIV_ERR_POINT)] = point
        g[ix(G_PRIV + K.PRIV_ERR_ACTION)] = a
        return -1
    return a


@hot(inline="always")
def _ask(g, rt, rng, par, point, seat, held, often):
    """The user policy's answer at a decision (its views published), or -1 when illegal.
    ``often``: a decision of every turn, copied inline; the rare ones call one copy (each
    inlined copy of the policy adds to the compile)."""
    g[ix(G_PUB + K.PUB_ACTOR)] = seat
    known = G_KNOWN + seat * MAX_PLAYERS * MAX_POS
    memory = G_MEMORY + seat * K.MEMORY_SLOTS
    public = g[G_PUB:G_PUB + K.N_PUB_SLOTS + MAX_PLAYERS]
    legal = g[G_LEGAL:G_LEGAL + K.N_ACTIONS]
    sees = g[known:known + MAX_PLAYERS * MAX_POS]
    faceup = g[G_UP:G_UP + MAX_PLAYERS * MAX_POS]
    pile = g[G_DISCARD:G_DISCARD + MAX_IDS]
    mine = g[memory:memory + K.MEMORY_SLOTS]
    stream = rng[STREAM_SEAT0 + seat:STREAM_SEAT0 + seat + 1]
    if often:
        a = user_decide(point, seat, held, public, legal, sees, faceup, pile, mine, rt, stream,
                        par[seat])
    else:
        a = user_decide_call(point, seat, held, public, legal, sees, faceup, pile, mine, rt,
                             stream, par[seat])
    return _checked(g, point, seat, a)


@hot(inline="always")
def _clear(g):
    for a in range(K.N_ACTIONS):
        g[ix(G_LEGAL + a)] = 0


@hot(inline="always")
def _mask_positions(g, rt, mask):
    """The legal mask: the positions of bit mask ``mask``."""
    _clear(g)
    for p in range(rt[K.R_NPOS]):
        g[ix(G_LEGAL + p)] = (mask >> p) & 1


# ---- the initial reveal -----------------------------------------------------------------------
@hot(inline="always")
def _revealable(g, rt, seat, taken):
    """Bit p set when the seat may still reveal p: face down, not known, not in ``taken``
    (the picks so far), in the nearest row when the constraint says so."""
    first = 0
    if rt[K.R_REVEAL_CONSTRAINT] == K.CON_NEAREST_ROW:
        first = (rt[K.R_ROWS] - 1) * rt[K.R_COLS]
    mask = 0
    for p in range(first, rt[K.R_NPOS]):
        mask |= np.int64(g[ix(own(seat) + p)] < 0) << p
    return mask & ~g[ix(G_UPMASK + seat)] & ~taken


@hot(inline="always")
def _reveal(g, rt, seat, p):
    """Peek at or flip (seat, p); returns the value it adds to the face-up cards (0 for a
    peek)."""
    if rt[K.R_REVEAL_MODE] == K.REVEAL_PEEK:
        learn(g, rt, seat, p, g[ix(G_LAY + seat * MAX_POS + p)])
        return 0
    return _turn_up(g, rt, seat, p)


@hot(inline="always")
def _initial_reveal(g, rt, rng, par, n_stock, n_disc, sum_disc):
    """Flip or peek, seat by seat from the first player. With sequential choice each card is
    seen before the next is chosen; otherwise a seat's cards (or, with simultaneous order,
    everyone's) are revealed after all of them are chosen. Built-in seats take the lowest
    position each time. Returns (face-up cards, their value sum, ok)."""
    up_n = 0
    up_sum = 0
    count = rt[K.R_REVEAL_COUNT]
    mode = rt[K.R_REVEAL_MODE]
    if (mode != K.REVEAL_FLIP and mode != K.REVEAL_PEEK) or count == 0:
        return up_n, up_sum, True
    flip = np.int64(mode == K.REVEAL_FLIP)
    players = rt[K.R_PLAYERS]
    simultaneous = rt[K.R_REVEAL_SIMULTANEOUS] != 0
    sequential = rt[K.R_REVEAL_SEQUENTIAL] != 0 and not simultaneous
    for seat in range(players):
        chosen = G_CHOSEN + seat * MAX_POS
        n = 0
        taken = 0
        for i in range(count):
            mask = _revealable(g, rt, seat, taken)
            if mask == 0:
                break
            if USER:
                _mask_positions(g, rt, mask)
                _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0)
                p = _ask(g, rt, rng, par, K.DP_REVEAL, seat, -1, False)
                if p < 0:
                    return up_n, up_sum, False
            else:
                p = trailing_zeros(mask)
            g[ix(chosen + n)] = p
            taken |= 1 << p
            n += 1
            if sequential:
                up_sum += _reveal(g, rt, seat, p)
                up_n += flip
        g[ix(chosen + MAX_POS - 1)] = n
        if not sequential and not simultaneous:
            for i in range(n):
                up_sum += _reveal(g, rt, seat, g[ix(chosen + i)])
                up_n += flip
    if simultaneous:
        for seat in range(players):
            chosen = G_CHOSEN + seat * MAX_POS
            for i in range(g[ix(chosen + MAX_POS - 1)]):
                up_sum += _reveal(g, rt, seat, g[ix(chosen + i)])
                up_n += flip
    return up_n, up_sum, True


# ---- the built-in policies' decisions (lean build) --------------------------------------------
@hot(inline="always")
def _best_placement(g, rt, seat, card, n, S, vector):
    """builtin.best_placement_nb from the cache: the replaceable position with the largest
    gain, eligible when it is >= n over a known card and >= 0 over an unknown one, ties to the
    lowest position; -1 when none is eligible. ``vector``: _vector_scope(rt)."""
    i = seat * MAX_POS
    rep = _replaceable_mask(g[ix(G_UPMASK + seat)], rt)
    if not vector:
        return best_scan_nb(g, own(seat), g, 0, 0, rt, rep, card, n, S)
    vc = rt[ix(RT_VALUE + card)]
    kc = rt[ix(RT_KEY + card)]
    key = best_key(g, rt[K.R_NPOS], G_XN + i, G_BN + i, G_KQ + i, G_NEGQ + i, G_U + i,
                   G_UQ + i, rep, kc, vc * n, vc < 0, n, S)
    return -1 if key < 0 else POS_MASK - (key & POS_MASK)


@hot(inline="always")
def _seat_policies(g, par, players, triggers):
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
def _unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum):
    """(n, S): the cards the seat's policy counts as unseen and their value sum."""
    if g[ix(G_POLICY + seat)] == POLICY_KNOCK_THRESHOLD:
        return (rt[K.R_NCARDS] - n_disc - g[ix(G_KNOWN_N + seat)],
                rt[K.R_DECK_SUM] - sum_disc - g[ix(G_KNOWN_SUM + seat)])
    return rt[K.R_NCARDS] - up_n - n_disc, rt[K.R_DECK_SUM] - up_sum - sum_disc


@hot(inline="always")
def _builtin_turn(g, rt, par, seat, n, S, top, draw_ok, take_ok, knock_ok, vector):
    """greedy's or knock-threshold's action at the start of a turn; a discard to take goes to
    the position kept in G_PLANNED."""
    if g[ix(G_POLICY + seat)] == POLICY_KNOCK_THRESHOLD and knock_ok and n > 0:
        en = g[ix(G_EN + seat)] * n + g[ix(G_ES + seat)] * S
        t = g[ix(G_KNOCK_T + seat)]
        if (en <= t * n) if t != NO_KEY else (en <= par[seat, 1] * n):
            return K.A_KNOCK
    if take_ok and n > 0:
        p = _best_placement(g, rt, seat, top, n, S, vector)
        if p >= 0:
            g[ix(G_PLANNED + seat)] = p
            return K.A_TAKE_DISCARD
    return K.A_DRAW_STOCK if draw_ok else (K.A_TAKE_DISCARD if take_ok else K.A_KNOCK)


# ---- one round --------------------------------------------------------------------------------
# the round's steps are inlined into the chunk loop: a call passes seven machine words per
# array argument, and these run once a round (together 1.07x on W2)
@hot(inline="always")
def round_nb(seed, round_index, rt, par, g, rng, out, scores, L, quads, extra, tmp):
    """Play one round; fills ``scores``, ``L`` and ``out`` like engine.play_round_nb. False
    after a user policy's illegal action (described in ``out``)."""
    if USER:
        for i in range(K.N_PRIV):
            g[ix(G_PRIV + i)] = 0
    n_stock = _deal(g, rt, rng, seed, round_index)
    n_disc = 0
    sum_disc = 0
    if rt[K.R_INITIAL_TURN_UP] != 0:  # else the pile starts empty (initial_discard = none)
        n_stock -= 1
        g[ix(G_DISCARD)] = g[ix(G_STOCK + n_stock)]
        n_disc = 1
        sum_disc = rt[ix(RT_VALUE + g[G_DISCARD])]
    up_n, up_sum, ok = _initial_reveal(g, rt, rng, par, n_stock, n_disc, sum_disc)
    turn, ender, knocked, capped, reshuffles = 0, -1, 0, 0, 0
    if ok:
        turn, ender, knocked, capped, reshuffles = play_nb(
            g, rt, par, rng, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0, -1,
            -1)
        ok = capped >= 0
    if USER:
        out[K.OUT_ERROR] = g[ix(G_PRIV + K.PRIV_ERROR)]
        out[K.OUT_ERR_SEAT] = g[ix(G_PRIV + K.PRIV_ERR_SEAT)]
        out[K.OUT_ERR_POINT] = g[ix(G_PRIV + K.PRIV_ERR_POINT)]
        out[K.OUT_ERR_ACTION] = g[ix(G_PRIV + K.PRIV_ERR_ACTION)]
    else:
        out[K.OUT_ERROR] = 0
    out[K.OUT_LOG_N] = -1
    if not ok:
        return False
    score_nb(g, rt, ender, knocked, scores, L, quads, extra, tmp)
    out[K.OUT_TURNS] = turn
    out[K.OUT_CAPPED] = capped
    out[K.OUT_ENDER] = ender
    out[K.OUT_RESHUFFLES] = reshuffles
    out[K.OUT_KNOCKED] = knocked
    return True


@hot
def play_nb(g, rt, par, rng, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos):
    """Play turns from ``seat`` to the end of the round, from the state in ``g`` and the
    counters given. ``forced`` >= 0 makes the first turn's move instead of the seat's policy
    (the lookahead player's candidates): A_KNOCK; A_TAKE_DISCARD placed at ``forced_pos``;
    A_DRAW_STOCK with the drawn card placed at ``forced_pos``, discarded when it is A_DISCARD,
    or as the policy decides when it is -1. Returns (turns, ender, knocked, capped,
    reshuffles); capped is -1 after a user policy's illegal action."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    capped = 0
    cap = rt[K.R_TURN_CAP]
    triggers = rt[K.R_END_TRIGGERS]
    reshuffle = rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE
    face_rule = rt[K.R_PLACEMENT_FACE]
    vector = _vector_scope(rt)
    if not USER:
        _seat_policies(g, par, players, triggers)
    while True:
        final_lap = ender >= 0
        draw_ok = n_stock > 0 or (reshuffle and n_disc > 1)
        take_ok = rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
            not (final_lap and rt[K.R_FINAL_STOCK_ONLY] != 0) and \
            _lowest_replaceable(g, rt, seat) >= 0
        knock_ok = (triggers & K.END_KNOCK) != 0 and not final_lap and \
            turn >= rt[K.R_KNOCK_MIN_LAPS] * players
        if not (draw_ok or take_ok or knock_ok):
            break
        if USER:
            _clear(g)
            g[ix(G_LEGAL + K.A_DRAW_STOCK)] = draw_ok
            g[ix(G_LEGAL + K.A_TAKE_DISCARD)] = take_ok
            g[ix(G_LEGAL + K.A_KNOCK)] = knock_ok
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            action = _ask(g, rt, rng, par, K.DP_TURN, seat, -1, True)
            if action < 0:
                return turn, ender, knocked, -1, reshuffles
            n = 0
            S = 0
        else:
            n, S = _unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum)
            action = forced
            if action < 0:
                action = _builtin_turn(g, rt, par, seat, n, S,
                                       g[ix(G_DISCARD + n_disc - 1)] if n_disc > 0 else -1,
                                       draw_ok, take_ok, knock_ok, vector)

        card = -1
        public = True
        if action == K.A_DRAW_STOCK:
            if n_stock == 0:  # the discard pile but its top becomes the stock
                n_stock = n_disc - 1
                for i in range(n_stock):
                    g[ix(G_STOCK + i)] = g[ix(G_DISCARD + i)]
                top = g[ix(G_DISCARD + n_stock)]
                g[ix(G_DISCARD)] = top
                n_disc = 1
                sum_disc = rt[ix(RT_VALUE + top)]
                reshuffles += 1
                shuffle_nb(g, G_STOCK, n_stock, rng, STREAM_DEAL)
                if not USER:
                    n, S = _unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum)
            n_stock -= 1
            card = g[ix(G_STOCK + n_stock)]
            public = rt[K.R_PRIVATE_STOCK] == 0  # private_stock_draw = false: everyone sees it
            if USER:
                if public:
                    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
                _mask_positions(g, rt, _replaceable_mask(g[ix(G_UPMASK + seat)], rt))
                g[ix(G_LEGAL + K.A_DISCARD)] = rt[K.R_STOCK_MAY_DISCARD] != 0
                _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                         knocked, reshuffles)
                b = _ask(g, rt, rng, par, K.DP_PLACE_DRAWN, seat, card, True)
                if b < 0:
                    return turn, ender, knocked, -1, reshuffles
                p = -1 if b == K.A_DISCARD else b
            else:
                if forced >= 0 and forced_pos >= 0:
                    p = -1 if forced_pos == K.A_DISCARD else forced_pos
                else:
                    p = _best_placement(g, rt, seat, card, n - 1, S - rt[ix(RT_VALUE + card)],
                                        vector) if n - 1 > 0 else -1
                if p < 0 and rt[K.R_STOCK_MAY_DISCARD] == 0:
                    p = _lowest_replaceable(g, rt, seat)
            if p < 0:
                if USER:
                    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
                g[ix(G_DISCARD + n_disc)] = card
                n_disc += 1
                sum_disc += rt[ix(RT_VALUE + card)]
                card = -1
        elif action == K.A_TAKE_DISCARD:
            n_disc -= 1
            card = g[ix(G_DISCARD + n_disc)]
            sum_disc -= rt[ix(RT_VALUE + card)]
            if USER:
                g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
                _mask_positions(g, rt, _replaceable_mask(g[ix(G_UPMASK + seat)], rt))
                _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                         knocked, reshuffles)
                p = _ask(g, rt, rng, par, K.DP_PLACE_TAKEN, seat, card, True)
                g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1   # as the engine: before the face
                if p < 0:
                    return turn, ender, knocked, -1, reshuffles
            else:
                p = forced_pos if forced >= 0 else g[ix(G_PLANNED + seat)]
                if not (p >= 0 and p < npos and
                        (_replaceable_mask(g[ix(G_UPMASK + seat)], rt) >> p) & 1):
                    p = _lowest_replaceable(g, rt, seat)
        else:  # knock
            ender = seat
            knocked = 1
            final_left = _final_turns(rt, seat, players)
            up_n, up_sum = _reveal_on_trigger(g, rt, seat, players, npos, up_n, up_sum)

        if card >= 0:  # place it at p; the old card goes face up onto the discard pile
            face_up = face_rule != K.FACE_DOWN  # player_choice: the built-ins choose face up
            was_up = (g[ix(G_UPMASK + seat)] >> p) & 1
            if USER and face_rule == K.FACE_CHOICE and was_up == 0:
                _clear(g)
                g[ix(G_LEGAL + K.A_FACE_UP)] = 1
                g[ix(G_LEGAL + K.A_FACE_DOWN)] = 1
                _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
                         final_left, knocked, reshuffles)
                f = _ask(g, rt, rng, par, K.DP_FACE, seat, card, False)
                if f < 0:
                    return turn, ender, knocked, -1, reshuffles
                face_up = f == K.A_FACE_UP
            old = _put(g, rt, seat, p, card, face_up, public)
            if USER:
                g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
            up_n += np.int64(face_up) - was_up
            up_sum += np.int64(face_up) * rt[ix(RT_VALUE + card)] - \
                was_up * rt[ix(RT_VALUE + old)]
            g[ix(G_DISCARD + n_disc)] = old
            n_disc += 1
            sum_disc += rt[ix(RT_VALUE + old)]
        turn += 1
        if final_lap:
            final_left -= 1
        elif ender < 0:
            if (triggers & K.END_ALL_FACE_UP) != 0 and g[ix(G_FACE_DOWN + seat)] == 0:
                ender = seat
                final_left = _final_turns(rt, seat, players)
                up_n, up_sum = _reveal_on_trigger(g, rt, seat, players, npos, up_n, up_sum)
            elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
                all_up = True
                for s in range(players):
                    if g[ix(G_FACE_DOWN + s)] != 0:
                        all_up = False
                if all_up:
                    ender = seat
                    final_left = 0
        if ender >= 0 and final_left <= 0:
            break
        if not reshuffle and n_stock == 0:
            break
        if turn >= cap:
            capped = 1
            break
        forced = -1
        seat += 1
        if seat == players:
            seat = 0
    return turn, ender, knocked, capped, reshuffles


@hot(inline="always")
def score_nb(g, rt, ender, knocked, scores, L, quads, extra, tmp):
    players = rt[K.R_PLAYERS]
    layout_values_nb(g, G_LAY, rt, players, L, quads, tmp)
    for s in range(players):
        extra[s] = 0
    hole_scores_nb(L, quads, ender, knocked == 1, players, rt, extra, scores)


@hot(inline="always")
def _final_turns(rt, seat, players):
    ft = rt[K.R_FINAL_TURNS]
    if ft == K.FINAL_NONE:
        return 0
    if ft == K.FINAL_EACH_OTHER:
        return players - 1
    return players - 1 - seat   # complete the lap: the seats after the ender up to the dealer


@hot
def _reveal_on_trigger(g, rt, seat, players, npos, up_n, up_sum):
    """reveal_on_trigger: the others turn all their cards up when the end is triggered."""
    if rt[K.R_REVEAL_ON_TRIGGER] == 0:
        return up_n, up_sum
    for s in range(players):
        if s == seat:
            continue
        for p in range(npos):
            if (g[ix(G_UPMASK + s)] >> p) & 1 == 0:
                up_sum += _turn_up(g, rt, s, p)
                up_n += 1
    return up_n, up_sum


@hot
def chunk_nb(seed, start, count, rt, par, g, rng, out, scores, L, quads, extra, tmp,
             acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts):
    """engine.play_chunk_nb with this build's round (no invariant checks: use the general
    engine with check=True for those). Returns the rounds played (fewer only after a user
    policy's illegal action, described in ``out``)."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    keep_scores = per_round_scores.shape[0] == count
    keep_layouts = per_round_layouts.shape[0] == count
    for i in range(count):
        if not round_nb(seed, start + i, rt, par, g, rng, out, scores, L, quads, extra, tmp):
            return i
        _add_hole_nb(0, scores, out, acc, tot, hist, players)
        if keep_scores:
            for s in range(players):
                per_round_scores[i, s] = scores[s]
            per_round_turns[i] = out[K.OUT_TURNS]
        if keep_layouts:
            for s in range(players):
                for p in range(npos):
                    per_round_layouts[i, s, p] = g[ix(G_LAY + s * MAX_POS + p)]
    return count
