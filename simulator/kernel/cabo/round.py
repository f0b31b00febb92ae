"""A round of the Cabo build from the deal to its scores, and a chunk of rounds: the entry
point the runner calls (``chunk_nb``, with the arguments of every build's)."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_LAY, G_MEMORY, G_PRIV, G_STOCK, MAX_PLAYERS, MAX_POS
from simulator.kernel.flow.base import PRIV_END_TURN, PRIV_OVER, known_at
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import STREAM_DEAL, shuffle_nb, stream_state_nb
from simulator.kernel.scoring import grown_values_nb, hole_scores_nb, layout_values_nb
from simulator.kernel.tally import _add_hole_nb, keep_round_nb

from . import seat as Q
from .cells import (KNOWN_TYPES, MASK, PILE_TYPES, SEAT_KNOWN, SEAT_SUM, counter, discard,
                    know, set_counter)
from .turn import note, turn_nb


@hot
def start_round(g, rt, rng, log, seed, round_index):
    """Shuffle and deal as every build does, turn up the first discard, and let each seat
    look at its first cards (greedy's reveal picks: the lowest positions)."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    for i in range(ncards):
        g[ix(G_STOCK + i)] = rt[ix(K.RT_DECK + i)]
    shuffle_nb(g, G_STOCK, ncards, rng, STREAM_DEAL)
    n = ncards
    g[ix(G_PRIV + K.PRIV_SPAN)] = npos
    for t in range(rt[K.RT_TYPE_N]):
        g[ix(PILE_TYPES + t)] = 0
        for o in range(players):
            g[ix(KNOWN_TYPES + o * K.MAX_IDS + t)] = 0
    for s in range(players):
        g[ix(MASK + s)] = (1 << npos) - 1
        for i in range(Q.PLAN_SLOTS):
            g[ix(G_MEMORY + s * K.MEMORY_SLOTS + i)] = 0
        # beyond the grid: empty (what the seats know there is written as the span grows)
        for p in range(npos, MAX_POS):
            g[ix(G_LAY + s * MAX_POS + p)] = K.EMPTY0 + p
        for o in range(players):
            g[ix(SEAT_KNOWN + o * MAX_PLAYERS + s)] = 0
            g[ix(SEAT_SUM + o * MAX_PLAYERS + s)] = 0
            for p in range(npos):
                g[ix(known_at(o, s, p))] = -1
    for p in range(npos):
        for s in range(players):
            n -= 1
            g[ix(G_LAY + s * MAX_POS + p)] = g[ix(G_STOCK + n)]
    set_counter(g, K.PUB_DISCARD_N, 0)
    set_counter(g, K.PUB_DISCARD_SUM, 0)
    if rt[K.R_INITIAL_TURN_UP] != 0:
        n -= 1
        discard(g, rt, g[ix(G_STOCK + n)])
    set_counter(g, K.PUB_STOCK_N, n)
    set_counter(g, K.PUB_ENDER, -1)
    set_counter(g, K.PUB_FINAL_LEFT, -1)
    set_counter(g, K.PUB_KNOCKED, 0)
    g[ix(G_PRIV + PRIV_OVER)] = 0
    g[ix(G_PRIV + PRIV_END_TURN)] = -1
    if rt[K.R_REVEAL_MODE] == K.REVEAL_PEEK:
        first = (rt[K.R_ROWS] - 1) * rt[K.R_COLS] \
            if rt[K.R_REVEAL_CONSTRAINT] == K.CON_NEAREST_ROW else 0
        for s in range(players):
            for p in range(first, min(first + rt[K.R_REVEAL_COUNT], npos)):
                know(g, rt, s, s, p, g[ix(G_LAY + s * MAX_POS + p)])
                note(g, log, 0, s, K.DP_REVEAL, p, -1)


@hot
def play_round(g, rt, log, cap):
    """Turns from seat 0 to the end of the hole (or ``cap`` turns). Returns (turns,
    capped)."""
    players = rt[K.R_PLAYERS]
    seat = 0
    turn = 0
    while True:
        if turn_nb(g, rt, log, seat, turn) <= 0:
            return turn, 0
        turn += 1
        if g[ix(G_PRIV + PRIV_OVER)] != 0:
            return turn, 0   # an emptied layout or stock ended the hole with the turn
        if counter(g, K.PUB_ENDER) >= 0:
            left = counter(g, K.PUB_FINAL_LEFT)
            if g[ix(G_PRIV + PRIV_END_TURN)] < turn - 1:   # a final turn was played
                left -= 1
                set_counter(g, K.PUB_FINAL_LEFT, left)
            if left <= 0:
                return turn, 0
        if counter(g, K.PUB_STOCK_N) == 0:
            return turn, 0
        if turn >= cap:
            return turn, 1
        seat += 1
        if seat == players:
            seat = 0


@hot
def round_nb(seed, round_index, rt, g, rng, log, out, scores, L, quads, extra, tmp):
    """Deal, play and score one round: scores in ``scores``, layout values in ``L``, the
    outcome in ``out`` (codes.OUT_*)."""
    players = rt[K.R_PLAYERS]
    start_round(g, rt, rng, log, seed, round_index)
    turn, capped = play_round(g, rt, log, rt[K.R_TURN_CAP])
    layout_values_nb(g, G_LAY, rt, players, L, quads, tmp)
    grown_values_nb(g, G_LAY, rt, players, L)
    for s in range(players):
        extra[s] = 0
    ender = counter(g, K.PUB_ENDER)
    knocked = counter(g, K.PUB_KNOCKED)
    hole_scores_nb(L, quads, ender, knocked == 1, players, rt, extra, scores)
    out[K.OUT_ERROR] = 0
    out[K.OUT_LOG_N] = g[ix(G_PRIV + K.PRIV_LOG_N)]
    out[K.OUT_TURNS] = turn
    out[K.OUT_CAPPED] = capped
    out[K.OUT_ENDER] = ender
    out[K.OUT_RESHUFFLES] = 0
    out[K.OUT_KNOCKED] = knocked


@hot
def chunk_nb(seed, start, count, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
             acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts, check,
             user, policies, aux):
    """Play rounds ``start .. start+count-1`` and add their sums into acc/tot/hist, as every
    build's chunk_nb (per_round_* arrays of first dimension ``count`` receive each round's
    scores, turns and final layouts). Returns the rounds played."""
    players = rt[K.R_PLAYERS]
    g[ix(G_PRIV + K.PRIV_LOG_N)] = -1
    for i in range(count):
        round_nb(seed, start + i, rt, g, rng, log, out, scores, L, quads, extra, tmp)
        _add_hole_nb(0, scores, out, acc, tot, hist, players)
        keep_round_nb(i, count, g, scores, out, players, rt[K.R_NPOS], per_round_scores,
                      per_round_turns, per_round_layouts)
    return count
