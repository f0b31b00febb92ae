"""Asking a seat's policy (the builds whose policies read the views): the counters published,
the legal mask set, the answer checked and logged."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LAY, G_LEGAL, G_MEMORY, G_PEEKED,
                                  G_PRIV, G_PUB, G_UPMASK, G_UP, MAX_IDS, MAX_PLAYERS, MAX_POS,
                                  POLICY_USER, RT_VALUE)
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import STREAM_SEAT0

from .base import (ERR_ILLEGAL_ACTION, ERR_LOG_FULL, LOGS, STEP, TURN_ACTIONS, VIEWS,
                   effect_of, policy_slot_nb, set_pub)
from .build import (GENERAL, OWN, POWERS, RANDOM, TABLE, own_decide, random_pick, user_decide,
                    user_decide_call)
from .moves import _discard, _put, _replaceable, _unknown_mask, learn


@hot(inline="always")
def _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
             reshuffles):
    """The round's counters into the public slots the policies read."""
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
def _counters(g):
    """The round's counters from the public slots (as _publish wrote them): where a power
    round's steps changed them there."""
    return (np.int64(g[ix(G_PUB + K.PUB_STOCK_N)]), np.int64(g[ix(G_PUB + K.PUB_DISCARD_N)]),
            np.int64(g[ix(G_PUB + K.PUB_DISCARD_SUM)]), np.int64(g[ix(G_PUB + K.PUB_FACEUP_N)]),
            np.int64(g[ix(G_PUB + K.PUB_FACEUP_SUM)]), np.int64(g[ix(G_PUB + K.PUB_TURN)]),
            np.int64(g[ix(G_PUB + K.PUB_ENDER)]), np.int64(g[ix(G_PUB + K.PUB_FINAL_LEFT)]),
            np.int64(g[ix(G_PUB + K.PUB_KNOCKED)]), np.int64(g[ix(G_PUB + K.PUB_RESHUFFLES)]))


# (what the lookahead player's rollouts resume a power round from: play_nb's FROM_CALL)
counters_nb = _counters


@hot(inline="always")
def _show_piles(g, n_disc, sum_disc, up_n, up_sum):
    """The public slots a step within a decision changed (a flip, a removed group)."""
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n_disc
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] = sum_disc
    g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
    g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum


@hot(inline="always")
def _refused(g, point, seat, a):
    """-1, with the policy's illegal answer ``a`` described."""
    g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_ILLEGAL_ACTION
    g[ix(G_PRIV + K.PRIV_ERR_SEAT)] = seat
    g[ix(G_PRIV + K.PRIV_ERR_POINT)] = point
    g[ix(G_PRIV + K.PRIV_ERR_ACTION)] = a
    return -1


@hot(inline="always")
def _checked(g, point, seat, a):
    """The policy's answer when legal; else -1, with the error described. A set of reveal
    positions (REVEAL_SET) passes where it is offered: the reveal checks its positions."""
    if a < 0 or a >= K.N_ACTIONS or g[ix(G_LEGAL + a)] == 0:
        if not (point == K.DP_REVEAL and K.REVEAL_SET < a < 2 * K.REVEAL_SET and
                g[ix(G_PUB + K.PUB_REVEAL_PICKS)] > 0):
            return _refused(g, point, seat, a)
    return a


@hot(inline="always")
def _logged(g, log, point, seat, held, a):
    """The answer, appended to the move log when logging is on; -1 when the log is full."""
    n = g[ix(G_PRIV + K.PRIV_LOG_N)]
    if a < 0 or n < 0:
        return a
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


