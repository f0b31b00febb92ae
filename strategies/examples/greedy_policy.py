"""An example user policy: BENCHMARK.md W1's ``greedy``, written against the user-policy
interface (docs/user_policies.md) instead of the engine's internals.

    golfsim run --preset six_card --players 4 --strategy strategies/examples/greedy_policy.py:decide

On the six-card rules it plays move for move like the built-in ``greedy`` (tests/test_user_policy.py
checks that), so it doubles as a template: copy it, change ``decide``, keep the signature.
Numba compiles ``decide`` together with the helpers it calls from this file (plain functions
here are compiled too); constants from ``simulator.codes`` name the slots of every array.
The small helpers are marked ``@njit(inline="always")``: Numba then copies them into their
callers instead of calling them, each call having passed three arrays (1.09x the speed of the
same file with plain helpers). Leave the mark off large helpers called from many places: each
place compiles its own copy.
It handles two-row layouts with column pairs (the six-card family); elsewhere it answers the
lowest legal action.
"""

from numba import njit

from simulator.codes import (A_DISCARD, A_DRAW_STOCK, A_FACE_UP, A_REMOVE, A_TAKE_DISCARD,
                             DP_FACE, DP_PLACE_DRAWN, DP_PLACE_TAKEN, DP_REMOVE, DP_TURN,
                             EMPTY0, MAX_POS, N_ACTIONS,
                             PUB_DISCARD_N, PUB_DISCARD_SUM, PUB_FACEUP_N, PUB_FACEUP_SUM,
                             R_COLS, R_DECK_SUM, R_LOCK_FACE_UP_COLUMNS, R_NCARDS,
                             R_REPLACE_FACE_UP, RT_KEY, RT_VALUE)

# no parameters; a policy with parameters lists them as PARAMS = (("name", default, "doc"), ...)
# and reads them from params[1], params[2], ... in that order
PARAMS = ()


@njit(inline="always")
def column_estimate(rules, a, b, n, S):
    """n times the estimated score of a two-card column (cards a, b; -1 = unknown)."""
    if a >= 0 and b >= 0:
        if rules[RT_KEY + a] == rules[RT_KEY + b]:
            return 0
        return (rules[RT_VALUE + a] + rules[RT_VALUE + b]) * n
    if a >= 0:
        return rules[RT_VALUE + a] * n + S
    if b >= 0:
        return rules[RT_VALUE + b] * n + S
    return 2 * S


@njit(inline="always")
def replaceable(seat, p, faceup, rules):
    """May a new card go to position p (the rules on replacing face-up cards)?"""
    if not faceup[seat * MAX_POS + p]:
        return True
    if rules[R_REPLACE_FACE_UP] == 0:
        return False
    if rules[R_LOCK_FACE_UP_COLUMNS] != 0:
        cols = rules[R_COLS]
        other = p + cols if p < cols else p - cols
        return not faceup[seat * MAX_POS + other]
    return True


@njit(inline="always")
def best_position(seat, card, known, faceup, rules, n, S):
    """The position where ``card`` gains most (W1's eligibility and ties), or -1.

    Each eligible position gets the key gain * 32 + (31 - position) and the largest key wins:
    the largest gain, and among equal gains the lowest position (an eligible gain is never
    negative, so -1 means none)."""
    cols = rules[R_COLS]
    own = seat * MAX_POS
    best = -1
    for c in range(cols):
        top, bottom = known[own + c], known[own + c + cols]
        before = column_estimate(rules, top, bottom, n, S)
        # the column's estimate once, then each of its cards replaced; a known card must gain
        # at least n (one point), an unknown one anything (EMPTY0 and up: a position left
        # empty by remove_cancelled)
        if replaceable(seat, c, faceup, rules) and top < EMPTY0:
            gain = before - column_estimate(rules, card, bottom, n, S)
            key = gain * 32 + 31 - c
            if gain >= n * (top >= 0) and key > best:
                best = key
        p = c + cols
        if replaceable(seat, p, faceup, rules) and bottom < EMPTY0:
            gain = before - column_estimate(rules, top, card, n, S)
            key = gain * 32 + 31 - p
            if gain >= n * (bottom >= 0) and key > best:
                best = key
    return -1 if best < 0 else 31 - best % 32


@njit(inline="always")
def lowest_legal(legal):
    for a in range(N_ACTIONS):
        if legal[a]:
            return a
    return -1


def decide(point, seat, held, public, legal, known, faceup, discard, memory, rules, rng, params):
    # the unseen pool: neither face up in a layout nor in the discard pile
    n = rules[R_NCARDS] - public[PUB_FACEUP_N] - public[PUB_DISCARD_N]
    S = rules[R_DECK_SUM] - public[PUB_FACEUP_SUM] - public[PUB_DISCARD_SUM]
    if point == DP_TURN:
        if legal[A_TAKE_DISCARD] and n > 0:
            top = discard[public[PUB_DISCARD_N] - 1]
            # the take must be legal as a whole, so the placement is planned now
            memory[0] = best_position(seat, top, known, faceup, rules, n, S)
            if memory[0] >= 0:
                return A_TAKE_DISCARD
        if legal[A_DRAW_STOCK]:
            return A_DRAW_STOCK
    elif point == DP_PLACE_TAKEN:
        if memory[0] >= 0 and legal[memory[0]]:
            return memory[0]
    elif point == DP_PLACE_DRAWN:
        p = best_position(seat, held, known, faceup, rules, n - 1, S - rules[RT_VALUE + held]) \
            if n > 1 else -1
        if p >= 0:
            return p
        if legal[A_DISCARD]:
            return A_DISCARD
    elif point == DP_FACE:
        return A_FACE_UP
    elif point == DP_REMOVE:
        return A_REMOVE
    return lowest_legal(legal)

