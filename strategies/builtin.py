"""Built-in policies, compiled into the engine and chosen per seat by an integer id.

Every built-in has one signature (see docs/policies.md)::

    policy_nb(point, seat, held, g, rt, rng, par) -> action

``point`` is the decision point (codes.DP_*), ``held`` the card the seat holds now (-1 if
none), ``g`` the engine's state array, ``rt`` the rules and card tables, ``rng`` the random
streams and ``par[seat]`` the seat's row of the policy table (column 0 is the policy id, the
rest its parameters). A built-in reads only what its seat may see:

- the public slots ``g[G_PUB + PUB_*]`` and face-down counts ``g[G_FACE_DOWN + s]``,
- the face-up flags ``g[G_UP + s*MAX_POS + p]`` and the discard pile ``g[G_DISCARD + i]``,
- its own knowledge row ``g[G_KNOWN + (seat*MAX_PLAYERS + s)*MAX_POS + p]`` (card or -1),
- the legal mask ``g[G_LEGAL + a]``, its memory ``g[G_MEMORY + seat*MEMORY_SLOTS + i]`` and
  its own stream ``rng[STREAM_SEAT0 + seat]``.

Built-ins get the whole state array rather than per-seat copies because a call between compiled
functions costs about one stack word per array field; a test checks that scrambling everything
a seat may not see never changes a built-in's decision. Policies written by users get per-seat
views (issue 4).
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP,
                                  MAX_PLAYERS, MAX_POS)
from simulator.game.cards import CARDS_PER_DECK, RANK_JOKER
from simulator.game.codes import RT_KEY, RT_VALUE
from simulator.kernel.jit import hot, ix
from simulator.kernel.estimate import best_scan_nb, estimate_cards_nb, own_card_at_nb, partner_nb
from simulator.kernel.layout import can_replace_nb, rel_nb
from simulator.kernel.rng import STREAM_SEAT0, below_nb

from simulator.game.codes import (POLICY_EV, POLICY_FORGETFUL, POLICY_GREEDY,  # noqa: F401
                                  POLICY_GUIDE, POLICY_HEURISTIC, POLICY_KNOCK_THRESHOLD,
                                  POLICY_OPPONENT_AWARE, POLICY_RANDOM)
# memory slots (g[G_MEMORY + seat*MEMORY_SLOTS + i], zero at the deal)
MEM_PLANNED_POS = 0     # position chosen for the card about to be taken or placed
MEM_LAST_TURN = 1       # PUB_TURN + 1 of the last turn whose start it has handled
MEM_AGE = 2             # heuristic: slots 2..4 hold 4-bit ages, 7 positions per slot
MEM_PICKED = 5          # heuristic: bit p set for each position it chose in the initial reveal
MEM_FORGOTTEN = 2       # forgetful: bit p set when it has forgotten its face-down card at p
MEM_LOOK = 7            # blind_replacement = false: the unknown card it will look at first
AGE_PER_SLOT = 7
AGE_MAX = 15
PAR_ID = 0      # column of the policy table holding the policy id
PAR_T = 1       # knock-threshold: its threshold T
# heuristic: its parameter columns
PAR_TAKE_MAX = 1
PAR_REPLACE_MIN = 2
PAR_HOLD = 3
PAR_KNOCK_AT = 4
PAR_AGGRESSION = 5
PAR_DECAY = 2   # forgetful: T in column 1 (as knock-threshold), its decay rate here
DECAY_ONE = 1 << 24   # a forgetting draw is uniform below this
PAR_CARE = 1    # opponent-aware: the points it gives up not to feed the next seat
PAR_EV_T = 1    # ev: the highest estimate it ends the round with
PAR_MARGIN = 2  # ev: how far below every opponent's estimate its own must be to end it
PAR_TAKE_PAIR = 1   # guide: rank masks (bit r: rank r, 13 = joker) of the discards it takes
PAR_TAKE_EARLY = 2  # when they pair a card it knows / pair none, early (more than a third of
PAR_TAKE_LATE = 3   # its cards face down) / late / on its last turn (someone has gone out),
PAR_TAKE_LAST = 4
PAR_KEEP_PAIR = 5   # ... and of the drawn cards it keeps, in the same four situations
PAR_KEEP_EARLY = 6
PAR_KEEP_LATE = 7
PAR_KEEP_LAST = 8
PAR_OUT = 9         # guide: the highest score it goes out with (turning its last card up)
PAR_KNOCK = 10      # guide: the highest estimated score it knocks with
PAR_REVEAL = 11     # guide: initial reveal 0 = as greedy, 1 = different columns, 2 = same column
PAR_DOWN = 12       # guide: ranks of a kept card pairing nothing that go over a face-down card
REVEAL_AS_GREEDY, REVEAL_APART, REVEAL_TOGETHER = 0, 1, 2
ALL_RANKS = (1 << 14) - 1
EPS = 1e-9


@hot(inline="always")
def lowest_legal_nb(g, lo, hi):
    for a in range(lo, hi):
        if g[ix(G_LEGAL + a)]:
            return a
    return -1


@hot
def random_nb(point, seat, held, g, rt, rng, par):
    """Uniform over the legal actions (counted in ascending action order)."""
    count = 0
    for a in range(K.N_ACTIONS):
        count += g[ix(G_LEGAL + a)]
    k = below_nb(rng, STREAM_SEAT0 + seat, count)
    for a in range(K.N_ACTIONS):
        if g[ix(G_LEGAL + a)]:
            if k == 0:
                return a
            k -= 1
    return -1


@hot(inline="always")
def _column_estimate_nb(ka, va, kb, vb, a_known, b_known, n, S, keep_negative):
    """n times the estimated score of a 2-card column: a known pair scores its pair value,
    known cards their values, an unknown card S/n (it pairs with nothing)."""
    if a_known and b_known:
        if ka == kb:
            return (va + vb) * n if keep_negative and va < 0 and vb < 0 else 0
        return (va + vb) * n
    if a_known:
        return va * n + S
    if b_known:
        return vb * n + S
    return 2 * S


@hot(inline="always")
def own_card_nb(g, seat, p, hide):
    """The seat's own card at p as far as it remembers it, or -1: ``hide`` has bit p set for
    positions whose face-down card it has forgotten (see ``forgetful_nb``; 0 for the others)."""
    return own_card_at_nb(g, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS, g,
                          G_UP + seat * MAX_POS, hide, p)


@hot(inline="always")
def _layout_estimate_nb(g, rt, seat, at, card, n, S, hide):
    """n times the estimated layout score (simulator.kernel.estimate.estimate_cards_nb, for pair
    scopes other than 2-row columns) with ``card`` imagined at position ``at`` (at = -1: as it
    is)."""
    return estimate_cards_nb(g, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS, g,
                             G_UP + seat * MAX_POS, hide, rt, at, card, n, S)


@hot
def best_placement_nb(g, rt, seat, card, n, S, hide):
    """W1's placement rule (docs/benchmarks.md#w1) generalised: the replaceable position with
    the largest gain n*G(p) among eligible ones (G >= 1 over a known card, G >= 0 over an
    unknown one), ties to the lowest position; -1 if none is eligible. Positions in ``hide``
    count as unknown."""
    npos = rt[K.R_NPOS]
    best = -1
    best_gain = 0
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        keep = rt[K.R_NEG_PAIRS_KEEP] != 0
        kc = rt[ix(RT_KEY + card)]
        vc = rt[ix(RT_VALUE + card)]
        for c in range(cols):
            a = own_card_nb(g, seat, c, hide)
            b = own_card_nb(g, seat, c + cols, hide)
            ka = rt[ix(RT_KEY + a)] if a >= 0 else -1
            va = rt[ix(RT_VALUE + a)] if a >= 0 else 0
            kb = rt[ix(RT_KEY + b)] if b >= 0 else -1
            vb = rt[ix(RT_VALUE + b)] if b >= 0 else 0
            before = _column_estimate_nb(ka, va, kb, vb, a >= 0, b >= 0, n, S, keep)
            if can_replace_nb(g, rt, seat, c):  # the top card of the column
                gain = before - _column_estimate_nb(kc, vc, kb, vb, True, b >= 0, n, S, keep)
                if gain >= (n if a >= 0 else 0) and (best < 0 or gain > best_gain or
                                                     (gain == best_gain and c < best)):
                    best = c
                    best_gain = gain
            if can_replace_nb(g, rt, seat, c + cols):  # the bottom card
                gain = before - _column_estimate_nb(ka, va, kc, vc, a >= 0, True, n, S, keep)
                if gain >= (n if b >= 0 else 0) and (best < 0 or gain > best_gain or
                                                     (gain == best_gain and c + cols < best)):
                    best = c + cols
                    best_gain = gain
        return best
    replaceable = 0
    for p in range(npos):
        if can_replace_nb(g, rt, seat, p):
            replaceable |= 1 << p
    return best_scan_nb(g, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS, g,
                        G_UP + seat * MAX_POS, hide, rt, replaceable, card, n, S)


@hot
def _place_or_draw_nb(point, seat, held, g, rt, n, S, hide):
    """The placement rule shared by greedy and knock-threshold, given the seat's unseen pool
    (n cards worth S, the held card not yet removed): take the discard if it has an eligible
    placement, else draw; place a drawn card at its best eligible position, else discard.
    ``hide``: own positions it has forgotten (0 but for ``forgetful``)."""
    if point == K.DP_TURN:
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)] and n > 0:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p = best_placement_nb(g, rt, seat, top, n, S, hide)
            if p >= 0:
                # decided before taking: remembered for the placement that follows
                g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
        if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
            return K.A_DRAW_STOCK
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_TAKEN:
        p = g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)]
        if p >= 0 and g[ix(G_LEGAL + p)]:
            return p
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_PLACE_DRAWN:
        n -= 1
        S -= rt[ix(RT_VALUE + held)]
        p = best_placement_nb(g, rt, seat, held, n, S, hide) if n > 0 else -1
        if p >= 0:
            return p
        if g[ix(G_LEGAL + K.A_DISCARD)]:
            return K.A_DISCARD
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_FLIP and g[ix(G_LEGAL + K.A_PASS)]:
        return K.A_PASS
    if point == K.DP_FACE:
        return K.A_FACE_UP
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot(inline="always")
def greedy_nb(point, seat, held, g, rt, rng, par):
    """W1's ``greedy`` (docs/benchmarks.md#w1): card-counting, one-step placement gain. Its
    pool U: cards neither face up in a grid nor in the discard pile (nor the card just
    drawn)."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_FACEUP_N)] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_FACEUP_SUM)] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    return _place_or_draw_nb(point, seat, held, g, rt, n, S, 0)


