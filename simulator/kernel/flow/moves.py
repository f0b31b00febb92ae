"""The card moves, one set for every build, each with the knowledge it creates.

The turn keeps its counters (stock, discard pile, face-up cards) in local variables, and the
moves that change them take and return them. A power round (the powers build) keeps them in
the public slots too, so the power effects and the policies read one truth: there a layout
has all MAX_POS positions, one without a card (emptied, or not grown into) holding the
pseudo-card EMPTY0 + p, face up, known to all, worth 0, and a cell is always written whole
(``set_cell``), face-down counts, face-up flags, what each seat knows (G_KNOWN) and who was
seen peeking (G_PEEKED) with it, as the reference's PowerCell is. The turn's own moves do the
same there (``_put``, ``_turn_up`` write whole cells, ``_discard`` marks a new top), so that
the counters they return and the slots agree; the moves of the power effects below read and
write the slots.
"""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK, RANK_JACK
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LAY, G_PEEKED, G_PRIV,
                                  G_PUB, G_SCRATCH, G_SKIP, G_STOCK, G_UP, G_UPMASK,
                                  MAX_PLAYERS, MAX_POS, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.layout import span_nb
from simulator.kernel.jit import copy_nb, hot, ix
from simulator.kernel.rng import STREAM_DEAL, shuffle_nb

from .base import (ALL_POS, PRIV_END_TURN, PRIV_OVER, PRIV_TOP_NEW, VIEWS, card_at,
                   everyone, is_up, known_at, own, pub, set_pub)
from .build import AWARE, CACHED, GENERAL, GUIDE, POWERS, SEEN


@hot(inline="always")
def learn(g, rt, seat, p, card):
    """The owner of (seat, p) now knows it holds ``card``."""
    if VIEWS:
        g[ix(own(seat) + p)] = card
    else:
        LP.learn(g, rt, seat, p, card)
        if GUIDE:   # its row of the views too, which the guide reads
            g[ix(known_at(seat, seat, p))] = card


@hot(inline="always")
def _in_sight(g, rt, card, d):
    """heuristic's build (SEEN): ``d`` more cards of ``card``'s type in every seat's sight
    (codes.G_PUBLIC_TYPES)."""
    if SEEN:
        t = rt[ix(K.RT_TYPE + card)]
        if t >= 0:   # (every card of the lean flow's rule sets has a type)
            g[ix(K.G_PUBLIC_TYPES + t)] += d


@hot
def learn_nb(g, rt, seat, p, card):
    """``learn``, called: where a rule set makes seats learn cards once a round (cards held in
    hand, peeks at the reveal) a call costs little, and each inlined copy of the cache's
    update added about ten seconds to the first compile."""
    learn(g, rt, seat, p, card)


@hot(inline="always")
def _unknown_mask(g, rt, seat, first):
    """Bit p (>= first) set when (seat, p) is face down with a card its owner does not know
    (one it may look at)."""
    mask = 0
    for p in range(first, MAX_POS if POWERS else rt[K.R_NPOS]):
        mask |= np.int64(g[ix(own(seat) + p)] < 0) << p
    return mask & ~g[ix(G_UPMASK + seat)]


@hot
def cards_mask(g, seat):
    """Bit p set when (seat, p) holds a card."""
    m = 0
    for p in range(span_nb(g)):
        if g[ix(G_LAY + seat * MAX_POS + p)] < K.EMPTY0:
            m |= 1 << p
    return m


@hot(inline="always")
def face_down_mask(g, seat):
    """The seat's face-down positions (an empty one is face up)."""
    return ALL_POS & ~g[ix(G_UPMASK + seat)]


@hot
def known_mask(g, rt, seat, p):
    """Bit o set when seat o knows the card at (seat, p)."""
    m = 0
    for o in range(rt[K.R_PLAYERS]):
        if g[ix(G_KNOWN + (o * MAX_PLAYERS + seat) * MAX_POS + p)] >= 0:
            m |= 1 << o
    return m


