"""Scoring of layouts and holes (docs/rules.md#scoring-a-hole and
docs/rules.md#how-a-layout-is-scored), compiled.

``layout_value_nb`` is the layout value L of one seat; ``hole_scores_nb`` turns the L of every
seat into hole scores (pattern penalties on others, ender adjustment, lowest-scores-zero,
shoot the moon). Both read the rules from the flat rule array, so one compiled version serves
every rule set. The reference engine has its own plain-Python scoring; tests compare them.
"""

from __future__ import annotations

import numpy as np
from simulator.kernel.jit import hot, ix

from ..game import codes as K
from ..game.cards import CARDS_PER_DECK, RANK_JACK as JACK
from .layout import LINE_CELLS_3X3, lines_counted_nb, LINES_3X3, related_nb

BLACKJACK = 21  # twenty_one_scores_zero: the layout value that becomes 0


@hot(inline="always")
def is_joker_nb(card):
    return card % CARDS_PER_DECK >= 52


@hot(inline="always")
def is_jack_nb(card):
    local = card % CARDS_PER_DECK
    return local < 52 and local % 13 == JACK


@hot(inline="always")
def pair_of_values_nb(a, b, va, vb, ri):
    """What a cancelled pair of cards a and b, worth va and vb, contributes (normally 0)."""
    jp = ri[K.R_JOKER_PAIR_VALUE]
    if jp != K.NONE_VALUE and is_joker_nb(a) and is_joker_nb(b):
        return jp
    if ri[K.R_NEG_PAIRS_KEEP] != 0 and va < 0 and vb < 0:
        return va + vb
    return np.int64(0)


@hot
def pair_value_nb(a, b, ri, card_value):
    """What a cancelled pair of cards a, b contributes (normally 0)."""
    return pair_of_values_nb(a, b, card_value[a], card_value[b], ri)


@hot(inline="always")
def plain_layout_value_nb(cards, start, rt, kind):
    """layout_value_nb for rules of a simple kind (rule slot R_LAYOUT_KIND, not
    LAYOUT_GENERAL) of the layout cards[start:start+npos], from the flat rule table ``rt``
    (rule slots, then the card tables), with no calls and no array views."""
    npos = rt[K.R_NPOS]
    total = np.int64(0)
    if kind == K.LAYOUT_SUM:
        for p in range(npos):
            total += rt[ix(K.RT_VALUE + cards[ix(start + p)])]
        return total
    cols = rt[K.R_COLS]
    for c in range(cols):
        a = cards[ix(start + c)]
        b = cards[ix(start + c + cols)]
        va = rt[ix(K.RT_VALUE + a)]
        vb = rt[ix(K.RT_VALUE + b)]
        # both outcomes, then one chosen by arithmetic: whether a column pairs is data, and a
        # branch on it is mispredicted often enough to show
        pair = np.int64(rt[ix(K.RT_KEY + a)] == rt[ix(K.RT_KEY + b)])
        apart = va + vb
        total += apart + pair * (pair_of_values_nb(a, b, va, vb, rt) - apart)
    return total


@hot
def _couple_value_nb(lay, seat, ca, cb, cols, ri, card_value):
    """Value of two pair-columns ca < cb of one key scored together, or NONE_VALUE."""
    adjacent = cb - ca == 1
    if is_joker_nb(lay[seat, ca]) and is_joker_nb(lay[seat, ca + cols]) and \
            is_joker_nb(lay[seat, cb]) and is_joker_nb(lay[seat, cb + cols]):
        jq = ri[K.R_JOKER_QUAD_VALUE] if adjacent else ri[K.R_JOKER_QUAD_APART]
        if jq != K.NONE_VALUE:
            return jq
    block = ri[K.R_BLOCK_VALUE]
    if adjacent and block != K.NONE_VALUE:
        return block
    negq = ri[K.R_NEG_QUAD_VALUE]
    if negq != K.NONE_VALUE:
        neg = (card_value[lay[seat, ca]] < 0 and card_value[lay[seat, ca + cols]] < 0 and
               card_value[lay[seat, cb]] < 0 and card_value[lay[seat, cb + cols]] < 0)
        if neg:
            return negq
    if not adjacent and ri[K.R_QUAD_APART_VALUE] != K.NONE_VALUE:
        return ri[K.R_QUAD_APART_VALUE]
    quad = ri[K.R_QUAD_VALUE]
    if quad != K.NONE_VALUE and (adjacent or ri[K.R_QUAD_ADJACENT_ONLY] == 0):
        return quad
    return K.NONE_VALUE