@hot(inline="always")
def knock_threshold_nb(point, seat, held, g, rt, rng, par):
    """W2's ``knock-threshold`` (docs/benchmarks.md#w2; parameter T): its pool U is every card
    but the discard pile and its own known cards (what it has seen elsewhere is not
    subtracted); it knocks at the start of a turn when its estimated score E <= T, else plays
    greedy's placement rule with that pool."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    for p in range(rt[K.R_NPOS]):
        c = g[ix(own + p)]
        if 0 <= c < K.EMPTY0:  # (an empty position's pseudo-card is no card of the deck)
            n -= 1
            S -= rt[ix(RT_VALUE + c)]
    if point == K.DP_TURN and g[ix(G_LEGAL + K.A_KNOCK)] and n > 0:
        nE = _layout_estimate_nb(g, rt, seat, -1, -1, n, S, 0)
        if nE <= par[seat, PAR_T] * n:
            return K.A_KNOCK
    return _place_or_draw_nb(point, seat, held, g, rt, n, S, 0)


# ---- shared by the newer built-ins ---------------------------------------------------------------
@hot
def unseen_pool_nb(g, rt, seat, held):
    """(n, S): the cards the seat has not seen -- the deck but the discard pile, every card it
    knows in any layout (face up or remembered) and the card it holds -- and their value sum."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    npos = rt[K.R_NPOS]
    for s in range(rt[K.R_PLAYERS]):
        row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
        for p in range(npos):
            c = g[ix(row + p)]
            if 0 <= c < K.EMPTY0:
                n -= 1
                S -= rt[ix(RT_VALUE + c)]
    if held >= 0:
        n -= 1
        S -= rt[ix(RT_VALUE + held)]
    return n, S


