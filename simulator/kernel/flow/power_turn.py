"""A power round's turns (the powers build; PowerHole.play_turn is the specification): the
turn's options, the held card placed, discarded, used for its power or matched, the snap
window, the call, and the hole's end."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_PENALTY, G_PRIV, G_PUB, G_SKIP, MAX_POS)
from simulator.kernel.invariants import conservation_ok_nb
from simulator.kernel.jit import hot, ix

from .ask import _pask, _publish, _pw_pos, _pw_seat
from .base import (BIT_PASS, ERR_CONSERVATION, NOTHING_LEGAL, PRIV_END_TURN, PRIV_OVER,
                   PRIV_TOP_NEW, card_at, effect_of, everyone, key_of, popcount, pub, set_pub)
from .moves import (_replaceable, _unknown_mask, add_penalty_cards, can_draw, cards_mask,
                    discard, discard_used, draw_card, face_down_mask, peek, put_back,
                    seats_with, show, take, take_top, turn_up)
from .power_effects import (_give_back, _pw_place, _pw_resolve, _pw_turn_match,
                            match_possible, power_usable)


@hot
def start_end(g, rt, seat):
    """``seat`` ends the hole (a call, a flip-all, all face up): the final turns, and with
    reveal_on_trigger the others' face-down cards turned up."""
    players = rt[K.R_PLAYERS]
    ft = rt[K.R_FINAL_TURNS]
    left = 0
    if ft == K.FINAL_EACH_OTHER:
        left = players - 1
    elif ft != K.FINAL_NONE:
        left = players - 1 - seat
    set_pub(g, K.PUB_ENDER, seat)
    set_pub(g, K.PUB_FINAL_LEFT, left)
    if rt[K.R_REVEAL_ON_TRIGGER] != 0:
        for s in range(players):
            if s != seat:
                fd = face_down_mask(g, s)
                for p in range(MAX_POS):
                    if (fd >> p) & 1:
                        turn_up(g, rt, s, p)
    g[ix(G_PRIV + PRIV_END_TURN)] = pub(g, K.PUB_TURN)


@hot
def check_over(g, rt, seat):
    """Step 5: an emptied layout (the first seat from ``seat`` on becomes the ender unless
    there is one) or the last stock card taken ends the hole now."""
    players = rt[K.R_PLAYERS]
    if (rt[K.R_END_TRIGGERS] & K.END_EMPTY_LAYOUT) != 0:
        for k in range(players):
            s = (seat + k) % players
            if cards_mask(g, s) == 0:
                g[ix(G_PRIV + PRIV_OVER)] = 1
                if pub(g, K.PUB_ENDER) < 0:
                    set_pub(g, K.PUB_ENDER, s)
                    set_pub(g, K.PUB_FINAL_LEFT, 0)
                    g[ix(G_PRIV + PRIV_END_TURN)] = pub(g, K.PUB_TURN)
                break
    return g[ix(G_PRIV + PRIV_OVER)] != 0


@hot
def may_call(g, rt):
    """A knock or call is possible: nobody ended the hole, it is not over, enough laps."""
    return (rt[K.R_END_TRIGGERS] & (K.END_KNOCK | K.END_CALL)) != 0 and \
        pub(g, K.PUB_ENDER) < 0 and g[ix(G_PRIV + PRIV_OVER)] == 0 and \
        pub(g, K.PUB_TURN) >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]


@hot
def _pw_turn_bits(g, rt, seat):
    """The turn's options (PowerHole.turn_options) as bits 1 << action."""
    bits = 0
    n_disc = g[ix(G_PUB + K.PUB_DISCARD_N)]
    top = g[ix(G_DISCARD + n_disc - 1)] if n_disc > 0 else -1
    if can_draw(g, rt):
        bits |= 1 << K.A_DRAW_STOCK
    if rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
            not (g[ix(G_PUB + K.PUB_ENDER)] >= 0 and rt[K.R_FINAL_STOCK_ONLY] != 0) and \
            _replaceable(g, rt, seat) != 0 and \
            (rt[K.R_POWER_PLACEABLE] != 0 or effect_of(rt, top) == K.POW_NONE):
        bits |= 1 << K.A_TAKE_DISCARD
    if rt[K.R_KNOCK_TIMING] != K.KNOCK_END_OF_TURN and may_call(g, rt):
        bits |= 1 << K.A_KNOCK
    fd = face_down_mask(g, seat)
    if fd != 0:
        if rt[K.R_FLIP_INSTEAD_OF_DRAW] != 0:
            bits |= 1 << K.A_FLIP
        if rt[K.R_FLIP_ALL_TO_END] != 0 and popcount(fd) <= rt[K.R_FLIP_ALL_MAX]:
            bits |= 1 << K.A_FLIP_ALL
    if rt[K.R_PAY_TO_PEEK] != K.NONE_VALUE and _unknown_mask(g, rt, seat, 0) != 0:
        bits |= 1 << K.A_PEEK
    if rt[K.R_POWER_SOURCE] != 0 and n_disc > 0 and \
            g[ix(G_PUB + K.PUB_TOP_POWER_UNUSED)] != 0 and \
            power_usable(g, rt, seat, effect_of(rt, top)):
        bits |= 1 << K.A_DISCARD_POWER
    return bits


