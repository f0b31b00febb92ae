"""What the built-in policies share: their memory slots and parameter columns, the
unseen-card estimates, the reveal and arrangement choices, and ``decide_with_nb``, which
answers the decisions a policy leaves to the common rule (strategies/builtin.py describes
the policies' signature and what they read)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK, RANK_JOKER
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_KK, G_KNOWN, G_KNOWN_N, G_KNOWN_SUM,
                                  G_KQ, G_KV, G_LEGAL, G_MEMORY, G_PUB, G_UP, G_UPMASK, MAX_PLAYERS,
                                  MAX_POS, RT_KEY, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.estimate import (column_estimate_nb, key_group_nb, partner_nb,
                                       trailing_zeros)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb, rel_nb


# memory slots (g[G_MEMORY + seat*MEMORY_SLOTS + i], zero at the deal)
MEM_PLANNED_POS = 0     # position chosen for the card about to be taken or placed
MEM_LAST_TURN = 1       # PUB_TURN + 1 of the last turn whose start it has handled
MEM_AGE = 2             # heuristic: slots 2..4 hold 4-bit ages, 7 positions per slot
MEM_PICKED = 5          # heuristic: bit p set for each position it chose in the initial reveal
MEM_FORGOTTEN = 2       # forgetful: bit p set when it has forgotten its face-down card at p
MEM_LOOK = 7            # blind_replacement = false: the unknown card it will look at first
MEM_DREW = 1            # lookahead in power games: PUB_TURN + 1 of the turn it chose to draw in
# power-card games (strategies/powers.py): the greedy-family "plan" carried from one decision of
# a power, turn match or snap to the next (strategies/reference/powers.py decide()'s
# power_plan), kept as the reference keeps its dict: set and read by the same decisions,
# cleared only when it chooses to use a power. A (seat, pos) is stored as 1 + seat*16 + pos, 0 meaning none.
MEM_PLAN_SNAP = 8       # plan["snap"]: the card it snaps
MEM_PLAN_OWN = 9        # plan["own"]: 1 + its own card peeked by a Cumbia J (position only)
MEM_PLAN_THEIRS = 10    # plan["theirs"]: the opponent card a swap takes
MEM_PLAN_FIRST = 11     # plan["first"]: 1 after the first card of a swap_any_two
MEM_PLAN_HELD = 11      # plan["held"]: 1 + the Dutch 2 it uses (the Dutch table has no
                        # swap_any_two: the two never share the slot in one rule set)
MEM_PLAN_NOMINATE = 12  # plan["nominate"] less plan["done"]: slots 12..15, three 10-bit
PLAN_NOMINATE_SLOTS = 4  # entries a slot (an entry is zeroed once nominated): at most 12 cards
PLAN_PER_SLOT = 3
MEM_FORGOTTEN_OPP = 3   # forgetful in power games: slots 3..6, bit p set when it has forgotten
FORGET_OPPONENTS = 4    # the card at p of the k-th seat after it (k = 1..4; later seats: never)
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
PAR_TAKE_LATE = 3   # its cards unknown to it) / late / on its last turn (someone went out),
PAR_TAKE_LAST = 4
PAR_KEEP_PAIR = 5   # ... and of the drawn cards it keeps, in the same four situations
PAR_KEEP_EARLY = 6
PAR_KEEP_LATE = 7
PAR_KEEP_LAST = 8
PAR_OUT = 9         # guide: the highest score it goes out with (turning its last card up)
PAR_KNOCK = 10      # guide: the highest estimated score it knocks with
PAR_REVEAL = 11     # guide: initial reveal 0 = as greedy, 1 = different columns, 2 = same column
PAR_DOWN = 12       # guide: ranks of a kept card pairing nothing that go over a face-down card
PAR_TAKE_LINE3 = 13  # guide, in games scoring lines of three (line_sets): ranks of a discard it
PAR_TAKE_LINE2 = 14  # takes to complete a line (two of the line's cards match it) / to join a
PAR_KEEP_LINE3 = 15  # line holding one that matches it; and of a drawn card it keeps to do so
PAR_KEEP_LINE2 = 16
PAR_POWER_USE = 17   # guide, in power-card games: ranks of a drawn card it does not keep whose
PAR_POWER_SKIP = 18  # power it always uses / always discards unused (neither: greedy's rule)
PAR_SNAP_USE = 19     # guide, in games with snaps: ranks of a new top discard it always snaps /
PAR_SNAP_SKIP = 20    # never snaps with an own card it knows of its key (neither: greedy's rule)
PAR_SNAP_OPP_USE = 21   # ... with an opponent's card it knows (snap_mode cumbia)
PAR_SNAP_OPP_SKIP = 22
PAR_MATCH_USE = 23    # guide, in games with turn matches: ranks it always matches / never
PAR_MATCH_SKIP = 24   # matches when it knows a card of the key (Cabo: the held card's rank;
                      # Pablo: the rank of its own cards the held card would replace)
PAR_BLIND_USE = 25    # Cabo: ranks of a held card it matches blind / never matches blind when
PAR_BLIND_SKIP = 26   # it knows no card of its key and does not place it
REVEAL_AS_GREEDY, REVEAL_APART, REVEAL_TOGETHER = 0, 1, 2
ALL_RANKS = (1 << 14) - 1
EPS = 1e-9


@hot(inline="always")
def rank_nb(card):
    """A card's rank index (A = 0 .. K = 12, joker = 13), as the rank tables' bits."""
    local = card % CARDS_PER_DECK
    return RANK_JOKER if local >= 52 else local % 13


@hot(inline="always")
def has_rank_nb(mask, card):
    """Is ``card``'s rank in the rank table ``mask`` (a parameter column's bits)?"""
    return (np.int64(mask) >> rank_nb(card)) & 1 != 0


@hot(inline="always")
def lowest_legal_nb(g, lo, hi):
    for a in range(lo, hi):
        if g[ix(G_LEGAL + a)]:
            return a
    return -1


@hot(inline="always")
def draw_or_flip_nb(g):
    """A turn that takes no discard: draw from the stock, else flip a card, else the first
    legal action."""
    if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
        return K.A_DRAW_STOCK
    if g[ix(G_LEGAL + K.A_FLIP)]:
        return K.A_FLIP
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot(inline="always")
def unseen_pool_nb(g, rt, seat, held, lean=False):
    """(n, S): the cards the seat has not seen -- the deck but the discard pile, every card it
    knows in any layout (face up or remembered) and the card it holds -- and their value sum.
    ``lean``: in a lean flow that keeps the seat's own row of the views and, for every seat,
    the positions whose card everyone has seen (G_SEEN_ALL; features.BUILDS "heuristic"):
    the face-up cards are the public counters; of the face-down ones, it knows its own it has
    seen and the others' that everyone saw."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    npos = rt[K.R_NPOS]
    if lean:
        # its own cards it knows, from the cache's count and sum, less the face-up ones, which
        # the counters hold (their values from the cache: no look-up of a card's value)
        up = g[ix(G_UPMASK + seat)]
        n -= g[ix(G_PUB + K.PUB_FACEUP_N)] + g[ix(G_KNOWN_N + seat)]
        S -= g[ix(G_PUB + K.PUB_FACEUP_SUM)] + g[ix(G_KNOWN_SUM + seat)]
        for p in range(npos):
            k = (up >> p) & 1
            n += k
            S += k * g[ix(G_KV + seat * MAX_POS + p)]
        for s in range(rt[K.R_PLAYERS]):
            # (only where a card goes face down in sight of all: rarely, in most rule sets)
            seen = g[ix(K.G_SEEN_ALL + s)] & ~g[ix(G_UPMASK + s)] if s != seat else 0
            while seen != 0:
                p = trailing_zeros(seen)
                seen &= seen - 1
                n -= 1
                S -= rt[ix(RT_VALUE + g[ix(K.G_LAY + s * MAX_POS + p)])]
    else:
        for s in range(rt[K.R_PLAYERS]):
            row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
            for p in range(npos):
                # without a branch, which known and unknown cards in no order would
                # mispredict: an unknown card (or an empty position's pseudo-card) counts 0
                # times card 0's value
                c = g[ix(row + p)]
                k = np.int64(c >= 0) & np.int64(c < K.EMPTY0)
                n -= k
                S -= k * rt[ix(RT_VALUE + c * k)]
    if held >= 0:
        n -= 1
        S -= rt[ix(RT_VALUE + held)]
    return n, S


