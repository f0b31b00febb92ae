"""The lean kernel: the very same rounds as ``engine.play_round_nb`` for the common family of
rule sets when every seat plays a deterministic built-in (``greedy`` or ``knock-threshold``).

The general engine pays for its generality on every turn: a legal-action mask written to
memory, knowledge kept for every observer, a policy called through a dispatcher at each of the
decision points. Here the whole turn is one loop over local counters, each seat keeps only the
knowledge its policy reads (its own positions), and the two policies' arithmetic runs inline.
The deal, the reshuffles, every decision and the scores are identical to the general engine's
(tests/test_lean.py plays both on the same seeds, rule set by rule set), so which kernel plays
a run never changes its results; ``eligible`` decides, and anything it refuses goes to the
general engine. Rules stay data: one compiled kernel serves every eligible rule set.
"""

from __future__ import annotations

import numpy as np

from ..game import codes as K
from ..game.codes import (MAX_IDS, MAX_PLAYERS, MAX_POS, POLICY_GREEDY, POLICY_KNOCK_THRESHOLD,
                          POLICY_LOOKAHEAD, RT_KEY, RT_VALUE)
from .estimate import best_scan_nb, estimate_cards_nb
from .features import lacking, needed_from_ri
from .tally import _add_hole_nb
from .jit import hot, ix
from .lanes import GAIN_LIMIT, NO_KEY, POS_MASK, best_key, set_column
from .rng import STREAM_DEAL, shuffle_nb, stream_state_nb
from .scoring import hole_scores_nb, layout_values_nb

# ---- the lean state array w (int32) -----------------------------------------------------------
W_LAY = 0                                   # [seat*MAX_POS + p]: card (first, so it reshapes)
W_KNOWN = W_LAY + MAX_PLAYERS * MAX_POS     # [seat*MAX_POS + p]: the owner's knowledge, or -1
W_KV = W_KNOWN + MAX_PLAYERS * MAX_POS      # [seat*MAX_POS + p]: value of the known card, or 0
W_KK = W_KV + MAX_PLAYERS * MAX_POS         # [seat*MAX_POS + p]: key of the known card, or NO_KEY
# the policies' cache (see _refresh), one field per array of MAX_POS lanes a seat,
# w[W_field + seat*MAX_POS + p], so that a decision loads each field for all positions at once
# (lanes.py); a 16-lane search covers every position
assert MAX_POS <= POS_MASK + 1
W_XN = W_KK + MAX_PLAYERS * MAX_POS
W_BN = W_XN + MAX_PLAYERS * MAX_POS
W_KQ = W_BN + MAX_PLAYERS * MAX_POS         # key of the known card it pairs with, else NO_KEY
W_NEGQ = W_KQ + MAX_PLAYERS * MAX_POS
W_U = W_NEGQ + MAX_PLAYERS * MAX_POS        # -1 when the position's card is unknown, else 0
W_UQ = W_U + MAX_PLAYERS * MAX_POS          # the same for the other card of its column
# lanes.set_column writes the six fields from W_XN at equal strides, in this order
assert (W_BN, W_KQ, W_NEGQ, W_U, W_UQ) == tuple(W_XN + k * (W_BN - W_XN) for k in range(1, 6))
W_EKN = W_UQ + MAX_PLAYERS * MAX_POS  # its share of knock-threshold's estimate
W_EKS = W_EKN + MAX_PLAYERS * MAX_POS
W_STOCK = W_EKS + MAX_PLAYERS * MAX_POS     # [i], top at the end
W_DISCARD = W_STOCK + MAX_IDS               # [i], top at the end
W_UP = W_DISCARD + MAX_IDS                  # [seat]: bit p set when position p is face up
W_DOWN = W_UP + MAX_PLAYERS                 # [seat]: face-down cards
W_KNOWN_N = W_DOWN + MAX_PLAYERS            # [seat]: own positions known, and their value sum
W_KNOWN_SUM = W_KNOWN_N + MAX_PLAYERS
W_PLANNED = W_KNOWN_SUM + MAX_PLAYERS       # [seat]: position chosen before taking the discard
W_EN = W_PLANNED + MAX_PLAYERS              # [seat]: knock-threshold's estimate E*n is
W_ES = W_EN + MAX_PLAYERS                   # W_EN*n + W_ES*S
W_POLICY = W_ES + MAX_PLAYERS               # [seat]: the policy the seat plays here
W_KNOCK_T = W_POLICY + MAX_PLAYERS          # [seat]: knock-threshold's T when whole, else NO_KEY
W_SIZE = W_KNOCK_T + MAX_PLAYERS


