"""``greedy`` and ``knock-threshold`` (W1 and W2 of docs/benchmarks.md): one-step
placement by the card-counting estimate (simulator/kernel/estimate.py), knocking at a
threshold. The lean build plays the same decisions from its cache
(simulator/kernel/lean_policy.py)."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LEGAL, G_MEMORY, G_PUB, G_UP, MAX_PLAYERS,
                                  MAX_POS, RT_KEY, RT_VALUE)
from simulator.kernel.estimate import (best_scan_nb, column_estimate_nb,  # noqa: F401
                                       estimate_cards_nb, own_card_at_nb)
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb
from strategies.common import decide_with_nb, lowest_legal_nb, MEM_PLANNED_POS, PAR_T
from strategies.powers import (greedy_pool_nb, KIND_GREEDY, KIND_KNOCK, memory_pool_nb,
                               power_best_placement_nb, power_free_estimate_nb, power_game_nb,
                               power_rule_nb, NO_SAY, view_pool_nb)


@hot(inline="always")
def own_card_nb(g, seat, p, hide):
    """The seat's own card at p as far as it remembers it, or -1: ``hide`` has bit p set for
    positions whose face-down card it has forgotten (see ``forgetful_nb``; 0 for the others)."""
    return own_card_at_nb(g, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS, g,
                          G_UP + seat * MAX_POS, hide, p)


@hot(inline="always")
def layout_estimate_nb(g, rt, seat, at, card, n, S, hide):
    """n times the estimated layout score (simulator.kernel.estimate.estimate_cards_nb, for pair
    scopes other than 2-row columns) with ``card`` imagined at position ``at`` (at = -1: as it
    is)."""
    return estimate_cards_nb(g, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS, g,
                             G_UP + seat * MAX_POS, hide, rt, at, card, n, S)


@hot
def best_placement_nb(g, rt, seat, card, n, S, hide):
    """W1's placement rule (docs/benchmarks.md#w1) generalised: the replaceable position with
    the largest gain n*G(p) among eligible ones (G >= 1 over a known card, G >= 0 over an
    unknown one), ties to the lowest position; -1 if none is eligible. Positions in ``hide``
    count as unknown."""
    npos = rt[K.R_NPOS]
    best = -1
    best_gain = 0
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        keep = rt[K.R_NEG_PAIRS_KEEP] != 0
        kc = rt[ix(RT_KEY + card)]
        vc = rt[ix(RT_VALUE + card)]
        for c in range(cols):
            a = own_card_nb(g, seat, c, hide)
            b = own_card_nb(g, seat, c + cols, hide)
            ka = rt[ix(RT_KEY + a)] if a >= 0 else -1
            va = rt[ix(RT_VALUE + a)] if a >= 0 else 0
            kb = rt[ix(RT_KEY + b)] if b >= 0 else -1
            vb = rt[ix(RT_VALUE + b)] if b >= 0 else 0
            before = column_estimate_nb(ka, va, kb, vb, a >= 0, b >= 0, n, S, keep)
            if can_replace_nb(g, rt, seat, c):  # the top card of the column
                gain = before - column_estimate_nb(kc, vc, kb, vb, True, b >= 0, n, S, keep)
                if gain >= (n if a >= 0 else 0) and (best < 0 or gain > best_gain or
                                                     (gain == best_gain and c < best)):
                    best = c
                    best_gain = gain
            if can_replace_nb(g, rt, seat, c + cols):  # the bottom card
                gain = before - column_estimate_nb(ka, va, kc, vc, a >= 0, True, n, S, keep)
                if gain >= (n if b >= 0 else 0) and (best < 0 or gain > best_gain or
                                                     (gain == best_gain and c + cols < best)):
                    best = c + cols
                    best_gain = gain
        return best
    replaceable = 0
    for p in range(npos):
        if can_replace_nb(g, rt, seat, p):
            replaceable |= 1 << p
    return best_scan_nb(g, G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS, g,
                        G_UP + seat * MAX_POS, hide, rt, replaceable, card, n, S)


@hot(inline="always")
def placement_nb(g, rt, seat, card, n, S, hide, power):
    """best_placement_nb, over a layout that may have grown in a power game."""
    if power:
        return power_best_placement_nb(g, rt, seat, card, n, S, hide)
    return best_placement_nb(g, rt, seat, card, n, S, hide)


@hot
def place_or_draw_nb(point, seat, held, g, rt, n, S, hide, stall=False, power=False):
    """The placement rule shared by greedy and knock-threshold, given the seat's unseen pool
    (n cards worth S, the held card not yet removed): take the discard if it has an eligible
    placement, else draw; place a drawn card at its best eligible position, else discard
    (with ``stall``, greedy's stall rule: over its lowest unknown face-down position).
    ``hide``: own positions it has forgotten (0 but for ``forgetful``)."""
    if point == K.DP_TURN:
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)] and n > 0:
            top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
            p = placement_nb(g, rt, seat, top, n, S, hide, power)
            if p >= 0:
                # decided before taking: remembered for the placement that follows
                g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)] = p
                return K.A_TAKE_DISCARD
        if g[ix(G_LEGAL + K.A_DRAW_STOCK)]:
            return K.A_DRAW_STOCK
        return lowest_legal_nb(g, 0, K.N_ACTIONS)
    if point == K.DP_PLACE_TAKEN:
        p = g[ix(G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS)]
        if p >= 0 and g[ix(G_LEGAL + p)]:
            return p
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_PLACE_DRAWN:
        n -= 1
        S -= rt[ix(RT_VALUE + held)]
        p = placement_nb(g, rt, seat, held, n, S, hide, power) if n > 0 else -1
        if p >= 0:
            return p
        if stall:
            for q in range(rt[K.R_NPOS]):
                if g[ix(G_LEGAL + q)] and own_card_nb(g, seat, q, hide) < 0:
                    return q
        if g[ix(G_LEGAL + K.A_DISCARD)]:
            return K.A_DISCARD
        return lowest_legal_nb(g, 0, MAX_POS)
    if point == K.DP_FLIP and g[ix(G_LEGAL + K.A_PASS)]:
        return K.A_PASS
    if point == K.DP_FACE:
        return K.A_FACE_UP
    return lowest_legal_nb(g, 0, K.N_ACTIONS)


@hot
def greedy_power_nb(point, seat, held, g, rt, kind, hide, forget, n, S):
    """powers.decide for greedy, knock-threshold and forgetful, given the seat's pool without
    the held card: the answer, or -1 for the plain rules. Their placement of a held card is
    the best placement by the view pool (the held card out), as the reference's."""
    vn, vS = view_pool_nb(n, S, rt, held)
    place = -1
    if point == K.DP_PLACE_DRAWN and vn > 0 or \
            point == K.DP_PLACE_TAKEN and g[ix(G_PUB + K.PUB_POWER)] == K.POW_EXCHANGE_THIS:
        place = power_best_placement_nb(g, rt, seat, held, vn, vS, hide)
    elif point == K.DP_TURN and g[ix(G_LEGAL + K.A_DISCARD_POWER)]:
        # what its turn rule would do instead: take the discard or draw
        place = K.A_DRAW_STOCK
        if g[ix(G_LEGAL + K.A_TAKE_DISCARD)] and n > 0 and power_best_placement_nb(
                g, rt, seat, g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)], n, S, hide) >= 0:
            place = K.A_TAKE_DISCARD
    return power_rule_nb(point, seat, held, g, rt, vn, vS, kind, forget, place, NO_SAY, 1.0)


