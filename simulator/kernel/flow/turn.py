"""One turn, of every round: the options, the draw or take and where the card goes, the
flips, the knock, and the end it may trigger; in a power round (``POWERS``) also the power
steps (power_turn.py): the held card's power or match, the top discard's power, the snap
window and the call. A power round's counters live in the public slots, where its steps read
and write them: the turn publishes its counters before them and reads them back after."""

from __future__ import annotations

import numpy as np

from simulator.game import codes as K
from simulator.game.codes import (G_CHOSEN, G_DISCARD, G_FACE_DOWN, G_LEGAL, G_PENALTY,
                                  G_POLICY, G_PRIV, G_PUB, MAX_POS, POLICY_KNOCK_THRESHOLD,
                                  RT_VALUE)
from simulator.kernel import lean_policy as LP
from simulator.kernel.jit import hot, ix

from .ask import (_ask, _ask_place, _clear, _counters, _mask_actions, _mask_positions, _peek,
                  _place, _placement_mask, _publish, _show_piles)
from .base import (B_DRAW, B_FLIP, B_FLIP_ALL, B_KNOCK, B_PEEK, B_TAKE, NOTHING_LEGAL,
                   PRIV_END_TURN, PRIV_TOP_NEW, STEP, TURN, VIEWS, _lowest, effect_of, pub)
from .build import (AWARE, FORGETFUL, GENERAL, GUIDE, POWERS, RANDOM, forget, own_decide,
                    random_pick, withhold)
from .moves import (_discard, _down_mask, _draw_card, _off_pile, _replaceable, _turn_up,
                    _unknown_mask)
from .power_turn import (check_over, held_options, may_call, power_window, top_power_usable,
                         use_held, use_top_power)
from .reveal import _first_turn, _remove_groups


@hot(inline="always")
def _may_knock(g, rt, ender, turn):
    """Nobody ended the hole and enough laps were played for a knock (a power round's call:
    power_turn.may_call, from the public slots)."""
    if POWERS:
        return may_call(g, rt)
    return (rt[K.R_END_TRIGGERS] & K.END_KNOCK) != 0 and ender < 0 and \
        turn >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]


@hot(inline="always")
def _takeable(rt, top):
    """A power round's top discard with a power may be taken only when power_placeable."""
    if POWERS:
        return rt[K.R_POWER_PLACEABLE] != 0 or effect_of(rt, top) == K.POW_NONE
    return True


@hot(inline="always")
def turn_options(g, rt, seat, n_stock, n_disc, ender, turn):
    """The actions legal at the start of ``seat``'s turn, as bits 1 << action (B_DRAW, ...)."""
    final_lap = ender >= 0
    bits = 0
    if n_stock > 0 or (rt[K.R_STOCK_EMPTY] == K.STOCK_RESHUFFLE and n_disc > 1):
        bits |= B_DRAW
    if rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
            not (final_lap and rt[K.R_FINAL_STOCK_ONLY] != 0) and _replaceable(g, rt, seat) \
            and _takeable(rt, g[ix(G_DISCARD + n_disc - 1)]):
        bits |= B_TAKE
    if _may_knock(g, rt, ender, turn) and \
            not (GENERAL and rt[K.R_KNOCK_TIMING] == K.KNOCK_END_OF_TURN):
        bits |= B_KNOCK
    if GENERAL:
        if g[ix(G_FACE_DOWN + seat)] > 0:
            if rt[K.R_FLIP_INSTEAD_OF_DRAW] != 0:
                bits |= B_FLIP
            if rt[K.R_FLIP_ALL_TO_END] != 0 and \
                    g[ix(G_FACE_DOWN + seat)] <= rt[K.R_FLIP_ALL_MAX]:
                bits |= B_FLIP_ALL
        if rt[K.R_PAY_TO_PEEK] != K.NONE_VALUE and _unknown_mask(g, rt, seat, 0) != 0:
            bits |= B_PEEK
    if POWERS and top_power_usable(g, rt, seat, n_disc):
        bits |= 1 << K.A_DISCARD_POWER
    return bits


@hot(inline="always")
def _ask_turn(g, rt, rng, par, ctx, seat, bits, n_stock, n_disc, ender, turn):
    """The action of a policy that reads the views (published) at the start of its turn;
    pay_to_peek (AMB-16): a look at an own face-down card, paid for, and the question again.
    -1 on a policy error, NOTHING_LEGAL when a look left nothing to do."""
    while True:
        _mask_actions(g, bits)
        a = _ask(g, rt, rng, par, ctx, K.DP_TURN, seat, -1, True)
        if not (GENERAL and a == K.A_PEEK):
            return a
        if not _peek(g, rt, rng, par, ctx, seat, -1):
            return -1
        g[ix(G_PENALTY + seat)] += rt[K.R_PAY_TO_PEEK]
        bits = turn_options(g, rt, seat, n_stock, n_disc, ender, turn)
        if bits == 0:
            return NOTHING_LEGAL


