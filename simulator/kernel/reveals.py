"""The initial reveal's constraints beyond "any position" and "the nearest row"
(docs/rules.md#initial_reveal_constraint): which positions a seat may still choose, given the
ones it chose (g[G_CHOSEN + seat*MAX_POS + 0 .. n_chosen-1])."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_CHOSEN, G_UP, MAX_POS
from simulator.kernel.jit import hot, ix


@hot
def constraint_mask_nb(g, rt, seat, n_chosen):
    """Bit p set when the constraint lets the seat choose p next (whether p is still face
    down and unknown is the caller's test)."""
    cols = rt[K.R_COLS]
    rows = rt[K.R_ROWS]
    con = rt[K.R_REVEAL_CONSTRAINT]
    centre = cols // 2
    chosen = G_CHOSEN + seat * MAX_POS
    mask = 0
    c = -1      # p's column and row, counted along (no division per position)
    row = 0
    for p in range(rt[K.R_NPOS]):
        c += 1
        if c == cols:
            c = 0
            row += 1
        ok = True
        if con == K.CON_NEAREST_ROW:
            ok = row == rows - 1
        elif con == K.CON_SAME_COLUMN and n_chosen > 0:
            ok = c == g[ix(chosen)] % cols
        elif con == K.CON_DIFFERENT_COLUMNS:
            for i in range(n_chosen):
                if g[ix(chosen + i)] % cols == c:
                    ok = False
        elif con == K.CON_CENTRE_OUTER and n_chosen > 0:
            first_centre = g[ix(chosen)] % cols == centre
            ok = (c == centre) != first_centre
        elif con == K.CON_WHOLE_COLUMN:  # a column is chosen by its top card
            ok = p < cols
            for r in range(rows):
                if g[ix(G_UP + seat * MAX_POS + r * cols + c)]:
                    ok = False
        if ok:
            mask |= 1 << p
    return mask
