"""Whole matches: what a hole leaves for the match (the pot, four of a kind), and the rules'
named codes the match loop (flow.play_matches_nb) reads."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.cards import CARDS_PER_DECK
from simulator.game.codes import G_LAY, G_PUB, MAX_PLAYERS, MAX_POS
from simulator.kernel.jit import hot, ix
from simulator.kernel.rng import (STREAM_DEAL, STREAM_DEALER, STREAM_TIEBREAK, below_nb,
                                  stream_state_nb)
from simulator.kernel.tally import (MACC_POT_SQ, MACC_POT_SUM, MACC_TOTAL_SQ, MACC_TOTAL_SUM,
                                    MACC_WIN_K0, MAX_MATCH_HOLES, MTOT_HOLES_SQ, MTOT_HOLES_SUM,
                                    MTOT_MATCHES, _lowest_nb)


@hot
def four_of_a_kind_nb(g, seat, npos, counts):
    """Does the seat's layout hold four cards of one rank (jokers are no rank)? AMB-29."""
    for r in range(13):
        counts[r] = 0
    for p in range(npos):
        local = g[ix(G_LAY + seat * MAX_POS + p)] % CARDS_PER_DECK
        if local < 52:
            r = local % 13
            counts[r] += 1
            if counts[r] >= 4:
                return True
    return False


MATCH_TIE_TIEBREAK = K.MATCH_TIES.index("tiebreak")
MATCH_TIE_EXTRA = K.MATCH_TIES.index("extra_holes")
KNOCK_ONLY = K.ENDER_APPLIES.index("knock_only")
TIE_NEUTRAL = K.ENDER_TIES.index("neutral")
TIE_LOWEST = K.ENDER_TIES.index("counts_as_lowest")
MT_BALANCE = MAX_PLAYERS        # match_total[MT_BALANCE + s]: seat s's pot balance
MT_POT = 2 * MAX_PLAYERS        # match_total[MT_POT]: what the pot holds
MATCH_SCRATCH = 2 * MAX_PLAYERS + 1


@hot
def _settle_pot_nb(rt, out, L, first, players, mt):
    """After a hole (docs/rules.md#pot_enabled, AMB-38): the ender takes the pot when lowest by
    layout value, else pays in as much as it holds (each at most the cap); a tie follows
    ender_tie (neutral: nothing changes hands)."""
    e = out[K.OUT_ENDER]
    if e < 0 or (rt[K.R_ENDER_APPLIES] == KNOCK_ONLY and out[K.OUT_KNOCKED] == 0):
        return
    others = 1 << 40
    for j in range(players):
        if j != e and L[j] < others:
            others = L[j]
    if L[e] < others:
        wins = True
    elif L[e] > others:
        wins = False
    elif rt[K.R_ENDER_TIE] == TIE_NEUTRAL:
        return
    else:
        wins = rt[K.R_ENDER_TIE] == TIE_LOWEST
    amount = mt[MT_POT]
    if rt[K.R_POT_CAP] > 0 and amount > rt[K.R_POT_CAP]:
        amount = rt[K.R_POT_CAP]
    seat = (first + e) % players
    if wins:
        mt[MT_BALANCE + seat] += amount
        mt[MT_POT] -= amount
    else:
        mt[MT_BALANCE + seat] -= amount
        mt[MT_POT] += amount


@hot
def start_match_nb(seed, m, rt, rng, players, match_total):
    """Clear match ``m``'s totals; returns the seat that plays first in its first hole (drawn
    with dealer_selection = random, else seat 0)."""
    for s in range(players):
        match_total[s] = 0
        match_total[MT_BALANCE + s] = 0
    match_total[MT_POT] = 0
    if rt[K.R_DEALER_RANDOM] == 0:
        return 0
    rng[STREAM_DEAL] = stream_state_nb(seed, m, STREAM_DEALER)
    return below_nb(rng, STREAM_DEAL, players)


@hot
def publish_match_nb(g, h, holes, target, first, players, match_total):
    """The match as the policies see it before hole ``h`` (codes.PUB_HOLE ...): its number,
    the holes or the target, and each seat's total, the seats numbered from ``first``."""
    g[ix(G_PUB + K.PUB_HOLE)] = h
    g[ix(G_PUB + K.PUB_HOLES)] = holes
    g[ix(G_PUB + K.PUB_TARGET)] = target
    for j in range(MAX_PLAYERS):
        g[ix(G_PUB + K.PUB_TOTAL0 + j)] = match_total[(first + j) % players] if j < players \
            else 0


@hot
def outside_match_nb(g):
    """What the policies see of the match when a hole is played alone: hole 0 of 1."""
    g[ix(G_PUB + K.PUB_HOLE)] = 0
    g[ix(G_PUB + K.PUB_HOLES)] = 1
    g[ix(G_PUB + K.PUB_TARGET)] = 0
    for j in range(MAX_PLAYERS):
        g[ix(G_PUB + K.PUB_TOTAL0 + j)] = 0


