"""A round from the deal to its scores, a chunk of rounds, and match play; the entry points
every build exports (``chunk_nb``, ``play_matches_nb``, ``round_nb``, ``play_nb``, ...)."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_CHOSEN, G_DISCARD, G_FACE_DOWN, G_LAY, G_MEMORY,
                                  G_PENALTY, G_POLICY, G_PRIV, G_PUB, G_SKIP, G_STOCK, G_UP,
                                  G_UPMASK, MAX_PLAYERS, MAX_POS, POLICY_KNOCK_THRESHOLD,
                                  RT_VALUE)
from simulator.kernel import by_name
from simulator.kernel import lean_policy as LP
from simulator.kernel.invariants import conservation_ok_nb
from simulator.kernel.jit import hot, ix
from simulator.kernel.matches import (after_hole_nb, end_match_nb, outside_match_nb,
                                      publish_match_nb, seat_hole_nb, start_match_nb)
from simulator.kernel.policy_tools import CACHE_FIRST
from simulator.kernel.rng import STREAM_DEAL, STREAM_SEAT0, shuffle_nb, stream_state_nb
from simulator.kernel.scoring import grown_values_nb, hole_scores_nb, layout_values_nb
from simulator.kernel.signatures import (CACHED_SIGNATURE, CACHED_SLOT, PLAY_SIGNATURE,
                                         play_slot)
from simulator.kernel.tally import MAX_MATCH_HOLES, _add_hole_nb, keep_round_nb

from .ask import _mask_actions, _mask_positions, _publish
from .base import (CACHE_TOO, ERR_CONSERVATION, ERR_NO_TURNS, FROM_CALL, LOGS, PRIV_END_TURN,
                   PRIV_OVER, STEP, VIEWS, cache_round, known_at)
from .build import AWARE, CACHED, FORGETFUL, GENERAL, GUIDE, POWERS, RANDOM, SEEN
from .moves import _in_sight, _replaceable, learn_nb, start_layouts
from .reveal import _before_play, _groups_revealed, _initial_reveal
from .turn import _after_turn, _end_triggered, _turn, turn_options


@hot(inline="always")
def _seat_streams(rng, rt, seed, round_index):
    """Each seat's own stream for the round (the policies that draw from it)."""
    for s in range(rt[K.R_PLAYERS]):
        rng[STREAM_SEAT0 + s] = stream_state_nb(seed, round_index, STREAM_SEAT0 + s)


