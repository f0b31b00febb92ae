"""A turn of the Cabo build (the powers build's turn, simulator/kernel/flow/turn.py and
power_effects.py, for these rules): the call, the draw or the take, where the held card goes
(a position, the discard pile, its power, a turn match), and the end an emptied layout, the
last stock card or a call brings. Every seat plays ``greedy`` (seat.py answers for it); with
a move log on, every decision is written as the powers build writes it, so that the two can
be compared step by step."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_DISCARD, G_PRIV, MAX_POS, RT_VALUE
from simulator.kernel.flow.base import PRIV_END_TURN, PRIV_OVER, card_at
from simulator.kernel.jit import hot, ix
from simulator.kernel.layout import seat_after_nb

from . import seat as Q
from .cells import (EVERY, cards_mask, counter, discard, draw, move, peek, penalty_cards,
                    set_cell, set_counter, show, swap_cells, take, take_top)

HIT = 4096   # a nomination that hit (its card of the held card's key)


@hot(inline="always")
def note(g, log, turn, seat, point, action, held):
    """A decision into the move log, when it is on (PRIV_LOG_N >= 0)."""
    n = g[ix(G_PRIV + K.PRIV_LOG_N)]
    if n >= 0 and n < log.shape[0]:
        log[n, 0] = turn
        log[n, 1] = seat
        log[n, 2] = point
        log[n, 3] = action
        log[n, 4] = held
        g[ix(G_PRIV + K.PRIV_LOG_N)] = n + 1


@hot(inline="always")
def may_call(g, rt, turn):
    """Nobody ended the hole, it is not over, and enough laps were played."""
    return (rt[K.R_END_TRIGGERS] & K.END_CALL) != 0 and counter(g, K.PUB_ENDER) < 0 and \
        g[ix(G_PRIV + PRIV_OVER)] == 0 and turn >= rt[K.R_KNOCK_MIN_LAPS] * rt[K.R_PLAYERS]


@hot(inline="always")
def start_end(g, rt, seat, turn):
    """``seat`` calls: the others' final turns."""
    players = rt[K.R_PLAYERS]
    ft = rt[K.R_FINAL_TURNS]
    left = 0 if ft == K.FINAL_NONE else (players - 1 if ft == K.FINAL_EACH_OTHER
                                         else players - 1 - seat)
    set_counter(g, K.PUB_ENDER, seat)
    set_counter(g, K.PUB_FINAL_LEFT, left)
    set_counter(g, K.PUB_KNOCKED, 1)
    g[ix(G_PRIV + PRIV_END_TURN)] = turn


@hot(inline="always")
def check_over(g, rt, seat, turn):
    """An emptied layout (the first seat from ``seat`` on becomes the ender unless there is
    one) or the last stock card taken ends the hole now."""
    players = rt[K.R_PLAYERS]
    if (rt[K.R_END_TRIGGERS] & K.END_EMPTY_LAYOUT) != 0:
        for k in range(players):
            s = seat_after_nb(seat, k, players)
            if cards_mask(g, s) == 0:
                g[ix(G_PRIV + PRIV_OVER)] = 1
                if counter(g, K.PUB_ENDER) < 0:
                    set_counter(g, K.PUB_ENDER, s)
                    set_counter(g, K.PUB_FINAL_LEFT, 0)
                    g[ix(G_PRIV + PRIV_END_TURN)] = turn
                break
    return g[ix(G_PRIV + PRIV_OVER)] != 0


@hot(inline="always")
def place(g, rt, seat, p, card, knows):
    """The held card goes face down to p, known to ``knows``; the card there is discarded."""
    old = card_at(g, seat, p)
    set_cell(g, rt, seat, p, card, knows)
    discard(g, rt, old)


@hot(inline="always")
def usable(g, rt, seat, effect):
    """Has the power a target now (is A_POWER offered)?"""
    players = rt[K.R_PLAYERS]
    if effect == K.POW_PEEK_OWN:
        return cards_mask(g, seat) != 0
    if effect == K.POW_PEEK_OPP:
        for s in range(players):
            if s != seat and cards_mask(g, s) != 0:
                return True
        return False
    if effect == K.POW_SWAP_ANY_TWO:
        n = 0
        for s in range(players):
            m = cards_mask(g, s)
            while m:
                m &= m - 1
                n += 1
        return n >= 2
    return False


@hot(inline="always")
def anyone_has_cards(g, rt):
    for s in range(rt[K.R_PLAYERS]):
        if cards_mask(g, s) != 0:
            return True
    return False


@hot
def use_power(g, rt, log, turn, seat, effect):
    """The held card's power, its targets as greedy names them."""
    if effect == K.POW_PEEK_OWN:
        _look(g, rt, log, turn, seat, seat)
    elif effect == K.POW_PEEK_OPP:
        seats = 0
        for s in range(rt[K.R_PLAYERS]):
            if s != seat and cards_mask(g, s) != 0:
                seats |= 1 << s
        t = Q.unknown_opponent(g, rt, seat)
        t = Q.lowest(seats) if t < 0 or (seats >> t) & 1 == 0 else t
        note(g, log, turn, seat, K.DP_TARGET_SEAT, t, -1)
        _look(g, rt, log, turn, seat, t)
    else:
        swap_any_two(g, rt, log, turn, seat)


