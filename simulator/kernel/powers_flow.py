"""The moves of the power-card games for the compiled flow's powers build (simulator/kernel/
flow.py asks the decisions; simulator/game/powers.py is the specification), written once.

A layout has all MAX_POS positions: one without a card (emptied, or not grown into) holds the
pseudo-card EMPTY0 + p, face up, known to all, worth 0. So "the lowest empty position" is
where an added card goes, and a layout with none is full. While a power turn runs, the round's
counters live in the public slots (stock, discard pile, face-up cards, turn, ender, ...) and
every move below keeps them, the face-down counts, the face-up flags, what each seat knows
(G_KNOWN, Cell.known_to) and who was seen peeking (G_PEEKED, Cell.peeked_by) exact: a cell
is always written whole (set_cell), as the reference's PowerCell is.
"""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK, RANK_JACK
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LAY, G_PEEKED, G_PRIV,
                                  G_PUB, G_SCRATCH, G_SKIP, G_STOCK, G_UP, G_UPMASK,
                                  MAX_PLAYERS, MAX_POS, RT_KEY, RT_VALUE)
from simulator.kernel.jit import copy_nb, hot, ix
from simulator.kernel.lean_policy import replaceable_mask
from simulator.kernel.rng import STREAM_DEAL, shuffle_nb

# engine-private slots of a power round (codes.G_PRIV; 0..5 are the flow's)
PRIV_OVER = 8        # empty_layout / stock_exhausted fired: the hole ends after the action
PRIV_END_TURN = 9    # the turn in which the end was triggered, -1 while none
PRIV_TOP_NEW = 10    # this turn put a new card on top of the discard pile
ALL_POS = (1 << MAX_POS) - 1


@hot(inline="always")
def pub(g, slot):
    return g[ix(G_PUB + slot)]


@hot(inline="always")
def set_pub(g, slot, v):
    g[ix(G_PUB + slot)] = v


@hot(inline="always")
def priv(g, slot):
    return g[ix(G_PRIV + slot)]


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
def known_mask(g, rt, seat, p):
    """Bit o set when seat o knows the card at (seat, p)."""
    m = 0
    for o in range(rt[K.R_PLAYERS]):
        if g[ix(G_KNOWN + (o * MAX_PLAYERS + seat) * MAX_POS + p)] >= 0:
            m |= 1 << o
    return m


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
def copy_round_nb(dst, src, players, n_stock, n_disc):
    """dst = src for everything a power round of ``players`` seats reads or writes, with a
    stock of ``n_stock`` and a discard pile of ``n_disc`` cards: the lookahead player restores
    one dealt state before each move it tries (strategies/lookahead_powers.py)."""
    copy_nb(dst, src, G_PUB, K.G_LEGAL - G_PUB)   # public counters, face-down counts, private
    for field in (G_LAY, G_UP, G_PEEKED, K.G_ONCE):
        copy_nb(dst, src, field, players * MAX_POS)
    for field in (G_UPMASK, K.G_PENALTY, G_SKIP, K.G_BANK):
        copy_nb(dst, src, field, players)
    copy_nb(dst, src, K.G_MEMORY, players * K.MEMORY_SLOTS)
    for obs in range(players):
        copy_nb(dst, src, G_KNOWN + obs * MAX_PLAYERS * MAX_POS, players * MAX_POS)
    copy_nb(dst, src, G_STOCK, n_stock)
    copy_nb(dst, src, G_DISCARD, n_disc)


# ---- what is where --------------------------------------------------------------------------
@hot
def cards_mask(g, seat):
    """Bit p set when (seat, p) holds a card."""
    m = 0
    for p in range(MAX_POS):
        if g[ix(G_LAY + seat * MAX_POS + p)] < K.EMPTY0:
            m |= 1 << p
    return m


@hot(inline="always")
def face_down_mask(g, seat):
    """The seat's face-down positions (an empty one is face up)."""
    return ALL_POS & ~g[ix(G_UPMASK + seat)]


@hot
def unknown_mask(g, seat):
    """Its face-down positions whose card the seat does not know (what it may pay to see)."""
    m = 0
    fd = face_down_mask(g, seat)
    for p in range(MAX_POS):
        if (fd >> p) & 1 and g[ix(G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS + p)] < 0:
            m |= 1 << p
    return m


@hot
def replaceable(g, rt, seat):
    """Where a new card may go (PowerState.replaceable_positions): grid positions as the
    plain game allows, grown ones unless face up and replace_face_up_allowed = false."""
    grid = (1 << rt[K.R_NPOS]) - 1
    up = g[ix(G_UPMASK + seat)]
    rep = replaceable_mask(up & grid, rt) & grid
    grown = ALL_POS & ~grid
    if rt[K.R_REPLACE_FACE_UP] == 0:
        grown &= ~up
    return (rep | grown) & cards_mask(g, seat)


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
def popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


