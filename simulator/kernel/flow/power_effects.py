"""The power-card games' effects (the powers build; simulator/game/powers/ is the
specification): which power has a target now, each effect with the decisions it asks, and
the turn match (Pablo's multi-replace, Cabo's match). A power round keeps its counters in
the public slots (moves.py); each step is called, not inlined, to keep the first compile
short."""

from __future__ import annotations

from simulator.game import codes as K
from simulator.game.codes import G_PRIV, G_PUB, MAX_POS
from simulator.kernel.jit import hot, ix

from .ask import _pask, _place, _pw_pos, _pw_seat
from .base import (BIT_PASS, PRIV_END_TURN, card_at, effect_of, everyone, is_up, key_of,
                   popcount, pub, set_pub)
from .moves import (_replaceable, add_penalty_cards, can_draw, cards_mask, discard,
                    discard_used, draw_card, face_down_mask, known_mask, move, opponents,
                    peek, put, room, seats_with, show, shuffle_layout, swap, take, turn_up)

# the Dutch table by rank index (A..K), for the 2's combinations (powers.DUTCH_EFFECTS)
DUTCH_BY_RANK = (K.POW_GIVE_OR_REMOVE, K.POW_COMBINE, K.POW_SHUFFLE_OPP, K.POW_FLIP_OPP,
                 K.POW_SHIELD, K.POW_SWAP_OWN_OPP_BLIND, K.POW_SWAP_LINE, K.POW_DRAW_TWO,
                 K.POW_EXCHANGE_THIS, K.POW_PEEK_OPP, K.POW_PEEK_OWN, K.POW_NONE,
                 K.POW_CANCEL_FINAL)


@hot
def give_or_remove_seats(g, rt, seat):
    """The Dutch ace: opponents that can be given a card, and the seat itself when it has a
    card to remove."""
    m = 0
    if can_draw(g, rt):
        opps = opponents(g, rt, seat)
        for s in range(rt[K.R_PLAYERS]):
            if (opps >> s) & 1 and room(g, s) >= 0:
                m |= 1 << s
    if cards_mask(g, seat) != 0:
        m |= 1 << seat
    return m


@hot
def usable(g, rt, seat, effect):
    """Has the effect a target now (is POWER offered)? (COMBINE: see combinable.)"""
    opps = opponents(g, rt, seat)
    me = 1 << seat
    if effect == K.POW_PEEK_OWN:
        return face_down_mask(g, seat) != 0
    if effect == K.POW_PEEK_OPP or effect == K.POW_FLIP_OPP or effect == K.POW_SHUFFLE_OPP:
        return seats_with(g, rt, opps, True) != 0
    if effect == K.POW_PEEK_ANY:
        return seats_with(g, rt, opps | me, True) != 0
    if effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or \
            effect == K.POW_PEEK_BOTH_SWAP:
        return cards_mask(g, seat) != 0 and seats_with(g, rt, opps, False) != 0
    if effect == K.POW_SWAP_ANY_TWO:
        n = 0
        for s in range(rt[K.R_PLAYERS]):
            if ((opps | me) >> s) & 1:
                n += popcount(cards_mask(g, s))
        return n >= 2
    if effect == K.POW_SWAP_LINE:
        return rt[K.R_SWAP_LINE_OK] != 0 and opps != 0
    if effect == K.POW_DRAW_TWO:
        return can_draw(g, rt)
    if effect == K.POW_SHIELD:
        return True
    if effect == K.POW_GIVE_OR_REMOVE:
        return give_or_remove_seats(g, rt, seat) != 0
    if effect == K.POW_CANCEL_FINAL:
        return pub(g, K.PUB_ENDER) >= 0
    if effect == K.POW_EXCHANGE_THIS:
        return _replaceable(g, rt, seat) != 0 and seats_with(g, rt, opps, False) != 0
    return False


@hot
def combinable(g, rt, seat, chosen):
    """DP_CHOOSE_POWER's ranks: enabled, combinable, not chosen yet, usable now."""
    m = 0
    bits = rt[K.R_COMBINABLE] & ~chosen
    for rank in range(13):
        if (bits >> rank) & 1 and usable(g, rt, seat, DUTCH_BY_RANK[rank]):
            m |= 1 << rank
    return m