@hot(inline="always")
def _down_mask(g, rt, seat):
    """The seat's face-down positions: of the grid in a plain round, of all MAX_POS in a
    power round (an empty one is face up)."""
    grid = ALL_POS if POWERS else (1 << rt[K.R_NPOS]) - 1
    return grid & ~g[ix(G_UPMASK + seat)]


@hot(inline="always")
def _replaceable(g, rt, seat):
    """Bit p set when the seat may put a new card at p (layout.can_replace_nb; in a power
    round PowerState.replaceable_positions: grid positions as the plain game allows, grown
    ones unless face up and replace_face_up_allowed = false)."""
    if POWERS:
        grid = (1 << rt[K.R_NPOS]) - 1
        up = g[ix(G_UPMASK + seat)]
        grown = ALL_POS & ~grid
        if rt[K.R_REPLACE_FACE_UP] == 0:
            grown &= ~up
        return ((LP.replaceable_mask(up & grid, rt) & grid) | grown) & cards_mask(g, seat)
    rep = LP.replaceable_mask(g[ix(G_UPMASK + seat)], rt)
    if GENERAL and (rt[K.R_REMOVE_CANCELLED] != K.REMOVE_NEVER or
                    rt[K.R_REPLACE_UNSEEN_ONCE] != 0):
        once = rt[K.R_REPLACE_UNSEEN_ONCE] != 0
        for p in range(rt[K.R_NPOS]):
            i = seat * MAX_POS + p
            if g[ix(G_LAY + i)] >= K.EMPTY0 or (once and g[ix(K.G_ONCE + i)] == K.ONCE_SPENT):
                rep &= ~(1 << p)
    return rep


@hot(inline="always")
def _turn_up(g, rt, seat, p):
    """(seat, p) turns face up: everyone now knows it. Returns its value."""
    card = g[ix(G_LAY + seat * MAX_POS + p)]
    if POWERS:
        turn_up(g, rt, seat, p)
        return rt[ix(RT_VALUE + card)]
    g[ix(G_UPMASK + seat)] |= 1 << p
    g[ix(G_FACE_DOWN + seat)] -= 1
    learn(g, rt, seat, p, card)
    if AWARE or SEEN:
        if SEEN and (g[ix(K.G_SEEN_ALL + seat)] >> p) & 1 == 0:
            _in_sight(g, rt, card, 1)
        g[ix(K.G_SEEN_ALL + seat)] |= 1 << p
    if VIEWS or GUIDE or CACHED:   # (the guide reads them, the cache build's checks do)
        g[ix(G_UP + seat * MAX_POS + p)] = 1
    if VIEWS:
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
    if POWERS:
        put(g, rt, seat, p, card, face_up, everyone(rt) if public_card else 1 << seat)
        return old
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
    if AWARE or SEEN:   # as the views' G_KNOWN of the other seats has it
        seen = g[ix(K.G_SEEN_ALL + seat)]
        if SEEN:
            _in_sight(g, rt, old, -((seen >> p) & 1))
            _in_sight(g, rt, card, np.int64(face_up or public_card))
        g[ix(K.G_SEEN_ALL + seat)] = (seen | bit) if (face_up or public_card) else (seen & ~bit)
    if VIEWS or GUIDE or CACHED:
        g[ix(G_UP + seat * MAX_POS + p)] = 1 if face_up else 0
    if VIEWS:
        for obs in range(rt[K.R_PLAYERS]):
            # a face-down card is known to its owner, and to all if everyone saw it
            g[ix(known_at(obs, seat, p))] = card if (face_up or obs == seat or public_card) \
                else -1
    return old


@hot(inline="always")
def _onto_pile(g, rt, card, n_disc, sum_disc):
    """``card`` goes on top of the discard pile; returns the pile's size and value sum."""
    g[ix(G_DISCARD + n_disc)] = card
    _in_sight(g, rt, card, 1)
    return n_disc + 1, sum_disc + rt[ix(RT_VALUE + card)]


