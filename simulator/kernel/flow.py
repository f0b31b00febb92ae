"""The game flow, written once for compiled code and compiled per build.

A build is this module compiled with the lines between the build markers below set for it:

- the lean build (this file as it is): common rule sets with every seat ``greedy`` or
  ``knock-threshold``, played inline from a cache of what each seat knows
  (simulator/kernel/lean_policy.py). W1 and W2 run here, and lookahead's rollouts;
- a user build (``USER``; ``policy_api.user_kernel`` writes the copy): common rule sets with
  every seat playing one user policy, compiled into the loop;
- the general build (``GENERAL``; simulator/kernel/engine.py writes the copy): every rule
  feature, any seats: built-in policies through the run's table of compiled entry points
  (strategies/compiled.py), a user policy through its pointer; move logs and invariant
  checks. Its powers build (``POWERS``) plays the power-card games too;
- the rollout build (``ROLLOUT``; strategies/lookahead_powers.py writes the copy): the powers
  build with every decision going to the seat's model in the lookahead player's rollouts,
  compiled in (strategies/rollout_models.py), from any seat's turn (``power_turns_nb``).

``USER``, ``GENERAL``, ``POWERS`` and ``ROLLOUT`` are module constants, so Numba drops the
branches of the other builds before it compiles anything, and each build pays only for what
it has. The state is the array
``g`` (codes.G_*); the counters of a round (stock, discard pile, face-up cards, turn, ender)
live in local variables, and the builds whose policies read the views (``VIEWS``) copy them
into the public slots before each decision, keep every seat's knowledge (codes.G_KNOWN) and
the face-up flags. Every build plays the very same rounds for a rule set it accepts (tests:
test_lean, test_user_kernel, test_reference_parity, test_contract); which features each has
is simulator/kernel/features.py's allow list. Rules stay data: one compiled build serves
every rule set it accepts.
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK, RANK_JACK
from simulator.game.codes import (G_CHOSEN, G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LAY, G_LEGAL,
                                  G_MEMORY, G_PENALTY, G_POLICY, G_PRIV, G_PUB, G_SKIP, G_STOCK,
                                  G_UP, G_UPMASK, MAX_IDS, MAX_PLAYERS, MAX_POS, POLICY_GREEDY,
                                  POLICY_KNOCK_THRESHOLD, POLICY_USER, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel import powers_flow as PF
from simulator.kernel.estimate import trailing_zeros
from simulator.kernel.features import lacking, needed_from_ri
from simulator.kernel.groups import (N_GROUPS, completed_nb, group_mask_nb, group_value_nb,
                                     remove_cells_nb)
from simulator.kernel.invariants import conservation_ok_nb
from simulator.kernel.jit import hot, ix
from simulator.kernel.lanes import GAIN_LIMIT
from simulator.kernel.matches import after_hole_nb, end_match_nb, seat_hole_nb, start_match_nb
from simulator.kernel.reveals import constraint_mask_nb
from simulator.kernel.rng import STREAM_DEAL, STREAM_SEAT0, shuffle_nb, stream_state_nb
from simulator.kernel.scoring import grown_values_nb, hole_scores_nb, layout_values_nb
from simulator.kernel.tally import MAX_MATCH_HOLES, _add_hole_nb

# The lookahead player's rollouts in the power-card games (strategies/lookahead_powers.py) play
# a powers build whose decisions go straight to the seats' models compiled in
# (strategies/rollout_models.py). Only that build's lines set these: the others keep them.
ROLLOUT = False


def _no_rollout(point, seat, held, g, rt, rng, par, aux):
    return -1


rollout_decide = hot(_no_rollout, cache=False)
# ---- the build: each build's copy replaces these lines (builds.flow_build) ----
USER = False      # every seat plays the user policy compiled in below
GENERAL = False   # every feature, any seats (the policies' table and the user's pointer)
POWERS = False    # (with GENERAL) the power-card games too


def _no_user(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
             params):
    return -1


user_decide = hot(_no_user, inline="always", cache=False)   # copied where it is asked
user_decide_call = hot(_no_user, cache=False)               # called (rare decisions)
# ---- end of the build ----
VIEWS = USER or GENERAL   # the seats' policies read g's views, not the lean cache
LOGS = GENERAL and not ROLLOUT   # a move log may be kept (a rollout keeps none)
# Every build inlines the turn's steps; the general build calls its asks (each a policy
# reached through a pointer anyway), the reveal and the round, which it would otherwise copy
# into many places: its first compile stays under a minute (docs/performance.md).
STEP = "never" if GENERAL else "always"

# error codes (codes.OUT_ERROR)
ERR_ILLEGAL_ACTION = 1
ERR_CONSERVATION = 2
ERR_LOG_FULL = 3
LOG_FIELDS = 5           # a move log row: turn, seat, decision point, action, held card

# the turn's options as bits 1 << (action - A_DRAW_STOCK) (turn_options)
TURN_ACTIONS = (K.A_DRAW_STOCK, K.A_TAKE_DISCARD, K.A_KNOCK, K.A_FLIP, K.A_FLIP_ALL, K.A_PEEK)
B_DRAW, B_TAKE, B_KNOCK, B_FLIP, B_FLIP_ALL, B_PEEK = (1 << (a - K.A_DRAW_STOCK)
                                                       for a in TURN_ACTIONS)
NOTHING_LEGAL = -2


def eligible(ri: np.ndarray, policy_ids) -> bool:
    """Can the lean build play these rules and policies exactly as the general build does?"""
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


# ---- small accessors ----------------------------------------------------------------------------
@hot(inline="always")
def own(seat):
    """Where what ``seat`` knows of its own layout starts: its row of codes.G_KNOWN where
    policies read the views, else the lean cache's."""
    if VIEWS:
        return G_KNOWN + seat * (MAX_PLAYERS + 1) * MAX_POS
    return LP.own(seat)


@hot(inline="always")
def known_at(obs, seat, p):
    return G_KNOWN + (obs * MAX_PLAYERS + seat) * MAX_POS + p


@hot
def policy_slot_nb(policy_id):
    """Where a built-in sits in a run's table of compiled policies (strategies.compiled):
    ids 0..7 in their own slots, lookahead in the last."""
    i = np.int64(policy_id)
    return i if i < K.N_POLICY_SLOTS - 1 else K.N_POLICY_SLOTS - 1


@hot(inline="always")
def _unknown_mask(g, rt, seat, first):
    """Bit p (>= first) set when (seat, p) is face down with a card its owner does not know
    (one it may look at)."""
    mask = 0
    for p in range(first, rt[K.R_NPOS]):
        mask |= np.int64(g[ix(own(seat) + p)] < 0) << p
    return mask & ~g[ix(G_UPMASK + seat)]


@hot(inline="always")
def _replaceable(g, rt, seat):
    """Bit p set when the seat may put a new card at p (layout.can_replace_nb)."""
    rep = LP.replaceable_mask(g[ix(G_UPMASK + seat)], rt)
    if GENERAL and (rt[K.R_REMOVE_CANCELLED] != K.REMOVE_NEVER or
                    rt[K.R_REPLACE_UNSEEN_ONCE] != 0):
        once = rt[K.R_REPLACE_UNSEEN_ONCE] != 0
        for p in range(rt[K.R_NPOS]):
            i = seat * MAX_POS + p
            if g[ix(G_LAY + i)] >= K.EMPTY0 or (once and g[ix(K.G_ONCE + i)] == K.ONCE_SPENT):
                rep &= ~(1 << p)
    return rep


# ---- card moves: each with the knowledge it creates ---------------------------------------------
@hot(inline="always")
def learn(g, rt, seat, p, card):
    """The owner of (seat, p) now knows it holds ``card``."""
    if VIEWS:
        g[ix(own(seat) + p)] = card
    else:
        LP.learn(g, rt, seat, p, card)


@hot
def learn_nb(g, rt, seat, p, card):
    """``learn``, called: where a rule set makes seats learn cards once a round (cards held in
    hand, peeks at the reveal) a call costs little, and each inlined copy of the cache's
    update added about ten seconds to the first compile."""
    learn(g, rt, seat, p, card)


@hot(inline="always")
def _turn_up(g, rt, seat, p):
    """(seat, p) turns face up: everyone now knows it. Returns its value."""
    card = g[ix(G_LAY + seat * MAX_POS + p)]
    g[ix(G_UPMASK + seat)] |= 1 << p
    g[ix(G_FACE_DOWN + seat)] -= 1
    learn(g, rt, seat, p, card)
    if VIEWS:
        g[ix(G_UP + seat * MAX_POS + p)] = 1
        for obs in range(rt[K.R_PLAYERS]):
            g[ix(known_at(obs, seat, p))] = card
    return rt[ix(RT_VALUE + card)]


@hot(inline="always")
def _put(g, rt, seat, p, card, face_up, public_card):
    """``card`` goes to (seat, p), face up or down; ``public_card``: everyone saw it. Returns
    the card it replaces (face up when bit p of the seat's face-up mask was set before)."""
    i = G_LAY + seat * MAX_POS + p
    if GENERAL and rt[K.R_REPLACE_UNSEEN_ONCE] != 0 and \
            g[ix(K.G_ONCE + seat * MAX_POS + p)] == K.ONCE_LEFT:
        g[ix(K.G_ONCE + seat * MAX_POS + p)] = K.ONCE_SPENT
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
    if VIEWS:
        g[ix(G_UP + seat * MAX_POS + p)] = 1 if face_up else 0
        for obs in range(rt[K.R_PLAYERS]):
            # a face-down card is known to its owner, and to all if everyone saw it
            g[ix(known_at(obs, seat, p))] = card if (face_up or obs == seat or public_card) \
                else -1
    return old


@hot(inline="always")
def _discard(g, rt, seat, card, n_disc, sum_disc):
    """``seat`` puts ``card`` on the discard pile; returns the pile's size and value sum."""
    g[ix(G_DISCARD + n_disc)] = card
    if GENERAL and rt[K.R_JACK_SKIPS] != 0:
        local = card % CARDS_PER_DECK
        if local < 52 and local % 13 == RANK_JACK:  # AMB-19: any jack the actor discards
            g[ix(G_SKIP + (seat + 1) % rt[K.R_PLAYERS])] = 1
    return n_disc + 1, sum_disc + rt[ix(RT_VALUE + card)]