@hot
def power_usable(g, rt, seat, effect):
    if effect == K.POW_COMBINE:
        return combinable(g, rt, seat, 0) != 0
    return effect != K.POW_NONE and usable(g, rt, seat, effect)


@hot
def match_possible(g, rt, seat):
    mode = rt[K.R_TURN_MATCH]
    if mode == K.TMATCH_PABLO:
        return popcount(cards_mask(g, seat)) >= 2
    if mode == K.TMATCH_CABO:
        return seats_with(g, rt, everyone(rt), False) != 0
    return False


@hot
def cancel_end(g):
    """The Dutch black king: a running final lap is cancelled."""
    set_pub(g, K.PUB_ENDER, -1)
    set_pub(g, K.PUB_FINAL_LEFT, -1)
    set_pub(g, K.PUB_KNOCKED, 0)
    g[ix(G_PRIV + PRIV_END_TURN)] = -1


@hot
def _place_kept(g, rt, rng, par, ctx, seat, p, card, public):
    """The turn's placement (_place) of the card an effect kept (the Dutch 8's), the
    counters in the public slots. 0, or -1 on a policy error."""
    ok, n_disc, sum_disc, up_n, up_sum = _place(
        g, rt, rng, par, ctx, seat, p, card, public, pub(g, K.PUB_DISCARD_N),
        pub(g, K.PUB_DISCARD_SUM), pub(g, K.PUB_FACEUP_N), pub(g, K.PUB_FACEUP_SUM))
    set_pub(g, K.PUB_DISCARD_N, n_disc)
    set_pub(g, K.PUB_DISCARD_SUM, sum_disc)
    return 0 if ok else -1


@hot
def _pw_resolve(g, rt, rng, par, ctx, seat, effect, card):
    """One power for ``seat`` holding ``card`` (the Dutch 2: up to two chosen powers): 1 when
    the effect disposed of the card itself (the Dutch 8 and 9), 0 when the caller discards
    it, -1 on a policy error."""
    if effect != K.POW_COMBINE:
        return _pw_effect(g, rt, rng, par, ctx, seat, effect, card)
    chosen = 0
    for _ in range(2):
        options = combinable(g, rt, seat, chosen)
        if options == 0:
            break
        rank = _pask(g, rt, rng, par, ctx, K.DP_CHOOSE_POWER, seat, -1, effect, -1,
                     options | BIT_PASS)
        if rank < 0:
            return -1
        if rank == K.A_PASS:
            break
        chosen |= 1 << rank
        r = _pw_effect(g, rt, rng, par, ctx, seat, DUTCH_BY_RANK[rank], card)
        if r != 0:
            return r
    return 0


@hot
def _pw_cell(g, rt, rng, par, ctx, seat, seats, face_down, effect):
    """A target of ``seat``'s power: one of the seats of mask ``seats`` that hold a card
    (``face_down``: a face-down card), then one of its positions holding one. (its seat, its
    position), or (-1, -1) on a policy error."""
    s = _pw_seat(g, rt, rng, par, ctx, seat, seats_with(g, rt, seats, face_down), effect)
    if s < 0:
        return -1, -1
    p = _pw_pos(g, rt, rng, par, ctx, seat, s,
                face_down_mask(g, s) if face_down else cards_mask(g, s), effect)
    if p < 0:
        return -1, -1
    return s, p