@hot(inline=STEP)
def _flip_after_discard(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum):
    """flip_after_discard: having discarded the drawn card, the seat turns one of its cards up
    (unless_one_left: it may pass when one is left; optional_in_endgame: it may flip, or
    pass, once some player has at most one face-down card). Returns (ok, up_n, up_sum)."""
    fad = rt[K.R_FLIP_AFTER_DISCARD]
    fd = g[ix(G_FACE_DOWN + seat)]
    if fad == K.FAD_NONE or fd == 0:
        return True, up_n, up_sum
    if fad == K.FAD_ENDGAME:
        endgame = False
        for s in range(rt[K.R_PLAYERS]):
            if g[ix(G_FACE_DOWN + s)] <= 1:
                endgame = True
        if not endgame:
            return True, up_n, up_sum
    _mask_positions(g, rt, _down_mask(g, rt, seat))
    if (fad == K.FAD_UNLESS_ONE and fd == 1) or fad == K.FAD_ENDGAME:
        g[ix(G_LEGAL + K.A_PASS)] = 1
    _show_piles(g, n_disc, sum_disc, up_n, up_sum)
    c = _ask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, False)
    if c < 0:
        return False, up_n, up_sum
    if c != K.A_PASS:
        up_sum += _turn_up(g, rt, seat, c)
        up_n += 1
    return True, up_n, up_sum


@hot(inline="always")
def _draw(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
          final_left, knocked, reshuffles, forced, forced_pos, vector, n, S):
    """A_DRAW_STOCK: draw (reshuffling the pile when the stock is empty) and choose where the
    card goes, or discard it. ``n``, ``S``: the lean build's unseen cards and their sum.
    Returns (ok, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, the card to place or
    -1, its position (in a power round A_POWER or A_MATCH too), whether everyone saw it)."""
    before = reshuffles
    card, n_stock, n_disc, sum_disc, reshuffles = _draw_card(g, rt, rng, n_stock, n_disc,
                                                             sum_disc, reshuffles)
    if not VIEWS and reshuffles != before:
        n, S = LP.unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum)
    public = rt[K.R_PRIVATE_STOCK] == 0  # private_stock_draw = false: everyone sees it
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card if public else -1
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                 knocked, reshuffles)
        effect = K.POW_NONE
        powers = 0
        if POWERS:
            effect = effect_of(rt, card)
            powers = held_options(g, rt, seat, effect)
        b = _ask_place(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_DRAWN, effect, powers)
        if b < 0:
            return False, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, -1, -1, public
        p = -1 if b == K.A_DISCARD else b
    else:
        if RANDOM:
            b = random_pick(rng, seat, _replaceable(g, rt, seat) |
                            (np.int64(rt[K.R_STOCK_MAY_DISCARD] != 0) << K.A_DISCARD))
            p = -1 if b == K.A_DISCARD else b
        elif GUIDE:   # asked as the views' builds ask it, from what its build keeps
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            _placement_mask(g, rt, seat, card, K.DP_PLACE_DRAWN, False, 0)
            b = own_decide(K.DP_PLACE_DRAWN, seat, card, g, rt, rng, par, ctx[3])
            p = -1 if b == K.A_DISCARD else b
        elif forced >= 0 and forced_pos >= 0:
            p = -1 if forced_pos == K.A_DISCARD else forced_pos
        else:
            p = LP.best_placement(g, rt, seat, card, n - 1, S - rt[ix(RT_VALUE + card)],
                                  vector) if n - 1 > 0 else -1
            if p < 0 and reshuffles >= K.GREEDY_STALL_RESHUFFLES and \
                    (rt[K.R_END_TRIGGERS] & K.END_ALL_FACE_UP) != 0 and \
                    g[ix(G_POLICY + seat)] != POLICY_KNOCK_THRESHOLD and not AWARE:
                p = _lowest(_unknown_mask(g, rt, seat, 0) & _replaceable(g, rt, seat))
        if p < 0 and rt[K.R_STOCK_MAY_DISCARD] == 0:
            p = _lowest(_replaceable(g, rt, seat))
        if AWARE and n > 1 and forced < 0:
            may_discard = rt[K.R_STOCK_MAY_DISCARD] != 0
            b = withhold(g, rt, par, seat, card, n - 1, S - rt[ix(RT_VALUE + card)],
                         K.A_DISCARD if p < 0 else p, may_discard)
            p = -1 if b == K.A_DISCARD else b
    if p >= 0:
        return True, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, card, p, public
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    n_disc, sum_disc = _discard(g, rt, seat, card, n_disc, sum_disc)
    ok = True
    if GENERAL:
        ok, up_n, up_sum = _flip_after_discard(g, rt, rng, par, ctx, seat, n_disc, sum_disc,
                                               up_n, up_sum)
    return ok, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, -1, -1, public


