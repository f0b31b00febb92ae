"""``opponent-aware``: greedy that does not feed the next seat the cards it collects."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import (G_DISCARD, G_KNOWN, G_LAY, G_LEGAL, G_MEMORY, G_PUB,
                                  G_SEEN_ALL, G_UPMASK, MAX_PLAYERS, MAX_POS, RT_KEY, RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.estimate import column_estimate_nb, estimate_cards_nb
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import can_replace_nb, rel_nb
from strategies.common import MEM_PLANNED_POS, PAR_CARE
from strategies.greedy import place_or_draw_nb
from strategies.powers import decide_others_nb


@hot(inline="always")
def _own_row(seat, lean):
    """Where what ``seat`` knows of its own layout starts: its row of the views, or (``lean``:
    its own build, the lean flow) the flow's cache."""
    return LP.own(seat) if lean else G_KNOWN + (seat * MAX_PLAYERS + seat) * MAX_POS


@hot(inline="always")
def _seen_nb(g, seat, other, q, lean):
    """The card at (other, q) as ``seat`` knows it, or -1: every seat knows the same of another
    seat's cards (face up, or put there in sight of all), kept as a mask in its own build."""
    if lean:
        return g[ix(G_LAY + other * MAX_POS + q)] if (g[ix(G_SEEN_ALL + other)] >> q) & 1 else -1
    return g[ix(G_KNOWN + (seat * MAX_PLAYERS + other) * MAX_POS + q)]


@hot(inline="always")
def _may_replace_nb(g, rt, seat, p, lean):
    if lean:   # the lean flow's rule sets: no empty positions, no spent replacements
        return (LP.replaceable_mask(g[ix(G_UPMASK + seat)], rt) >> p) & 1 != 0
    return can_replace_nb(g, rt, seat, p)


@hot
def placement_gain_nb(g, rt, seat, p, card, n, S, lean):
    """n*G(p): greedy's gain (best_placement_nb's arithmetic) of putting ``card`` at p."""
    own = _own_row(seat, lean)
    if rt[K.R_PAIR_SCOPE] == K.PAIR_COLUMN and rt[K.R_ROWS] == 2:
        cols = rt[K.R_COLS]
        keep = rt[K.R_NEG_PAIRS_KEEP] != 0
        c = p % cols
        a = g[ix(own + c)]
        b = g[ix(own + c + cols)]
        ka = rt[ix(RT_KEY + a)] if a >= 0 else -1
        va = rt[ix(RT_VALUE + a)] if a >= 0 else 0
        kb = rt[ix(RT_KEY + b)] if b >= 0 else -1
        vb = rt[ix(RT_VALUE + b)] if b >= 0 else 0
        kc = rt[ix(RT_KEY + card)]
        vc = rt[ix(RT_VALUE + card)]
        before = column_estimate_nb(ka, va, kb, vb, a >= 0, b >= 0, n, S, keep)
        if p < cols:
            return before - column_estimate_nb(kc, vc, kb, vb, True, b >= 0, n, S, keep)
        return before - column_estimate_nb(ka, va, kc, vc, a >= 0, True, n, S, keep)
    # (hide = 0: the face-up flags are not read)
    return estimate_cards_nb(g, own, g, 0, 0, rt, -1, -1, n, S) - \
        estimate_cards_nb(g, own, g, 0, 0, rt, p, card, n, S)


@hot
def collecting_nb(g, rt, seat, other, key, lean):
    """Does ``other`` (as far as ``seat`` can tell) collect cards of ``key``? It shows, or has
    taken from the discard pile, a card of that key with a positive value that nothing pairs
    yet, next to a related position where it may still put a partner."""
    scope = rt[K.R_PAIR_SCOPE]
    if scope == K.PAIR_NONE:
        return False
    npos = rt[K.R_NPOS]
    for q in range(npos):
        x = _seen_nb(g, seat, other, q, lean)
        if x < 0 or rt[ix(RT_KEY + x)] != key or rt[ix(RT_VALUE + x)] <= 0:
            continue
        paired = False
        open_slot = False
        for r in range(npos):
            if r == q or not rel_nb(rt, q, r):
                continue
            y = _seen_nb(g, seat, other, r, lean)
            if y >= 0 and rt[ix(RT_KEY + y)] == key:
                paired = True
                break
            if _may_replace_nb(g, rt, other, r, lean):
                open_slot = True
        if open_slot and not paired:
            return True
    return False