@hot
def _pw_effect(g, rt, rng, par, ctx, seat, effect, card):
    """One effect (powers.PowerHole.resolve); as _pw_resolve returns."""
    opps = opponents(g, rt, seat)
    me = 1 << seat
    if effect == K.POW_PEEK_OWN:
        p = _pw_pos(g, rt, rng, par, ctx, seat, seat, face_down_mask(g, seat), effect)
        if p < 0:
            return -1
        peek(g, rt, seat, p, seat)
    elif effect == K.POW_PEEK_OPP or effect == K.POW_PEEK_ANY:
        seats = opps | (me if effect == K.POW_PEEK_ANY else 0)
        s, p = _pw_cell(g, rt, rng, par, ctx, seat, seats, True, effect)
        if s < 0:
            return -1
        peek(g, rt, s, p, seat)
    elif effect == K.POW_SWAP_OWN_OPP_BLIND or effect == K.POW_SWAP_AFTER_PEEK_OPP or \
            effect == K.POW_PEEK_BOTH_SWAP or effect == K.POW_SWAP_ANY_TWO:
        return _pw_swaps(g, rt, rng, par, ctx, seat, effect)
    elif effect == K.POW_SHUFFLE_OPP:
        s = _pw_seat(g, rt, rng, par, ctx, seat, seats_with(g, rt, opps, True), effect)
        if s < 0:
            return -1
        shuffle_layout(g, rt, rng, s)
    elif effect == K.POW_FLIP_OPP:
        s, p = _pw_cell(g, rt, rng, par, ctx, seat, opps, True, effect)
        if s < 0:
            return -1
        turn_up(g, rt, s, p)
        if effect_of(rt, card_at(g, s, p)) == K.POW_CANCEL_FINAL and \
                g[ix(G_PUB + K.PUB_ENDER)] >= 0:
            cancel_end(g)
    elif effect == K.POW_SWAP_LINE:
        s = _pw_seat(g, rt, rng, par, ctx, seat, opps, effect)
        if s < 0:
            return -1
        rows = rt[K.R_ROWS]
        cols = rt[K.R_COLS]
        k = _pw_pos(g, rt, rng, par, ctx, seat, s, (1 << (rows + cols)) - 1, effect)
        if k < 0:
            return -1
        if k < rows:
            for c in range(cols):
                swap(g, rt, seat, k * cols + c, s, k * cols + c)
        else:
            for r in range(rows):
                swap(g, rt, seat, r * cols + k - rows, s, r * cols + k - rows)
    elif effect == K.POW_DRAW_TWO:
        discard_used(g, rt, seat, card)
        return -1 if _pw_draw_two(g, rt, rng, par, ctx, seat) < 0 else 1
    elif effect == K.POW_SHIELD:
        g[ix(G_PUB + K.PUB_SHIELDED)] |= me
    elif effect == K.POW_GIVE_OR_REMOVE:
        s = _pw_seat(g, rt, rng, par, ctx, seat, give_or_remove_seats(g, rt, seat), effect)
        if s < 0:
            return -1
        if s == seat:
            p = _pw_pos(g, rt, rng, par, ctx, seat, seat, cards_mask(g, seat), effect)
            if p < 0:
                return -1
            discard(g, rt, seat, take(g, rt, seat, p))
        else:
            p = room(g, s)
            put(g, rt, s, p, draw_card(g, rt, rng), False, 0)
    elif effect == K.POW_CANCEL_FINAL:
        cancel_end(g)
    elif effect == K.POW_EXCHANGE_THIS:
        return _pw_exchange(g, rt, rng, par, ctx, seat, card)
    return 0


@hot
def _pw_swaps(g, rt, rng, par, ctx, seat, effect):
    """The swapping effects: blind (after a peek at the opponent's card: Pablo's 7), any
    two cards, and Cumbia's jack (both cards peeked, the swap optional)."""
    opps = opponents(g, rt, seat)
    me = 1 << seat
    if effect == K.POW_SWAP_ANY_TWO:
        seats = opps | me
        s1, p1 = _pw_cell(g, rt, rng, par, ctx, seat, seats, False, effect)
        if s1 < 0:
            return -1
        others = 0
        for x in range(rt[K.R_PLAYERS]):
            if (seats >> x) & 1 and cards_mask(g, x) & ~((1 << p1) if x == s1 else 0):
                others |= 1 << x
        s2 = _pw_seat(g, rt, rng, par, ctx, seat, others, effect)
        if s2 < 0:
            return -1
        left = cards_mask(g, s2) & ~((1 << p1) if s2 == s1 else 0)
        p2 = _pw_pos(g, rt, rng, par, ctx, seat, s2, left, effect)
        if p2 < 0:
            return -1
        swap(g, rt, s1, p1, s2, p2)
        return 0
    p = -1
    if effect == K.POW_PEEK_BOTH_SWAP:
        p = _pw_pos(g, rt, rng, par, ctx, seat, seat, cards_mask(g, seat), effect)
        if p < 0:
            return -1
        peek(g, rt, seat, p, seat)
    s, q = _pw_cell(g, rt, rng, par, ctx, seat, opps, False, effect)
    if s < 0:
        return -1
    if effect != K.POW_SWAP_OWN_OPP_BLIND:
        peek(g, rt, s, q, seat)
    if effect == K.POW_PEEK_BOTH_SWAP:
        a = _pask(g, rt, rng, par, ctx, K.DP_SWAP, seat, -1, effect, -1,
                  (1 << K.A_SWAP) | BIT_PASS)
        if a < 0:
            return -1
        if a == K.A_SWAP:
            swap(g, rt, seat, p, s, q)
        return 0
    p = _pw_pos(g, rt, rng, par, ctx, seat, seat, cards_mask(g, seat), effect)
    if p < 0:
        return -1
    swap(g, rt, seat, p, s, q)
    return 0