@hot(inline="always")
def _clear_views(g, rt, rng, seed, round_index):
    """What the policies that read the views start a round with."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    _seat_streams(rng, rt, seed, round_index)
    for i in range(K.N_PUB_SLOTS + MAX_PLAYERS):
        g[ix(G_PUB + i)] = 0
    for i in range(players * K.MEMORY_SLOTS):
        g[ix(G_MEMORY + i)] = 0
    for s in range(players):
        for p in range(MAX_POS):
            g[ix(G_UP + s * MAX_POS + p)] = 0
        for obs in range(players):
            for p in range(MAX_POS if POWERS else npos):
                g[ix(known_at(obs, s, p))] = -1
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    if GENERAL:
        _clear_general(g, rt)


@hot(inline="always")
def _clear_general(g, rt):
    """What the general build's own steps start a round with; its cache build's rounds only
    what the general round scores from (penalties, banked groups) and its checks read."""
    for s in range(rt[K.R_PLAYERS]):
        if CACHED:   # (the views' builds clear them with the views)
            for p in range(MAX_POS):
                g[ix(G_UP + s * MAX_POS + p)] = 0
        g[ix(G_PENALTY + s)] = 0
        g[ix(K.G_BANK + s)] = 0
        for p in range(MAX_POS):
            if GENERAL:
                g[ix(K.G_ONCE + s * MAX_POS + p)] = K.ONCE_LEFT
            g[ix(G_LAY + s * MAX_POS + p)] = -1
        if GENERAL:
            g[ix(G_SKIP + s)] = 0
            # first-turn reveals still to do (-1), or none
            g[ix(G_CHOSEN + s * MAX_POS + MAX_POS - 1)] = \
                -1 if rt[K.R_REVEAL_MODE] == K.REVEAL_FLIP_FIRST_TURN else 0


@hot(inline="always")
def _deal(g, rt, rng, seed, round_index):
    """Shuffle, deal position by position from the first player, and set what each seat
    knows; returns the stock's size."""
    players = rt[K.R_PLAYERS]
    npos = rt[K.R_NPOS]
    ncards = rt[K.R_NCARDS]
    rng[STREAM_DEAL] = stream_state_nb(seed, round_index, STREAM_DEAL)
    if VIEWS:
        _clear_views(g, rt, rng, seed, round_index)
    elif CACHED:
        _clear_general(g, rt)
    elif RANDOM or FORGETFUL:
        _seat_streams(rng, rt, seed, round_index)
    for i in range(ncards):
        g[ix(G_STOCK + i)] = rt[ix(K.RT_DECK + i)]
    shuffle_nb(g, G_STOCK, ncards, rng, STREAM_DEAL)
    n = ncards
    for p in range(npos):
        for s in range(players):
            n -= 1
            g[ix(G_LAY + s * MAX_POS + p)] = g[ix(G_STOCK + n)]
    if not VIEWS:
        LP.unknown_layouts(g, rt, 0, players)
    if GUIDE:   # what the guide reads besides the cache (turn._ask_guide)
        for s in range(players):
            for i in range(CACHE_FIRST):   # (a built-in's slots)
                g[ix(G_MEMORY + s * K.MEMORY_SLOTS + i)] = 0
            for p in range(npos):
                g[ix(known_at(s, s, p))] = -1
                g[ix(G_UP + s * MAX_POS + p)] = 0
    view_all = rt[K.R_OWNER_VIEW_ALL] != 0
    if SEEN:
        for t in range(rt[K.RT_TYPE_N]):
            g[ix(K.G_PUBLIC_TYPES + t)] = 0
    for s in range(players):
        g[ix(G_UPMASK + s)] = 0
        g[ix(G_FACE_DOWN + s)] = npos
        g[ix(K.G_PLANNED + s)] = 0
        if AWARE or SEEN:
            g[ix(K.G_SEEN_ALL + s)] = 0
        if view_all:   # the owner holds its cards in hand and sees them all
            for p in range(npos):
                learn_nb(g, rt, s, p, g[ix(G_LAY + s * MAX_POS + p)])
    return n


@hot(inline="always")
def _lap(g, rt, seat, turn, ender_before, ender, final_left, up_n, up_sum):
    """After ``seat``'s turn (``turn`` turns played): a final turn was played, or the end may
    be triggered now. In a power round the turn the end came in is kept (a cancelled final
    lap, the Dutch black king, may start again). Returns (ender, final_left, up_n, up_sum)."""
    if POWERS:
        fresh = g[ix(G_PRIV + PRIV_END_TURN)] >= turn - 1
    else:
        fresh = ender_before < 0
    if ender >= 0 and not fresh:
        final_left -= 1          # a final turn was played
    elif ender < 0:              # (a knock or flip-all set it itself)
        ender, final_left, up_n, up_sum = _end_triggered(g, rt, seat, up_n, up_sum, ender,
                                                         final_left)
        if POWERS and ender >= 0:
            g[ix(G_PRIV + PRIV_END_TURN)] = turn - 1
    return ender, final_left, up_n, up_sum


