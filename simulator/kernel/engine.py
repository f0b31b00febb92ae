"""The compiled engine: one kernel plays any rule set (rules arrive as data) with any mix of
built-in policies (chosen per seat by id).

All mutable state of a round lives in one int32 array ``g`` with named offsets (codes.G_*),
padded to MAX_PLAYERS x MAX_POS, with -1 for "no card":

- ``g[G_LAY + seat*MAX_POS + pos]``   card at each position
- ``g[G_UP + ...]``                   1 when face up (public)
- ``g[G_KNOWN + (obs*MAX_PLAYERS + seat)*MAX_POS + pos]``  what ``obs`` knows is there, or -1
- ``g[G_STOCK + i]``, ``g[G_DISCARD + i]``  piles, top at the end; sizes in the public slots
- ``g[G_PUB + PUB_*]``                public counters; ``g[G_LEGAL + a]`` the legal mask

Rules and card tables live in one int64 array ``rt`` (codes.RT_*). Knowledge is updated where
cards move, so a policy reads its own row of ``known`` and never a hidden card.
``play_round_nb`` is the move-by-move truth that the plain-Python reference engine
(simulator/game/reference.py) mirrors; ``play_chunk_nb`` plays a range of round indices and returns
integer sums that add up across chunks.
"""

from __future__ import annotations

import numpy as np

from simulator.kernel.jit import hot, ix

from ..game import codes as K
from ..game.cards import CARDS_PER_DECK, RANK_JACK
from ..game.codes import (G_CHOSEN, G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LAY, G_LEGAL, G_MEMORY,
                          G_PENALTY, G_PRIV, G_PUB, G_SKIP, G_STOCK, G_UP, MAX_PLAYERS, MAX_POS,
                          RT_DECK, RT_KEY, RT_VALUE)
from .layout import BLOCKS_3X3, can_replace_nb, line_mask_nb, related_nb
from .tally import (MACC_POT_SQ, MACC_POT_SUM, MACC_TOTAL_SQ, MACC_TOTAL_SUM, MACC_WIN_K0,
                    MAX_MATCH_HOLES, MTOT_HOLES_SQ, MTOT_HOLES_SUM, MTOT_MATCHES, _add_hole_nb,
                    _lowest_nb)
from .policy_api import NO_USER_POLICY, POLICY_USER
from .rng import (N_STREAMS, STREAM_DEAL, STREAM_DEALER, STREAM_SEAT0, STREAM_TIEBREAK, below_nb,
                  shuffle_nb, stream_state_nb)
from .scoring import TMP_SIZE, hole_scores_nb, layout_values_nb, pair_of_values_nb

# error codes
ERR_ILLEGAL_ACTION = 1
ERR_CONSERVATION = 2
ERR_LOG_FULL = 3

LOG_FIELDS = 5           # turn, seat, decision point, action, held card


def pack_rules(arrays) -> np.ndarray:
    """RuleArrays -> the single int64 array ``rt`` the kernel reads."""
    rt = np.zeros(K.RT_SIZE, dtype=np.int64)
    rt[:K.N_RULE_SLOTS] = arrays.ri
    n = arrays.card_value.size
    rt[RT_VALUE:RT_VALUE + n] = arrays.card_value
    for p in range(MAX_POS):   # the empty-position pseudo-cards (codes.EMPTY0)
        rt[RT_VALUE + K.EMPTY0 + p] = 0
        rt[RT_KEY + K.EMPTY0 + p] = K.EMPTY_KEY0 - p
    rt[RT_KEY:RT_KEY + n] = arrays.card_key
    rt[RT_DECK:RT_DECK + arrays.deck.size] = arrays.deck
    ri = arrays.ri
    npos, scope, cols = int(ri[K.R_NPOS]), int(ri[K.R_PAIR_SCOPE]), int(ri[K.R_COLS])
    for p in range(npos):
        rt[K.RT_REL + p] = sum(1 << q for q in range(npos)
                               if related_nb.py_func(p, q, scope, cols))
    rt[K.RT_TYPE:K.RT_TYPE + K.N_CARD_TABLE] = -1
    types: dict = {}
    for c in arrays.deck:
        t = types.setdefault((int(arrays.card_key[c]), int(arrays.card_value[c])), len(types))
        rt[K.RT_TYPE + c] = t
        if rt[K.RT_TYPE_COPIES + t] == 0:
            rt[K.RT_TYPE_CARD + t] = c
        rt[K.RT_TYPE_COPIES + t] += 1
    rt[K.RT_TYPE_N] = len(types)
    return rt


class State:
    """Per-thread scratch, allocated once and reused for every round."""

    def __init__(self, players: int, log_cap: int = 0):
        self.g = np.zeros(K.G_SIZE, dtype=np.int32)
        self.rng = np.zeros(N_STREAMS, dtype=np.uint64)
        self.aux = np.zeros(K.POLICY_SCRATCH, dtype=np.int64)   # a policy's scratch (lookahead's)
        self.log = np.zeros((max(log_cap, 1), LOG_FIELDS), dtype=np.int32)
        self.out = np.zeros(K.N_OUT_SLOTS, dtype=np.int64)
        self.scores = np.zeros(players, dtype=np.int64)
        self.L = np.zeros(players, dtype=np.int64)
        self.quads = np.zeros(players, dtype=np.int64)
        self.extra = np.zeros(players, dtype=np.int64)
        self.tmp = np.zeros(max(K.MAX_IDS, TMP_SIZE), dtype=np.int64)

    def arrays(self):
        return (self.g, self.rng, self.log, self.out, self.scores, self.L, self.quads,
                self.extra, self.tmp)


# ---- small accessors -------------------------------------------------
@hot(inline="always")
def known_at(obs, seat, p):
    return G_KNOWN + (obs * MAX_PLAYERS + seat) * MAX_POS + p


@hot(inline="always")
def _unknown_nb(g, seat, p):
    """Is (seat, p) face down with a card its owner does not know (one it may look at)?"""
    return not g[ix(G_UP + seat * MAX_POS + p)] and g[ix(known_at(seat, seat, p))] < 0


# ---- card movement: every place a card goes, with the knowledge it creates ---------------------
@hot(inline="always")
def _push_discard_nb(g, rt, card):
    """The acting seat puts ``card`` on the discard pile (face up)."""
    n = g[ix(G_PUB + K.PUB_DISCARD_N)]
    g[ix(G_DISCARD + n)] = card
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n + 1
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] += rt[ix(RT_VALUE + card)]
    if rt[K.R_JACK_SKIPS] != 0:
        local = card % CARDS_PER_DECK
        if local < 52 and local % 13 == RANK_JACK:  # AMB-19: any jack the actor discards
            g[ix(G_SKIP + (g[G_PUB + K.PUB_ACTOR] + 1) % rt[K.R_PLAYERS])] = 1


