"""The user-policy kernel: rounds in which every seat plays one user policy, compiled together
with that policy, for the rule sets the lean kernel plays (lean.rules_eligible).

The general engine calls a user policy through a C function pointer at each of its ~50
decisions a round and keeps state for every option of every rule set. Here the policy's
``decide`` is compiled into the loop (the compiler inlines it), and the turn is written for
the options those rule sets have. The state is the general engine's array ``g``, kept in the
same way, so the policy is shown the very same views (codes.G_*), and the same seeds give the
same rounds, decision for decision (tests/test_user_kernel.py plays both).

Its steps are the general engine's, written again for these rules and inlined: the engine's
own handle every option and are called, and writing the masks, the deal and the placement
this way took the example policy from 0.29x to 0.45x the speed of the built-in on the lean
kernel (docs/performance.md). The tests keep the two equal, rule set by rule set.

This file is a template: policy_api.user_kernel writes a copy per user policy in which the
lines between the policy markers below import the user's function, so that each policy gets
its own kernel, cached on disk like the others.
"""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LAY, G_LEGAL, G_MEMORY, G_PRIV, G_PUB, G_UP,
                                  MAX_IDS, MAX_PLAYERS, MAX_POS, RT_VALUE)
from simulator.kernel.engine import (ERR_ILLEGAL_ACTION, _clear_nb, _reshuffle_nb, _reveal_nb,
                                     _start_end_nb)
from simulator.kernel.layout import can_replace_nb
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import STREAM_DEAL, STREAM_SEAT0, shuffle_nb, stream_state_nb
from simulator.kernel.scoring import hole_scores_nb, layout_values_nb
from simulator.kernel.tally import _add_hole_nb

# ---- the policy: policy_api.user_kernel replaces these lines in each copy ----
def _placeholder(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
                 params):
    return -1


user_decide = hot(_placeholder, inline="always", cache=False)   # copied where it is asked
user_decide_call = hot(_placeholder, cache=False)               # called (rare decisions)
# ---- end of the policy ----


@hot(inline="always")
def _turn_mask(g, rt, seat):
    """engine.turn_mask_nb for these rules (no flip turns, no pay-to-peek, knocks instead of
    a turn), inlined. Returns how many actions are legal."""
    _clear_nb(g)
    n_legal = 0
    discard_n = g[ix(G_PUB + K.PUB_DISCARD_N)]
    if g[ix(G_PUB + K.PUB_STOCK_N)] > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and
                                            discard_n > 1):
        g[ix(G_LEGAL + K.A_DRAW_STOCK)] = 1
        n_legal += 1
    final_lap = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    if rt[K.R_DRAW_FROM_DISCARD] != 0 and discard_n > 0 and \
            not (final_lap and rt[K.R_FINAL_STOCK_ONLY] != 0):
        for p in range(rt[K.R_NPOS]):
            if can_replace_nb(g, rt, seat, p):
                g[ix(G_LEGAL + K.A_TAKE_DISCARD)] = 1
                n_legal += 1
                break
    if (rt[K.R_END_TRIGGERS] & K.END_KNOCK) != 0 and not final_lap and \
            g[ix(G_PUB + K.PUB_TURN)] >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]:
        g[ix(G_LEGAL + K.A_KNOCK)] = 1
        n_legal += 1
    return n_legal


@hot(inline="always")
def _reveal_mask(g, rt, seat, n_chosen):
    """engine._reveal_mask_nb for reveals at any position or in the nearest row."""
    _clear_nb(g)
    first = 0
    if rt[K.R_REVEAL_CONSTRAINT] == K.CON_NEAREST_ROW:
        first = (rt[K.R_ROWS] - 1) * rt[K.R_COLS]
    chosen = K.G_CHOSEN + seat * MAX_POS
    known = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    any_legal = False
    for p in range(first, rt[K.R_NPOS]):
        if g[ix(G_UP + seat * MAX_POS + p)] or g[ix(known + p)] >= 0:
            continue
        taken = False
        for i in range(n_chosen):
            if g[ix(chosen + i)] == p:
                taken = True
        if not taken:
            g[ix(G_LEGAL + p)] = 1
            any_legal = True
    return any_legal