@hot(inline="always")
def _feeds_nb(g, rt, seat, card, lean):
    """Would ``card`` on top of the discard pile feed the next seat?"""
    if card < 0:
        return False  # a card it does not know: it cannot tell
    return collecting_nb(g, rt, seat, (seat + 1) % rt[K.R_PLAYERS], rt[ix(RT_KEY + card)], lean)


@hot
def _withhold_nb(g, rt, seat, card, n, S, choice, care, may_discard, lean):
    """Greedy put ``card`` at ``choice`` (a position, or A_DISCARD), leaving the old card (or
    ``card``) on top of the discard pile. If that card feeds the next seat, the best choice
    that does not, among those whose gain is at most ``care`` points below greedy's; else
    greedy's own choice."""
    own = _own_row(seat, lean)
    fed = card if choice == K.A_DISCARD else g[ix(own + choice)]
    if not _feeds_nb(g, rt, seat, fed, lean):
        return choice
    base = 0 if choice == K.A_DISCARD else placement_gain_nb(g, rt, seat, choice, card, n, S,
                                                              lean)
    floor = base - care * n
    best = -1
    best_gain = 0
    if may_discard and choice != K.A_DISCARD and 0 >= floor and \
            not _feeds_nb(g, rt, seat, card, lean):
        best = K.A_DISCARD
    for p in range(rt[K.R_NPOS]):
        if p == choice or not _may_replace_nb(g, rt, seat, p, lean) or \
                _feeds_nb(g, rt, seat, g[ix(own + p)], lean):
            continue
        gain = placement_gain_nb(g, rt, seat, p, card, n, S, lean)
        if gain >= floor and (best < 0 or gain > best_gain):
            best = p
            best_gain = gain
    return best if best >= 0 else choice


@hot
def withhold_lean_nb(g, rt, par, seat, card, n, S, choice, may_discard):
    """Opponent-aware's rule in its own build (the lean flow, simulator/kernel/flow/build.py
    AWARE), where greedy's choice ``choice`` comes from the flow's cache: the choice it makes
    instead (opponent_aware_nb's, from the same knowledge)."""
    care = par[seat, PAR_CARE]
    if care <= 0 or rt[K.R_PAIR_SCOPE] == K.PAIR_NONE:
        return choice
    return _withhold_nb(g, rt, seat, card, n, S, choice, care, may_discard, True)


@hot
def opponent_aware_nb(point, seat, held, g, rt, rng, par):
    """``opponent-aware`` (parameter care): greedy, but it watches the next seat (tip S-5,
    docs/rules.md#s-5). When the card greedy would leave on top of the discard pile -- the
    drawn card it discards, or the known card it replaces -- is one the next seat collects, it
    places the card elsewhere or discards instead, if that costs at most ``care`` points of
    greedy's estimated gain. With care = 0 it plays exactly as greedy."""
    n = rt[K.R_NCARDS] - g[ix(G_PUB + K.PUB_FACEUP_N)] - g[ix(G_PUB + K.PUB_DISCARD_N)]
    S = rt[K.R_DECK_SUM] - g[ix(G_PUB + K.PUB_FACEUP_SUM)] - g[ix(G_PUB + K.PUB_DISCARD_SUM)]
    a = place_or_draw_nb(point, seat, held, g, rt, n, S, 0)
    care = par[seat, PAR_CARE]
    if care <= 0 or rt[K.R_PAIR_SCOPE] == K.PAIR_NONE:
        return a
    if point == K.DP_TURN and a == K.A_TAKE_DISCARD:
        mem = G_MEMORY + seat * K.MEMORY_SLOTS + MEM_PLANNED_POS
        top = g[ix(G_DISCARD + g[G_PUB + K.PUB_DISCARD_N] - 1)]
        g[ix(mem)] = _withhold_nb(g, rt, seat, top, n, S, g[ix(mem)], care, False, False)
    elif point == K.DP_PLACE_DRAWN and n > 1 and (a == K.A_DISCARD or 0 <= a < MAX_POS):
        a = _withhold_nb(g, rt, seat, held, n - 1, S - rt[ix(RT_VALUE + held)], a, care,
                         g[ix(G_LEGAL + K.A_DISCARD)] != 0, False)
    return a


def opponent_aware_entry(point, seat, held, g, rt, rng, par, aux):
    return decide_others_nb(point, seat, held, g, rt, rng, par, opponent_aware_nb)