@hot
def play_nb(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos, cap):
    """Play turns from ``seat`` to the end of the round (or to ``cap`` turns), from the state
    in ``g`` and the counters given. ``forced`` >= 0 makes the first turn's move instead of
    the seat's policy (the lookahead player's candidates, lean build): A_KNOCK; A_TAKE_DISCARD
    placed at ``forced_pos``; A_DRAW_STOCK with the drawn card placed at ``forced_pos``,
    discarded when it is A_DISCARD, or as the policy decides when it is -1; in a power round
    FROM_CALL starts at the call that ends the seat's turn, its action made, the counters
    those of the public slots (``counters_nb``: the lookahead player's rollouts).
    ``ctx``: (move log, user policy, policies' table, policy scratch, int64 scratch, check)
    in the general build, anything in the others. Returns (turns, ender, knocked, capped,
    reshuffles); capped is -1 after a policy's illegal action or a failed check."""
    players = rt[K.R_PLAYERS]
    capped = 0
    reshuffle = rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE
    vector = LP.vector_scope(rt)
    if not VIEWS:
        LP.seat_policies(g, par, players, rt[K.R_END_TRIGGERS])
    if FORGETFUL:   # knock-threshold, whose memory fades (turn._action)
        for s in range(players):
            g[ix(G_POLICY + s)] = POLICY_KNOCK_THRESHOLD
    while True:
        ender_before = ender
        r = 1
        if POWERS and forced == FROM_CALL:
            ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked = _after_turn(
                g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum, turn, ender,
                final_left, knocked)
            r = 1 if ok else -1
        elif GENERAL and g[ix(G_SKIP + seat)] != 0:  # a jack was discarded onto it: no turn
            g[ix(G_SKIP + seat)] = 0
            if POWERS:
                g[ix(G_PUB + K.PUB_SHIELDED)] &= ~(1 << seat)
        else:
            r, n_stock, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked, \
                reshuffles = _turn(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc,
                                   up_n, up_sum, turn, ender, final_left, knocked, reshuffles,
                                   forced, forced_pos, vector)
        if r <= 0:
            capped = min(r, 0)
            break
        turn += 1
        if POWERS or ((GENERAL or CACHED) and ctx[5]):
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            if (GENERAL or CACHED) and ctx[5] and not conservation_ok_nb(g, rt, -1, ctx[4]):
                g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_CONSERVATION
                capped = -1
                break
        if POWERS and g[ix(G_PRIV + PRIV_OVER)] != 0:
            break    # an emptied layout or stock ended the hole with the turn
        ender, final_left, up_n, up_sum = _lap(g, rt, seat, turn, ender_before, ender,
                                               final_left, up_n, up_sum)
        if GENERAL and ender_before < 0 and ender >= 0 and rt[K.R_REVEAL_ON_TRIGGER] != 0:
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            ok, n_disc, sum_disc, up_n, up_sum = _groups_revealed(
                g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum)
            if not ok:
                capped = -1
                break
        if ender >= 0 and final_left <= 0:
            break
        if not reshuffle and n_stock == 0:
            break   # docs/rules.md#stock_empty: with end_hole the hole ends with the stock
        if turn >= cap:
            capped = 1
            break
        forced = -1
        seat += 1
        if seat == players:
            seat = 0
    if VIEWS:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
    else:   # the lookahead player's rollouts: the stock's cards are unseen (their expectation)
        g[ix(G_PUB + K.PUB_STOCK_N)] = n_stock
    return turn, ender, knocked, capped, reshuffles


def _not_provided(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn,
                  ender, final_left, knocked, reshuffles, forced, forced_pos, cap):
    g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_NO_TURNS
    return 0, -1, 0, -1, 0   # capped -1: the round failed


# The general and powers builds' rounds (and the power games' rollouts) call the turn loop
# through a named slot, which engine.build fills before they play: linked into them, the
# loop's whole code was optimised and emitted again with each of round_nb, chunk_nb,
# play_matches_nb and prefix_nb (2 to 3.4 s of compile each).
play_slot_nb = by_name.late_caller(play_slot("powers" if POWERS else "general"),
                                   PLAY_SIGNATURE, hot(_not_provided)) if GENERAL else play_nb


@hot(inline=STEP)
def _start_round(g, rt, par, rng, ctx, seed, round_index, log_on):
    """Deal, turn up the first discard, reveal, and (general build) the steps before the
    first turn. Returns (ok, n_stock, n_disc, sum_disc, up_n, up_sum)."""
    if VIEWS or CACHED:
        for i in range(K.N_PRIV):
            g[ix(G_PRIV + i)] = 0
        g[ix(G_PRIV + K.PRIV_LOG_N)] = 0 if (LOGS and log_on) else -1
    n_stock = _deal(g, rt, rng, seed, round_index)
    n_disc = 0
    sum_disc = 0
    if rt[K.R_INITIAL_TURN_UP] != 0:  # else the pile starts empty (initial_discard = none)
        n_stock -= 1
        g[ix(G_DISCARD)] = g[ix(G_STOCK + n_stock)]
        _in_sight(g, rt, g[ix(G_DISCARD)], 1)
        n_disc = 1
        sum_disc = rt[ix(RT_VALUE + g[G_DISCARD])]
    if POWERS:
        start_layouts(g, rt, n_disc)
    up_n, up_sum, ok = _initial_reveal(g, rt, rng, par, ctx, n_stock, n_disc, sum_disc)
    if GENERAL and ok:
        ok, n_disc, sum_disc, up_n, up_sum = _before_play(g, rt, rng, par, ctx, n_disc,
                                                          sum_disc, up_n, up_sum)
    return ok, n_stock, n_disc, sum_disc, up_n, up_sum