# scratch layout for the rare couple search (tmp is an int64 array of at least TMP_SIZE)
T_IS_PAIR = 0       # [cols]
T_PAIR_VAL = 8      # [cols]
T_MEMBERS = 16      # [cols]
T_CA = 24           # [<= 10 candidate couples]
T_CB = 40
T_CV = 56
T_MATCH = 72        # [1 << npos]: best (pairs, value) key of every subset of cells
MATCH_MAX_POS = 12  # the exact matching is used on layouts of at most this many cells
TMP_SIZE = T_MATCH + (1 << MATCH_MAX_POS)
_PAIR_UNIT = 100000  # key = pairs * _PAIR_UNIT - value: more pairs first, then lower value


@hot
def _column_pairs_value_nb(lay, seat, ri, card_value, card_key, quads, tmp):
    """Two-row grid, pairs in columns, with quads/blocks made of two pair-columns."""
    cols = ri[K.R_COLS]
    quads[seat] = 0
    pairs_cancel = ri[K.R_PAIR_SCOPE] == K.PAIR_COLUMN  # with pair_scope none only blocks count
    total = np.int64(0)
    jack_columns = 0
    # (without couples the kernels score in place: plain_layout_value_nb)
    for c in range(cols):
        a = lay[seat, c]
        b = lay[seat, c + cols]
        tmp[T_IS_PAIR + c] = 0
        tmp[T_PAIR_VAL + c] = 0
        if is_jack_nb(a) and is_jack_nb(b):
            jack_columns += 1
        if card_key[a] == card_key[b]:
            tmp[T_IS_PAIR + c] = 1
            tmp[T_PAIR_VAL + c] = pair_value_nb(a, b, ri, card_value) if pairs_cancel else \
                card_value[a] + card_value[b]
        else:
            total += card_value[a] + card_value[b]
    # Couple pair-columns of equal key: the most couples, then the lowest value (AMB-25).
    done = 0  # bitmask of pair-columns already grouped
    n_quads = 0
    for c in range(cols):
        if tmp[T_IS_PAIR + c] == 0 or (done >> c) & 1:
            continue
        m = 0
        for d in range(c, cols):
            if tmp[T_IS_PAIR + d] != 0 and not (done >> d) & 1 and \
                    card_key[lay[seat, d]] == card_key[lay[seat, c]]:
                tmp[T_MEMBERS + m] = d
                m += 1
                done |= 1 << d
        base = np.int64(0)
        for i in range(m):
            base += tmp[T_PAIR_VAL + tmp[T_MEMBERS + i]]
        n_couples = 0
        for i in range(m):
            for j in range(i + 1, m):
                v = _couple_value_nb(lay, seat, tmp[T_MEMBERS + i], tmp[T_MEMBERS + j], cols, ri,
                                     card_value)
                if v != K.NONE_VALUE:
                    tmp[T_CA + n_couples] = i
                    tmp[T_CB + n_couples] = j
                    tmp[T_CV + n_couples] = v
                    n_couples += 1
        best_count = 0
        best_value = base
        for subset in range(1, 1 << n_couples):
            used = 0
            ok = True
            count = 0
            value = base
            for k in range(n_couples):
                if subset & (1 << k):
                    i = tmp[T_CA + k]
                    j = tmp[T_CB + k]
                    bits = (1 << i) | (1 << j)
                    if used & bits:
                        ok = False
                        break
                    used |= bits
                    count += 1
                    value += (tmp[T_CV + k] - tmp[T_PAIR_VAL + tmp[T_MEMBERS + i]]
                              - tmp[T_PAIR_VAL + tmp[T_MEMBERS + j]])
            if ok and (count > best_count or (count == best_count and value < best_value)):
                best_count = count
                best_value = value
        total += best_value
        n_quads += best_count
    quads[seat] = n_quads
    if jack_columns >= 2:
        total += ri[K.R_JACK_PAIRS_BONUS]
    return total