@hot
def unseen_types_nb(g, rt, seat):
    """g[G_SCRATCH + t]: how many cards of each card type t (codes.RT_TYPE) the seat has not
    seen -- the deck's copies less the discard pile's and every card it knows."""
    for t in range(rt[K.RT_TYPE_N]):
        g[ix(K.G_SCRATCH + t)] = rt[ix(K.RT_TYPE_COPIES + t)]
    for j in range(g[ix(G_PUB + K.PUB_DISCARD_N)]):
        t = rt[ix(K.RT_TYPE + g[ix(G_DISCARD + j)])]
        if t >= 0:
            g[ix(K.G_SCRATCH + t)] -= 1
    npos = rt[K.R_NPOS]
    for s in range(rt[K.R_PLAYERS]):
        row = G_KNOWN + (seat * MAX_PLAYERS + s) * MAX_POS
        for p in range(npos):
            # without a branch, as unseen_pool_nb: an unknown card (or a pseudo-card, which has
            # no type) takes 0 from type 0
            d = g[ix(row + p)]
            k = np.int64(d >= 0)
            t = rt[ix(K.RT_TYPE + d * k)]
            k &= np.int64(t >= 0)
            g[ix(K.G_SCRATCH + t * k)] -= k


@hot
def unseen_types_of_key_nb(g, rt, key):
    """How many cards pairing by ``key`` (a card's) the seat has not seen, from the counts
    ``unseen_types_nb`` left: every card of the deck has a type, and the empty-position
    pseudo-cards, which have none, have keys no card has."""
    count = 0
    for t in range(rt[K.RT_TYPE_N]):
        if rt[ix(RT_KEY + rt[ix(K.RT_TYPE_CARD + t)])] == key:
            count += g[ix(K.G_SCRATCH + t)]
    return count