@hot(inline="always")
def greedy_nb(point, seat, held, g, rt, rng, par):
    """W1's ``greedy`` (docs/benchmarks.md#w1): card-counting, one-step placement gain. Its
    pool U: cards neither face up in a grid nor in the discard pile (nor the card just
    drawn)."""
    if power_game_nb(rt):
        n, S = greedy_pool_nb(g, rt, seat)
        a = greedy_power_nb(point, seat, held, g, rt, KIND_GREEDY, 0, False, n, S)
        if a >= 0:
            return a
        return place_or_draw_nb(point, seat, held, g, rt, n, S, 0, False, True)
    return greedy_plain_nb(point, seat, held, g, rt, rng, par)


@hot(inline="always")
def greedy_plain_nb(point, seat, held, g, rt, rng, par):
    """``greedy_nb`` in a game without powers. What never plays the power games (greedy's
    plain entry, lookahead's: they have their powers entries) calls this one, so that the
    power rules are not compiled into it."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_FACEUP_N)] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_FACEUP_SUM)] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    stall = g[ix(G_PUB + K.PUB_RESHUFFLES)] >= K.GREEDY_STALL_RESHUFFLES and \
        (rt[K.R_END_TRIGGERS] & K.END_ALL_FACE_UP) != 0
    return place_or_draw_nb(point, seat, held, g, rt, n, S, 0, stall)


@hot(inline="always")
def knock_threshold_nb(point, seat, held, g, rt, rng, par):
    """W2's ``knock-threshold`` (docs/benchmarks.md#w2; parameter T): its pool U is every card
    but the discard pile and its own known cards (what it has seen elsewhere is not
    subtracted); it knocks at the start of a turn when its estimated score E <= T, else plays
    greedy's placement rule with that pool."""
    if power_game_nb(rt):
        return knock_power_nb(point, seat, held, g, rt, par, 0, False)
    return knock_threshold_plain_nb(point, seat, held, g, rt, rng, par)


