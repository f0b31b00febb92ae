"""The compiled engine: one kernel plays any rule set (rules arrive as arrays) with any mix of
built-in policies (chosen per seat by id).

State is a handful of small-integer arrays, padded to MAX_POS positions, with -1 for "no card":

- ``lay[seat, pos]``      card at each position
- ``up[seat, pos]``       1 when face up (public)
- ``known[obs, seat, pos]`` what seat ``obs`` knows is at (seat, pos), -1 if unknown
- ``stock[0:pub[PUB_STOCK_N]]`` top at the end; ``discard[0:pub[PUB_DISCARD_N]]`` likewise
- ``pub``                 public counters (codes.PUB_*)

Knowledge is updated where cards move, so a policy is handed its own row of ``known`` and
never the hidden cards. ``play_round_nb`` is the move-by-move truth that the plain-Python
reference engine (simulator/reference.py) mirrors; ``play_chunk_nb`` plays a range of round
indices and returns integer sums that add up across chunks.
"""

from __future__ import annotations

import numpy as np
from simulator.jit import hot

from strategies.builtin import N_MEMORY, decide_nb

from . import codes as K
from .layout import can_replace_nb
from .rng import STREAM_DEAL, STREAM_SEAT0, below_nb, stream_state_nb
from .scoring import TMP_SIZE, hole_scores_nb, layout_value_nb

# error codes in out[OUT_ERROR]
ERR_ILLEGAL_ACTION = 1
ERR_CONSERVATION = 2
ERR_LOG_FULL = 3

# accumulator columns per seat (int64, exact, so chunk sums do not depend on chunking)
ACC_SCORE_SUM = 0
ACC_SCORE_SQ = 1
ACC_ENDER = 2
ACC_WIN_K0 = 3           # column ACC_WIN_K0 + k - 1: rounds won in a k-way tie
N_ACC = ACC_WIN_K0 + K.MAX_PLAYERS
# totals
TOT_ROUNDS = 0
TOT_TURNS_SUM = 1
TOT_TURNS_SQ = 2
TOT_CAPPED = 3
TOT_RESHUFFLES = 4
TOT_ENDED = 5            # rounds with an ender
N_TOT = 8
HIST_OFFSET = 256        # score histogram bin = score + HIST_OFFSET, clipped
HIST_BINS = 768

LOG_FIELDS = 5           # turn, seat, decision point, action, held card


class State:
    """Allocation of the per-thread state arrays (plain numpy, reused across rounds)."""

    def __init__(self, players: int, n_cards: int, n_ids: int, log_cap: int = 0):
        P = players
        self.lay = np.full((P, K.MAX_POS), -1, dtype=np.int16)
        self.up = np.zeros((P, K.MAX_POS), dtype=np.int8)
        self.known = np.full((P, P, K.MAX_POS), -1, dtype=np.int16)
        self.stock = np.full(n_cards, -1, dtype=np.int16)
        self.discard = np.full(n_cards, -1, dtype=np.int16)
        self.pub = np.zeros(K.N_PUB_SLOTS + K.MAX_PLAYERS, dtype=np.int64)
        self.rng = np.zeros(STREAM_SEAT0 + P, dtype=np.uint64)
        self.memory = np.zeros((P, N_MEMORY), dtype=np.float64)
        self.legal = np.zeros(K.N_ACTIONS, dtype=np.uint8)
        self.out = np.zeros(K.N_OUT_SLOTS, dtype=np.int64)
        self.scores = np.zeros(P, dtype=np.int64)
        self.L = np.zeros(P, dtype=np.int64)
        self.log = np.zeros((max(log_cap, 1), LOG_FIELDS), dtype=np.int32)
        # scratch, allocated once: nothing is allocated inside the round loop
        self.work = np.zeros((K.MAX_PLAYERS, K.MAX_POS), dtype=np.int64)
        self.quads = np.zeros(P, dtype=np.int64)
        self.extra = np.zeros(P, dtype=np.int64)
        self.counts = np.zeros(max(n_ids, TMP_SIZE), dtype=np.int64)  # also scoring scratch
        self.out[K.OUT_LOG_N] = 0 if log_cap > 0 else -1

    def arrays(self):
        return (self.lay, self.up, self.known, self.stock, self.discard, self.pub, self.rng,
                self.memory, self.legal, self.out, self.scores, self.L, self.log, self.work,
                self.quads, self.extra, self.counts)


