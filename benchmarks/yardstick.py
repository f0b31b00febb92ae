"""A yardstick for the W1 figures on a machine whose speed drifts: the engine against a plain,
single-purpose Numba loop of W1, timed in alternation in one process.

The issue that set the W1 target gives its scale as "a plain Numba loop about 960,000
rounds/s" and a target of 1,100,000 (about 1.15 times that loop). This machine's speed drifts
by up to 1.5x from one second to the next, so absolute figures from different minutes do not
compare; the ratio of two programs timed turn about does. ``plain_w1`` below is such a loop:
four seats, six positions and one deck hard-coded, W1's greedy computed from the layout at
each decision, one random stream for the whole run (so its deals differ from the engine's, and
its statistics agree only statistically). Prints ONE JSON line:

    python benchmarks/yardstick.py --rounds 20000 --repeats 40

``engine_vs_plain`` is the median over the repeats of (plain time / engine time) for the same
number of rounds: above 1 the engine is faster.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

VALUES = np.array([1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0] * 4, dtype=np.int64)  # A..K
RANKS = np.array(list(range(13)) * 4, dtype=np.int64)
DECK_SUM = int(VALUES.sum())

# _nrt=False and the scratch arrays passed in: with Numba's reference counting on, every
# array handed to a helper costs an atomic incref/decref pair, which made this loop ten
# times slower (see simulator/kernel/jit.py)
plain = njit(cache=True, _nrt=False)
inline = njit(cache=True, _nrt=False, inline="always")


@inline
def _column_estimate(a, b, up_a, up_b, n, S, values, ranks):
    """n times the estimated score of a column (W1's E; face-down cards at S/n)."""
    if up_a and up_b:
        return 0 if ranks[a] == ranks[b] else (values[a] + values[b]) * n
    if up_a:
        return values[a] * n + S
    if up_b:
        return values[b] * n + S
    return 2 * S


@inline
def _best(lay, up, s, card, n, S, values, ranks):
    best, best_gain = -1, 0
    for p in range(6):
        c = p % 3
        a, b = lay[s, c], lay[s, c + 3]
        now = _column_estimate(a, b, up[s, c], up[s, c + 3], n, S, values, ranks)
        if p == c:
            new = _column_estimate(card, b, 1, up[s, c + 3], n, S, values, ranks)
        else:
            new = _column_estimate(a, card, up[s, c], 1, n, S, values, ranks)
        gain = now - new
        if gain >= (n if up[s, p] else 0) and (best < 0 or gain > best_gain):
            best, best_gain = p, gain
    return best


@inline
def _below(state, bound):
    """SplitMix64 step and a multiply-shift draw in [0, bound) (bias below 1e-8: a yardstick,
    not a simulator)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(bound)) >> np.uint64(32))


@plain
def plain_w1(rounds, state, values, ranks, deck_sum, lay, up, stock, disc, down, scores,
             score_sum, wins):
    """Play W1 ``rounds`` times; returns the total number of turns."""
    turns_sum = 0
    for _ in range(rounds):
        for i in range(52):
            stock[i] = i
        for i in range(51, 0, -1):
            j = _below(state, i + 1)
            stock[i], stock[j] = stock[j], stock[i]
        ns = 52
        for p in range(6):
            for s in range(4):
                ns -= 1
                lay[s, p] = stock[ns]
                up[s, p] = 0
        ns -= 1
        disc[0] = stock[ns]
        nd, dsum, upn, ups = 1, values[disc[0]], 0, 0
        for s in range(4):
            up[s, 0] = up[s, 1] = 1
            upn += 2
            ups += values[lay[s, 0]] + values[lay[s, 1]]
            down[s] = 4
        s, ender, left, turn = 0, -1, 0, 0
        while True:
            n, S = 52 - upn - nd, deck_sum - ups - dsum
            top = disc[nd - 1]
            p = _best(lay, up, s, top, n, S, values, ranks)
            if p >= 0:
                nd -= 1
                dsum -= values[top]
                card = top
            else:
                if ns == 0:
                    ns = nd - 1
                    for i in range(ns):
                        stock[i] = disc[i]
                    disc[0] = disc[nd - 1]
                    nd, dsum = 1, values[disc[0]]
                    for i in range(ns - 1, 0, -1):
                        j = _below(state, i + 1)
                        stock[i], stock[j] = stock[j], stock[i]
                    n, S = 52 - upn - nd, deck_sum - ups - dsum
                ns -= 1
                card = stock[ns]
                p = _best(lay, up, s, card, n - 1, S - values[card], values, ranks) \
                    if n > 1 else -1
                if p < 0:
                    disc[nd] = card
                    nd += 1
                    dsum += values[card]
            if p >= 0:
                old = lay[s, p]
                if up[s, p]:
                    upn -= 1
                    ups -= values[old]
                else:
                    down[s] -= 1
                lay[s, p] = card
                up[s, p] = 1
                upn += 1
                ups += values[card]
                disc[nd] = old
                nd += 1
                dsum += values[old]
            turn += 1
            if ender >= 0:
                left -= 1
                if left <= 0:
                    break
            elif down[s] == 0:
                ender, left = s, 3
            if turn >= 400:
                break
            s = (s + 1) & 3
        turns_sum += turn
        low = 1 << 30
        for q in range(4):
            t = 0
            for c in range(3):
                a, b = lay[q, c], lay[q, c + 3]
                t += 0 if ranks[a] == ranks[b] else values[a] + values[b]
            scores[q] = t
            score_sum[q] += t
            low = min(low, t)
        tied = 0
        for q in range(4):
            tied += scores[q] == low
        for q in range(4):
            if scores[q] == low:
                wins[q] += 1.0 / tied
    return turns_sum


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=20_000, help="rounds per timed slice")
    ap.add_argument("--repeats", type=int, default=40, help="timed slices of each program")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    from simulator.game.rules import Rules
    from simulator.experiments.runner import run
    from simulator.experiments.warm import warm_up
    from strategies import resolve_seats, seat_arrays

    rules = Rules.preset("six_card")
    ids, params = seat_arrays(resolve_seats(["greedy"], 4))
    warm_up(rules, 4, ids, params)
    scratch = (np.zeros((4, 6), np.int64), np.zeros((4, 6), np.int64), np.zeros(52, np.int64),
               np.zeros(52, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64),
               np.zeros(4), np.zeros(4))
    state = np.array([args.seed], dtype=np.uint64)
    plain_w1(1000, state, VALUES, RANKS, DECK_SUM, *scratch)
    run(rules, 4, ids, params, rounds=1000, seed=args.seed + 1)

    t_plain, t_engine, turns, rounds = [], [], 0, 0
    engine_turns = 0.0
    for rep in range(args.repeats):
        t0 = time.perf_counter()
        turns += plain_w1(args.rounds, state, VALUES, RANKS, DECK_SUM, *scratch)
        t_plain.append(time.perf_counter() - t0)
        rounds += args.rounds
        t0 = time.perf_counter()
        res = run(rules, 4, ids, params, rounds=args.rounds, seed=args.seed + 2 + rep)
        t_engine.append(time.perf_counter() - t0)
        engine_turns += res.totals.mean_turns() * args.rounds
    ratios = sorted(p / e for p, e in zip(t_plain, t_engine))
    out = {
        "workload": "W1", "rounds_per_slice": args.rounds, "repeats": args.repeats,
        "plain_rounds_per_s": round(args.rounds / statistics.median(t_plain), 1),
        "engine_rounds_per_s": round(args.rounds / statistics.median(t_engine), 1),
        "engine_vs_plain": round(statistics.median(ratios), 3),
        "engine_vs_plain_quartiles": [round(ratios[len(ratios) // 4], 3),
                                      round(ratios[(3 * len(ratios)) // 4], 3)],
        # a sanity check that the yardstick plays W1: both near 26.09 turns a round
        "plain_mean_turns": round(turns / rounds, 3),
        "engine_mean_turns": round(engine_turns / rounds, 3),
        "plain_mean_score": [round(float(x) / rounds, 3) for x in scratch[6]],
    }
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