@hot
def _swap_positions(g, rt, seat, p, q):
    """Exchange the cards at (seat, p) and (seat, q), with their faces and what every seat
    knows of them (the counters do not change)."""
    i = seat * MAX_POS + p
    j = seat * MAX_POS + q
    g[ix(G_LAY + i)], g[ix(G_LAY + j)] = g[ix(G_LAY + j)], g[ix(G_LAY + i)]
    g[ix(G_UP + i)], g[ix(G_UP + j)] = g[ix(G_UP + j)], g[ix(G_UP + i)]
    up = g[ix(G_UPMASK + seat)]
    g[ix(G_UPMASK + seat)] = (up & ~((1 << p) | (1 << q))) | (((up >> p) & 1) << q) | \
        (((up >> q) & 1) << p)
    for obs in range(rt[K.R_PLAYERS]):
        a = known_at(obs, seat, p)
        b = known_at(obs, seat, q)
        g[ix(a)], g[ix(b)] = g[ix(b)], g[ix(a)]


# ---- the deal -----------------------------------------------------------------------------------
@hot(inline="always")
def _clear_views(g, rt, rng, seed, round_index):
    """What the policies that read the views start a round with."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    for s in range(players):
        rng[STREAM_SEAT0 + s] = stream_state_nb(seed, round_index, STREAM_SEAT0 + s)
    for i in range(K.N_PUB_SLOTS + MAX_PLAYERS):
        g[ix(G_PUB + i)] = 0
    for i in range(players * K.MEMORY_SLOTS):
        g[ix(G_MEMORY + i)] = 0
    for s in range(players):
        for p in range(MAX_POS):
            g[ix(G_UP + s * MAX_POS + p)] = 0
        for obs in range(players):
            for p in range(MAX_POS if POWERS else npos):
                g[ix(known_at(obs, s, p))] = -1
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    if GENERAL:
        for s in range(players):
            g[ix(G_PENALTY + s)] = 0
            g[ix(G_SKIP + s)] = 0
            g[ix(K.G_BANK + s)] = 0
            for p in range(MAX_POS):
                g[ix(K.G_ONCE + s * MAX_POS + p)] = K.ONCE_LEFT
                g[ix(G_LAY + s * MAX_POS + p)] = -1
            # first-turn reveals still to do (-1), or none
            g[ix(G_CHOSEN + s * MAX_POS + MAX_POS - 1)] = \
                -1 if rt[K.R_REVEAL_MODE] == K.REVEAL_FLIP_FIRST_TURN else 0


@hot(inline="always")
def _deal(g, rt, rng, seed, round_index):
    """Shuffle, deal position by position from the first player, and set what each seat
    knows; returns the stock's size."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    if VIEWS:
        _clear_views(g, rt, rng, seed, round_index)
    for i in range(ncards):
        g[ix(G_STOCK + i)] = rt[ix(K.RT_DECK + i)]
    shuffle_nb(g, G_STOCK, ncards, rng, STREAM_DEAL)
    n = ncards
    for p in range(npos):
        for s in range(players):
            n -= 1
            g[ix(G_LAY + s * MAX_POS + p)] = g[ix(G_STOCK + n)]
    if not VIEWS:
        LP.unknown_layouts(g, rt, 0, players)
    view_all = rt[K.R_OWNER_VIEW_ALL] != 0
    for s in range(players):
        g[ix(G_UPMASK + s)] = 0
        g[ix(G_FACE_DOWN + s)] = npos
        g[ix(K.G_PLANNED + s)] = 0
        if view_all:   # the owner holds its cards in hand and sees them all
            for p in range(npos):
                learn_nb(g, rt, s, p, g[ix(G_LAY + s * MAX_POS + p)])
    return n


@hot
def copy_state_nb(dst, src, players, n_stock, n_disc):
    """dst = src for everything the lean build reads or writes, for ``players`` seats, a
    stock of ``n_stock`` and a discard pile of ``n_disc`` cards (the lookahead player restores
    one loaded deal before each move it tries: a copy instead of dealing it again)."""
    for i in range(G_LAY, G_LAY + players * MAX_POS):
        dst[ix(i)] = src[ix(i)]
    for field in range(K.G_OWN, G_UPMASK, MAX_PLAYERS * MAX_POS):
        for i in range(field, field + players * MAX_POS):
            dst[ix(i)] = src[ix(i)]
    for i in range(G_STOCK, G_STOCK + n_stock):
        dst[ix(i)] = src[ix(i)]
    for i in range(G_DISCARD, G_DISCARD + n_disc):
        dst[ix(i)] = src[ix(i)]
    for field in range(G_UPMASK, K.G_SCRATCH, MAX_PLAYERS):
        for i in range(field, field + players):
            dst[ix(i)] = src[ix(i)]
    for i in range(G_FACE_DOWN, G_FACE_DOWN + players):
        dst[ix(i)] = src[ix(i)]


# ---- asking a policy that reads the views (user and general builds) -----------------------------
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
def _show_piles(g, n_disc, sum_disc, up_n, up_sum):
    """The public slots a step within a decision changed (a flip, a removed group)."""
    g[ix(G_PUB + K.PUB_DISCARD_N)] = n_disc
    g[ix(G_PUB + K.PUB_DISCARD_SUM)] = sum_disc
    g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
    g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum


@hot(inline="always")
def _checked(g, point, seat, a):
    """The policy's answer when legal; else -1, with the error described."""
    if a < 0 or a >= K.N_ACTIONS or g[ix(G_LEGAL + a)] == 0:
        g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_ILLEGAL_ACTION
        g[ix(G_PRIV + K.PRIV_ERR_SEAT)] = seat
        g[ix(G_PRIV + K.PRIV_ERR_POINT)] = point
        g[ix(G_PRIV + K.PRIV_ERR_ACTION)] = a
        return -1
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
    if ROLLOUT:   # a seat's model in a rollout, called directly (its scratch in ctx[3])
        a = rollout_decide(point, seat, held, g, rt, rng, par, ctx[3])
    elif GENERAL and par[seat, 0] != POLICY_USER:  # a built-in, through the run's table
        policies = ctx[2]
        a = policies[policy_slot_nb(par[seat, 0])](point, seat, held, g, rt, rng, par,
                                                    ctx[3])
    else:
        known = G_KNOWN + seat * MAX_PLAYERS * MAX_POS
        memory = G_MEMORY + seat * K.MEMORY_SLOTS
        public = g[G_PUB:G_PUB + K.N_PUB_SLOTS + MAX_PLAYERS]
        legal = g[G_LEGAL:G_LEGAL + K.N_ACTIONS]
        sees = g[known:known + MAX_PLAYERS * MAX_POS]
        faceup = g[G_UP:G_UP + MAX_PLAYERS * MAX_POS]
        pile = g[G_DISCARD:G_DISCARD + MAX_IDS]
        mine = g[memory:memory + K.MEMORY_SLOTS]
        stream = rng[STREAM_SEAT0 + seat:STREAM_SEAT0 + seat + 1]
        if GENERAL:
            a = ctx[1](point, seat, held, public, legal, sees, faceup, pile, mine, rt, stream,
                       par[seat])
        elif often:
            a = user_decide(point, seat, held, public, legal, sees, faceup, pile, mine, rt,
                            stream, par[seat])
        else:
            a = user_decide_call(point, seat, held, public, legal, sees, faceup, pile, mine,
                                 rt, stream, par[seat])
    a = _checked(g, point, seat, a)
    if LOGS:
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
    for p in range(rt[K.R_NPOS]):
        g[ix(G_LEGAL + p)] = (mask >> p) & 1


@hot(inline="always")
def _mask_actions(g, bits):
    """The legal mask: the turn's options (turn_options)."""
    _clear(g)
    for a in TURN_ACTIONS:
        g[ix(G_LEGAL + a)] = (bits >> (a - K.A_DRAW_STOCK)) & 1


@hot(inline="always")
def _placement_mask(g, rt, seat, point, may_look):
    """Where a held card may go (and A_DISCARD for a stock card when the rules allow); with
    ``may_look``, A_PEEK too when the seat has a face-down card it does not know."""
    _mask_positions(g, rt, _replaceable(g, rt, seat))
    if point == K.DP_PLACE_DRAWN:
        g[ix(G_LEGAL + K.A_DISCARD)] = rt[K.R_STOCK_MAY_DISCARD] != 0
    if may_look and _unknown_mask(g, rt, seat, 0) != 0:
        g[ix(G_LEGAL + K.A_PEEK)] = 1


@hot(inline=STEP)
def _peek(g, rt, rng, par, ctx, seat, held):
    """The seat looks at one of its face-down cards it does not know (DP_PEEK). False on a
    policy error."""
    _mask_positions(g, rt, _unknown_mask(g, rt, seat, 0))
    c = _ask(g, rt, rng, par, ctx, K.DP_PEEK, seat, held, False)
    if c < 0:
        return False
    learn(g, rt, seat, c, g[ix(G_LAY + seat * MAX_POS + c)])
    return True


@hot(inline="always")
def _ask_place(g, rt, rng, par, ctx, seat, card, point):
    """Where the held ``card`` goes (a position, or A_DISCARD for a stock card). With
    blind_replacement = false the seat may first look at one of its unknown face-down cards
    (A_PEEK, then DP_PEEK), and is then asked again. -1 on error."""
    may_look = GENERAL and rt[K.R_BLIND] == 0
    _placement_mask(g, rt, seat, point, may_look)
    b = _ask(g, rt, rng, par, ctx, point, seat, card, True)
    if not (GENERAL and b == K.A_PEEK):
        return b
    if not _peek(g, rt, rng, par, ctx, seat, card):
        return -1
    _placement_mask(g, rt, seat, point, False)
    return _ask(g, rt, rng, par, ctx, point, seat, card, False)


