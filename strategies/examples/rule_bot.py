"""A user policy ported from a plain-Python bot (tests/policies/rule_bot_original.py):
docs/user_policies.md#a-worked-port goes through it line by line.

    golfsim run --preset six_card --players 2 --strategy bot=strategies/examples/rule_bot.py:decide \
        --strategy greedy

It takes a discard that completes a column pair or is worth 2 or less; it puts a card where
it pairs, else over its worst known card when that gains a point, else face down over an
unseen card when worth less than the unseen cards' mean (not turning its last card up with
more than 10 points), else discards it. It reads cards with ``policy_tools``' card helpers and
keeps the unseen mean it judged at the start of its turn in ``float_memory``.
Written for six_card's two rows of three; other layouts play their first two rows alike.
"""

from simulator.game.codes import (A_DISCARD, A_DRAW_STOCK, A_FACE_UP, A_TAKE_DISCARD, DP_FACE,
                                  DP_PLACE_DRAWN, DP_PLACE_TAKEN, DP_TURN, MAX_POS,
                                  PUB_DISCARD_N, PUB_DISCARD_SUM, PUB_FACEUP_N, PUB_FACEUP_SUM,
                                  R_COLS, R_DECK_SUM, R_NCARDS)
from simulator.kernel.policy_tools import card_rank, card_value, float_memory, lowest_legal

PARAMS = (("low", 2.0, "a discard worth this or less is taken"),
          ("out", 10.0, "never turn the last face-down card up with more than this"))
MEAN = 0   # float memory slot: an unseen card's worth, judged at the turn's start


def partner(p, cols):
    return p + cols if p < cols else p - cols


def pairs_at(seat, card, known, cols):
    """A position where the card completes a column pair, or -1."""
    for p in range(2 * cols):
        q = known[seat * MAX_POS + partner(p, cols)]
        here = known[seat * MAX_POS + p]
        if q >= 0 and card_rank(q) == card_rank(card) and \
                not (here >= 0 and card_rank(here) == card_rank(q)):
            return p
    return -1


def worst(seat, known, rules, cols):
    """The known card worth most that is not in a pair, or -1."""
    where, most = -1, 0
    for p in range(2 * cols):
        c = known[seat * MAX_POS + p]
        q = known[seat * MAX_POS + partner(p, cols)]
        if c < 0 or (q >= 0 and card_rank(q) == card_rank(c)):
            continue
        if where < 0 or card_value(c, rules) > most:
            where, most = p, card_value(c, rules)
    return where


def place(seat, card, known, rules, mean, may_discard, out_limit):
    cols = rules[R_COLS]
    p = pairs_at(seat, card, known, cols)
    if p >= 0:
        return p
    w = worst(seat, known, rules, cols)
    if w >= 0 and card_value(card, rules) + 1 <= card_value(known[seat * MAX_POS + w], rules):
        return w
    first_down, down, total = -1, 0, card_value(card, rules)
    for q in range(2 * cols):
        c = known[seat * MAX_POS + q]
        if c < 0:
            down += 1
            if first_down < 0:
                first_down = q
        else:
            total += card_value(c, rules)
    if down > 0 and card_value(card, rules) < mean:
        if down > 1 or total <= out_limit or not may_discard:
            return first_down
    if may_discard:
        return A_DISCARD
    return w if w >= 0 else max(first_down, 0)


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng, params):
    scratch = float_memory(memory, 0, 1)
    if point == DP_TURN:
        unseen = rules[R_NCARDS] - public[PUB_FACEUP_N] - public[PUB_DISCARD_N]
        scratch[MEAN] = (rules[R_DECK_SUM] - public[PUB_FACEUP_SUM] -
                         public[PUB_DISCARD_SUM]) / max(unseen, 1)
        if legal[A_TAKE_DISCARD]:
            top = discard[public[PUB_DISCARD_N] - 1]
            if pairs_at(seat, top, known, rules[R_COLS]) >= 0 or \
                    card_value(top, rules) <= params[1]:
                return A_TAKE_DISCARD
        if legal[A_DRAW_STOCK]:
            return A_DRAW_STOCK
    elif point == DP_PLACE_DRAWN or point == DP_PLACE_TAKEN:
        a = place(seat, held, known, rules, scratch[MEAN], point == DP_PLACE_DRAWN, params[2])
        if a >= 0 and legal[a]:
            return a
    elif point == DP_FACE:
        return A_FACE_UP
    return lowest_legal(legal)
