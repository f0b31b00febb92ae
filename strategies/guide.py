"""``guide``: the table-driven player that ``golfsim guide`` writes tables for
(simulator/experiments/guide.py)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK, RANK_JOKER
from simulator.game.codes import (G_DISCARD, G_FACE_DOWN, G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP,
                                  MAX_PLAYERS, MAX_POS, RT_VALUE)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb
from strategies.common import (decide_with_nb, EPS, lowest_legal_nb, MEM_PICKED, MEM_PLANNED_POS,
                               pairs_at_nb, PAR_DOWN, PAR_KEEP_PAIR, PAR_KNOCK, PAR_OUT, PAR_REVEAL,
                               PAR_TAKE_PAIR, REVEAL_APART, reveal_apart_nb, REVEAL_TOGETHER,
                               would_end_nb)
from strategies.greedy import best_placement_nb, layout_estimate_nb, place_or_draw_nb


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
    return layout_estimate_nb(g, rt, seat, p, card, n, S, 0) > out * n + EPS


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
                layout_estimate_nb(g, rt, seat, -1, -1, n, S, 0) <= par[seat, PAR_KNOCK] * n:
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
    return place_or_draw_nb(point, seat, held, g, rt, n, S, 0)


def guide_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, guide_nb)
