"""The Cabo build's state and card moves (the powers build's moves, for rules where no card is
ever face up): a layout's card at g[G_LAY + seat*MAX_POS + p], an emptied or unused position
holding the pseudo-card EMPTY0 + p, known to all, worth 0; what each seat knows at
g[G_KNOWN + (obs*MAX_PLAYERS + seat)*MAX_POS + p] (a card or -1); the piles and their counts
in the public slots, the span (codes.PRIV_SPAN: every position from it on is empty) and the
hole's end (PRIV_OVER) in the private ones, as the powers build keeps them. Kept besides, as
cards move, for the answers that would otherwise walk every layout at every decision: each
seat's positions that hold a card (MASK), the discard pile's cards of each type (PILE_TYPES),
and what each seat knows of the layouts' cards (KNOWN_TYPES, SEAT_KNOWN, SEAT_SUM: every
write of G_KNOWN goes through ``know``)."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_LAY, G_PRIV, G_STOCK, G_UPMASK, MAX_PLAYERS,
                                  MAX_POS, RT_VALUE)
from simulator.kernel.flow.base import PRIV_OVER, card_at, known_at
from simulator.kernel.flow.base import pub as counter
from simulator.kernel.flow.base import set_pub as set_counter
from simulator.kernel.flow.moves import room
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import span_nb as span

EVERY = (1 << MAX_PLAYERS) - 1   # a knowledge mask that every seat is in
# [seat]: bit p set when (seat, p) holds a card (the slots of the face-up masks: no card is
# face up in these rules)
MASK = G_UPMASK
PILE_TYPES = K.G_PUBLIC_TYPES   # [card type]: the discard pile's cards of that type
# in the lookahead player's scratch (codes.G_AUX), which no seat of this build has:
KNOWN_TYPES = K.G_AUX   # [obs * MAX_IDS + card type]: layout cards of that type it knows
SEAT_KNOWN = KNOWN_TYPES + MAX_PLAYERS * K.MAX_IDS   # [obs * MAX_PLAYERS + seat]: how many
SEAT_SUM = SEAT_KNOWN + MAX_PLAYERS * MAX_PLAYERS    # of the seat's cards it knows, their sum


@hot(inline="always")
def cards_mask(g, seat):
    """Bit p set when (seat, p) holds a card."""
    return g[ix(MASK + seat)]


@hot(inline="always")
def know(g, rt, obs, seat, p, card):
    """``obs`` knows ``card`` at (seat, p) (-1: nothing), the counts following."""
    i = known_at(obs, seat, p)
    old = g[ix(i)]
    if 0 <= old < K.EMPTY0:
        g[ix(KNOWN_TYPES + obs * K.MAX_IDS + rt[ix(K.RT_TYPE + old)])] -= 1
        g[ix(SEAT_KNOWN + obs * MAX_PLAYERS + seat)] -= 1
        g[ix(SEAT_SUM + obs * MAX_PLAYERS + seat)] -= rt[ix(RT_VALUE + old)]
    if 0 <= card < K.EMPTY0:
        g[ix(KNOWN_TYPES + obs * K.MAX_IDS + rt[ix(K.RT_TYPE + card)])] += 1
        g[ix(SEAT_KNOWN + obs * MAX_PLAYERS + seat)] += 1
        g[ix(SEAT_SUM + obs * MAX_PLAYERS + seat)] += rt[ix(RT_VALUE + card)]
    g[ix(i)] = card


@hot(inline="always")
def set_cell(g, rt, seat, p, card, knows):
    """(seat, p) holds ``card``, face down, known to the seats of bit mask ``knows`` (an empty
    position's pseudo-card: to all)."""
    players = rt[K.R_PLAYERS]
    g[ix(G_LAY + seat * MAX_POS + p)] = card
    if card >= K.EMPTY0:
        knows = EVERY
        g[ix(MASK + seat)] &= ~(1 << p)
    else:
        g[ix(MASK + seat)] |= 1 << p
        if p >= span(g):   # the span grows to this position, empty in every layout but
            for q in range(span(g), p + 1):   # this one: what an earlier round left there is
                for x in range(players):      # forgotten
                    for o in range(players):
                        g[ix(known_at(o, x, q))] = K.EMPTY0 + q
            g[ix(G_PRIV + K.PRIV_SPAN)] = p + 1
    for o in range(players):
        know(g, rt, o, seat, p, card if (knows >> o) & 1 else -1)


@hot(inline="always")
def knows_mask(g, players, seat, p):
    m = 0
    for o in range(players):
        if g[ix(known_at(o, seat, p))] >= 0:
            m |= 1 << o
    return m


@hot(inline="always")
def take(g, rt, seat, p):
    """The card at (seat, p) leaves the layout."""
    card = card_at(g, seat, p)
    set_cell(g, rt, seat, p, K.EMPTY0 + p, EVERY)
    return card


@hot(inline="always")
def show(g, rt, seat, p):
    card = card_at(g, seat, p)
    for o in range(rt[K.R_PLAYERS]):
        know(g, rt, o, seat, p, card)


@hot(inline="always")
def peek(g, rt, seat, p, observer):
    know(g, rt, observer, seat, p, card_at(g, seat, p))


@hot
def swap_cells(g, rt, s1, p1, s2, p2):
    """Two cells exchange card and knowledge (a public move)."""
    players = rt[K.R_PLAYERS]
    a = card_at(g, s1, p1)
    a_knows = knows_mask(g, players, s1, p1)
    set_cell(g, rt, s1, p1, card_at(g, s2, p2), knows_mask(g, players, s2, p2))
    set_cell(g, rt, s2, p2, a, a_knows)


@hot
def move(g, rt, s1, p1, s2, p2):
    """The card at (s1, p1) moves blind to the empty (s2, p2)."""
    set_cell(g, rt, s2, p2, card_at(g, s1, p1), knows_mask(g, rt[K.R_PLAYERS], s1, p1))
    take(g, rt, s1, p1)


@hot(inline="always")
def discard(g, rt, card):
    """``card`` goes on top of the discard pile."""
    n = counter(g, K.PUB_DISCARD_N)
    g[ix(G_DISCARD + n)] = card
    g[ix(PILE_TYPES + rt[ix(K.RT_TYPE + card)])] += 1
    set_counter(g, K.PUB_DISCARD_N, n + 1)
    set_counter(g, K.PUB_DISCARD_SUM, counter(g, K.PUB_DISCARD_SUM) + rt[ix(RT_VALUE + card)])


@hot(inline="always")
def take_top(g, rt):
    n = counter(g, K.PUB_DISCARD_N) - 1
    card = g[ix(G_DISCARD + n)]
    g[ix(PILE_TYPES + rt[ix(K.RT_TYPE + card)])] -= 1
    set_counter(g, K.PUB_DISCARD_N, n)
    set_counter(g, K.PUB_DISCARD_SUM, counter(g, K.PUB_DISCARD_SUM) - rt[ix(RT_VALUE + card)])
    return card


@hot(inline="always")
def draw(g, rt):
    """The top stock card (the stock is not empty); taking the last one fires
    stock_exhausted."""
    n = counter(g, K.PUB_STOCK_N) - 1
    set_counter(g, K.PUB_STOCK_N, n)
    if n == 0 and (rt[K.R_END_TRIGGERS] & K.END_STOCK_EXHAUSTED) != 0:
        g[ix(G_PRIV + PRIV_OVER)] = 1
    return g[ix(G_STOCK + n)]


@hot
def penalty_cards(g, rt, seat, count):
    """``count`` stock cards go face down, unseen, to the seat's lowest empty positions; one
    with no room or no stock is not drawn."""
    for _ in range(count):
        p = room(g, seat)
        if p < 0 or counter(g, K.PUB_STOCK_N) == 0:
            return
        set_cell(g, rt, seat, p, draw(g, rt), 0)
