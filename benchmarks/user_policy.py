"""The cost of the user-policy interface: W1's rules and greedy logic played three ways, timed
after warm-up, printed as ONE JSON line:

- ``user``: the same logic as a user policy (strategies/examples/greedy_policy.py) as
  `golfsim run --strategy strategies/examples/greedy_policy.py:decide` plays it: compiled
  into its own build of the game flow (simulator/kernel/flow),
- ``builtin_lean``: the built-in ``greedy`` as `golfsim run --strategy greedy` plays it, on
  the lean kernel,
- ``user_pointer``: the user policy called through a function pointer by the general engine
  (what mixed seats and the other rule sets use),
- ``builtin_general``: the built-in ``greedy`` on the general engine.

``user_vs_lean`` is the speed of user / builtin_lean (the issue asks for at least 0.5) and
``pointer_vs_general`` that of user_pointer / builtin_general, each the median over slices
timed in turn; ``user_vs_lean_fastest`` compares the fastest slice of each of the two.
Rounds/s are the medians of each way's slices. The first run compiles the policy's kernel (a
minute or two), which is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=15,
                    help="timed slices of each way, taken in turn")
    args = ap.parse_args(argv)
    os.environ["GOLFSIM_USER_BUILD"] = "wait"   # time the policy's own build, not its first run

    import numpy as np

    from simulator.game.rules import Rules
    from simulator.experiments.runner import run
    from strategies import resolve_seats, seat_arrays, user_policy

    rules = Rules.preset("six_card")
    example = str(ROOT / "strategies" / "examples" / "greedy_policy.py") + ":decide"
    user_seats = resolve_seats([example], 4)
    user = user_policy(user_seats)
    ways = {
        "user": (user_seats, "auto", user),
        "builtin_lean": (resolve_seats(["greedy"], 4), "auto", None),
        "user_pointer": (user_seats, "general", user),
        "builtin_general": (resolve_seats(["greedy"], 4), "general", None),
    }
    out = {"workload": "W1 rules, greedy logic", "rounds": args.rounds, "threads": 1}
    jobs = {}
    for name, (seats, kernel, fn) in ways.items():
        ids, params = seat_arrays(seats)
        jobs[name] = (ids, params, kernel, fn)
        run(rules, 4, ids, params, rounds=2000, seed=args.seed + 1, kernel=kernel, user=fn)
    # the machine's speed drifts from one second to the next: the ways take turns, slice by
    # slice, and the ratio is the median of the slices' ratios
    times = {name: [] for name in ways}
    means = {}
    for _ in range(args.repeats):
        for name, (ids, params, kernel, fn) in jobs.items():
            t0 = time.perf_counter()
            res = run(rules, 4, ids, params, rounds=args.rounds, seed=args.seed, kernel=kernel,
                      user=fn)
            times[name].append(time.perf_counter() - t0)
            means[name] = res.totals.mean_score()
    for name in ways:
        out[name] = round(args.rounds / statistics.median(times[name]), 1)
    out["user_vs_lean"] = round(statistics.median(
        b / u for u, b in zip(times["user"], times["builtin_lean"])), 3)
    # the fastest slice of each: their speeds when the machine disturbed them least
    out["user_vs_lean_fastest"] = round(min(times["builtin_lean"]) / min(times["user"]), 3)
    out["pointer_vs_general"] = round(statistics.median(
        b / u for u, b in zip(times["user_pointer"], times["builtin_general"])), 3)
    out["same_results"] = all(np.array_equal(means["user"], means[name]) for name in ways)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