PUB_FD0 = K.N_PUB_SLOTS   # pub[PUB_FD0 + seat] = face-down cards of that seat (public)


# ---- card movement: every place a card goes, with the knowledge it creates ---------------------
@hot
def _push_discard_nb(card, discard, pub, card_value):
    discard[pub[K.PUB_DISCARD_N]] = card
    pub[K.PUB_DISCARD_N] += 1
    pub[K.PUB_DISCARD_SUM] += card_value[card]


@hot
def _turn_up_nb(seat, p, lay, up, known, pub, players, card_value):
    """Turn (seat, p) face up: everyone now knows it."""
    card = lay[seat, p]
    up[seat, p] = 1
    for obs in range(players):
        known[obs, seat, p] = card
    pub[K.PUB_FACEUP_N] += 1
    pub[K.PUB_FACEUP_SUM] += card_value[card]
    pub[PUB_FD0 + seat] -= 1


@hot
def _replace_nb(seat, p, card, face_up, public_card, lay, up, known, discard, pub, players,
                card_value):
    """Put ``card`` at (seat, p); the old card goes face up onto the discard pile."""
    old = lay[seat, p]
    if up[seat, p]:
        pub[K.PUB_FACEUP_N] -= 1
        pub[K.PUB_FACEUP_SUM] -= card_value[old]
    else:
        pub[PUB_FD0 + seat] -= 1
    lay[seat, p] = card
    if face_up:
        up[seat, p] = 1
        pub[K.PUB_FACEUP_N] += 1
        pub[K.PUB_FACEUP_SUM] += card_value[card]
        for obs in range(players):
            known[obs, seat, p] = card
    else:
        up[seat, p] = 0
        pub[PUB_FD0 + seat] += 1
        for obs in range(players):
            # a face-down card is known to its owner, and to all if it came from the discard
            known[obs, seat, p] = card if (obs == seat or public_card) else -1
    _push_discard_nb(old, discard, pub, card_value)


@hot
def _shuffle_nb(a, n, rng):
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, STREAM_DEAL, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


@hot
def _reshuffle_nb(stock, discard, pub, card_value, rng):
    """The discard pile except its top card becomes the new stock."""
    n = pub[K.PUB_DISCARD_N] - 1
    for i in range(n):
        stock[i] = discard[i]
    top = discard[n]
    discard[0] = top
    pub[K.PUB_DISCARD_N] = 1
    pub[K.PUB_DISCARD_SUM] = card_value[top]
    pub[K.PUB_STOCK_N] = n
    pub[K.PUB_RESHUFFLES] += 1
    _shuffle_nb(stock, n, rng)


# ---- asking a policy ---------------------------------------------------------------------------
@hot
def _ask_nb(point, seat, held, policy_ids, params, ri, card_value, card_key, lay, up, known,
            discard, pub, rng, memory, legal, out, log):
    pub[K.PUB_ACTOR] = seat
    a = decide_nb(policy_ids[seat], point, seat, held, pub, known, up, discard, legal,
                  card_value, card_key, ri, params, memory, rng)
    if a < 0 or a >= K.N_ACTIONS or legal[a] == 0:
        out[K.OUT_ERROR] = ERR_ILLEGAL_ACTION
        out[K.OUT_ERR_SEAT] = seat
        out[K.OUT_ERR_POINT] = point
        out[K.OUT_ERR_ACTION] = a
        return -1
    cap = log.shape[0]
    n = out[K.OUT_LOG_N]
    if n >= 0:  # logging enabled (see play_round_nb): append one row
        if n >= cap:
            out[K.OUT_ERROR] = ERR_LOG_FULL
            return -1
        log[n, 0] = pub[K.PUB_TURN]
        log[n, 1] = seat
        log[n, 2] = point
        log[n, 3] = a
        log[n, 4] = held
        out[K.OUT_LOG_N] = n + 1
    return a


@hot
def _clear_nb(legal):
    for a in range(K.N_ACTIONS):
        legal[a] = 0


@hot
def _placement_mask_nb(seat, up, ri, legal):
    _clear_nb(legal)
    any_legal = False
    for p in range(ri[K.R_NPOS]):
        if can_replace_nb(up, seat, p, ri):
            legal[p] = 1
            any_legal = True
    return any_legal