@hot(inline="always")
def _take(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
          final_left, knocked, reshuffles, forced, forced_pos):
    """A_TAKE_DISCARD: take the pile's top card and choose where it goes. Returns (ok,
    n_disc, sum_disc, the card, its position)."""
    card, n_disc, sum_disc = _off_pile(g, rt, n_disc, sum_disc)
    if VIEWS:
        g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = card
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                 knocked, reshuffles)
        powers = 0
        if POWERS:
            powers = held_options(g, rt, seat, K.POW_NONE)
        p = _ask_place(g, rt, rng, par, ctx, seat, card, K.DP_PLACE_TAKEN, K.POW_NONE, powers)
        if not POWERS:   # a plain round hides it before the face is chosen, a power round after
            g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
        return p >= 0, n_disc, sum_disc, card, p
    rep = _replaceable(g, rt, seat)
    if RANDOM:
        return True, n_disc, sum_disc, card, random_pick(rng, seat, rep)
    if GUIDE:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        _placement_mask(g, rt, seat, card, K.DP_PLACE_TAKEN, False, 0)
        return True, n_disc, sum_disc, card, own_decide(K.DP_PLACE_TAKEN, seat, card, g, rt,
                                                        rng, par, ctx[3])
    p = forced_pos if forced >= 0 else g[ix(K.G_PLANNED + seat)]
    if not (p >= 0 and p < rt[K.R_NPOS] and (rep >> p) & 1):
        p = _lowest(rep)
    return True, n_disc, sum_disc, card, p


@hot(inline="always")
def _final_turns(rt, seat, players):
    ft = rt[K.R_FINAL_TURNS]
    if ft == K.FINAL_NONE:
        return 0
    if ft == K.FINAL_EACH_OTHER:
        return players - 1
    return players - 1 - seat   # complete the lap: the seats after the ender up to the dealer


@hot
def _reveal_on_trigger(g, rt, seat, up_n, up_sum):
    """reveal_on_trigger: the others turn all their cards up when the end is triggered."""
    if rt[K.R_REVEAL_ON_TRIGGER] == 0:
        return up_n, up_sum
    for s in range(rt[K.R_PLAYERS]):
        if s == seat:
            continue
        down = _down_mask(g, rt, s)
        for p in range(MAX_POS if POWERS else rt[K.R_NPOS]):
            if (down >> p) & 1:
                up_sum += _turn_up(g, rt, s, p)
                up_n += 1
    return up_n, up_sum


@hot(inline="always")
def _start_end(g, rt, seat, up_n, up_sum):
    """``seat`` triggers the end: (ender, final turns left, up_n, up_sum)."""
    up_n, up_sum = _reveal_on_trigger(g, rt, seat, up_n, up_sum)
    if POWERS:   # the turn it ended in, for the final lap's count (play_nb)
        g[ix(G_PRIV + PRIV_END_TURN)] = pub(g, K.PUB_TURN)
    return seat, _final_turns(rt, seat, rt[K.R_PLAYERS]), up_n, up_sum


@hot(inline="always")
def _after_turn_asks(rt):
    """Can _after_turn do anything under these rules (remove groups, offer a knock after the
    turn)?"""
    return rt[K.R_REMOVE_CANCELLED] != K.REMOVE_NEVER or rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD


@hot(inline="always")
def _after_turn_acts(g, rt, ender, turn):
    """Has _after_turn anything to do now: groups to remove, or a knock the seat may make?
    Calling it only then saves a call that passes the whole state at every turn (an eighth of
    a W1 round on the general build; a power game's turn after which nobody may call)."""
    return rt[K.R_REMOVE_CANCELLED] != K.REMOVE_NEVER or \
        (rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and _may_knock(g, rt, ender, turn))


