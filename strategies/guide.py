"""``guide``: the table-driven player that ``golfsim guide`` writes tables for
(simulator/experiments/guide.py)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_KNOWN_N, G_LEGAL, G_MEMORY, G_PUB, G_UP,
                                  MAX_PLAYERS, MAX_POS, RT_KEY, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb, LINE_CELLS_3X3, lines_counted_nb, LINES_3X3
from strategies.common import (decide_with_nb, EPS, has_rank_nb, lowest_legal_nb, MEM_PICKED,
                               MEM_PLANNED_POS, pairs_somewhere_nb, PAR_DOWN, PAR_KEEP_LINE3,
                               PAR_KEEP_PAIR, PAR_KNOCK, PAR_OUT, PAR_POWER_USE, PAR_REVEAL,
                               PAR_TAKE_LINE3, PAR_TAKE_PAIR,
                               rank_nb, REVEAL_APART, reveal_apart_nb, REVEAL_TOGETHER,
                               would_end_nb)
from strategies.greedy import best_placement_nb, layout_estimate_nb, place_or_draw_nb
from strategies.powers import decide_others_using_nb, SAY_LEN


@hot(inline="always")
def _in_table_nb(g, rt, par, seat, first, card, pairs, lean):
    """Is ``card`` in the guide's table for its situation (``pairs``: it pairs a card the
    seat knows)? ``first`` is the table's pair column (PAR_TAKE_PAIR or PAR_KEEP_PAIR); the
    early, late and last-turn columns follow. Early: more than a third of the seat's cards are
    unknown to it (face down and not seen: in a game of face-down cards, what it has still to
    learn of its own layout)."""
    if pairs:
        col = first
    elif g[ix(G_PUB + K.PUB_ENDER)] >= 0:
        col = first + 3
    elif _unknown_own_nb(g, rt, seat, lean) * 3 > rt[K.R_NPOS]:
        col = first + 1
    else:
        col = first + 2
    return has_rank_nb(par[seat, col], card)


@hot(inline="always")
def _unknown_own_nb(g, rt, seat, lean):
    """How many of its own cards the seat does not know (``lean``: the lean flow counts those
    it knows)."""
    if lean:
        return rt[K.R_NPOS] - g[ix(G_KNOWN_N + seat)]
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    n = 0
    for q in range(rt[K.R_NPOS]):
        if g[ix(own + q)] < 0:
            n += 1
    return n


# ---- lines of three (line_sets: 3x3 grids where three equal cards in a line score 0) ----------
@hot
def line_target_nb(g, rt, seat, card, n, S):
    """(k, q): how ``card`` could build a line of three that the rules score (line_sets) in
    the seat's layout. k = 2: two known cards of a line match it and it completes the line at
    q; k = 1: one known card of a line matches it, both other places of the line can take a
    card, and q is the one whose card is worth more to replace (n times its value; a card the
    seat does not know counts at the mean S/n of the unseen). The line with the larger k, then
    the larger worth, then the first; (0, -1) when the card builds no line."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    key = rt[ix(RT_KEY + card)]
    best_k = 0
    best_q = -1
    best_w = 0
    for i in range(lines_counted_nb(rt)):
        k = 0
        q = -1
        w = 0
        open_line = True
        for p in LINE_CELLS_3X3[i]:
            c = g[ix(own + p)]
            if 0 <= c < K.EMPTY0 and rt[ix(RT_KEY + c)] == key:
                k += 1
            elif can_replace_nb(g, rt, seat, p):
                v = rt[ix(RT_VALUE + c)] * n if c >= 0 else S
                if q < 0 or v > w:
                    q = p
                    w = v
            else:
                open_line = False
        if open_line and (k == 1 or k == 2) and q >= 0 and \
                (k > best_k or (k == best_k and w > best_w)):
            best_k = k
            best_q = q
            best_w = w
    return best_k, best_q