@hot(inline="always")
def _turn_up_nb(g, rt, seat, p):
    """Turn (seat, p) face up: everyone now knows it."""
    i = seat * MAX_POS + p
    card = g[ix(G_LAY + i)]
    g[ix(G_UP + i)] = 1
    for obs in range(rt[K.R_PLAYERS]):
        g[known_at(obs, seat, p)] = card
    g[ix(G_PUB + K.PUB_FACEUP_N)] += 1
    g[ix(G_PUB + K.PUB_FACEUP_SUM)] += rt[ix(RT_VALUE + card)]
    g[ix(G_FACE_DOWN + seat)] -= 1


@hot
def _replace_nb(g, rt, seat, p, card, face_up, public_card):
    """Put ``card`` at (seat, p); the old card goes face up onto the discard pile."""
    i = seat * MAX_POS + p
    old = g[ix(G_LAY + i)]
    if rt[K.R_REPLACE_UNSEEN_ONCE] != 0 and g[ix(K.G_ONCE + i)] == K.ONCE_LEFT:
        g[ix(K.G_ONCE + i)] = K.ONCE_SPENT
    if g[ix(G_UP + i)]:
        g[ix(G_PUB + K.PUB_FACEUP_N)] -= 1
        g[ix(G_PUB + K.PUB_FACEUP_SUM)] -= rt[ix(RT_VALUE + old)]
    else:
        g[ix(G_FACE_DOWN + seat)] -= 1
    g[ix(G_LAY + i)] = card
    players = rt[K.R_PLAYERS]
    if face_up:
        g[ix(G_UP + i)] = 1
        g[ix(G_PUB + K.PUB_FACEUP_N)] += 1
        g[ix(G_PUB + K.PUB_FACEUP_SUM)] += rt[ix(RT_VALUE + card)]
        for obs in range(players):
            g[known_at(obs, seat, p)] = card
    else:
        g[ix(G_UP + i)] = 0
        g[ix(G_FACE_DOWN + seat)] += 1
        for obs in range(players):
            # a face-down card is known to its owner, and to all if it came from the discard
            g[known_at(obs, seat, p)] = card if (obs == seat or public_card) else -1
    _push_discard_nb(g, rt, old)



@hot
def _reshuffle_nb(g, rt, rng):
    """The discard pile except its top card becomes the new stock."""
    n = g[ix(G_PUB + K.PUB_DISCARD_N)] - 1
    for i in range(n):
        g[ix(G_STOCK + i)] = g[ix(G_DISCARD + i)]
    top = g[ix(G_DISCARD + n)]
    g[ix(G_DISCARD)] = top
    g[ix(G_PUB + K.PUB_DISCARD_N)] = 1
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] = rt[ix(RT_VALUE + top)]
    g[ix(G_PUB + K.PUB_STOCK_N)] = n
    g[ix(G_PUB + K.PUB_RESHUFFLES)] += 1
    shuffle_nb(g, G_STOCK, n, rng, STREAM_DEAL)


@hot(inline="always")
def policy_slot_nb(policy_id):
    """Where a built-in sits in a run's table of compiled policies (strategies.compiled):
    ids 0..7 in their own slots, lookahead in the last."""
    i = np.int64(policy_id)
    return i if i < K.N_POLICY_SLOTS - 1 else K.N_POLICY_SLOTS - 1


# ---- asking a policy ---------------------------------------------------------------------------
# Only the small accessors are inlined at Numba's IR level, not the steps of the game flow
# (LLVM still inlines what it finds worth it): inlining the turn into the round made the
# engine's first compile take minutes, and the common rule sets run on the lean kernel anyway
# (docs/performance.md).
@hot
def _ask_nb(g, rt, rng, par, log, user, policies, aux, point, seat, held):
    g[ix(G_PUB + K.PUB_ACTOR)] = seat
    if par[seat, 0] == POLICY_USER:  # a user's policy: it gets views of what its seat sees
        a = user(point, seat, held,
                 g[G_PUB:G_PUB + K.N_PUB_SLOTS + MAX_PLAYERS],
                 g[G_LEGAL:G_LEGAL + K.N_ACTIONS],
                 g[known_at(seat, 0, 0):known_at(seat + 1, 0, 0)],
                 g[G_UP:G_UP + MAX_PLAYERS * MAX_POS],
                 g[G_DISCARD:G_DISCARD + K.MAX_IDS],
                 g[G_MEMORY + seat * K.MEMORY_SLOTS:G_MEMORY + (seat + 1) * K.MEMORY_SLOTS],
                 rt, rng[STREAM_SEAT0 + seat:STREAM_SEAT0 + seat + 1], par[seat])
    else:  # a built-in, through the run's table of compiled policies (strategies.compiled)
        a = policies[policy_slot_nb(par[seat, 0])](point, seat, held, g, rt, rng, par, aux)
    if a < 0 or a >= K.N_ACTIONS or g[ix(G_LEGAL + a)] == 0:
        g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_ILLEGAL_ACTION
        g[ix(G_PRIV + K.PRIV_ERR_SEAT)] = seat
        g[ix(G_PRIV + K.PRIV_ERR_POINT)] = point
        g[ix(G_PRIV + K.PRIV_ERR_ACTION)] = a
        return -1
    n = g[ix(G_PRIV + K.PRIV_LOG_N)]
    if n >= 0:  # logging is on
        if n >= log.shape[0]:
            g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_LOG_FULL
            return -1
        log[n, 0] = g[ix(G_PUB + K.PUB_TURN)]
        log[n, 1] = seat
        log[n, 2] = point
        log[n, 3] = a
        log[n, 4] = held
        g[ix(G_PRIV + K.PRIV_LOG_N)] = n + 1
    return a


@hot(inline="always")
def _clear_nb(g):
    for a in range(K.N_ACTIONS):
        g[ix(G_LEGAL + a)] = 0


@hot
def _placement_mask_nb(g, rt, seat):
    _clear_nb(g)
    for p in range(rt[K.R_NPOS]):
        if can_replace_nb(g, rt, seat, p):
            g[ix(G_LEGAL + p)] = 1


@hot
def _face_down_mask_nb(g, rt, seat):
    _clear_nb(g)
    for p in range(rt[K.R_NPOS]):
        if not g[ix(G_UP + seat * MAX_POS + p)]:
            g[ix(G_LEGAL + p)] = 1


@hot
def _unknown_mask_nb(g, rt, seat):
    """Legal: the seat's face-down positions whose card it does not know (what it may look
    at: pay_to_peek, or before placing with blind_replacement = false)."""
    _clear_nb(g)
    for p in range(rt[K.R_NPOS]):
        if _unknown_nb(g, seat, p):
            g[ix(G_LEGAL + p)] = 1


