"""``greedy``'s answers in the Cabo build: strategies/powers.py's power rule and greedy's
placement (strategies/greedy.py) for the decisions these rules ask, read from the build's
state (cells.py) instead of the views. Estimates are kept multiplied by n, the cards the seat
has not seen (the deck less the discard pile: no card is face up here), as there: a known card
is worth value * max(n, 1), an unknown one S (0 when n is 0)."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_MEMORY, G_SCRATCH, MAX_PLAYERS, MAX_POS, RT_KEY, RT_VALUE
from simulator.kernel.estimate import trailing_zeros
from simulator.kernel.flow.base import _lowest as lowest
from simulator.kernel.flow.base import known_at, popcount
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import seat_after_nb

from .cells import KNOWN_TYPES, PILE_TYPES, SEAT_KNOWN, SEAT_SUM, cards_mask, counter, span

# the seat's plan (strategies/common.py MEM_PLAN_*): the position chosen before taking the
# discard, the opponent card a swap takes (1 + seat*MAX_POS + p, 0: none), and whether the
# first card of a swap of any two has been named
PLANNED = 0
THEIRS = 1
FIRST = 2
PLAN_SLOTS = 3
NOMINEES = G_SCRATCH   # a turn match's nominations: seat*MAX_POS + p, in order
ROOM = 12              # at most this many (the plan's room in strategies/powers.py)


@hot(inline="always")
def plan(g, me, slot):
    return g[ix(G_MEMORY + me * K.MEMORY_SLOTS + slot)]


@hot(inline="always")
def set_plan(g, me, slot, v):
    g[ix(G_MEMORY + me * K.MEMORY_SLOTS + slot)] = v


@hot(inline="always")
def knows(g, me, s, p):
    return g[ix(known_at(me, s, p))]


@hot(inline="always")
def pool(g, rt):
    """(n, S): the cards greedy has not seen, the deck less the discard pile."""
    return rt[K.R_NCARDS] - counter(g, K.PUB_DISCARD_N), \
        rt[K.R_DECK_SUM] - counter(g, K.PUB_DISCARD_SUM)


@hot(inline="always")
def est(rt, c, n, S):
    if c < 0:
        return S if n > 0 else 0
    return rt[ix(RT_VALUE + c)] * max(n, 1)


@hot(inline="always")
def share(rt, c, n, S):
    """A position's term of a placement's gain (unknown: S)."""
    return S if c < 0 else rt[ix(RT_VALUE + c)] * n


@hot(inline="always")
def best_placement(g, rt, me, card, n, S):
    """The position where ``card`` lowers the estimate most, among those that gain at least
    n over a known card (0 over an unknown one), ties to the lowest; -1 for none."""
    best = -1
    best_gain = 0
    gone = share(rt, card, n, S)
    for p in range(span(g)):
        x = knows(g, me, me, p)
        if x >= K.EMPTY0:
            continue
        gain = share(rt, x, n, S) - gone
        if gain >= (n if x >= 0 else 0) and (best < 0 or gain > best_gain):
            best, best_gain = p, gain
    return best


@hot(inline="always")
def total(g, rt, me, s, n, S):
    """Its estimate of seat s's layout: the cards it knows at their values, the others at
    S/n each (all times n)."""
    known = g[ix(SEAT_KNOWN + me * MAX_PLAYERS + s)]
    return g[ix(SEAT_SUM + me * MAX_PLAYERS + s)] * max(n, 1) + \
        (popcount(cards_mask(g, s)) - known) * (S if n > 0 else 0)


@hot(inline="always")
def calls(g, rt, me, n, S):
    """greedy's call: it knows its whole layout, and its total plus the margin is at most
    every other seat's estimate."""
    if g[ix(SEAT_KNOWN + me * MAX_PLAYERS + me)] != popcount(cards_mask(g, me)):
        return False
    mine = g[ix(SEAT_SUM + me * MAX_PLAYERS + me)] * max(n, 1)
    margin = K.GREEDY_CALL_MARGIN * max(n, 1)
    for s in range(rt[K.R_PLAYERS]):
        if s != me and mine + margin > total(g, rt, me, s, n, S):
            return False
    return True


@hot(inline="always")
def known_of_key(g, rt, me, card):
    """How many layout cards of ``card``'s key it knows, and their value sum."""
    m = 0
    v = 0
    first = rt[ix(K.RT_TYPE + card)]
    t = first
    while True:
        k = g[ix(KNOWN_TYPES + me * K.MAX_IDS + t)]
        m += k
        v += k * rt[ix(RT_VALUE + rt[ix(K.RT_TYPE_CARD + t)])]
        t = rt[ix(K.RT_TYPE_NEXT + t)]
        if t == first:
            return m, v