@hot
def unseen_of_key_nb(g, rt, seat, key):
    """How many cards pairing by ``key`` the seat has not seen (deck copies less the discard
    pile and every card it knows)."""
    count = 0
    for t in range(rt[K.RT_TYPE_N]):  # the deck's copies, by card type
        if rt[ix(RT_KEY + rt[ix(K.RT_TYPE_CARD + t)])] == key:
            count += rt[ix(K.RT_TYPE_COPIES + t)]
    for i in range(g[ix(G_PUB + K.PUB_DISCARD_N)]):
        if rt[ix(RT_KEY + g[G_DISCARD + i])] == key:
            count -= 1
    npos = rt[K.R_NPOS]
    for s in range(rt[K.R_PLAYERS]):
        row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
        for p in range(npos):
            c = g[ix(row + p)]
            if c >= 0 and rt[ix(RT_KEY + c)] == key:
                count -= 1
    return count


@hot(inline="always")
def estimate_nb(g, rt, seat, at, card, u):
    """The seat's estimate of its layout score (a float), with ``card`` imagined at ``at``
    (-1: as it is): an unknown card is worth ``u``; known cards pair among themselves by key
    under the pair scope (a pair scores 0, or its sum when negative pairs keep their value)."""
    return estimate_of_nb(g, rt, seat, seat, at, card, u)


@hot
def estimate_of_nb(g, rt, seat, owner, at, card, u):
    """``estimate_nb`` of ``owner``'s layout as ``seat`` knows it."""
    npos = rt[K.R_NPOS]
    scope = rt[K.R_PAIR_SCOPE]
    keep = rt[K.R_NEG_PAIRS_KEEP] != 0
    own = G_KNOWN + (seat * MAX_PLAYERS + owner) * MAX_POS
    total = 0.0
    used = 0
    for p in range(npos):
        x = card if p == at else g[ix(own + p)]
        if x < 0:
            total += u
            continue
        if (used >> p) & 1:
            continue
        vx = rt[ix(RT_VALUE + x)]
        partner = -1
        if scope != K.PAIR_NONE:
            partner = partner_nb(g, own, g, 0, 0, rt, p, x, at, card, used)
        if partner >= 0:
            used |= 1 << partner
            y = card if partner == at else g[ix(own + partner)]
            vy = rt[ix(RT_VALUE + y)]
            if keep and vx < 0 and vy < 0:
                total += vx + vy
        else:
            total += vx
    return total