@hot
def complete_lines_nb(g, rt, seat, at, card):
    """Cells (bit p) of the seat's complete lines of three equal known cards that the rules
    score, with ``card`` imagined at ``at`` (at = -1: as it is)."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    out = 0
    for i in range(lines_counted_nb(rt)):
        a, b, c = LINE_CELLS_3X3[i]
        x = _seen_card_nb(g, own, a, at, card)
        y = _seen_card_nb(g, own, b, at, card)
        z = _seen_card_nb(g, own, c, at, card)
        if x >= 0 and y >= 0 and z >= 0 and rt[ix(RT_KEY + x)] == rt[ix(RT_KEY + y)] and \
                rt[ix(RT_KEY + x)] == rt[ix(RT_KEY + z)]:
            out |= LINES_3X3[i]
    return out


@hot(inline="always")
def _seen_card_nb(g, own, p, at, card):
    """The card the seat knows at p (``own``: its known cards), ``card`` imagined at ``at``;
    -1 when it does not know one there or the position is empty."""
    c = card if p == at else g[ix(own + p)]
    return c if 0 <= c < K.EMPTY0 else -1


@hot
def estimate_nb(g, rt, seat, at, card, n, S):
    """n times the seat's estimated score (greedy's, with ``card`` imagined at ``at``), less
    the known cards of its complete lines of three, which score 0."""
    total = layout_estimate_nb(g, rt, seat, at, card, n, S, 0)
    lines = complete_lines_nb(g, rt, seat, at, card)
    if lines != 0:
        own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
        for p in range(rt[K.R_NPOS]):
            if (lines >> p) & 1:
                c = card if p == at else g[ix(own + p)]
                total -= rt[ix(RT_VALUE + c)] * n
    return total


@hot
def _kept_lines_nb(g, rt, par, seat):
    """Cells of the seat's complete lines whose rank it builds lines with (take_line3 or
    keep_line3): its placements leave them alone."""
    cells = complete_lines_nb(g, rt, seat, -1, -1)
    if cells == 0:
        return 0
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    builds = np.int64(par[seat, PAR_TAKE_LINE3]) | np.int64(par[seat, PAR_KEEP_LINE3])
    kept = 0
    for p in range(rt[K.R_NPOS]):
        if (cells >> p) & 1 and (builds >> rank_nb(g[ix(own + p)])) & 1:
            kept |= 1 << p
    return kept


@hot(inline="always")
def _placement_nb(g, rt, par, seat, card, n, S, lean):
    """greedy's placement (``best_placement_nb``; ``lean``: the lean flow's search of its cache,
    the same choice), except that it never breaks a complete line the seat keeps
    (``_kept_lines_nb``): then the best of the other places by the same rule (a gain of a point
    over a known card, any gain over an unknown one; ties to the lowest place), or -1."""
    if lean:
        p = LP.best_placement(g, rt, seat, card, n, S, LP.vector_scope(rt))
    else:
        p = best_placement_nb(g, rt, seat, card, n, S, 0)
    if p < 0 or rt[K.R_LINE_SETS] == K.LINES_NONE:
        return p
    kept = _kept_lines_nb(g, rt, par, seat)
    if (kept >> p) & 1 == 0:
        return p
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    now = estimate_nb(g, rt, seat, -1, -1, n, S)
    best = -1
    best_gain = 0
    for q in range(rt[K.R_NPOS]):
        if (kept >> q) & 1 or not can_replace_nb(g, rt, seat, q):
            continue
        gain = now - estimate_nb(g, rt, seat, q, card, n, S)
        if gain >= (n if g[ix(own + q)] >= 0 else 0) and (best < 0 or gain > best_gain):
            best = q
            best_gain = gain
    return best


@hot(inline="always")
def _line_place_nb(g, rt, par, seat, card, n, S, col3, out):
    """Where the guide puts ``card`` to build a line (its rank in the table column ``col3``
    when it completes one, ``col3 + 1`` when it joins one), or -1."""
    if rt[K.R_LINE_SETS] == K.LINES_NONE:
        return -1   # (line_target_nb finds no line)
    k, q = line_target_nb(g, rt, seat, card, n, S)
    if k == 0 or not has_rank_nb(par[seat, col3 + (2 - k)], card) or \
            _goes_out_too_high_nb(g, rt, seat, q, card, n, S, out):
        return -1
    return q


@hot(inline="always")
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


@hot(inline="always")
def _goes_out_too_high_nb(g, rt, seat, p, card, n, S, out):
    """Would placing ``card`` at p turn the seat's last face-down card up, ending the round,
    with an estimated score above ``out``?"""
    if not would_end_nb(g, rt, seat) or g[ix(G_UP + seat * MAX_POS + p)] != 0 or \
            rt[K.R_PLACEMENT_FACE] != K.FACE_UP or n <= 0:
        return False
    return estimate_nb(g, rt, seat, p, card, n, S) > out * n + EPS


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
def guide_nb(point, seat, held, g, rt, rng, par, lean=False):
    """``guide``: greedy's card counting and placement, with the decisions a strategy guide
    tabulates taken from tables (docs/policies.md): which discards to take and which drawn
    cards to keep, by rank and situation (the card pairs one it knows; else early, late or
    on its last turn); in games scoring lines of three, which cards it takes or keeps to
    complete a line or to join one (and the complete lines of those ranks it then never
    breaks); where a kept card goes; the highest score to go out or knock with (its estimate
    counting a complete line as 0); how to make the initial reveal. With every rank in every
    table, no rank in the line tables nor in ``down``, no limit on going out, no knocking and
    reveal 0 it plays exactly as greedy. (In power-card games its tables of powers, snaps
    and matches are read by ``guide_entry``, where those decisions are taken.) ``lean``: in
    its own build, the lean flow, whose cache it places cards from (guide_lean_entry)."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_FACEUP_N)] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_FACEUP_SUM)] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    out = par[seat, PAR_OUT]
    # the knock (a call in the power-card games) wherever it is asked: at the start of the
    # turn, or after it (knock_timing end_of_own_turn / any_time_in_turn)
    if (point == K.DP_TURN or point == K.DP_KNOCK) and g[ix(G_LEGAL + K.A_KNOCK)] and n > 0 \
            and estimate_nb(g, rt, seat, -1, -1, n, S) <= par[seat, PAR_KNOCK] * n:
        return K.A_KNOCK
    if point == K.DP_TURN:
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)] and n > 0:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p = _line_place_nb(g, rt, par, seat, top, n, S, PAR_TAKE_LINE3, out)
            if p >= 0:
                g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
            p = _placement_nb(g, rt, par, seat, top, n, S, lean)
            if p >= 0:
                pairs = pairs_somewhere_nb(g, rt, seat, top, lean)
                p = _guide_position_nb(g, rt, par, seat, top, p, n, S, pairs)
                if (_in_table_nb(g, rt, par, seat, PAR_TAKE_PAIR, top, pairs, lean) and
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
        if n <= 0:
            return K.A_DISCARD
        p = _line_place_nb(g, rt, par, seat, held, n, S, PAR_KEEP_LINE3, out)
        if p >= 0:
            return p
        p = _placement_nb(g, rt, par, seat, held, n, S, lean)
        if p < 0:
            return K.A_DISCARD
        pairs = pairs_somewhere_nb(g, rt, seat, held, lean)
        p = _guide_position_nb(g, rt, par, seat, held, p, n, S, pairs)
        if not _in_table_nb(g, rt, par, seat, PAR_KEEP_PAIR, held, pairs, lean) or \
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


assert SAY_LEN == 10   # say_of_nb below builds the tuple of every column of the pairs


@hot(inline="always")
def say_of_nb(par, seat):
    """The guide's tables of powers, snaps and matches (power_use .. blind_skip, its parameter
    columns from PAR_POWER_USE on), as the rank masks strategies/powers.py power_rule_nb's
    ``say`` takes."""
    c = PAR_POWER_USE
    return (np.int64(par[seat, c]), np.int64(par[seat, c + 1]), np.int64(par[seat, c + 2]),
            np.int64(par[seat, c + 3]), np.int64(par[seat, c + 4]), np.int64(par[seat, c + 5]),
            np.int64(par[seat, c + 6]), np.int64(par[seat, c + 7]), np.int64(par[seat, c + 8]),
            np.int64(par[seat, c + 9]))


def guide_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_others_using_nb(point, seat, held, g, rt, rng, par, guide_nb,
                                  say_of_nb(par, seat), 1.0)


@hot(inline="always")
def _guide_lean_nb(point, seat, held, g, rt, rng, par):
    return guide_nb(point, seat, held, g, rt, rng, par, True)


def guide_lean_entry(point, seat, held, g, rt, rng, par, aux):
    """The guide in its own build (simulator/kernel/flow/build.py GUIDE: the lean flow, which
    keeps what the guide reads and asks it the plain games' decisions)."""
    return decide_with_nb(point, seat, held, g, rt, rng, par, _guide_lean_nb)