@hot(inline="always")
def _look(g, rt, log, turn, seat, t):
    """``seat`` looks at a card of seat t: the first it does not know, else the first."""
    legal = cards_mask(g, t)
    p = Q.first_unknown(g, seat, t, legal)
    p = Q.lowest(legal) if p < 0 else p
    note(g, log, turn, seat, K.DP_TARGET_POS, p, -1)
    peek(g, rt, t, p, seat)


@hot
def swap_any_two(g, rt, log, turn, seat):
    """Jack or queen: any two cards on the table change places, blind."""
    players = rt[K.R_PLAYERS]
    n, S = Q.pool(g, rt)
    seats = 0
    for s in range(players):
        if cards_mask(g, s) != 0:
            seats |= 1 << s
    s1 = Q.swap_seat(g, rt, seat, seats, n, S)
    note(g, log, turn, seat, K.DP_TARGET_SEAT, s1, -1)
    p1 = Q.swap_position(g, rt, seat, s1, cards_mask(g, s1), n, S)
    note(g, log, turn, seat, K.DP_TARGET_POS, p1, -1)
    others = 0
    for s in range(players):
        if cards_mask(g, s) & ~((1 << p1) if s == s1 else 0):
            others |= 1 << s
    s2 = Q.swap_seat(g, rt, seat, others, n, S)
    note(g, log, turn, seat, K.DP_TARGET_SEAT, s2, -1)
    left = cards_mask(g, s2) & ~((1 << p1) if s2 == s1 else 0)
    p2 = Q.swap_position(g, rt, seat, s2, left, n, S)
    note(g, log, turn, seat, K.DP_TARGET_POS, p2, -1)
    swap_cells(g, rt, s1, p1, s2, p2)


