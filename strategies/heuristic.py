"""``heuristic``: a parametric family (take, replace, hold for a pair, knock at, aggression)
with card ages for the positions it waits on."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_BN, G_DISCARD, G_KNOWN, G_KQ, G_LEGAL, G_MEMORY, G_NEGQ,
                                  G_PUB, G_U, G_UP, G_UPMASK, G_UQ, G_XN, MAX_PLAYERS, MAX_POS,
                                  RT_KEY, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.jit import hot, ix
from simulator.kernel.estimate import column_estimate_nb, trailing_zeros
from simulator.kernel.layout import can_replace_nb
from strategies.common import (component_nb, component_share_nb, decide_with_nb, draw_or_flip_nb,
                               AGE_MAX, age_nb, AGE_PER_SLOT, EPS, estimate_nb, flip_nb,
                               lowest_legal_nb, MEM_AGE,
                               MEM_LAST_TURN, MEM_PLANNED_POS, pairs_at_nb, pairs_somewhere_nb,
                               PAR_AGGRESSION, PAR_HOLD, PAR_KNOCK_AT, PAR_REPLACE_MIN,
                               PAR_TAKE_MAX, reset_age_nb, reveal_apart_nb, unseen_pool_nb,
                               unseen_of_key_nb, unseen_types_nb, unseen_types_of_key_nb,
                               would_end_nb)
from strategies.powers import decide_others_using_nb, NO_SAY


# a one in the lowest bit of each of a slot's 4-bit ages
_AGE_ONES = sum(1 << (4 * i) for i in range(AGE_PER_SLOT))
assert AGE_MAX == 15   # _grow_ages_nb: a full age has its four bits set


@hot
def _grow_ages_nb(g, rt, seat):
    """One more own turn for every position's card (saturating at AGE_MAX), a slot's seven
    4-bit ages at once: a one is added to each age of a position in play that is not full."""
    npos = rt[K.R_NPOS]
    for k in range((npos + AGE_PER_SLOT - 1) // AGE_PER_SLOT):
        slot = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_AGE + k
        ones = _AGE_ONES & ((1 << (4 * min(AGE_PER_SLOT, npos - k * AGE_PER_SLOT))) - 1)
        w = np.int64(g[ix(slot)])
        full = w & (w >> 1) & (w >> 2) & (w >> 3) & ones
        g[ix(slot)] = w + (ones & ~full)


@hot
def _may_wait_nb(g, rt, seat, p, hold):
    """The key of the known card at p if the heuristic may keep it waiting for its pair,
    else -1: its value is positive, it has been there fewer than ``hold`` own turns,
    nothing pairs it yet and a related position could still take a partner. It keeps it
    when, besides, the seat has not seen every copy of that key
    (common.unseen_types_of_key_nb)."""
    if hold <= 0 or age_nb(g, seat, p) >= hold:
        return -1
    scope = rt[K.R_PAIR_SCOPE]
    if scope == K.PAIR_NONE:
        return -1
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    x = g[ix(own + p)]
    if x < 0 or rt[ix(RT_VALUE + x)] <= 0:
        return -1
    key = rt[ix(RT_KEY + x)]
    open_slot = False
    related = rt[ix(K.RT_REL + p)] & ~(1 << p)
    while related != 0:
        q = trailing_zeros(related)
        related &= related - 1
        y = g[ix(own + q)]
        if y >= 0 and rt[ix(RT_KEY + y)] == key:
            return -1  # already paired
        if can_replace_nb(g, rt, seat, q):
            open_slot = True
    return key if open_slot else -1


# an unknown card's weight in a component's share as _gain_nb counts it: far above any sum of
# the values of a layout's known cards, so the count of unknown cards and that sum unpack
UNKNOWN_WEIGHT = 1 << 24


@hot(inline="always")
def _unpack_nb(share):
    """(values, unknown cards) of a share counted with each unknown card UNKNOWN_WEIGHT."""
    unknown = (share + UNKNOWN_WEIGHT // 2) // UNKNOWN_WEIGHT
    return share - unknown * UNKNOWN_WEIGHT, unknown


@hot(inline="always")
def _gain_nb(g, rt, seat, p, card, u):
    """The seat's estimate (common.estimate_nb, unknown cards worth ``u``) as it is, less the
    same with ``card`` at p, from p's component alone (the pair relation's: the rest of the
    layout is unchanged by it): the known cards' values and the unknown cards are counted in
    integers, then the unknown ones weighed ``u``. The whole estimates in floats gave the same
    up to rounding (1e-13 here), far inside the EPS the decisions allow."""
    comp = component_nb(rt, p)
    values_before, unknown_before = _unpack_nb(
        component_share_nb(g, rt, seat, comp, -1, -1, 1, UNKNOWN_WEIGHT))
    values_after, unknown_after = _unpack_nb(
        component_share_nb(g, rt, seat, comp, p, card, 1, UNKNOWN_WEIGHT))
    return (values_before - values_after) + (unknown_before - unknown_after) * u


@hot(inline="always")
def _column_share_nb(rt, x, y, keep_negative):
    """(values, unknown cards) of a two-card column's share in the estimate
    (estimate.column_estimate_nb's sum)."""
    return _unpack_nb(column_estimate_nb(rt[ix(RT_KEY + x)] if x >= 0 else -1,
                                         rt[ix(RT_VALUE + x)] if x >= 0 else 0,
                                         rt[ix(RT_KEY + y)] if y >= 0 else -1,
                                         rt[ix(RT_VALUE + y)] if y >= 0 else 0,
                                         x >= 0, y >= 0, 1, UNKNOWN_WEIGHT, keep_negative))


@hot(inline="always")
def _column_gain_nb(g, rt, own, p, card, u, cols, keep_negative):
    """_gain_nb under a column scope of two rows, whose component of p is p's column: the
    same integers, so the same float."""
    top = p - cols if p >= cols else p
    a = g[ix(own + top)]
    b = g[ix(own + top + cols)]
    values_before, unknown_before = _column_share_nb(rt, a, b, keep_negative)
    if p == top:
        values_after, unknown_after = _column_share_nb(rt, card, b, keep_negative)
    else:
        values_after, unknown_after = _column_share_nb(rt, a, card, keep_negative)
    return (values_before - values_after) + (unknown_before - unknown_after) * u


@hot(inline="always")
def _cached_gain_nb(g, i, kc, vc, negc, u):
    """_gain_nb from the lean flow's cache of the seat's layout (lean_policy: position i of
    the fields lanes.best_key reads, for a card of key kc and value vc, negc: vc < 0): the
    same integers -- the values and the unknown cards the placement removes -- so the same
    float, where the pair relation puts each position in a component of at most two (no
    pairs, or columns of two rows: lean_policy.vector_scope)."""
    unknown = -g[ix(G_U + i)]   # 1 when the card at i is unknown, else 0
    if g[ix(G_KQ + i)] == kc and not (negc and g[ix(G_NEGQ + i)] != 0):
        return g[ix(G_BN + i)] + (unknown - g[ix(G_UQ + i)]) * u
    return (g[ix(G_XN + i)] - vc) + unknown * u


@hot(inline="always")
def _knock_at_nb(g, par, seat):
    """knock_at, or no limit once the stock has been reshuffled (the round drags on)."""
    if g[ix(G_PUB + K.PUB_RESHUFFLES)] > 0:
        return 1e300
    return par[seat, PAR_KNOCK_AT]


@hot
def _heuristic_placement_nb(g, rt, seat, card, n, S, par, final, must, lean):
    """The heuristic's position for ``card`` (-1 if none suits): the largest estimated gain
    among replaceable positions where the gain is at least replace_min over a known card and
    at least 0 over an unknown one (valued at (1 + aggression) S/n), skipping cards kept for a
    pair (hold) and, before anyone has ended, a placement that would end the round while the
    estimate after it is above knock_at. ``final`` (the end is triggered): plain estimate
    minimisation. ``must`` (the card must be placed): no thresholds, the end avoided if
    possible. ``lean``: in its own build (heuristic_lean_entry)."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    mean = S / n if n > 0 else 0.0
    u = mean if final else mean * (1.0 + par[seat, PAR_AGGRESSION])
    replace_min = EPS if final else par[seat, PAR_REPLACE_MIN]
    hold = 0 if final else np.int64(par[seat, PAR_HOLD])
    knock_at = _knock_at_nb(g, par, seat)
    ending = would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    counted = False
    cols = rt[K.R_COLS]
    columns = rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2
    keep_negative = rt[K.R_NEG_PAIRS_KEEP] != 0
    # its own build's cache gives every gain where a component has at most two positions
    cached = lean and LP.vector_scope(rt)
    rep = LP.replaceable_mask(g[ix(G_UPMASK + seat)], rt) if cached else 0
    kc = rt[ix(RT_KEY + card)]
    vc = rt[ix(RT_VALUE + card)]
    for attempt in range(2):
        best = -1
        best_gain = 0.0
        for p in range(rt[K.R_NPOS]):
            if cached:
                if (rep >> p) & 1 == 0:
                    continue
                known = g[ix(G_U + seat * MAX_POS + p)] == 0
                gain = _cached_gain_nb(g, seat * MAX_POS + p, kc, vc, vc < 0, u)
            elif not can_replace_nb(g, rt, seat, p):
                continue
            else:
                known = g[ix(own + p)] >= 0
                gain = _column_gain_nb(g, rt, own, p, card, u, cols, keep_negative) if columns \
                    else _gain_nb(g, rt, seat, p, card, u)
            if not must and gain < (replace_min if known else 0.0) - EPS:
                continue
            # the rules below only skip a position, so they are asked only of one that would
            # be the best so far: the same choice, at a fraction of their cost
            if best >= 0 and gain <= best_gain + EPS:
                continue
            if not must and known:
                key = _may_wait_nb(g, rt, seat, p, hold)
                if key >= 0:
                    # it keeps the card waiting while it has not seen every copy of its key:
                    # its own build counts them from the cards in sight; elsewhere the counts
                    # by type (common.unseen_types_nb) are the same for every position of one
                    # decision, so they are counted once, when first needed
                    if lean:
                        waits = unseen_of_key_nb(g, rt, seat, g[ix(own + p)]) > 0
                    else:
                        if not counted:
                            unseen_types_nb(g, rt, seat)
                            counted = True
                        waits = unseen_types_of_key_nb(g, rt, key) > 0
                    if waits:
                        continue
            if attempt == 0 and ending and g[ix(G_UP + seat * MAX_POS + p)] == 0 and \
                    estimate_nb(g, rt, seat, p, card, mean) > knock_at + EPS:
                continue
            best = p
            best_gain = gain
        if best >= 0 or not must:
            return best
    return -1


@hot
def _remember_placement_nb(g, seat, p):
    g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)] = p
    reset_age_nb(g, seat, p)
    return p


@hot
def _turn_nb(seat, g, rt, par, lean):
    """heuristic_nb's action at the start of a turn."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    final = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    if g[ix(mem + MEM_LAST_TURN)] != g[ix(G_PUB + K.PUB_TURN)] + 1:  # a new own turn
        g[ix(mem + MEM_LAST_TURN)] = g[ix(G_PUB + K.PUB_TURN)] + 1
        _grow_ages_nb(g, rt, seat)
    take = g[ix(G_LEGAL + K.A_TAKE_DISCARD)] != 0
    draw = g[ix(G_LEGAL + K.A_DRAW_STOCK)] != 0
    knock = g[ix(G_LEGAL + K.A_KNOCK)] != 0
    end = knock or g[ix(G_LEGAL + K.A_FLIP_ALL)] != 0
    top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)] if take else -1
    cheap = take and (final or rt[ix(RT_VALUE + top)] <= par[seat, PAR_TAKE_MAX] + EPS)
    # a dearer discard is taken only where it pairs: none to weigh when it pairs nothing
    weigh = cheap or (take and pairs_somewhere_nb(g, rt, seat, top, lean))
    if draw and not weigh and not end:
        return K.A_DRAW_STOCK   # what the rules below come to, whatever its unseen pool
    n, S = unseen_pool_nb(g, rt, seat, -1, lean)
    if n <= 0:
        return K.A_DRAW_STOCK if draw else lowest_legal_nb(g, 0, K.N_ACTIONS)
    # knocking first, then flipping all, when its estimate is low enough
    if end and estimate_nb(g, rt, seat, -1, -1, S / n) <= _knock_at_nb(g, par, seat) + EPS:
        return K.A_KNOCK if knock else K.A_FLIP_ALL
    if take:
        if weigh:
            p = _heuristic_placement_nb(g, rt, seat, top, n, S, par, final, False, lean)
            if p >= 0 and (cheap or pairs_at_nb(g, rt, seat, p, top)):
                g[ix(mem + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
        if not draw:
            p = _heuristic_placement_nb(g, rt, seat, top, n, S, par, final, True, lean)
            if p >= 0:
                g[ix(mem + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
    return draw_or_flip_nb(g)


@hot
def _place_nb(point, seat, held, g, rt, par, lean):
    """heuristic_nb's position for the card it holds (DP_PLACE_TAKEN, DP_PLACE_DRAWN)."""
    final = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    if point == K.DP_PLACE_TAKEN:
        p = g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)]
        if not (0 <= p < MAX_POS and g[ix(G_LEGAL + p)]):
            n, S = unseen_pool_nb(g, rt, seat, held, lean)
            p = _heuristic_placement_nb(g, rt, seat, held, n, S, par, final, True, lean)
        if p >= 0 and g[ix(G_LEGAL + p)]:
            return _remember_placement_nb(g, seat, p)
        return lowest_legal_nb(g, 0, MAX_POS)
    n, S = unseen_pool_nb(g, rt, seat, held, lean)
    p = _heuristic_placement_nb(g, rt, seat, held, n, S, par, final, False, lean)
    if p >= 0 and g[ix(G_LEGAL + p)]:
        return _remember_placement_nb(g, seat, p)
    if g[ix(G_LEGAL + K.A_DISCARD)]:
        return K.A_DISCARD
    p = _heuristic_placement_nb(g, rt, seat, held, n, S, par, final, True, lean)
    if p >= 0 and g[ix(G_LEGAL + p)]:
        return _remember_placement_nb(g, seat, p)
    return lowest_legal_nb(g, 0, MAX_POS)


# each decision in a function of its own, so that one sets up only its own variables (the set-up
# of the whole decision at every call showed in profiles)
@hot(inline="always")
def heuristic_nb(point, seat, held, g, rt, rng, par, lean=False):
    """``heuristic``: a parametric rule-of-thumb player (docs/policies.md). It counts every
    card it has seen and values an unknown card at the mean of the rest. ``lean``: in its
    own build, the lean flow, which keeps its own row of the views (heuristic_lean_entry)."""
    if point == K.DP_TURN:
        return _turn_nb(seat, g, rt, par, lean)
    if point == K.DP_PLACE_TAKEN or point == K.DP_PLACE_DRAWN:
        return _place_nb(point, seat, held, g, rt, par, lean)
    if point == K.DP_FACE:
        return _face_nb(g, rt, seat, held, _knock_at_nb(g, par, seat),
                        g[ix(G_PUB + K.PUB_ENDER)] >= 0, lean)
    if point == K.DP_FLIP:
        return flip_nb(g, rt, seat)
    if point == K.DP_REVEAL:
        return reveal_apart_nb(g, rt, seat)
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def _face_nb(g, rt, seat, held, end_at, final, lean):
    """placement_face = player_choice: face up, unless the card would turn the last face-down
    card up and end the round while the estimate after it is above ``end_at``."""
    p = g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)]
    if 0 <= p < MAX_POS and not final and would_end_nb(g, rt, seat) and \
            g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(G_LEGAL + K.A_FACE_DOWN)]:
        n, S = unseen_pool_nb(g, rt, seat, held, lean)
        if n > 0 and estimate_nb(g, rt, seat, p, held, S / n) > end_at + EPS:
            return K.A_FACE_DOWN
    if g[ix(G_LEGAL + K.A_FACE_UP)]:
        return K.A_FACE_UP
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


def heuristic_entry(point, seat, held, g, rt, rng, par, aux):
    # a bold player (aggression) counts less of what a Cabo blind match costs when it misses
    return decide_others_using_nb(point, seat, held, g, rt, rng, par, heuristic_nb, NO_SAY,
                                  1.0 - par[seat, PAR_AGGRESSION])


@hot(inline="always")
def _heuristic_lean_nb(point, seat, held, g, rt, rng, par):
    return heuristic_nb(point, seat, held, g, rt, rng, par, True)


def heuristic_lean_entry(point, seat, held, g, rt, rng, par, aux):
    """``heuristic`` in its own build (simulator/kernel/features.py BUILDS "heuristic": the
    lean flow keeping its own row of the views, on rules where no seat knows another's
    face-down card, so that the face-up counters and that row give it what it has seen)."""
    return decide_with_nb(point, seat, held, g, rt, rng, par, _heuristic_lean_nb)
