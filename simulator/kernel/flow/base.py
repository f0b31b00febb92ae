"""What every part of the flow reads: the build's derived constants, error codes, the turn's
option bits, which rule sets the builds without every feature play, and small accessors of
the state ``g`` (codes.G_*)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_KNOWN, G_LAY, G_PUB, G_UP, MAX_PLAYERS, MAX_POS,
                                  POLICY_GREEDY, POLICY_KNOCK_THRESHOLD, RT_KEY)
from simulator.kernel import lean_policy as LP
from simulator.kernel.estimate import trailing_zeros
from simulator.kernel.features import lacking, needed_from_ri
from simulator.kernel.jit import hot, ix
from simulator.kernel.lanes import GAIN_LIMIT

from .build import GENERAL, POWERS, TABLE, USER

VIEWS = USER or GENERAL or TABLE   # the seats' policies read g's views, not the lean cache
LOGS = GENERAL   # a move log may be kept
# the general build plays the rounds cache_round allows on its cache build (round.py)
CACHE_TOO = GENERAL and not POWERS
# Every build inlines the turn's steps; the general build calls its asks (each a policy
# reached through a pointer anyway), the reveal and the round, which it would otherwise copy
# into many places: its first compile stays under a minute (docs/performance.md).
STEP = "never" if GENERAL else "always"
# The powers build calls its turn too: Numba copies an inlined function's IR at every call
# site, at a cost that grows with its size times its variables, and that turn (every power
# step in it) is the largest: copying it into the loop took 15 s of the build's 54 s compile,
# while the call costs 3 to 4% of a power_cabo round (docs/performance.md).
TURN = "never" if POWERS else "always"

# error codes (codes.OUT_ERROR)
ERR_ILLEGAL_ACTION = 1
ERR_CONSERVATION = 2
ERR_LOG_FULL = 3
ERR_NO_TURNS = 4         # a build played before its turn loop was provided (engine.build)
LOG_FIELDS = 5           # a move log row: turn, seat, decision point, action, held card

# the turn's options as bits 1 << action (turn_options); a power round's turn may also use
# the top discard's power (Cactus)
TURN_ACTIONS = (K.A_DRAW_STOCK, K.A_TAKE_DISCARD, K.A_KNOCK, K.A_FLIP, K.A_FLIP_ALL,
                K.A_PEEK) + ((K.A_DISCARD_POWER,) if POWERS else ())
B_DRAW, B_TAKE, B_KNOCK, B_FLIP, B_FLIP_ALL, B_PEEK = (1 << a for a in TURN_ACTIONS[:6])
NOTHING_LEGAL = -2
# play_nb's ``forced`` in a power round: the turn starts at its call (the action made)
FROM_CALL = K.N_ACTIONS


# engine-private slots of a power round (codes.G_PRIV; 0..6 are the flow's)
PRIV_OVER = 8        # empty_layout / stock_exhausted fired: the hole ends after the action
PRIV_END_TURN = 9    # the turn in which the end was triggered, -1 while none
PRIV_TOP_NEW = 10    # this turn put a new card on top of the discard pile
ALL_POS = (1 << MAX_POS) - 1
BIT_PASS = 1 << K.A_PASS


def lean_seats(policy_ids) -> bool:
    """Does every seat play greedy or knock-threshold, the policies the lean flow decides from
    its cache (cache_round asks the same of a round's seats)?"""
    return all(int(p) in (POLICY_GREEDY, POLICY_KNOCK_THRESHOLD) for p in policy_ids)


def eligible(ri: np.ndarray, policy_ids) -> bool:
    """Can the lean build play these rules and policies exactly as the general build does?"""
    return lean_seats(policy_ids) and rules_eligible(ri)


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


@hot(inline="always")
def cache_round(rt, par, log_on):
    """Does the general build play this round on its cache build: rules the lean cache covers
    (codes.RT_CACHE_RULES), every seat greedy or knock-threshold, no move log? Then nothing
    reads the views, and the seats decide as the lean build decides them."""
    if not CACHE_TOO or log_on or rt[K.RT_CACHE_RULES] == 0:
        return 0
    for s in range(rt[K.R_PLAYERS]):
        if par[s, 0] != POLICY_GREEDY and par[s, 0] != POLICY_KNOCK_THRESHOLD:
            return 0
    return 1


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
def _lowest(mask):
    return -1 if mask == 0 else trailing_zeros(mask)


@hot(inline="always")
def pub(g, slot):
    return g[ix(G_PUB + slot)]


@hot(inline="always")
def set_pub(g, slot, v):
    g[ix(G_PUB + slot)] = v


@hot(inline="always")
def everyone(rt):
    return (1 << rt[K.R_PLAYERS]) - 1


@hot(inline="always")
def card_at(g, seat, p):
    return g[ix(G_LAY + seat * MAX_POS + p)]


@hot(inline="always")
def is_up(g, seat, p):
    return g[ix(G_UP + seat * MAX_POS + p)] != 0


@hot(inline="always")
def key_of(rt, card):
    return rt[ix(RT_KEY + card)]


@hot(inline="always")
def effect_of(rt, card):
    return rt[ix(K.RT_EFFECT + card)]


@hot
def popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n