@hot(inline="always")
def _discard(g, rt, seat, card, n_disc, sum_disc):
    """``seat`` puts ``card`` on the discard pile; returns the pile's size and value sum."""
    n_disc, sum_disc = _onto_pile(g, rt, card, n_disc, sum_disc)
    if GENERAL and rt[K.R_JACK_SKIPS] != 0:
        local = card % CARDS_PER_DECK
        if local < 52 and local % 13 == RANK_JACK:  # AMB-19: any jack the actor discards
            g[ix(G_SKIP + (seat + 1) % rt[K.R_PLAYERS])] = 1
    if POWERS:   # a new top, its power unused
        set_pub(g, K.PUB_TOP_POWER_UNUSED, 1)
        g[ix(G_PRIV + PRIV_TOP_NEW)] = 1
    return n_disc, sum_disc


@hot(inline="always")
def _off_pile(g, rt, n_disc, sum_disc):
    """The top discard leaves the pile: (the card, the pile's size and value sum)."""
    n_disc -= 1
    card = g[ix(G_DISCARD + n_disc)]
    _in_sight(g, rt, card, -1)
    return card, n_disc, sum_disc - rt[ix(RT_VALUE + card)]


@hot
def _swap_positions(g, rt, seat, p, q):
    """Exchange the cards at (seat, p) and (seat, q), with their faces and what every seat
    knows of them (the counters do not change)."""
    i = seat * MAX_POS + p
    j = seat * MAX_POS + q
    g[ix(G_LAY + i)], g[ix(G_LAY + j)] = g[ix(G_LAY + j)], g[ix(G_LAY + i)]
    if POWERS:
        _widen(g, max(p, q))
    g[ix(G_UP + i)], g[ix(G_UP + j)] = g[ix(G_UP + j)], g[ix(G_UP + i)]
    up = g[ix(G_UPMASK + seat)]
    g[ix(G_UPMASK + seat)] = (up & ~((1 << p) | (1 << q))) | (((up >> p) & 1) << q) | \
        (((up >> q) & 1) << p)
    for obs in range(rt[K.R_PLAYERS]):
        a = known_at(obs, seat, p)
        b = known_at(obs, seat, q)
        g[ix(a)], g[ix(b)] = g[ix(b)], g[ix(a)]


@hot(inline="always")
def _reshuffle(g, rt, rng, n_disc):
    """The discard pile but its top card becomes the stock; returns the stock's size and the
    pile's value sum (its one card)."""
    n_stock = n_disc - 1
    for i in range(n_stock):
        g[ix(G_STOCK + i)] = g[ix(G_DISCARD + i)]
        _in_sight(g, rt, g[ix(G_DISCARD + i)], -1)
    top = g[ix(G_DISCARD + n_stock)]
    g[ix(G_DISCARD)] = top
    shuffle_nb(g, G_STOCK, n_stock, rng, STREAM_DEAL)
    return n_stock, rt[ix(RT_VALUE + top)]


@hot(inline="always")
def _draw_card(g, rt, rng, n_stock, n_disc, sum_disc, reshuffles):
    """The top stock card, the pile reshuffled into the stock first when it is empty; in a
    power round taking the last one fires stock_exhausted. Returns (the card, n_stock, n_disc,
    sum_disc, reshuffles)."""
    if n_stock == 0:
        n_stock, sum_disc = _reshuffle(g, rt, rng, n_disc)
        n_disc = 1
        reshuffles += 1
    n_stock -= 1
    if POWERS and n_stock == 0 and (rt[K.R_END_TRIGGERS] & K.END_STOCK_EXHAUSTED) != 0:
        g[ix(G_PRIV + PRIV_OVER)] = 1
    return g[ix(G_STOCK + n_stock)], n_stock, n_disc, sum_disc, reshuffles


