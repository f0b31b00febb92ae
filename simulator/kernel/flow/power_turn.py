"""The power steps of a turn (the powers build; PowerHole.play_turn is the specification),
which the turn (turn.py) takes under ``POWERS``: the held card's power or match, the top
discard's power (Cactus), the snap window, the hole's end by an emptied layout or stock, and
whether a call is possible. Each reads and writes the counters in the public slots."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_DISCARD, G_FACE_DOWN, G_PENALTY, G_PRIV, G_PUB

from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import seat_after_nb

from .ask import _pask, _pw_pos, _pw_seat
from .base import (BIT_PASS, PRIV_END_TURN, PRIV_OVER, PRIV_TOP_NEW, card_at, effect_of,
                   everyone, key_of, pub, set_pub)
from .moves import (add_penalty_cards, cards_mask, discard, discard_used, put_back,
                    seats_with, show, take, take_top)
from .power_effects import _give_back, _pw_resolve, _pw_turn_match, match_possible, power_usable


@hot
def check_over(g, rt, seat):
    """Step 5: an emptied layout (the first seat from ``seat`` on becomes the ender unless
    there is one) or the last stock card taken ends the hole now."""
    players = rt[K.R_PLAYERS]
    if (rt[K.R_END_TRIGGERS] & K.END_EMPTY_LAYOUT) != 0:
        for k in range(players):
            s = seat_after_nb(seat, k, players)
            # a seat with a face-down card (the public count) has a card
            if g[ix(G_FACE_DOWN + s)] == 0 and cards_mask(g, s) == 0:
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
def held_options(g, rt, seat, effect):
    """What the held card may do besides its placement or discard, as bits 1 << action:
    its power ``effect`` (A_POWER), a turn match (A_MATCH)."""
    bits = 0
    if power_usable(g, rt, seat, effect):
        bits |= 1 << K.A_POWER
    if match_possible(g, rt, seat):
        bits |= 1 << K.A_MATCH
    return bits


@hot
def use_held(g, rt, rng, par, ctx, seat, card, action, taken):
    """The held ``card``'s A_POWER or A_MATCH (``taken``: from the discard pile, seen by
    all). 0, or -1 on a policy error."""
    if action == K.A_MATCH:
        return _pw_turn_match(g, rt, rng, par, ctx, seat, card, taken)
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    r = _pw_resolve(g, rt, rng, par, ctx, seat, effect_of(rt, card), card)
    if r == 0:
        discard_used(g, rt, seat, card)
    return min(r, 0)


@hot
def top_power_usable(g, rt, seat, n_disc):
    """Cactus: may the turn use the top discard's power (A_DISCARD_POWER)?"""
    return rt[K.R_POWER_SOURCE] != 0 and n_disc > 0 and \
        g[ix(G_PUB + K.PUB_TOP_POWER_UNUSED)] != 0 and \
        power_usable(g, rt, seat, effect_of(rt, g[ix(G_DISCARD + n_disc - 1)]))


@hot
def use_top_power(g, rt, rng, par, ctx, seat):
    """A_DISCARD_POWER: the top discard's power, then it goes back, spent (not a new top).
    0, or -1 on a policy error."""
    card = take_top(g, rt)
    r = _pw_resolve(g, rt, rng, par, ctx, seat, effect_of(rt, card), card)
    if r == 0:
        put_back(g, rt, card)
        g[ix(G_PUB + K.PUB_TOP_POWER_UNUSED)] = 0
    g[ix(G_PRIV + PRIV_TOP_NEW)] = 0
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
def power_window(g, rt, rng, par, ctx, seat):
    """Step 6 after the action, when step 5 (check_over) found the hole going on and a snap
    window may open: the window, after which the hole may be over. 1 when it is over, 0 when
    the turn goes on, -1 on a policy error."""
    if _pw_snap_window(g, rt, rng, par, ctx, seat) < 0:
        return -1
    return 1 if check_over(g, rt, seat) else 0
