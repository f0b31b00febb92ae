"""A test policy that draws from its random stream at every decision (tests/
test_env_user_opponents.py): a uniform legal action, a knock only now and then (so that
holes also run long). Whoever plays it out of step with golfsim's stream plays other moves."""

from simulator.game.codes import A_KNOCK, N_ACTIONS
from simulator.kernel.rng import below_nb

PARAMS = (("knock", 8.0, "knock (when legal) only when a draw below this many comes up 0"),)


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng,
           params):
    count = 0
    for a in range(N_ACTIONS):
        count += legal[a]
    skip_knock = legal[A_KNOCK] and count > 1 and below_nb(rng, 0, int(params[1])) != 0
    if skip_knock:
        count -= 1
    k = below_nb(rng, 0, count)
    for a in range(N_ACTIONS):
        if legal[a] and not (skip_knock and a == A_KNOCK):
            if k == 0:
                return a
            k -= 1
    return -1
