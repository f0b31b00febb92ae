"""The start of a round: the initial reveal (flip or peek, chosen or not), rearranging, and the
groups a reveal completes leaving the layout (remove_cancelled)."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_CHOSEN, G_LAY, G_LEGAL, G_PUB, G_UPMASK, MAX_POS
from simulator.kernel.estimate import trailing_zeros
from simulator.kernel.groups import (N_GROUPS, completed_nb, group_mask_nb, group_value_nb,
                                     remove_cells_nb)
from simulator.kernel.jit import hot, ix
from simulator.kernel.reveals import constraint_mask_nb

from .ask import _ask, _clear, _logged, _mask_positions, _publish, _refused, _show_piles
from .base import LOGS, STEP, VIEWS, own, popcount
from .build import GENERAL, GUIDE, POWERS, RANDOM, own_decide, random_pick
from .moves import _swap_positions, _turn_up, _unknown_mask, learn_nb


@hot(inline="always")
def _revealable(g, rt, seat, taken, n_chosen):
    """Bit p set when the seat may still reveal p: face down, not known, not in ``taken``
    (its picks so far, ``n_chosen`` of them), and as the constraint allows."""
    con = rt[K.R_REVEAL_CONSTRAINT]
    first = 0
    if con == K.CON_NEAREST_ROW:
        first = (rt[K.R_ROWS] - 1) * rt[K.R_COLS]
    mask = _unknown_mask(g, rt, seat, first) & ~taken
    if GENERAL and con > K.CON_NEAREST_ROW:
        mask &= constraint_mask_nb(g, rt, seat, n_chosen)
    return mask


@hot(inline="always")
def _reveal(g, rt, seat, p):
    """Peek at or flip the chosen position (with whole_column: the whole column of p).
    Returns the cards turned up and their value sum."""
    if rt[K.R_REVEAL_MODE] == K.REVEAL_PEEK:
        learn_nb(g, rt, seat, p, g[ix(G_LAY + seat * MAX_POS + p)])
        if POWERS:   # everyone sees which card was looked at
            g[ix(K.G_PEEKED + seat * MAX_POS + p)] |= 1 << seat
        return 0, 0
    if GENERAL and rt[K.R_REVEAL_CONSTRAINT] == K.CON_WHOLE_COLUMN:
        cols = rt[K.R_COLS]
        total = 0
        for r in range(rt[K.R_ROWS]):
            total += _turn_up(g, rt, seat, r * cols + p % cols)
        return rt[K.R_ROWS], total
    return 1, _turn_up(g, rt, seat, p)


@hot(inline=STEP)
def _reveal_pick(g, rt, rng, par, ctx, seat, mask, rest, picks):
    """The seat's next reveal pick among the positions of ``mask``: the lowest of them in
    ``rest`` (what is left of a set it answered), else its answer to DP_REVEAL, which may be
    a set of ``picks`` positions (REVEAL_SET; PUB_REVEAL_PICKS offers it when ``picks`` > 0).
    A pick from a set is logged as if asked, so that a set plays and replays as its picks one
    by one. Returns (the position or -1 on a policy error, what is left of the set)."""
    if rest == 0:
        _mask_positions(g, rt, mask)
        g[ix(G_PUB + K.PUB_REVEAL_PICKS)] = picks
        a = _ask(g, rt, rng, par, ctx, K.DP_REVEAL, seat, -1, False)
        g[ix(G_PUB + K.PUB_REVEAL_PICKS)] = 0
        if a < K.REVEAL_SET:
            return a, 0
        rest = a - K.REVEAL_SET
        if popcount(rest) != picks:
            return _refused(g, K.DP_REVEAL, seat, a), 0
    ok = rest & mask
    if ok == 0:
        return _refused(g, K.DP_REVEAL, seat, K.REVEAL_SET + rest), 0
    p = trailing_zeros(ok)
    if LOGS:
        p = _logged(g, ctx[0], K.DP_REVEAL, seat, -1, p)
    return p, rest & ~(1 << p)


@hot(inline=STEP)
def _choose_reveals(g, rt, rng, par, ctx, seat, decisions, reveal_now, up_n, up_sum):
    """Up to ``decisions`` reveal picks of ``seat`` (fewer when none is legal), kept at
    g[G_CHOSEN + seat*MAX_POS ...] with their count in the row's last slot; each revealed at
    once when ``reveal_now``. Built-in seats of the lean build take the lowest position.
    Returns (face-up cards, their value sum, ok)."""
    chosen = G_CHOSEN + seat * MAX_POS
    n = 0
    taken = 0
    rest = 0
    for i in range(decisions):
        mask = _revealable(g, rt, seat, taken, n)
        if mask == 0:
            break
        if VIEWS:
            p, rest = _reveal_pick(g, rt, rng, par, ctx, seat, mask, rest,
                                   decisions if i == 0 else 0)
            if p < 0:
                return up_n, up_sum, False
        else:
            p = trailing_zeros(mask)
        g[ix(chosen + n)] = p
        taken |= 1 << p
        n += 1
        if reveal_now:
            k, v = _reveal(g, rt, seat, p)
            up_n += k
            up_sum += v
            if VIEWS:
                g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
                g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum
    if VIEWS and rest != 0:   # a set naming a position no pick could reach
        _refused(g, K.DP_REVEAL, seat, K.REVEAL_SET + rest)
        return up_n, up_sum, False
    g[ix(chosen + MAX_POS - 1)] = n
    return up_n, up_sum, True


@hot(inline=STEP)
def _reveal_chosen(g, rt, seat, up_n, up_sum):
    """Reveal the picks kept for ``seat``."""
    chosen = G_CHOSEN + seat * MAX_POS
    for i in range(g[ix(chosen + MAX_POS - 1)]):
        k, v = _reveal(g, rt, seat, g[ix(chosen + i)])
        up_n += k
        up_sum += v
    if VIEWS:
        g[ix(G_PUB + K.PUB_FACEUP_N)] = up_n
        g[ix(G_PUB + K.PUB_FACEUP_SUM)] = up_sum
    return up_n, up_sum


@hot(inline=STEP)
def _initial_reveal(g, rt, rng, par, ctx, n_stock, n_disc, sum_disc):
    """Flip or peek, seat by seat from the first player. Returns (face-up cards, their value
    sum, ok)."""
    count = rt[K.R_REVEAL_COUNT]
    mode = rt[K.R_REVEAL_MODE]
    if VIEWS:
        _publish(g, n_stock, n_disc, sum_disc, 0, 0, 0, -1, -1, 0, 0)
    if (mode != K.REVEAL_FLIP and mode != K.REVEAL_PEEK) or count == 0:
        return 0, 0, True
    if VIEWS:
        return _chosen_reveals(g, rt, rng, par, ctx, count)
    # greedy and knock-threshold reveal their lowest unknown positions, random any: one mask
    # a seat, and the order of choosing and revealing changes nothing they know
    up_n = 0
    up_sum = 0
    for seat in range(rt[K.R_PLAYERS]):
        mask = _revealable(g, rt, seat, 0, 0)
        for i in range(count):
            if mask == 0:
                break
            if GUIDE:   # (its picks so far are revealed: it counts them known or picked)
                _mask_positions(g, rt, mask)
                p = own_decide(K.DP_REVEAL, seat, -1, g, rt, rng, par, ctx[3])
            else:
                p = random_pick(rng, seat, mask) if RANDOM else trailing_zeros(mask)
            k, v = _reveal(g, rt, seat, p)
            up_n += k
            up_sum += v
            mask &= ~(1 << p) if RANDOM or GUIDE else mask - 1
    return up_n, up_sum, True


@hot(inline=STEP)
def _chosen_reveals(g, rt, rng, par, ctx, count):
    """The initial reveal of policies that choose (the views published). With sequential
    choice each card is seen before the next is chosen; otherwise a seat's cards (or, with
    simultaneous order, everyone's) are revealed after all of them are chosen. Returns
    (face-up cards, their value sum, ok)."""
    up_n = 0
    up_sum = 0
    simultaneous = rt[K.R_REVEAL_SIMULTANEOUS] != 0
    sequential = rt[K.R_REVEAL_SEQUENTIAL] != 0 and not simultaneous
    for seat in range(rt[K.R_PLAYERS]):
        up_n, up_sum, ok = _choose_reveals(g, rt, rng, par, ctx, seat, count, sequential,
                                           up_n, up_sum)
        if not ok:
            return up_n, up_sum, False
        if not sequential and not simultaneous:
            up_n, up_sum = _reveal_chosen(g, rt, seat, up_n, up_sum)
    if simultaneous:
        for seat in range(rt[K.R_PLAYERS]):
            up_n, up_sum = _reveal_chosen(g, rt, seat, up_n, up_sum)
    return up_n, up_sum, True


@hot
def _arrange(g, rt, rng, par, ctx):
    """rearrange_after_reveal (docs/rules.md#rearrange_after_reveal): seat by seat from the
    first player, each face-up card, lowest position first, is given a position not yet
    settled (DP_ARRANGE, ``held`` = the card); the two cards there swap and the position is
    settled. Face-down cards thus move blindly into the places face-up cards leave."""
    npos = rt[K.R_NPOS]
    for seat in range(rt[K.R_PLAYERS]):
        settled = 0
        while True:
            free_up = g[ix(G_UPMASK + seat)] & ~settled
            if free_up == 0:
                break
            p = trailing_zeros(free_up)
            _mask_positions(g, rt, ((1 << npos) - 1) & ~settled)
            q = _ask(g, rt, rng, par, ctx, K.DP_ARRANGE, seat,
                     g[ix(G_LAY + seat * MAX_POS + p)], False)
            if q < 0:
                return False
            if q != p:
                _swap_positions(g, rt, seat, p, q)
            settled |= 1 << q
    return True


@hot
def _remove_groups(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """Take the seat's completed groups off its layout: all of them (immediate), or those
    its owner chooses (optional_to_discard_bottom, one DP_REMOVE question each; a group it
    keeps is offered again the next time). The views are published. Returns (ok, n_disc,
    sum_disc, up_n, up_sum)."""
    mode = rt[K.R_REMOVE_CANCELLED]
    if mode == K.REMOVE_NEVER:
        return True, n_disc, sum_disc, up_n, up_sum
    for i in range(N_GROUPS):
        mask = group_mask_nb(rt, i)
        if mask == 0 or not completed_nb(g, rt, seat, mask):
            continue
        value = group_value_nb(g, rt, seat, i)
        if mode == K.REMOVE_OPTIONAL:
            _clear(g)
            g[ix(G_LEGAL + K.A_REMOVE)] = 1
            g[ix(G_LEGAL + K.A_PASS)] = 1
            a = _ask(g, rt, rng, par, ctx, K.DP_REMOVE, seat, trailing_zeros(mask), False)
            if a < 0:
                return False, n_disc, sum_disc, up_n, up_sum
            if a == K.A_PASS:
                continue
        k, total = remove_cells_nb(g, rt, seat, mask, value, n_disc)
        n_disc += k
        sum_disc += total
        up_n -= k
        up_sum -= total
        _show_piles(g, n_disc, sum_disc, up_n, up_sum)
    return True, n_disc, sum_disc, up_n, up_sum


@hot
def _before_play(g, rt, rng, par, ctx, n_disc, sum_disc, up_n, up_sum):
    """The general build's steps between the reveal and the first turn: rearranging, marking
    what each owner saw for replace_unseen_once, removing the groups the reveal completed.
    The views are published. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    if rt[K.R_REARRANGE] != 0 and not _arrange(g, rt, rng, par, ctx):
        return False, n_disc, sum_disc, up_n, up_sum
    if rt[K.R_REPLACE_UNSEEN_ONCE] != 0:  # what each owner saw before play has no limit
        for s in range(rt[K.R_PLAYERS]):
            for p in range(rt[K.R_NPOS]):
                if g[ix(own(s) + p)] >= 0:
                    g[ix(K.G_ONCE + s * MAX_POS + p)] = K.ONCE_SEEN
    for s in range(rt[K.R_PLAYERS]):
        ok, n_disc, sum_disc, up_n, up_sum = _remove_groups(g, rt, rng, par, ctx, s, n_disc,
                                                            sum_disc, up_n, up_sum)
        if not ok:
            return False, n_disc, sum_disc, up_n, up_sum
    return True, n_disc, sum_disc, up_n, up_sum


@hot
def _first_turn(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """initial_reveal_mode = flip_on_first_turn: the seat's flips open its first turn (with
    whole_column one decision turns a whole column up), and the groups they complete leave.
    The views are published. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    decisions = 1 if rt[K.R_REVEAL_CONSTRAINT] == K.CON_WHOLE_COLUMN else rt[K.R_REVEAL_COUNT]
    up_n, up_sum, ok = _choose_reveals(g, rt, rng, par, ctx, seat, decisions, True, up_n,
                                       up_sum)
    if not ok:
        return False, n_disc, sum_disc, up_n, up_sum
    return _remove_groups(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum)


@hot
def _groups_revealed(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """The groups that the others' forced reveal (reveal_on_trigger) completed leave their
    layouts. Returns (ok, n_disc, sum_disc, up_n, up_sum)."""
    for s in range(rt[K.R_PLAYERS]):
        if s != seat:
            ok, n_disc, sum_disc, up_n, up_sum = _remove_groups(g, rt, rng, par, ctx, s,
                                                                n_disc, sum_disc, up_n, up_sum)
            if not ok:
                return False, n_disc, sum_disc, up_n, up_sum
    return True, n_disc, sum_disc, up_n, up_sum