@hot(inline="always")
def would_end_nb(g, rt, seat):
    """Would turning the seat's last face-down card up end the round now?"""
    if g[ix(G_PUB + K.PUB_ENDER)] >= 0 or g[ix(G_FACE_DOWN + seat)] != 1:
        return False
    triggers = rt[K.R_END_TRIGGERS]
    if (triggers & K.END_ALL_FACE_UP) != 0:
        return True
    if (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
        for s in range(rt[K.R_PLAYERS]):
            if s != seat and g[ix(G_FACE_DOWN + s)] != 0:
                return False
        return True
    return False


@hot(inline="always")
def pairs_at_nb(g, rt, seat, p, card):
    """Would ``card`` at p pair with a card the seat knows at a related position?"""
    scope = rt[K.R_PAIR_SCOPE]
    if scope == K.PAIR_NONE:
        return False
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    for q in range(rt[K.R_NPOS]):
        y = g[ix(own + q)]
        if q != p and y >= 0 and rt[ix(RT_KEY + y)] == rt[ix(RT_KEY + card)] and \
                rel_nb(rt, p, q):
            return True
    return False


# ---- heuristic: a parametric family --------------------------------------------------------
@hot(inline="always")
def _age_nb(g, seat, p):
    slot = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_AGE + p // AGE_PER_SLOT
    return (g[ix(slot)] >> (4 * (p % AGE_PER_SLOT))) & AGE_MAX


@hot(inline="always")
def _reset_age_nb(g, seat, p):
    slot = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_AGE + p // AGE_PER_SLOT
    g[ix(slot)] &= ~(AGE_MAX << (4 * (p % AGE_PER_SLOT)))


@hot
def _grow_ages_nb(g, rt, seat):
    """One more own turn for every position's card (saturating at AGE_MAX)."""
    for p in range(rt[K.R_NPOS]):
        a = _age_nb(g, seat, p)
        if a < AGE_MAX:
            slot = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_AGE + p // AGE_PER_SLOT
            g[ix(slot)] += 1 << (4 * (p % AGE_PER_SLOT))


@hot
def _waiting_for_pair_nb(g, rt, seat, p, hold):
    """Is the known card at p one the heuristic keeps, waiting for its pair? Its value is
    positive, it has been there fewer than ``hold`` own turns, nothing pairs it yet, a related
    position could still take a partner, and the seat has not seen every copy of its key."""
    if hold <= 0 or _age_nb(g, seat, p) >= hold:
        return False
    scope = rt[K.R_PAIR_SCOPE]
    if scope == K.PAIR_NONE:
        return False
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    x = g[ix(own + p)]
    if x < 0 or rt[ix(RT_VALUE + x)] <= 0:
        return False
    key = rt[ix(RT_KEY + x)]
    open_slot = False
    for q in range(rt[K.R_NPOS]):
        if q == p or not rel_nb(rt, p, q):
            continue
        y = g[ix(own + q)]
        if y >= 0 and rt[ix(RT_KEY + y)] == key:
            return False  # already paired
        if can_replace_nb(g, rt, seat, q):
            open_slot = True
    return open_slot and unseen_of_key_nb(g, rt, seat, key) > 0


@hot(inline="always")
def _knock_at_nb(g, par, seat):
    """knock_at, or no limit once the stock has been reshuffled (the round drags on)."""
    if g[ix(G_PUB + K.PUB_RESHUFFLES)] > 0:
        return 1e300
    return par[seat, PAR_KNOCK_AT]


@hot
def _heuristic_placement_nb(g, rt, seat, card, n, S, par, final, must):
    """The heuristic's position for ``card`` (-1 if none suits): the largest estimated gain
    among replaceable positions where the gain is at least replace_min over a known card and
    at least 0 over an unknown one (valued at (1 + aggression) S/n), skipping cards kept for a
    pair (hold) and, before anyone has ended, a placement that would end the round while the
    estimate after it is above knock_at. ``final`` (the end is triggered): plain estimate
    minimisation. ``must`` (the card must be placed): no thresholds, the end avoided if
    possible."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    mean = S / n if n > 0 else 0.0
    u = mean if final else mean * (1.0 + par[seat, PAR_AGGRESSION])
    replace_min = EPS if final else par[seat, PAR_REPLACE_MIN]
    hold = 0 if final else np.int64(par[seat, PAR_HOLD])
    knock_at = _knock_at_nb(g, par, seat)
    ending = would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    before = estimate_nb(g, rt, seat, -1, -1, u)
    for attempt in range(2):
        best = -1
        best_gain = 0.0
        for p in range(rt[K.R_NPOS]):
            if not can_replace_nb(g, rt, seat, p):
                continue
            known = g[ix(own + p)] >= 0
            if not must and known and _waiting_for_pair_nb(g, rt, seat, p, hold):
                continue
            gain = before - estimate_nb(g, rt, seat, p, card, u)
            if not must and gain < (replace_min if known else 0.0) - EPS:
                continue
            if attempt == 0 and ending and g[ix(G_UP + seat * MAX_POS + p)] == 0 and \
                    estimate_nb(g, rt, seat, p, card, mean) > knock_at + EPS:
                continue
            if best < 0 or gain > best_gain + EPS:
                best = p
                best_gain = gain
        if best >= 0 or not must:
            return best
    return -1


@hot
def _remember_placement_nb(g, seat, p):
    g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)] = p
    _reset_age_nb(g, seat, p)
    return p


@hot
def heuristic_nb(point, seat, held, g, rt, rng, par):
    """``heuristic``: a parametric rule-of-thumb player (docs/policies.md). It counts every
    card it has seen and values an unknown card at the mean of the rest."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    final = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    knock_at = _knock_at_nb(g, par, seat)
    if point == K.DP_TURN:
        if g[ix(mem + MEM_LAST_TURN)] != g[ix(G_PUB + K.PUB_TURN)] + 1:  # a new own turn
            g[ix(mem + MEM_LAST_TURN)] = g[ix(G_PUB + K.PUB_TURN)] + 1
            _grow_ages_nb(g, rt, seat)
        n, S = unseen_pool_nb(g, rt, seat, -1)
        if n <= 0:
            if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
                return K.A_DRAW_STOCK
            return lowest_legal_nb(g, 0, K.N_ACTIONS)
        E = estimate_nb(g, rt, seat, -1, -1, S / n)
        if g[ix(G_LEGAL + K.A_KNOCK)] and E <= knock_at + EPS:
            return K.A_KNOCK
        if g[ix(G_LEGAL + K.A_FLIP_ALL)] and E <= knock_at + EPS:
            return K.A_FLIP_ALL
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)]:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p = _heuristic_placement_nb(g, rt, seat, top, n, S, par, final, False)
            if p >= 0 and (final or rt[ix(RT_VALUE + top)] <= par[seat, PAR_TAKE_MAX] + EPS or
                           pairs_at_nb(g, rt, seat, p, top)):
                g[ix(mem + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
            if not g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
                p = _heuristic_placement_nb(g, rt, seat, top, n, S, par, final, True)
                if p >= 0:
                    g[ix(mem + MEM_PLANNED_POS)] = p
                    return K.A_TAKE_DISCARD
        if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
            return K.A_DRAW_STOCK
        if g[ix(G_LEGAL + K.A_FLIP)]:
            return K.A_FLIP
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_TAKEN:
        p = g[ix(mem + MEM_PLANNED_POS)]
        if not (0 <= p < MAX_POS and g[ix(G_LEGAL + p)]):
            n, S = unseen_pool_nb(g, rt, seat, held)
            p = _heuristic_placement_nb(g, rt, seat, held, n, S, par, final, True)
        if p >= 0 and g[ix(G_LEGAL + p)]:
            return _remember_placement_nb(g, seat, p)
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_PLACE_DRAWN:
        n, S = unseen_pool_nb(g, rt, seat, held)
        p = _heuristic_placement_nb(g, rt, seat, held, n, S, par, final, False)
        if p >= 0 and g[ix(G_LEGAL + p)]:
            return _remember_placement_nb(g, seat, p)
        if g[ix(G_LEGAL + K.A_DISCARD)]:
            return K.A_DISCARD
        p = _heuristic_placement_nb(g, rt, seat, held, n, S, par, final, True)
        if p >= 0 and g[ix(G_LEGAL + p)]:
            return _remember_placement_nb(g, seat, p)
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_FACE:
        return _face_nb(g, rt, seat, held, knock_at, final)
    if point == K.DP_FLIP:
        return _flip_nb(g, rt, seat)
    if point == K.DP_REVEAL:
        return reveal_apart_nb(g, rt, seat)
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def _face_nb(g, rt, seat, held, end_at, final):
    """placement_face = player_choice: face up, unless the card would turn the last face-down
    card up and end the round while the estimate after it is above ``end_at``."""
    p = g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)]
    if 0 <= p < MAX_POS and not final and would_end_nb(g, rt, seat) and \
            g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(G_LEGAL + K.A_FACE_DOWN)]:
        n, S = unseen_pool_nb(g, rt, seat, held)
        if n > 0 and estimate_nb(g, rt, seat, p, held, S / n) > end_at + EPS:
            return K.A_FACE_DOWN
    if g[ix(G_LEGAL + K.A_FACE_UP)]:
        return K.A_FACE_UP
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def _flip_nb(g, rt, seat):
    """An optional flip is passed; a forced one turns up the lowest card the seat already
    knows (it shows nothing new), else the lowest position."""
    if g[ix(G_LEGAL + K.A_PASS)]:
        return K.A_PASS
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    best = -1
    for p in range(rt[K.R_NPOS]):
        c = g[ix(own + p)]
        if g[ix(G_LEGAL + p)] and c >= 0 and (best < 0 or
                                             rt[ix(RT_VALUE + c)] < rt[ix(RT_VALUE + g[own + best])]):
            best = p
    if best < 0:
        best = lowest_legal_nb(g, 0, MAX_POS)
    if best >= 0:
        _reset_age_nb(g, seat, best)
        return best
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def reveal_apart_nb(g, rt, seat):
    """Initial reveal, tip S-1 (docs/rules.md#s-1): the lowest legal position in a column
    (more generally, unrelated to any position) where the seat knows or picked no card yet,
    else the lowest legal position. Its picks are remembered in MEM_PICKED."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    npos = rt[K.R_NPOS]
    cols = rt[K.R_COLS]
    picked = g[ix(mem + MEM_PICKED)]
    for p in range(npos):
        if not g[ix(G_LEGAL + p)]:
            continue
        alone = True
        for q in range(npos):
            if q != p and (g[ix(own + q)] >= 0 or (picked >> q) & 1) and \
                    (q % cols == p % cols or rel_nb(rt, p, q)):
                alone = False
                break
        if alone:
            g[ix(mem + MEM_PICKED)] = picked | (1 << p)
            return p
    p = lowest_legal_nb(g, 0, K.N_ACTIONS)
    if 0 <= p < MAX_POS:
        g[ix(mem + MEM_PICKED)] = picked | (1 << p)
    return p


# ---- forgetful: knock-threshold with an imperfect memory ----------------------------------
@hot
def _forget_nb(g, rt, rng, seat, decay):
    """The start of an own turn: each own face-down card it still remembers is forgotten with
    probability ``decay`` (one draw per such card, in position order, from its own stream)."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    hide = g[ix(mem + MEM_FORGOTTEN)]
    limit = np.int64(decay * DECAY_ONE)
    for p in range(rt[K.R_NPOS]):
        if (hide >> p) & 1 == 0 and g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(own + p)] >= 0:
            if below_nb(rng, STREAM_SEAT0 + seat, DECAY_ONE) < limit:
                hide |= 1 << p
    g[ix(mem + MEM_FORGOTTEN)] = hide