@hot
def _free_pairs_value_nb(lay, seat, members, ri, card_value, card_key):
    """Cards at the positions in bitmask ``members`` pair freely by key, compulsorily and
    maximally (floor(k/2) pairs per key), choosing among maximum matchings the one that is best
    for the owner (step (c) of docs/rules.md#how-a-layout-is-scored). A pair scores 0, except
    two negative cards with negative_pairs_keep_value (their sum) and two jokers of a pairing
    scheme (R_JOKER_PAIR_VALUE);
    an odd card out scores its value. Per key this reduces to a closed form over the negative
    cards N and the others P (a negative card paired with a non-negative one cancels to 0):
    m even: sum(N), less max(N) when |N| is odd; m odd: sum(N) when |N| is odd, else
    sum(N) + min(min(P), -max(N))."""
    keep = ri[K.R_NEG_PAIRS_KEEP] != 0
    joker_pair = ri[K.R_JOKER_PAIR_VALUE]
    total = np.int64(0)
    left = members
    while left:
        first = 0
        while not (left >> first) & 1:
            first += 1
        key = card_key[lay[seat, first]]
        m = 0
        k = 0
        sum_neg = np.int64(0)
        max_neg = np.int64(-(1 << 40))
        min_pos = np.int64(1 << 40)
        min_all = np.int64(1 << 40)
        jokers = 0
        for q in range(first, 16):
            if (left >> q) & 1 and card_key[lay[seat, q]] == key:
                left &= ~(1 << q)
                v = card_value[lay[seat, q]]
                m += 1
                min_all = min(min_all, v)
                if v < 0:
                    k += 1
                    sum_neg += v
                    max_neg = max(max_neg, v)
                else:
                    min_pos = min(min_pos, v)
                if is_joker_nb(lay[seat, q]):
                    jokers += 1
        if joker_pair != K.NONE_VALUE and jokers == m:
            total += (m // 2) * joker_pair + (min_all if m % 2 else 0)
        elif not keep or k < 2:
            if m % 2:
                total += min_all
        elif m % 2 == 0:
            total += sum_neg - (max_neg if k % 2 else 0)
        elif k % 2:
            total += sum_neg
        else:
            total += sum_neg + min(min_pos, -max_neg)
    return total


@hot
def _matching_value_nb(lay, seat, npos, ri, card_value, card_key, tmp):
    """Best maximum matching over the pair-scope relation (step (c) of
    docs/rules.md#how-a-layout-is-scored): the most pairs, then the lowest layout value.
    Exact, by dynamic programming over the subsets of cells (the lowest cell of a subset is
    either left alone or paired with a related equal card), so layouts of up to MATCH_MAX_POS
    cells cost at most a few thousand steps. With
    wild one-eyed jacks (step (d)) a wild card may also pair with a related card of any key
    (or another wild), the pair scoring 0 and adding no natural pair: so the natural pairs
    stay as many as possible, and the wild ones are taken only where they lower the value."""
    scope = ri[K.R_PAIR_SCOPE]
    cols = ri[K.R_COLS]
    wilds = ri[K.R_WILD_JACKS] != 0
    tmp[T_MATCH] = 0
    for mask in range(1, 1 << npos):
        i = 0
        while not (mask >> i) & 1:
            i += 1
        rest = mask ^ (1 << i)
        a = lay[seat, i]
        best = tmp[T_MATCH + rest] - card_value[a]
        for j in range(i + 1, npos):
            if (rest >> j) & 1 and related_nb(i, j, scope, cols):
                b = lay[seat, j]
                below = tmp[T_MATCH + (rest ^ (1 << j))]
                if card_key[a] == card_key[b]:
                    cand = below + _PAIR_UNIT - pair_value_nb(a, b, ri, card_value)
                    if cand > best:
                        best = cand
                if wilds and (is_wild_nb(a, ri) or is_wild_nb(b, ri)) and below > best:
                    best = below
        tmp[T_MATCH + mask] = best
    key = tmp[T_MATCH + (1 << npos) - 1]
    pairs = (key + _PAIR_UNIT // 2) // _PAIR_UNIT
    return pairs * _PAIR_UNIT - key


@hot(inline="always")
def is_wild_nb(card, ri):
    """one_eyed_jacks = wild and the card is J♠ or J♥ (suits 0 and 1, rank 10)."""
    local = card % 54
    return ri[K.R_WILD_JACKS] != 0 and local < 26 and local % 13 == 10


@hot
def _adjacent_value_nb(lay, seat, npos, ri, card_value, card_key):
    """Moraco: every card with an equal orthogonal neighbour scores 0 (a card may be in
    several pairs)."""
    cols = ri[K.R_COLS]
    total = np.int64(0)
    for p in range(npos):
        paired = False
        for q in range(npos):
            if q != p and card_key[lay[seat, q]] == card_key[lay[seat, p]] and \
                    related_nb(p, q, K.PAIR_ADJACENT, cols):
                paired = True
                break
        if not paired:
            total += card_value[lay[seat, p]]
    return total


@hot
def _line_cells_nb(lay, seat, ri, card_key):
    """Bitmask of the cells in complete lines of three equal cards (3x3,
    docs/rules.md#line_sets)."""
    zero = 0
    for i in range(lines_counted_nb(ri)):
        a, b, c = LINE_CELLS_3X3[i]
        k = card_key[lay[seat, a]]
        if card_key[lay[seat, b]] == k and card_key[lay[seat, c]] == k:
            zero |= LINES_3X3[i]
    return zero


@hot
def _rest_value_nb(lay, seat, npos, zero, card_value):
    total = np.int64(0)
    for q in range(npos):
        if not (zero >> q) & 1:
            total += card_value[lay[seat, q]]
    return total


@hot
def _lines_and_blocks_value_nb(lay, seat, npos, ri, card_value, card_key, quads, tmp):
    """3-row grids without pairs: complete lines score 0, and each 2x2 block of four equal
    cards scores block_2x2_value for the four; a card in any line or counted block scores 0
    (the union rule, AMB-27). Blocks are counted as a largest disjoint set (at most one on
    3x3, two on wider grids), the one best for the owner where several qualify."""
    cols = ri[K.R_COLS]
    rows = ri[K.R_ROWS]
    lines = _line_cells_nb(lay, seat, ri, card_key)
    block = ri[K.R_BLOCK_VALUE]
    n = 0  # candidate blocks, as cell masks in tmp[T_MATCH ...]
    if block != K.NONE_VALUE:
        for r in range(rows - 1):
            for c in range(cols - 1):
                p = r * cols + c
                k = card_key[lay[seat, p]]
                if card_key[lay[seat, p + 1]] == k and card_key[lay[seat, p + cols]] == k and \
                        card_key[lay[seat, p + cols + 1]] == k:
                    tmp[T_MATCH + n] = (1 << p) | (1 << (p + 1)) | (1 << (p + cols)) | \
                        (1 << (p + cols + 1))
                    n += 1
    best_count = 0
    best = _rest_value_nb(lay, seat, npos, lines, card_value)
    for i in range(n):
        mi = tmp[T_MATCH + i]
        v = block + _rest_value_nb(lay, seat, npos, lines | mi, card_value)
        if best_count < 1 or (best_count == 1 and v < best):
            best_count = 1
            best = v
        for j in range(i + 1, n):
            mj = tmp[T_MATCH + j]
            if mi & mj == 0:
                v = 2 * block + _rest_value_nb(lay, seat, npos, lines | mi | mj, card_value)
                if best_count < 2 or v < best:
                    best_count = 2
                    best = v
    quads[seat] = best_count
    return best


@hot
def layout_value_nb(lay, seat, ri, card_value, card_key, quads, tmp):
    """Layout value L of the cards ``lay[seat, 0:npos]`` (all present, face irrelevant).
    ``quads[seat]`` receives the number of quads/blocks scored (for quad_others_penalty);
    ``tmp`` is int64 scratch of at least TMP_SIZE."""
    npos = ri[K.R_NPOS]
    rows = ri[K.R_ROWS]
    cols = ri[K.R_COLS]
    quads[seat] = 0
    six = ri[K.R_SIX_KIND_VALUE]
    if six != K.NONE_VALUE and npos == 6:
        same = True
        for p in range(1, 6):
            if card_key[lay[seat, p]] != card_key[lay[seat, 0]]:
                same = False
        if same:
            return six
    scope = ri[K.R_PAIR_SCOPE]
    if ri[K.R_WILD_JACKS] != 0 and scope != K.PAIR_NONE:
        for p in range(npos):
            if is_wild_nb(lay[seat, p], ri):
                return _matching_value_nb(lay, seat, npos, ri, card_value, card_key, tmp)
    if rows == 3 and scope == K.PAIR_NONE and (ri[K.R_LINE_SETS] != K.LINES_NONE or
                                               ri[K.R_BLOCK_VALUE] != K.NONE_VALUE):
        return _lines_and_blocks_value_nb(lay, seat, npos, ri, card_value, card_key, quads,
                                          tmp)
    if rows == 2 and (scope == K.PAIR_COLUMN or
                      (scope == K.PAIR_NONE and ri[K.R_BLOCK_VALUE] != K.NONE_VALUE)):
        return _column_pairs_value_nb(lay, seat, ri, card_value, card_key, quads, tmp)
    if scope == K.PAIR_COLUMN:
        total = np.int64(0)
        for c in range(cols):
            members = 0
            for r in range(rows):
                members |= 1 << (r * cols + c)
            total += _free_pairs_value_nb(lay, seat, members, ri, card_value, card_key)
        return total
    if scope == K.PAIR_ANYWHERE:
        return _free_pairs_value_nb(lay, seat, (1 << npos) - 1, ri, card_value, card_key)
    if scope == K.PAIR_ROW_OR_COLUMN or scope == K.PAIR_DIAGONAL:
        return _matching_value_nb(lay, seat, npos, ri, card_value, card_key, tmp)
    if scope == K.PAIR_ADJACENT:
        return _adjacent_value_nb(lay, seat, npos, ri, card_value, card_key)
    total = np.int64(0)
    for p in range(npos):
        total += card_value[lay[seat, p]]
    return total


@hot(inline="always")  # at the end of every round in both kernels: a call passes five arrays
def layout_values_nb(cards, start, rt, players, L, quads, tmp):
    """Both kernels' layout values: L[s] (and quads[s]) of every seat's layout
    cards[start + s*MAX_POS : ...] under the flat rule table ``rt``, scored in place for rules
    of a simple kind (R_LAYOUT_KIND), else by layout_value_nb."""
    kind = rt[K.R_LAYOUT_KIND]
    if kind != K.LAYOUT_GENERAL:
        for s in range(players):
            quads[s] = 0
            L[s] = plain_layout_value_nb(cards, start + s * K.MAX_POS, rt, kind)
        return
    _layout_values_general_nb(cards, start, rt, players, L, quads, tmp)


@hot
def grown_values_nb(cards, start, rt, players, L):
    """The power-card games' layouts that grew: every card beyond the grid adds its value,
    unpaired (powers.layout_value_grown; an empty position is worth 0)."""
    for s in range(players):
        for p in range(rt[K.R_NPOS], K.MAX_POS):
            L[s] += rt[ix(K.RT_VALUE + cards[ix(start + s * K.MAX_POS + p)])]


@hot
def _layout_values_general_nb(cards, start, rt, players, L, quads, tmp):
    lay = cards[start:start + K.MAX_PLAYERS * K.MAX_POS].reshape((K.MAX_PLAYERS, K.MAX_POS))
    ri = rt[:K.N_RULE_SLOTS]
    values = rt[K.RT_VALUE:K.RT_VALUE + K.N_CARD_TABLE]
    keys = rt[K.RT_KEY:K.RT_KEY + K.N_CARD_TABLE]
    for s in range(players):
        L[s] = layout_value_nb(lay, s, ri, values, keys, quads, tmp)


@hot
def ender_adjusted_nb(s, m, high, high_opp, players, ri):
    """Ender's hole score from its layout value s (docs/rules.md#ender-scoring), clamped as
    step 4 of docs/rules.md#scoring-a-hole says unless ender_clamp is off."""
    lowest = s < m
    if s == m:
        tie = ri[K.R_ENDER_TIE]
        if tie == K.TIE_NEUTRAL:
            return s
        lowest = tie == K.TIE_LOWEST
    if lowest:
        b = ri[K.R_ENDER_BONUS]
        f = s
        if b == 1:
            f = np.int64(0)
        elif b == 2:
            f = s - players
        elif b == 3:
            f = np.int64(-10)
        return min(f, s) if ri[K.R_ENDER_CLAMP] != 0 else f
    pen = ri[K.R_ENDER_PENALTY]
    f = s
    if pen == 1:
        f = s + 10
    elif pen == 2:
        f = s + 20
    elif pen == 3:
        f = 2 * s + 5
    elif pen == 4:
        f = 2 * s
    elif pen == 5:
        f = high
    elif pen == 6:
        f = s + 2 * players
    elif pen == 7:
        f = s + m
    elif pen == 8:
        f = s + high_opp
    return max(f, s) if ri[K.R_ENDER_CLAMP] != 0 else f


@hot(inline="always")  # at the end of every round in both kernels: a call passes five arrays
def hole_scores_nb(L, quads, ender, ender_knocked, players, ri, extra, out):
    """Hole scores from layout values ``L[0:players]``; ``extra`` holds per-seat penalties
    incurred during the hole (peek costs); ``ender`` is -1 when the hole had no ender.
    With twenty_one_scores_zero, L itself is changed (the layout is worth 0), so what reads
    L afterwards (the pot) sees the same values."""
    if ri[K.R_PLAIN_HOLE] != 0:
        for p in range(players):
            out[p] = L[p] + extra[p]
        return
    _hole_scores_general_nb(L, quads, ender, ender_knocked, players, ri, extra, out)


@hot
def _hole_scores_general_nb(L, quads, ender, ender_knocked, players, ri, extra, out):
    others_pen = ri[K.R_QUAD_OTHERS_PENALTY]
    for p in range(players):
        if ri[K.R_TWENTY_ONE_ZERO] != 0 and L[p] == BLACKJACK:
            L[p] = 0
        out[p] = L[p] + extra[p]
    if others_pen != 0:
        for q in range(players):
            if quads[q] > 0:
                for p in range(players):
                    if p != q:
                        out[p] += others_pen * quads[q]
    applies = ender >= 0 and (ri[K.R_ENDER_APPLIES] == K.APPLIES_ANY_ENDER or ender_knocked)
    if applies and (ri[K.R_ENDER_PENALTY] != 0 or ri[K.R_ENDER_BONUS] != 0):
        s = L[ender]
        m = np.int64(1 << 40)
        high = L[0]
        high_opp = np.int64(-(1 << 40))
        for q in range(players):
            high = max(high, L[q])
            if q != ender:
                m = min(m, L[q])
                high_opp = max(high_opp, L[q])
        out[ender] += ender_adjusted_nb(s, m, high, high_opp, players, ri) - s
    if applies:
        out[ender] += ri[K.R_ENDER_EXTRA]
    if ender >= 0 and ri[K.R_NON_CALLER] == K.NON_CALLER_ZERO:
        # Cactus: a non-caller whose layout value is at most the caller's scores 0 (its
        # points incurred in the hole still count)
        for q in range(players):
            if q != ender and L[q] <= L[ender]:
                out[q] = extra[q]
    if ri[K.R_LOWEST_SCORES_ZERO] != 0:
        low = L[0]
        for q in range(players):
            low = min(low, L[q])
        for q in range(players):
            if L[q] == low:
                out[q] = 0
        if ender >= 0 and L[ender] != low:
            out[ender] += low
    moon = ri[K.R_SHOOT_MOON]
    if moon != K.NONE_VALUE:
        # each shooter "scores 0 instead" of whatever else applied to it, and every other
        # player, another shooter included, gets +moon from it (AMB-30)
        for q in range(players):
            if L[q] == moon:
                out[q] = 0
        for q in range(players):
            if L[q] == moon:
                for p in range(players):
                    if p != q:
                        out[p] += moon
    _lowest_and_ties_nb(players, ri, out)


@hot
def _lowest_and_ties_nb(players, ri, out):
    """The last hole rules: lowest_bonus on the lowest hole score(s), then tie_penalty on
    every score another player shares (judged after the bonus)."""
    bonus = ri[K.R_LOWEST_BONUS]
    if bonus != 0:
        low = out[0]
        for q in range(players):
            low = min(low, out[q])
        for q in range(players):
            if out[q] == low:
                out[q] += bonus
    pen = ri[K.R_TIE_PENALTY]
    if pen != 0:
        shared = 0  # bitmask of the seats whose score another seat shares
        for q in range(players):
            for p in range(players):
                if p != q and out[p] == out[q]:
                    shared |= 1 << q
        for q in range(players):
            if (shared >> q) & 1:
                out[q] += pen