@hot
def _reveal_mask_nb(g, rt, seat, n_chosen):
    """Positions the seat may still reveal given the ones it chose
    (docs/rules.md#initial_reveal_constraint); the picks so far are
    g[G_CHOSEN + seat*MAX_POS + 0 .. n_chosen-1]."""
    _clear_nb(g)
    cols = rt[K.R_COLS]
    rows = rt[K.R_ROWS]
    con = rt[K.R_REVEAL_CONSTRAINT]
    centre = cols // 2
    chosen = G_CHOSEN + seat * MAX_POS
    any_legal = False
    c = -1      # p's column and row, counted along (no division per position)
    row = 0
    for p in range(rt[K.R_NPOS]):
        c += 1
        if c == cols:
            c = 0
            row += 1
        if g[ix(G_UP + seat * MAX_POS + p)] or g[known_at(seat, seat, p)] >= 0:
            continue
        taken = False
        for i in range(n_chosen):
            if g[ix(chosen + i)] == p:
                taken = True
        if taken:
            continue
        ok = True
        if con == K.CON_NEAREST_ROW:
            ok = row == rows - 1
        elif con == K.CON_SAME_COLUMN and n_chosen > 0:
            ok = c == g[ix(chosen)] % cols
        elif con == K.CON_DIFFERENT_COLUMNS:
            for i in range(n_chosen):
                if g[ix(chosen + i)] % cols == c:
                    ok = False
        elif con == K.CON_CENTRE_OUTER and n_chosen > 0:
            first_centre = g[ix(chosen)] % cols == centre
            ok = (c == centre) != first_centre
        elif con == K.CON_WHOLE_COLUMN:  # a column is chosen by its top card
            ok = p < cols
            for r in range(rows):
                if g[ix(G_UP + seat * MAX_POS + r * cols + c)]:
                    ok = False
        if ok:
            g[ix(G_LEGAL + p)] = 1
            any_legal = True
    return any_legal


@hot(inline="always")
def _reveal_nb(g, rt, seat, p):
    """Peek at or flip the chosen position (with whole_column: the whole column of p)."""
    if rt[K.R_REVEAL_MODE] == K.REVEAL_PEEK:
        g[known_at(seat, seat, p)] = g[ix(G_LAY + seat * MAX_POS + p)]
    elif rt[K.R_REVEAL_CONSTRAINT] == K.CON_WHOLE_COLUMN:
        cols = rt[K.R_COLS]
        for r in range(rt[K.R_ROWS]):
            _turn_up_nb(g, rt, seat, r * cols + p % cols)
    else:
        _turn_up_nb(g, rt, seat, p)


@hot
def _choose_reveals_nb(g, rt, rng, par, log, user, policies, aux, seat, decisions, reveal_now):
    """Ask ``seat`` for up to ``decisions`` reveal positions (fewer if none is legal), storing
    them at g[G_CHOSEN + seat*MAX_POS ...] and their count in the row's last slot; each is
    revealed at once when ``reveal_now``. Returns False on a policy error."""
    chosen = G_CHOSEN + seat * MAX_POS
    n = 0
    for i in range(decisions):
        if not _reveal_mask_nb(g, rt, seat, n):
            break
        a = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_REVEAL, seat, -1)
        if a < 0:
            return False
        g[ix(chosen + n)] = a
        n += 1
        if reveal_now:
            _reveal_nb(g, rt, seat, a)
    g[ix(chosen + MAX_POS - 1)] = n
    return True


@hot
def _initial_reveal_nb(g, rt, rng, par, log, user, policies, aux):
    """Flip or peek, seat by seat from the first player. With sequential choice each card is
    seen before the next is chosen; otherwise a seat's cards (or, with simultaneous order,
    everyone's) are revealed only after all of them are chosen."""
    count = rt[K.R_REVEAL_COUNT]
    mode = rt[K.R_REVEAL_MODE]
    if mode == K.REVEAL_NONE or mode == K.REVEAL_FLIP_FIRST_TURN or count == 0:
        return True
    players = rt[K.R_PLAYERS]
    simultaneous = rt[K.R_REVEAL_SIMULTANEOUS] != 0
    sequential = rt[K.R_REVEAL_SEQUENTIAL] != 0 and not simultaneous
    for seat in range(players):
        if not _choose_reveals_nb(g, rt, rng, par, log, user, policies, aux, seat, count, sequential):
            return False
        if not sequential and not simultaneous:
            chosen = G_CHOSEN + seat * MAX_POS
            for i in range(g[ix(chosen + MAX_POS - 1)]):
                _reveal_nb(g, rt, seat, g[ix(chosen + i)])
    if simultaneous:
        for seat in range(players):
            chosen = G_CHOSEN + seat * MAX_POS
            for i in range(g[ix(chosen + MAX_POS - 1)]):
                _reveal_nb(g, rt, seat, g[ix(chosen + i)])
    return True


@hot
def _swap_positions_nb(g, rt, seat, p, q):
    """Exchange the cards at (seat, p) and (seat, q), with their faces and what every seat
    knows of them (the counters do not change)."""
    i = seat * MAX_POS + p
    j = seat * MAX_POS + q
    g[ix(G_LAY + i)], g[ix(G_LAY + j)] = g[ix(G_LAY + j)], g[ix(G_LAY + i)]
    g[ix(G_UP + i)], g[ix(G_UP + j)] = g[ix(G_UP + j)], g[ix(G_UP + i)]
    for obs in range(rt[K.R_PLAYERS]):
        a = known_at(obs, seat, p)
        b = known_at(obs, seat, q)
        g[ix(a)], g[ix(b)] = g[ix(b)], g[ix(a)]


@hot
def _arrange_nb(g, rt, rng, par, log, user, policies, aux):
    """rearrange_after_reveal (docs/rules.md#rearrange_after_reveal): seat by seat from the
    first player, each face-up card, lowest position first, is given a position not yet
    settled (DP_ARRANGE, ``held`` = the card); the two cards there swap and the position is
    settled. Face-down cards thus move blindly into the places face-up cards leave."""
    npos = rt[K.R_NPOS]
    for seat in range(rt[K.R_PLAYERS]):
        settled = 0
        while True:
            p = -1
            for x in range(npos):
                if not (settled >> x) & 1 and g[ix(G_UP + seat * MAX_POS + x)]:
                    p = x
                    break
            if p < 0:
                break
            _clear_nb(g)
            for x in range(npos):
                if not (settled >> x) & 1:
                    g[ix(G_LEGAL + x)] = 1
            q = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_ARRANGE, seat,
                        g[ix(G_LAY + seat * MAX_POS + p)])
            if q < 0:
                return False
            if q != p:
                _swap_positions_nb(g, rt, seat, p, q)
            settled |= 1 << q
    return True


# ---- remove_cancelled (docs/rules.md#remove_cancelled, AMB-24) -------------------------------
@hot
def _group_mask_nb(rt, i):
    """Cells of group i of the layout, 0 when the rules do not count it: a 2-row grid's
    pair-columns; a 3x3 grid's lines (as line_sets counts them), then its 2x2 blocks."""
    if rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        return (1 << i) | (1 << (i + cols)) if i < cols else 0
    if i < 8:
        return line_mask_nb(rt, i)
    if i < 12 and rt[K.R_BLOCK_VALUE] != K.NONE_VALUE:
        return BLOCKS_3X3[i - 8]
    return 0