# ---- piles ----------------------------------------------------------------------------------
@hot
def can_draw(g, rt):
    return pub(g, K.PUB_STOCK_N) > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and
                                         pub(g, K.PUB_DISCARD_N) > 1)


@hot
def reshuffle(g, rt, rng):
    """The discard pile but its top becomes the stock, shuffled with the deal stream."""
    n_stock = pub(g, K.PUB_DISCARD_N) - 1
    for i in range(n_stock):
        g[ix(G_STOCK + i)] = g[ix(G_DISCARD + i)]
    top = g[ix(G_DISCARD + n_stock)]
    g[ix(G_DISCARD)] = top
    shuffle_nb(g, G_STOCK, n_stock, rng, STREAM_DEAL)
    set_pub(g, K.PUB_STOCK_N, n_stock)
    set_pub(g, K.PUB_DISCARD_N, 1)
    set_pub(g, K.PUB_DISCARD_SUM, rt[ix(RT_VALUE + top)])
    set_pub(g, K.PUB_RESHUFFLES, pub(g, K.PUB_RESHUFFLES) + 1)


@hot
def draw_card(g, rt, rng):
    """The top stock card (reshuffling when the stock is empty), or -1 when none may be
    drawn; taking the last one fires stock_exhausted."""
    if not can_draw(g, rt):
        return -1
    if pub(g, K.PUB_STOCK_N) == 0:
        reshuffle(g, rt, rng)
    n = pub(g, K.PUB_STOCK_N) - 1
    set_pub(g, K.PUB_STOCK_N, n)
    if n == 0 and (rt[K.R_END_TRIGGERS] & K.END_STOCK_EXHAUSTED) != 0:
        g[ix(G_PRIV + PRIV_OVER)] = 1
    return g[ix(G_STOCK + n)]


@hot
def take_top(g, rt):
    """The top discard leaves the pile (its unused-power flag is left as it was)."""
    n = pub(g, K.PUB_DISCARD_N) - 1
    card = g[ix(G_DISCARD + n)]
    set_pub(g, K.PUB_DISCARD_N, n)
    set_pub(g, K.PUB_DISCARD_SUM, pub(g, K.PUB_DISCARD_SUM) - rt[ix(RT_VALUE + card)])
    return card


@hot
def put_back(g, rt, card):
    """A card returns on top of the pile as it was (Cactus's discard power): not a new
    discard, no jack skip."""
    n = pub(g, K.PUB_DISCARD_N)
    g[ix(G_DISCARD + n)] = card
    set_pub(g, K.PUB_DISCARD_N, n + 1)
    set_pub(g, K.PUB_DISCARD_SUM, pub(g, K.PUB_DISCARD_SUM) + rt[ix(RT_VALUE + card)])


@hot
def discard(g, rt, seat, card):
    """``seat`` puts ``card`` on the discard pile: a new top, its power unused."""
    put_back(g, rt, card)
    if rt[K.R_JACK_SKIPS] != 0:
        local = card % CARDS_PER_DECK
        if local < 52 and local % 13 == RANK_JACK:
            g[ix(G_SKIP + (seat + 1) % rt[K.R_PLAYERS])] = 1
    set_pub(g, K.PUB_TOP_POWER_UNUSED, 1)
    g[ix(G_PRIV + PRIV_TOP_NEW)] = 1


@hot
def discard_used(g, rt, seat, card):
    """A card whose power was just used goes on top, its power spent."""
    discard(g, rt, seat, card)
    set_pub(g, K.PUB_TOP_POWER_UNUSED, 0)


# ---- cell moves -----------------------------------------------------------------------------
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


# ---- the end --------------------------------------------------------------------------------
@hot
def start_end(g, rt, seat):
    """``seat`` ends the hole (a call, a flip-all, all face up): the final turns, and with
    reveal_on_trigger the others' face-down cards turned up."""
    players = rt[K.R_PLAYERS]
    ft = rt[K.R_FINAL_TURNS]
    left = 0
    if ft == K.FINAL_EACH_OTHER:
        left = players - 1
    elif ft != K.FINAL_NONE:
        left = players - 1 - seat
    set_pub(g, K.PUB_ENDER, seat)
    set_pub(g, K.PUB_FINAL_LEFT, left)
    if rt[K.R_REVEAL_ON_TRIGGER] != 0:
        for s in range(players):
            if s != seat:
                fd = face_down_mask(g, s)
                for p in range(MAX_POS):
                    if (fd >> p) & 1:
                        turn_up(g, rt, s, p)
    g[ix(G_PRIV + PRIV_END_TURN)] = pub(g, K.PUB_TURN)


@hot
def cancel_end(g):
    """The Dutch black king: a running final lap is cancelled."""
    set_pub(g, K.PUB_ENDER, -1)
    set_pub(g, K.PUB_FINAL_LEFT, -1)
    set_pub(g, K.PUB_KNOCKED, 0)
    g[ix(G_PRIV + PRIV_END_TURN)] = -1


