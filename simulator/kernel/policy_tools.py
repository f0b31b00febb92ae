"""Building blocks for user policies (docs/user_policies.md): what a card is, the fallback
action, a float view of the policy's memory, and the placement search of the built-in
``greedy``, for layouts of two rows whose columns pair (the six-card family).

    from simulator.kernel.policy_tools import card_rank, card_value, float_memory, lowest_legal

    from simulator.kernel.policy_tools import best_position

    p = best_position(seat, card, known, faceup, memory, rules, n, S)

A placement is scored as the built-ins score it: a column's estimated score counts a known card
at its value, an unknown one at the mean of the unseen pool (S / n, n cards of value sum S
unseen), and a pair as 0 (two negative cards stay negative under ``negative_pairs_keep``). The
best position gains most over the column's estimate now; replacing a known card must gain at
least one point, an unknown one anything; ties go to the lowest position; -1 when none is
eligible. Positions the rules do not let a card go to, and empty ones, are never chosen.

Two ways to the same answer:

- ``best_position_scan`` reads the known cards column by column, with branches: the plain way,
  and the reference the other is tested against.
- ``best_position`` keeps, in the policy's ``memory``, what each position adds to the estimate
  (slots ``CACHE_FIRST`` and up), recomputed only for the columns whose known cards changed
  since its last call, and scores every position at once as vector arithmetic
  (``simulator.kernel.lanes``, the built-in's own search), on rule sets whose gains stay exact in
  its 32-bit lanes (``cache_fits``: every preset).

The cache is keyed by the cards it was computed from, so it is never stale and needs no reset:
memory is zero at the deal, which no card matches. A policy using ``best_position`` keeps its
own data in slots ``0 .. CACHE_FIRST - 1``.
"""

import numpy as np
from numba import njit

from ..game.cards import CARDS_PER_DECK, RANK_JOKER
from ..game.codes import (EMPTY0, MAX_POS, N_ACTIONS, PAIR_COLUMN, R_COLS,
                          R_LOCK_FACE_UP_COLUMNS, R_MAX_ABS_VALUE, R_NCARDS, R_NEG_PAIRS_KEEP,
                          R_PAIR_SCOPE, R_REPLACE_FACE_UP, R_ROWS, RT_KEY, RT_VALUE)
from .jit import hot
from .lanes import GAIN_LIMIT, NO_KEY, POS_MASK, best_key, set_column

# memory slots of the cache: per position p (0 .. 15), a field F at F + p
CACHE_FIRST = 16
C_EMPTY = 16  # one slot: bit p set when position p is empty (remove_cancelled)
C_IDS = 32    # the known card + 2 it was computed from (never 0, so zeroed memory matches none)
C_XN = 48     # the column's known values less the other card's (a pair: the column's value)
C_BN = 64     # the column's known values, 0 when they pair
C_KQ = 80     # the key of the other card of the column, NO_KEY when unknown
C_NEGQ = 96   # 1 when the other card is negative and negative pairs keep their value
C_U = 112     # -1 when the card at p is unknown, else 0
C_UQ = 128    # the same for the other card of the column
CACHE_END = 144
# lanes.set_column writes the six fields from C_XN at equal strides, in this order
assert (C_BN, C_KQ, C_NEGQ, C_U, C_UQ, CACHE_END) == tuple(C_XN + 16 * k for k in range(1, 7))


# ---- cards: an id is deck copy * 54 + card within the deck (0..51 suited, 52 and 53 jokers) ---
JOKER_LOCAL = 52   # the first joker's id within a deck


@njit(inline="always")
def card_rank(card):
    """0 (ace) to 12 (king), 13 for a joker."""
    local = card % CARDS_PER_DECK
    return RANK_JOKER if local >= JOKER_LOCAL else local % 13


@njit(inline="always")
def card_suit(card):
    """0 to 3 (spades, hearts, diamonds, clubs), -1 for a joker."""
    local = card % CARDS_PER_DECK
    return -1 if local >= JOKER_LOCAL else local // 13


@njit(inline="always")
def is_joker(card):
    return card % CARDS_PER_DECK >= JOKER_LOCAL


@njit(inline="always")
def card_value(card, rules):
    """What the card scores under the rule set (its value in the rules' card table: a 2 is
    worth -2 in six_card, a king 0, Cabo's K♦ 0 and the other kings 13). -1 is no card."""
    return rules[RT_VALUE + card] if card >= 0 else 0


@njit(inline="always")
def lowest_legal(legal):
    """The lowest-numbered legal action (the fallback of a policy with nothing better), -1
    when none is legal."""
    for a in range(N_ACTIONS):
        if legal[a]:
            return a
    return -1


@njit(inline="always")
def float_memory(memory, first, count):
    """Slots ``first .. first + count - 1`` of the policy's ``memory`` as float32 numbers
    (the same storage, zero at the deal like every slot): scratch for estimates and weights.
    A policy calling ``best_position`` keeps to slots below ``CACHE_FIRST``."""
    return memory[first:first + count].view(np.float32)


@njit(inline="always")
def column_pairs(rules):
    """Do the layout's two rows pair by column (what both searches assume)?"""
    return rules[R_ROWS] == 2 and rules[R_PAIR_SCOPE] == PAIR_COLUMN


@njit(inline="always")
def replaceable(seat, p, faceup, rules):
    """May a new card go to position p (the rules on replacing face-up cards)? Empty positions
    (``remove_cancelled``) are the caller's to exclude."""
    if not faceup[seat * MAX_POS + p]:
        return True
    if rules[R_REPLACE_FACE_UP] == 0:
        return False
    if rules[R_LOCK_FACE_UP_COLUMNS] != 0:
        cols = rules[R_COLS]
        other = p + cols if p < cols else p - cols
        return not faceup[seat * MAX_POS + other]
    return True