@hot
def _completed_nb(g, rt, seat, mask):
    """Are the cells of ``mask`` all face up, none empty, and all of one key?"""
    key = 0
    first = True
    for p in range(rt[K.R_NPOS]):
        if (mask >> p) & 1:
            i = seat * MAX_POS + p
            card = g[ix(G_LAY + i)]
            if g[ix(G_UP + i)] == 0 or card >= K.EMPTY0:
                return False
            if first:
                key = rt[ix(RT_KEY + card)]
                first = False
            elif rt[ix(RT_KEY + card)] != key:
                return False
    return True


@hot
def _remove_cells_nb(g, rt, seat, mask, value):
    """The cards of ``mask`` go under the discard pile (lowest position at the very bottom);
    their positions stay empty, and ``value`` is banked for the seat."""
    k = 0
    for p in range(rt[K.R_NPOS]):
        k += (mask >> p) & 1
    n = g[ix(G_PUB + K.PUB_DISCARD_N)]
    for i in range(n - 1, -1, -1):
        g[ix(G_DISCARD + i + k)] = g[ix(G_DISCARD + i)]
    j = 0
    for p in range(rt[K.R_NPOS]):
        if (mask >> p) & 1:
            i = seat * MAX_POS + p
            card = g[ix(G_LAY + i)]
            g[ix(G_DISCARD + j)] = card
            j += 1
            v = rt[ix(RT_VALUE + card)]
            g[ix(G_PUB + K.PUB_DISCARD_SUM)] += v
            g[ix(G_PUB + K.PUB_FACEUP_N)] -= 1
            g[ix(G_PUB + K.PUB_FACEUP_SUM)] -= v
            g[ix(G_LAY + i)] = K.EMPTY0 + p
            for obs in range(rt[K.R_PLAYERS]):
                g[known_at(obs, seat, p)] = K.EMPTY0 + p
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n + k
    g[ix(K.G_BANK + seat)] += value


@hot
def _remove_groups_nb(g, rt, rng, par, log, user, policies, aux, seat):
    """Take the seat's completed groups off its layout: all of them (immediate), or those
    its owner chooses (optional_to_discard_bottom, one DP_REMOVE question each; a group it
    keeps is offered again the next time). False on a policy error."""
    # most rule sets remove nothing: the test comes before the call that passes eight arrays
    if rt[K.R_REMOVE_CANCELLED] == K.REMOVE_NEVER:
        return True
    return _remove_groups_now_nb(g, rt, rng, par, log, user, policies, aux, seat)


@hot
def _remove_groups_now_nb(g, rt, rng, par, log, user, policies, aux, seat):
    mode = rt[K.R_REMOVE_CANCELLED]
    for i in range(12):
        mask = _group_mask_nb(rt, i)
        if mask == 0 or not _completed_nb(g, rt, seat, mask):
            continue
        if rt[K.R_ROWS] == 2:
            a = g[ix(G_LAY + seat * MAX_POS + i)]
            b = g[ix(G_LAY + seat * MAX_POS + i + rt[K.R_COLS])]
            value = pair_of_values_nb(rt[ix(RT_VALUE + a)], rt[ix(RT_VALUE + b)], rt)
        elif i >= 8:
            value = rt[K.R_BLOCK_VALUE]
        else:
            value = 0
        if mode == K.REMOVE_OPTIONAL:
            _clear_nb(g)
            g[ix(G_LEGAL + K.A_REMOVE)] = 1
            g[ix(G_LEGAL + K.A_PASS)] = 1
            low = 0
            while (mask >> low) & 1 == 0:
                low += 1
            a = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_REMOVE, seat, low)
            if a < 0:
                return False
            if a == K.A_PASS:
                continue
        _remove_cells_nb(g, rt, seat, mask, value)
    return True


# ---- one turn ----------------------------------------------------------------------------------
@hot
def _place_nb(g, rt, rng, par, log, user, policies, aux, seat, card, public_card, p):
    """Put a held card at position p with the face the rules (or the player) choose."""
    face_rule = rt[K.R_PLACEMENT_FACE]
    face_up = face_rule == K.FACE_UP
    if face_rule == K.FACE_CHOICE:
        if g[ix(G_UP + seat * MAX_POS + p)]:
            face_up = True  # replacing a face-up card always yields a face-up card
        else:
            _clear_nb(g)
            g[ix(G_LEGAL + K.A_FACE_UP)] = 1
            g[ix(G_LEGAL + K.A_FACE_DOWN)] = 1
            a = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_FACE, seat, card)
            if a < 0:
                return False
            face_up = a == K.A_FACE_UP
    _replace_nb(g, rt, seat, p, card, face_up, public_card)
    return True


@hot
def _start_end_nb(g, rt, seat):
    g[ix(G_PUB + K.PUB_ENDER)] = seat
    ft = rt[K.R_FINAL_TURNS]
    players = rt[K.R_PLAYERS]
    if ft == K.FINAL_NONE:
        g[ix(G_PUB + K.PUB_FINAL_LEFT)] = 0
    elif ft == K.FINAL_EACH_OTHER:
        g[ix(G_PUB + K.PUB_FINAL_LEFT)] = players - 1
    else:  # complete the lap: the seats after the ender up to the dealer (the last seat)
        g[ix(G_PUB + K.PUB_FINAL_LEFT)] = players - 1 - seat
    if rt[K.R_REVEAL_ON_TRIGGER] != 0:  # the others show their cards at once (AMB-21)
        for s in range(players):
            if s != seat:
                for p in range(rt[K.R_NPOS]):
                    if not g[ix(G_UP + s * MAX_POS + p)]:
                        _turn_up_nb(g, rt, s, p)


@hot
def _placement_legal_nb(g, rt, seat, point, may_look):
    """The legal mask of a placement decision; with ``may_look``, A_PEEK too when the seat
    has a face-down card it does not know."""
    _placement_mask_nb(g, rt, seat)
    if point == K.DP_PLACE_DRAWN and rt[K.R_STOCK_MAY_DISCARD] != 0:
        g[ix(G_LEGAL + K.A_DISCARD)] = 1
    if may_look:
        for p in range(rt[K.R_NPOS]):
            if _unknown_nb(g, seat, p):
                g[ix(G_LEGAL + K.A_PEEK)] = 1