def eligible(ri: np.ndarray, policy_ids) -> bool:
    """Can the lean kernel play these rules and policies exactly as the general engine does?"""
    if any(int(p) not in (POLICY_GREEDY, POLICY_KNOCK_THRESHOLD) for p in policy_ids):
        return False
    return rules_eligible(ri)


def rules_eligible(ri: np.ndarray, build: str = "lean") -> bool:
    """Does the lean kernel (or ``build``, one of the builds on its turn steps: the user
    kernel, lookahead's rollouts) play these rules? Only when it has every feature they need
    (simulator/kernel/features.py), so an option it was never written for is refused, not ignored."""
    return (
        not lacking(build, needed_from_ri(ri))
        and int(ri[K.R_NPOS]) <= MAX_POS
        # the searches' 32-bit lanes: |gain| <= 5 * cards * |value| must stay exact
        and 5 * int(ri[K.R_NCARDS]) * int(ri[K.R_MAX_ABS_VALUE]) < GAIN_LIMIT
    )


class LeanState:
    """Scratch arrays of one thread (the kernel allocates nothing)."""

    def __init__(self, players: int):
        self.w = np.zeros(W_SIZE, dtype=np.int32)
        self.rng = np.zeros(1, dtype=np.uint64)
        self.out = np.zeros(K.N_OUT_SLOTS, dtype=np.int64)
        self.scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.L = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.quads = np.zeros(MAX_PLAYERS, dtype=np.int64)
        self.extra = np.zeros(MAX_PLAYERS, dtype=np.int64)
        from .scoring import TMP_SIZE
        self.tmp = np.zeros(TMP_SIZE, dtype=np.int64)

    def arrays(self):
        return (self.w, self.rng, self.out, self.scores, self.L, self.quads, self.extra,
                self.tmp)


# ---- state changes ----------------------------------------------------------------------------
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
def _refresh(w, rt, seat, p):
    """Recompute the cache of position p and of the position that pairs with it."""
    base = seat * MAX_POS
    scope = rt[K.R_PAIR_SCOPE]
    if scope != K.PAIR_COLUMN:
        if scope != K.PAIR_NONE:
            _whole_estimate(w, rt, seat)
            return
        i = base + p
        known = np.int64(w[ix(W_KNOWN + i)] >= 0)
        w[ix(W_XN + i)] = w[ix(W_KV + i)]
        w[ix(W_KQ + i)] = NO_KEY
        w[ix(W_U + i)] = known - 1
        _set_estimate(w, rt, seat, i, w[ix(W_KV + i)], 1 - known)
        return
    if rt[K.R_ROWS] != 2:
        _whole_estimate(w, rt, seat)
        return
    cols = rt[K.R_COLS]
    keep = np.int64(rt[K.R_NEG_PAIRS_KEEP] != 0)
    top = p - cols * np.int64(p >= cols)  # two rows (checked above): no division or branch
    i = base + top
    j = i + cols
    va = w[ix(W_KV + i)]
    vb = w[ix(W_KV + j)]
    ka = np.int64(w[ix(W_KNOWN + i)] >= 0)
    kb = np.int64(w[ix(W_KNOWN + j)] >= 0)
    kka = w[ix(W_KK + i)]
    kkb = w[ix(W_KK + j)]
    equal = set_column(w, W_XN, W_BN - W_XN, i, j, va, vb, ka, kb, kka, kkb, keep)
    # knock-threshold's estimate lets every known pair cancel (builtin._layout_estimate_nb)
    _set_estimate(w, rt, seat, i, (va + vb) * (1 - equal), 2 - ka - kb)