@hot
def _after_turn(g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum, turn, ender,
                final_left, knocked):
    """The general build's end of a turn (the views published): the groups it completed
    leave the layout; with knock_timing end_of_own_turn or any_time_in_turn the seat may knock
    now (AMB-12; knocking at the start and then playing the turn gains nothing over this).
    Returns (ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked)."""
    ok = True
    if rt[K.R_REMOVE_CANCELLED] != K.REMOVE_NEVER:   # (a call that passes the whole state)
        ok, n_disc, sum_disc, up_n, up_sum = _remove_groups(g, rt, rng, par, ctx, seat,
                                                            n_disc, sum_disc, up_n, up_sum)
    if ok and rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and _may_knock(g, rt, ender, turn):
        _clear(g)
        g[ix(G_LEGAL + K.A_KNOCK)] = 1
        g[ix(G_LEGAL + K.A_PASS)] = 1
        k = _ask(g, rt, rng, par, ctx, K.DP_KNOCK, seat, -1, False)
        ok = k >= 0
        if k == K.A_KNOCK:
            ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
            knocked = 1
    return ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked


@hot(inline=STEP)
def _flips(g, rt, rng, par, ctx, seat, action, up_n, up_sum, ender, final_left):
    """A_FLIP (one chosen card, DP_FLIP) or A_FLIP_ALL (every face-down card, and the end
    when nobody has triggered it). Returns (ok, up_n, up_sum, ender, final_left)."""
    if action == K.A_FLIP:
        _mask_positions(g, rt, _down_mask(g, rt, seat))
        c = _ask(g, rt, rng, par, ctx, K.DP_FLIP, seat, -1, False)
        if c < 0:
            return False, up_n, up_sum, ender, final_left
        return True, up_n + 1, up_sum + _turn_up(g, rt, seat, c), ender, final_left
    down = _down_mask(g, rt, seat)
    for p in range(MAX_POS if POWERS else rt[K.R_NPOS]):
        if (down >> p) & 1:
            up_sum += _turn_up(g, rt, seat, p)
            up_n += 1
    if ender < 0:
        ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
    return True, up_n, up_sum, ender, final_left


@hot(inline="always")
def _action(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, vector):
    """The turn's start: (general build) the first turn's reveals, then the action of the
    seat's policy, or the lean build's (``forced`` when >= 0). Returns (r, action, n_disc,
    sum_disc, up_n, up_sum, n, S): r is 1 to play the action, 0 when nothing is legal, -1
    after a policy's illegal action; n, S: the lean build's unseen cards and their sum."""
    ok = True
    if POWERS:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        g[ix(G_PUB + K.PUB_SHIELDED)] &= ~(1 << seat)   # a shield lasts to its owner's turn
        g[ix(G_PRIV + PRIV_TOP_NEW)] = 0
    if GENERAL and g[ix(G_CHOSEN + seat * MAX_POS + MAX_POS - 1)] < 0:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        ok, n_disc, sum_disc, up_n, up_sum = _first_turn(g, rt, rng, par, ctx, seat, n_disc,
                                                         sum_disc, up_n, up_sum)
    bits = turn_options(g, rt, seat, n_stock, n_disc, ender, turn) if ok else 0
    action = -1
    n = 0
    S = 0
    if VIEWS and ok and bits != 0:
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        action = _ask_turn(g, rt, rng, par, ctx, seat, bits, n_stock, n_disc, ender, turn)
        ok = action >= 0 or action == NOTHING_LEGAL
        bits = 0 if action == NOTHING_LEGAL else bits
    elif RANDOM:
        action = random_pick(rng, seat, bits) if ok and bits != 0 else -1
    elif GUIDE:
        if bits != 0:
            _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left,
                     knocked, reshuffles)
            _mask_actions(g, bits)
            action = own_decide(K.DP_TURN, seat, -1, g, rt, rng, par, ctx[3])
    elif not VIEWS:
        if FORGETFUL and bits != 0:   # its turn starts (the views' builds ask it now)
            forget(g, rt, rng, par, seat)
        n, S = LP.unseen(g, rt, seat, n_disc, sum_disc, up_n, up_sum)
        top = g[ix(G_DISCARD + n_disc - 1)] if n_disc > 0 else -1
        action = forced if forced >= 0 else LP.turn_action(
            g, rt, par, seat, n, S, top, (bits & B_DRAW) != 0, (bits & B_TAKE) != 0,
            (bits & B_KNOCK) != 0, vector)
        if AWARE and action == K.A_TAKE_DISCARD and forced < 0:
            # where greedy would put it (G_PLANNED), unless that feeds the next seat
            g[ix(K.G_PLANNED + seat)] = withhold(g, rt, par, seat, top, n, S,
                                                 g[ix(K.G_PLANNED + seat)], False)
    r = -1 if not ok else (0 if bits == 0 else 1)
    return r, action, n_disc, sum_disc, up_n, up_sum, n, S