@hot
def _ask_placement_nb(g, rt, rng, par, log, user, policies, aux, seat, card, point):
    """Where the held ``card`` goes (a position, or A_DISCARD for a stock card). With
    blind_replacement = false the seat may first look at one of its unknown face-down cards
    (A_PEEK, then DP_PEEK with ``held`` = the card), and is then asked again. -1 on error."""
    _placement_legal_nb(g, rt, seat, point, rt[K.R_BLIND] == 0)
    b = _ask_nb(g, rt, rng, par, log, user, policies, aux, point, seat, card)
    if b != K.A_PEEK:
        return b
    _unknown_mask_nb(g, rt, seat)
    c = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_PEEK, seat, card)
    if c < 0:
        return -1
    g[ix(known_at(seat, seat, c))] = g[ix(G_LAY + seat * MAX_POS + c)]
    _placement_legal_nb(g, rt, seat, point, False)
    return _ask_nb(g, rt, rng, par, log, user, policies, aux, point, seat, card)


@hot
def _draw_stock_nb(g, rt, rng, par, log, user, policies, aux, seat):
    if g[ix(G_PUB + K.PUB_STOCK_N)] == 0:
        _reshuffle_nb(g, rt, rng)
    n = g[ix(G_PUB + K.PUB_STOCK_N)] - 1
    g[ix(G_PUB + K.PUB_STOCK_N)] = n
    card = g[ix(G_STOCK + n)]
    public = rt[K.R_PRIVATE_STOCK] == 0  # private_stock_draw = false: everyone sees it
    if public:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
    b = _ask_placement_nb(g, rt, rng, par, log, user, policies, aux, seat, card, K.DP_PLACE_DRAWN)
    if b < 0:
        return False
    if b != K.A_DISCARD:
        ok = _place_nb(g, rt, rng, par, log, user, policies, aux, seat, card, public, b)
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
        return ok
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    _push_discard_nb(g, rt, card)
    fad = rt[K.R_FLIP_AFTER_DISCARD]
    fd = g[ix(G_FACE_DOWN + seat)]
    if fad != K.FAD_NONE and fd > 0:
        _face_down_mask_nb(g, rt, seat)
        if fad == K.FAD_UNLESS_ONE and fd == 1:
            g[ix(G_LEGAL + K.A_PASS)] = 1
        c = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_FLIP, seat, -1)
        if c < 0:
            return False
        if c != K.A_PASS:
            _turn_up_nb(g, rt, seat, c)
    return True


@hot
def _take_discard_nb(g, rt, rng, par, log, user, policies, aux, seat):
    n = g[ix(G_PUB + K.PUB_DISCARD_N)] - 1
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n
    card = g[ix(G_DISCARD + n)]
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] -= rt[ix(RT_VALUE + card)]
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
    b = _ask_placement_nb(g, rt, rng, par, log, user, policies, aux, seat, card, K.DP_PLACE_TAKEN)
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    if b < 0:
        return False
    return _place_nb(g, rt, rng, par, log, user, policies, aux, seat, card, True, b)


@hot
def turn_mask_nb(g, rt, seat):
    """Legal actions at the start of ``seat``'s turn into g[G_LEGAL:]; returns how many."""
    final_lap = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    _clear_nb(g)
    n_legal = 0
    if g[ix(G_PUB + K.PUB_STOCK_N)] > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and
                                        g[ix(G_PUB + K.PUB_DISCARD_N)] > 1):
        g[ix(G_LEGAL + K.A_DRAW_STOCK)] = 1
        n_legal += 1
    if rt[K.R_DRAW_FROM_DISCARD] != 0 and g[ix(G_PUB + K.PUB_DISCARD_N)] > 0 and \
            not (final_lap and rt[K.R_FINAL_STOCK_ONLY] != 0):
        for p in range(rt[K.R_NPOS]):
            if can_replace_nb(g, rt, seat, p):
                g[ix(G_LEGAL + K.A_TAKE_DISCARD)] = 1
                n_legal += 1
                break
    if g[ix(G_FACE_DOWN + seat)] > 0:
        if rt[K.R_FLIP_INSTEAD_OF_DRAW] != 0:
            g[ix(G_LEGAL + K.A_FLIP)] = 1
            n_legal += 1
        if rt[K.R_FLIP_ALL_TO_END] != 0:
            g[ix(G_LEGAL + K.A_FLIP_ALL)] = 1
            n_legal += 1
    if rt[K.R_PAY_TO_PEEK] != K.NONE_VALUE:
        for p in range(rt[K.R_NPOS]):
            if _unknown_nb(g, seat, p):
                g[ix(G_LEGAL + K.A_PEEK)] = 1
                n_legal += 1
                break
    if rt[K.R_KNOCK_TIMING] != K.KNOCK_END_OF_TURN and _may_knock_nb(g, rt):
        g[ix(G_LEGAL + K.A_KNOCK)] = 1
        n_legal += 1
    return n_legal


@hot
def _may_knock_nb(g, rt):
    """A knock would be allowed now: a knock game, nobody has ended the hole, and
    knock_min_laps laps have been played (AMB-13)."""
    return (rt[K.R_END_TRIGGERS] & K.END_KNOCK) != 0 and g[ix(G_PUB + K.PUB_ENDER)] < 0 and \
        g[ix(G_PUB + K.PUB_TURN)] >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]


@hot
def _first_turn_reveal_nb(g, rt, rng, par, log, user, policies, aux, seat):
    """initial_reveal_mode = flip_on_first_turn: the seat's flips open its first turn. With
    whole_column one decision turns a whole column face up."""
    decisions = 1 if rt[K.R_REVEAL_CONSTRAINT] == K.CON_WHOLE_COLUMN else rt[K.R_REVEAL_COUNT]
    return _choose_reveals_nb(g, rt, rng, par, log, user, policies, aux, seat, decisions, True)


@hot
def _play_turn_nb(g, rt, rng, par, log, user, policies, aux, seat):
    """One turn of ``seat``. Returns 1 when played, 0 when the hole must end (no stock to draw
    and nothing else to do), -1 on a policy error."""
    if g[ix(G_CHOSEN + seat * MAX_POS + MAX_POS - 1)] < 0:
        if not _first_turn_reveal_nb(g, rt, rng, par, log, user, policies, aux, seat) or \
                not _remove_groups_nb(g, rt, rng, par, log, user, policies, aux, seat):
            return -1
    while True:
        if turn_mask_nb(g, rt, seat) == 0:
            return 0
        a = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_TURN, seat, -1)
        if a != K.A_PEEK:
            break
        # pay to peek (AMB-16): look at one own face-down card, pay, and choose again
        _unknown_mask_nb(g, rt, seat)
        c = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_PEEK, seat, -1)
        if c < 0:
            return -1
        g[known_at(seat, seat, c)] = g[ix(G_LAY + seat * MAX_POS + c)]
        g[ix(G_PENALTY + seat)] += rt[K.R_PAY_TO_PEEK]
    ok = a >= 0
    if a == K.A_DRAW_STOCK:
        ok = _draw_stock_nb(g, rt, rng, par, log, user, policies, aux, seat)
    elif a == K.A_TAKE_DISCARD:
        ok = _take_discard_nb(g, rt, rng, par, log, user, policies, aux, seat)
    elif a == K.A_FLIP:
        _face_down_mask_nb(g, rt, seat)
        c = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_FLIP, seat, -1)
        ok = c >= 0
        if ok:
            _turn_up_nb(g, rt, seat, c)
    elif a == K.A_FLIP_ALL:
        for p in range(rt[K.R_NPOS]):
            if not g[ix(G_UP + seat * MAX_POS + p)]:
                _turn_up_nb(g, rt, seat, p)
        if g[ix(G_PUB + K.PUB_ENDER)] < 0:
            _start_end_nb(g, rt, seat)
    elif a == K.A_KNOCK:
        _start_end_nb(g, rt, seat)
        g[ix(G_PUB + K.PUB_KNOCKED)] = 1
    if ok and not _remove_groups_nb(g, rt, rng, par, log, user, policies, aux, seat):
        return -1
    if ok and rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and _may_knock_nb(g, rt):
        # knock_timing end_of_own_turn / any_time_in_turn: knock right after the turn (AMB-12;
        # knocking at the start and then playing the turn gains nothing over this)
        _clear_nb(g)
        g[ix(G_LEGAL + K.A_KNOCK)] = 1
        g[ix(G_LEGAL + K.A_PASS)] = 1
        k = _ask_nb(g, rt, rng, par, log, user, policies, aux, K.DP_KNOCK, seat, -1)
        if k < 0:
            return -1
        if k == K.A_KNOCK:
            _start_end_nb(g, rt, seat)
            g[ix(G_PUB + K.PUB_KNOCKED)] = 1
    return 1 if ok else -1


