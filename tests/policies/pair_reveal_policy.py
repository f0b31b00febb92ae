"""A test policy that opens by revealing the two cards of one column (tests/test_reveal_set.py),
named as one set (``as_set`` = 1, codes.REVEAL_SET) or one position at a time, the column kept in
memory; it then turns its face-down positions up from the left. Both ways play the same holes."""

from simulator.game.codes import (DP_FLIP, DP_PLACE_DRAWN, DP_PLACE_TAKEN, DP_REVEAL, MAX_POS,
                                  PUB_DISCARD_N, PUB_REVEAL_PICKS, R_COLS, R_NPOS, REVEAL_SET)
from simulator.kernel.policy_tools import lowest_legal

PARAMS = (("as_set", 1.0, "name the pair as one set (0: one position at a time)"),)
COLUMN = 0   # memory slot: the column chosen, plus 1 (0: none yet)


def column(seat, public, discard, cols):
    """A column that depends on what the seat sees, so that the pairs differ."""
    n = public[PUB_DISCARD_N]
    top = discard[n - 1] if n > 0 else 0
    return (top + seat) % cols


def reveal(seat, public, discard, memory, rules, params):
    cols = rules[R_COLS]
    if params[1] > 0 and public[PUB_REVEAL_PICKS] == 2:
        c = column(seat, public, discard, cols)
        return REVEAL_SET + (1 << c) + (1 << (c + cols))
    if memory[COLUMN] == 0:
        c = column(seat, public, discard, cols)
        memory[COLUMN] = c + 1
        return c
    return memory[COLUMN] - 1 + cols


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
           params):
    if point == DP_REVEAL:
        return reveal(seat, public, discard, memory, rules, params)
    if point == DP_PLACE_DRAWN or point == DP_PLACE_TAKEN or point == DP_FLIP:
        for p in range(rules[R_NPOS]):
            if legal[p] and faceup[seat * MAX_POS + p] == 0:
                return p
    return lowest_legal(legal)