@hot(inline="always")
def _widen(g, p):
    """Position p may hold a card: the span (codes.PRIV_SPAN) reaches it, unless nothing
    keeps one."""
    span = g[ix(G_PRIV + K.PRIV_SPAN)]
    if span != 0 and p >= span:
        g[ix(G_PRIV + K.PRIV_SPAN)] = p + 1


@hot
def set_cell(g, rt, seat, p, card, up, known, peeked):
    """(seat, p) holds ``card`` (face up or down), known to the seats of bit mask ``known``
    and with peek record ``peeked``; the public counters follow."""
    i = seat * MAX_POS + p
    old = g[ix(G_LAY + i)]
    if old >= 0 and old < K.EMPTY0:
        if g[ix(G_UP + i)] != 0:
            g[ix(G_PUB + K.PUB_FACEUP_N)] -= 1
            g[ix(G_PUB + K.PUB_FACEUP_SUM)] -= rt[ix(RT_VALUE + old)]
        else:
            g[ix(G_FACE_DOWN + seat)] -= 1
    if card < K.EMPTY0:
        if POWERS:
            _widen(g, p)
        if up:
            g[ix(G_PUB + K.PUB_FACEUP_N)] += 1
            g[ix(G_PUB + K.PUB_FACEUP_SUM)] += rt[ix(RT_VALUE + card)]
        else:
            g[ix(G_FACE_DOWN + seat)] += 1
    g[ix(G_LAY + i)] = card
    g[ix(G_UP + i)] = 1 if up else 0
    if up:
        g[ix(G_UPMASK + seat)] |= 1 << p
    else:
        g[ix(G_UPMASK + seat)] &= ~(1 << p)
    for o in range(rt[K.R_PLAYERS]):
        g[ix(G_KNOWN + (o * MAX_PLAYERS + seat) * MAX_POS + p)] = \
            card if (known >> o) & 1 else -1
    g[ix(G_PEEKED + i)] = peeked


@hot
def start_layouts(g, rt, n_disc):
    """After the deal: the positions beyond the grid are empty, nobody peeked yet, no shield,
    the first discard's power unused."""
    for s in range(rt[K.R_PLAYERS]):
        for p in range(MAX_POS):
            g[ix(G_PEEKED + s * MAX_POS + p)] = 0
        for p in range(rt[K.R_NPOS], MAX_POS):
            g[ix(G_LAY + s * MAX_POS + p)] = -1
            set_cell(g, rt, s, p, K.EMPTY0 + p, True, everyone(rt), 0)
    g[ix(G_PRIV + K.PRIV_SPAN)] = rt[K.R_NPOS]
    set_pub(g, K.PUB_POWER, 0)
    set_pub(g, K.PUB_TARGET_SEAT, -1)
    set_pub(g, K.PUB_CHOICE0, -1)
    set_pub(g, K.PUB_CHOICE1, -1)
    set_pub(g, K.PUB_SHIELDED, 0)
    set_pub(g, K.PUB_TOP_POWER_UNUSED, 1 if n_disc > 0 else 0)
    g[ix(G_PRIV + PRIV_OVER)] = 0
    g[ix(G_PRIV + PRIV_END_TURN)] = -1
    g[ix(G_PRIV + PRIV_TOP_NEW)] = 0


@hot
def room(g, seat):
    """The lowest empty position of the seat (where an added card goes), -1 when full."""
    for p in range(MAX_POS):
        if g[ix(G_LAY + seat * MAX_POS + p)] >= K.EMPTY0:
            return p
    return -1


@hot
def opponents(g, rt, seat):
    """The seats a power may target besides the actor's own: not shielded."""
    return everyone(rt) & ~(1 << seat) & ~pub(g, K.PUB_SHIELDED)


@hot
def seats_with(g, rt, seats, face_down):
    """The seats of mask ``seats`` holding a card (``face_down``: a face-down card)."""
    m = 0
    for s in range(rt[K.R_PLAYERS]):
        if (seats >> s) & 1:
            own = face_down_mask(g, s) if face_down else cards_mask(g, s)
            if own != 0:
                m |= 1 << s
    return m