@hot
def _face_down_mask_nb(seat, up, ri, legal):
    _clear_nb(legal)
    for p in range(ri[K.R_NPOS]):
        if not up[seat, p]:
            legal[p] = 1


@hot
def _reveal_mask_nb(seat, chosen, n_chosen, up, known, ri, legal):
    # chosen[seat, 0:n_chosen]: positions this seat already picked
    """Positions the seat may still reveal given the ones it chose (RULES.md §3.2)."""
    _clear_nb(legal)
    cols = ri[K.R_COLS]
    rows = ri[K.R_ROWS]
    con = ri[K.R_REVEAL_CONSTRAINT]
    centre = cols // 2
    any_legal = False
    for p in range(ri[K.R_NPOS]):
        if up[seat, p] or known[seat, seat, p] >= 0:
            continue
        taken = False
        for i in range(n_chosen):
            if chosen[seat, i] == p:
                taken = True
        if taken:
            continue
        c = p % cols
        ok = True
        if con == K.CON_NEAREST_ROW:
            ok = p // cols == rows - 1
        elif con == K.CON_SAME_COLUMN and n_chosen > 0:
            ok = c == chosen[seat, 0] % cols
        elif con == K.CON_DIFFERENT_COLUMNS:
            for i in range(n_chosen):
                if chosen[seat, i] % cols == c:
                    ok = False
        elif con == K.CON_CENTRE_OUTER and n_chosen > 0:
            first_centre = chosen[seat, 0] % cols == centre
            ok = (c == centre) != first_centre
        if ok:
            legal[p] = 1
            any_legal = True
    return any_legal


@hot
def _reveal_nb(seat, p, lay, up, known, pub, players, ri, card_value):
    if ri[K.R_REVEAL_MODE] == K.REVEAL_PEEK:
        known[seat, seat, p] = lay[seat, p]
    else:
        _turn_up_nb(seat, p, lay, up, known, pub, players, card_value)


@hot
def _initial_reveal_nb(players, policy_ids, params, ri, card_value, card_key, lay, up, known,
                       discard, pub, rng, memory, legal, out, log, work, L):
    """Flip or peek, seat by seat from the first player. With sequential choice each card is
    seen before the next is chosen; otherwise a seat's cards (or, with simultaneous order,
    everyone's) are revealed only after all of them are chosen."""
    count = ri[K.R_REVEAL_COUNT]
    if ri[K.R_REVEAL_MODE] == K.REVEAL_NONE or ri[K.R_REVEAL_MODE] == K.REVEAL_FLIP_FIRST_TURN \
            or count == 0:
        return True
    simultaneous = ri[K.R_REVEAL_SIMULTANEOUS] != 0
    sequential = ri[K.R_REVEAL_SEQUENTIAL] != 0 and not simultaneous
    chosen = work  # chosen[seat, i]: the i-th position seat picked (work is a scratch table)
    n_chosen = L   # picks so far per seat (L is free until scoring)
    for s in range(players):
        n_chosen[s] = 0
    for seat in range(players):
        for i in range(count):
            if not _reveal_mask_nb(seat, chosen, n_chosen[seat], up, known, ri, legal):
                break
            a = _ask_nb(K.DP_REVEAL, seat, -1, policy_ids, params, ri, card_value, card_key,
                        lay, up, known, discard, pub, rng, memory, legal, out, log)
            if a < 0:
                return False
            chosen[seat, n_chosen[seat]] = a
            n_chosen[seat] += 1
            if sequential:
                _reveal_nb(seat, a, lay, up, known, pub, players, ri, card_value)
        if not sequential and not simultaneous:
            for i in range(n_chosen[seat]):
                _reveal_nb(seat, chosen[seat, i], lay, up, known, pub, players, ri, card_value)
    if simultaneous:
        for seat in range(players):
            for i in range(n_chosen[seat]):
                _reveal_nb(seat, chosen[seat, i], lay, up, known, pub, players, ri, card_value)
    return True