@njit(inline="always")
def pair_cancels(rules, a, b):
    """Do known cards a and b cancel as a pair (the same pairing key, and not two negative
    cards where negative pairs keep their value)?"""
    if rules[RT_KEY + a] != rules[RT_KEY + b]:
        return False
    return not (rules[R_NEG_PAIRS_KEEP] != 0 and rules[RT_VALUE + a] < 0
                and rules[RT_VALUE + b] < 0)


@njit(inline="always")
def column_estimate(rules, a, b, n, S):
    """n times the estimated score of a two-card column (cards a, b; -1 = unknown)."""
    if a >= 0 and b >= 0:
        if pair_cancels(rules, a, b):
            return 0
        return (rules[RT_VALUE + a] + rules[RT_VALUE + b]) * n
    if a >= 0:
        return rules[RT_VALUE + a] * n + S
    if b >= 0:
        return rules[RT_VALUE + b] * n + S
    return 2 * S


@hot
def best_position_scan(seat, card, known, faceup, rules, n, S):
    """The best position for ``card`` (module docstring), column by column.

    Each eligible position gets the key gain * 32 + (31 - position) and the largest key wins:
    the largest gain, and among equal gains the lowest position (an eligible gain is never
    negative, so -1 means none)."""
    cols = rules[R_COLS]
    own = seat * MAX_POS
    best = -1
    for c in range(cols):
        top, bottom = known[own + c], known[own + c + cols]
        before = column_estimate(rules, top, bottom, n, S)
        # a known card must gain at least n (one point), an unknown one anything (EMPTY0 and
        # up: a position left empty by remove_cancelled)
        if replaceable(seat, c, faceup, rules) and top < EMPTY0:
            gain = before - column_estimate(rules, card, bottom, n, S)
            key = gain * 32 + 31 - c
            if gain >= n * (top >= 0) and key > best:
                best = key
        p = c + cols
        if replaceable(seat, p, faceup, rules) and bottom < EMPTY0:
            gain = before - column_estimate(rules, top, card, n, S)
            key = gain * 32 + 31 - p
            if gain >= n * (bottom >= 0) and key > best:
                best = key
    return -1 if best < 0 else 31 - best % 32


@njit(inline="always")
def refresh_cache(seat, known, memory, rules):
    """Recompute the cache for the columns whose known cards changed since the last call."""
    cols = rules[R_COLS]
    own = seat * MAX_POS
    for c in range(cols):
        a = known[own + c]
        b = known[own + c + cols]
        # nearly always equal: a branch the processor predicts, and the work is skipped
        if memory[C_IDS + c] != a + 2 or memory[C_IDS + c + cols] != b + 2:
            memory[C_IDS + c] = a + 2
            memory[C_IDS + c + cols] = b + 2
            va = rules[RT_VALUE + a] if a >= 0 else 0
            vb = rules[RT_VALUE + b] if b >= 0 else 0
            kka = rules[RT_KEY + a] if a >= 0 else NO_KEY
            kkb = rules[RT_KEY + b] if b >= 0 else NO_KEY
            set_column(memory, C_XN, C_BN - C_XN, c, c + cols, va, vb, np.int64(a >= 0),
                       np.int64(b >= 0), kka, kkb, np.int64(rules[R_NEG_PAIRS_KEEP] != 0))
            e = memory[C_EMPTY] & ~((1 << c) | (1 << (c + cols)))
            if a >= EMPTY0:
                e |= 1 << c
            if b >= EMPTY0:
                e |= 1 << (c + cols)
            memory[C_EMPTY] = e


@njit(inline="always")
def cache_fits(rules):
    """Do the gains of these rules stay exact in the search's 32-bit lanes? ``best_position``
    assumes it; every rule set the options allow passes (tests/test_policy_tools.py), and a run
    with a user policy checks it once at its start (runner.make_job)."""
    return 5 * rules[R_NCARDS] * rules[R_MAX_ABS_VALUE] < GAIN_LIMIT


@njit(inline="always")
def replaceable_mask(seat, faceup, rules):
    """Bit p set when a new card may go to position p."""
    if rules[R_REPLACE_FACE_UP] != 0 and rules[R_LOCK_FACE_UP_COLUMNS] == 0:
        return (1 << (2 * rules[R_COLS])) - 1
    return _replaceable_bits(seat, faceup, rules)


@hot
def _replaceable_bits(seat, faceup, rules):
    npos = 2 * rules[R_COLS]
    rep = 0
    for p in range(npos):
        if replaceable(seat, p, faceup, rules):
            rep |= 1 << p
    return rep


@njit(inline="always")
def best_position(seat, card, known, faceup, memory, rules, n, S):
    """The best position for ``card`` (module docstring), from the cache in ``memory``; the
    same answer as ``best_position_scan`` where ``cache_fits(rules)``. No test of the rules
    here: each cost the whole game a few percent (docs/performance.md)."""
    refresh_cache(seat, known, memory, rules)
    vc = rules[RT_VALUE + card]
    rep = replaceable_mask(seat, faceup, rules) & ~memory[C_EMPTY]
    key = best_key(memory, 2 * rules[R_COLS], C_XN, C_BN, C_KQ, C_NEGQ, C_U, C_UQ,
                   rep, rules[RT_KEY + card], vc * n, vc < 0, n, S)
    return -1 if key < 0 else POS_MASK - (key & POS_MASK)