# ---- the initial reveal -------------------------------------------------------------------------
@hot(inline="always")
def _revealable(g, rt, seat, taken, n_chosen):
    """Bit p set when the seat may still reveal p: face down, not known, not in ``taken``
    (its picks so far, ``n_chosen`` of them), and as the constraint allows."""
    con = rt[K.R_REVEAL_CONSTRAINT]
    first = 0
    if con == K.CON_NEAREST_ROW:
        first = (rt[K.R_ROWS] - 1) * rt[K.R_COLS]
    mask = _unknown_mask(g, rt, seat, first) & ~taken
    if GENERAL and con > K.CON_NEAREST_ROW:
        mask &= constraint_mask_nb(g, rt, seat, n_chosen)
    return mask


@hot(inline="always")
def _reveal(g, rt, seat, p):
    """Peek at or flip the chosen position (with whole_column: the whole column of p).
    Returns the cards turned up and their value sum."""
    if rt[K.R_REVEAL_MODE] == K.REVEAL_PEEK:
        learn_nb(g, rt, seat, p, g[ix(G_LAY + seat * MAX_POS + p)])
        if POWERS:   # everyone sees which card was looked at
            g[ix(K.G_PEEKED + seat * MAX_POS + p)] |= 1 << seat
        return 0, 0
    if GENERAL and rt[K.R_REVEAL_CONSTRAINT] == K.CON_WHOLE_COLUMN:
        cols = rt[K.R_COLS]
        total = 0
        for r in range(rt[K.R_ROWS]):
            total += _turn_up(g, rt, seat, r * cols + p % cols)
        return rt[K.R_ROWS], total
    return 1, _turn_up(g, rt, seat, p)


@hot(inline=STEP)
def _choose_reveals(g, rt, rng, par, ctx, seat, decisions, reveal_now, up_n, up_sum):
    """Up to ``decisions`` reveal picks of ``seat`` (fewer when none is legal), kept at
    g[G_CHOSEN + seat*MAX_POS ...] with their count in the row's last slot; each revealed at
    once when ``reveal_now``. Built-in seats of the lean build take the lowest position.
    Returns (face-up cards, their value sum, ok)."""
    chosen = G_CHOSEN + seat * MAX_POS
    n = 0
    taken = 0
    for i in range(decisions):
        mask = _revealable(g, rt, seat, taken, n)
        if mask == 0:
            break
        if VIEWS:
            _mask_positions(g, rt, mask)
            p = _ask(g, rt, rng, par, ctx, K.DP_REVEAL, seat, -1, False)
            if p < 0:
                return up_n, up_sum, False
        else:
            p = trailing_zeros(mask)
        g[ix(chosen + n)] = p
        taken |= 1 << p
        n += 1
        if reveal_now:
            k, v = _reveal(g, rt, seat, p)
            up_n += k
            up_sum += v
            if VIEWS:
                g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
                g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum
    g[ix(chosen + MAX_POS - 1)] = n
    return up_n, up_sum, True


@hot(inline=STEP)
def _reveal_chosen(g, rt, seat, up_n, up_sum):
    """Reveal the picks kept for ``seat``."""
    chosen = G_CHOSEN + seat * MAX_POS
    for i in range(g[ix(chosen + MAX_POS - 1)]):
        k, v = _reveal(g, rt, seat, g[ix(chosen + i)])
        up_n += k
        up_sum += v
    if VIEWS:
        g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
        g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum
    return up_n, up_sum


@hot(inline=STEP)
def _initial_reveal(g, rt, rng, par, ctx, n_stock, n_disc, sum_disc):
    """Flip or peek, seat by seat from the first player. Returns (face-up cards, their value
    sum, ok)."""
    count = rt[K.R_REVEAL_COUNT]
    mode = rt[K.R_REVEAL_MODE]
    if VIEWS:
        _publish(g, n_stock, n_disc, sum_disc, 0, 0, 0, -1, -1, 0, 0)
    if (mode != K.REVEAL_FLIP and mode != K.REVEAL_PEEK) or count == 0:
        return 0, 0, True
    if VIEWS:
        return _chosen_reveals(g, rt, rng, par, ctx, count)
    # greedy and knock-threshold reveal their lowest unknown positions: one mask a seat, and
    # the order of choosing and revealing changes nothing they know
    up_n = 0
    up_sum = 0
    for seat in range(rt[K.R_PLAYERS]):
        mask = _revealable(g, rt, seat, 0, 0)
        for i in range(count):
            if mask == 0:
                break
            k, v = _reveal(g, rt, seat, trailing_zeros(mask))
            up_n += k
            up_sum += v
            mask &= mask - 1
    return up_n, up_sum, True


@hot(inline=STEP)
def _chosen_reveals(g, rt, rng, par, ctx, count):
    """The initial reveal of policies that choose (the views published). With sequential
    choice each card is seen before the next is chosen; otherwise a seat's cards (or, with
    simultaneous order, everyone's) are revealed after all of them are chosen. Returns
    (face-up cards, their value sum, ok)."""
    up_n = 0
    up_sum = 0
    simultaneous = rt[K.R_REVEAL_SIMULTANEOUS] != 0
    sequential = rt[K.R_REVEAL_SEQUENTIAL] != 0 and not simultaneous
    for seat in range(rt[K.R_PLAYERS]):
        up_n, up_sum, ok = _choose_reveals(g, rt, rng, par, ctx, seat, count, sequential,
                                           up_n, up_sum)
        if not ok:
            return up_n, up_sum, False
        if not sequential and not simultaneous:
            up_n, up_sum = _reveal_chosen(g, rt, seat, up_n, up_sum)
    if simultaneous:
        for seat in range(rt[K.R_PLAYERS]):
            up_n, up_sum = _reveal_chosen(g, rt, seat, up_n, up_sum)
    return up_n, up_sum, True


@hot
def _arrange(g, rt, rng, par, ctx):
    """rearrange_after_reveal (docs/rules.md#rearrange_after_reveal): seat by seat from the
    first player, each face-up card, lowest position first, is given a position not yet
    settled (DP_ARRANGE, ``held`` = the card); the two cards there swap and the position is
    settled. Face-down cards thus move blindly into the places face-up cards leave."""
    npos = rt[K.R_NPOS]
    for seat in range(rt[K.R_PLAYERS]):
        settled = 0
        while True:
            free_up = g[ix(G_UPMASK + seat)] & ~settled
            if free_up == 0:
                break
            p = trailing_zeros(free_up)
            _mask_positions(g, rt, ((1 << npos) - 1) & ~settled)
            q = _ask(g, rt, rng, par, ctx, K.DP_ARRANGE, seat,
                     g[ix(G_LAY + seat * MAX_POS + p)], False)
            if q < 0:
                return False
            if q != p:
                _swap_positions(g, rt, seat, p, q)
            settled |= 1 << q
    return True


# ---- remove_cancelled ---------------------------------------------------------------------------
@hot
def _remove_groups(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """Take the seat's completed groups off its layout: all of them (immediate), or those
    its owner chooses (optional_to_discard_bottom, one DP_REMOVE question each; a group it
    keeps is offered again the next time). The views are published. Returns (ok, n_disc,
    sum_disc, up_n, up_sum)."""
    mode = rt[K.R_REMOVE_CANCELLED]
    if mode == K.REMOVE_NEVER:
        return True, n_disc, sum_disc, up_n, up_sum
    for i in range(N_GROUPS):
        mask = group_mask_nb(rt, i)
        if mask == 0 or not completed_nb(g, rt, seat, mask):
            continue
        value = group_value_nb(g, rt, seat, i)
        if mode == K.REMOVE_OPTIONAL:
            _clear(g)
            g[ix(G_LEGAL + K.A_REMOVE)] = 1
            g[ix(G_LEGAL + K.A_PASS)] = 1
            a = _ask(g, rt, rng, par, ctx, K.DP_REMOVE, seat, trailing_zeros(mask), False)
            if a < 0:
                return False, n_disc, sum_disc, up_n, up_sum
            if a == K.A_PASS:
                continue
        k, total = remove_cells_nb(g, rt, seat, mask, value, n_disc)
        n_disc += k
        sum_disc += total
        up_n -= k
        up_sum -= total
        _show_piles(g, n_disc, sum_disc, up_n, up_sum)
    return True, n_disc, sum_disc, up_n, up_sum


@hot
def _before_play(g, rt, rng, par, ctx, n_disc, sum_disc, up_n, up_sum):
    """The general build's steps between the reveal and the first turn: rearranging, marking
    what each owner saw for replace_unseen_once, removing the groups the reveal completed.
    The views are published. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    if rt[K.R_REARRANGE] != 0 and not _arrange(g, rt, rng, par, ctx):
        return False, n_disc, sum_disc, up_n, up_sum
    if rt[K.R_REPLACE_UNSEEN_ONCE] != 0:  # what each owner saw before play has no limit
        for s in range(rt[K.R_PLAYERS]):
            for p in range(rt[K.R_NPOS]):
                if g[ix(own(s) + p)] >= 0:
                    g[ix(K.G_ONCE + s * MAX_POS + p)] = K.ONCE_SEEN
    for s in range(rt[K.R_PLAYERS]):
        ok, n_disc, sum_disc, up_n, up_sum = _remove_groups(g, rt, rng, par, ctx, s, n_disc,
                                                            sum_disc, up_n, up_sum)
        if not ok:
            return False, n_disc, sum_disc, up_n, up_sum
    return True, n_disc, sum_disc, up_n, up_sum


# ---- one turn -----------------------------------------------------------------------------------
@hot(inline="always")
def turn_options(g, rt, seat, n_stock, n_disc, ender, turn):
    """The actions legal at the start of ``seat``'s turn, as bits (B_DRAW, ...)."""
    final_lap = ender >= 0
    bits = 0
    if n_stock > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and n_disc > 1):
        bits |= B_DRAW
    if rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
            not (final_lap and rt[K.R_FINAL_STOCK_ONLY] != 0) and _replaceable(g, rt, seat):
        bits |= B_TAKE
    if (rt[K.R_END_TRIGGERS] & K.END_KNOCK) != 0 and not final_lap and \
            turn >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS] and \
            not (GENERAL and rt[K.R_KNOCK_TIMING] == K.KNOCK_END_OF_TURN):
        bits |= B_KNOCK
    if GENERAL:
        if g[ix(G_FACE_DOWN + seat)] > 0:
            if rt[K.R_FLIP_INSTEAD_OF_DRAW] != 0:
                bits |= B_FLIP
            if rt[K.R_FLIP_ALL_TO_END] != 0 and \
                    g[ix(G_FACE_DOWN + seat)] <= rt[K.R_FLIP_ALL_MAX]:
                bits |= B_FLIP_ALL
        if rt[K.R_PAY_TO_PEEK] != K.NONE_VALUE and _unknown_mask(g, rt, seat, 0) != 0:
            bits |= B_PEEK
    return bits