@hot(inline=STEP)
def round_nb(seed, round_index, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
             log_on, check, user, policies, aux):
    """Deal, reveal, play and score one round (hole). Scores land in ``scores``, layout values
    in ``L``, the outcome in ``out`` (codes.OUT_*). The general build appends every decision
    to ``log`` with ``log_on``, and verifies card conservation and the public counters after
    every turn with ``check``. False after a policy's illegal action (described in ``out``)."""
    ctx = (log, user, policies, aux, tmp, check)
    if CACHE_TOO and cache_round(rt, par, log_on):
        turn, ender, knocked, capped, reshuffles = cached_slot_nb(
            g, rt, par, rng, ctx, np.int64(seed), np.int64(round_index))
        ok = capped >= 0
        g[ix(G_PRIV + K.PRIV_CACHE)] = 1
    else:
        ok, n_stock, n_disc, sum_disc, up_n, up_sum = _start_round(g, rt, par, rng, ctx, seed,
                                                                   round_index, log_on)
        turn, ender, knocked, capped, reshuffles = 0, -1, 0, 0, 0
        if ok:
            turn, ender, knocked, capped, reshuffles = play_slot_nb(
                g, rt, par, rng, ctx, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0,
                0, -1, -1, rt[K.R_TURN_CAP])
            ok = capped >= 0
    out[K.OUT_ERROR] = 0
    out[K.OUT_LOG_N] = -1
    if VIEWS:
        out[K.OUT_ERROR] = g[ix(G_PRIV + K.PRIV_ERROR)]
        out[K.OUT_ERR_SEAT] = g[ix(G_PRIV + K.PRIV_ERR_SEAT)]
        out[K.OUT_ERR_POINT] = g[ix(G_PRIV + K.PRIV_ERR_POINT)]
        out[K.OUT_ERR_ACTION] = g[ix(G_PRIV + K.PRIV_ERR_ACTION)]
        out[K.OUT_LOG_N] = g[ix(G_PRIV + K.PRIV_LOG_N)]
    if not ok:
        return False
    score_nb(g, rt, ender, knocked, scores, L, quads, extra, tmp)
    out[K.OUT_TURNS] = turn
    out[K.OUT_CAPPED] = capped
    out[K.OUT_ENDER] = ender
    out[K.OUT_RESHUFFLES] = reshuffles
    out[K.OUT_KNOCKED] = knocked
    return True


@hot
def cached_round_nb(g, rt, par, rng, ctx, seed, round_index):
    """The cache build's round (CACHED): deal, reveal and play it, as the general build's
    round_nb does, from the lean cache and without views. The general build calls it through
    a slot for the rounds cache_round allows. Returns play_nb's (turns, ender, knocked,
    capped, reshuffles), capped -1 when a step failed."""
    ok, n_stock, n_disc, sum_disc, up_n, up_sum = _start_round(g, rt, par, rng, ctx, seed,
                                                               round_index, False)
    if not ok:
        return 0, -1, 0, -1, 0
    return play_nb(g, rt, par, rng, ctx, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1,
                   -1, 0, 0, -1, -1, rt[K.R_TURN_CAP])


def _no_cached_round(g, rt, par, rng, ctx, seed, round_index):
    g[ix(G_PRIV + K.PRIV_ERROR)] = ERR_NO_TURNS
    return 0, -1, 0, -1, 0


# ... and its rounds played on the cache build through another (engine.build fills it too)
cached_slot_nb = by_name.late_caller(CACHED_SLOT, CACHED_SIGNATURE, hot(_no_cached_round)) \
    if CACHE_TOO else cached_round_nb


@hot(inline="always")
def score_nb(g, rt, ender, knocked, scores, L, quads, extra, tmp):
    """Layout values L (with banked groups), then hole scores (with points paid to peek)."""
    players = rt[K.R_PLAYERS]
    layout_values_nb(g, G_LAY, rt, players, L, quads, tmp)
    if POWERS:
        grown_values_nb(g, G_LAY, rt, players, L)
    for s in range(players):
        extra[s] = 0
        if GENERAL:
            extra[s] = g[ix(G_PENALTY + s)]
            L[s] += g[ix(K.G_BANK + s)]
    hole_scores_nb(L, quads, ender, knocked == 1, players, rt, extra, scores)