@hot
def _whole_estimate(w, rt, seat):
    """The pair scopes without a vector cache (_vector_scope) search from the known cards
    themselves (_best_placement); knock-threshold's estimate E*n = W_EN*n + W_ES*S is kept
    whole instead of per position: W_EN the known cards' values less those paired as
    estimate.estimate_cards_nb pairs them, W_ES the unknown ones."""
    if (rt[K.R_END_TRIGGERS] & K.END_KNOCK) == 0:
        return  # only a knock decision reads it
    w[ix(W_EN + seat)] = estimate_cards_nb(w, W_KNOWN + seat * MAX_POS, w, 0, 0, rt, -1, -1,
                                           1, 0)
    w[ix(W_ES + seat)] = rt[K.R_NPOS] - w[ix(W_KNOWN_N + seat)]


@hot(inline="always")
def _set_estimate(w, rt, seat, i, en, es):
    """Position i now adds en*n + es*S to the seat's estimated score."""
    if (rt[K.R_END_TRIGGERS] & K.END_KNOCK) == 0:
        return  # only a knock decision reads it
    w[ix(W_EN + seat)] += en - w[ix(W_EKN + i)]
    w[ix(W_ES + seat)] += es - w[ix(W_EKS + i)]
    w[ix(W_EKN + i)] = en
    w[ix(W_EKS + i)] = es


@hot(inline="always")
def _learn(w, rt, seat, p, card):
    """The owner of (seat, p) now knows it holds ``card``."""
    i = W_KNOWN + seat * MAX_POS + p
    # whether the position was known is data: arithmetic instead of a branch (a known card's
    # value is already in W_KV, an unknown one's is 0 there)
    was = np.int64(w[ix(i)] >= 0)
    v = rt[ix(RT_VALUE + card)]
    w[ix(W_KNOWN_N + seat)] += 1 - was
    w[ix(W_KNOWN_SUM + seat)] += v - w[ix(W_KV + seat * MAX_POS + p)]
    w[ix(i)] = card
    w[ix(W_KV + seat * MAX_POS + p)] = v
    w[ix(W_KK + seat * MAX_POS + p)] = rt[ix(RT_KEY + card)]
    _refresh(w, rt, seat, p)


@hot(inline="always")
def _best_placement(w, rt, seat, card, n, S, vector):
    """builtin.best_placement_nb from the cache: the replaceable position with the largest
    gain, eligible when it is >= n over a known card and >= 0 over an unknown one, ties to the
    lowest position; -1 when none is eligible. ``vector``: _vector_scope(rt)."""
    i = seat * MAX_POS
    rep = _replaceable_mask(w[ix(W_UP + seat)], rt)
    if not vector:
        return best_scan_nb(w, W_KNOWN + i, w, 0, 0, rt, rep, card, n, S)
    vc = rt[ix(RT_VALUE + card)]
    kc = rt[ix(RT_KEY + card)]
    key = best_key(w, rt[K.R_NPOS], W_XN + i, W_BN + i, W_KQ + i, W_NEGQ + i, W_U + i,
                   W_UQ + i, rep, kc, vc * n, vc < 0, n, S)
    return -1 if key < 0 else POS_MASK - (key & POS_MASK)


@hot(inline="always")
def _lowest_replaceable(w, rt, seat):
    rep = _replaceable_mask(w[ix(W_UP + seat)], rt)
    if rep == 0:
        return -1
    p = 0
    while (rep >> p) & 1 == 0:
        p += 1
    return p