@hot(inline="always")
def _ask_turn(g, rt, rng, par, ctx, seat, bits, n_stock, n_disc, ender, turn):
    """The action of a policy that reads the views (published) at the start of its turn;
    pay_to_peek (AMB-16): a look at an own face-down card, paid for, and the question again.
    -1 on a policy error, NOTHING_LEGAL when a look left nothing to do."""
    while True:
        _mask_actions(g, bits)
        a = _ask(g, rt, rng, par, ctx, K.DP_TURN, seat, -1, True)
        if not (GENERAL and a == K.A_PEEK):
            return a
        if not _peek(g, rt, rng, par, ctx, seat, -1):
            return -1
        g[ix(G_PENALTY + seat)] += rt[K.R_PAY_TO_PEEK]
        bits = turn_options(g, rt, seat, n_stock, n_disc, ender, turn)
        if bits == 0:
            return NOTHING_LEGAL


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
    old = _put(g, rt, seat, p, card, face_up, public)
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    up_n += np.int64(face_up) - was_up
    up_sum += np.int64(face_up) * rt[ix(RT_VALUE + card)] - was_up * rt[ix(RT_VALUE + old)]
    n_disc, sum_disc = _discard(g, rt, seat, old, n_disc, sum_disc)
    return True, n_disc, sum_disc, up_n, up_sum


@hot(inline=STEP)
def _flip_after_discard(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """flip_after_discard: having discarded the drawn card, the seat turns one of its cards up
    (unless_one_left: it may pass when one is left; optional_in_endgame: it may flip, or
    pass, once some player has at most one face-down card). Returns (ok, up_n, up_sum)."""
    fad = rt[K.R_FLIP_AFTER_DISCARD]
    fd = g[ix(G_FACE_DOWN + seat)]
    if fad == K.FAD_NONE or fd == 0:
        return True, up_n, up_sum
    if fad == K.FAD_ENDGAME:
        endgame = False
        for s in range(rt[K.R_PLAYERS]):
            if g[ix(G_FACE_DOWN + s)] <= 1:
                endgame = True
        if not endgame:
            return True, up_n, up_sum
    _mask_positions(g, rt, ((1 << rt[K.R_NPOS]) - 1) & ~g[ix(G_UPMASK + seat)])
    if (fad == K.FAD_UNLESS_ONE and fd == 1) or fad == K.FAD_ENDGAME:
        g[ix(G_LEGAL + K.A_PASS)] = 1
    _show_piles(g, n_disc, sum_disc, up_n, up_sum)
    c = _ask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, False)
    if c < 0:
        return False, up_n, up_sum
    if c != K.A_PASS:
        up_sum += _turn_up(g, rt, seat, c)
        up_n += 1
    return True, up_n, up_sum


@hot(inline="always")
def _reshuffle(g, rt, rng, n_disc):
    """The discard pile but its top card becomes the stock; returns the stock's size and the
    pile's value sum (its one card)."""
    n_stock = n_disc - 1
    for i in range(n_stock):
        g[ix(G_STOCK + i)] = g[ix(G_DISCARD + i)]
    top = g[ix(G_DISCARD + n_stock)]
    g[ix(G_DISCARD)] = top
    shuffle_nb(g, G_STOCK, n_stock, rng, STREAM_DEAL)
    return n_stock, rt[ix(RT_VALUE + top)]


@hot(inline="always")
def _draw(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
          final_left, knocked, reshuffles, forced, forced_pos, vector, n, S):
    """A_DRAW_STOCK: draw (reshuffling the pile when the stock is empty) and choose where the
    card goes, or discard it. ``n``, ``S``: the lean build's unseen cards and their sum.
    Returns (ok, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, the card to place or
    -1, its position, whether everyone saw it)."""
    if n_stock == 0:
        n_stock, sum_disc = _reshuffle(g, rt, rng, n_disc)
        n_disc = 1
        reshuffles += 1
        if not VIEWS:
            n, S = LP.unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum)
    n_stock -= 1
    card = g[ix(G_STOCK + n_stock)]
    public = rt[K.R_PRIVATE_STOCK] == 0  # private_stock_draw = false: everyone sees it
    if VIEWS:
        if public:
            g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                 knocked, reshuffles)
        b = _ask_place(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_DRAWN)
        if b < 0:
            return False, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, -1, -1, public
        p = -1 if b == K.A_DISCARD else b
    else:
        if forced >= 0 and forced_pos >= 0:
            p = -1 if forced_pos == K.A_DISCARD else forced_pos
        else:
            p = LP.best_placement(g, rt, seat, card, n - 1, S - rt[ix(RT_VALUE + card)],
                                  vector) if n - 1 > 0 else -1
            if p < 0 and reshuffles >= K.GREEDY_STALL_RESHUFFLES and \
                    (rt[K.R_END_TRIGGERS] & K.END_ALL_FACE_UP) != 0 and \
                    g[ix(G_POLICY + seat)] != POLICY_KNOCK_THRESHOLD:
                p = _lowest(_unknown_mask(g, rt, seat, 0) & _replaceable(g, rt, seat))
        if p < 0 and rt[K.R_STOCK_MAY_DISCARD] == 0:
            p = _lowest(_replaceable(g, rt, seat))
    if p >= 0:
        return True, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, card, p, public
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    n_disc, sum_disc = _discard(g, rt, seat, card, n_disc, sum_disc)
    ok = True
    if GENERAL:
        ok, up_n, up_sum = _flip_after_discard(g, rt, rng, par, ctx, seat, n_disc, sum_disc,
                                               up_n, up_sum)
    return ok, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, -1, -1, public


@hot(inline="always")
def _lowest(mask):
    return -1 if mask == 0 else trailing_zeros(mask)


@hot(inline="always")
def _take(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
          final_left, knocked, reshuffles, forced, forced_pos):
    """A_TAKE_DISCARD: take the pile's top card and choose where it goes. Returns (ok,
    n_disc, sum_disc, the card, its position)."""
    n_disc -= 1
    card = g[ix(G_DISCARD + n_disc)]
    sum_disc -= rt[ix(RT_VALUE + card)]
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                 knocked, reshuffles)
        p = _ask_place(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_TAKEN)
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1   # as ever: before the face is chosen
        return p >= 0, n_disc, sum_disc, card, p
    p = forced_pos if forced >= 0 else g[ix(K.G_PLANNED + seat)]
    rep = _replaceable(g, rt, seat)
    if not (p >= 0 and p < rt[K.R_NPOS] and (rep >> p) & 1):
        p = _lowest(rep)
    return True, n_disc, sum_disc, card, p


@hot(inline="always")
def _final_turns(rt, seat, players):
    ft = rt[K.R_FINAL_TURNS]
    if ft == K.FINAL_NONE:
        return 0
    if ft == K.FINAL_EACH_OTHER:
        return players - 1
    return players - 1 - seat   # complete the lap: the seats after the ender up to the dealer


@hot
def _reveal_on_trigger(g, rt, seat, up_n, up_sum):
    """reveal_on_trigger: the others turn all their cards up when the end is triggered."""
    if rt[K.R_REVEAL_ON_TRIGGER] == 0:
        return up_n, up_sum
    for s in range(rt[K.R_PLAYERS]):
        if s == seat:
            continue
        for p in range(rt[K.R_NPOS]):
            if (g[ix(G_UPMASK + s)] >> p) & 1 == 0:
                up_sum += _turn_up(g, rt, s, p)
                up_n += 1
    return up_n, up_sum


@hot(inline="always")
def _start_end(g, rt, seat, up_n, up_sum):
    """``seat`` triggers the end: (ender, final turns left, up_n, up_sum)."""
    up_n, up_sum = _reveal_on_trigger(g, rt, seat, up_n, up_sum)
    return seat, _final_turns(rt, seat, rt[K.R_PLAYERS]), up_n, up_sum