@hot
def _pw_exchange(g, rt, rng, par, ctx, seat, card):
    """The Dutch 9 takes an opponent's card's place; that card is placed like a taken
    discard, known to the seat and whoever knew it. Returns 1 (it disposed of the 9)."""
    effect = K.POW_EXCHANGE_THIS
    s, q = _pw_cell(g, rt, rng, par, ctx, seat, opponents(g, rt, seat), False, effect)
    if s < 0:
        return -1
    taken = card_at(g, s, q)
    knew = known_mask(g, rt, s, q) | (1 << seat)
    put(g, rt, s, q, card, is_up(g, s, q), 1 << seat)
    p = _pask(g, rt, rng, par, ctx, K.DP_PLACE_TAKEN, seat, taken, effect, -1,
              _replaceable(g, rt, seat))
    if p < 0:
        return -1
    old = card_at(g, seat, p)
    up = rt[K.R_PLACEMENT_FACE] == K.FACE_UP or is_up(g, seat, p)
    put(g, rt, seat, p, taken, up, knew)
    discard(g, rt, seat, old)
    return 1


@hot
def _pw_draw_two(g, rt, rng, par, ctx, seat):
    """The Dutch 8 (already discarded): up to two stock cards, one kept and placed,
    discarded or matched, the other discarded."""
    a = draw_card(g, rt, rng)
    b = draw_card(g, rt, rng)
    if a < 0:
        return 0
    card = a
    if b >= 0:
        g[ix(G_PUB + K.PUB_CHOICE0)] = a
        g[ix(G_PUB + K.PUB_CHOICE1)] = b
        keep = _pask(g, rt, rng, par, ctx, K.DP_KEEP, seat, -1, K.POW_DRAW_TWO, -1, 3)
        g[ix(G_PUB + K.PUB_CHOICE0)] = -1
        g[ix(G_PUB + K.PUB_CHOICE1)] = -1
        if keep < 0:
            return -1
        discard(g, rt, seat, b if keep == 0 else a)
        card = a if keep == 0 else b
    bits = 1 << K.A_DISCARD
    if rt[K.R_POWER_PLACEABLE] != 0 or effect_of(rt, card) == K.POW_NONE:
        bits |= _replaceable(g, rt, seat)
    if match_possible(g, rt, seat):
        bits |= 1 << K.A_MATCH
    c = _pask(g, rt, rng, par, ctx, K.DP_PLACE_DRAWN, seat, card, K.POW_DRAW_TWO, -1, bits)
    if c < 0:
        return -1
    if c == K.A_DISCARD:
        discard(g, rt, seat, card)
        return 0
    if c == K.A_MATCH:
        return _pw_turn_match(g, rt, rng, par, ctx, seat, card, False)
    return _place_kept(g, rt, rng, par, ctx, seat, c, card, rt[K.R_PRIVATE_STOCK] == 0)


@hot
def _nominated(tmp, n, s):
    """The positions of seat ``s`` among the first ``n`` nominations (tmp: s*MAX_POS + p)."""
    m = 0
    for i in range(n):
        if (tmp[i] & 4095) // MAX_POS == s:
            m |= 1 << (tmp[i] % MAX_POS)
    return m


@hot
def _give_back(g, rt, rng, par, ctx, seat, to, p):
    """A hit on another seat's card at (to, p): ``seat`` gives it one of its own cards
    there, blind (DP_TARGET_POS, CTX_GIVE), when it has one. 0, or -1 on a policy error."""
    mine = cards_mask(g, seat)
    if to != seat and mine != 0:
        q = _pw_pos(g, rt, rng, par, ctx, seat, seat, mine, K.CTX_GIVE)
        if q < 0:
            return -1
        move(g, rt, seat, q, to, p)
    return 0