@hot(inline="always")
def knock_threshold_plain_nb(point, seat, held, g, rt, rng, par):
    """``knock_threshold_nb`` in a game without powers (its plain entry, as greedy_plain_nb)."""
    own = G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    for p in range(rt[K.R_NPOS]):
        c = g[ix(own + p)]
        if 0 <= c < K.EMPTY0:  # (an empty position's pseudo-card is no card of the deck)
            n -= 1
            S -= rt[ix(RT_VALUE + c)]
    if point == K.DP_TURN and g[ix(G_LEGAL + K.A_KNOCK)] and n > 0:
        nE = layout_estimate_nb(g, rt, seat, -1, -1, n, S, 0)
        if nE <= par[seat, PAR_T] * n:
            return K.A_KNOCK
    return place_or_draw_nb(point, seat, held, g, rt, n, S, 0)


@hot
def knock_power_nb(point, seat, held, g, rt, par, hide, forget):
    """knock-threshold (and forgetful, with what it has forgotten) in a power game: its knock
    rule over the whole (maybe grown) layout, else the power rule, else greedy's
    placement."""
    n, S = memory_pool_nb(g, rt, seat, hide)
    if (point == K.DP_TURN or point == K.DP_KNOCK) and g[ix(G_LEGAL + K.A_KNOCK)] and n > 0:
        if power_free_estimate_nb(g, rt, seat, n, S, hide) <= par[seat, PAR_T] * n:
            return K.A_KNOCK
    a = greedy_power_nb(point, seat, held, g, rt, KIND_KNOCK, hide, forget, n, S)
    if a >= 0:
        return a
    if point == K.DP_KNOCK:
        return K.A_PASS
    return place_or_draw_nb(point, seat, held, g, rt, n, S, hide, False, True)


# The entry points (strategies/compiled.py): outside the power-card games, without the power
# rules, which took most of their compile (26 s of greedy's); in them, with (POWER_ENTRIES).
def greedy_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, greedy_plain_nb)


def knock_threshold_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, knock_threshold_plain_nb)


def greedy_powers_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, greedy_nb)


def knock_threshold_powers_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_with_nb(point, seat, held, g, rt, rng, par, knock_threshold_nb)
