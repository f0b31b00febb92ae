"""An example user policy: W1's ``greedy`` (docs/benchmarks.md#w1), written against the
user-policy interface (docs/user_policies.md) instead of the engine's internals.

    golfsim run --preset six_card --players 4 --strategy strategies/examples/greedy_policy.py:decide

On the six-card rules it plays move for move like the built-in ``greedy`` (tests/test_user_policy.py
checks that), so it doubles as a template: copy it, change ``decide``, keep the signature.
Numba compiles ``decide`` together with the helpers it calls from this file (plain functions
here are compiled too); constants from ``simulator.game.codes`` name the slots of every array.

Where to put a card is the built-in's own search, from ``simulator.kernel.policy_tools``: it keeps
what each position is worth in ``memory`` (slots 16 and up) and scores them all at once, the
built-in's speed. ``policy_tools.best_position_scan`` gives the same answer written as a plain
loop over the columns (about 1.1x slower in a whole game): a starting point for a search of your
own.
It is written for two-row layouts whose columns pair (the six-card family); on other layouts it
plays as if the first two rows paired by column, and falls back to a legal action wherever that
search names a position the rules do not allow.
"""

from simulator.game.codes import (A_DISCARD, A_DRAW_STOCK, A_FACE_UP, A_REMOVE, A_TAKE_DISCARD,
                                  DP_FACE, DP_PLACE_DRAWN, DP_PLACE_TAKEN, DP_REMOVE, DP_TURN,
                                  END_ALL_FACE_UP, GREEDY_STALL_RESHUFFLES, MAX_POS,
                                  PUB_DISCARD_N, PUB_DISCARD_SUM, PUB_FACEUP_N, PUB_FACEUP_SUM,
                                  PUB_RESHUFFLES, R_DECK_SUM, R_END_TRIGGERS, R_NCARDS, RT_VALUE)
from simulator.kernel.policy_tools import best_position, lowest_legal

# no parameters; a policy with parameters lists them as PARAMS = (("name", default, "doc"), ...)
# and reads them from params[1], params[2], ... in that order
PARAMS = ()

PLANNED = 0   # memory slot: the position chosen for the discard it takes


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng, params):
    # the unseen pool: neither face up in a layout nor in the discard pile
    n = rules[R_NCARDS] - public[PUB_FACEUP_N] - public[PUB_DISCARD_N]
    S = rules[R_DECK_SUM] - public[PUB_FACEUP_SUM] - public[PUB_DISCARD_SUM]
    if point == DP_TURN:
        if legal[A_TAKE_DISCARD] and n > 0:
            top = discard[public[PUB_DISCARD_N] - 1]
            # the take must be legal as a whole, so the placement is planned now
            memory[PLANNED] = best_position(seat, top, known, faceup, memory, rules, n, S)
            if memory[PLANNED] >= 0:
                return A_TAKE_DISCARD
        if legal[A_DRAW_STOCK]:
            return A_DRAW_STOCK
    elif point == DP_PLACE_TAKEN:
        if memory[PLANNED] >= 0 and legal[memory[PLANNED]]:
            return memory[PLANNED]
    elif point == DP_PLACE_DRAWN:
        p = best_position(seat, held, known, faceup, memory, rules, n - 1,
                          S - rules[RT_VALUE + held]) if n > 1 else -1
        # off the six-card family the search may name a position these rules do not allow
        if p >= 0 and legal[p]:
            return p
        # greedy's stall rule (docs/policies.md#greedy): a stock reshuffled that often holds
        # only cards nobody wants; the card goes over the lowest own card not seen yet
        if public[PUB_RESHUFFLES] >= GREEDY_STALL_RESHUFFLES and \
                rules[R_END_TRIGGERS] & END_ALL_FACE_UP:
            for q in range(MAX_POS):
                if legal[q] and known[seat * MAX_POS + q] < 0:
                    return q
        if legal[A_DISCARD]:
            return A_DISCARD
    elif point == DP_FACE:
        return A_FACE_UP
    elif point == DP_REMOVE:
        return A_REMOVE
    return lowest_legal(legal)