@hot
def forgetful_nb(point, seat, held, g, rt, rng, par):
    """``forgetful`` (parameters T, decay): knock-threshold whose memory of its own face-down
    cards fades. At the start of each own turn every face-down card it remembers (peeked, or
    placed face down) is forgotten with probability ``decay``; a forgotten card counts as
    unknown (worth S/n, and back in the pool) until it sees it again: face up, or because it
    put a new card there. With decay = 0 it plays exactly as knock-threshold."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    if point == K.DP_TURN and g[ix(mem + MEM_LAST_TURN)] != g[ix(G_PUB + K.PUB_TURN)] + 1:
        g[ix(mem + MEM_LAST_TURN)] = g[ix(G_PUB + K.PUB_TURN)] + 1
        if par[seat, PAR_DECAY] > 0:
            _forget_nb(g, rt, rng, seat, par[seat, PAR_DECAY])
    hide = g[ix(mem + MEM_FORGOTTEN)]
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    for p in range(rt[K.R_NPOS]):
        c = own_card_nb(g, seat, p, hide)
        if 0 <= c < K.EMPTY0:
            n -= 1
            S -= rt[ix(RT_VALUE + c)]
    if point == K.DP_TURN and g[ix(G_LEGAL + K.A_KNOCK)] and n > 0:
        nE = _layout_estimate_nb(g, rt, seat, -1, -1, n, S, hide)
        if nE <= par[seat, PAR_T] * n:
            return K.A_KNOCK
    a = _place_or_draw_nb(point, seat, held, g, rt, n, S, hide)
    if (point == K.DP_PLACE_DRAWN or point == K.DP_PLACE_TAKEN) and 0 <= a < MAX_POS:
        g[ix(mem + MEM_FORGOTTEN)] = hide & ~(1 << a)  # it knows the card it puts there
    return a


# ---- opponent-aware: greedy that does not feed the next seat ---------------------------------
@hot
def placement_gain_nb(g, rt, seat, p, card, n, S):
    """n*G(p): greedy's gain (best_placement_nb's arithmetic) of putting ``card`` at p."""
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
        cols = rt[K.R_COLS]
        keep = rt[K.R_NEG_PAIRS_KEEP] != 0
        c = p % cols
        a = g[ix(own + c)]
        b = g[ix(own + c + cols)]
        ka = rt[ix(RT_KEY + a)] if a >= 0 else -1
        va = rt[ix(RT_VALUE + a)] if a >= 0 else 0
        kb = rt[ix(RT_KEY + b)] if b >= 0 else -1
        vb = rt[ix(RT_VALUE + b)] if b >= 0 else 0
        kc = rt[ix(RT_KEY + card)]
        vc = rt[ix(RT_VALUE + card)]
        before = _column_estimate_nb(ka, va, kb, vb, a >= 0, b >= 0, n, S, keep)
        if p < cols:
            return before - _column_estimate_nb(kc, vc, kb, vb, True, b >= 0, n, S, keep)
        return before - _column_estimate_nb(ka, va, kc, vc, a >= 0, True, n, S, keep)
    return _layout_estimate_nb(g, rt, seat, -1, -1, n, S, 0) - \
        _layout_estimate_nb(g, rt, seat, p, card, n, S, 0)


@hot
def collecting_nb(g, rt, seat, other, key):
    """Does ``other`` (as far as ``seat`` can tell) collect cards of ``key``? It shows, or has
    taken from the discard pile, a card of that key with a positive value that nothing pairs
    yet, next to a related position where it may still put a partner."""
    scope = rt[K.R_PAIR_SCOPE]
    if scope == K.PAIR_NONE:
        return False
    row = G_KNOWN + (seat * MAX_PLAYERS + other) * MAX_POS
    npos = rt[K.R_NPOS]
    for q in range(npos):
        x = g[ix(row + q)]
        if x < 0 or rt[ix(RT_KEY + x)] != key or rt[ix(RT_VALUE + x)] <= 0:
            continue
        paired = False
        open_slot = False
        for r in range(npos):
            if r == q or not rel_nb(rt, q, r):
                continue
            y = g[ix(row + r)]
            if y >= 0 and rt[ix(RT_KEY + y)] == key:
                paired = True
                break
            if can_replace_nb(g, rt, other, r):
                open_slot = True
        if open_slot and not paired:
            return True
    return False


@hot(inline="always")
def _feeds_nb(g, rt, seat, card):
    """Would ``card`` on top of the discard pile feed the next seat?"""
    if card < 0:
        return False  # a card it does not know: it cannot tell
    return collecting_nb(g, rt, seat, (seat + 1) % rt[K.R_PLAYERS], rt[ix(RT_KEY + card)])


@hot
def _withhold_nb(g, rt, seat, card, n, S, choice, care, may_discard):
    """Greedy put ``card`` at ``choice`` (a position, or A_DISCARD), leaving the old card (or
    ``card``) on top of the discard pile. If that card feeds the next seat, the best choice
    that does not, among those whose gain is at most ``care`` points below greedy's; else
    greedy's own choice."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    fed = card if choice == K.A_DISCARD else g[ix(own + choice)]
    if not _feeds_nb(g, rt, seat, fed):
        return choice
    base = 0 if choice == K.A_DISCARD else placement_gain_nb(g, rt, seat, choice, card, n, S)
    floor = base - care * n
    best = -1
    best_gain = 0
    if may_discard and choice != K.A_DISCARD and 0 >= floor and not _feeds_nb(g, rt, seat, card):
        best = K.A_DISCARD
    for p in range(rt[K.R_NPOS]):
        if p == choice or not can_replace_nb(g, rt, seat, p) or _feeds_nb(g, rt, seat, g[ix(own + p)]):
            continue
        gain = placement_gain_nb(g, rt, seat, p, card, n, S)
        if gain >= floor and (best < 0 or gain > best_gain):
            best = p
            best_gain = gain
    return best if best >= 0 else choice