@hot
def can_draw(g, rt):
    return pub(g, K.PUB_STOCK_N) > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and
                                         pub(g, K.PUB_DISCARD_N) > 1)


@hot
def draw_card(g, rt, rng):
    """The top stock card (reshuffling when the stock is empty), or -1 when none may be
    drawn; taking the last one fires stock_exhausted."""
    if not can_draw(g, rt):
        return -1
    card, n_stock, n_disc, sum_disc, reshuffles = _draw_card(
        g, rt, rng, pub(g, K.PUB_STOCK_N), pub(g, K.PUB_DISCARD_N), pub(g, K.PUB_DISCARD_SUM),
        pub(g, K.PUB_RESHUFFLES))
    set_pub(g, K.PUB_STOCK_N, n_stock)
    set_pub(g, K.PUB_DISCARD_N, n_disc)
    set_pub(g, K.PUB_DISCARD_SUM, sum_disc)
    set_pub(g, K.PUB_RESHUFFLES, reshuffles)
    return card


@hot
def take_top(g, rt):
    """The top discard leaves the pile (its unused-power flag is left as it was)."""
    card, n, total = _off_pile(g, rt, pub(g, K.PUB_DISCARD_N), pub(g, K.PUB_DISCARD_SUM))
    set_pub(g, K.PUB_DISCARD_N, n)
    set_pub(g, K.PUB_DISCARD_SUM, total)
    return card


@hot
def put_back(g, rt, card):
    """A card returns on top of the pile as it was (Cactus's discard power): not a new
    discard, no jack skip."""
    n, total = _onto_pile(g, rt, card, pub(g, K.PUB_DISCARD_N), pub(g, K.PUB_DISCARD_SUM))
    set_pub(g, K.PUB_DISCARD_N, n)
    set_pub(g, K.PUB_DISCARD_SUM, total)


@hot
def discard(g, rt, seat, card):
    """``seat`` puts ``card`` on the discard pile (a power round's): a new top, its power
    unused."""
    n, total = _discard(g, rt, seat, card, pub(g, K.PUB_DISCARD_N),
                        pub(g, K.PUB_DISCARD_SUM))
    set_pub(g, K.PUB_DISCARD_N, n)
    set_pub(g, K.PUB_DISCARD_SUM, total)


@hot
def discard_used(g, rt, seat, card):
    """A card whose power was just used goes on top, its power spent."""
    discard(g, rt, seat, card)
    set_pub(g, K.PUB_TOP_POWER_UNUSED, 0)


@hot
def take(g, rt, seat, p):
    """The card at (seat, p) leaves the layout; the position is left empty."""
    card = card_at(g, seat, p)
    set_cell(g, rt, seat, p, K.EMPTY0 + p, True, everyone(rt), 0)
    return card


@hot
def put(g, rt, seat, p, card, up, seen_by):
    """``card`` goes to (seat, p), known to all when face up, else to ``seen_by``."""
    set_cell(g, rt, seat, p, card, up, everyone(rt) if up else seen_by, 0)


@hot
def peek(g, rt, seat, p, observer):
    """``observer`` looks at (seat, p); everyone sees which card was looked at."""
    g[ix(G_KNOWN + (observer * MAX_PLAYERS + seat) * MAX_POS + p)] = card_at(g, seat, p)
    g[ix(G_PEEKED + seat * MAX_POS + p)] |= 1 << observer


@hot
def show(g, rt, seat, p):
    """The card is shown to everyone and goes back as it was."""
    card = card_at(g, seat, p)
    for o in range(rt[K.R_PLAYERS]):
        g[ix(G_KNOWN + (o * MAX_PLAYERS + seat) * MAX_POS + p)] = card


@hot
def turn_up(g, rt, seat, p):
    set_cell(g, rt, seat, p, card_at(g, seat, p), True, everyone(rt),
             g[ix(G_PEEKED + seat * MAX_POS + p)])


