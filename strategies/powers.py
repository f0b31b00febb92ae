"""The built-ins' decisions in power-card games (docs/policies.md#power-cards): the compiled
form of strategies/reference/powers.py's ``decide()`` and its helpers, which the reference
greedy and knock-threshold play. greedy, knock-threshold and forgetful answer with their own
pools; every other built-in goes through ``others_power_nb`` (the same rule with greedy's pool,
its own placement choice standing in for greedy's). Random answers uniformly and never comes
here.

Views (the conventions the power engine keeps): every position without a card holds the
pseudo-card EMPTY0 + p, face up, known to all, worth 0; positions from rt[R_NPOS] on may hold
real cards (a grown layout), scored without pairs. So the loops here run over the positions
that may hold a card, up to the span the flow keeps (layout.span_nb: all MAX_POS where nothing
keeps it), and "the seat's cards" are its non-empty positions.

Estimates are kept multiplied by n = |U| as the reference's _View does: a known card is worth
value * max(n, 1), an unknown one S (0 when the pool is empty).
"""

from __future__ import annotations

from simulator.game import cards as C
from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LEGAL, G_MEMORY, G_PEEKED, G_PUB,
                                  G_SCRATCH, G_UP, MAX_PLAYERS, MAX_POS, RT_DECK, RT_KEY,
                                  RT_VALUE)
from simulator.kernel.estimate import (column_estimate_nb, estimate_cards_nb, tally_nb,
                                        trailing_zeros)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb, related_nb, seat_after_nb, span_nb
from simulator.kernel.flow.power_effects import DUTCH_BY_RANK
from strategies.common import (decide_with_nb, lowest_legal_nb, MEM_FORGOTTEN, MEM_FORGOTTEN_OPP,
                               MEM_PLAN_FIRST, MEM_PLAN_HELD, MEM_PLAN_NOMINATE, MEM_PLAN_OWN,
                               MEM_PLAN_SNAP, MEM_PLAN_THEIRS, FORGET_OPPONENTS, PAR_BLIND_SKIP,
                               PAR_BLIND_USE, PAR_MATCH_USE, PAR_POWER_USE, PAR_SNAP_OPP_USE,
                               PAR_SNAP_USE, PLAN_NOMINATE_SLOTS, PLAN_PER_SLOT, rank_nb)

KIND_GREEDY, KIND_KNOCK, KIND_OTHER = 0, 1, 2   # who asks: greedy calls; the others do not
# a seat's say on a decision about a card (say_nb): 1 always (use the power, snap, match), 0
# never, USE_RULE: the greedy-family rule (the only answer but the guide's tables)
USE_RULE = -1
# ``say``: the seat's rank tables that may overrule the rule, a tuple of rank masks in the
# guide's parameter order (PAR_POWER_USE .. PAR_BLIND_SKIP): for each decision its "always"
# table, then its "never" table. SAY_*: where each decision's pair starts.
SAY_POWER = 0                                # the power of a held card it does not place
SAY_SNAP = PAR_SNAP_USE - PAR_POWER_USE      # a snap with an own card, by the discard's rank
SAY_SNAP_OPP = PAR_SNAP_OPP_USE - PAR_POWER_USE   # ... with an opponent's card (Cumbia)
SAY_MATCH = PAR_MATCH_USE - PAR_POWER_USE    # a turn match with cards it knows
SAY_BLIND = PAR_BLIND_USE - PAR_POWER_USE    # Cabo: a blind match
SAY_LEN = PAR_BLIND_SKIP - PAR_POWER_USE + 1
NO_SAY = (0,) * SAY_LEN   # the rule everywhere: every built-in but the guide
RANK_K = C.RANKS.index("K")
COMBINE_GAINS = tuple(C.RANKS.index(name) for name in K.GREEDY_COMBINE_GAINS)
COMBINE_RANKS = tuple(C.RANKS.index(name) for name in K.GREEDY_COMBINE_ORDER)
# a layout as the seat imagines it (one decision's work: g[G_SCRATCH + p], card or -1)
ROW = G_SCRATCH
NOM_BITS = 10
NOM_MASK = (1 << NOM_BITS) - 1


@hot(inline="always")
def power_game_nb(rt):
    """The rules the power-card engine plays (rules.uses_power_engine): the built-ins answer
    with the power rules there, as the reference does."""
    return rt[K.R_POWER_SET] != 0 or rt[K.R_SNAP_MODE] != 0 or rt[K.R_TURN_MATCH] != 0 or \
        (rt[K.R_END_TRIGGERS] & (K.END_CALL | K.END_EMPTY_LAYOUT | K.END_STOCK_EXHAUSTED)) != 0


@hot(inline="always")
def mem_nb(seat, i):
    return G_MEMORY + seat * K.MEMORY_SLOTS + i


@hot(inline="always")
def say_nb(say, which, card):
    """The seat's say (``say``, its SAY_* pair ``which``) on a decision about ``card``'s rank:
    1 always, 0 never, USE_RULE the rule (also for no card)."""
    if card < 0:
        return USE_RULE
    r = rank_nb(card)
    if (say[which] >> r) & 1:
        return 1
    if (say[which + 1] >> r) & 1:
        return 0
    return USE_RULE


# ---- what the seat knows (forgetful: less) ---------------------------------------------------
@hot(inline="always")
def hidden_nb(g, rt, me, s, p, forget):
    """Has forgetful forgotten the face-down card at (s, p)? (face-up cards are never
    forgotten)"""
    if not forget or g[ix(G_UP + s * MAX_POS + p)] != 0:
        return False
    if s == me:
        return (g[ix(mem_nb(me, MEM_FORGOTTEN))] >> p) & 1 != 0
    k = (s - me) % rt[K.R_PLAYERS]
    if k > FORGET_OPPONENTS:
        return False
    return (g[ix(mem_nb(me, MEM_FORGOTTEN_OPP + k - 1))] >> p) & 1 != 0


@hot(inline="always")
def known_nb(g, rt, me, s, p, forget):
    """The card ``me`` knows at (s, p), or -1."""
    c = g[ix(G_KNOWN + (me * MAX_PLAYERS + s) * MAX_POS + p)]
    if c >= 0 and forget and hidden_nb(g, rt, me, s, p, forget):
        return -1
    return c


@hot(inline="always")
def is_card_nb(g, rt, me, s, p, forget):
    """Does (s, p) hold a card (not an empty position's pseudo-card)?"""
    return known_nb(g, rt, me, s, p, forget) < K.EMPTY0


@hot(inline="always")
def est_nb(g, rt, me, s, p, n, S, forget):
    c = known_nb(g, rt, me, s, p, forget)
    if c < 0:
        return S if n > 0 else 0
    return rt[ix(RT_VALUE + c)] * max(n, 1)


@hot(inline="always")
def shielded_nb(g, s):
    return (g[ix(G_PUB + K.PUB_SHIELDED)] >> s) & 1 != 0


@hot(inline="always")
def opponent_slots_nb(rt):
    """How many slots opponent_slot_nb numbers: every position of every opponent."""
    return (rt[K.R_PLAYERS] - 1) * MAX_POS