@hot
def opponent_aware_nb(point, seat, held, g, rt, rng, par):
    """``opponent-aware`` (parameter care): greedy, but it watches the next seat (tip S-5,
    docs/rules.md#s-5). When the card greedy would leave on top of the discard pile -- the
    drawn card it discards, or the known card it replaces -- is one the next seat collects, it
    places the card elsewhere or discards instead, if that costs at most ``care`` points of
    greedy's estimated gain. With care = 0 it plays exactly as greedy."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_FACEUP_N)] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_FACEUP_SUM)] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    a = _place_or_draw_nb(point, seat, held, g, rt, n, S, 0)
    care = par[seat, PAR_CARE]
    if care <= 0 or rt[K.R_PAIR_SCOPE] == K.PAIR_NONE:
        return a
    if point == K.DP_TURN and a == K.A_TAKE_DISCARD:
        mem = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS
        top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
        g[ix(mem)] = _withhold_nb(g, rt, seat, top, n, S, g[ix(mem)], care, False)
    elif point == K.DP_PLACE_DRAWN and n > 1 and (a == K.A_DISCARD or 0 <= a < MAX_POS):
        a = _withhold_nb(g, rt, seat, held, n - 1, S - rt[ix(RT_VALUE + held)], a, care,
                         g[ix(G_LEGAL + K.A_DISCARD)] != 0)
    return a


# ---- ev: expected values over the cards it has not seen ---------------------------------------
@hot
def _ev_may_end_nb(g, rt, seat, E, u, par):
    """May ``ev`` end the round with estimate E? When E <= T and E + margin is at most every
    opponent's estimate (their cards as it knows them, unknown ones worth u); always once the
    stock has been reshuffled (the round drags on)."""
    if g[ix(G_PUB + K.PUB_RESHUFFLES)] > 0:
        return True
    if E > par[seat, PAR_EV_T] + EPS:
        return False
    for s in range(rt[K.R_PLAYERS]):
        if s != seat and E + par[seat, PAR_MARGIN] > estimate_of_nb(g, rt, seat, s, -1, -1,
                                                                    u) + EPS:
            return False
    return True


@hot
def _ev_best_nb(g, rt, seat, card, u, par, final):
    """(position, gain) for ``card``: the replaceable position with the largest estimated gain
    (any sign; ties to the lowest), leaving out a placement that would end the round when the
    estimate after it may not end it -- unless nothing else is left. (-1, 0) if none."""
    ending = not final and would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    return _ev_best_from_nb(g, rt, seat, card, u, par, ending,
                            estimate_nb(g, rt, seat, -1, -1, u))


@hot
def _ev_best_from_nb(g, rt, seat, card, u, par, ending, before):
    """``_ev_best_nb`` given whether a placement may end the round and the estimate before it
    (the same for every card it weighs at one decision)."""
    fallback = -1
    fallback_gain = 0.0
    best = -1
    best_gain = 0.0
    for p in range(rt[K.R_NPOS]):
        if not can_replace_nb(g, rt, seat, p):
            continue
        after = estimate_nb(g, rt, seat, p, card, u)
        gain = before - after
        if ending and g[ix(G_UP + seat * MAX_POS + p)] == 0 and \
                not _ev_may_end_nb(g, rt, seat, after, u, par):
            if fallback < 0 or gain > fallback_gain + EPS:
                fallback = p
                fallback_gain = gain
            continue
        if best < 0 or gain > best_gain + EPS:
            best = p
            best_gain = gain
    if best < 0:
        return fallback, fallback_gain
    return best, best_gain


@hot
def _ev_draw_value_nb(g, rt, seat, n, u, par, final, may_discard):
    """The expected gain of drawing: over every card it has not seen (grouped by key and
    value: the rule set's card types), the best placement's gain, or 0 when discarding it is
    better and allowed."""
    ntypes = rt[K.RT_TYPE_N]
    for t in range(ntypes):  # unseen copies: the deck's, less the discard pile's and known ones
        g[ix(K.G_SCRATCH + t)] = rt[ix(K.RT_TYPE_COPIES + t)]
    for j in range(g[ix(G_PUB + K.PUB_DISCARD_N)]):
        t = rt[ix(K.RT_TYPE + g[ix(G_DISCARD + j)])]
        if t >= 0:
            g[ix(K.G_SCRATCH + t)] -= 1
    for s in range(rt[K.R_PLAYERS]):
        row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
        for p in range(rt[K.R_NPOS]):
            d = g[ix(row + p)]
            if d >= 0:
                t = rt[ix(K.RT_TYPE + d)]
                if t >= 0:
                    g[ix(K.G_SCRATCH + t)] -= 1
    ending = not final and would_end_nb(g, rt, seat) and rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    before = estimate_nb(g, rt, seat, -1, -1, u)
    total = 0.0
    for t in range(ntypes):
        count = g[ix(K.G_SCRATCH + t)]
        if count <= 0:
            continue
        p, gain = _ev_best_from_nb(g, rt, seat, rt[ix(K.RT_TYPE_CARD + t)], u, par, ending,
                                   before)
        if p < 0 or (may_discard and gain < 0.0):
            gain = 0.0
        total += count * gain
    return total / n


@hot
def ev_nb(point, seat, held, g, rt, rng, par):
    """``ev`` (parameters T, margin): a card counter that compares expected values. Its pool
    is every card it has not seen; an unknown card is worth the pool's mean. It takes the
    discard when the best placement of that card gains at least as much as drawing is expected
    to (the mean over the pool of each card's best gain, or 0 if it would discard it); it
    places a drawn card where it gains most, if anything; and it ends the round (knock, flip
    all, or turn its last card up) only when its estimate is at most T and at least margin
    below every opponent's (tip S-14, docs/rules.md#s-14)."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    final = g[ix(G_PUB + K.PUB_ENDER)] >= 0
    if point == K.DP_TURN:
        n, S = unseen_pool_nb(g, rt, seat, -1)
        if n <= 0:
            return lowest_legal_nb(g, 0, K.N_ACTIONS)
        u = S / n
        E = estimate_nb(g, rt, seat, -1, -1, u)
        if (g[ix(G_LEGAL + K.A_KNOCK)] or g[ix(G_LEGAL + K.A_FLIP_ALL)]) and \
                _ev_may_end_nb(g, rt, seat, E, u, par):
            return K.A_KNOCK if g[ix(G_LEGAL + K.A_KNOCK)] else K.A_FLIP_ALL
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)]:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p, gain = _ev_best_nb(g, rt, seat, top, u, par, final)
            if p >= 0 and (not g[ix(G_LEGAL + K.A_DRAW_STOCK)] or gain >= _ev_draw_value_nb(
                    g, rt, seat, n, u, par, final, rt[K.R_STOCK_MAY_DISCARD] != 0) - EPS):
                g[ix(mem + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
        if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
            return K.A_DRAW_STOCK
        if g[ix(G_LEGAL + K.A_FLIP)]:
            return K.A_FLIP
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_TAKEN or point == K.DP_PLACE_DRAWN:
        p = g[ix(mem + MEM_PLANNED_POS)] if point == K.DP_PLACE_TAKEN else -1
        if not (0 <= p < MAX_POS and g[ix(G_LEGAL + p)]):
            n, S = unseen_pool_nb(g, rt, seat, held)
            p, gain = _ev_best_nb(g, rt, seat, held, S / n if n > 0 else 0.0, par, final)
            if g[ix(G_LEGAL + K.A_DISCARD)] and (p < 0 or gain <= EPS):
                return K.A_DISCARD
        if p >= 0 and g[ix(G_LEGAL + p)]:
            g[ix(mem + MEM_PLANNED_POS)] = p
            return p
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_FACE:
        n, S = unseen_pool_nb(g, rt, seat, held)
        p = g[ix(mem + MEM_PLANNED_POS)]
        if 0 <= p < MAX_POS and n > 0 and not final and would_end_nb(g, rt, seat) and \
                g[ix(G_UP + seat * MAX_POS + p)] == 0 and g[ix(G_LEGAL + K.A_FACE_DOWN)] and \
                not _ev_may_end_nb(g, rt, seat, estimate_nb(g, rt, seat, p, held, S / n),
                                   S / n, par):
            return K.A_FACE_DOWN
        if g[ix(G_LEGAL + K.A_FACE_UP)]:
            return K.A_FACE_UP
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_FLIP:
        return _flip_nb(g, rt, seat)
    if point == K.DP_REVEAL:
        return reveal_apart_nb(g, rt, seat)
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


# ---- guide: the table-driven player that `golfsim guide` writes tables for --------------------
@hot(inline="always")
def rank_nb(card):
    local = card % CARDS_PER_DECK
    return RANK_JOKER if local >= 52 else local % 13


@hot
def pairs_somewhere_nb(g, rt, seat, card):
    """Could ``card`` go where it pairs a card the seat knows (the situation a player sees at
    the table: "it matches one of mine")?"""
    for p in range(rt[K.R_NPOS]):
        if can_replace_nb(g, rt, seat, p) and pairs_at_nb(g, rt, seat, p, card):
            return True
    return False


@hot
def _in_table_nb(g, rt, par, seat, first, card, pairs):
    """Is ``card`` in the guide's table for its situation (``pairs``: it pairs a card the
    seat knows)? ``first`` is the table's pair column (PAR_TAKE_PAIR or PAR_KEEP_PAIR); the
    early, late and last-turn columns follow."""
    if pairs:
        col = first
    elif g[ix(G_PUB + K.PUB_ENDER)] >= 0:
        col = first + 3
    elif g[ix(G_FACE_DOWN + seat)] * 3 > rt[K.R_NPOS]:
        col = first + 1
    else:
        col = first + 2
    return (np.int64(par[seat, col]) >> rank_nb(card)) & 1 != 0


@hot
def _guide_position_nb(g, rt, par, seat, card, p, n, S, pairs):
    """Where the guide puts a card it keeps, given greedy's choice p: with the card's rank in
    the ``down`` table and no pair for it (``pairs`` false), over its lowest unknown face-down
    card when the card is below the mean of the unseen (a gain there), else at p."""
    if pairs or (np.int64(par[seat, PAR_DOWN]) >> rank_nb(card)) & 1 == 0 or \
            g[ix(G_UP + seat * MAX_POS + p)] == 0 or rt[ix(RT_VALUE + card)] * n > S:
        return p
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    for q in range(rt[K.R_NPOS]):
        if g[ix(G_UP + seat * MAX_POS + q)] == 0 and g[ix(own + q)] < 0 and \
                can_replace_nb(g, rt, seat, q):
            return q
    return p


@hot
def _goes_out_too_high_nb(g, rt, seat, p, card, n, S, out):
    """Would placing ``card`` at p turn the seat's last face-down card up, ending the round,
    with an estimated score above ``out``?"""
    if not would_end_nb(g, rt, seat) or g[ix(G_UP + seat * MAX_POS + p)] != 0 or \
            rt[K.R_PLACEMENT_FACE] != K.FACE_UP or n <= 0:
        return False
    return _layout_estimate_nb(g, rt, seat, p, card, n, S, 0) > out * n + EPS


@hot
def reveal_together_nb(g, rt, seat):
    """Initial reveal: a legal position in a column where the seat already knows or picked a
    card, else the lowest legal position (picks remembered in MEM_PICKED)."""
    mem = G_MEMORY + seat * K.MEMORY_SLOTS
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    cols = rt[K.R_COLS]
    picked = g[ix(mem + MEM_PICKED)]
    p = -1
    for x in range(rt[K.R_NPOS]):
        if not g[ix(G_LEGAL + x)]:
            continue
        for q in range(rt[K.R_NPOS]):
            if q != x and q % cols == x % cols and (g[ix(own + q)] >= 0 or (picked >> q) & 1):
                p = x
                break
        if p >= 0:
            break
    if p < 0:
        p = lowest_legal_nb(g, 0, K.N_ACTIONS)
    if 0 <= p < MAX_POS:
        g[ix(mem + MEM_PICKED)] = picked | (1 << p)
    return p


@hot
def guide_nb(point, seat, held, g, rt, rng, par):
    """``guide``: greedy's card counting and placement, with the decisions a strategy guide
    tabulates taken from tables (docs/policies.md): which discards to take and which drawn
    cards to keep, by rank and situation (the card pairs one it knows; else early, late or
    on its last turn); where a kept card goes; the highest score to go out or knock with; how
    to make the initial reveal. With every rank in every table, no limit on going out, no
    knocking, reveal 0 and no rank in ``down`` it plays exactly as greedy."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_FACEUP_N)] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_FACEUP_SUM)] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    out = par[seat, PAR_OUT]
    if point == K.DP_TURN:
        if g[ix(G_LEGAL + K.A_KNOCK)] and n > 0 and \
                _layout_estimate_nb(g, rt, seat, -1, -1, n, S, 0) <= par[seat, PAR_KNOCK] * n:
            return K.A_KNOCK
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)] and n > 0:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p = best_placement_nb(g, rt, seat, top, n, S, 0)
            if p >= 0:
                pairs = pairs_somewhere_nb(g, rt, seat, top)
                p = _guide_position_nb(g, rt, par, seat, top, p, n, S, pairs)
                if (_in_table_nb(g, rt, par, seat, PAR_TAKE_PAIR, top, pairs) and
                        not _goes_out_too_high_nb(g, rt, seat, p, top, n, S, out)) or \
                        not g[ix(G_LEGAL + K.A_DRAW_STOCK)]:   # (or it must take it)
                    g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)] = p
                    return K.A_TAKE_DISCARD
        if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
            return K.A_DRAW_STOCK
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_DRAWN and g[ix(G_LEGAL + K.A_DISCARD)]:
        n -= 1
        S -= rt[ix(RT_VALUE + held)]
        p = best_placement_nb(g, rt, seat, held, n, S, 0) if n > 0 else -1
        if p < 0:
            return K.A_DISCARD
        pairs = pairs_somewhere_nb(g, rt, seat, held)
        p = _guide_position_nb(g, rt, par, seat, held, p, n, S, pairs)
        if not _in_table_nb(g, rt, par, seat, PAR_KEEP_PAIR, held, pairs) or \
                _goes_out_too_high_nb(g, rt, seat, p, held, n, S, out):
            return K.A_DISCARD
        return p
    if point == K.DP_REVEAL:
        mode = np.int64(par[seat, PAR_REVEAL])
        if mode == REVEAL_APART:
            return reveal_apart_nb(g, rt, seat)
        if mode == REVEAL_TOGETHER:
            return reveal_together_nb(g, rt, seat)
    return _place_or_draw_nb(point, seat, held, g, rt, n, S, 0)


@hot
def arrange_nb(g, rt, seat, held):
    """rearrange_after_reveal, every built-in but random: the lowest free position related
    (pair scope) to a settled face-up card that pairs with ``held``; else the lowest one
    sharing no column and no relation with a settled card (spread out, as the reveal does);
    else the lowest free position."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    npos = rt[K.R_NPOS]
    cols = rt[K.R_COLS]
    alone = -1
    for q in range(npos):
        if not g[ix(G_LEGAL + q)]:
            continue
        lonely = True
        for r in range(npos):
            if g[ix(G_LEGAL + r)] or not g[ix(G_UP + seat * MAX_POS + r)]:
                continue   # not a settled face-up card
            rel = rel_nb(rt, q, r)
            if rel and rt[ix(RT_KEY + g[own + r])] == rt[ix(RT_KEY + held)]:
                return q
            if rel or q % cols == r % cols:
                lonely = False
        if lonely and alone < 0:
            alone = q
    if alone >= 0:
        return alone
    return lowest_legal_nb(g, 0, MAX_POS)


@hot(inline="always")
def decide_with_nb(point, seat, held, g, rt, rng, par, policy_nb):
    """``policy_nb``'s decision, with what every built-in but random does alike: arranging,
    removing completed groups, looking before a blind replacement, a knock after its turn."""
    if point == K.DP_ARRANGE:
        return arrange_nb(g, rt, seat, held)
    if point == K.DP_REMOVE:
        return K.A_REMOVE   # a removed group scores what it scored in place, and tidies up
    if (point == K.DP_PLACE_DRAWN or point == K.DP_PLACE_TAKEN) and g[ix(G_LEGAL + K.A_PEEK)]:
        # blind_replacement = false: where it would put the card blind; over an unknown card
        # it looks first (and is asked again, knowing it)
        g[ix(G_LEGAL + K.A_PEEK)] = 0
        a = policy_nb(point, seat, held, g, rt, rng, par)
        g[ix(G_LEGAL + K.A_PEEK)] = 1
        if 0 <= a < MAX_POS and not g[ix(G_UP + seat * MAX_POS + a)] and \
                g[ix(G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS + a)] < 0:
            g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_LOOK)] = a
            return K.A_PEEK
        return a
    if point == K.DP_PEEK and held >= 0:
        return g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_LOOK)]
    if point == K.DP_KNOCK:
        # a knock right after its own turn: it knocks when its start-of-turn rule would knock
        # now (drawing stands in for "go on", so no other choice of that rule is taken)
        g[ix(G_LEGAL + K.A_PASS)] = 0
        g[ix(G_LEGAL + K.A_DRAW_STOCK)] = 1
        a = policy_nb(K.DP_TURN, seat, held, g, rt, rng, par)
        g[ix(G_LEGAL + K.A_DRAW_STOCK)] = 0
        g[ix(G_LEGAL + K.A_PASS)] = 1
        return K.A_KNOCK if a == K.A_KNOCK else K.A_PASS
    return policy_nb(point, seat, held, g, rt, rng, par)


# ---- entry points: what strategies.compiled compiles, one C-callable function per built-in ---
# (``aux`` is a policy's scratch between decisions; only lookahead uses it)
def random_entry(point, seat, held, g, rt, rng, par, aux):
    return random_nb(point, seat, held, g, rt, rng, par)


def greedy_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, greedy_nb)


def knock_threshold_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, knock_threshold_nb)


def heuristic_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, heuristic_nb)


def forgetful_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, forgetful_nb)


def opponent_aware_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, opponent_aware_nb)


def ev_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, ev_nb)


def guide_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, guide_nb)