@hot
def copy_state_nb(dst, src, players, n_stock, n_disc):
    """dst = src for everything _lean_play reads or writes, for ``players`` seats, a stock of
    ``n_stock`` and a discard pile of ``n_disc`` cards (the lookahead player restores one
    loaded deal before each move it tries: a copy instead of dealing it again)."""
    for field in range(W_LAY, W_STOCK, MAX_PLAYERS * MAX_POS):
        for i in range(field, field + players * MAX_POS):
            dst[ix(i)] = src[ix(i)]
    for i in range(W_STOCK, W_STOCK + n_stock):
        dst[ix(i)] = src[ix(i)]
    for i in range(W_DISCARD, W_DISCARD + n_disc):
        dst[ix(i)] = src[ix(i)]
    for field in range(W_UP, W_SIZE, MAX_PLAYERS):
        for i in range(field, field + players):
            dst[ix(i)] = src[ix(i)]


# ---- one round ---------------------------------------------------------------------------------
@hot
def unknown_layout(w, rt, s):
    """Seat s knows none of its cards: its knowledge and the cache as _refresh would compute
    them for a layout of unknown cards, written directly."""
    _unknown_layouts(w, rt, s, 1)


@hot(inline="always")
def _unknown_layouts(w, rt, first, seats):
    """unknown_layout for seats first..first+seats-1. Only the lanes a search reads are
    written, 4, 8 or 16 a field as in lanes.best_key: a count known when compiled becomes a
    few vector stores, where a variable one was a call to memset per field (4% of W2)."""
    npos = rt[K.R_NPOS]
    column = rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN
    cols = rt[K.R_COLS]
    for s in range(first, first + seats):
        w[ix(W_KNOWN_N + s)] = 0
        w[ix(W_KNOWN_SUM + s)] = 0
        w[ix(W_EN + s)] = 0
        w[ix(W_ES + s)] = npos
        if npos <= 4:
            _blank_seat(w, s * MAX_POS, 4, column, cols)
        elif npos <= 8:
            _blank_seat(w, s * MAX_POS, 8, column, cols)
        else:
            _blank_seat(w, s * MAX_POS, 16, column, cols)


@hot(inline="always")
def _blank_seat(w, b, lanes, column, cols):
    """One seat's unknown layout over its first ``lanes`` positions (a constant at each call:
    each field compiles to one vector store); a search never reads a lane past the layout."""
    _fill(w, W_KNOWN + b, lanes, -1)
    _fill(w, W_KV + b, lanes, 0)
    _fill(w, W_KK + b, lanes, NO_KEY)
    _fill(w, W_XN + b, lanes, 0)
    _fill(w, W_BN + b, lanes, 0)
    _fill(w, W_KQ + b, lanes, NO_KEY)
    _fill(w, W_NEGQ + b, lanes, 0)
    _fill(w, W_U + b, lanes, -1)
    _fill(w, W_UQ + b, lanes, -1)
    _fill(w, W_EKN + b, lanes, 0)
    # knock-threshold's estimate: a column of two unknown cards counts 2S at its top
    # position, a lone unknown card S
    if column:
        _fill(w, W_EKS + b, lanes, 0)
        for c in range(cols):
            w[ix(W_EKS + b + c)] = 2
    else:
        _fill(w, W_EKS + b, lanes, 1)


@hot(inline="always")
def _fill(w, start, count, value):
    for i in range(count):
        w[ix(start + i)] = value


@hot(inline="always")
def _deal(w, rt, rng, seed, round_index):
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    for i in range(ncards):
        w[ix(W_STOCK + i)] = rt[ix(K.RT_DECK + i)]
    shuffle_nb(w, W_STOCK, ncards, rng, STREAM_DEAL)
    n = ncards
    for p in range(npos):
        for s in range(players):
            n -= 1
            w[ix(W_LAY + s * MAX_POS + p)] = w[ix(W_STOCK + n)]
    view_all = rt[K.R_OWNER_VIEW_ALL] != 0
    _unknown_layouts(w, rt, 0, players)
    for s in range(players):
        w[ix(W_UP + s)] = 0
        w[ix(W_DOWN + s)] = npos
        w[ix(W_PLANNED + s)] = 0
        if view_all:
            for p in range(npos):
                _learn(w, rt, s, p, w[ix(W_LAY + s * MAX_POS + p)])
    return n