@hot
def cabo_match(g, rt, log, turn, seat, card, count):
    """Cabo's match of the held ``card`` against the ``count`` cards nominated (seat.NOMINEES,
    in order): all are shown; those of its key are discarded (another seat's hit given one of
    the actor's cards); each miss costs match_fail_cards penalty cards; the held card is
    discarded."""
    players = rt[K.R_PLAYERS]
    for i in range(count):
        x = g[ix(Q.NOMINEES + i)]
        note(g, log, turn, seat, K.DP_TARGET_SEAT, x // MAX_POS, -1)
        note(g, log, turn, seat, K.DP_NOMINATE, x % MAX_POS, -1)
    if g[ix(G_PRIV + K.PRIV_LOG_N)] >= 0 and _unnominated(g, rt, count):
        note(g, log, turn, seat, K.DP_TARGET_SEAT, K.A_PASS, -1)
    key = rt[ix(K.RT_KEY + card)]
    misses = 0
    for i in range(count):
        x = g[ix(Q.NOMINEES + i)]
        show(g, rt, x // MAX_POS, x % MAX_POS)
    for i in range(count):
        x = g[ix(Q.NOMINEES + i)]
        if rt[ix(K.RT_KEY + card_at(g, x // MAX_POS, x % MAX_POS))] == key:
            g[ix(Q.NOMINEES + i)] = x + HIT
        else:
            misses += 1
    for i in range(count):
        x = g[ix(Q.NOMINEES + i)]
        if x >= HIT:
            discard(g, rt, take(g, rt, (x - HIT) // MAX_POS, x % MAX_POS))
    for i in range(count):
        x = g[ix(Q.NOMINEES + i)]
        if x >= HIT and (x - HIT) // MAX_POS != seat and cards_mask(g, seat) != 0:
            n, S = Q.pool(g, rt)
            q = Q.removal(g, rt, seat, n, S)
            note(g, log, turn, seat, K.DP_TARGET_POS, q, -1)
            move(g, rt, seat, q, (x - HIT) // MAX_POS, x % MAX_POS)
    penalty_cards(g, rt, seat, misses * rt[K.R_MATCH_FAIL_CARDS])
    discard(g, rt, card)



@hot
def _unnominated(g, rt, count):
    """Has some seat a card that was not nominated (a further nomination was offered)?"""
    for s in range(rt[K.R_PLAYERS]):
        m = cards_mask(g, s)
        for i in range(count):
            x = g[ix(Q.NOMINEES + i)]
            if x // MAX_POS == s:
                m &= ~(1 << (x % MAX_POS))
        if m != 0:
            return True
    return False


@hot(inline="always")
def play_drawn(g, rt, log, turn, seat):
    """A_DRAW_STOCK: the drawn card is matched, placed, used for its power or discarded."""
    card = draw(g, rt)
    effect = rt[ix(K.RT_EFFECT + card)]
    rep = cards_mask(g, seat)
    if rt[K.R_POWER_PLACEABLE] == 0 and effect != K.POW_NONE:
        rep = 0
    power_ok = effect != K.POW_NONE and usable(g, rt, seat, effect)
    match_ok = anyone_has_cards(g, rt)
    n, S = Q.pool(g, rt)
    n -= 1
    S -= rt[ix(RT_VALUE + card)]
    count = Q.plan_match(g, rt, seat, card) if match_ok else 0
    if count > 0:
        a = K.A_MATCH
    else:
        a = Q.best_placement(g, rt, seat, card, n, S) if n > 0 else -1
        if a < 0 or (rep >> a) & 1 == 0:
            a = _not_placed(g, rt, seat, card, effect, rep, power_ok, match_ok, n, S)
    note(g, log, turn, seat, K.DP_PLACE_DRAWN, a, card)
    if a == K.A_MATCH:
        count = max(count, 1)   # (a blind match: its one nomination)
        cabo_match(g, rt, log, turn, seat, card, count)
    elif a == K.A_POWER:
        use_power(g, rt, log, turn, seat, effect)
        discard(g, rt, card)
    elif a == K.A_DISCARD:
        discard(g, rt, card)
    else:
        place(g, rt, seat, a, card, EVERY if rt[K.R_PRIVATE_STOCK] == 0 else 1 << seat)


@hot(inline="always")
def _not_placed(g, rt, seat, card, effect, rep, power_ok, match_ok, n, S):
    """A drawn card greedy does not place: a blind match worth its risk (planned), the power
    when it wants it, else the discard pile."""
    t = Q.blind_match(g, rt, seat, card) if match_ok else -1
    if t >= 0:
        g[ix(Q.NOMINEES)] = t
        return K.A_MATCH
    if power_ok and Q.wants_power(g, rt, seat, effect, n, S):
        Q.set_plan(g, seat, Q.THEIRS, 0)   # the plan starts anew
        Q.set_plan(g, seat, Q.FIRST, 0)
        return K.A_POWER
    if rt[K.R_STOCK_MAY_DISCARD] != 0 or (rep == 0 and not power_ok and not match_ok):
        return K.A_DISCARD
    if power_ok:
        return K.A_POWER
    return Q.lowest(rep)


@hot(inline="always")
def play_taken(g, rt, log, turn, seat):
    """A_TAKE_DISCARD: the top discard is matched or placed where greedy planned."""
    card = take_top(g, rt)
    rep = cards_mask(g, seat)
    count = Q.plan_match(g, rt, seat, card) if anyone_has_cards(g, rt) else 0
    if count > 0:
        a = K.A_MATCH
    else:
        a = Q.plan(g, seat, Q.PLANNED)
        if a < 0 or (rep >> a) & 1 == 0:
            a = Q.lowest(rep)
    note(g, log, turn, seat, K.DP_PLACE_TAKEN, a, card)
    if a == K.A_MATCH:
        cabo_match(g, rt, log, turn, seat, card, count)
    else:
        place(g, rt, seat, a, card, EVERY)


@hot(inline="always")
def turn_nb(g, rt, log, seat, turn):
    """``seat``'s turn: 1 when played, 0 when nothing is legal (the hole must end)."""
    n_disc = counter(g, K.PUB_DISCARD_N)
    draw_ok = counter(g, K.PUB_STOCK_N) > 0
    top = g[ix(G_DISCARD + n_disc - 1)] if n_disc > 0 else -1
    take_ok = rt[K.R_DRAW_FROM_DISCARD] != 0 and n_disc > 0 and \
        not (counter(g, K.PUB_ENDER) >= 0 and rt[K.R_FINAL_STOCK_ONLY] != 0) and \
        cards_mask(g, seat) != 0 and \
        (rt[K.R_POWER_PLACEABLE] != 0 or rt[ix(K.RT_EFFECT + top)] == K.POW_NONE)
    knock_ok = may_call(g, rt, turn) and rt[K.R_KNOCK_TIMING] != K.KNOCK_END_OF_TURN
    if not (draw_ok or take_ok or knock_ok):
        return 0
    n, S = Q.pool(g, rt)
    action = -1
    if knock_ok and Q.calls(g, rt, seat, n, S):
        action = K.A_KNOCK
    elif take_ok and n > 0:
        p = Q.best_placement(g, rt, seat, top, n, S)
        if p >= 0:
            Q.set_plan(g, seat, Q.PLANNED, p)   # decided before taking, placed after
            action = K.A_TAKE_DISCARD
    if action < 0:
        action = K.A_DRAW_STOCK if draw_ok else (K.A_TAKE_DISCARD if take_ok else K.A_KNOCK)
    note(g, log, turn, seat, K.DP_TURN, action, -1)
    if action == K.A_KNOCK:
        start_end(g, rt, seat, turn)
    elif action == K.A_DRAW_STOCK:
        play_drawn(g, rt, log, turn, seat)
    else:
        play_taken(g, rt, log, turn, seat)
    if not check_over(g, rt, seat, turn) and rt[K.R_KNOCK_TIMING] != K.KNOCK_INSTEAD and \
            may_call(g, rt, turn):
        n, S = Q.pool(g, rt)
        calls = Q.calls(g, rt, seat, n, S)
        note(g, log, turn, seat, K.DP_KNOCK, K.A_KNOCK if calls else K.A_PASS, -1)
        if calls:
            start_end(g, rt, seat, turn)
    return 1