@hot
def unseen_of_key_nb(g, rt, seat, card):
    """unseen_types_of_key_nb of ``card``'s key, of the counts unseen_types_nb would leave, in
    the lean flow of heuristic's own build (unseen_pool_nb's ``lean``), from its counts of the
    cards in sight (codes.G_PUBLIC_TYPES): the deck's copies of the key's types (the ring of
    codes.RT_TYPE_NEXT from the card's) less those in sight, less the seat's own cards of that
    key it knows and the others have not seen."""
    key = rt[ix(RT_KEY + card)]
    first = rt[ix(K.RT_TYPE + card)]
    t = first
    count = 0
    while True:
        count += rt[ix(K.RT_TYPE_COPIES + t)] - g[ix(K.G_PUBLIC_TYPES + t)]
        t = rt[ix(K.RT_TYPE_NEXT + t)]
        if t == first:
            break
    seen = g[ix(K.G_SEEN_ALL + seat)]
    for p in range(rt[K.R_NPOS]):
        count -= np.int64(g[ix(G_KK + seat * MAX_POS + p)] == key) & ~(seen >> p) & 1
    return count


@hot(inline="always")
def estimate_nb(g, rt, seat, at, card, u):
    """The seat's estimate of its layout score (a float), with ``card`` imagined at ``at``
    (-1: as it is): an unknown card is worth ``u``; known cards pair among themselves by key
    under the pair scope (a pair scores 0, or its sum when negative pairs keep their value)."""
    return estimate_of_nb(g, rt, seat, seat, at, card, u)


# what one position adds to an estimate: a known card's value (or a kept negative pair's sum,
# added at its first card), one unknown card, or nothing (a pair, or a card already paired)
SHARE_VALUE, SHARE_UNKNOWN, SHARE_NONE = 0, 1, 2


@hot(inline="always")
def share_nb(g, rt, own, p, at, card, used):
    """(kind, value, used): position p's share of the estimate of the layout read at ``own``
    with ``card`` imagined at ``at``, given the positions ``used`` (paired with an earlier
    one), and ``used`` after it."""
    x = card if p == at else g[ix(own + p)]
    if x < 0:
        return SHARE_UNKNOWN, 0, used
    if (used >> p) & 1:
        return SHARE_NONE, 0, used
    vx = rt[ix(RT_VALUE + x)]
    partner = partner_nb(g, own, g, 0, 0, rt, p, x, at, card, used)
    if partner < 0:
        return SHARE_VALUE, vx, used
    used |= 1 << partner
    y = card if partner == at else g[ix(own + partner)]
    vy = rt[ix(RT_VALUE + y)]
    if rt[K.R_NEG_PAIRS_KEEP] != 0 and vx < 0 and vy < 0:
        return SHARE_VALUE, vx + vy, used
    return SHARE_NONE, 0, used


