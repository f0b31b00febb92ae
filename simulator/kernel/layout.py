"""Layout geometry, the legality of touching a position and the seats in turn order, shared by
the engine and policies so that both agree on what may be replaced."""

from simulator.kernel.jit import hot, ix

from ..game import codes as K


@hot(inline="always")
def seat_after_nb(seat, k, players):
    """(seat + k) % players for 0 <= k < players, without a division (tens of cycles, in loops
    over the seats that run at every turn or decision)."""
    s = seat + k
    return s - players if s >= players else s


@hot(inline="always")
def span_nb(g):
    """How many positions of each layout may hold a card in a power round (codes.PRIV_SPAN):
    every position from there on is empty (a pseudo-card, face up, known to all, worth 0, of
    a key of its own). All of them where nothing keeps the span (0)."""
    span = g[ix(K.G_PRIV + K.PRIV_SPAN)]
    return span if span != 0 else K.MAX_POS


@hot(inline="always")
def can_replace_nb(g, rt, seat, p):
    """May ``seat`` put a new card at its position p? (reads only public state: which
    positions are empty, the face-up flags and, with replace_unseen_once, which positions have
    had their one replacement)"""
    if g[ix(K.G_LAY + seat * K.MAX_POS + p)] >= K.EMPTY0:  # left empty by remove_cancelled
        return False
    if rt[K.R_REPLACE_UNSEEN_ONCE] != 0 and \
            g[ix(K.G_ONCE + seat * K.MAX_POS + p)] == K.ONCE_SPENT:
        return False
    base = K.G_UP + seat * K.MAX_POS
    if g[ix(base + p)] == 0:
        return True
    if rt[K.R_REPLACE_FACE_UP] == 0:
        return False
    if rt[K.R_LOCK_FACE_UP_COLUMNS] != 0:
        cols = rt[K.R_COLS]
        other = p + cols if p < cols else p - cols
        if g[ix(base + other)]:
            return False
    return True


@hot
def related_nb(p, q, scope, cols):
    """Do positions p and q pair under the pair scope (docs/rules.md#pair_scope)?"""
    if scope == K.PAIR_ANYWHERE:
        return True
    if scope == K.PAIR_NONE:
        return False
    rp, cp = p // cols, p % cols
    rq, cq = q // cols, q % cols
    if scope == K.PAIR_COLUMN:
        return cp == cq
    if scope == K.PAIR_ROW_OR_COLUMN:
        return rp == rq or cp == cq
    dr = rp - rq if rp >= rq else rq - rp
    dc = cp - cq if cp >= cq else cq - cp
    if scope == K.PAIR_DIAGONAL:
        return dr == 0 or dc == 0 or dr == dc
    return dr + dc == 1  # orthogonal_adjacent


@hot(inline="always")
def rel_nb(rt, p, q):
    """``related_nb`` under the rule set's own pair scope, read from its table (codes.RT_REL):
    no division, so the policies' pair searches can afford it at every step."""
    return (rt[ix(K.RT_REL + p)] >> q) & 1 != 0


# A 3x3 grid's eight lines (three columns, three rows, two diagonals) and four 2x2 blocks, as
# bitmasks of cells: lines for line_sets scoring and remove_cancelled, blocks for the latter
LINES_3X3 = (0b001001001, 0b010010010, 0b100100100, 0b000000111, 0b000111000, 0b111000000,
             0b100010001, 0b001010100)
BLOCKS_3X3 = (0b000011011, 0b000110110, 0b011011000, 0b110110000)


# the cells of each line of LINES_3X3, in position order
LINE_CELLS_3X3 = tuple(tuple(p for p in range(9) if (m >> p) & 1) for m in LINES_3X3)


@hot(inline="always")
def lines_counted_nb(ri):
    """How many lines of LINES_3X3 line_sets counts (docs/rules.md#line_sets): they are in
    the order the sets grow by (columns; also rows; also diagonals)."""
    sets = ri[K.R_LINE_SETS]
    if sets == K.LINES_NONE:
        return 0
    if sets == K.LINES_COLUMNS:
        return 3
    return 8 if sets == K.LINES_ALL else 6


@hot(inline="always")
def line_mask_nb(ri, i):
    """Cells of line i of a 3x3 grid when line_sets counts it, else 0."""
    return LINES_3X3[i] if i < lines_counted_nb(ri) else 0