@hot(inline=TURN)
def _turn(g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
          final_left, knocked, reshuffles, forced, forced_pos, vector):
    """One turn of ``seat``. Returns (r, n_stock, n_disc, sum_disc, up_n, up_sum, ender,
    final_left, knocked, reshuffles): r is 1 when played, 0 when the hole must end (nothing
    is legal), -1 after a policy's illegal action."""
    r, action, n_disc, sum_disc, up_n, up_sum, n, S = _action(
        g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
        final_left, knocked, reshuffles, forced, vector)
    if r <= 0:
        return r, n_stock, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked, \
            reshuffles
    ok = True
    card = -1
    p = -1
    public = True
    if action == K.A_DRAW_STOCK:
        ok, n_stock, n_disc, sum_disc, up_n, up_sum, reshuffles, card, p, public = _draw(
            g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos, vector, n, S)
    elif action == K.A_TAKE_DISCARD:
        ok, n_disc, sum_disc, card, p = _take(
            g, rt, par, rng, ctx, seat, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked, reshuffles, forced, forced_pos)
    elif POWERS and action == K.A_DISCARD_POWER:   # the counters are published (_action)
        ok = use_top_power(g, rt, rng, par, ctx, seat) >= 0
        n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked, \
            reshuffles = _counters(g)
    elif GENERAL and (action == K.A_FLIP or action == K.A_FLIP_ALL):
        ok, up_n, up_sum, ender, final_left = _flips(g, rt, rng, par, ctx, seat, action, up_n,
                                                     up_sum, ender, final_left)
    else:  # knock
        ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
        knocked = 1
    if ok and card >= 0 and POWERS and p >= MAX_POS:   # published before the card's ask
        ok = use_held(g, rt, rng, par, ctx, seat, card, p, action == K.A_TAKE_DISCARD) >= 0
        n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked, \
            reshuffles = _counters(g)
    elif ok and card >= 0:  # the one place a held card goes to the layout
        ok, n_disc, sum_disc, up_n, up_sum = _place(g, rt, rng, par, ctx, seat, p, card, public,
                                                    n_disc, sum_disc, up_n, up_sum)
    over = 0
    if GENERAL and ok and (POWERS or _after_turn_asks(rt)):   # for what reads them next
        _publish(g, n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked,
                 reshuffles)
        if POWERS:
            # the snap window only when it may open (a call that passes the whole state)
            if check_over(g, rt, seat):
                over = 1
            elif rt[K.R_SNAP_MODE] != K.SNAP_NONE and g[ix(G_PRIV + PRIV_TOP_NEW)] != 0:
                over = power_window(g, rt, rng, par, ctx, seat)
            ok = over >= 0
            n_stock, n_disc, sum_disc, up_n, up_sum, turn, ender, final_left, knocked, \
                reshuffles = _counters(g)
    if GENERAL and ok and over == 0 and _after_turn_acts(g, rt, ender, turn):
        ok, n_disc, sum_disc, up_n, up_sum, ender, final_left, knocked = _after_turn(
            g, rt, rng, par, ctx, seat, n_disc, sum_disc, up_n, up_sum, turn, ender,
            final_left, knocked)
    return (1 if ok else -1), n_stock, n_disc, sum_disc, up_n, up_sum, ender, final_left, \
        knocked, reshuffles


@hot(inline="always")
def _end_triggered(g, rt, seat, up_n, up_sum, ender, final_left):
    """After a turn in which nobody had ended the hole: does ``seat``'s layout (all face up)
    or everyone's (all_players_face_up) end it now? Returns (ender, final_left, up_n,
    up_sum)."""
    triggers = rt[K.R_END_TRIGGERS]
    if (triggers & K.END_ALL_FACE_UP) != 0 and g[ix(G_FACE_DOWN + seat)] == 0:
        ender, final_left, up_n, up_sum = _start_end(g, rt, seat, up_n, up_sum)
    elif (triggers & K.END_ALL_PLAYERS_FACE_UP) != 0:
        all_up = True
        for s in range(rt[K.R_PLAYERS]):
            if g[ix(G_FACE_DOWN + s)] != 0:
                all_up = False
        if all_up:
            ender = seat
            final_left = 0
    return ender, final_left, up_n, up_sum