@hot
def seat_hole_nb(rt, par, par_rot, first, players, match_total):
    """Before a hole: the policy table rotated so that row j is the seat playing j-th, and
    each seat's ante into an empty pot."""
    for j in range(players):
        for c in range(par.shape[1]):
            par_rot[j, c] = par[(first + j) % players, c]
    ante = rt[K.R_POT_ANTE]
    if ante > 0 and match_total[MT_POT] == 0:
        for s in range(players):
            match_total[MT_BALANCE + s] -= ante
        match_total[MT_POT] = ante * players


@hot
def _instant_win_nb(g, rt, scores, first, players, macc, tmp):
    """four_of_kind_wins_match: did a seat end the hole holding four of a kind? The lowest
    hole score among those seats wins the match (ties share); True when one did."""
    low = 1 << 40
    for j in range(players):  # tmp[16 + j]: seat j holds four of a kind
        tmp[16 + j] = four_of_a_kind_nb(g, j, rt[K.R_NPOS], tmp)
        if tmp[16 + j] and scores[j] < low:
            low = scores[j]
    if low == (1 << 40):
        return False
    kq = 0
    for j in range(players):
        if tmp[16 + j] and scores[j] == low:
            kq += 1
    for j in range(players):
        if tmp[16 + j] and scores[j] == low:
            macc[(first + j) % players, MACC_WIN_K0 + kq - 1] += 1
    return True


@hot
def after_hole_nb(g, rt, out, scores, L, first, players, h, holes, target, match_total, macc,
                  tmp):
    """A hole of a match was played (``h`` holes so far) from seat ``first``: its pot and
    totals. Returns (the next hole's first seat, whether the match is over, whether it ended
    at once by four of a kind)."""
    if rt[K.R_POT_ANTE] > 0:
        _settle_pot_nb(rt, out, L, first, players, match_total)
    high = -(1 << 40)
    for j in range(players):
        s = (first + j) % players
        match_total[s] += scores[j]
        if match_total[s] > high:
            high = match_total[s]
    if rt[K.R_FOUR_KIND_WINS] != 0 and _instant_win_nb(g, rt, scores, first, players, macc,
                                                        tmp):
        return first, True, True
    if rt[K.R_FIRST_WINNER] != 0 and (rt[K.R_END_TRIGGERS] & K.END_CALL) != 0:
        # the call (Cactus): the lowest layout value wins, the caller losing a tie
        # (reference.hole_winner)
        ender = out[K.OUT_ENDER]
        low = L[0]
        for j in range(1, players):
            low = min(low, L[j])
        win = ender
        for j in range(players):
            if L[j] == low and j != ender:
                win = j
                break
        nxt = (first + win) % players
    elif rt[K.R_FIRST_WINNER] != 0:
        low = scores[0]
        nxt = first
        for j in range(1, players):
            if scores[j] < low:
                low = scores[j]
                nxt = (first + j) % players
    else:
        nxt = (first + 1) % players
    if target > 0:
        done = high >= target or h >= MAX_MATCH_HOLES
    else:
        done = h >= holes
    if done and rt[K.R_MATCH_TIE] == MATCH_TIE_EXTRA and h < MAX_MATCH_HOLES:
        best, k = _lowest_nb(match_total, players)
        done = k == 1
    return nxt, done, False


@hot
def end_match_nb(seed, m, rt, rng, players, h, instant, match_total, macc, mtot):
    """Match ``m`` is over after ``h`` holes: its winners (ties share, or a random tiebreak)
    and its totals and pot balances into the sums."""
    best, k = _lowest_nb(match_total, players)
    pick = -1
    if k > 1 and not instant and rt[K.R_MATCH_TIE] == MATCH_TIE_TIEBREAK:
        rng[STREAM_DEAL] = stream_state_nb(seed, m, STREAM_TIEBREAK)
        pick = below_nb(rng, STREAM_DEAL, k)
    t = 0
    for s in range(players):
        v = match_total[s]
        macc[s, MACC_TOTAL_SUM] += v
        macc[s, MACC_TOTAL_SQ] += v * v
        if v == best and not instant:
            if pick < 0:
                macc[s, MACC_WIN_K0 + k - 1] += 1
            elif t == pick:
                macc[s, MACC_WIN_K0] += 1
            t += 1
        b = match_total[MT_BALANCE + s]
        macc[s, MACC_POT_SUM] += b
        macc[s, MACC_POT_SQ] += b * b
    mtot[MTOT_MATCHES] += 1
    mtot[MTOT_HOLES_SUM] += h
    mtot[MTOT_HOLES_SQ] += h * h