@hot(inline="always")
def opponent_slot_nb(g, rt, me, i):
    """(seat, pos) of slot i of the opponents' layouts, in turn order after ``me`` and then
    by position; seat -1 while that opponent is shielded (a power may not reach it)."""
    s = (me + 1 + i // MAX_POS) % rt[K.R_PLAYERS]
    return (-1 if shielded_nb(g, s) else s), i % MAX_POS


@hot
def worst_own_nb(g, rt, me, n, S, forget, cand):
    """Of the positions in bit mask ``cand``, the own one with the highest estimate (ties: the
    lowest); -1 for none."""
    best = -1
    best_e = 0
    while cand != 0:
        p = trailing_zeros(cand)
        cand &= cand - 1
        e = est_nb(g, rt, me, me, p, n, S, forget)
        if best < 0 or e > best_e:
            best, best_e = p, e
    return best


@hot
def best_of_nb(g, rt, me, s, n, S, forget, cand):
    """Of the positions in ``cand``, seat s's one with the lowest estimate (ties: the lowest)."""
    best = -1
    best_e = 0
    while cand != 0:
        p = trailing_zeros(cand)
        cand &= cand - 1
        e = est_nb(g, rt, me, s, p, n, S, forget)
        if best < 0 or e < best_e:
            best, best_e = p, e
    return best


@hot
def cards_mask_nb(g, rt, me, s, forget):
    m = 0
    for p in range(span_nb(g)):
        if is_card_nb(g, rt, me, s, p, forget):
            m |= 1 << p
    return m


@hot
def legal_positions_nb(g):
    m = 0
    for p in range(MAX_POS):
        if g[ix(G_LEGAL + p)]:
            m |= 1 << p
    return m


@hot
def best_opponent_card_nb(g, rt, me, n, S, forget):
    """1 + seat*16 + pos of the lowest-estimated card of an unshielded opponent (turn order,
    then position; the first of equals), 0 for none."""
    best = 0
    best_e = 0
    players = rt[K.R_PLAYERS]
    span = span_nb(g)
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        if shielded_nb(g, s):
            continue
        for p in range(span):
            if is_card_nb(g, rt, me, s, p, forget):
                e = est_nb(g, rt, me, s, p, n, S, forget)
                if best == 0 or e < best_e:
                    best, best_e = 1 + s * MAX_POS + p, e
    return best


@hot
def best_receiver_nb(g, rt, me, card, n, S, forget, cand):
    """(p, n*gain): of the own positions in bit mask ``cand``, the one where ``card`` (-1: a
    card it does not know) would lower its estimate most, in place of the card there (pairs
    counted); ties to the lowest; (-1, 0) for none."""
    hide = own_hide_nb(g, me, forget)
    now = now_nb(g, rt, me, n, S, hide)
    best = -1
    best_gain = 0
    while cand != 0:
        p = trailing_zeros(cand)
        cand &= cand - 1
        gain = placement_gain_nb(g, rt, me, p, card, n, S, hide, now)
        if best < 0 or gain > best_gain:
            best, best_gain = p, gain
    return best, best_gain


@hot
def plan_card_nb(g, rt, me, forget):
    """The card at the planned opponent position (MEM_PLAN_THEIRS) as it knows it (-1 when it
    does not), -2 when nothing is planned."""
    theirs = g[ix(mem_nb(me, MEM_PLAN_THEIRS))]
    if theirs == 0:
        return -2
    return known_nb(g, rt, me, (theirs - 1) // MAX_POS, (theirs - 1) % MAX_POS, forget)


@hot
def swap_gain_nb(g, rt, me, n, S, forget):
    """n times how much a blind swap lowers its estimate: the opponents' lowest-estimated
    card into its position where that card gains most."""
    mine = cards_mask_nb(g, rt, me, me, forget)
    theirs = best_opponent_card_nb(g, rt, me, n, S, forget)
    if mine == 0 or theirs == 0:
        return 0
    t = theirs - 1
    p, gain = best_receiver_nb(g, rt, me, known_nb(g, rt, me, t // MAX_POS, t % MAX_POS, forget),
                               n, S, forget, mine)
    return gain


@hot
def first_unknown_down_nb(g, rt, me, s, forget):
    for p in range(span_nb(g)):
        if known_nb(g, rt, me, s, p, forget) < 0 and g[ix(G_UP + s * MAX_POS + p)] == 0:
            return p
    return -1


@hot
def peek_target_nb(g, rt, me, include_self, forget):
    """1 + seat*16 + pos of the first card it does not know (its own first when
    ``include_self``, then unshielded opponents in turn order); 0 for none."""
    if include_self:
        p = first_unknown_down_nb(g, rt, me, me, forget)
        if p >= 0:
            return 1 + me * MAX_POS + p
    players = rt[K.R_PLAYERS]
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        if shielded_nb(g, s):
            continue
        p = first_unknown_down_nb(g, rt, me, s, forget)
        if p >= 0:
            return 1 + s * MAX_POS + p
    return 0


@hot
def any_known_positive_nb(g, rt, me, n, S, forget):
    """Does it know an own card with an estimate above 0?"""
    for p in range(span_nb(g)):
        if known_nb(g, rt, me, me, p, forget) >= 0 and is_card_nb(g, rt, me, me, p, forget) \
                and est_nb(g, rt, me, me, p, n, S, forget) > 0:
            return True
    return False


@hot
def first_known_match_nb(g, rt, me, s, key, n, S, forget, positive):
    """The first card of seat s it knows with pairing key ``key`` (with ``positive``: and an
    estimate above 0), -1 for none."""
    for p in range(span_nb(g)):
        c = known_nb(g, rt, me, s, p, forget)
        if 0 <= c < K.EMPTY0 and rt[ix(RT_KEY + c)] == key and \
                (not positive or est_nb(g, rt, me, s, p, n, S, forget) > 0):
            return p
    return -1


@hot
def wants_single_nb(g, rt, me, effect, held, n, S, forget):
    """powers.wants_single: use a power it may use (when it does not place the card), holding
    ``held`` (every effect but the Dutch 2's)?"""
    if effect == K.POW_PEEK_OWN:
        t = peek_target_nb(g, rt, me, True, forget)
        return t != 0 and (t - 1) // MAX_POS == me
    if effect == K.POW_PEEK_OPP:
        return peek_target_nb(g, rt, me, False, forget) != 0
    if effect == K.POW_PEEK_ANY:
        return peek_target_nb(g, rt, me, True, forget) != 0
    if effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_ANY_TWO:
        return swap_gain_nb(g, rt, me, n, S, forget) > 0
    if effect == K.POW_SWAP_AFTER_PEEK_OPP:
        mine = cards_mask_nb(g, rt, me, me, forget)
        return mine != 0 and \
            est_nb(g, rt, me, me, worst_own_nb(g, rt, me, n, S, forget, mine), n, S, forget) > S
    if effect == K.POW_PEEK_BOTH_SWAP or effect == K.POW_DRAW_TWO:
        return True
    if effect == K.POW_SHIELD:
        return exposed_nb(g, rt, me, n, S, forget)
    if effect == K.POW_CANCEL_FINAL:
        return behind_nb(g, rt, me, seat_estimate_nb(g, rt, me, me, n, S, forget), n, S, forget)
    if effect == K.POW_GIVE_OR_REMOVE:
        p, gain = removal_nb(g, rt, me, n, S, forget)
        return gain > 0 or giveable_nb(g, rt, me)
    if effect == K.POW_SHUFFLE_OPP:
        return shuffle_target_nb(g, rt, me) >= 0
    if effect == K.POW_FLIP_OPP:
        return flip_target_nb(g, rt, me, forget) != 0
    if effect == K.POW_SWAP_LINE:
        return line_target_nb(g, rt, me, n, S, forget)[0] >= 0
    if effect == K.POW_EXCHANGE_THIS:
        return exchange_gain_nb(g, rt, me, held, n, S, forget) > 0
    return False


@hot
def wants_power_nb(g, rt, me, effect, held, n, S, forget):
    """powers.wants_power: the Dutch 2 when it wants one of the powers it may combine."""
    if effect != K.POW_COMBINE:
        return wants_single_nb(g, rt, me, effect, held, n, S, forget)
    return combine_choice_nb(g, rt, me, held, n, S, forget, False) >= 0


@hot(inline="always")
def combinable_nb(g, rt, r, legal_only):
    """May the Dutch 2 take rank r: legal now (``legal_only``), or let by the rules?"""
    return g[ix(G_LEGAL + r)] != 0 if legal_only else (rt[K.R_COMBINABLE] >> r) & 1 != 0


@hot
def combine_gain_nb(g, rt, me, held, n, S, forget, legal_only):
    """(rank, n*gain): of the Dutch 2's powers that move cards (GREEDY_COMBINE_GAINS: the
    blind swap, the line swap, the exchange), the one that lowers its estimate most
    (exchange_gain_nb for the 9); (-1, 0) when none does."""
    best = -1
    best_gain = 0
    for r in COMBINE_GAINS:
        if combinable_nb(g, rt, r, legal_only):
            effect = DUTCH_BY_RANK[r]
            if effect == K.POW_SWAP_OWN_OPP_BLIND:
                gain = swap_gain_nb(g, rt, me, n, S, forget)
            elif effect == K.POW_SWAP_LINE:
                gain = line_target_nb(g, rt, me, n, S, forget)[1]
            else:
                gain = exchange_gain_nb(g, rt, me, held, n, S, forget)
            if gain > best_gain:
                best, best_gain = r, gain
    return best, best_gain


@hot
def combine_choice_nb(g, rt, me, held, n, S, forget, legal_only):
    """The Dutch 2's next power, among the legal ranks (``legal_only``) or those the rules
    let it combine: the black king when it wants it, else the power that moves cards with
    the largest gain (combine_gain_nb), else the first of GREEDY_COMBINE_ORDER it wants; -1
    for none."""
    if combinable_nb(g, rt, RANK_K, legal_only) and \
            wants_single_nb(g, rt, me, K.POW_CANCEL_FINAL, held, n, S, forget):
        return RANK_K
    r, gain = combine_gain_nb(g, rt, me, held, n, S, forget, legal_only)
    if r >= 0:
        return r
    for r in COMBINE_RANKS:
        if combinable_nb(g, rt, r, legal_only) and \
                wants_single_nb(g, rt, me, DUTCH_BY_RANK[r], held, n, S, forget):
            return r
    return -1


# ---- what a layout is worth to the seat ------------------------------------------------------
@hot(inline="always")
def own_hide_nb(g, me, forget):
    """The own positions forgetful has forgotten (0 for every other seat)."""
    return g[ix(mem_nb(me, MEM_FORGOTTEN))] if forget else 0


@hot
def load_row_nb(g, rt, me, s, forget):
    """ROW = what ``me`` knows of seat s's layout (card or -1 at each position of the
    span)."""
    for p in range(span_nb(g)):
        g[ix(ROW + p)] = known_nb(g, rt, me, s, p, forget)


@hot
def row_total_nb(g, rt, n, S):
    """GreedyPolicy.estimate of the layout in ROW: the grid's estimate, plus each position
    beyond the grid unpaired (S when unknown)."""
    total = row_estimate_nb(g, rt, ROW, ROW, -1, -1, n, S, 0)
    for p in range(rt[K.R_NPOS], span_nb(g)):
        c = g[ix(ROW + p)]
        total += S if c < 0 else rt[ix(RT_VALUE + c)] * n
    return total


@hot
def seat_estimate_nb(g, rt, me, s, n, S, forget):
    """n times seat s's score as ``me`` estimates it from what it knows of the layout."""
    load_row_nb(g, rt, me, s, forget)
    return row_total_nb(g, rt, n, S)


@hot
def behind_nb(g, rt, me, mine, n, S, forget):
    """Is some opponent's estimate below ``mine`` (n units)?"""
    for s in range(rt[K.R_PLAYERS]):
        if s != me and seat_estimate_nb(g, rt, me, s, n, S, forget) < mine:
            return True
    return False


@hot
def leader_nb(g, rt, me, n, S, forget):
    """Of the legal seats but its own (DP_TARGET_SEAT), the one with the lowest estimate
    (turn order on ties); -1 for none."""
    players = rt[K.R_PLAYERS]
    best = -1
    best_e = 0
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        if g[ix(G_LEGAL + s)]:
            e = seat_estimate_nb(g, rt, me, s, n, S, forget)
            if best < 0 or e < best_e:
                best, best_e = s, e
    return best


@hot
def removal_nb(g, rt, me, n, S, forget):
    """(p, n*gain): the own card whose removal (its position emptied) lowers its estimate
    most, ties to the lowest position; (-1, 0) when it has no card."""
    hide = own_hide_nb(g, me, forget)
    now = now_nb(g, rt, me, n, S, hide)
    best = -1
    best_gain = 0
    for p in range(span_nb(g)):
        if is_card_nb(g, rt, me, me, p, forget):
            gain = placement_gain_nb(g, rt, me, p, K.EMPTY0 + p, n, S, hide, now)
            if best < 0 or gain > best_gain:
                best, best_gain = p, gain
    return best, best_gain


@hot(inline="always")
def can_draw_nb(g, rt):
    """Can a card be drawn from the stock (reshuffling the discard pile if need be)?"""
    return g[ix(G_PUB + K.PUB_STOCK_N)] > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and
                                                g[ix(G_PUB + K.PUB_DISCARD_N)] > 1)


@hot
def giveable_nb(g, rt, me):
    """May the Dutch ace give a card: the stock can be drawn and an unshielded opponent has
    room (an empty position)?"""
    if not can_draw_nb(g, rt):
        return False
    players = rt[K.R_PLAYERS]
    span = span_nb(g)
    for s in range(players):
        if s != me and not shielded_nb(g, s):
            if span < MAX_POS:   # the positions beyond the span are empty
                return True
            for p in range(span):
                if g[ix(G_KNOWN + (me * MAX_PLAYERS + s) * MAX_POS + p)] >= K.EMPTY0:
                    return True
    return False


# ---- the moves that hurt an opponent or end a lap ------------------------------------------
@hot
def peeked_down_nb(g, s):
    """(k, d): seat s has d face-down cards, k of which it was seen peeking at (public)."""
    k = 0
    d = 0
    for p in range(span_nb(g)):
        if g[ix(G_UP + s * MAX_POS + p)] == 0:
            d += 1
            if (g[ix(G_PEEKED + s * MAX_POS + p)] >> s) & 1:
                k += 1
    return k, d


@hot
def shuffle_target_nb(g, rt, me):
    """The unshielded opponent with two face-down cards or more seen peeking at the most of
    them, one at least (turn order on ties); -1 for none."""
    players = rt[K.R_PLAYERS]
    best = -1
    most = 0
    for i in range(1, players):
        s = seat_after_nb(me, i, players)
        if not shielded_nb(g, s):
            k, d = peeked_down_nb(g, s)
            if d >= 2 and k > most:
                best, most = s, k
    return best


@hot
def flip_target_nb(g, rt, me, forget):
    """1 + seat*16 + pos of the first face-down card of an unshielded opponent (turn order,
    positions ascending) that it does not know and its owner was seen peeking at; 0 for
    none."""
    for i in range(opponent_slots_nb(rt)):
        s, p = opponent_slot_nb(g, rt, me, i)
        if s >= 0 and g[ix(G_UP + s * MAX_POS + p)] == 0 and \
                (g[ix(G_PEEKED + s * MAX_POS + p)] >> s) & 1 and \
                known_nb(g, rt, me, s, p, forget) < 0:
            return 1 + s * MAX_POS + p
    return 0


@hot
def line_mask_nb(rt, k):
    """The positions of grid line k: rows 0..R-1, then columns R..R+C-1."""
    rows = rt[K.R_ROWS]
    cols = rt[K.R_COLS]
    m = 0
    if k < rows:
        for c in range(cols):
            m |= 1 << (k * cols + c)
    else:
        for r in range(rows):
            m |= 1 << (r * cols + k - rows)
    return m


@hot
def line_gain_nb(g, rt, me, s, k, n, S, forget):
    """n times how much swapping its line k with seat s's lowers its grid estimate (the
    cards that come as it knows them)."""
    load_row_nb(g, rt, me, me, forget)
    now = row_estimate_nb(g, rt, ROW, ROW, -1, -1, n, S, 0)
    line = line_mask_nb(rt, k)
    for p in range(rt[K.R_NPOS]):
        if (line >> p) & 1:
            g[ix(ROW + p)] = known_nb(g, rt, me, s, p, forget)
    return now - row_estimate_nb(g, rt, ROW, ROW, -1, -1, n, S, 0)


@hot
def best_line_nb(g, rt, me, s, n, S, forget):
    """(k, n*gain) of the line whose swap with seat s gains most (the lowest of equals)."""
    best = -1
    best_gain = 0
    for k in range(rt[K.R_ROWS] + rt[K.R_COLS]):
        gain = line_gain_nb(g, rt, me, s, k, n, S, forget)
        if best < 0 or gain > best_gain:
            best, best_gain = k, gain
    return best, best_gain


@hot
def line_target_nb(g, rt, me, n, S, forget):
    """(seat, n*gain): the unshielded opponent whose best line swap lowers its estimate most,
    by a point at least (turn order on ties); (-1, 0) for none."""
    if rt[K.R_SWAP_LINE_OK] == 0:
        return -1, 0
    players = rt[K.R_PLAYERS]
    best = -1
    best_gain = max(n, 1) - 1
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        if not shielded_nb(g, s):
            line, gain = best_line_nb(g, rt, me, s, n, S, forget)
            if gain > best_gain:
                best, best_gain = s, gain
    return best, (best_gain if best >= 0 else 0)


@hot
def exchange_target_nb(g, rt, me, n, S, forget):
    """The Dutch 9's card: (1 + seat*16 + pos, n*score) of the unshielded opponent card it
    knows whose best placement gain less its value is largest (exchange_gain_nb but for the
    held card's value), turn order, then positions, on ties; (0, 0) when it would place
    none."""
    hide = own_hide_nb(g, me, forget)
    now = now_nb(g, rt, me, n, S, hide)
    best = 0
    best_score = 0
    for i in range(opponent_slots_nb(rt)):
        s, q = opponent_slot_nb(g, rt, me, i)
        c = known_nb(g, rt, me, s, q, forget) if s >= 0 else -1
        if c < 0 or c >= K.EMPTY0:
            continue
        p = power_best_placement_nb(g, rt, me, c, n, S, hide)
        if p >= 0:
            score = placement_gain_nb(g, rt, me, p, c, n, S, hide, now) - \
                rt[ix(RT_VALUE + c)] * n
            if best == 0 or score > best_score:
                best, best_score = 1 + s * MAX_POS + q, score
    return best, best_score


@hot
def exchange_gain_nb(g, rt, me, held, n, S, forget):
    """n times what the Dutch 9 (or the 2 that plays it) gains when ``held`` goes to the
    opponent for exchange_target_nb's card: its placement gain, less what the opponent gains
    (that card's value less the held card's); 0 when it has no card to take."""
    x, score = exchange_target_nb(g, rt, me, n, S, forget)
    if x == 0 or held < 0:
        return 0
    return max(score + rt[ix(RT_VALUE + held)] * n, 0)


@hot
def exposed_nb(g, rt, me, n, S, forget):
    """The shield's reason: an own card below the pool's mean that an opponent knows (face
    up, or seen peeked at by another seat), which an opponent's swap would take."""
    for p in range(span_nb(g)):
        c = known_nb(g, rt, me, me, p, forget)
        if 0 <= c < K.EMPTY0 and rt[ix(RT_VALUE + c)] * max(n, 1) < S and \
                (g[ix(G_UP + me * MAX_POS + p)] != 0 or
                 (g[ix(G_PEEKED + me * MAX_POS + p)] & ~(1 << me)) != 0):
            return True
    return False


@hot
def beats_placement_nb(g, rt, me, effect, held, place, n, S, forget):
    """Is the held card's power worth more than placing it at (legal) ``place``, by how much
    each lowers the estimate? The Dutch ace's removal when it lowers it more; the black king
    when the seat would not be the lowest even with the king placed; the Dutch 2 for the
    king's reason, or when one of its powers that move cards gains more (combine_gain_nb)."""
    if effect != K.POW_GIVE_OR_REMOVE and effect != K.POW_CANCEL_FINAL and \
            effect != K.POW_COMBINE:
        return False
    hide = own_hide_nb(g, me, forget)
    gain = placement_gain_nb(g, rt, me, place, held, n, S, hide,
                             now_nb(g, rt, me, n, S, hide))
    if effect == K.POW_GIVE_OR_REMOVE:
        p, removed = removal_nb(g, rt, me, n, S, forget)
        return removed > gain
    combine = effect == K.POW_COMBINE
    if (not combine or ((rt[K.R_COMBINABLE] >> RANK_K) & 1 and
                        g[ix(G_PUB + K.PUB_ENDER)] >= 0)) and \
            behind_nb(g, rt, me, seat_estimate_nb(g, rt, me, me, n, S, forget) - gain, n, S,
                      forget):
        return True
    return combine and combine_gain_nb(g, rt, me, held, n, S, forget, False)[1] > gain


# ---- Cactus's turn on the top discard's power; Cabo's blind matches ------------------------
@hot
def turn_power_wanted_nb(g, rt, me, n, S, forget):
    """A whole turn on the top discard's unused power (Cactus), instead of a draw: a blind
    swap it wants (a peek is not worth a turn: docs/policies.md#power-cards)."""
    effect = rt[ix(K.RT_EFFECT + g[ix(G_DISCARD + g[ix(G_PUB + K.PUB_DISCARD_N)] - 1)])]
    return (effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_ANY_TWO) and \
        swap_gain_nb(g, rt, me, n, S, forget) > 0


@hot(inline="always")
def _seen_nb(rt, c, key, m, v, n, S):
    """key_pool_nb's counts less card ``c`` (-1, or an empty position's pseudo-card: none)."""
    if 0 <= c < K.EMPTY0:
        n -= 1
        S -= rt[ix(RT_VALUE + c)]
        if rt[ix(RT_KEY + c)] == key:
            m -= 1
            v -= rt[ix(RT_VALUE + c)]
    return m, v, n, S


@hot
def key_pool_nb(g, rt, me, held, forget):
    """(m, v, n, S): the cards ``me`` has not seen (the deck but the discard pile, the held
    card and every card it knows in a layout): n cards worth S, m of them of the held card's
    pairing key, worth v."""
    key = rt[ix(RT_KEY + held)]
    m = 0
    v = 0
    t = rt[ix(K.RT_TYPE + held)]   # the deck's cards of the key: its types' copies
    while True:
        copies = rt[ix(K.RT_TYPE_COPIES + t)]
        m += copies
        v += copies * rt[ix(RT_VALUE + rt[ix(K.RT_TYPE_CARD + t)])]
        t = rt[ix(K.RT_TYPE_NEXT + t)]
        if t == rt[ix(K.RT_TYPE + held)]:
            break
    n = rt[K.R_NCARDS]
    S = rt[K.R_DECK_SUM]
    n_disc = g[ix(G_PUB + K.PUB_DISCARD_N)]
    for j in range(n_disc):
        m, v, n, S = _seen_nb(rt, g[ix(G_DISCARD + j)], key, m, v, n, S)
    m, v, n, S = _seen_nb(rt, held, key, m, v, n, S)
    span = span_nb(g)
    for s in range(rt[K.R_PLAYERS]):
        for p in range(span):
            m, v, n, S = _seen_nb(rt, known_nb(g, rt, me, s, p, forget), key, m, v, n, S)
    return m, v, n, S


@hot
def blind_match_nb(g, rt, me, held, forget, miss):
    """Cabo: 1 + seat*16 + pos of a card it does not know to match ``held`` against, when the
    chance that it has the held card's key (m of the n cards it has not seen) pays for the
    penalty cards of a miss (each worth S/n, counted ``miss`` times; none when no card can
    be drawn): its own first face-down card it does not know
    (a hit removes a card of the key: v/m), else an opponent's (turn order; a hit gives that
    opponent its worst card); 0 for none."""
    m, v, n, S = key_pool_nb(g, rt, me, held, forget)
    if m <= 0 or n <= 0:
        return 0
    cost = (n - m) * rt[K.R_MATCH_FAIL_CARDS] * S * miss if can_draw_nb(g, rt) else 0.0
    p = first_unknown_down_nb(g, rt, me, me, forget)
    if p >= 0 and v * n > cost:
        return 1 + me * MAX_POS + p
    worst = 0
    for q in range(span_nb(g)):
        c = known_nb(g, rt, me, me, q, forget)
        if c < K.EMPTY0:
            worst = max(worst, S if c < 0 else rt[ix(RT_VALUE + c)] * n)
    if m * worst <= cost:
        return 0
    players = rt[K.R_PLAYERS]
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        q = first_unknown_down_nb(g, rt, me, s, forget)
        if q >= 0:
            return 1 + s * MAX_POS + q
    return 0


# ---- the plan (strategies/common.py MEM_PLAN_*) --------------------------------------------
@hot
def clear_plan_nb(g, me):
    for i in range(MEM_PLAN_SNAP, MEM_PLAN_NOMINATE + PLAN_NOMINATE_SLOTS):
        g[ix(mem_nb(me, i))] = 0


@hot
def use_power_nb(g, me, power, held):
    """A_POWER: the plan starts anew; the Dutch 2 remembers the card it uses (its choices
    are asked without it)."""
    clear_plan_nb(g, me)
    if power == K.POW_COMBINE:
        g[ix(mem_nb(me, MEM_PLAN_HELD))] = held + 1
    return K.A_POWER


@hot(inline="always")
def nominee_nb(g, me, i):
    slot = g[ix(mem_nb(me, MEM_PLAN_NOMINATE + i // PLAN_PER_SLOT))]
    return (slot >> (NOM_BITS * (i % PLAN_PER_SLOT))) & NOM_MASK


@hot(inline="always")
def set_nominee_nb(g, me, i, v):
    a = mem_nb(me, MEM_PLAN_NOMINATE + i // PLAN_PER_SLOT)
    shift = NOM_BITS * (i % PLAN_PER_SLOT)
    g[ix(a)] = (g[ix(a)] & ~(NOM_MASK << shift)) | (v << shift)


@hot
def plan_nominate_nb(g, rt, me, forget, key, pablo, group):
    """Writes plan["nominate"] (done emptied): Pablo: its own positions in ``group``; Cabo:
    every card it knows of ``key``, its own first, then the others in turn order. Returns
    how many (at most the plan's room)."""
    for i in range(PLAN_NOMINATE_SLOTS):
        g[ix(mem_nb(me, MEM_PLAN_NOMINATE + i))] = 0
    count = 0
    room = PLAN_NOMINATE_SLOTS * PLAN_PER_SLOT
    players = rt[K.R_PLAYERS]
    span = span_nb(g)
    for k in range(players if not pablo else 1):
        s = seat_after_nb(me, k, players)
        for p in range(span):
            if pablo:
                take = (group >> p) & 1 != 0
            else:
                c = known_nb(g, rt, me, s, p, forget)
                take = 0 <= c < K.EMPTY0 and rt[ix(RT_KEY + c)] == key
            if take and count < room:
                set_nominee_nb(g, me, count, 1 + s * MAX_POS + p)
                count += 1
    return count


@hot
def pablo_group_nb(g, rt, me, held, forget, say):
    """powers.pablo_nomination: the positions (bit mask) of its known own cards of the key
    whose two or more known cards total the most, above the held card's value (``say``'s
    match tables, by the rank of those cards: any total when always, none when never); 0 for
    none."""
    best = 0
    best_total = 0
    least = rt[ix(RT_VALUE + held)] if held >= 0 else 0
    span = span_nb(g)
    for p in range(span):
        c = known_nb(g, rt, me, me, p, forget)
        if c < 0 or c >= K.EMPTY0:
            continue
        key = rt[ix(RT_KEY + c)]
        first = True
        for q in range(p):
            d = known_nb(g, rt, me, me, q, forget)
            if 0 <= d < K.EMPTY0 and rt[ix(RT_KEY + d)] == key:
                first = False
                break
        if not first:
            continue   # its key's group was weighed at its first card
        group = 0
        count = 0
        total = 0
        for q in range(p, span):
            d = known_nb(g, rt, me, me, q, forget)
            if 0 <= d < K.EMPTY0 and rt[ix(RT_KEY + d)] == key:
                group |= 1 << q
                count += 1
                total += rt[ix(RT_VALUE + d)]
        if count < 2:
            continue
        use = say_nb(say, SAY_MATCH, c)
        if use == 1 or (use == USE_RULE and total > least):
            if best == 0 or total > best_total:
                best, best_total = group, total
    return best


@hot
def plan_match_nb(g, rt, me, held, forget):
    """Would it make a turn match with the held card (powers.decide)? When it would, its
    nominations are planned (Pablo: its known cards of the key worth most together; Cabo:
    every card it knows of the held card's key)."""
    return plan_match_say_nb(g, rt, me, held, forget, NO_SAY)


@hot
def plan_match_say_nb(g, rt, me, held, forget, say):
    """plan_match_nb with ``say``'s match tables: Pablo's by the rank of its cards that the
    held card replaces (pablo_group_nb), Cabo's by the held card's rank (never: no match;
    always: the rule's, which matches whenever it knows a card of the key)."""
    if rt[K.R_TURN_MATCH] == K.TMATCH_PABLO:
        group = pablo_group_nb(g, rt, me, held, forget, say)
        if group == 0:
            return False
        plan_nominate_nb(g, rt, me, forget, 0, True, group)
        return True
    return held >= 0 and say_nb(say, SAY_MATCH, held) != 0 and \
        plan_nominate_nb(g, rt, me, forget, rt[ix(RT_KEY + held)], False, 0) > 0


@hot
def knows_key_nb(g, rt, me, key, forget):
    """Does it know a card of pairing key ``key`` in any layout?"""
    span = span_nb(g)
    for s in range(rt[K.R_PLAYERS]):
        for p in range(span):
            c = known_nb(g, rt, me, s, p, forget)
            if 0 <= c < K.EMPTY0 and rt[ix(RT_KEY + c)] == key:
                return True
    return False


@hot
def plan_blind_match_nb(g, rt, me, held, forget, miss, say):
    """Cabo, when the held card is not placed and it knows no card of its key: a match
    against one card it does not know (blind_match_nb), planned as the only nomination;
    ``say``'s blind tables by the held card's rank: never, or always when a hit is possible
    (a miss counted as free)."""
    if rt[K.R_TURN_MATCH] != K.TMATCH_CABO or held < 0:
        return False
    use = say_nb(say, SAY_BLIND, held)
    if use == 0 or knows_key_nb(g, rt, me, rt[ix(RT_KEY + held)], forget):
        return False
    t = blind_match_nb(g, rt, me, held, forget, 0.0 if use == 1 else miss)
    if t == 0:
        return False
    for i in range(PLAN_NOMINATE_SLOTS):
        g[ix(mem_nb(me, MEM_PLAN_NOMINATE + i))] = 0
    set_nominee_nb(g, me, 0, t)
    return True


@hot
def snap_target_nb(g, rt, me, n, S, forget, say):
    """powers.snap_target: 1 + seat*16 + pos of the card it snaps, 0 for none. ``say``'s
    snap tables, by the top discard's rank: an own card of its key it knows, when always
    even one worth 0 or less, never when never; an opponent's (Cumbia), when always whenever
    it has a card to give back, never when never."""
    top = g[ix(G_DISCARD + g[ix(G_PUB + K.PUB_DISCARD_N)] - 1)]
    key = rt[ix(RT_KEY + top)]
    use = say_nb(say, SAY_SNAP, top)
    if use != 0:
        p = first_known_match_nb(g, rt, me, me, key, n, S, forget, True)
        if p < 0 and use == 1:
            p = first_known_match_nb(g, rt, me, me, key, n, S, forget, False)
        if p >= 0:
            return 1 + me * MAX_POS + p
    use = say_nb(say, SAY_SNAP_OPP, top)
    if rt[K.R_SNAP_MODE] == K.SNAP_CUMBIA and use != 0 and (
            any_known_positive_nb(g, rt, me, n, S, forget) if use == USE_RULE else
            cards_mask_nb(g, rt, me, me, forget) != 0):
        players = rt[K.R_PLAYERS]
        for k in range(1, players):   # unshielded opponents in turn order first
            s = seat_after_nb(me, k, players)
            if not shielded_nb(g, s):
                p = first_known_match_nb(g, rt, me, s, key, n, S, forget, False)
                if p >= 0:
                    return 1 + s * MAX_POS + p
        for s in range(players):
            if s != me and shielded_nb(g, s):
                p = first_known_match_nb(g, rt, me, s, key, n, S, forget, False)
                if p >= 0:
                    return 1 + s * MAX_POS + p
    return 0


@hot
def total_nb(g, rt, me, s, n, S, forget):
    t = 0
    for p in range(span_nb(g)):
        if is_card_nb(g, rt, me, s, p, forget):
            t += est_nb(g, rt, me, s, p, n, S, forget)
    return t


@hot
def greedy_calls_nb(g, rt, me, n, S, forget):
    """powers.greedy_calls: it knows its whole layout and its total, plus the margin, is at
    most every opponent's estimate; or the stock has been reshuffled too often (its stall)."""
    if g[ix(G_PUB + K.PUB_RESHUFFLES)] >= K.GREEDY_STALL_RESHUFFLES:
        return True
    for p in range(span_nb(g)):
        if known_nb(g, rt, me, me, p, forget) < 0:
            return False
    mine = total_nb(g, rt, me, me, n, S, forget)
    for s in range(rt[K.R_PLAYERS]):
        if s != me and mine + K.GREEDY_CALL_MARGIN * max(n, 1) > total_nb(g, rt, me, s, n, S,
                                                                         forget):
            return False
    return True


# ---- grown layouts ------------------------------------------------------------------------
@hot
def grid_estimate_nb(g, rt, seat, at, card, n, S, hide):
    """GreedyPolicy.estimate of the grid's positions (``card`` imagined at ``at``)."""
    return row_estimate_nb(g, rt, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS,
                           G_UP + seat * MAX_POS, at, card, n, S, hide)


@hot
def row_estimate_nb(g, rt, base, up_base, at, card, n, S, hide):
    """grid_estimate_nb of the grid whose cards the seat knows as g[base + p] (card or -1),
    face up as g[up_base + p] says (``hide``: face-down positions it has forgotten)."""
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        keep = rt[K.R_NEG_PAIRS_KEEP] != 0
        total = 0
        for c in range(cols):
            a = card if c == at else g[ix(base + c)]
            b = card if c + cols == at else g[ix(base + c + cols)]
            if c != at and a >= 0 and hide != 0 and (hide >> c) & 1 and \
                    g[ix(up_base + c)] == 0:
                a = -1
            if c + cols != at and b >= 0 and hide != 0 and (hide >> (c + cols)) & 1 and \
                    g[ix(up_base + c + cols)] == 0:
                b = -1
            total += column_estimate_nb(rt[ix(RT_KEY + a)] if a >= 0 else -1,
                                        rt[ix(RT_VALUE + a)] if a >= 0 else 0,
                                        rt[ix(RT_KEY + b)] if b >= 0 else -1,
                                        rt[ix(RT_VALUE + b)] if b >= 0 else 0,
                                        a >= 0, b >= 0, n, S, keep)
        return total
    return estimate_cards_nb(g, base, g, up_base, hide, rt, at, card, n, S)


@hot(inline="always")
def own_nb(g, seat, p, hide):
    c = g[ix(G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS + p)]
    if c >= 0 and hide != 0 and (hide >> p) & 1 and g[ix(G_UP + seat * MAX_POS + p)] == 0:
        return -1
    return c


@hot
def replaceable_nb(g, rt, seat, p):
    """PowerState.replaceable_positions: a grid position as may_replace says, one beyond the
    grid unless it is face up and face-up cards may not be replaced."""
    if g[ix(G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS + p)] >= K.EMPTY0:
        return False
    if p < rt[K.R_NPOS]:
        return can_replace_nb(g, rt, seat, p)
    return g[ix(G_UP + seat * MAX_POS + p)] == 0 or rt[K.R_REPLACE_FACE_UP] != 0


@hot(inline="always")
def now_nb(g, rt, seat, n, S, hide):
    """The estimate ``now`` that placement_gain_nb takes: the grid's, where its positions
    pair (else it reads each position's own value, and this is 0)."""
    if rt[K.R_PAIR_SCOPE] == K.PAIR_NONE:
        return 0
    return grid_estimate_nb(g, rt, seat, -1, -1, n, S, hide)


@hot(inline="always")
def placement_gain_nb(g, rt, seat, p, card, n, S, hide, now):
    """n*G(p): how much ``card`` (-1: one it does not know) at p lowers the estimate ``now``
    (grid_estimate_nb as the layout is); a position beyond the grid changes only its own
    value, and so does any position when no two cards pair (pair_scope none: the estimate is
    the sum of the positions' shares, the very integers the whole sum adds)."""
    if p < rt[K.R_NPOS] and rt[K.R_PAIR_SCOPE] != K.PAIR_NONE:
        return now - grid_estimate_nb(g, rt, seat, p, card, n, S, hide)
    x = own_nb(g, seat, p, hide)
    return (S if x < 0 else rt[ix(RT_VALUE + x)] * n) - (S if card < 0 else
                                                         rt[ix(RT_VALUE + card)] * n)


@hot
def power_best_placement_nb(g, rt, seat, card, n, S, hide):
    """GreedyPolicy.best_placement over a layout that may have grown: the largest gain
    n*G(p) (placement_gain_nb) among eligible replaceable positions (G >= 1 over a known
    card), ties to the lowest. -1 for none."""
    now = now_nb(g, rt, seat, n, S, hide)
    best = -1
    best_gain = 0
    for p in range(span_nb(g)):
        if not replaceable_nb(g, rt, seat, p):
            continue
        x = own_nb(g, seat, p, hide)
        gain = placement_gain_nb(g, rt, seat, p, card, n, S, hide, now)
        if gain >= (n if x >= 0 else 0) and (best < 0 or gain > best_gain):
            best, best_gain = p, gain
    return best


@hot
def power_free_estimate_nb(g, rt, seat, n, S, hide):
    """GreedyPolicy.free_estimate of the whole layout, as knock-threshold's knock rule reads
    it: the reference relates positions beyond the grid by their row and column like grid
    positions, so they may pair here (unlike in ``estimate``)."""
    total = 0
    used = 0
    span = span_nb(g)
    for p in range(span):
        x = own_nb(g, seat, p, hide)
        partner = -1
        if x >= 0 and not (used >> p) & 1 and rt[K.R_PAIR_SCOPE] != K.PAIR_NONE:
            partner = free_partner_nb(g, rt, seat, p, x, used, hide, span)
        total, used = tally_nb(rt, total, used, p, x, partner, n, S)
    return total


@hot(inline="always")
def free_partner_nb(g, rt, seat, p, x, used, hide, span):
    """power_free_estimate_nb's partner of card ``x`` at p: the first position after p (and
    before ``span``), not in ``used``, related to p by row and column as in a grid, holding a
    known card of the same key; -1 if none."""
    for q in range(p + 1, span):
        y = own_nb(g, seat, q, hide)
        if y >= 0 and (used >> q) & 1 == 0 and rt[ix(RT_KEY + y)] == rt[ix(RT_KEY + x)] and \
                related_nb(p, q, rt[K.R_PAIR_SCOPE], rt[K.R_COLS]):
            return q
    return -1


@hot(inline="always")
def greedy_pool_nb(g, rt, seat):
    """(n, S) of the reference UnseenPool without the held card: the deck less every face-up
    layout card and the discard pile, from the public counters (the empties' pseudo-cards,
    face up, are not among PUB_FACEUP_N's cards), which the flow and the environment's views
    keep as a count of the face-up cards would give, without a walk of every position."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)] - g[ix(G_PUB + K.PUB_FACEUP_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)] - g[ix(G_PUB + K.PUB_FACEUP_SUM)]
    return n, S


@hot
def memory_pool_nb(g, rt, seat, hide):
    """(n, S) of the reference MemoryPool without the held card: the deck less the discard
    pile and its own known cards (grown positions too)."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    for p in range(span_nb(g)):
        c = own_nb(g, seat, p, hide)
        if 0 <= c < K.EMPTY0:
            n -= 1
            S -= rt[ix(RT_VALUE + c)]
    return n, S


# ---- the rule ------------------------------------------------------------------------------
@hot
def power_rule_nb(point, me, held, g, rt, n, S, kind, forget, place, say, miss):
    """powers.decide for a seat whose view pool (the held card out) is n cards worth S:
    its answer, or -1 to leave the decision to the policy's plain rules. ``place``: where it
    would put the held card at DP_PLACE_DRAWN / an exchanged card (greedy's best placement,
    or another built-in's own choice), -1 for nowhere; at DP_TURN when the top discard's
    power may be used, what its turn rule would do instead (A_DRAW_STOCK, ...). ``kind``:
    KIND_GREEDY calls by greedy's rule; the others leave the call to their plain rules.
    ``say``: the seat's rank tables that overrule the rule (NO_SAY: none): whether to use
    the held card's power when it is not placed or matched (else wants_power_nb), to snap,
    to match, to match blind. ``miss``: how much of a Cabo blind match's penalty on a
    miss it counts (1 but for a bold heuristic)."""
    if point == K.DP_TURN or point == K.DP_KNOCK:
        return turn_rule_nb(point, me, g, rt, n, S, kind, forget, place)
    power = g[ix(G_PUB + K.PUB_POWER)]
    match_legal = g[ix(G_LEGAL + K.A_MATCH)] != 0
    if point == K.DP_PLACE_DRAWN or (point == K.DP_PLACE_TAKEN and match_legal):
        if match_legal and plan_match_say_nb(g, rt, me, held, forget, say):
            return K.A_MATCH
        if point == K.DP_PLACE_TAKEN:
            return -1
        return held_rule_nb(me, held, g, rt, n, S, forget, place, say, miss)
    if point == K.DP_PLACE_TAKEN and power == K.POW_EXCHANGE_THIS:
        if 0 <= place < MAX_POS and g[ix(G_LEGAL + place)]:
            return place
        return worst_own_nb(g, rt, me, n, S, forget, legal_positions_nb(g))
    if point == K.DP_SNAP:
        t = snap_target_nb(g, rt, me, n, S, forget, say)
        if t == 0:
            return K.A_PASS
        g[ix(mem_nb(me, MEM_PLAN_SNAP))] = t
        return K.A_SNAP
    if point == K.DP_SWAP:
        own = g[ix(mem_nb(me, MEM_PLAN_OWN))]
        theirs = g[ix(mem_nb(me, MEM_PLAN_THEIRS))]
        if own != 0 and theirs != 0 and \
                est_nb(g, rt, me, (theirs - 1) // MAX_POS, (theirs - 1) % MAX_POS, n, S,
                       forget) < est_nb(g, rt, me, me, own - 1, n, S, forget):
            return K.A_SWAP
        return K.A_PASS
    if point == K.DP_KEEP:
        a = g[ix(G_PUB + K.PUB_CHOICE0)]
        b = g[ix(G_PUB + K.PUB_CHOICE1)]
        return 0 if rt[ix(RT_VALUE + a)] <= rt[ix(RT_VALUE + b)] else 1
    if point == K.DP_CHOOSE_POWER:
        r = combine_choice_nb(g, rt, me, g[ix(mem_nb(me, MEM_PLAN_HELD))] - 1, n, S, forget,
                              True)
        return r if r >= 0 else K.A_PASS
    if point == K.DP_NOMINATE or (point == K.DP_TARGET_SEAT and power == K.CTX_NOMINATE):
        target = g[ix(G_PUB + K.PUB_TARGET_SEAT)]
        for i in range(PLAN_NOMINATE_SLOTS * PLAN_PER_SLOT):
            v = nominee_nb(g, me, i)
            if v == 0:
                continue
            s = (v - 1) // MAX_POS
            p = (v - 1) % MAX_POS
            if point == K.DP_TARGET_SEAT:
                if g[ix(G_LEGAL + s)]:
                    return s
            elif s == target and g[ix(G_LEGAL + p)]:
                set_nominee_nb(g, me, i, 0)
                return p
        if g[ix(G_LEGAL + K.A_PASS)]:
            return K.A_PASS
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_TARGET_SEAT:
        return target_seat_nb(g, rt, me, power, n, S, forget)
    if point == K.DP_TARGET_POS:
        return target_pos_nb(g, rt, me, power, n, S, forget)
    return -1


@hot
def turn_rule_nb(point, me, g, rt, n, S, kind, forget, place):
    """power_rule_nb at DP_TURN and DP_KNOCK: greedy's call; Cactus's turn on the top
    discard's power instead of the draw its turn rule would make (``place``). Every other
    built-in calls by greedy's stall rule too, whatever its own: a table of players whose own
    rule never calls (the guide's default tables, opponent-aware) would otherwise play every
    hole of a game only a call ends to the turn cap."""
    if kind == KIND_OTHER and (rt[K.R_END_TRIGGERS] & K.END_CALL) != 0 and \
            g[ix(G_LEGAL + K.A_KNOCK)] and \
            g[ix(G_PUB + K.PUB_RESHUFFLES)] >= K.GREEDY_STALL_RESHUFFLES:
        return K.A_KNOCK
    if kind == KIND_GREEDY:
        if (rt[K.R_END_TRIGGERS] & K.END_CALL) != 0 and g[ix(G_LEGAL + K.A_KNOCK)] and \
                greedy_calls_nb(g, rt, me, n, S, forget):
            return K.A_KNOCK
        if point == K.DP_KNOCK:
            return K.A_PASS
    if point == K.DP_TURN and g[ix(G_LEGAL + K.A_DISCARD_POWER)]:
        if place == K.A_DRAW_STOCK and turn_power_wanted_nb(g, rt, me, n, S, forget):
            clear_plan_nb(g, me)
            return K.A_DISCARD_POWER
        if kind == KIND_OTHER:
            return place
    return -1


@hot
def held_rule_nb(me, held, g, rt, n, S, forget, place, say, miss):
    """power_rule_nb holding a drawn card it does not match: the placement, unless the power
    is worth more; Cabo's blind match; the power when worth using; else discard."""
    power = g[ix(G_PUB + K.PUB_POWER)]
    use = say_nb(say, SAY_POWER, held)
    if 0 <= place < MAX_POS and g[ix(G_LEGAL + place)]:
        if use == USE_RULE and g[ix(G_LEGAL + K.A_POWER)] and \
                beats_placement_nb(g, rt, me, power, held, place, n, S, forget):
            return use_power_nb(g, me, power, held)
        return place
    if g[ix(G_LEGAL + K.A_MATCH)] and plan_blind_match_nb(g, rt, me, held, forget, miss, say):
        return K.A_MATCH
    if g[ix(G_LEGAL + K.A_POWER)] and \
            (use > 0 or (use == USE_RULE and
                         wants_power_nb(g, rt, me, power, held, n, S, forget))):
        return use_power_nb(g, me, power, held)
    if g[ix(G_LEGAL + K.A_DISCARD)]:
        return K.A_DISCARD
    if g[ix(G_LEGAL + K.A_POWER)]:
        return K.A_POWER
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot(inline="always")
def is_swap_nb(effect):
    return effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or \
        effect == K.POW_PEEK_BOTH_SWAP or effect == K.POW_SWAP_ANY_TWO or \
        effect == K.POW_EXCHANGE_THIS


@hot
def target_seat_nb(g, rt, me, effect, n, S, forget):
    snap = g[ix(mem_nb(me, MEM_PLAN_SNAP))]
    if effect == K.CTX_SNAP and snap != 0 and g[ix(G_LEGAL + (snap - 1) // MAX_POS)]:
        return (snap - 1) // MAX_POS
    t = -1
    if effect == K.POW_SHUFFLE_OPP:
        t = shuffle_target_nb(g, rt, me)
    elif effect == K.POW_SWAP_LINE:
        t = line_target_nb(g, rt, me, n, S, forget)[0]
    elif effect == K.POW_FLIP_OPP:
        t = (flip_target_nb(g, rt, me, forget) - 1) // MAX_POS
    elif effect == K.POW_GIVE_OR_REMOVE:
        p, gain = removal_nb(g, rt, me, n, S, forget)
        t = me if gain > 0 else leader_nb(g, rt, me, n, S, forget)
    elif effect == K.POW_EXCHANGE_THIS:
        x, score = exchange_target_nb(g, rt, me, n, S, forget)
        if x != 0 and g[ix(G_LEGAL + (x - 1) // MAX_POS)]:
            g[ix(mem_nb(me, MEM_PLAN_THEIRS))] = x
            return (x - 1) // MAX_POS
    if t >= 0 and g[ix(G_LEGAL + t)]:
        return t
    if effect == K.POW_PEEK_OPP or effect == K.POW_PEEK_ANY or effect == K.POW_FLIP_OPP or \
            effect == K.POW_SHUFFLE_OPP:
        t = peek_target_nb(g, rt, me, effect == K.POW_PEEK_ANY, forget)
        if t != 0 and g[ix(G_LEGAL + (t - 1) // MAX_POS)]:
            return (t - 1) // MAX_POS
    if is_swap_nb(effect):
        if effect == K.POW_SWAP_ANY_TWO and g[ix(mem_nb(me, MEM_PLAN_FIRST))]:
            return me if g[ix(G_LEGAL + me)] else lowest_legal_nb(g, 0, K.N_ACTIONS)
        best = best_opponent_card_nb(g, rt, me, n, S, forget)
        if best != 0 and g[ix(G_LEGAL + (best - 1) // MAX_POS)]:
            if effect == K.POW_PEEK_BOTH_SWAP:
                t = peek_target_nb(g, rt, me, False, forget)
                if t != 0 and g[ix(G_LEGAL + (t - 1) // MAX_POS)]:
                    best = t
            g[ix(mem_nb(me, MEM_PLAN_THEIRS))] = best
            return (best - 1) // MAX_POS
    if effect == K.POW_GIVE_OR_REMOVE and g[ix(G_LEGAL + me)]:
        return me
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def target_pos_nb(g, rt, me, effect, n, S, forget):
    t = g[ix(G_PUB + K.PUB_TARGET_SEAT)]
    legal = legal_positions_nb(g)
    snap = g[ix(mem_nb(me, MEM_PLAN_SNAP))]
    if effect == K.CTX_SNAP and snap != 0 and (snap - 1) // MAX_POS == t and \
            (legal >> ((snap - 1) % MAX_POS)) & 1:
        return (snap - 1) % MAX_POS
    if effect == K.POW_GIVE_OR_REMOVE and t == me:
        p, gain = removal_nb(g, rt, me, n, S, forget)
        if p >= 0 and (legal >> p) & 1:
            return p
    if effect == K.POW_SWAP_LINE:
        k, gain = best_line_nb(g, rt, me, t, n, S, forget)
        return k if g[ix(G_LEGAL + k)] else lowest_legal_nb(g, 0, K.N_ACTIONS)
    if effect == K.POW_FLIP_OPP:
        f = flip_target_nb(g, rt, me, forget)
        if f != 0 and (f - 1) // MAX_POS == t and (legal >> ((f - 1) % MAX_POS)) & 1:
            return (f - 1) % MAX_POS
    if effect == K.CTX_GIVE:
        p, gain = removal_nb(g, rt, me, n, S, forget)
        if p >= 0 and (legal >> p) & 1:
            return p
    if t == me and (effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or
                    effect == K.POW_SWAP_ANY_TWO):
        if effect == K.POW_SWAP_ANY_TWO:
            g[ix(mem_nb(me, MEM_PLAN_FIRST))] = 0
        c = plan_card_nb(g, rt, me, forget)
        if c != -2:
            return best_receiver_nb(g, rt, me, c, n, S, forget, legal)[0]
    if effect == K.CTX_GIVE or (t == me and (
            effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or
            effect == K.POW_SWAP_ANY_TWO or effect == K.POW_GIVE_OR_REMOVE)):
        return worst_own_nb(g, rt, me, n, S, forget, legal)
    if effect == K.POW_PEEK_BOTH_SWAP and t == me:
        p = -1
        for q in range(MAX_POS):
            if (legal >> q) & 1 and known_nb(g, rt, me, me, q, forget) < 0:
                p = q
                break
        if p < 0:
            p = worst_own_nb(g, rt, me, n, S, forget, legal)
        g[ix(mem_nb(me, MEM_PLAN_OWN))] = 1 + p
        return p
    if is_swap_nb(effect):
        theirs = g[ix(mem_nb(me, MEM_PLAN_THEIRS))]
        if theirs != 0 and (theirs - 1) // MAX_POS == t and (legal >> ((theirs - 1) % MAX_POS)) & 1:
            p = (theirs - 1) % MAX_POS
        else:
            p = best_of_nb(g, rt, me, t, n, S, forget, legal)
        g[ix(mem_nb(me, MEM_PLAN_THEIRS))] = 1 + t * MAX_POS + p
        if effect == K.POW_SWAP_ANY_TWO:
            g[ix(mem_nb(me, MEM_PLAN_FIRST))] = 1
        return p
    for q in range(MAX_POS):
        if (legal >> q) & 1 and known_nb(g, rt, me, t, q, forget) < 0:
            return q
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


# ---- the built-ins -------------------------------------------------------------------------
@hot(inline="always")
def view_pool_nb(n, S, rt, held):
    if held >= 0:
        return n - 1, S - rt[ix(RT_VALUE + held)]
    return n, S


@hot(inline="always")   # a function argument in a compiled call would keep the entry off the disk cache
def others_power_nb(point, seat, held, g, rt, rng, par, policy_nb, say, miss):
    """The greedy-family rule for every other built-in (greedy's pool; its own plain rules for
    the turn, the call and a taken card's placement): at DP_PLACE_DRAWN, and when an
    exchanged card is placed, its own choice with power and match masked out stands in for
    greedy's best placement, at DP_TURN with the top discard's power usable its own turn
    rule without it, and ``say`` and ``miss`` (power_rule_nb) for greedy's. -1: a decision
    of the plain game."""
    n, S = greedy_pool_nb(g, rt, seat)
    n, S = view_pool_nb(n, S, rt, held)
    place = -1
    power = g[ix(G_PUB + K.PUB_POWER)]
    if point == K.DP_PLACE_DRAWN or (point == K.DP_PLACE_TAKEN and power == K.POW_EXCHANGE_THIS):
        a_power = g[ix(G_LEGAL + K.A_POWER)]
        a_match = g[ix(G_LEGAL + K.A_MATCH)]
        g[ix(G_LEGAL + K.A_POWER)] = 0
        g[ix(G_LEGAL + K.A_MATCH)] = 0
        if lowest_legal_nb(g, 0, K.N_ACTIONS) >= 0:
            place = policy_nb(point, seat, held, g, rt, rng, par)
        g[ix(G_LEGAL + K.A_POWER)] = a_power
        g[ix(G_LEGAL + K.A_MATCH)] = a_match
    elif point == K.DP_TURN and g[ix(G_LEGAL + K.A_DISCARD_POWER)]:
        # its own turn rule without the top discard's power (asked once: power_rule_nb
        # answers with it when it does not take that turn instead of the draw)
        g[ix(G_LEGAL + K.A_DISCARD_POWER)] = 0
        place = decide_with_nb(point, seat, held, g, rt, rng, par, policy_nb)
        g[ix(G_LEGAL + K.A_DISCARD_POWER)] = 1
    return power_rule_nb(point, seat, held, g, rt, n, S, KIND_OTHER, False, place, say, miss)


@hot(inline="always")
def decide_others_nb(point, seat, held, g, rt, rng, par, policy_nb):
    """decide_with_nb for the built-ins without a power rule of their own: in a power game the
    shared greedy-family rule answers the power decisions first."""
    return decide_others_using_nb(point, seat, held, g, rt, rng, par, policy_nb, NO_SAY, 1.0)


@hot(inline="always")
def decide_others_using_nb(point, seat, held, g, rt, rng, par, policy_nb, say, miss):
    """decide_others_nb with the seat's own say on the decisions by rank (``say``, as
    power_rule_nb takes it: the guide's tables) and on a Cabo blind match's miss (``miss``:
    heuristic's aggression)."""
    if power_game_nb(rt):
        a = others_power_nb(point, seat, held, g, rt, rng, par, policy_nb, say, miss)
        if a >= 0:
            return a
    return decide_with_nb(point, seat, held, g, rt, rng, par, policy_nb)