@hot
def check_over(g, rt, seat):
    """Step 5: an emptied layout (the first seat from ``seat`` on becomes the ender unless
    there is one) or the last stock card taken ends the hole now."""
    players = rt[K.R_PLAYERS]
    if (rt[K.R_END_TRIGGERS] & K.END_EMPTY_LAYOUT) != 0:
        for k in range(players):
            s = (seat + k) % players
            if cards_mask(g, s) == 0:
                g[ix(G_PRIV + PRIV_OVER)] = 1
                if pub(g, K.PUB_ENDER) < 0:
                    set_pub(g, K.PUB_ENDER, s)
                    set_pub(g, K.PUB_FINAL_LEFT, 0)
                    g[ix(G_PRIV + PRIV_END_TURN)] = pub(g, K.PUB_TURN)
                break
    return g[ix(G_PRIV + PRIV_OVER)] != 0


@hot
def may_call(g, rt):
    """A knock or call is possible: nobody ended the hole, it is not over, enough laps."""
    return (rt[K.R_END_TRIGGERS] & (K.END_KNOCK | K.END_CALL)) != 0 and \
        pub(g, K.PUB_ENDER) < 0 and g[ix(G_PRIV + PRIV_OVER)] == 0 and \
        pub(g, K.PUB_TURN) >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]


# ---- which effect has a target now ----------------------------------------------------------
# the Dutch table by rank index (A..K), for the 2's combinations (powers.DUTCH_EFFECTS)
DUTCH_BY_RANK = (K.POW_GIVE_OR_REMOVE, K.POW_COMBINE, K.POW_SHUFFLE_OPP, K.POW_FLIP_OPP,
                 K.POW_SHIELD, K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_LINE, K.POW_DRAW_TWO,
                 K.POW_EXCHANGE_THIS, K.POW_PEEK_OPP, K.POW_PEEK_OWN, K.POW_NONE,
                 K.POW_CANCEL_FINAL)


@hot
def give_or_remove_seats(g, rt, seat):
    """The Dutch ace: opponents that can be given a card, and the seat itself when it has a
    card to remove."""
    m = 0
    if can_draw(g, rt):
        opps = opponents(g, rt, seat)
        for s in range(rt[K.R_PLAYERS]):
            if (opps >> s) & 1 and room(g, s) >= 0:
                m |= 1 << s
    if cards_mask(g, seat) != 0:
        m |= 1 << seat
    return m


@hot
def usable(g, rt, seat, effect):
    """Has the effect a target now (is POWER offered)? (COMBINE: see combinable.)"""
    opps = opponents(g, rt, seat)
    me = 1 << seat
    if effect == K.POW_PEEK_OWN:
        return face_down_mask(g, seat) != 0
    if effect == K.POW_PEEK_OPP or effect == K.POW_FLIP_OPP or effect == K.POW_SHUFFLE_OPP:
        return seats_with(g, rt, opps, True) != 0
    if effect == K.POW_PEEK_ANY:
        return seats_with(g, rt, opps | me, True) != 0
    if effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or \
            effect == K.POW_PEEK_BOTH_SWAP:
        return cards_mask(g, seat) != 0 and seats_with(g, rt, opps, False) != 0
    if effect == K.POW_SWAP_ANY_TWO:
        n = 0
        for s in range(rt[K.R_PLAYERS]):
            if ((opps | me) >> s) & 1:
                n += popcount(cards_mask(g, s))
        return n >= 2
    if effect == K.POW_SWAP_LINE:
        return rt[K.R_SWAP_LINE_OK] != 0 and opps != 0
    if effect == K.POW_DRAW_TWO:
        return can_draw(g, rt)
    if effect == K.POW_SHIELD:
        return True
    if effect == K.POW_GIVE_OR_REMOVE:
        return give_or_remove_seats(g, rt, seat) != 0
    if effect == K.POW_CANCEL_FINAL:
        return pub(g, K.PUB_ENDER) >= 0
    if effect == K.POW_EXCHANGE_THIS:
        return replaceable(g, rt, seat) != 0 and seats_with(g, rt, opps, False) != 0
    return False


@hot
def combinable(g, rt, seat, chosen):
    """DP_CHOOSE_POWER's ranks: enabled, combinable, not chosen yet, usable now."""
    m = 0
    bits = rt[K.R_COMBINABLE] & ~chosen
    for rank in range(13):
        if (bits >> rank) & 1 and usable(g, rt, seat, DUTCH_BY_RANK[rank]):
            m |= 1 << rank
    return m


@hot
def power_usable(g, rt, seat, effect):
    if effect == K.POW_COMBINE:
        return combinable(g, rt, seat, 0) != 0
    return effect != K.POW_NONE and usable(g, rt, seat, effect)


@hot
def match_possible(g, rt, seat):
    mode = rt[K.R_TURN_MATCH]
    if mode == K.TMATCH_PABLO:
        return popcount(cards_mask(g, seat)) >= 2
    if mode == K.TMATCH_CABO:
        return seats_with(g, rt, everyone(rt), False) != 0
    return False
