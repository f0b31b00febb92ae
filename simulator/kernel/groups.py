"""remove_cancelled (docs/rules.md#remove_cancelled, AMB-24): which groups of a layout count,
whether one is complete, and taking its cards off the layout."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_BANK, G_DISCARD, G_KNOWN, G_LAY, G_UP, MAX_PLAYERS, MAX_POS,
                                  RT_KEY, RT_VALUE)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import BLOCKS_3X3, line_mask_nb
from simulator.kernel.scoring import pair_of_values_nb

N_GROUPS = 12   # a 3x3 grid's eight lines and four 2x2 blocks; a 2-row grid's columns


@hot
def group_mask_nb(rt, i):
    """Cells of group i of the layout, 0 when the rules do not count it: a 2-row grid's
    pair-columns; a 3x3 grid's lines (as line_sets counts them), then its 2x2 blocks."""
    if rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        return (1 << i) | (1 << (i + cols)) if i < cols else 0
    if i < 8:
        return line_mask_nb(rt, i)
    if i < 12 and rt[K.R_BLOCK_VALUE] != K.NONE_VALUE:
        return BLOCKS_3X3[i - 8]
    return 0


@hot
def completed_nb(g, rt, seat, mask):
    """Are the cells of ``mask`` all face up, none empty, and all of one key?"""
    key = 0
    first = True
    for p in range(rt[K.R_NPOS]):
        if (mask >> p) & 1:
            i = seat * MAX_POS + p
            card = g[ix(G_LAY + i)]
            if g[ix(G_UP + i)] == 0 or card >= K.EMPTY0:
                return False
            if first:
                key = rt[ix(RT_KEY + card)]
                first = False
            elif rt[ix(RT_KEY + card)] != key:
                return False
    return True


@hot
def group_value_nb(g, rt, seat, i):
    """What the seat banks for its completed group i: a pair-column's value as a pair, a
    block's value, nothing for a line."""
    if rt[K.R_ROWS] == 2:
        a = g[ix(G_LAY + seat * MAX_POS + i)]
        b = g[ix(G_LAY + seat * MAX_POS + i + rt[K.R_COLS])]
        return pair_of_values_nb(a, b, rt[ix(RT_VALUE + a)], rt[ix(RT_VALUE + b)], rt)
    if i >= 8:
        return rt[K.R_BLOCK_VALUE]
    return 0


@hot
def remove_cells_nb(g, rt, seat, mask, value, n_disc):
    """The cards of ``mask`` go under the discard pile of ``n_disc`` cards (lowest position at
    the very bottom); their positions stay empty, face up and known to all, and ``value`` is
    banked for the seat. Returns (cards moved, their value sum)."""
    k = 0
    for p in range(rt[K.R_NPOS]):
        k += (mask >> p) & 1
    for i in range(n_disc - 1, -1, -1):
        g[ix(G_DISCARD + i + k)] = g[ix(G_DISCARD + i)]
    j = 0
    total = 0
    for p in range(rt[K.R_NPOS]):
        if (mask >> p) & 1:
            i = seat * MAX_POS + p
            card = g[ix(G_LAY + i)]
            g[ix(G_DISCARD + j)] = card
            j += 1
            total += rt[ix(RT_VALUE + card)]
            g[ix(G_LAY + i)] = K.EMPTY0 + p
            for obs in range(rt[K.R_PLAYERS]):
                g[ix(G_KNOWN + (obs * MAX_PLAYERS + seat) * MAX_POS + p)] = K.EMPTY0 + p
    g[ix(G_BANK + seat)] += value
    return k, total