@hot
def _pw_turn_action(g, rt, rng, par, ctx, seat):
    """The turn's action after any paid looks; NOTHING_LEGAL, or -1 on a policy error."""
    while True:
        bits = _pw_turn_bits(g, rt, seat)
        if bits == 0:
            return NOTHING_LEGAL
        a = _pask(g, rt, rng, par, ctx, K.DP_TURN, seat, -1, 0, -1, bits)
        if a != K.A_PEEK:
            return a
        p = _pask(g, rt, rng, par, ctx, K.DP_PEEK, seat, -1, 0, -1, _unknown_mask(g, rt, seat, 0))
        if p < 0:
            return -1
        peek(g, rt, seat, p, seat)
        g[ix(G_PENALTY + seat)] += rt[K.R_PAY_TO_PEEK]


@hot
def _pw_flip_after_discard(g, rt, rng, par, ctx, seat):
    fad = rt[K.R_FLIP_AFTER_DISCARD]
    fd = face_down_mask(g, seat)
    if fad == K.FAD_ENDGAME:
        endgame = False
        for s in range(rt[K.R_PLAYERS]):
            if popcount(face_down_mask(g, s)) <= 1:
                endgame = True
        if not endgame:
            return 0
    if fad == K.FAD_NONE or fd == 0:
        return 0
    bits = fd
    if (fad == K.FAD_UNLESS_ONE and popcount(fd) == 1) or fad == K.FAD_ENDGAME:
        bits |= BIT_PASS
    p = _pask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, 0, -1, bits)
    if p < 0:
        return -1
    if p != K.A_PASS:
        turn_up(g, rt, seat, p)
    return 0


@hot
def _pw_play_held(g, rt, rng, par, ctx, seat, card, point, effect, public):
    """Steps 1-3: the held card is placed, discarded, used for its power or matched."""
    bits = 0
    if rt[K.R_POWER_PLACEABLE] != 0 or effect_of(rt, card) == K.POW_NONE:
        bits |= _replaceable(g, rt, seat)
    if point == K.DP_PLACE_DRAWN and rt[K.R_STOCK_MAY_DISCARD] != 0:
        bits |= 1 << K.A_DISCARD
    if power_usable(g, rt, seat, effect):
        bits |= 1 << K.A_POWER
    if match_possible(g, rt, seat):
        bits |= 1 << K.A_MATCH
    if bits == 0:
        bits = 1 << K.A_DISCARD
    seen = public or rt[K.R_PRIVATE_STOCK] == 0
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card if seen else -1
    c = _pask(g, rt, rng, par, ctx, point, seat, card, effect, -1, bits)
    if c < 0:
        return -1
    if c == K.A_MATCH:
        return _pw_turn_match(g, rt, rng, par, ctx, seat, card, public)
    if c < MAX_POS:
        return _pw_place(g, rt, rng, par, ctx, seat, c, card, seen)
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    if c == K.A_DISCARD:
        discard(g, rt, seat, card)
        return _pw_flip_after_discard(g, rt, rng, par, ctx, seat)
    r = _pw_resolve(g, rt, rng, par, ctx, seat, effect, card)
    if r == 0:
        discard_used(g, rt, seat, card)
    return min(r, 0)


