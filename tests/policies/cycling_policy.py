"""A test policy that reaches every decision the user-policy kernel asks (knocks, discards,
face choices, reveals) and lets everything it is shown steer what it answers: if the kernel
showed it anything different from the general engine, the two would soon play differently.
With ``illegal_at`` = k > 0 it answers an illegal action at its k-th decision of a round, in
about one round in twenty."""

from numba import njit

from simulator.game.codes import (A_KNOCK, MAX_PLAYERS, MAX_POS, MEMORY_SLOTS, N_ACTIONS,
                                  N_PUB_SLOTS, PUB_DISCARD_N)

PARAMS = (("illegal_at", 0.0, "answer an illegal action at this decision of a round (0: never)"),)


@njit(inline="always")
def seen(seat, held, public, known, faceup, discard, memory, rules):
    """A number that depends on every view."""
    h = seat * 31 + held * 7 + rules[0]
    for i in range(N_PUB_SLOTS + MAX_PLAYERS):
        h = h * 3 + public[i]
    for i in range(MAX_PLAYERS * MAX_POS):
        h = h * 5 + known[i] * 2 + faceup[i]
    n = public[PUB_DISCARD_N]
    if n > 0:
        h += discard[n - 1] * 11
    for i in range(MEMORY_SLOTS):
        h = h * 7 + memory[i]
    return h & 0xFFFF


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
           params):
    memory[1] += 1
    h = seen(seat, held, public, known, faceup, discard, memory, rules) + point
    if params[1] > 0 and memory[1] == params[1] and h % 64 == 0:
        for a in range(N_ACTIONS):   # (in some rounds only, so that others come first)
            if not legal[a]:
                return a
    count = 0
    for a in range(N_ACTIONS):
        count += legal[a]
    memory[2] = h & 7
    skip_knock = legal[A_KNOCK] and count > 1 and h % 16 != 0
    if skip_knock:
        count -= 1      # knock now and then only, so that rounds also run long
    k = h % count
    for a in range(N_ACTIONS):
        if legal[a] and not (skip_knock and a == A_KNOCK):
            if k == 0:
                return a
            k -= 1
    return -1