@hot(inline="always")
def first_unknown(g, me, s, legal):
    """The first position of bit mask ``legal`` whose card ``me`` does not know, -1 for
    none."""
    while legal != 0:
        p = trailing_zeros(legal)
        legal &= legal - 1
        if knows(g, me, s, p) < 0:
            return p
    return -1


@hot(inline="always")
def all_positions(g):
    return (1 << span(g)) - 1


@hot(inline="always")
def unknown_opponent(g, rt, me):
    """The first other seat, in turn order, with a card ``me`` does not know; -1 for none."""
    players = rt[K.R_PLAYERS]
    every = all_positions(g)
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        if first_unknown(g, me, s, every) >= 0:
            return s
    return -1


@hot(inline="always")
def plan_match(g, rt, me, held):
    """A turn match with every card it knows of the held card's key, its own first, then the
    others' in turn order: the nominations at NOMINEES; returns how many."""
    if known_of_key(g, rt, me, held)[0] == 0:
        return 0
    key = rt[ix(RT_KEY + held)]
    players = rt[K.R_PLAYERS]
    sp = span(g)
    count = 0
    for k in range(players):
        s = seat_after_nb(me, k, players)
        for p in range(sp):
            c = knows(g, me, s, p)
            if 0 <= c < K.EMPTY0 and rt[ix(RT_KEY + c)] == key and count < ROOM:
                g[ix(NOMINEES + count)] = s * MAX_POS + p
                count += 1
    return count


@hot
def key_pool(g, rt, me, held):
    """(m, v, n, S): the cards ``me`` has not seen (the deck but the discard pile, the held
    card and every card it knows in a layout): n cards worth S, m of them of the held card's
    key, worth v."""
    m = 0
    v = 0
    first = rt[ix(K.RT_TYPE + held)]
    t = first
    while True:   # the deck's cards of the key less the pile's: by the key's types
        copies = rt[ix(K.RT_TYPE_COPIES + t)] - g[ix(PILE_TYPES + t)]
        m += copies
        v += copies * rt[ix(RT_VALUE + rt[ix(K.RT_TYPE_CARD + t)])]
        t = rt[ix(K.RT_TYPE_NEXT + t)]
        if t == first:
            break
    known, known_v = known_of_key(g, rt, me, held)
    n, S = pool(g, rt)
    for s in range(rt[K.R_PLAYERS]):
        n -= g[ix(SEAT_KNOWN + me * MAX_PLAYERS + s)]
        S -= g[ix(SEAT_SUM + me * MAX_PLAYERS + s)]
    value = rt[ix(RT_VALUE + held)]
    return m - known - 1, v - known_v - value, n - 1, S - value


@hot
def blind_match(g, rt, me, held):
    """A card it does not know to match the held card against (s*MAX_POS + p), when the
    chance that it is of the held card's key pays for a miss's penalty cards: its own first,
    else the first other seat's in turn order; -1 for none (powers.blind_match_nb)."""
    m, v, n, S = key_pool(g, rt, me, held)
    if m <= 0 or n <= 0:
        return -1
    cost = (n - m) * rt[K.R_MATCH_FAIL_CARDS] * S * 1.0 \
        if counter(g, K.PUB_STOCK_N) > 0 else 0.0
    every = all_positions(g)
    p = first_unknown(g, me, me, every)
    if p >= 0 and v * n > cost:
        return me * MAX_POS + p
    worst = 0
    for q in range(span(g)):
        c = knows(g, me, me, q)
        if c < K.EMPTY0:
            worst = max(worst, S if c < 0 else rt[ix(RT_VALUE + c)] * n)
    if m * worst <= cost:
        return -1
    s = unknown_opponent(g, rt, me)
    return -1 if s < 0 else s * MAX_POS + first_unknown(g, me, s, every)


@hot(inline="always")
def best_opponent_card(g, rt, me, n, S):
    """1 + seat*MAX_POS + p of the other seats' lowest-estimated card (turn order, then
    position; the first of equals), 0 for none."""
    best = 0
    best_e = 0
    players = rt[K.R_PLAYERS]
    sp = span(g)
    for k in range(1, players):
        s = seat_after_nb(me, k, players)
        for p in range(sp):
            c = knows(g, me, s, p)
            if c < K.EMPTY0:
                e = est(rt, c, n, S)
                if best == 0 or e < best_e:
                    best, best_e = 1 + s * MAX_POS + p, e
    return best