@hot
def swap(g, rt, s1, p1, s2, p2):
    """Two cells exchange card, face, knowledge and peek record (a public move)."""
    a = card_at(g, s1, p1)
    a_up = is_up(g, s1, p1)
    a_known = known_mask(g, rt, s1, p1)
    a_peeked = g[ix(G_PEEKED + s1 * MAX_POS + p1)]
    set_cell(g, rt, s1, p1, card_at(g, s2, p2), is_up(g, s2, p2), known_mask(g, rt, s2, p2),
             g[ix(G_PEEKED + s2 * MAX_POS + p2)])
    set_cell(g, rt, s2, p2, a, a_up, a_known, a_peeked)


@hot
def move(g, rt, s1, p1, s2, p2):
    """The card at (s1, p1) moves blind to the empty (s2, p2); (s1, p1) is left empty."""
    set_cell(g, rt, s2, p2, card_at(g, s1, p1), is_up(g, s1, p1), known_mask(g, rt, s1, p1),
             g[ix(G_PEEKED + s1 * MAX_POS + p1)])
    take(g, rt, s1, p1)


@hot
def shuffle_layout(g, rt, rng, seat):
    """The seat's face-down cards, in position order, are shuffled among their positions with
    the deal stream (PyStream.shuffle on that list); nobody knows them afterwards."""
    fd = face_down_mask(g, seat)
    n = 0
    for p in range(MAX_POS):
        if (fd >> p) & 1:
            g[ix(G_SCRATCH + n)] = card_at(g, seat, p)
            n += 1
    shuffle_nb(g, G_SCRATCH, n, rng, STREAM_DEAL)
    k = 0
    for p in range(MAX_POS):
        if (fd >> p) & 1:
            set_cell(g, rt, seat, p, g[ix(G_SCRATCH + k)], False, 0, 0)
            k += 1


@hot
def add_penalty_cards(g, rt, rng, seat, count):
    """``count`` stock cards go face down, unseen, to the seat's lowest empty positions; one
    with no room or no stock is not drawn."""
    for _ in range(count):
        p = room(g, seat)
        if p < 0 or not can_draw(g, rt):
            return
        put(g, rt, seat, p, draw_card(g, rt, rng), False, 0)


@hot
def copy_state_nb(dst, src, players, n_stock, n_disc):
    """dst = src for everything a round of the build reads or writes (the lean build's
    cache, or a power round's views and counters), for ``players`` seats, a stock of
    ``n_stock`` and a discard pile of ``n_disc`` cards: the lookahead players restore one
    loaded deal before each move they try, a copy instead of dealing it again."""
    copy_nb(dst, src, G_LAY, players * MAX_POS)
    copy_nb(dst, src, G_STOCK, n_stock)
    copy_nb(dst, src, G_DISCARD, n_disc)
    if POWERS:
        copy_nb(dst, src, G_PUB, K.G_LEGAL - G_PUB)   # counters, face-down counts, private
        for field in (G_UP, G_PEEKED, K.G_ONCE):
            copy_nb(dst, src, field, players * MAX_POS)
        for field in (G_UPMASK, K.G_PENALTY, G_SKIP, K.G_BANK):
            copy_nb(dst, src, field, players)
        copy_nb(dst, src, K.G_MEMORY, players * K.MEMORY_SLOTS)
        for obs in range(players):
            copy_nb(dst, src, G_KNOWN + obs * MAX_PLAYERS * MAX_POS, players * MAX_POS)
        return
    for field in range(K.G_OWN, G_UPMASK, MAX_PLAYERS * MAX_POS):
        copy_nb(dst, src, field, players * MAX_POS)
    for field in range(G_UPMASK, K.G_SCRATCH, MAX_PLAYERS):
        copy_nb(dst, src, field, players)
    copy_nb(dst, src, G_FACE_DOWN, players)