# ---- one turn ----------------------------------------------------------------------------------
@hot
def _place_nb(seat, card, public_card, point, policy_ids, params, ri, card_value, card_key, lay,
              up, known, discard, pub, rng, memory, legal, out, log, p):
    """Put a held card at position p with the face the rules (or the player) choose."""
    face_rule = ri[K.R_PLACEMENT_FACE]
    face_up = face_rule == K.FACE_UP
    if face_rule == K.FACE_CHOICE:
        if up[seat, p]:
            face_up = True  # replacing a face-up card always yields a face-up card
        else:
            _clear_nb(legal)
            legal[K.A_FACE_UP] = 1
            legal[K.A_FACE_DOWN] = 1
            a = _ask_nb(K.DP_FACE, seat, card, policy_ids, params, ri, card_value, card_key,
                        lay, up, known, discard, pub, rng, memory, legal, out, log)
            if a < 0:
                return False
            face_up = a == K.A_FACE_UP
    _replace_nb(seat, p, card, face_up, public_card, lay, up, known, discard, pub,
                ri[K.R_PLAYERS], card_value)
    return True


@hot
def _play_turn_nb(seat, policy_ids, params, ri, card_value, card_key, lay, up, known, stock,
                  discard, pub, rng, memory, legal, out, log):
    """One turn of ``seat``. Returns 1 when played, 0 when the hole must end (no stock to draw
    and nothing to do), -1 on a policy error."""
    players = ri[K.R_PLAYERS]
    final_lap = pub[K.PUB_ENDER] >= 0
    face_down = pub[PUB_FD0 + seat]
    _clear_nb(legal)
    can_draw = pub[K.PUB_STOCK_N] > 0 or (ri[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and
                                          pub[K.PUB_DISCARD_N] > 1)
    if can_draw:
        legal[K.A_DRAW_STOCK] = 1
    if ri[K.R_DRAW_FROM_DISCARD] != 0 and pub[K.PUB_DISCARD_N] > 0 and \
            not (final_lap and ri[K.R_FINAL_STOCK_ONLY] != 0):
        for p in range(ri[K.R_NPOS]):
            if can_replace_nb(up, seat, p, ri):
                legal[K.A_TAKE_DISCARD] = 1
                break
    if face_down > 0:
        if ri[K.R_FLIP_INSTEAD_OF_DRAW] != 0:
            legal[K.A_FLIP] = 1
        if ri[K.R_FLIP_ALL_TO_END] != 0:
            legal[K.A_FLIP_ALL] = 1
    if (ri[K.R_END_TRIGGERS] & K.END_KNOCK) != 0 and not final_lap:
        legal[K.A_KNOCK] = 1
    if not (legal[K.A_DRAW_STOCK] or legal[K.A_TAKE_DISCARD] or legal[K.A_FLIP] or
            legal[K.A_FLIP_ALL] or legal[K.A_KNOCK]):
        return 0
    a = _ask_nb(K.DP_TURN, seat, -1, policy_ids, params, ri, card_value, card_key, lay, up,
                known, discard, pub, rng, memory, legal, out, log)
    if a < 0:
        return -1

    if a == K.A_DRAW_STOCK:
        if pub[K.PUB_STOCK_N] == 0:
            _reshuffle_nb(stock, discard, pub, card_value, rng)
        pub[K.PUB_STOCK_N] -= 1
        card = stock[pub[K.PUB_STOCK_N]]
        _placement_mask_nb(seat, up, ri, legal)
        if ri[K.R_STOCK_MAY_DISCARD] != 0:
            legal[K.A_DISCARD] = 1
        b = _ask_nb(K.DP_PLACE_DRAWN, seat, card, policy_ids, params, ri, card_value, card_key,
                    lay, up, known, discard, pub, rng, memory, legal, out, log)
        if b < 0:
            return -1
        if b == K.A_DISCARD:
            _push_discard_nb(card, discard, pub, card_value)
            fad = ri[K.R_FLIP_AFTER_DISCARD]
            fd = pub[PUB_FD0 + seat]
            if fad != K.FAD_NONE and fd > 0:
                _face_down_mask_nb(seat, up, ri, legal)
                if fad == K.FAD_UNLESS_ONE and fd == 1:
                    legal[K.A_PASS] = 1
                c = _ask_nb(K.DP_FLIP, seat, -1, policy_ids, params, ri, card_value, card_key,
                            lay, up, known, discard, pub, rng, memory, legal, out, log)
                if c < 0:
                    return -1
                if c != K.A_PASS:
                    _turn_up_nb(seat, c, lay, up, known, pub, players, card_value)
        elif not _place_nb(seat, card, False, K.DP_PLACE_DRAWN, policy_ids, params, ri,
                           card_value, card_key, lay, up, known, discard, pub, rng, memory,
                           legal, out, log, b):
            return -1
    elif a == K.A_TAKE_DISCARD:
        pub[K.PUB_DISCARD_N] -= 1
        card = discard[pub[K.PUB_DISCARD_N]]
        pub[K.PUB_DISCARD_SUM] -= card_value[card]
        pub[K.PUB_HELD_PUBLIC] = card
        _placement_mask_nb(seat, up, ri, legal)
        b = _ask_nb(K.DP_PLACE_TAKEN, seat, card, policy_ids, params, ri, card_value, card_key,
                    lay, up, known, discard, pub, rng, memory, legal, out, log)
        pub[K.PUB_HELD_PUBLIC] = -1
        if b < 0:
            return -1
        if not _place_nb(seat, card, True, K.DP_PLACE_TAKEN, policy_ids, params, ri,
                         card_value, card_key, lay, up, known, discard, pub, rng, memory, legal,
                         out, log, b):
            return -1
    elif a == K.A_FLIP:
        _face_down_mask_nb(seat, up, ri, legal)
        c = _ask_nb(K.DP_FLIP, seat, -1, policy_ids, params, ri, card_value, card_key, lay, up,
                    known, discard, pub, rng, memory, legal, out, log)
        if c < 0:
            return -1
        _turn_up_nb(seat, c, lay, up, known, pub, players, card_value)
    elif a == K.A_FLIP_ALL:
        for p in range(ri[K.R_NPOS]):
            if not up[seat, p]:
                _turn_up_nb(seat, p, lay, up, known, pub, players, card_value)
        if pub[K.PUB_ENDER] < 0:
            _start_end_nb(seat, pub, ri)
    elif a == K.A_KNOCK:
        _start_end_nb(seat, pub, ri)
        pub[K.PUB_KNOCKED] = 1
    return 1


@hot
def _start_end_nb(seat, pub, ri):
    players = ri[K.R_PLAYERS]
    pub[K.PUB_ENDER] = seat
    ft = ri[K.R_FINAL_TURNS]
    if ft == K.FINAL_NONE:
        pub[K.PUB_FINAL_LEFT] = 0
    elif ft == K.FINAL_EACH_OTHER:
        pub[K.PUB_FINAL_LEFT] = players - 1
    else:  # complete the lap: the seats after the ender up to the dealer (the last seat)
        pub[K.PUB_FINAL_LEFT] = players - 1 - seat


@hot
def conservation_ok_nb(ri, deck, lay, stock, discard, pub, held, counts):
    """Every card of the deck is in exactly one place, and the public counters match."""
    for i in range(counts.size):
        counts[i] = 0
    players = ri[K.R_PLAYERS]
    for s in range(players):
        for p in range(ri[K.R_NPOS]):
            if lay[s, p] >= 0:
                counts[lay[s, p]] += 1
    for i in range(pub[K.PUB_STOCK_N]):
        counts[stock[i]] += 1
    for i in range(pub[K.PUB_DISCARD_N]):
        counts[discard[i]] += 1
    if held >= 0:
        counts[held] += 1
    for i in range(deck.size):
        if counts[deck[i]] != 1:
            return False
        counts[deck[i]] = 0
    for i in range(counts.size):
        if counts[i] != 0:
            return False
    return True


@hot
def _counters_ok_nb(ri, card_value, lay, up, discard, pub):
    n = 0
    s = 0
    for seat in range(ri[K.R_PLAYERS]):
        fd = 0
        for p in range(ri[K.R_NPOS]):
            if up[seat, p]:
                n += 1
                s += card_value[lay[seat, p]]
            else:
                fd += 1
        if fd != pub[PUB_FD0 + seat]:
            return False
    ds = 0
    for i in range(pub[K.PUB_DISCARD_N]):
        ds += card_value[discard[i]]
    return n == pub[K.PUB_FACEUP_N] and s == pub[K.PUB_FACEUP_SUM] and \
        ds == pub[K.PUB_DISCARD_SUM]


# ---- one round ---------------------------------------------------------------------------------
@hot
def play_round_nb(seed, round_index, ri, card_value, card_key, deck, policy_ids, params, lay,
                  up, known, stock, discard, pub, rng, memory, legal, out, scores, L, log, work,
                  quads, extra, counts, check):
    """Deal, reveal, play and score one round (hole). Scores land in ``scores``, layout
    values in ``L``, the outcome in ``out`` (codes.OUT_*). ``log`` rows are appended while
    ``out[OUT_LOG_N] >= 0`` on entry (set it to -1 to disable logging). With ``check`` the
    card-conservation and counter invariants are verified after every turn."""
    players = ri[K.R_PLAYERS]
    npos = ri[K.R_NPOS]
    ncards = ri[K.R_NCARDS]
    log_n = out[K.OUT_LOG_N]
    for i in range(K.OUT_LOG_N):
        out[i] = 0
    out[K.OUT_LOG_N] = 0 if log_n >= 0 else -1
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    for s in range(players):
        rng[STREAM_SEAT0 + s] = stream_state_nb(seed, round_index, STREAM_SEAT0 + s)
    for i in range(pub.size):
        pub[i] = 0
    memory[:, :] = 0.0
    # shuffle and deal one card at a time, starting with the first player (seat 0)
    for i in range(ncards):
        stock[i] = deck[i]
    _shuffle_nb(stock, ncards, rng)
    n = ncards
    for s in range(players):
        for p in range(K.MAX_POS):
            lay[s, p] = -1
            up[s, p] = 0
            for obs in range(players):
                known[obs, s, p] = -1
        pub[PUB_FD0 + s] = npos
    for p in range(npos):
        for s in range(players):
            n -= 1
            lay[s, p] = stock[n]
    n -= 1
    discard[0] = stock[n]
    pub[K.PUB_STOCK_N] = n
    pub[K.PUB_DISCARD_N] = 1
    pub[K.PUB_DISCARD_SUM] = card_value[discard[0]]
    pub[K.PUB_ENDER] = -1
    pub[K.PUB_FINAL_LEFT] = -1
    pub[K.PUB_HELD_PUBLIC] = -1

    if not _initial_reveal_nb(players, policy_ids, params, ri, card_value, card_key, lay, up,
                              known, discard, pub, rng, memory, legal, out, log, work, L):
        return False

    seat = 0
    cap = ri[K.R_TURN_CAP]
    triggers = ri[K.R_END_TRIGGERS]
    while True:
        ender_before = pub[K.PUB_ENDER]
        r = _play_turn_nb(seat, policy_ids, params, ri, card_value, card_key, lay, up, known,
                          stock, discard, pub, rng, memory, legal, out, log)
        if r < 0:
            return False
        if r == 0:
            break
        pub[K.PUB_TURN] += 1
        if check:
            if not conservation_ok_nb(ri, deck, lay, stock, discard, pub, -1, counts) or \
                    not _counters_ok_nb(ri, card_value, lay, up, discard, pub):
                out[K.OUT_ERROR] = ERR_CONSERVATION
                return False
        if ender_before >= 0:
            pub[K.PUB_FINAL_LEFT] -= 1          # a final turn was played
        elif pub[K.PUB_ENDER] < 0:              # (a knock or flip-all set the ender itself)
            if (triggers & K.END_ALL_FACE_UP) != 0 and pub[PUB_FD0 + seat] == 0:
                _start_end_nb(seat, pub, ri)
            elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
                all_up = True
                for s in range(players):
                    if pub[PUB_FD0 + s] != 0:
                        all_up = False
                if all_up:
                    pub[K.PUB_ENDER] = seat
                    pub[K.PUB_FINAL_LEFT] = 0
        if pub[K.PUB_ENDER] >= 0 and pub[K.PUB_FINAL_LEFT] <= 0:
            break
        if pub[K.PUB_TURN] >= cap:
            out[K.OUT_CAPPED] = 1
            break
        seat += 1
        if seat == players:
            seat = 0

    # reveal everything and score
    for s in range(players):
        extra[s] = 0
        L[s] = layout_value_nb(lay, s, ri, card_value, card_key, quads, counts)
    hole_scores_nb(L, quads, pub[K.PUB_ENDER], pub[K.PUB_KNOCKED] == 1, players, ri, extra,
                   scores)
    out[K.OUT_TURNS] = pub[K.PUB_TURN]
    out[K.OUT_ENDER] = pub[K.PUB_ENDER]
    out[K.OUT_RESHUFFLES] = pub[K.PUB_RESHUFFLES]
    return True


@hot
def play_chunk_nb(seed, start, count, ri, card_value, card_key, deck, policy_ids, params, lay,
                  up, known, stock, discard, pub, rng, memory, legal, out, scores, L, log, work,
                  quads, extra, counts, acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts, check):
    """Play rounds ``start .. start+count-1`` and add their sums into acc/tot/hist.
    ``per_round_*`` arrays with a first dimension of ``count`` receive every round's scores,
    turns and final layouts; pass arrays of length 0 to skip. Returns the number of rounds
    played (less than ``count`` only after a policy error, described in ``out``)."""
    players = ri[K.R_PLAYERS]
    npos = ri[K.R_NPOS]
    keep_scores = per_round_scores.shape[0] == count
    keep_layouts = per_round_layouts.shape[0] == count
    for i in range(count):
        out[K.OUT_LOG_N] = -1
        ok = play_round_nb(seed, start + i, ri, card_value, card_key, deck, policy_ids, params,
                           lay, up, known, stock, discard, pub, rng, memory, legal, out, scores,
                           L, log, work, quads, extra, counts, check)
        if not ok:
            return i
        best = scores[0]
        for s in range(1, players):
            if scores[s] < best:
                best = scores[s]
        k = 0
        for s in range(players):
            if scores[s] == best:
                k += 1
        turns = out[K.OUT_TURNS]
        for s in range(players):
            v = scores[s]
            acc[s, ACC_SCORE_SUM] += v
            acc[s, ACC_SCORE_SQ] += v * v
            if v == best:
                acc[s, ACC_WIN_K0 + k - 1] += 1
            b = v + HIST_OFFSET
            if b < 0:
                b = 0
            elif b >= HIST_BINS:
                b = HIST_BINS - 1
            hist[s, b] += 1
        ender = out[K.OUT_ENDER]
        if ender >= 0:
            acc[ender, ACC_ENDER] += 1
            tot[TOT_ENDED] += 1
        tot[TOT_ROUNDS] += 1
        tot[TOT_TURNS_SUM] += turns
        tot[TOT_TURNS_SQ] += turns * turns
        tot[TOT_CAPPED] += out[K.OUT_CAPPED]
        tot[TOT_RESHUFFLES] += out[K.OUT_RESHUFFLES]
        if keep_scores:
            for s in range(players):
                per_round_scores[i, s] = scores[s]
            per_round_turns[i] = turns
        if keep_layouts:
            for s in range(players):
                for p in range(npos):
                    per_round_layouts[i, s, p] = lay[s, p]
    return count


def play_logged_round(arrays, policy_ids, params, seed: int, round_index: int,
                      check: bool = True, log_cap: int = 8192) -> dict:
    """Play one round through the compiled kernel with its move log (for parity tests and
    debugging). Log rows are (turn, seat, decision point, action, held card)."""
    players = int(arrays.ri[K.R_PLAYERS])
    st = State(players, arrays.deck.size, arrays.card_value.size, log_cap)
    st.out[K.OUT_LOG_N] = 0
    ok = play_round_nb(seed, round_index, arrays.ri, arrays.card_value, arrays.card_key,
                       arrays.deck, np.asarray(policy_ids, dtype=np.int64),
                       np.asarray(params, dtype=np.float64), *st.arrays(), check)
    n = max(int(st.out[K.OUT_LOG_N]), 0)
    return {"ok": bool(ok), "log": st.log[:n].copy(), "scores": st.scores.copy(),
            "layout_values": st.L.copy(), "layouts": st.lay[:, :int(arrays.ri[K.R_NPOS])].copy(),
            "turns": int(st.out[K.OUT_TURNS]), "ender": int(st.out[K.OUT_ENDER]),
            "capped": bool(st.out[K.OUT_CAPPED]), "reshuffles": int(st.out[K.OUT_RESHUFFLES]),
            "error": int(st.out[K.OUT_ERROR])}