# ---- invariants (checked after every turn when asked) ------------------------------------------
@hot
def conservation_ok_nb(g, rt, held, counts):
    """Every card of the deck is in exactly one place, and the public counters match."""
    n_ids = counts.size
    for i in range(n_ids):
        counts[i] = 0
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    up_n = 0
    up_sum = 0
    for s in range(players):
        fd = 0
        for p in range(npos):
            card = g[ix(G_LAY + s * MAX_POS + p)]
            if card >= K.EMPTY0:  # empty (remove_cancelled): face up, but no card
                if card != K.EMPTY0 + p or not g[ix(G_UP + s * MAX_POS + p)]:
                    return False
                continue
            if card >= 0:
                counts[card] += 1
            if g[ix(G_UP + s * MAX_POS + p)]:
                up_n += 1
                up_sum += rt[ix(RT_VALUE + card)]
            else:
                fd += 1
        if fd != g[ix(G_FACE_DOWN + s)]:
            return False
    for i in range(g[ix(G_PUB + K.PUB_STOCK_N)]):
        counts[g[ix(G_STOCK + i)]] += 1
    disc_sum = 0
    for i in range(g[ix(G_PUB + K.PUB_DISCARD_N)]):
        counts[g[ix(G_DISCARD + i)]] += 1
        disc_sum += rt[ix(RT_VALUE + g[G_DISCARD + i])]
    if held >= 0:
        counts[held] += 1
    for i in range(rt[K.R_NCARDS]):
        c = rt[ix(RT_DECK + i)]
        if counts[c] != 1:
            return False
        counts[c] = 0
    for i in range(n_ids):
        if counts[i] != 0:
            return False
    return up_n == g[ix(G_PUB + K.PUB_FACEUP_N)] and \
        up_sum == g[ix(G_PUB + K.PUB_FACEUP_SUM)] and \
        disc_sum == g[ix(G_PUB + K.PUB_DISCARD_SUM)]


# ---- one round ---------------------------------------------------------------------------------
@hot
def _deal_nb(g, rt, rng, seed, round_index):
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    for s in range(players):
        rng[STREAM_SEAT0 + s] = stream_state_nb(seed, round_index, STREAM_SEAT0 + s)
    for i in range(K.N_PUB_SLOTS + MAX_PLAYERS):
        g[ix(G_PUB + i)] = 0
    for s in range(players):
        for i in range(K.MEMORY_SLOTS):
            g[ix(G_MEMORY + s * K.MEMORY_SLOTS + i)] = 0
        g[ix(G_PENALTY + s)] = 0
        g[ix(G_SKIP + s)] = 0
        for p in range(MAX_POS):
            g[ix(K.G_ONCE + s * MAX_POS + p)] = K.ONCE_LEFT
        g[ix(K.G_BANK + s)] = 0
    for i in range(ncards):
        g[ix(G_STOCK + i)] = rt[ix(RT_DECK + i)]
    shuffle_nb(g, G_STOCK, ncards, rng, STREAM_DEAL)
    # one card at a time, position by position, starting with the first player (seat 0)
    n = ncards
    for s in range(players):
        for p in range(MAX_POS):
            g[ix(G_LAY + s * MAX_POS + p)] = -1
            g[ix(G_UP + s * MAX_POS + p)] = 0
        for obs in range(players):
            for p in range(npos):
                g[known_at(obs, s, p)] = -1
        g[ix(G_FACE_DOWN + s)] = npos
    for p in range(npos):
        for s in range(players):
            n -= 1
            g[ix(G_LAY + s * MAX_POS + p)] = g[ix(G_STOCK + n)]
    if rt[K.R_OWNER_VIEW_ALL] != 0:  # the owner holds its cards in hand and sees them all
        for s in range(players):
            for p in range(npos):
                g[known_at(s, s, p)] = g[ix(G_LAY + s * MAX_POS + p)]
    for s in range(players):  # first-turn reveals still to do (-1), or reveals done
        g[ix(G_CHOSEN + s * MAX_POS + MAX_POS - 1)] = \
            -1 if rt[K.R_REVEAL_MODE] == K.REVEAL_FLIP_FIRST_TURN else 0
    if rt[K.R_INITIAL_TURN_UP] != 0:  # else the pile starts empty (initial_discard = none)
        n -= 1
        g[ix(G_DISCARD)] = g[ix(G_STOCK + n)]
        g[ix(G_PUB + K.PUB_DISCARD_N)] = 1
        g[ix(G_PUB + K.PUB_DISCARD_SUM)] = rt[ix(RT_VALUE + g[G_DISCARD])]
    g[ix(G_PUB + K.PUB_STOCK_N)] = n
    g[ix(G_PUB + K.PUB_ENDER)] = -1
    g[ix(G_PUB + K.PUB_FINAL_LEFT)] = -1
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1


@hot
def _score_nb(g, rt, scores, L, quads, extra, tmp):
    """Reveal everything and score: layout values L, then hole scores."""
    players = rt[K.R_PLAYERS]
    layout_values_nb(g, G_LAY, rt, players, L, quads, tmp)
    for s in range(players):
        extra[s] = g[ix(G_PENALTY + s)]
        L[s] += g[ix(K.G_BANK + s)]
    hole_scores_nb(L, quads, g[ix(G_PUB + K.PUB_ENDER)], g[ix(G_PUB + K.PUB_KNOCKED)] == 1,
                   players, rt, extra, scores)


