"""A test policy that plays differently when it is behind in its match (tests/test_match_view.py):
it turns its face-down positions up from the left, or from the right while its match total
is above another seat's (with ``aware`` = 0 it never looks at the match)."""

from simulator.game.codes import (DP_FLIP, DP_PLACE_DRAWN, DP_PLACE_TAKEN, DP_REVEAL, MAX_POS,
                                  PUB_TOTAL0, R_NPOS, R_PLAYERS)
from simulator.kernel.policy_tools import lowest_legal

PARAMS = (("aware", 1.0, "read the match totals (0: play as if never behind)"),)


def behind(seat, public, rules):
    mine = public[PUB_TOTAL0 + seat]
    for s in range(rules[R_PLAYERS]):
        if public[PUB_TOTAL0 + s] < mine:
            return True
    return False


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
           params):
    npos = rules[R_NPOS]
    if point == DP_REVEAL or point == DP_PLACE_DRAWN or point == DP_PLACE_TAKEN or \
            point == DP_FLIP:
        back = params[1] > 0 and behind(seat, public, rules)
        for i in range(npos):
            p = npos - 1 - i if back else i
            if legal[p] and faceup[seat * MAX_POS + p] == 0:
                return p
    return lowest_legal(legal)