# the round's steps are inlined into the chunk loop: a call passes seven machine words per
# array argument, and these run once a round (together 1.07x on W2)
@hot(inline="always")
def lean_round_nb(seed, round_index, rt, par, w, rng, out, scores, L, quads, extra, tmp):
    """Play one round; fills ``scores``, ``L`` and ``out`` like engine.play_round_nb."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    n_stock = _deal(w, rt, rng, seed, round_index)
    n_disc = 0
    sum_disc = 0
    if rt[K.R_INITIAL_TURN_UP] != 0:  # else the pile starts empty (initial_discard = none)
        n_stock -= 1
        w[ix(W_DISCARD)] = w[ix(W_STOCK + n_stock)]
        n_disc = 1
        sum_disc = rt[ix(RT_VALUE + w[W_DISCARD])]
    up_n = 0
    up_sum = 0

    # initial reveal: both policies take the lowest legal position each time
    mode = rt[K.R_REVEAL_MODE]
    if mode == K.REVEAL_FLIP or mode == K.REVEAL_PEEK:
        first = 0
        if rt[K.R_REVEAL_CONSTRAINT] == K.CON_NEAREST_ROW:
            first = (rt[K.R_ROWS] - 1) * rt[K.R_COLS]
        for s in range(players):
            left = rt[K.R_REVEAL_COUNT]
            for p in range(first, npos):
                if left == 0:
                    break
                if w[ix(W_KNOWN + s * MAX_POS + p)] >= 0:
                    continue
                card = w[ix(W_LAY + s * MAX_POS + p)]
                _learn(w, rt, s, p, card)
                if mode == K.REVEAL_FLIP:
                    w[ix(W_UP + s)] |= 1 << p
                    w[ix(W_DOWN + s)] -= 1
                    up_n += 1
                    up_sum += rt[ix(RT_VALUE + card)]
                left -= 1

    turn, ender, knocked, capped, reshuffles = _lean_play(
        w, rt, par, rng, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0, -1, -1)
    _lean_score(w, rt, ender, knocked, scores, L, quads, extra, tmp)
    out[K.OUT_TURNS] = turn
    out[K.OUT_CAPPED] = capped
    out[K.OUT_ENDER] = ender
    out[K.OUT_RESHUFFLES] = reshuffles
    out[K.OUT_KNOCKED] = knocked
    out[K.OUT_ERROR] = 0
    return True


@hot
def _lean_play(w, rt, par, rng, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
               final_left, knocked, reshuffles, forced, forced_pos):
    """Play turns from ``seat`` to the end of the round, from the state in ``w`` and the
    counters given. ``forced`` >= 0 makes the first turn's move instead of the seat's policy
    (the lookahead player's candidates): A_KNOCK; A_TAKE_DISCARD placed at ``forced_pos``;
    A_DRAW_STOCK with the drawn card placed at ``forced_pos``, discarded when it is A_DISCARD,
    or as the policy decides when it is -1. Returns (turns, ender, knocked, capped,
    reshuffles)."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    deck_sum = rt[K.R_DECK_SUM]
    capped = 0
    cap = rt[K.R_TURN_CAP]
    triggers = rt[K.R_END_TRIGGERS]
    reshuffle = rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE
    face_rule = rt[K.R_PLACEMENT_FACE]
    vector = _vector_scope(rt)
    for s in range(players):  # read once: par is float and a conversion per turn shows
        policy = np.int64(par[s, 0])
        # the lookahead player models itself in its rollouts as knock-threshold with its own
        # T (par[seat, 1]) in knock games, else as greedy; any other policy as greedy
        if policy == POLICY_LOOKAHEAD and (triggers & K.END_KNOCK) != 0:
            policy = POLICY_KNOCK_THRESHOLD
        w[ix(W_POLICY + s)] = policy
        t = par[s, 1] if par.shape[1] > 1 else 0.0
        # a whole T compares exactly in integers (E*n <= T*n); any other in floats, as ever
        w[ix(W_KNOCK_T + s)] = np.int64(t) if t == np.floor(t) and abs(t) < (1 << 24) \
            else NO_KEY
    while True:
        final_lap = ender >= 0
        draw_ok = n_stock > 0 or (reshuffle and n_disc > 1)
        take_ok = rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
            not (final_lap and rt[K.R_FINAL_STOCK_ONLY] != 0) and \
            _lowest_replaceable(w, rt, seat) >= 0
        knock_ok = (triggers & K.END_KNOCK) != 0 and not final_lap and \
            turn >= rt[K.R_KNOCK_MIN_LAPS] * players
        if not (draw_ok or take_ok or knock_ok):
            break
        policy = w[ix(W_POLICY + seat)]
        if policy == POLICY_KNOCK_THRESHOLD:
            n = ncards - n_disc - w[ix(W_KNOWN_N + seat)]
            S = deck_sum - sum_disc - w[ix(W_KNOWN_SUM + seat)]
        else:
            n = ncards - up_n - n_disc
            S = deck_sum - up_sum - sum_disc
        action = forced
        if action < 0 and policy == POLICY_KNOCK_THRESHOLD and knock_ok and n > 0:
            en = w[ix(W_EN + seat)] * n + w[ix(W_ES + seat)] * S
            t = w[ix(W_KNOCK_T + seat)]
            if (en <= t * n) if t != NO_KEY else (en <= par[seat, 1] * n):
                action = K.A_KNOCK
        if action < 0:
            if take_ok and n > 0:
                p = _best_placement(w, rt, seat, w[ix(W_DISCARD + n_disc - 1)], n, S,
                                    vector)
                if p >= 0:
                    w[ix(W_PLANNED + seat)] = p
                    action = K.A_TAKE_DISCARD
            if action < 0:
                action = K.A_DRAW_STOCK if draw_ok else \
                    (K.A_TAKE_DISCARD if take_ok else K.A_KNOCK)

        card = -1
        if action == K.A_DRAW_STOCK:
            if n_stock == 0:  # the discard pile but its top becomes the stock
                n_stock = n_disc - 1
                for i in range(n_stock):
                    w[ix(W_STOCK + i)] = w[ix(W_DISCARD + i)]
                top = w[ix(W_DISCARD + n_stock)]
                w[ix(W_DISCARD)] = top
                n_disc = 1
                sum_disc = rt[ix(RT_VALUE + top)]
                reshuffles += 1
                shuffle_nb(w, W_STOCK, n_stock, rng, STREAM_DEAL)
                if policy == POLICY_KNOCK_THRESHOLD:
                    n = ncards - n_disc - w[ix(W_KNOWN_N + seat)]
                    S = deck_sum - sum_disc - w[ix(W_KNOWN_SUM + seat)]
                else:
                    n = ncards - up_n - n_disc
                    S = deck_sum - up_sum - sum_disc
            n_stock -= 1
            card = w[ix(W_STOCK + n_stock)]
            if forced >= 0 and forced_pos >= 0:
                p = -1 if forced_pos == K.A_DISCARD else forced_pos
            else:
                p = _best_placement(w, rt, seat, card, n - 1, S - rt[ix(RT_VALUE + card)],
                                    vector) if n - 1 > 0 else -1
            if p < 0:
                if rt[K.R_STOCK_MAY_DISCARD] != 0:
                    w[ix(W_DISCARD + n_disc)] = card
                    n_disc += 1
                    sum_disc += rt[ix(RT_VALUE + card)]
                    card = -1
                else:
                    p = _lowest_replaceable(w, rt, seat)
        elif action == K.A_TAKE_DISCARD:
            n_disc -= 1
            card = w[ix(W_DISCARD + n_disc)]
            sum_disc -= rt[ix(RT_VALUE + card)]
            p = forced_pos if forced >= 0 else w[ix(W_PLANNED + seat)]
            if not (p >= 0 and p < npos and
                    (_replaceable_mask(w[ix(W_UP + seat)], rt) >> p) & 1):
                p = _lowest_replaceable(w, rt, seat)
        else:  # knock
            ender = seat
            knocked = 1
            final_left = _final_turns(rt, seat, players)
            up_n, up_sum = _reveal_on_trigger(w, rt, seat, players, npos, up_n, up_sum)

        if card >= 0:  # place it at p; the old card goes face up onto the discard pile
            i = W_LAY + seat * MAX_POS + p
            old = w[ix(i)]
            bit = 1 << p
            up = w[ix(W_UP + seat)]
            was_up = (up >> p) & 1   # data, so arithmetic rather than a branch
            up_n -= was_up
            up_sum -= was_up * rt[ix(RT_VALUE + old)]
            w[ix(W_DOWN + seat)] -= 1 - was_up
            w[ix(i)] = card
            if face_rule != K.FACE_DOWN:  # player_choice: both policies choose face up
                w[ix(W_UP + seat)] = up | bit
                up_n += 1
                up_sum += rt[ix(RT_VALUE + card)]
            else:
                w[ix(W_UP + seat)] = up & ~bit
                w[ix(W_DOWN + seat)] += 1
            _learn(w, rt, seat, p, card)
            w[ix(W_DISCARD + n_disc)] = old
            n_disc += 1
            sum_disc += rt[ix(RT_VALUE + old)]
        turn += 1
        if final_lap:
            final_left -= 1
        elif ender < 0:
            if (triggers & K.END_ALL_FACE_UP) != 0 and w[ix(W_DOWN + seat)] == 0:
                ender = seat
                final_left = _final_turns(rt, seat, players)
                up_n, up_sum = _reveal_on_trigger(w, rt, seat, players, npos, up_n, up_sum)
            elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
                all_up = True
                for s in range(players):
                    if w[ix(W_DOWN + s)] != 0:
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
def _lean_score(w, rt, ender, knocked, scores, L, quads, extra, tmp):
    players = rt[K.R_PLAYERS]
    layout_values_nb(w, W_LAY, rt, players, L, quads, tmp)
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
    return players - 1 - seat


@hot
def _reveal_on_trigger(w, rt, seat, players, npos, up_n, up_sum):
    """reveal_on_trigger: the others turn all their cards up when the end is triggered."""
    if rt[K.R_REVEAL_ON_TRIGGER] == 0:
        return up_n, up_sum
    for s in range(players):
        if s == seat:
            continue
        for p in range(npos):
            if (w[ix(W_UP + s)] >> p) & 1 == 0:
                card = w[ix(W_LAY + s * MAX_POS + p)]
                w[ix(W_UP + s)] |= 1 << p
                w[ix(W_DOWN + s)] -= 1
                up_n += 1
                up_sum += rt[ix(RT_VALUE + card)]
                _learn(w, rt, s, p, card)
    return up_n, up_sum


@hot
def lean_chunk_nb(seed, start, count, rt, par, w, rng, out, scores, L, quads, extra, tmp,
                  acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts):
    """engine.play_chunk_nb with the lean round (no invariant checks: use the general engine
    with check=True for those)."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    keep_scores = per_round_scores.shape[0] == count
    keep_layouts = per_round_layouts.shape[0] == count
    for i in range(count):
        lean_round_nb(seed, start + i, rt, par, w, rng, out, scores, L, quads, extra, tmp)
        _add_hole_nb(0, scores, out, acc, tot, hist, players)
        if keep_scores:
            for s in range(players):
                per_round_scores[i, s] = scores[s]
            per_round_turns[i] = out[K.OUT_TURNS]
        if keep_layouts:
            for s in range(players):
                for p in range(npos):
                    per_round_layouts[i, s, p] = w[ix(W_LAY + s * MAX_POS + p)]
    return count