@hot
def play_round_nb(seed, round_index, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
                  log_on, check, user, policies, aux):
    """Deal, reveal, play and score one round (hole). Scores land in ``scores``, layout values
    in ``L``, the outcome in ``out`` (codes.OUT_*). With ``log_on`` every decision is appended
    to ``log``; with ``check`` card conservation and the public counters are verified after
    every turn."""
    players = rt[K.R_PLAYERS]
    for i in range(K.N_PRIV):
        g[ix(G_PRIV + i)] = 0
    g[ix(G_PRIV + K.PRIV_LOG_N)] = 0 if log_on else -1
    _deal_nb(g, rt, rng, seed, round_index)
    ok = _initial_reveal_nb(g, rt, rng, par, log, user, policies, aux)
    if ok and rt[K.R_REARRANGE] != 0:
        ok = _arrange_nb(g, rt, rng, par, log, user, policies, aux)
    if rt[K.R_REPLACE_UNSEEN_ONCE] != 0:  # what each owner saw before play has no limit
        for s in range(players):
            for p in range(rt[K.R_NPOS]):
                if g[known_at(s, s, p)] >= 0:
                    g[ix(K.G_ONCE + s * MAX_POS + p)] = K.ONCE_SEEN
    for s in range(players):  # groups the initial flips completed
        if ok:
            ok = _remove_groups_nb(g, rt, rng, par, log, user, policies, aux, s)
    seat = 0
    cap = rt[K.R_TURN_CAP]
    triggers = rt[K.R_END_TRIGGERS]
    while ok:
        ender_before = g[ix(G_PUB + K.PUB_ENDER)]
        if g[ix(G_SKIP + seat)] != 0:  # a jack was discarded onto this seat: it loses this turn
            g[ix(G_SKIP + seat)] = 0
            r = 1
        else:
            r = _play_turn_nb(g, rt, rng, par, log, user, policies, aux, seat)
        if r < 0:
            ok = False
            break
        if r == 0:
            break
        g[ix(G_PUB + K.PUB_TURN)] += 1
        if check and not conservation_ok_nb(g, rt, -1, tmp):
            g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_CONSERVATION
            ok = False
            break
        if ender_before >= 0:
            g[ix(G_PUB + K.PUB_FINAL_LEFT)] -= 1          # a final turn was played
        elif g[ix(G_PUB + K.PUB_ENDER)] < 0:              # (a knock or flip-all set it itself)
            if (triggers & K.END_ALL_FACE_UP) != 0 and g[ix(G_FACE_DOWN + seat)] == 0:
                _start_end_nb(g, rt, seat)
            elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
                all_up = True
                for s in range(players):
                    if g[ix(G_FACE_DOWN + s)] != 0:
                        all_up = False
                if all_up:
                    g[ix(G_PUB + K.PUB_ENDER)] = seat
                    g[ix(G_PUB + K.PUB_FINAL_LEFT)] = 0
        if ender_before < 0 and g[ix(G_PUB + K.PUB_ENDER)] >= 0 and rt[K.R_REVEAL_ON_TRIGGER] != 0:
            for s in range(players):  # groups the others' forced reveal completed
                if s != seat and ok:
                    ok = _remove_groups_nb(g, rt, rng, par, log, user, policies, aux, s)
            if not ok:
                break
        if g[ix(G_PUB + K.PUB_ENDER)] >= 0 and g[ix(G_PUB + K.PUB_FINAL_LEFT)] <= 0:
            break
        if rt[K.R_STOCK_EMPTY] == K.STOCK_END_HOLE and g[ix(G_PUB + K.PUB_STOCK_N)] == 0:
            break  # docs/rules.md#stock_empty: with end_hole the hole ends with the stock
        if g[ix(G_PUB + K.PUB_TURN)] >= cap:
            g[ix(G_PRIV + K.PRIV_CAPPED)] = 1
            break
        seat += 1
        if seat == players:
            seat = 0
    out[K.OUT_ERROR] = g[ix(G_PRIV + K.PRIV_ERROR)]
    out[K.OUT_ERR_SEAT] = g[ix(G_PRIV + K.PRIV_ERR_SEAT)]
    out[K.OUT_ERR_POINT] = g[ix(G_PRIV + K.PRIV_ERR_POINT)]
    out[K.OUT_ERR_ACTION] = g[ix(G_PRIV + K.PRIV_ERR_ACTION)]
    out[K.OUT_LOG_N] = g[ix(G_PRIV + K.PRIV_LOG_N)]
    if not ok:
        return False
    _score_nb(g, rt, scores, L, quads, extra, tmp)
    out[K.OUT_TURNS] = g[ix(G_PUB + K.PUB_TURN)]
    out[K.OUT_CAPPED] = g[ix(G_PRIV + K.PRIV_CAPPED)]
    out[K.OUT_ENDER] = g[ix(G_PUB + K.PUB_ENDER)]
    out[K.OUT_RESHUFFLES] = g[ix(G_PUB + K.PUB_RESHUFFLES)]
    out[K.OUT_KNOCKED] = g[ix(G_PUB + K.PUB_KNOCKED)]
    return True


@hot
def _four_of_a_kind_nb(g, seat, npos, counts):
    """Does the seat's layout hold four cards of one rank (jokers are no rank)? AMB-29."""
    for r in range(13):
        counts[r] = 0
    for p in range(npos):
        local = g[ix(G_LAY + seat * MAX_POS + p)] % CARDS_PER_DECK
        if local < 52:
            r = local % 13
            counts[r] += 1
            if counts[r] >= 4:
                return True
    return False


MATCH_TIE_TIEBREAK = K.MATCH_TIES.index("tiebreak")
MATCH_TIE_EXTRA = K.MATCH_TIES.index("extra_holes")
KNOCK_ONLY = K.ENDER_APPLIES.index("knock_only")
TIE_NEUTRAL = K.ENDER_TIES.index("neutral")
TIE_LOWEST = K.ENDER_TIES.index("counts_as_lowest")
MT_BALANCE = MAX_PLAYERS        # match_total[MT_BALANCE + s]: seat s's pot balance
MT_POT = 2 * MAX_PLAYERS        # match_total[MT_POT]: what the pot holds
MATCH_SCRATCH = 2 * MAX_PLAYERS + 1


@hot
def _settle_pot_nb(rt, out, L, first, players, mt):
    """After a hole (docs/rules.md#pot_enabled, AMB-38): the ender takes the pot when lowest by
    layout value, else pays in as much as it holds (each at most the cap); a tie follows
    ender_tie (neutral: nothing changes hands)."""
    e = out[K.OUT_ENDER]
    if e < 0 or (rt[K.R_ENDER_APPLIES] == KNOCK_ONLY and out[K.OUT_KNOCKED] == 0):
        return
    others = 1 << 40
    for j in range(players):
        if j != e and L[j] < others:
            others = L[j]
    if L[e] < others:
        wins = True
    elif L[e] > others:
        wins = False
    elif rt[K.R_ENDER_TIE] == TIE_NEUTRAL:
        return
    else:
        wins = rt[K.R_ENDER_TIE] == TIE_LOWEST
    amount = mt[MT_POT]
    if rt[K.R_POT_CAP] > 0 and amount > rt[K.R_POT_CAP]:
        amount = rt[K.R_POT_CAP]
    seat = (first + e) % players
    if wins:
        mt[MT_BALANCE + seat] += amount
        mt[MT_POT] -= amount
    else:
        mt[MT_BALANCE + seat] -= amount
        mt[MT_POT] += amount