@hot
def _pw_turn_match(g, rt, rng, par, ctx, seat, card, public):
    """Step 3: Pablo's multi-replace or Cabo's match with the held ``card``. The
    nominations, in order, are kept in the turn's scratch (ctx[4])."""
    g[ix(G_PUB + K.PUB_HELD_PUBLIC)] = -1
    if rt[K.R_TURN_MATCH] == K.TMATCH_PABLO:
        return _pablo_match(g, rt, rng, par, ctx, seat, card, public)
    return _cabo_match(g, rt, rng, par, ctx, seat, card)


@hot
def _pablo_match(g, rt, rng, par, ctx, seat, card, public):
    """Pablo's multi-replace: two or more own cards nominated, shown; all of one key leave
    for the held card, else it goes to the seat's lowest empty position."""
    tmp = ctx[4]
    seen = everyone(rt) if public else 1 << seat
    face_up = rt[K.R_PLACEMENT_FACE] == K.FACE_UP
    n = 0
    while True:
        left = cards_mask(g, seat) & ~_nominated(tmp, n, seat)
        if left == 0:
            break
        a = _pask(g, rt, rng, par, ctx, K.DP_NOMINATE, seat, -1, K.CTX_NOMINATE, seat,
                  left | (BIT_PASS if n >= 2 else 0))
        if a < 0:
            return -1
        if a == K.A_PASS:
            break
        tmp[n] = seat * MAX_POS + a
        n += 1
    same = n > 0
    for i in range(n):
        show(g, rt, seat, tmp[i] % MAX_POS)
        if key_of(rt, card_at(g, seat, tmp[i] % MAX_POS)) != \
                key_of(rt, card_at(g, seat, tmp[0] % MAX_POS)):
            same = False
    if same:
        for i in range(n):
            discard(g, rt, seat, take(g, rt, seat, tmp[i] % MAX_POS))
        put(g, rt, seat, tmp[0] % MAX_POS, card, face_up, seen)
    else:
        p = room(g, seat)
        if p < 0:
            discard(g, rt, seat, card)
        else:
            put(g, rt, seat, p, card, face_up, seen)
    return 0


@hot
def _cabo_match(g, rt, rng, par, ctx, seat, card):
    """Cabo's match: any seats' cards nominated and shown; those of the held card's key are
    discarded (another seat's hit given one of the actor's cards), each miss costs
    match_fail_cards penalty cards, and the held card is discarded. A hit is flagged in
    the scratch by 4096."""
    tmp = ctx[4]
    n = 0
    while True:
        seats = 0
        for s in range(rt[K.R_PLAYERS]):
            if cards_mask(g, s) & ~_nominated(tmp, n, s):
                seats |= 1 << s
        if seats == 0:
            break
        s = _pask(g, rt, rng, par, ctx, K.DP_TARGET_SEAT, seat, -1, K.CTX_NOMINATE, -1,
                  seats | (BIT_PASS if n > 0 else 0))
        if s < 0:
            return -1
        if s == K.A_PASS:
            break
        p = _pask(g, rt, rng, par, ctx, K.DP_NOMINATE, seat, -1, K.CTX_NOMINATE, s,
                  cards_mask(g, s) & ~_nominated(tmp, n, s))
        if p < 0:
            return -1
        tmp[n] = s * MAX_POS + p
        n += 1
    key = key_of(rt, card)
    misses = 0
    for i in range(n):
        show(g, rt, tmp[i] // MAX_POS, tmp[i] % MAX_POS)
    for i in range(n):
        if key_of(rt, card_at(g, tmp[i] // MAX_POS, tmp[i] % MAX_POS)) == key:
            tmp[i] += 4096
        else:
            misses += 1
    for i in range(n):
        if tmp[i] >= 4096:
            discard(g, rt, seat, take(g, rt, (tmp[i] - 4096) // MAX_POS, tmp[i] % MAX_POS))
    for i in range(n):
        if tmp[i] >= 4096 and _give_back(g, rt, rng, par, ctx, seat,
                                         (tmp[i] - 4096) // MAX_POS, tmp[i] % MAX_POS) < 0:
            return -1
    add_penalty_cards(g, rt, rng, seat, misses * rt[K.R_MATCH_FAIL_CARDS])
    discard(g, rt, seat, card)
    return 0