@hot
def _pw_snap_window(g, rt, rng, par, ctx, actor):
    """Step 6: after a new top discard, the seats from the actor's left on may snap a card
    of its key, once each, until a snap hits."""
    mode = rt[K.R_SNAP_MODE]
    n_disc = g[ix(G_PUB + K.PUB_DISCARD_N)]
    if mode == K.SNAP_NONE or g[ix(G_PRIV + PRIV_TOP_NEW)] == 0 or n_disc == 0:
        return 0
    key = key_of(rt, g[ix(G_DISCARD + n_disc - 1)])
    players = rt[K.R_PLAYERS]
    for k in range(1, players + 1):
        s = (actor + k) % players
        if mode == K.SNAP_CACTUS:
            seats = (1 << s) if cards_mask(g, s) != 0 else 0
        else:
            seats = seats_with(g, rt, everyone(rt), False)
        if seats == 0:
            continue
        a = _pask(g, rt, rng, par, ctx, K.DP_SNAP, s, -1, K.CTX_SNAP, -1,
                  (1 << K.A_SNAP) | BIT_PASS)
        if a < 0:
            return -1
        if a == K.A_PASS:
            continue
        t = s
        if mode != K.SNAP_CACTUS:
            t = _pw_seat(g, rt, rng, par, ctx, s, seats, K.CTX_SNAP)
            if t < 0:
                return -1
        p = _pw_pos(g, rt, rng, par, ctx, s, t, cards_mask(g, t), K.CTX_SNAP)
        if p < 0:
            return -1
        if key_of(rt, card_at(g, t, p)) == key:
            discard(g, rt, s, take(g, rt, t, p))
            return _give_back(g, rt, rng, par, ctx, s, t, p)
        show(g, rt, t, p)
        if mode == K.SNAP_CUMBIA and t != s:
            g[ix(G_PENALTY + s)] += rt[K.R_SNAP_MISS_POINTS]
        if mode == K.SNAP_CACTUS:
            add_penalty_cards(g, rt, rng, s, rt[K.R_SNAP_PENALTY_CARDS])
        if g[ix(G_PRIV + PRIV_OVER)] != 0:
            return 0
    return 0


@hot
def _pw_call(g, rt, seat):
    start_end(g, rt, seat)
    g[ix(G_PUB + K.PUB_KNOCKED)] = 1


@hot
def _pw_turn(g, rt, rng, par, ctx, seat):
    """One turn of a power round (PowerHole.play_turn): 1 when played, 0 when the seat had
    nothing it may do (the hole ends), -1 after a policy's error."""
    g[ix(G_PUB + K.PUB_SHIELDED)] &= ~(1 << seat)
    g[ix(G_PRIV + PRIV_TOP_NEW)] = 0
    a = _pw_turn_action(g, rt, rng, par, ctx, seat)
    if a == NOTHING_LEGAL:
        return 0
    r = 0
    if a < 0:
        r = -1
    elif a == K.A_DRAW_STOCK:
        card = draw_card(g, rt, rng)
        r = _pw_play_held(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_DRAWN,
                          effect_of(rt, card), False)
    elif a == K.A_TAKE_DISCARD:
        card = take_top(g, rt)
        r = _pw_play_held(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_TAKEN, K.POW_NONE,
                          True)
    elif a == K.A_DISCARD_POWER:   # Cactus: the top discard's power, then it goes back, spent
        card = take_top(g, rt)
        r = _pw_resolve(g, rt, rng, par, ctx, seat, effect_of(rt, card), card)
        if r == 0:
            put_back(g, rt, card)
            g[ix(G_PUB + K.PUB_TOP_POWER_UNUSED)] = 0
        g[ix(G_PRIV + PRIV_TOP_NEW)] = 0
    elif a == K.A_FLIP:
        p = _pask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, 0, -1, face_down_mask(g, seat))
        if p < 0:
            r = -1
        else:
            turn_up(g, rt, seat, p)
    elif a == K.A_FLIP_ALL:
        fd = face_down_mask(g, seat)
        for p in range(MAX_POS):
            if (fd >> p) & 1:
                turn_up(g, rt, seat, p)
        if g[ix(G_PUB + K.PUB_ENDER)] < 0:
            start_end(g, rt, seat)
    else:
        _pw_call(g, rt, seat)
    if r < 0:
        return -1
    if check_over(g, rt, seat):
        return 1
    if _pw_snap_window(g, rt, rng, par, ctx, seat) < 0:
        return -1
    if check_over(g, rt, seat):
        return 1
    return _pw_call_after(g, rt, rng, par, ctx, seat)