@hot
def play_matches_nb(seed, start, count, holes, target, rt, par, par_rot, g, rng, log, out,
                    scores, L, quads, extra, tmp, acc, tot, hist, match_total, macc, mtot,
                    check, user, policies, aux):
    """Play matches ``start .. start+count-1``: ``holes`` holes each, or (``target`` > 0) until
    some seat's running total reaches ``target`` (docs/rules.md#matches). The first
    dealer is drawn per match (dealer_selection = random; volunteer: seat 0 plays first) and
    the deal passes left after every hole, or the previous hole's lowest scorer plays first
    (first_player = previous_hole_winner). Hole statistics are added per physical seat;
    every match's totals decide its winner: ties share, or a random tiebreak, or extra holes
    until one total is lowest (match_tie); four_of_kind_wins_match ends a match at once (the
    seats holding four of a kind win, the lowest hole score among them, ties sharing,
    AMB-29). With a pot, each seat's balance at the match's end is summed too.
    ``match_total``: int64 scratch of MATCH_SCRATCH."""
    players = rt[K.R_PLAYERS]
    width = par.shape[1]
    ante = rt[K.R_POT_ANTE]
    for i in range(count):
        m = start + i
        for s in range(players):
            match_total[s] = 0
            match_total[MT_BALANCE + s] = 0
        match_total[MT_POT] = 0
        first = 0
        if rt[K.R_DEALER_RANDOM] != 0:
            rng[STREAM_DEAL] = stream_state_nb(seed, m, STREAM_DEALER)
            first = below_nb(rng, STREAM_DEAL, players)
        h = 0
        instant = False
        while True:
            for j in range(players):
                for c in range(width):
                    par_rot[j, c] = par[(first + j) % players, c]
            if ante > 0 and match_total[MT_POT] == 0:
                for s in range(players):
                    match_total[MT_BALANCE + s] -= ante
                match_total[MT_POT] = ante * players
            if not play_round_nb(seed, m * MAX_MATCH_HOLES + h, rt, par_rot, g, rng, log, out,
                                 scores, L, quads, extra, tmp, False, check, user, policies, aux):
                return i
            _add_hole_nb(first, scores, out, acc, tot, hist, players)
            if ante > 0:
                _settle_pot_nb(rt, out, L, first, players, match_total)
            high = -(1 << 40)
            for j in range(players):
                s = (first + j) % players
                match_total[s] += scores[j]
                if match_total[s] > high:
                    high = match_total[s]
            h += 1
            if rt[K.R_FOUR_KIND_WINS] != 0:
                low = 1 << 40
                for j in range(players):  # tmp[16 + j]: seat j holds four of a kind
                    tmp[16 + j] = _four_of_a_kind_nb(g, j, rt[K.R_NPOS], tmp)
                    if tmp[16 + j] and scores[j] < low:
                        low = scores[j]
                if low < (1 << 40):
                    kq = 0
                    for j in range(players):
                        if tmp[16 + j] and scores[j] == low:
                            kq += 1
                    for j in range(players):
                        if tmp[16 + j] and scores[j] == low:
                            macc[(first + j) % players, MACC_WIN_K0 + kq - 1] += 1
                    instant = True
                    break
            if rt[K.R_FIRST_WINNER] != 0:
                low = scores[0]
                nxt = first
                for j in range(1, players):
                    if scores[j] < low:
                        low = scores[j]
                        nxt = (first + j) % players
                first = nxt
            else:
                first = (first + 1) % players
            if target > 0:
                done = high >= target or h >= MAX_MATCH_HOLES
            else:
                done = h >= holes
            if done and rt[K.R_MATCH_TIE] == MATCH_TIE_EXTRA and h < MAX_MATCH_HOLES:
                best, k = _lowest_nb(match_total, players)
                done = k == 1
            if done:
                break
        best, k = _lowest_nb(match_total, players)
        pick = -1
        if k > 1 and not instant and rt[K.R_MATCH_TIE] == MATCH_TIE_TIEBREAK:
            rng[STREAM_DEAL] = stream_state_nb(seed, m, STREAM_TIEBREAK)
            pick = below_nb(rng, STREAM_DEAL, k)
        t = 0
        for s in range(players):
            v = match_total[s]
            macc[s, MACC_TOTAL_SUM] += v
            macc[s, MACC_TOTAL_SQ] += v * v
            if v == best and not instant:
                if pick < 0:
                    macc[s, MACC_WIN_K0 + k - 1] += 1
                elif t == pick:
                    macc[s, MACC_WIN_K0] += 1
                t += 1
            b = match_total[MT_BALANCE + s]
            macc[s, MACC_POT_SUM] += b
            macc[s, MACC_POT_SQ] += b * b
        mtot[MTOT_MATCHES] += 1
        mtot[MTOT_HOLES_SUM] += h
        mtot[MTOT_HOLES_SQ] += h * h
    return count


@hot
def play_chunk_nb(seed, start, count, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
                  acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts, check,
                  user, policies, aux):
    """Play rounds ``start .. start+count-1`` and add their sums into acc/tot/hist.
    ``per_round_*`` arrays with a first dimension of ``count`` receive every round's scores,
    turns and final layouts; pass arrays of length 0 to skip. Returns the number of rounds
    played (less than ``count`` only after a policy error, described in ``out``)."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    keep_scores = per_round_scores.shape[0] == count
    keep_layouts = per_round_layouts.shape[0] == count
    for i in range(count):
        if not play_round_nb(seed, start + i, rt, par, g, rng, log, out, scores, L, quads,
                             extra, tmp, False, check, user, policies, aux):
            return i
        turns = out[K.OUT_TURNS]
        _add_hole_nb(0, scores, out, acc, tot, hist, players)
        if keep_scores:
            for s in range(players):
                per_round_scores[i, s] = scores[s]
            per_round_turns[i] = turns
        if keep_layouts:
            for s in range(players):
                for p in range(npos):
                    per_round_layouts[i, s, p] = g[ix(G_LAY + s * MAX_POS + p)]
    return count


def policy_table(policy_ids, params) -> np.ndarray:
    """Per-seat policy id and parameters as one float64 table: column 0 is the id."""
    ids = np.asarray(policy_ids, dtype=np.float64).reshape(-1, 1)
    par = np.asarray(params, dtype=np.float64).reshape(ids.shape[0], -1)
    return np.ascontiguousarray(np.hstack([ids, par]))