@hot(inline=STEP)
def _ask(g, rt, rng, par, ctx, point, seat, held, often):
    """The seat's policy's answer at a decision (the views published), or -1 when it is not
    legal. ``often``: a decision of every turn; a user build copies the policy there, and
    calls one copy at the rare ones (each copy adds to the compile)."""
    g[ix(G_PUB + K.PUB_ACTOR)] = seat
    if OWN:   # every seat's one built-in, not through the table: called, or copied here
        # when it is small (builds.own_lines)
        a = own_decide(point, seat, held, g, rt, rng, par, ctx[3])
    elif (GENERAL or TABLE) and par[seat, 0] != POLICY_USER:  # a built-in, through the table
        policies = ctx[2]
        a = policies[policy_slot_nb(par[seat, 0])](point, seat, held, g, rt, rng, par,
                                                    ctx[3])
    else:
        known = G_KNOWN + seat * MAX_PLAYERS * MAX_POS
        memory = G_MEMORY + seat * K.MEMORY_SLOTS
        public = g[G_PUB:G_PUB + K.N_PUBLIC]
        legal = g[G_LEGAL:G_LEGAL + K.N_ACTIONS]
        sees = g[known:known + MAX_PLAYERS * MAX_POS]
        faceup = g[G_UP:G_UP + MAX_PLAYERS * MAX_POS]
        pile = g[G_DISCARD:G_DISCARD + MAX_IDS]
        mine = g[memory:memory + K.MEMORY_SLOTS]
        stream = rng[STREAM_SEAT0 + seat:STREAM_SEAT0 + seat + 1]
        if GENERAL or TABLE:   # the user policy through its pointer
            a = ctx[1](point, seat, held, public, legal, sees, faceup, pile, mine, rt, stream,
                       par[seat])
        elif often:
            a = user_decide(point, seat, held, public, legal, sees, faceup, pile, mine, rt,
                            stream, par[seat])
        else:
            a = user_decide_call(point, seat, held, public, legal, sees, faceup, pile, mine,
                                 rt, stream, par[seat])
    a = _checked(g, point, seat, a)
    if LOGS and a < K.REVEAL_SET:   # a set's positions are logged one by one as revealed
        a = _logged(g, ctx[0], point, seat, held, a)
    return a


@hot(inline="always")
def _clear(g):
    for a in range(K.N_ACTIONS):
        g[ix(G_LEGAL + a)] = 0


@hot(inline="always")
def _mask_positions(g, rt, mask):
    """The legal mask: the positions of bit mask ``mask``."""
    _clear(g)
    for p in range(MAX_POS if POWERS else rt[K.R_NPOS]):
        g[ix(G_LEGAL + p)] = (mask >> p) & 1


@hot(inline="always")
def _mask_actions(g, bits):
    """The legal mask: the turn's options (turn_options)."""
    _clear(g)
    for a in TURN_ACTIONS:
        g[ix(G_LEGAL + a)] = (bits >> a) & 1


@hot(inline="always")
def _placement_mask(g, rt, seat, card, point, may_look, powers):
    """Where a held card may go (and A_DISCARD for a stock card when the rules allow); with
    ``may_look``, A_PEEK too when the seat has a face-down card it does not know. In a power
    round a card with a power goes to no position unless power_placeable, the actions of bit
    mask ``powers`` (A_POWER, A_MATCH) are legal too, and A_DISCARD when nothing else is."""
    rep = _replaceable(g, rt, seat)
    if POWERS and rt[K.R_POWER_PLACEABLE] == 0 and effect_of(rt, card) != K.POW_NONE:
        rep = 0
    _mask_positions(g, rt, rep)
    if point == K.DP_PLACE_DRAWN:
        g[ix(G_LEGAL + K.A_DISCARD)] = rt[K.R_STOCK_MAY_DISCARD] != 0
    if may_look and _unknown_mask(g, rt, seat, 0) != 0:
        g[ix(G_LEGAL + K.A_PEEK)] = 1
    if POWERS:
        g[ix(G_LEGAL + K.A_POWER)] = (powers >> K.A_POWER) & 1
        g[ix(G_LEGAL + K.A_MATCH)] = (powers >> K.A_MATCH) & 1
        if rep == 0 and powers == 0:
            g[ix(G_LEGAL + K.A_DISCARD)] = 1


@hot(inline=STEP)
def _peek(g, rt, rng, par, ctx, seat, held):
    """The seat looks at one of its face-down cards it does not know (DP_PEEK). False on a
    policy error."""
    _mask_positions(g, rt, _unknown_mask(g, rt, seat, 0))
    c = _ask(g, rt, rng, par, ctx, K.DP_PEEK, seat, held, False)
    if c < 0:
        return False
    learn(g, rt, seat, c, g[ix(G_LAY + seat * MAX_POS + c)])
    if POWERS:   # everyone sees which card was looked at
        g[ix(G_PEEKED + seat * MAX_POS + c)] |= 1 << seat
    return True