@hot
def _pw_call_after(g, rt, rng, par, ctx, seat):
    """The turn's last step: with knock_timing end_of_own_turn or any_time_in_turn the seat
    may call now (DP_KNOCK). 1, or -1 on a policy error."""
    if rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and may_call(g, rt):
        k = _pask(g, rt, rng, par, ctx, K.DP_KNOCK, seat, -1, 0, -1,
                  (1 << K.A_KNOCK) | BIT_PASS)
        if k < 0:
            return -1
        if k == K.A_KNOCK:
            _pw_call(g, rt, seat)
    return 1


@hot
def _pw_check_end(g, rt, seat):
    """The plain game's end triggers after a turn while nobody ended the hole."""
    triggers = rt[K.R_END_TRIGGERS]
    if (triggers & K.END_ALL_FACE_UP) != 0 and face_down_mask(g, seat) == 0:
        start_end(g, rt, seat)
    elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
        for s in range(rt[K.R_PLAYERS]):
            if face_down_mask(g, s) != 0:
                return
        g[ix(G_PUB + K.PUB_ENDER)] = seat
        g[ix(G_PUB + K.PUB_FINAL_LEFT)] = 0


@hot
def power_play_nb(g, rt, par, rng, ctx, n_stock, n_disc, sum_disc, up_n, up_sum, cap):
    """Play a power round's turns from seat 0 to its end (or ``cap`` turns), as
    PowerHole.play_turns. Returns (turns, ender, knocked, capped, reshuffles) as play_nb."""
    _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0)
    return power_turns_nb(g, rt, par, rng, ctx, 0, False, cap)


@hot
def power_turns_nb(g, rt, par, rng, ctx, seat, at_call, cap):
    """Play a power round on from ``seat``'s turn, its counters already in the public slots,
    to its end (or ``cap`` turns); ``at_call``: from the call that ends that turn
    (_pw_call_after), its action made. The lookahead player's rollouts start here from the
    state of a decision (strategies/lookahead_powers.py). Returns as power_play_nb."""
    players = rt[K.R_PLAYERS]
    capped = 0
    while True:
        if at_call:
            r = _pw_call_after(g, rt, rng, par, ctx, seat)
            at_call = False
        elif g[ix(G_SKIP + seat)] != 0:   # a discarded jack's skip: the turn counts
            g[ix(G_SKIP + seat)] = 0
            g[ix(G_PUB + K.PUB_SHIELDED)] &= ~(1 << seat)
            r = 1
        else:
            r = _pw_turn(g, rt, rng, par, ctx, seat)
        if r <= 0:
            capped = min(r, 0)
            break
        turn = g[ix(G_PUB + K.PUB_TURN)] + 1
        g[ix(G_PUB + K.PUB_TURN)] = turn
        if ctx[5] and not conservation_ok_nb(g, rt, -1, ctx[4]):
            g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_CONSERVATION
            capped = -1
            break
        if g[ix(G_PRIV + PRIV_OVER)] != 0:
            break
        if g[ix(G_PUB + K.PUB_ENDER)] >= 0 and g[ix(G_PRIV + PRIV_END_TURN)] < turn - 1:
            g[ix(G_PUB + K.PUB_FINAL_LEFT)] -= 1   # a final turn was played
        elif g[ix(G_PUB + K.PUB_ENDER)] < 0:
            _pw_check_end(g, rt, seat)
            if g[ix(G_PUB + K.PUB_ENDER)] >= 0:
                g[ix(G_PRIV + PRIV_END_TURN)] = turn - 1
        if g[ix(G_PUB + K.PUB_ENDER)] >= 0 and g[ix(G_PUB + K.PUB_FINAL_LEFT)] <= 0:
            break
        if rt[K.R_STOCK_EMPTY] == K.STOCK_END_HOLE and g[ix(G_PUB + K.PUB_STOCK_N)] == 0:
            break
        if turn >= cap:
            capped = 1
            break
        seat = (seat + 1) % players
    return np.int64(g[ix(G_PUB + K.PUB_TURN)]), np.int64(g[ix(G_PUB + K.PUB_ENDER)]), \
        np.int64(g[ix(G_PUB + K.PUB_KNOCKED)]), np.int64(capped), \
        np.int64(g[ix(G_PUB + K.PUB_RESHUFFLES)])