@hot
def _first_turn(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """initial_reveal_mode = flip_on_first_turn: the seat's flips open its first turn (with
    whole_column one decision turns a whole column up), and the groups they complete leave.
    The views are published. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    decisions = 1 if rt[K.R_REVEAL_CONSTRAINT] == K.CON_WHOLE_COLUMN else rt[K.R_REVEAL_COUNT]
    up_n, up_sum, ok = _choose_reveals(g, rt, rng, par, ctx, seat, decisions, True, up_n,
                                       up_sum)
    if not ok:
        return False, n_disc, sum_disc, up_n, up_sum
    return _remove_groups(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum)


@hot
def _after_turn(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum, turn, ender,
                final_left, knocked):
    """The general build's end of a turn (the views published): the groups it completed
    leave the layout; with knock_timing end_of_own_turn or any_time_in_turn the seat may knock
    now (AMB-12; knocking at the start and then playing the turn gains nothing over this).
    Returns (ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked)."""
    ok, n_disc, sum_disc, up_n, up_sum = _remove_groups(g, rt, rng, par, ctx, seat, n_disc,
                                                        sum_disc, up_n, up_sum)
    if ok and rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and \
            (rt[K.R_END_TRIGGERS] & K.END_KNOCK) != 0 and ender < 0 and \
            turn >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]:
        _clear(g)
        g[ix(G_LEGAL + K.A_KNOCK)] = 1
        g[ix(G_LEGAL + K.A_PASS)] = 1
        k = _ask(g, rt, rng, par, ctx, K.DP_KNOCK, seat, -1, False)
        ok = k >= 0
        if k == K.A_KNOCK:
            ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
            knocked = 1
    return ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked


@hot(inline=STEP)
def _flips(g, rt, rng, par, ctx, seat, action, up_n, up_sum, ender, final_left):
    """A_FLIP (one chosen card, DP_FLIP) or A_FLIP_ALL (every face-down card, and the end
    when nobody has triggered it). Returns (ok, up_n, up_sum, ender, final_left)."""
    if action == K.A_FLIP:
        _mask_positions(g, rt, ((1 << rt[K.R_NPOS]) - 1) & ~g[ix(G_UPMASK + seat)])
        c = _ask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, False)
        if c < 0:
            return False, up_n, up_sum, ender, final_left
        return True, up_n + 1, up_sum + _turn_up(g, rt, seat, c), ender, final_left
    for p in range(rt[K.R_NPOS]):
        if (g[ix(G_UPMASK + seat)] >> p) & 1 == 0:
            up_sum += _turn_up(g, rt, seat, p)
            up_n += 1
    if ender < 0:
        ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
    return True, up_n, up_sum, ender, final_left


@hot(inline="always")
def _turn(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
          final_left, knocked, reshuffles, forced, forced_pos, vector):
    """One turn of ``seat``. Returns (r, n_stock, n_disc, sum_disc, up_n, up_sum, ender,
    final_left, knocked, reshuffles): r is 1 when played, 0 when the hole must end (nothing
    is legal), -1 after a policy's illegal action."""
    ok = True
    if GENERAL and g[ix(G_CHOSEN + seat * MAX_POS + MAX_POS - 1)] < 0:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        ok, n_disc, sum_disc, up_n, up_sum = _first_turn(g, rt, rng, par, ctx, seat, n_disc,
                                                         sum_disc, up_n, up_sum)
    bits = turn_options(g, rt, seat, n_stock, n_disc, ender, turn) if ok else 0
    if VIEWS and ok and bits != 0:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        action = _ask_turn(g, rt, rng, par, ctx, seat, bits, n_stock, n_disc, ender, turn)
        ok = action >= 0 or action == NOTHING_LEGAL
        bits = 0 if action == NOTHING_LEGAL else bits
        n = 0
        S = 0
    elif not VIEWS:
        n, S = LP.unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum)
        top = g[ix(G_DISCARD + n_disc - 1)] if n_disc > 0 else -1
        action = forced if forced >= 0 else LP.turn_action(
            g, rt, par, seat, n, S, top, (bits & B_DRAW) != 0, (bits & B_TAKE) != 0,
            (bits & B_KNOCK) != 0, vector)
    else:
        action = -1
        n = 0
        S = 0
    if not ok or bits == 0:
        return (-1 if not ok else 0), n_stock, n_disc, sum_disc, up_n, up_sum, ender, \
            final_left, knocked, reshuffles
    card = -1
    p = -1
    public = True
    if action == K.A_DRAW_STOCK:
        ok, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, card, p, public = _draw(
            g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos, vector, n, S)
    elif action == K.A_TAKE_DISCARD:
        ok, n_disc, sum_disc, card, p = _take(
            g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos)
    elif GENERAL and (action == K.A_FLIP or action == K.A_FLIP_ALL):
        ok, up_n, up_sum, ender, final_left = _flips(g, rt, rng, par, ctx, seat, action, up_n,
                                                     up_sum, ender, final_left)
    else:  # knock
        ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
        knocked = 1
    if ok and card >= 0:  # the one place a held card goes to the layout
        ok, n_disc, sum_disc, up_n, up_sum = _place(g, rt, rng, par, ctx, seat, p, card, public,
                                                    n_disc, sum_disc, up_n, up_sum)
    if GENERAL and ok:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked = _after_turn(
            g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked)
    return (1 if ok else -1), n_stock, n_disc, sum_disc, up_n, up_sum, ender, final_left, \
        knocked, reshuffles


# ---- one round ----------------------------------------------------------------------------------
@hot(inline="always")
def _end_triggered(g, rt, seat, up_n, up_sum, ender, final_left):
    """After a turn in which nobody had ended the hole: does ``seat``'s layout (all face up)
    or everyone's (all_players_face_up) end it now? Returns (ender, final_left, up_n,
    up_sum)."""
    triggers = rt[K.R_END_TRIGGERS]
    if (triggers & K.END_ALL_FACE_UP) != 0 and g[ix(G_FACE_DOWN + seat)] == 0:
        ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
    elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
        all_up = True
        for s in range(rt[K.R_PLAYERS]):
            if g[ix(G_FACE_DOWN + s)] != 0:
                all_up = False
        if all_up:
            ender = seat
            final_left = 0
    return ender, final_left, up_n, up_sum


@hot
def play_nb(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos, cap):
    """Play turns from ``seat`` to the end of the round (or to ``cap`` turns), from the state
    in ``g`` and the counters given. ``forced`` >= 0 makes the first turn's move instead of
    the seat's policy (the lookahead player's candidates, lean build): A_KNOCK; A_TAKE_DISCARD
    placed at ``forced_pos``; A_DRAW_STOCK with the drawn card placed at ``forced_pos``,
    discarded when it is A_DISCARD, or as the policy decides when it is -1. ``ctx``: (move
    log, user policy, policies' table, policy scratch, int64 scratch, check) in the general
    build, anything in the others. Returns (turns, ender, knocked, capped, reshuffles);
    capped is -1 after a policy's illegal action or a failed check."""
    players = rt[K.R_PLAYERS]
    capped = 0
    reshuffle = rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE
    vector = LP.vector_scope(rt)
    if not VIEWS:
        LP.seat_policies(g, par, players, rt[K.R_END_TRIGGERS])
    while True:
        ender_before = ender
        if GENERAL and g[ix(G_SKIP + seat)] != 0:  # a jack was discarded onto it: no turn
            g[ix(G_SKIP + seat)] = 0
        else:
            r, n_stock, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked, \
                reshuffles = _turn(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc,
                                   up_n, up_sum, turn, ender, final_left, knocked, reshuffles,
                                   forced, forced_pos, vector)
            if r <= 0:
                capped = min(r, 0)
                break
        turn += 1
        if GENERAL and ctx[5]:
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            if not conservation_ok_nb(g, rt, -1, ctx[4]):
                g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_CONSERVATION
                capped = -1
                break
        if ender_before >= 0:
            final_left -= 1          # a final turn was played
        elif ender < 0:              # (a knock or flip-all set it itself)
            ender, final_left, up_n, up_sum = _end_triggered(g, rt, seat, up_n, up_sum, ender,
                                                             final_left)
        if GENERAL and ender_before < 0 and ender >= 0 and rt[K.R_REVEAL_ON_TRIGGER] != 0:
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            ok, n_disc, sum_disc, up_n, up_sum = _groups_revealed(
                g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum)
            if not ok:
                capped = -1
                break
        if ender >= 0 and final_left <= 0:
            break
        if not reshuffle and n_stock == 0:
            break   # docs/rules.md#stock_empty: with end_hole the hole ends with the stock
        if turn >= cap:
            capped = 1
            break
        forced = -1
        seat += 1
        if seat == players:
            seat = 0
    if VIEWS:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
    return turn, ender, knocked, capped, reshuffles