@hot(inline="always")
def _ask_place(g, rt, rng, par, ctx, seat, card, point, effect, powers):
    """Where the held ``card`` goes (a position, or A_DISCARD for a stock card). With
    blind_replacement = false the seat may first look at one of its unknown face-down cards
    (A_PEEK, then DP_PEEK), and is then asked again. In a power round it may also use the
    card's power ``effect`` or match it (``powers``: _placement_mask). -1 on error."""
    may_look = GENERAL and rt[K.R_BLIND] == 0
    _placement_mask(g, rt, seat, card, point, may_look, powers)
    if POWERS:
        set_pub(g, K.PUB_POWER, effect)
    b = _ask(g, rt, rng, par, ctx, point, seat, card, True)
    if POWERS:
        set_pub(g, K.PUB_POWER, 0)
    if not (GENERAL and b == K.A_PEEK):
        return b
    if not _peek(g, rt, rng, par, ctx, seat, card):
        return -1
    _placement_mask(g, rt, seat, card, point, False, powers)
    return _ask(g, rt, rng, par, ctx, point, seat, card, False)


@hot(inline="always")
def _place(g, rt, rng, par, ctx, seat, p, card, public, n_disc, sum_disc, up_n, up_sum):
    """Put the held ``card`` at p with the face the rules (or the player) choose; the old
    card goes face up onto the discard pile. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    face_rule = rt[K.R_PLACEMENT_FACE]
    face_up = face_rule != K.FACE_DOWN  # player_choice: the lean build's policies choose up
    was_up = (g[ix(G_UPMASK + seat)] >> p) & 1
    if VIEWS and face_rule == K.FACE_CHOICE and was_up == 0:
        _clear(g)
        g[ix(G_LEGAL + K.A_FACE_UP)] = 1
        g[ix(G_LEGAL + K.A_FACE_DOWN)] = 1
        f = _ask(g, rt, rng, par, ctx, K.DP_FACE, seat, card, False)
        if f < 0:
            return False, n_disc, sum_disc, up_n, up_sum
        face_up = f == K.A_FACE_UP
    elif RANDOM and face_rule == K.FACE_CHOICE and was_up == 0:
        face_up = random_pick(rng, seat, (1 << K.A_FACE_UP) | (1 << K.A_FACE_DOWN)) == \
            K.A_FACE_UP
    old = _put(g, rt, seat, p, card, face_up, public)
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    up_n += np.int64(face_up) - was_up
    up_sum += np.int64(face_up) * rt[ix(RT_VALUE + card)] - was_up * rt[ix(RT_VALUE + old)]
    n_disc, sum_disc = _discard(g, rt, seat, old, n_disc, sum_disc)
    return True, n_disc, sum_disc, up_n, up_sum


@hot
def _pask(g, rt, rng, par, ctx, point, seat, held, power, target, legal):
    """A decision of a power round: the actions of bit mask ``legal``, with PUB_POWER and
    PUB_TARGET_SEAT published while it is asked. -1 on a policy error."""
    for a in range(K.N_ACTIONS):
        g[ix(G_LEGAL + a)] = (legal >> a) & 1
    g[ix(G_PUB + K.PUB_POWER)] = power
    g[ix(G_PUB + K.PUB_TARGET_SEAT)] = target
    a = _ask(g, rt, rng, par, ctx, point, seat, held, False)
    g[ix(G_PUB + K.PUB_POWER)] = 0
    g[ix(G_PUB + K.PUB_TARGET_SEAT)] = -1
    return a


@hot
def _pw_seat(g, rt, rng, par, ctx, seat, seats, power):
    return _pask(g, rt, rng, par, ctx, K.DP_TARGET_SEAT, seat, -1, power, -1, seats)


@hot
def _pw_pos(g, rt, rng, par, ctx, seat, target, positions, power):
    return _pask(g, rt, rng, par, ctx, K.DP_TARGET_POS, seat, -1, power, target, positions)