@hot
def chunk_nb(seed, start, count, rt, par, g, rng, log, out, scores, L, quads, extra, tmp,
             acc, tot, hist, per_round_scores, per_round_turns, per_round_layouts, check,
             user, policies, aux):
    """Play rounds ``start .. start+count-1`` and add their sums into acc/tot/hist.
    ``per_round_*`` arrays with a first dimension of ``count`` receive every round's scores,
    turns and final layouts; pass arrays of length 0 to skip. Returns the number of rounds
    played (less than ``count`` only after a policy error, described in ``out``)."""
    players = rt[K.R_PLAYERS]
    outside_match_nb(g)
    for i in range(count):
        if not round_nb(seed, start + i, rt, par, g, rng, log, out, scores, L, quads, extra,
                        tmp, False, check, user, policies, aux):
            return i
        _add_hole_nb(0, scores, out, acc, tot, hist, players)
        keep_round_nb(i, count, g, scores, out, players, rt[K.R_NPOS], per_round_scores,
                      per_round_turns, per_round_layouts)
    return count


@hot
def play_matches_nb(seed, start, count, holes, target, rt, par, par_rot, g, rng, log, out,
                    scores, L, quads, extra, tmp, acc, tot, hist, match_total, macc, mtot,
                    check, user, policies, aux):
    """Play matches ``start .. start+count-1``: ``holes`` holes each, or (``target`` > 0) until
    some seat's running total reaches ``target`` (docs/rules.md#matches). The first
    dealer is drawn per match (dealer_selection = random; volunteer: seat 0 plays first) and
    the deal passes left after every hole, or the previous hole's lowest scorer plays first
    (first_player = previous_hole_winner). Hole statistics are added per physical seat;
    every match's totals decide its winner: ties share, or a random tiebreak, or extra holes
    until one total is lowest (match_tie); four_of_kind_wins_match ends a match at once (the
    seats holding four of a kind win, the lowest hole score among them, ties sharing,
    AMB-29). With a pot, each seat's balance at the match's end is summed too.
    ``match_total``: int64 scratch of matches.MATCH_SCRATCH."""
    players = rt[K.R_PLAYERS]
    for i in range(count):
        m = start + i
        first = start_match_nb(seed, m, rt, rng, players, match_total)
        h = 0
        done = False
        instant = False
        while not done:
            seat_hole_nb(rt, par, par_rot, first, players, match_total)
            publish_match_nb(g, h, holes, target, first, players, match_total)
            if not round_nb(seed, m * MAX_MATCH_HOLES + h, rt, par_rot, g, rng, log, out,
                            scores, L, quads, extra, tmp, False, check, user, policies, aux):
                return i
            _add_hole_nb(first, scores, out, acc, tot, hist, players)
            h += 1
            first, done, instant = after_hole_nb(g, rt, out, scores, L, first, players, h,
                                                 holes, target, match_total, macc, tmp)
        end_match_nb(seed, m, rt, rng, players, h, instant, match_total, macc, mtot)
    return count


@hot
def prefix_nb(seed, round_index, rt, par, g, rng, log, tmp, user, policies, aux, turns):
    """Deal round ``round_index``, reveal, and play its first ``turns`` turns, leaving ``g``
    with the views published. Returns the seat whose turn comes next, or -1 when the round
    ended before (or a policy failed)."""
    ctx = (log, user, policies, aux, tmp, False)
    outside_match_nb(g)
    ok, n_stock, n_disc, sum_disc, up_n, up_sum = _start_round(g, rt, par, rng, ctx, seed,
                                                               round_index, False)
    if not ok:
        return -1
    if turns == 0:
        return 0
    turn, ender, knocked, capped, reshuffles = play_slot_nb(
        g, rt, par, rng, ctx, 0, n_stock, n_disc, sum_disc, up_n, up_sum, 0, -1, -1, 0, 0, -1,
        -1, turns)
    return turn % rt[K.R_PLAYERS] if capped == 1 else -1


@hot
def turn_mask_nb(g, rt, seat):
    """The legal actions at the start of ``seat``'s turn into g[G_LEGAL:] (from the published
    views); returns how many."""
    bits = turn_options(g, rt, seat, g[ix(G_PUB + K.PUB_STOCK_N)],
                        g[ix(G_PUB + K.PUB_DISCARD_N)], g[ix(G_PUB + K.PUB_ENDER)],
                        g[ix(G_PUB + K.PUB_TURN)])
    _mask_actions(g, bits)
    n = 0
    while bits:
        n += bits & 1
        bits >>= 1
    return n


@hot
def placement_mask_nb(g, rt, seat):
    """The positions where ``seat`` may put a held card, into g[G_LEGAL:]."""
    _mask_positions(g, rt, _replaceable(g, rt, seat))
