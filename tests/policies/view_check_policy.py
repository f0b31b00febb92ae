"""A test policy that checks its own view at every decision it is asked (tests/test_contract.py).

It cannot see the real cards, but a view that holds a card its seat has not seen, or a card that
has since moved, contradicts itself: a card known at two positions, a known layout card that is
also on the discard pile or in the hand, a face-up card the seat does not know, or face-down
counts that disagree with the face-up flags. On any of these it answers an illegal action, which
the engine reports as an error. Otherwise it picks a legal action steered by what it sees
(knocking only now and then, so that rounds also run long)."""

from numba import njit

from simulator.game.codes import (A_KNOCK, DP_PLACE_DRAWN, DP_PLACE_TAKEN, EMPTY0, MAX_POS,
                                  N_ACTIONS, N_PUB_SLOTS, PUB_DISCARD_N, PUB_TURN, R_NPOS,
                                  R_PLAYERS)

PARAMS = ()


@njit(inline="always")
def view_is_consistent(point, held, public, known, faceup, discard, rules):
    players, npos = rules[R_PLAYERS], rules[R_NPOS]
    n_discard = public[PUB_DISCARD_N]
    for s in range(players):
        down = 0
        for p in range(npos):
            i = s * MAX_POS + p
            k = known[i]
            if faceup[i] == 1:
                if k < 0:
                    return False
            else:
                down += 1
            if k < 0 or k >= EMPTY0:
                continue
            if (point == DP_PLACE_DRAWN or point == DP_PLACE_TAKEN) and k == held:
                return False
            for j in range(n_discard):
                if discard[j] == k:
                    return False
            for t in range(i + 1, players * MAX_POS):
                if t % MAX_POS < npos and known[t] == k:
                    return False
        if public[N_PUB_SLOTS + s] != down:
            return False
    return True


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
           params):
    if not view_is_consistent(point, held, public, known, faceup, discard, rules):
        for a in range(N_ACTIONS):
            if not legal[a]:
                return a
    memory[1] += 1
    h = memory[1] * 7 + seat * 3 + public[PUB_TURN] + point
    for i in range(rules[R_PLAYERS] * MAX_POS):
        h = (h * 5 + known[i] + faceup[i]) & 0xFFFFF
    count = 0
    for a in range(N_ACTIONS):
        count += legal[a]
    skip_knock = legal[A_KNOCK] and count > 1 and h % 16 != 0
    if skip_knock:
        count -= 1
    k = h % count
    for a in range(N_ACTIONS):
        if legal[a] and not (skip_knock and a == A_KNOCK):
            if k == 0:
                return a
            k -= 1
    return -1