@hot
def _groups_revealed(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """The groups that the others' forced reveal (reveal_on_trigger) completed leave their
    layouts. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    for s in range(rt[K.R_PLAYERS]):
        if s != seat:
            ok, n_disc, sum_disc, up_n, up_sum = _remove_groups(g, rt, rng, par, ctx, s,
                                                                n_disc, sum_disc, up_n, up_sum)
            if not ok:
                return False, n_disc, sum_disc, up_n, up_sum
    return True, n_disc, sum_disc, up_n, up_sum


@hot(inline=STEP)
def _start_round(g, rt, par, rng, ctx, seed, round_index, log_on):
    """Deal, turn up the first discard, reveal, and (general build) the steps before the
    first turn. Returns (ok, n_stock, n_disc, sum_disc, up_n, up_sum)."""
    if VIEWS:
        for i in range(K.N_PRIV):
            g[ix(G_PRIV + i)] = 0
        g[ix(G_PRIV + K.PRIV_LOG_N)] = 0 if (GENERAL and log_on) else -1
    n_stock = _deal(g, rt, rng, seed, round_index)
    n_disc = 0
    sum_disc = 0
    if rt[K.R_INITIAL_TURN_UP] != 0:  # else the pile starts empty (initial_discard = none)
        n_stock -= 1
        g[ix(G_DISCARD)] = g[ix(G_STOCK + n_stock)]
        n_disc = 1
        sum_disc = rt[ix(RT_VALUE + g[G_DISCARD])]
    if POWERS:
        PF.start_layouts(g, rt, n_disc)
    up_n, up_sum, ok = _initial_reveal(g, rt, rng, par, ctx, n_stock, n_disc, sum_disc)
    if GENERAL and ok:
        ok, n_disc, sum_disc, up_n, up_sum = _before_play(g, rt, rng, par, ctx, n_disc,
                                                          sum_disc, up_n, up_sum)
    return ok, n_stock, n_disc, sum_disc, up_n, up_sum


# the round's steps are inlined into the chunk loop: a call passes seven machine words per
# array argument, and these run once a round (together 1.07x on W2)
@hot(inline=STEP)
def round_nb(seed, round_index, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
             log_on, check, user, policies, aux):
    """Deal, reveal, play and score one round (hole). Scores land in ``scores``, layout values
    in ``L``, the outcome in ``out`` (codes.OUT_*). The general build appends every decision
    to ``log`` with ``log_on``, and verifies card conservation and the public counters after
    every turn with ``check``. False after a policy's illegal action (described in ``out``)."""
    ctx = (log, user, policies, aux, tmp, check)
    ok, n_stock, n_disc, sum_disc, up_n, up_sum = _start_round(g, rt, par, rng, ctx, seed,
                                                               round_index, log_on)
    turn, ender, knocked, capped, reshuffles = 0, -1, 0, 0, 0
    # a build constant alone in the test, so that Numba drops the other build's turns
    if POWERS:
        if ok:
            turn, ender, knocked, capped, reshuffles = power_play_nb(
                g, rt, par, rng, ctx, n_stock, n_disc, sum_disc, up_n, up_sum,
                rt[K.R_TURN_CAP])
            ok = capped >= 0
    elif ok:
        turn, ender, knocked, capped, reshuffles = play_nb(
            g, rt, par, rng, ctx, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0,
            -1, -1, rt[K.R_TURN_CAP])
        ok = capped >= 0
    out[K.OUT_ERROR] = 0
    out[K.OUT_LOG_N] = -1
    if VIEWS:
        out[K.OUT_ERROR] = g[ix(G_PRIV + K.PRIV_ERROR)]
        out[K.OUT_ERR_SEAT] = g[ix(G_PRIV + K.PRIV_ERR_SEAT)]
        out[K.OUT_ERR_POINT] = g[ix(G_PRIV + K.PRIV_ERR_POINT)]
        out[K.OUT_ERR_ACTION] = g[ix(G_PRIV + K.PRIV_ERR_ACTION)]
        out[K.OUT_LOG_N] = g[ix(G_PRIV + K.PRIV_LOG_N)]
    if not ok:
        return False
    score_nb(g, rt, ender, knocked, scores, L, quads, extra, tmp)
    out[K.OUT_TURNS] = turn
    out[K.OUT_CAPPED] = capped
    out[K.OUT_ENDER] = ender
    out[K.OUT_RESHUFFLES] = reshuffles
    out[K.OUT_KNOCKED] = knocked
    return True


@hot(inline="always")
def score_nb(g, rt, ender, knocked, scores, L, quads, extra, tmp):
    """Layout values L (with banked groups), then hole scores (with points paid to peek)."""
    players = rt[K.R_PLAYERS]
    layout_values_nb(g, G_LAY, rt, players, L, quads, tmp)
    if POWERS:
        grown_values_nb(g, G_LAY, rt, players, L)
    for s in range(players):
        extra[s] = 0
        if GENERAL:
            extra[s] = g[ix(G_PENALTY + s)]
            L[s] += g[ix(K.G_BANK + s)]
    hole_scores_nb(L, quads, ender, knocked == 1, players, rt, extra, scores)


@hot
def chunk_nb(seed, start, count, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
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
        if not round_nb(seed, start + i, rt, par, g, rng, log, out, scores, L, quads, extra,
                        tmp, False, check, user, policies, aux):
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
    ``match_total``: int64 scratch of matches.MATCH_SCRATCH."""
    players = rt[K.R_PLAYERS]
    for i in range(count):
        m = start + i
        first = start_match_nb(seed, m, rt, rng, players, match_total)
        h = 0
        done = False
        instant = False
        while not done:
            seat_hole_nb(rt, par, par_rot, first, players, match_total)
            if not round_nb(seed, m * MAX_MATCH_HOLES + h, rt, par_rot, g, rng, log, out,
                            scores, L, quads, extra, tmp, False, check, user, policies, aux):
                return i
            _add_hole_nb(first, scores, out, acc, tot, hist, players)
            h += 1
            first, done, instant = after_hole_nb(g, rt, out, scores, L, first, players, h,
                                                 holes, target, match_total, macc, tmp)
        end_match_nb(seed, m, rt, rng, players, h, instant, match_total, macc, mtot)
    return count


# ---- the power-card games (the powers build; simulator/game/powers.py is the specification) ----
# A power round keeps its counters in the public slots (powers_flow), so the moves and the
# policies read one truth; each step is called, not inlined, to keep the first compile short.
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


BIT_PASS = 1 << K.A_PASS


@hot
def _pw_turn_bits(g, rt, seat):
    """The turn's options (PowerHole.turn_options) as bits 1 << action."""
    bits = 0
    n_disc = g[ix(G_PUB + K.PUB_DISCARD_N)]
    top = g[ix(G_DISCARD + n_disc - 1)] if n_disc > 0 else -1
    if PF.can_draw(g, rt):
        bits |= 1 << K.A_DRAW_STOCK
    if rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
            not (g[ix(G_PUB + K.PUB_ENDER)] >= 0 and rt[K.R_FINAL_STOCK_ONLY] != 0) and \
            PF.replaceable(g, rt, seat) != 0 and \
            (rt[K.R_POWER_PLACEABLE] != 0 or PF.effect_of(rt, top) == K.POW_NONE):
        bits |= 1 << K.A_TAKE_DISCARD
    if rt[K.R_KNOCK_TIMING] != K.KNOCK_END_OF_TURN and PF.may_call(g, rt):
        bits |= 1 << K.A_KNOCK
    fd = PF.face_down_mask(g, seat)
    if fd != 0:
        if rt[K.R_FLIP_INSTEAD_OF_DRAW] != 0:
            bits |= 1 << K.A_FLIP
        if rt[K.R_FLIP_ALL_TO_END] != 0 and PF.popcount(fd) <= rt[K.R_FLIP_ALL_MAX]:
            bits |= 1 << K.A_FLIP_ALL
    if rt[K.R_PAY_TO_PEEK] != K.NONE_VALUE and PF.unknown_mask(g, seat) != 0:
        bits |= 1 << K.A_PEEK
    if rt[K.R_POWER_SOURCE] != 0 and n_disc > 0 and \
            g[ix(G_PUB + K.PUB_TOP_POWER_UNUSED)] != 0 and \
            PF.power_usable(g, rt, seat, PF.effect_of(rt, top)):
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
        p = _pask(g, rt, rng, par, ctx, K.DP_PEEK, seat, -1, 0, -1, PF.unknown_mask(g, seat))
        if p < 0:
            return -1
        PF.peek(g, rt, seat, p, seat)
        g[ix(G_PENALTY + seat)] += rt[K.R_PAY_TO_PEEK]


@hot
def _pw_place(g, rt, rng, par, ctx, seat, p, card, public):
    """The held card goes to p (Hole.place), the card there to the discard pile."""
    face = rt[K.R_PLACEMENT_FACE]
    up = face == K.FACE_UP or (face == K.FACE_CHOICE and PF.is_up(g, seat, p))
    if face == K.FACE_CHOICE and not up:
        f = _pask(g, rt, rng, par, ctx, K.DP_FACE, seat, card, 0, -1,
                  (1 << K.A_FACE_UP) | (1 << K.A_FACE_DOWN))
        if f < 0:
            return -1
        up = f == K.A_FACE_UP
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    old = PF.card_at(g, seat, p)
    PF.put(g, rt, seat, p, card, up, PF.everyone(rt) if public else 1 << seat)
    PF.discard(g, rt, seat, old)
    return 0


@hot
def _pw_flip_after_discard(g, rt, rng, par, ctx, seat):
    fad = rt[K.R_FLIP_AFTER_DISCARD]
    fd = PF.face_down_mask(g, seat)
    if fad == K.FAD_ENDGAME:
        endgame = False
        for s in range(rt[K.R_PLAYERS]):
            if PF.popcount(PF.face_down_mask(g, s)) <= 1:
                endgame = True
        if not endgame:
            return 0
    if fad == K.FAD_NONE or fd == 0:
        return 0
    bits = fd
    if (fad == K.FAD_UNLESS_ONE and PF.popcount(fd) == 1) or fad == K.FAD_ENDGAME:
        bits |= BIT_PASS
    p = _pask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, 0, -1, bits)
    if p < 0:
        return -1
    if p != K.A_PASS:
        PF.turn_up(g, rt, seat, p)
    return 0


@hot
def _pw_play_held(g, rt, rng, par, ctx, seat, card, point, effect, public):
    """Steps 1-3: the held card is placed, discarded, used for its power or matched."""
    bits = 0
    if rt[K.R_POWER_PLACEABLE] != 0 or PF.effect_of(rt, card) == K.POW_NONE:
        bits |= PF.replaceable(g, rt, seat)
    if point == K.DP_PLACE_DRAWN and rt[K.R_STOCK_MAY_DISCARD] != 0:
        bits |= 1 << K.A_DISCARD
    if PF.power_usable(g, rt, seat, effect):
        bits |= 1 << K.A_POWER
    if PF.match_possible(g, rt, seat):
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
        PF.discard(g, rt, seat, card)
        return _pw_flip_after_discard(g, rt, rng, par, ctx, seat)
    r = _pw_resolve(g, rt, rng, par, ctx, seat, effect, card)
    if r == 0:
        PF.discard_used(g, rt, seat, card)
    return min(r, 0)


@hot
def _pw_resolve(g, rt, rng, par, ctx, seat, effect, card):
    """One power for ``seat`` holding ``card`` (the Dutch 2: up to two chosen powers): 1 when
    the effect disposed of the card itself (the Dutch 8 and 9), 0 when the caller discards
    it, -1 on a policy error."""
    if effect != K.POW_COMBINE:
        return _pw_effect(g, rt, rng, par, ctx, seat, effect, card)
    chosen = 0
    for _ in range(2):
        options = PF.combinable(g, rt, seat, chosen)
        if options == 0:
            break
        rank = _pask(g, rt, rng, par, ctx, K.DP_CHOOSE_POWER, seat, -1, effect, -1,
                     options | BIT_PASS)
        if rank < 0:
            return -1
        if rank == K.A_PASS:
            break
        chosen |= 1 << rank
        r = _pw_effect(g, rt, rng, par, ctx, seat, PF.DUTCH_BY_RANK[rank], card)
        if r != 0:
            return r
    return 0


@hot
def _pw_effect(g, rt, rng, par, ctx, seat, effect, card):
    """One effect (powers.PowerHole.resolve); as _pw_resolve returns."""
    opps = PF.opponents(g, rt, seat)
    me = 1 << seat
    if effect == K.POW_PEEK_OWN:
        p = _pw_pos(g, rt, rng, par, ctx, seat, seat, PF.face_down_mask(g, seat), effect)
        if p < 0:
            return -1
        PF.peek(g, rt, seat, p, seat)
    elif effect == K.POW_PEEK_OPP or effect == K.POW_PEEK_ANY:
        seats = opps | (me if effect == K.POW_PEEK_ANY else 0)
        s = _pw_seat(g, rt, rng, par, ctx, seat, PF.seats_with(g, rt, seats, True), effect)
        if s < 0:
            return -1
        p = _pw_pos(g, rt, rng, par, ctx, seat, s, PF.face_down_mask(g, s), effect)
        if p < 0:
            return -1
        PF.peek(g, rt, s, p, seat)
    elif effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or \
            effect == K.POW_PEEK_BOTH_SWAP or effect == K.POW_SWAP_ANY_TWO:
        return _pw_swaps(g, rt, rng, par, ctx, seat, effect)
    elif effect == K.POW_SHUFFLE_OPP or effect == K.POW_FLIP_OPP:
        s = _pw_seat(g, rt, rng, par, ctx, seat, PF.seats_with(g, rt, opps, True), effect)
        if s < 0:
            return -1
        if effect == K.POW_SHUFFLE_OPP:
            PF.shuffle_layout(g, rt, rng, s)
            return 0
        p = _pw_pos(g, rt, rng, par, ctx, seat, s, PF.face_down_mask(g, s), effect)
        if p < 0:
            return -1
        PF.turn_up(g, rt, s, p)
        if PF.effect_of(rt, PF.card_at(g, s, p)) == K.POW_CANCEL_FINAL and \
                g[ix(G_PUB + K.PUB_ENDER)] >= 0:
            PF.cancel_end(g)
    elif effect == K.POW_SWAP_LINE:
        s = _pw_seat(g, rt, rng, par, ctx, seat, opps, effect)
        if s < 0:
            return -1
        rows = rt[K.R_ROWS]
        cols = rt[K.R_COLS]
        k = _pw_pos(g, rt, rng, par, ctx, seat, s, (1 << (rows + cols)) - 1, effect)
        if k < 0:
            return -1
        if k < rows:
            for c in range(cols):
                PF.swap(g, rt, seat, k * cols + c, s, k * cols + c)
        else:
            for r in range(rows):
                PF.swap(g, rt, seat, r * cols + k - rows, s, r * cols + k - rows)
    elif effect == K.POW_DRAW_TWO:
        PF.discard_used(g, rt, seat, card)
        return -1 if _pw_draw_two(g, rt, rng, par, ctx, seat) < 0 else 1
    elif effect == K.POW_SHIELD:
        g[ix(G_PUB + K.PUB_SHIELDED)] |= me
    elif effect == K.POW_GIVE_OR_REMOVE:
        s = _pw_seat(g, rt, rng, par, ctx, seat, PF.give_or_remove_seats(g, rt, seat), effect)
        if s < 0:
            return -1
        if s == seat:
            p = _pw_pos(g, rt, rng, par, ctx, seat, seat, PF.cards_mask(g, seat), effect)
            if p < 0:
                return -1
            PF.discard(g, rt, seat, PF.take(g, rt, seat, p))
        else:
            p = PF.room(g, s)
            PF.put(g, rt, s, p, PF.draw_card(g, rt, rng), False, 0)
    elif effect == K.POW_CANCEL_FINAL:
        PF.cancel_end(g)
    elif effect == K.POW_EXCHANGE_THIS:
        return _pw_exchange(g, rt, rng, par, ctx, seat, card)
    return 0


@hot
def _pw_swaps(g, rt, rng, par, ctx, seat, effect):
    """The swapping effects: blind (after a peek at the opponent's card: Pablo's 7), any
    two cards, and Cumbia's jack (both cards peeked, the swap optional)."""
    opps = PF.opponents(g, rt, seat)
    me = 1 << seat
    if effect == K.POW_SWAP_ANY_TWO:
        seats = opps | me
        s1 = _pw_seat(g, rt, rng, par, ctx, seat, PF.seats_with(g, rt, seats, False), effect)
        if s1 < 0:
            return -1
        p1 = _pw_pos(g, rt, rng, par, ctx, seat, s1, PF.cards_mask(g, s1), effect)
        if p1 < 0:
            return -1
        others = 0
        for x in range(rt[K.R_PLAYERS]):
            if (seats >> x) & 1 and PF.cards_mask(g, x) & ~((1 << p1) if x == s1 else 0):
                others |= 1 << x
        s2 = _pw_seat(g, rt, rng, par, ctx, seat, others, effect)
        if s2 < 0:
            return -1
        left = PF.cards_mask(g, s2) & ~((1 << p1) if s2 == s1 else 0)
        p2 = _pw_pos(g, rt, rng, par, ctx, seat, s2, left, effect)
        if p2 < 0:
            return -1
        PF.swap(g, rt, s1, p1, s2, p2)
        return 0
    p = -1
    if effect == K.POW_PEEK_BOTH_SWAP:
        p = _pw_pos(g, rt, rng, par, ctx, seat, seat, PF.cards_mask(g, seat), effect)
        if p < 0:
            return -1
        PF.peek(g, rt, seat, p, seat)
    s = _pw_seat(g, rt, rng, par, ctx, seat, PF.seats_with(g, rt, opps, False), effect)
    if s < 0:
        return -1
    q = _pw_pos(g, rt, rng, par, ctx, seat, s, PF.cards_mask(g, s), effect)
    if q < 0:
        return -1
    if effect != K.POW_SWAP_OWN_OPP_BLIND:
        PF.peek(g, rt, s, q, seat)
    if effect == K.POW_PEEK_BOTH_SWAP:
        a = _pask(g, rt, rng, par, ctx, K.DP_SWAP, seat, -1, effect, -1,
                  (1 << K.A_SWAP) | BIT_PASS)
        if a < 0:
            return -1
        if a == K.A_SWAP:
            PF.swap(g, rt, seat, p, s, q)
        return 0
    p = _pw_pos(g, rt, rng, par, ctx, seat, seat, PF.cards_mask(g, seat), effect)
    if p < 0:
        return -1
    PF.swap(g, rt, seat, p, s, q)
    return 0


@hot
def _pw_exchange(g, rt, rng, par, ctx, seat, card):
    """The Dutch 9 takes an opponent's card's place; that card is placed like a taken
    discard, known to the seat and whoever knew it. Returns 1 (it disposed of the 9)."""
    effect = K.POW_EXCHANGE_THIS
    opps = PF.opponents(g, rt, seat)
    s = _pw_seat(g, rt, rng, par, ctx, seat, PF.seats_with(g, rt, opps, False), effect)
    if s < 0:
        return -1
    q = _pw_pos(g, rt, rng, par, ctx, seat, s, PF.cards_mask(g, s), effect)
    if q < 0:
        return -1
    taken = PF.card_at(g, s, q)
    knew = PF.known_mask(g, rt, s, q) | (1 << seat)
    PF.put(g, rt, s, q, card, PF.is_up(g, s, q), 1 << seat)
    p = _pask(g, rt, rng, par, ctx, K.DP_PLACE_TAKEN, seat, taken, effect, -1,
              PF.replaceable(g, rt, seat))
    if p < 0:
        return -1
    old = PF.card_at(g, seat, p)
    up = rt[K.R_PLACEMENT_FACE] == K.FACE_UP or PF.is_up(g, seat, p)
    PF.put(g, rt, seat, p, taken, up, knew)
    PF.discard(g, rt, seat, old)
    return 1


@hot
def _pw_draw_two(g, rt, rng, par, ctx, seat):
    """The Dutch 8 (already discarded): up to two stock cards, one kept and placed,
    discarded or matched, the other discarded."""
    a = PF.draw_card(g, rt, rng)
    b = PF.draw_card(g, rt, rng)
    if a < 0:
        return 0
    card = a
    if b >= 0:
        g[ix(G_PUB + K.PUB_CHOICE0)] = a
        g[ix(G_PUB + K.PUB_CHOICE1)] = b
        keep = _pask(g, rt, rng, par, ctx, K.DP_KEEP, seat, -1, K.POW_DRAW_TWO, -1, 3)
        g[ix(G_PUB + K.PUB_CHOICE0)] = -1
        g[ix(G_PUB + K.PUB_CHOICE1)] = -1
        if keep < 0:
            return -1
        PF.discard(g, rt, seat, b if keep == 0 else a)
        card = a if keep == 0 else b
    bits = 1 << K.A_DISCARD
    if rt[K.R_POWER_PLACEABLE] != 0 or PF.effect_of(rt, card) == K.POW_NONE:
        bits |= PF.replaceable(g, rt, seat)
    if PF.match_possible(g, rt, seat):
        bits |= 1 << K.A_MATCH
    c = _pask(g, rt, rng, par, ctx, K.DP_PLACE_DRAWN, seat, card, K.POW_DRAW_TWO, -1, bits)
    if c < 0:
        return -1
    if c == K.A_DISCARD:
        PF.discard(g, rt, seat, card)
        return 0
    if c == K.A_MATCH:
        return _pw_turn_match(g, rt, rng, par, ctx, seat, card, False)
    return _pw_place(g, rt, rng, par, ctx, seat, c, card, rt[K.R_PRIVATE_STOCK] == 0)


@hot
def _nominated(tmp, n, s):
    """The positions of seat ``s`` among the first ``n`` nominations (tmp: s*MAX_POS + p)."""
    m = 0
    for i in range(n):
        if (tmp[i] & 4095) // MAX_POS == s:
            m |= 1 << (tmp[i] % MAX_POS)
    return m


@hot
def _pw_turn_match(g, rt, rng, par, ctx, seat, card, public):
    """Step 3: Pablo's multi-replace or Cabo's match with the held ``card``. The
    nominations, in order, are kept in the turn's scratch (ctx[4]), a hit flagged by 4096."""
    tmp = ctx[4]
    me = 1 << seat
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    seen = PF.everyone(rt) if public else me
    face_up = rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    n = 0
    if rt[K.R_TURN_MATCH] == K.TMATCH_PABLO:
        while True:
            left = PF.cards_mask(g, seat) & ~_nominated(tmp, n, seat)
            if left == 0:
                break
            a = _pask(g, rt, rng, par, ctx, K.DP_NOMINATE, seat, -1, K.CTX_NOMINATE, seat,
                      left | (BIT_PASS if n >= 2 else 0))
            if a < 0:
                return -1
            if a == K.A_PASS:
                break
            tmp[n] = seat * MAX_POS + a
            n += 1
        same = n > 0
        for i in range(n):
            PF.show(g, rt, seat, tmp[i] % MAX_POS)
            if PF.key_of(rt, PF.card_at(g, seat, tmp[i] % MAX_POS)) != \
                    PF.key_of(rt, PF.card_at(g, seat, tmp[0] % MAX_POS)):
                same = False
        if same:
            for i in range(n):
                PF.discard(g, rt, seat, PF.take(g, rt, seat, tmp[i] % MAX_POS))
            PF.put(g, rt, seat, tmp[0] % MAX_POS, card, face_up, seen)
        else:
            p = PF.room(g, seat)
            if p < 0:
                PF.discard(g, rt, seat, card)
            else:
                PF.put(g, rt, seat, p, card, face_up, seen)
        return 0
    while True:   # cabo_match
        seats = 0
        for s in range(rt[K.R_PLAYERS]):
            if PF.cards_mask(g, s) & ~_nominated(tmp, n, s):
                seats |= 1 << s
        if seats == 0:
            break
        s = _pask(g, rt, rng, par, ctx, K.DP_TARGET_SEAT, seat, -1, K.CTX_NOMINATE, -1,
                  seats | (BIT_PASS if n > 0 else 0))
        if s < 0:
            return -1
        if s == K.A_PASS:
            break
        p = _pask(g, rt, rng, par, ctx, K.DP_NOMINATE, seat, -1, K.CTX_NOMINATE, s,
                  PF.cards_mask(g, s) & ~_nominated(tmp, n, s))
        if p < 0:
            return -1
        tmp[n] = s * MAX_POS + p
        n += 1
    key = PF.key_of(rt, card)
    misses = 0
    for i in range(n):
        s = tmp[i] // MAX_POS
        p = tmp[i] % MAX_POS
        PF.show(g, rt, s, p)
    for i in range(n):
        if PF.key_of(rt, PF.card_at(g, tmp[i] // MAX_POS, tmp[i] % MAX_POS)) == key:
            tmp[i] += 4096
        else:
            misses += 1
    for i in range(n):
        if tmp[i] >= 4096:
            s = (tmp[i] - 4096) // MAX_POS
            PF.discard(g, rt, seat, PF.take(g, rt, s, tmp[i] % MAX_POS))
    for i in range(n):
        if tmp[i] >= 4096:
            s = (tmp[i] - 4096) // MAX_POS
            mine = PF.cards_mask(g, seat)
            if s != seat and mine != 0:
                q = _pw_pos(g, rt, rng, par, ctx, seat, seat, mine, K.CTX_GIVE)
                if q < 0:
                    return -1
                PF.move(g, rt, seat, q, s, tmp[i] % MAX_POS)
    PF.add_penalty_cards(g, rt, rng, seat, misses * rt[K.R_MATCH_FAIL_CARDS])
    PF.discard(g, rt, seat, card)
    return 0


@hot
def _pw_snap_window(g, rt, rng, par, ctx, actor):
    """Step 6: after a new top discard, the seats from the actor's left on may snap a card
    of its key, once each, until a snap hits."""
    mode = rt[K.R_SNAP_MODE]
    n_disc = g[ix(G_PUB + K.PUB_DISCARD_N)]
    if mode == K.SNAP_NONE or g[ix(G_PRIV + PF.PRIV_TOP_NEW)] == 0 or n_disc == 0:
        return 0
    key = PF.key_of(rt, g[ix(G_DISCARD + n_disc - 1)])
    players = rt[K.R_PLAYERS]
    for k in range(1, players + 1):
        s = (actor + k) % players
        if mode == K.SNAP_CACTUS:
            seats = (1 << s) if PF.cards_mask(g, s) != 0 else 0
        else:
            seats = PF.seats_with(g, rt, PF.everyone(rt), False)
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
        p = _pw_pos(g, rt, rng, par, ctx, s, t, PF.cards_mask(g, t), K.CTX_SNAP)
        if p < 0:
            return -1
        if PF.key_of(rt, PF.card_at(g, t, p)) == key:
            PF.discard(g, rt, s, PF.take(g, rt, t, p))
            mine = PF.cards_mask(g, s)
            if t != s and mine != 0:
                q = _pw_pos(g, rt, rng, par, ctx, s, s, mine, K.CTX_GIVE)
                if q < 0:
                    return -1
                PF.move(g, rt, s, q, t, p)
            return 0
        PF.show(g, rt, t, p)
        if mode == K.SNAP_CUMBIA and t != s:
            g[ix(G_PENALTY + s)] += rt[K.R_SNAP_MISS_POINTS]
        if mode == K.SNAP_CACTUS:
            PF.add_penalty_cards(g, rt, rng, s, rt[K.R_SNAP_PENALTY_CARDS])
        if g[ix(G_PRIV + PF.PRIV_OVER)] != 0:
            return 0
    return 0


@hot
def _pw_call(g, rt, seat):
    PF.start_end(g, rt, seat)
    g[ix(G_PUB + K.PUB_KNOCKED)] = 1


@hot
def _pw_turn(g, rt, rng, par, ctx, seat):
    """One turn of a power round (PowerHole.play_turn): 1 when played, 0 when the seat had
    nothing it may do (the hole ends), -1 after a policy's error."""
    g[ix(G_PUB + K.PUB_SHIELDED)] &= ~(1 << seat)
    g[ix(G_PRIV + PF.PRIV_TOP_NEW)] = 0
    a = _pw_turn_action(g, rt, rng, par, ctx, seat)
    if a == NOTHING_LEGAL:
        return 0
    r = 0
    if a < 0:
        r = -1
    elif a == K.A_DRAW_STOCK:
        card = PF.draw_card(g, rt, rng)
        r = _pw_play_held(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_DRAWN,
                          PF.effect_of(rt, card), False)
    elif a == K.A_TAKE_DISCARD:
        card = PF.take_top(g, rt)
        r = _pw_play_held(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_TAKEN, K.POW_NONE,
                          True)
    elif a == K.A_DISCARD_POWER:   # Cactus: the top discard's power, then it goes back, spent
        card = PF.take_top(g, rt)
        r = _pw_resolve(g, rt, rng, par, ctx, seat, PF.effect_of(rt, card), card)
        if r == 0:
            PF.put_back(g, rt, card)
            g[ix(G_PUB + K.PUB_TOP_POWER_UNUSED)] = 0
        g[ix(G_PRIV + PF.PRIV_TOP_NEW)] = 0
    elif a == K.A_FLIP:
        p = _pask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, 0, -1, PF.face_down_mask(g, seat))
        if p < 0:
            r = -1
        else:
            PF.turn_up(g, rt, seat, p)
    elif a == K.A_FLIP_ALL:
        fd = PF.face_down_mask(g, seat)
        for p in range(MAX_POS):
            if (fd >> p) & 1:
                PF.turn_up(g, rt, seat, p)
        if g[ix(G_PUB + K.PUB_ENDER)] < 0:
            PF.start_end(g, rt, seat)
    else:
        _pw_call(g, rt, seat)
    if r < 0:
        return -1
    if PF.check_over(g, rt, seat):
        return 1
    if _pw_snap_window(g, rt, rng, par, ctx, seat) < 0:
        return -1
    if PF.check_over(g, rt, seat):
        return 1
    return _pw_call_after(g, rt, rng, par, ctx, seat)


@hot
def _pw_call_after(g, rt, rng, par, ctx, seat):
    """The turn's last step: with knock_timing end_of_own_turn or any_time_in_turn the seat
    may call now (DP_KNOCK). 1, or -1 on a policy error."""
    if rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and PF.may_call(g, rt):
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
    if (triggers & K.END_ALL_FACE_UP) != 0 and PF.face_down_mask(g, seat) == 0:
        PF.start_end(g, rt, seat)
    elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
        for s in range(rt[K.R_PLAYERS]):
            if PF.face_down_mask(g, s) != 0:
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
        if g[ix(G_PRIV + PF.PRIV_OVER)] != 0:
            break
        if g[ix(G_PUB + K.PUB_ENDER)] >= 0 and g[ix(G_PRIV + PF.PRIV_END_TURN)] < turn - 1:
            g[ix(G_PUB + K.PUB_FINAL_LEFT)] -= 1   # a final turn was played
        elif g[ix(G_PUB + K.PUB_ENDER)] < 0:
            _pw_check_end(g, rt, seat)
            if g[ix(G_PUB + K.PUB_ENDER)] >= 0:
                g[ix(G_PRIV + PF.PRIV_END_TURN)] = turn - 1
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


# ---- a round stopped part way, for tests of what policies see -----------------------------------
@hot
def prefix_nb(seed, round_index, rt, par, g, rng, log, tmp, user, policies, aux, turns):
    """Deal round ``round_index``, reveal, and play its first ``turns`` turns, leaving ``g``
    with the views published. Returns the seat whose turn comes next, or -1 when the round
    ended before (or a policy failed)."""
    ctx = (log, user, policies, aux, tmp, False)
    ok, n_stock, n_disc, sum_disc, up_n, up_sum = _start_round(g, rt, par, rng, ctx, seed,
                                                               round_index, False)
    if not ok:
        return -1
    if turns == 0:
        return 0
    if POWERS:
        turn, ender, knocked, capped, reshuffles = power_play_nb(
            g, rt, par, rng, ctx, n_stock, n_disc, sum_disc, up_n, up_sum, turns)
        return turn % rt[K.R_PLAYERS] if capped == 1 else -1
    turn, ender, knocked, capped, reshuffles = play_nb(
        g, rt, par, rng, ctx, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0, -1,
        -1, turns)
    return turn % rt[K.R_PLAYERS] if capped == 1 else -1


@hot
def turn_mask_nb(g, rt, seat):
    """The legal actions at the start of ``seat``'s turn into g[G_LEGAL:] (from the published
    views); returns how many."""
    bits = turn_options(g, rt, seat, g[ix(G_PUB + K.PUB_STOCK_N)],
                        g[ix(G_PUB + K.PUB_DISCARD_N)], g[ix(G_PUB + K.PUB_ENDER)],
                        g[ix(G_PUB + K.PUB_TURN)])
    _mask_actions(g, bits)
    n = 0
    while bits:
        n += bits & 1
        bits >>= 1
    return n


@hot
def placement_mask_nb(g, rt, seat):
    """The positions where ``seat`` may put a held card, into g[G_LEGAL:]."""
    _mask_positions(g, rt, _replaceable(g, rt, seat))