@hot
def best_receiver(g, rt, me, card, n, S, cand):
    """(p, n*gain): of its positions in ``cand``, where ``card`` (-1: unknown) would lower its
    estimate most in place of the card there, ties to the lowest; (-1, 0) for none."""
    gone = share(rt, card, n, S)
    best = -1
    best_gain = 0
    while cand != 0:
        p = trailing_zeros(cand)
        cand &= cand - 1
        gain = share(rt, knows(g, me, me, p), n, S) - gone
        if best < 0 or gain > best_gain:
            best, best_gain = p, gain
    return best, best_gain


@hot
def extreme_of(g, rt, me, s, n, S, cand, highest):
    """Of seat s's positions in ``cand``, the one with the highest (else lowest) estimate,
    ties to the lowest position; -1 for none."""
    best = -1
    best_e = 0
    while cand != 0:
        p = trailing_zeros(cand)
        cand &= cand - 1
        e = est(rt, knows(g, me, s, p), n, S)
        if best < 0 or (e > best_e if highest else e < best_e):
            best, best_e = p, e
    return best


@hot
def own_cards(g, me):
    m = 0
    for p in range(span(g)):
        if knows(g, me, me, p) < K.EMPTY0:
            m |= 1 << p
    return m


@hot
def swap_gain(g, rt, me, n, S):
    """n times how much a swap lowers its estimate: the others' lowest-estimated card into its
    position where that card gains most."""
    mine = own_cards(g, me)
    theirs = best_opponent_card(g, rt, me, n, S)
    if mine == 0 or theirs == 0:
        return 0
    t = theirs - 1
    return best_receiver(g, rt, me, knows(g, me, t // MAX_POS, t % MAX_POS), n, S, mine)[1]


@hot(inline="always")
def wants_power(g, rt, me, effect, n, S):
    """Use the held card's power rather than discard it: a look at a card it does not know,
    a swap that gains."""
    if effect == K.POW_PEEK_OWN:
        return first_unknown(g, me, me, all_positions(g)) >= 0
    if effect == K.POW_PEEK_OPP:
        return unknown_opponent(g, rt, me) >= 0
    if effect == K.POW_SWAP_ANY_TWO:
        return swap_gain(g, rt, me, n, S) > 0
    return False


@hot
def swap_seat(g, rt, me, legal, n, S):
    """The seat of a swap's next card: its own once the first is named, else the seat of the
    others' lowest-estimated card (planned)."""
    if plan(g, me, FIRST) != 0:
        return me if (legal >> me) & 1 else lowest(legal)
    best = best_opponent_card(g, rt, me, n, S)
    if best != 0 and (legal >> ((best - 1) // MAX_POS)) & 1:
        set_plan(g, me, THEIRS, best)
        return (best - 1) // MAX_POS
    return lowest(legal)


@hot
def swap_position(g, rt, me, t, legal, n, S):
    """The position of seat t's card in a swap: its own where the planned card gains most,
    the planned card of another seat (else its lowest-estimated)."""
    if t == me:
        set_plan(g, me, FIRST, 0)
        theirs = plan(g, me, THEIRS)
        if theirs != 0:
            c = knows(g, me, (theirs - 1) // MAX_POS, (theirs - 1) % MAX_POS)
            return best_receiver(g, rt, me, c, n, S, legal)[0]
        return extreme_of(g, rt, me, me, n, S, legal, True)
    theirs = plan(g, me, THEIRS)
    if theirs != 0 and (theirs - 1) // MAX_POS == t and (legal >> ((theirs - 1) % MAX_POS)) & 1:
        p = (theirs - 1) % MAX_POS
    else:
        p = extreme_of(g, rt, me, t, n, S, legal, False)
    set_plan(g, me, THEIRS, 1 + t * MAX_POS + p)
    set_plan(g, me, FIRST, 1)
    return p


@hot
def removal(g, rt, me, n, S):
    """The own card whose removal lowers its estimate most (the one it gives away), ties to
    the lowest position; -1 when it has none."""
    best = -1
    best_gain = 0
    for p in range(span(g)):
        c = knows(g, me, me, p)
        if c < K.EMPTY0:
            gain = share(rt, c, n, S)
            if best < 0 or gain > best_gain:
                best, best_gain = p, gain
    return best