@hot
def estimate_of_nb(g, rt, seat, owner, at, card, u):
    """``estimate_nb`` of ``owner``'s layout as ``seat`` knows it."""
    own = G_KNOWN + (seat * MAX_PLAYERS + owner) * MAX_POS
    total = 0.0
    used = 0
    for p in range(rt[K.R_NPOS]):
        kind, v, used = share_nb(g, rt, own, p, at, card, used)
        if kind == SHARE_UNKNOWN:
            total += u
        elif kind == SHARE_VALUE:
            total += v
    return total


@hot(inline="always")
def component_nb(rt, p):
    """The positions connected to p by the pair scope's relation (codes.RT_REL), p's own
    included. A placement at p changes the shares of these positions only: a card pairs
    only with related positions, so the pairing never crosses from one component to another
    (under a column scope, a component is a column; under none, one position)."""
    comp = 1 << p
    while True:
        grown = comp
        left = comp
        while left != 0:
            q = trailing_zeros(left)
            left &= left - 1
            grown |= rt[ix(K.RT_REL + q)]
        if grown == comp:
            return comp
        comp = grown


@hot(inline="always")
def component_share_nb(g, rt, seat, comp, at, card, n, S):
    """n times the share of the positions ``comp`` (a union of components) in the seat's
    estimate with ``card`` at ``at`` and unknown cards worth S/n: an integer, so the shares
    of two layouts subtract exactly. One column of a two-row column scope is summed in closed
    form (estimate.column_estimate_nb: the same sum, a pair 0 or its values when negative
    pairs keep them, an unknown card S, a known one n times its value)."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        top = trailing_zeros(comp)
        bottom = top + rt[K.R_COLS]
        if comp == (1 << top) | (1 << bottom):
            a = card if top == at else g[ix(own + top)]
            b = card if bottom == at else g[ix(own + bottom)]
            return column_estimate_nb(rt[ix(RT_KEY + a)] if a >= 0 else -1,
                                      rt[ix(RT_VALUE + a)] if a >= 0 else 0,
                                      rt[ix(RT_KEY + b)] if b >= 0 else -1,
                                      rt[ix(RT_VALUE + b)] if b >= 0 else 0, a >= 0, b >= 0,
                                      n, S, rt[K.R_NEG_PAIRS_KEEP] != 0)
    total = 0
    used = 0
    left = comp
    while left != 0:
        p = trailing_zeros(left)
        left &= left - 1
        kind, v, used = share_nb(g, rt, own, p, at, card, used)
        if kind == SHARE_UNKNOWN:
            total += S
        elif kind == SHARE_VALUE:
            total += v * n
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


@hot
def pairs_somewhere_nb(g, rt, seat, card, lean=False):
    """Could ``card`` go where it pairs a card the seat knows (the situation a player sees at
    the table: "it matches one of mine")? (common.pairs_at_nb at each replaceable position,
    with the known cards of the card's key gathered once as a mask; ``lean``: the replaceable
    positions from the lean flow's face-up mask, and where a position relates to one other
    (lean_policy.vector_scope), its partner's key from the cache)"""
    if rt[K.R_PAIR_SCOPE] == K.PAIR_NONE:
        return False
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    npos = rt[K.R_NPOS]
    if lean and LP.vector_scope(rt):
        key = rt[ix(RT_KEY + card)]
        near = 0
        for p in range(npos):
            near |= np.int64(g[ix(G_KQ + seat * MAX_POS + p)] == key) << p
        return near & LP.replaceable_mask(g[ix(G_UPMASK + seat)], rt) != 0
    group = key_group_nb(g, own, g, 0, 0, rt, rt[ix(RT_KEY + card)])
    if group == 0:
        return False
    if lean:
        near = 0
        for p in range(npos):
            near |= np.int64(rt[ix(K.RT_REL + p)] & group & ~(1 << p) != 0) << p
        return near & LP.replaceable_mask(g[ix(G_UPMASK + seat)], rt) != 0
    for p in range(npos):
        if rt[ix(K.RT_REL + p)] & group & ~(1 << p) != 0 and can_replace_nb(g, rt, seat, p):
            return True
    return False


@hot(inline="always")
def age_nb(g, seat, p):
    slot = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_AGE + p // AGE_PER_SLOT
    return (g[ix(slot)] >> (4 * (p % AGE_PER_SLOT))) & AGE_MAX


@hot(inline="always")
def reset_age_nb(g, seat, p):
    slot = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_AGE + p // AGE_PER_SLOT
    g[ix(slot)] &= ~(AGE_MAX << (4 * (p % AGE_PER_SLOT)))


@hot
def flip_nb(g, rt, seat):
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
        reset_age_nb(g, seat, best)
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