@hot(inline="always")
def _deal(g, rt, rng, seed, round_index):
    """engine._deal_nb for these rules, inlined, without the state they never use (peek
    penalties, jack skips, replace_unseen_once, banked groups)."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    for s in range(players):
        rng[STREAM_SEAT0 + s] = stream_state_nb(seed, round_index, STREAM_SEAT0 + s)
    for i in range(K.N_PUB_SLOTS + MAX_PLAYERS):
        g[ix(G_PUB + i)] = 0
    for i in range(players * K.MEMORY_SLOTS):
        g[ix(G_MEMORY + i)] = 0
    for i in range(ncards):
        g[ix(K.G_STOCK + i)] = rt[ix(K.RT_DECK + i)]
    shuffle_nb(g, K.G_STOCK, ncards, rng, STREAM_DEAL)
    n = ncards
    for s in range(players):
        for p in range(npos):
            g[ix(G_UP + s * MAX_POS + p)] = 0
        for obs in range(players):
            for p in range(npos):
                g[ix(G_KNOWN + (obs * MAX_PLAYERS + s) * MAX_POS + p)] = -1
        g[ix(K.G_FACE_DOWN + s)] = npos
    for p in range(npos):
        for s in range(players):
            n -= 1
            g[ix(G_LAY + s * MAX_POS + p)] = g[ix(K.G_STOCK + n)]
    if rt[K.R_OWNER_VIEW_ALL] != 0:
        for s in range(players):
            for p in range(npos):
                g[ix(G_KNOWN + (s * MAX_PLAYERS + s) * MAX_POS + p)] = \
                    g[ix(G_LAY + s * MAX_POS + p)]
    if rt[K.R_INITIAL_TURN_UP] != 0:
        n -= 1
        g[ix(G_DISCARD)] = g[ix(K.G_STOCK + n)]
        g[ix(G_PUB + K.PUB_DISCARD_N)] = 1
        g[ix(G_PUB + K.PUB_DISCARD_SUM)] = rt[ix(RT_VALUE + g[G_DISCARD])]
    g[ix(G_PUB + K.PUB_STOCK_N)] = n
    g[ix(G_PUB + K.PUB_ENDER)] = -1
    g[ix(G_PUB + K.PUB_FINAL_LEFT)] = -1
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1


@hot(inline="always")
def _placement_mask(g, rt, seat):
    """engine._placement_mask_nb for these rules (no empty positions, no
    replace_unseen_once), inlined and without branches."""
    _clear_nb(g)
    cols = rt[K.R_COLS]
    face_up_ok = rt[K.R_REPLACE_FACE_UP] != 0
    lock = rt[K.R_LOCK_FACE_UP_COLUMNS] != 0
    up = G_UP + seat * MAX_POS
    for p in range(rt[K.R_NPOS]):
        other = p + cols if p < cols else p - cols
        g[ix(G_LEGAL + p)] = g[ix(up + p)] == 0 or \
            (face_up_ok and not (lock and g[ix(up + other)] != 0))


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
def _ask(g, rt, rng, par, point, seat, held):
    g[ix(G_PUB + K.PUB_ACTOR)] = seat
    known = G_KNOWN + seat * MAX_PLAYERS * MAX_POS
    a = user_decide(point, seat, held,
                    g[G_PUB:G_PUB + K.N_PUB_SLOTS + MAX_PLAYERS],
                    g[G_LEGAL:G_LEGAL + K.N_ACTIONS],
                    g[known:known + MAX_PLAYERS * MAX_POS],
                    g[G_UP:G_UP + MAX_PLAYERS * MAX_POS],
                    g[G_DISCARD:G_DISCARD + MAX_IDS],
                    g[G_MEMORY + seat * K.MEMORY_SLOTS:G_MEMORY + (seat + 1) * K.MEMORY_SLOTS],
                    rt, rng[STREAM_SEAT0 + seat:STREAM_SEAT0 + seat + 1], par[seat])
    return _checked(g, point, seat, a)


@hot(inline="always")
def _ask_rare(g, rt, rng, par, point, seat, held):
    """_ask for the decisions made a few times a round, through a call: the compiler copies
    the policy into every place that asks it inline, and each copy adds to the compile."""
    g[ix(G_PUB + K.PUB_ACTOR)] = seat
    known = G_KNOWN + seat * MAX_PLAYERS * MAX_POS
    a = user_decide_call(point, seat, held,
                         g[G_PUB:G_PUB + K.N_PUB_SLOTS + MAX_PLAYERS],
                         g[G_LEGAL:G_LEGAL + K.N_ACTIONS],
                         g[known:known + MAX_PLAYERS * MAX_POS],
                         g[G_UP:G_UP + MAX_PLAYERS * MAX_POS],
                         g[G_DISCARD:G_DISCARD + MAX_IDS],
                         g[G_MEMORY + seat * K.MEMORY_SLOTS:
                           G_MEMORY + (seat + 1) * K.MEMORY_SLOTS],
                         rt, rng[STREAM_SEAT0 + seat:STREAM_SEAT0 + seat + 1], par[seat])
    return _checked(g, point, seat, a)


@hot(inline="always")
def _replace(g, rt, seat, p, card, face_up, public_card):
    """engine._replace_nb for these rules (no replace_unseen_once, no jack skips), inlined."""
    i = seat * MAX_POS + p
    old = g[ix(G_LAY + i)]
    if g[ix(G_UP + i)]:
        g[ix(G_PUB + K.PUB_FACEUP_N)] -= 1
        g[ix(G_PUB + K.PUB_FACEUP_SUM)] -= rt[ix(RT_VALUE + old)]
    else:
        g[ix(K.G_FACE_DOWN + seat)] -= 1
    g[ix(G_LAY + i)] = card
    players = rt[K.R_PLAYERS]
    if face_up:
        g[ix(G_UP + i)] = 1
        g[ix(G_PUB + K.PUB_FACEUP_N)] += 1
        g[ix(G_PUB + K.PUB_FACEUP_SUM)] += rt[ix(RT_VALUE + card)]
        for obs in range(players):
            g[ix(G_KNOWN + (obs * MAX_PLAYERS + seat) * MAX_POS + p)] = card
    else:
        g[ix(G_UP + i)] = 0
        g[ix(K.G_FACE_DOWN + seat)] += 1
        for obs in range(players):
            # a face-down card is known to its owner, and to all if it came from the discard
            g[ix(G_KNOWN + (obs * MAX_PLAYERS + seat) * MAX_POS + p)] = \
                card if (obs == seat or public_card) else -1
    n = g[ix(G_PUB + K.PUB_DISCARD_N)]
    g[ix(G_DISCARD + n)] = old
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n + 1
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] += rt[ix(RT_VALUE + old)]


@hot(inline="always")
def _place(g, rt, rng, par, seat, card, public_card, p):
    """engine._place_nb: placement_face = player_choice asks for the face."""
    face_rule = rt[K.R_PLACEMENT_FACE]
    face_up = face_rule == K.FACE_UP
    if face_rule == K.FACE_CHOICE:
        if g[ix(G_UP + seat * MAX_POS + p)]:
            face_up = True
        else:
            _clear_nb(g)
            g[ix(G_LEGAL + K.A_FACE_UP)] = 1
            g[ix(G_LEGAL + K.A_FACE_DOWN)] = 1
            a = _ask_rare(g, rt, rng, par, K.DP_FACE, seat, card)
            if a < 0:
                return False
            face_up = a == K.A_FACE_UP
    _replace(g, rt, seat, p, card, face_up, public_card)
    return True


@hot(inline="always")
def _turn(g, rt, rng, par, seat):
    """engine._play_turn_nb for these rules: no flip turns, no peeks, knocks instead of a
    turn, no groups removed, blind replacement. 1 played, 0 the hole ends, -1 an error."""
    if _turn_mask(g, rt, seat) == 0:
        return 0
    a = _ask(g, rt, rng, par, K.DP_TURN, seat, -1)
    if a < 0:
        return -1
    if a == K.A_DRAW_STOCK:
        if g[ix(G_PUB + K.PUB_STOCK_N)] == 0:
            _reshuffle_nb(g, rt, rng)
        n = g[ix(G_PUB + K.PUB_STOCK_N)] - 1
        g[ix(G_PUB + K.PUB_STOCK_N)] = n
        card = g[ix(K.G_STOCK + n)]
        public = rt[K.R_PRIVATE_STOCK] == 0
        if public:
            g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
        _placement_mask(g, rt, seat)
        if rt[K.R_STOCK_MAY_DISCARD] != 0:
            g[ix(G_LEGAL + K.A_DISCARD)] = 1
        b = _ask(g, rt, rng, par, K.DP_PLACE_DRAWN, seat, card)
        if b < 0:
            return -1
        if b != K.A_DISCARD:
            ok = _place(g, rt, rng, par, seat, card, public, b)
            g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
            return 1 if ok else -1
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
        n = g[ix(G_PUB + K.PUB_DISCARD_N)]
        g[ix(G_DISCARD + n)] = card
        g[ix(G_PUB + K.PUB_DISCARD_N)] = n + 1
        g[ix(G_PUB + K.PUB_DISCARD_SUM)] += rt[ix(RT_VALUE + card)]
        return 1
    if a == K.A_TAKE_DISCARD:
        n = g[ix(G_PUB + K.PUB_DISCARD_N)] - 1
        g[ix(G_PUB + K.PUB_DISCARD_N)] = n
        card = g[ix(G_DISCARD + n)]
        g[ix(G_PUB + K.PUB_DISCARD_SUM)] -= rt[ix(RT_VALUE + card)]
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
        _placement_mask(g, rt, seat)
        b = _ask(g, rt, rng, par, K.DP_PLACE_TAKEN, seat, card)
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
        if b < 0:
            return -1
        return 1 if _place(g, rt, rng, par, seat, card, True, b) else -1
    # A_KNOCK (the only other action these rules allow at the start of a turn)
    _start_end_nb(g, rt, seat)
    g[ix(G_PUB + K.PUB_KNOCKED)] = 1
    return 1


@hot(inline="always")
def _initial_reveal(g, rt, rng, par):
    """engine._initial_reveal_nb for reveal modes none, flip and peek."""
    count = rt[K.R_REVEAL_COUNT]
    mode = rt[K.R_REVEAL_MODE]
    if mode == K.REVEAL_NONE or count == 0:
        return True
    players = rt[K.R_PLAYERS]
    simultaneous = rt[K.R_REVEAL_SIMULTANEOUS] != 0
    sequential = rt[K.R_REVEAL_SEQUENTIAL] != 0 and not simultaneous
    for seat in range(players):
        chosen = K.G_CHOSEN + seat * MAX_POS
        n = 0
        for i in range(count):
            if not _reveal_mask(g, rt, seat, n):
                break
            a = _ask_rare(g, rt, rng, par, K.DP_REVEAL, seat, -1)
            if a < 0:
                return False
            g[ix(chosen + n)] = a
            n += 1
            if sequential:
                _reveal_nb(g, rt, seat, a)
        g[ix(chosen + MAX_POS - 1)] = n
        if not sequential and not simultaneous:
            for i in range(n):
                _reveal_nb(g, rt, seat, g[ix(chosen + i)])
    if simultaneous:
        for seat in range(players):
            chosen = K.G_CHOSEN + seat * MAX_POS
            for i in range(g[ix(chosen + MAX_POS - 1)]):
                _reveal_nb(g, rt, seat, g[ix(chosen + i)])
    return True


@hot(inline="always")
def user_round_nb(seed, round_index, rt, par, g, rng, out, scores, L, quads, extra, tmp):
    """engine.play_round_nb, for these rules with every seat playing the user policy."""
    players = rt[K.R_PLAYERS]
    for i in range(K.N_PRIV):
        g[ix(G_PRIV + i)] = 0
    g[ix(G_PRIV + K.PRIV_LOG_N)] = -1
    _deal(g, rt, rng, seed, round_index)
    ok = _initial_reveal(g, rt, rng, par)
    seat = 0
    cap = rt[K.R_TURN_CAP]
    triggers = rt[K.R_END_TRIGGERS]
    while ok:
        ender_before = g[ix(G_PUB + K.PUB_ENDER)]
        r = _turn(g, rt, rng, par, seat)
        if r < 0:
            ok = False
            break
        if r == 0:
            break
        g[ix(G_PUB + K.PUB_TURN)] += 1
        if ender_before >= 0:
            g[ix(G_PUB + K.PUB_FINAL_LEFT)] -= 1
        elif g[ix(G_PUB + K.PUB_ENDER)] < 0:
            if (triggers & K.END_ALL_FACE_UP) != 0 and g[ix(K.G_FACE_DOWN + seat)] == 0:
                _start_end_nb(g, rt, seat)
            elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
                all_up = True
                for s in range(players):
                    if g[ix(K.G_FACE_DOWN + s)] != 0:
                        all_up = False
                if all_up:
                    g[ix(G_PUB + K.PUB_ENDER)] = seat
                    g[ix(G_PUB + K.PUB_FINAL_LEFT)] = 0
        if g[ix(G_PUB + K.PUB_ENDER)] >= 0 and g[ix(G_PUB + K.PUB_FINAL_LEFT)] <= 0:
            break
        if rt[K.R_STOCK_EMPTY] == K.STOCK_END_HOLE and g[ix(G_PUB + K.PUB_STOCK_N)] == 0:
            break
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
    out[K.OUT_LOG_N] = -1
    if not ok:
        return False
    # engine._score_nb without peek penalties and banked groups, which these rules never have
    layout_values_nb(g, G_LAY, rt, players, L, quads, tmp)
    for s in range(players):
        extra[s] = 0
    hole_scores_nb(L, quads, g[ix(G_PUB + K.PUB_ENDER)], g[ix(G_PUB + K.PUB_KNOCKED)] == 1,
                   players, rt, extra, scores)
    out[K.OUT_TURNS] = g[ix(G_PUB + K.PUB_TURN)]
    out[K.OUT_CAPPED] = g[ix(G_PRIV + K.PRIV_CAPPED)]
    out[K.OUT_ENDER] = g[ix(G_PUB + K.PUB_ENDER)]
    out[K.OUT_RESHUFFLES] = g[ix(G_PUB + K.PUB_RESHUFFLES)]
    out[K.OUT_KNOCKED] = g[ix(G_PUB + K.PUB_KNOCKED)]
    return True


@hot
def user_chunk_nb(seed, start, count, rt, par, g, rng, out, scores, L, quads, extra, tmp,
                  acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts):
    """engine.play_chunk_nb with the user-policy round."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    keep_scores = per_round_scores.shape[0] == count
    keep_layouts = per_round_layouts.shape[0] == count
    for i in range(count):
        if not user_round_nb(seed, start + i, rt, par, g, rng, out, scores, L, quads, extra,
                             tmp):
            return i
        _add_hole_nb(0, scores, out, acc, tot, hist, players)
        if keep_scores:
            for s in range(players):
                per_round_scores[i, s] = scores[s]
            per_round_turns[i] = out[K.OUT_TURNS]
        if keep_layouts:
            for s in range(players):
                for p in range(npos):
                    per_round_layouts[i, s, p] = g[ix(K.G_LAY + s * MAX_POS + p)]
    return count
